#!/usr/bin/env python3
"""Seeds for the `agents` fuzz target: one input per place the target knows (its `PLACES`), each
`[place][cut][bytes]`, from the agents' real logs in `shared/fixtures/agent-sessions`, the logs
written here (`crates/secretary-core/tests/data/written-here`) and small files of the shapes the
readers' tests use. Nothing is committed to a corpus; run before `cargo fuzz run agents`:

    python3 fuzz/seed_agents.py ../shared fuzz/corpus/agents
    RUSTC_BOOTSTRAP=1 cargo fuzz run agents fuzz/corpus/agents -- -max_total_time=600
"""
import json
import pathlib
import sys

# The index of each place in fuzz_targets/agents.rs's PLACES.
COPILOT, COPILOT_OLD, CLAUDE, CODEX, GEMINI, QWEN, CLINE, ROO, KILO_TASK, CONTINUE, OPENCODE_DB, KILO_DB, EXPORT, AIDER, CURSOR = range(15)


def jsonl(records):
    return "".join(json.dumps(r) + "\n" for r in records).encode()


def gemini():
    return jsonl([
        {"sessionId": "0ba308b8", "projectHash": "1301b1a4", "startTime": "2026-11-24T20:36:52.894Z", "kind": "main"},
        {"$set": {"messages": [{"id": "d0", "type": "user", "content": [{"text": "<session_context>\nctx"}]}]}},
        {"id": "db95", "timestamp": "2026-11-24T20:36:52.927Z", "type": "user", "content": [{"text": "first prompt"}]},
        {"id": "8b10", "timestamp": "2026-11-24T20:36:53.100Z", "type": "gemini", "content": "hello", "model": "m"},
        {"id": "u2", "timestamp": "2026-11-24T20:38:00.000Z", "type": "user", "content": "second"},
    ])


def qwen():
    def line(kind, provenance, message):
        return {"uuid": f"u-{kind}-{provenance}", "parentUuid": None, "sessionId": "3536b454", "timestamp": "2026-11-24T20:36:16.498Z",
                "type": kind, "provenance": provenance, "cwd": "/tmp/work", "message": message}
    return jsonl([
        line("user", "real_user", {"role": "user", "parts": [{"text": "a prompt"}]}),
        line("assistant", "assistant_output", {"role": "model", "parts": [{"text": "hello"}]}),
        line("user", "tool_result", {"role": "user", "parts": [{"functionResponse": {"name": "x", "response": {}}}]}),
        line("user", "real_user", {"role": "user", "parts": [{"text": "another"}]}),
    ])


def cline():
    api = json.dumps({"request": "<task>\nfix it\n</task>\n# Current Working Directory (/w) Files\n", "tokensIn": 1})
    return json.dumps([
        {"ts": 1769053680628, "type": "say", "say": "text", "text": "fix it", "modelInfo": {"modelId": "m"}},
        {"ts": 1769053681259, "type": "say", "say": "api_req_started", "text": api},
        {"ts": 1769053689456, "type": "say", "say": "text", "text": "done", "partial": False},
        {"ts": 1769053700000, "type": "say", "say": "user_feedback", "text": "and more"},
        {"ts": 1769053710001, "type": "ask", "ask": "completion_result", "text": ""},
    ]).encode()


def cursor():
    composer = {"_v": 9, "composerId": "c0ffee", "name": "a chat", "createdAt": 1757730112697, "lastUpdatedAt": 1757730933105,
                "fullConversationHeadersOnly": [{"bubbleId": "b1", "type": 1}, {"bubbleId": "b2", "type": 2}]}
    bubble = lambda kind, text: {"_v": 3, "type": kind, "bubbleId": "x", "text": text, "richText": "{}"}
    rows = [("composerData:c0ffee", composer), ("bubbleId:c0ffee:b1", bubble(1, "a question")), ("bubbleId:c0ffee:b2", bubble(2, "an answer"))]
    return json.dumps({"cursor": 1, "conversation": "c0ffee", "folder": "/w",
                       "rows": [{"key": k, "value": json.dumps(v)} for k, v in rows]}).encode()


def small(data, limit=16_384):
    """The first lines of a long log, up to `limit` bytes: a fuzzer mutates small inputs faster,
    and a reader's every kind of line is in a log's first lines."""
    if len(data) <= limit:
        return data
    cut = data.rfind(b"\n", 0, limit)
    return data[: cut + 1] if cut > 0 else data[:limit]


def main():
    shared, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    here = pathlib.Path(__file__).resolve().parent.parent / "crates/secretary-core/tests/data/written-here"
    agents = shared / "fixtures/agent-sessions"
    seeds = [
        (COPILOT, next(agents.glob("copilot-cli__*")).read_bytes()),
        (COPILOT_OLD, next(agents.glob("copilot-cli__*")).read_bytes()),
        (CLAUDE, next(agents.glob("claude-code__*")).read_bytes()),
        (CODEX, next(agents.glob("codex__*")).read_bytes()),
        (GEMINI, gemini()),
        (QWEN, qwen()),
        (CLINE, cline()),
        (ROO, cline()),
        (KILO_TASK, cline()),
        (AIDER, (here / "aider-0.86.2.chat.history.md").read_bytes()),
        (CURSOR, cursor()),
    ]
    for name in ("continue-cn-1.5.47-three-turns.json", "continue-cn-1.5.47-tool-call.json"):
        seeds.append((CONTINUE, (here / name).read_bytes()))
    export = (here / "opencode-1.18.33-export.json").read_bytes()
    seeds += [(OPENCODE_DB, export), (KILO_DB, export), (EXPORT, export)]
    for i, (place, data) in enumerate(seeds):
        data = small(data)
        for cut in (128, 255):
            (out / f"seed-{i:02}-{place:02}-{cut}").write_bytes(bytes([place, cut]) + data)
    print(f"{2 * len(seeds)} seeds in {out}")


if __name__ == "__main__":
    main()
