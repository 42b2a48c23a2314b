#!/usr/bin/env python3
"""Writes the dialogs of a make_bench.py file as VS Code chat session files (`.json`, version 3),
one per dialog, so that `extension/bench/scan.ts` can time `search_requests` in the WASM core
over the same 10,000 requests (`node out/bench/scan.js DIR`).

    python3 scripts/bench-requests/to_sessions.py BENCH.json DIR
"""

import json
import os
import sys


def main():
    bench, out = sys.argv[1], sys.argv[2]
    data = json.load(open(bench, encoding="utf-8"))
    os.makedirs(out, exist_ok=True)
    for n, dialog in enumerate(data["dialogs"]):
        requests = [
            {
                "requestId": f"r{n}-{i}",
                "timestamp": r["timestamp"],
                "message": {"text": r["text"], "parts": []},
                "response": [{"value": r.get("answer", "")}],
            }
            for i, r in enumerate(dialog["requests"])
        ]
        session = {
            "version": 3,
            "sessionId": f"bench-{n:05d}",
            "creationDate": dialog["requests"][0]["timestamp"],
            "requests": requests,
        }
        with open(os.path.join(out, f"bench-{n:05d}.json"), "w", encoding="utf-8") as f:
            json.dump(session, f)
    print(f"{len(data['dialogs'])} session files -> {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
