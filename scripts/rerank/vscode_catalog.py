#!/usr/bin/env python3
"""Writes the catalog of tools an agent sees in the e2e VS Code (code-server's own tools, the
bundled Copilot extension's and the Secretary's) as `eval_retrieval --catalog` reads it: a
check that tool search ranks well on long, real descriptions, not only on MetaTool's one-liners.

    python3 scripts/rerank/vscode_catalog.py /tmp/vscode-catalog.json [CHECKOUT]   # after scripts/e2e-setup
    cargo run --release -p secretary-core --example eval_retrieval -- \\
        --catalog /tmp/vscode-catalog.json --queries scripts/rerank/vscode-queries.csv --hybrid

The core's tools are read from the minified workbench (each `modelDescription` with the last
`id` before it), so the names are their ids (`terminalLastCommand`). `vscode-queries.csv`: 47
queries written by hand, in the words an agent uses, before any ranking was seen; the seventh
pass of issue 26 used them to choose between reranker designs (`docs/benchmarks.md`), so they
are a check, not a held-out result.
"""
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CODE_SERVER_VSCODE = ".tools/code-server/node_modules/code-server/lib/vscode"


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "vscode-catalog.json"
    # A checkout whose .tools holds code-server (this one unless told; a git worktree has none).
    VSCODE = Path(sys.argv[2] if len(sys.argv) > 2 else ROOT) / CODE_SERVER_VSCODE
    workbench = (VSCODE / "out/vs/code/browser/workbench/workbench.js").read_text(
        encoding="utf-8", errors="replace")
    tools = {}
    for m in re.finditer(r'modelDescription:\s*("(?:[^"\\]|\\.)*"|`[^`]*`)', workbench):
        ids = re.findall(r'(?:id|toolReferenceName|name):\s*"([a-zA-Z_]\w*)"',
                         workbench[max(0, m.start() - 1500):m.start()])
        if ids:
            text = m.group(1)[1:-1]
            if m.group(1).startswith('"'):
                text = json.loads(m.group(1))
            tools.setdefault(ids[-1], text)
    for manifest in (VSCODE / "extensions/copilot/package.json", ROOT / "package.json"):
        for tool in json.loads(manifest.read_text())["contributes"]["languageModelTools"]:
            tools.setdefault(tool["name"], tool.get("modelDescription") or "")
    catalog = [{"name": name, "description": text} for name, text in tools.items()]
    Path(out).write_text(json.dumps(catalog, indent=1) + "\n")
    print(f"{out}: {len(catalog)} tools")


if __name__ == "__main__":
    main()
