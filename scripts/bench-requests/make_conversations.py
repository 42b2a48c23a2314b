#!/usr/bin/env python3
"""Builds the "conversations" past-requests set: LoCoMo-shaped chats for
crates/secretary-core/examples/eval_requests.rs.

Why: LoCoMo (the judge) is 10 long conversations between two people, each turn of both speakers
one request, 19 to 35 sessions per conversation, chit-chat turns of a sentence or two, the same
people and topics coming back session after session; questions name the people ("When did
Caroline go to the support group?"). The ShareGPT sets have none of that shape. The eight
conversations in `conversations/` were written for this project by a language model (the
developers' coding assistant, Nov 2026), each told: two named people with their own lives,
15 sessions over about seven months, 14 to 20 alternating casual turns a session with concrete
details, recurring topics; then 45 questions, each answered by one turn (27 facts or events, 10
"when", 8 needing a little inference), naming the people, no run of three words of the
evidence turn. Nothing was filtered or rewritten afterwards.

Conversations 1 to 4 are for development (their questions are `tune`); 5 to 8 were written
after the choices of issue 26's fifth pass and are `report`; 9 to 16 were written the same way
(by four helpers, one pair each, told the same rules and given the people) after the choices of
the sixth pass, and are `fresh`: a second report set, twice as large, never looked at before its
figures were taken. Chats 17 to 24 (`conversations/train/`, written the same way by four
helpers after the twelfth pass, each checked by `check_conversation.py`) are `train`: the request
reranker is fitted on them and the `tune` chats, never on `report` or `fresh`; `--train` adds
them after the sixteen. `--split all` in `eval_requests` takes every question. Each session is one dialog, each turn one
request, dated at the session's time plus 30 s a turn. `--speaker` writes each turn as
"Name: text" (as a transcript of such a chat reads), else the text alone.

    python3 scripts/bench-requests/make_conversations.py --out /tmp/sg/conversations.json --speaker
    cargo run --release -p secretary-core --example eval_requests -- --bench /tmp/sg/conversations.json --split report
"""

import argparse
import datetime
import glob
import json
import os


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--speaker", action="store_true", help='turns as "Name: text"')
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--dir", default=os.path.join(here, "conversations"))
    ap.add_argument("--conversations", type=int, default=0,
                    help="only the first N (8: the set of the fifth pass); default every one")
    ap.add_argument("--train", action="store_true",
                    help="also the training chats of train/ (split `train`), after the others")
    args = ap.parse_args()
    dialogs, questions = [], []
    count = len(glob.glob(os.path.join(args.dir, "conv*.json")))
    if args.conversations:
        count = min(count, args.conversations)
    paths = [(n, os.path.join(args.dir, f"conv{n}.json")) for n in range(1, count + 1)]
    if args.train:
        train = glob.glob(os.path.join(args.dir, "train", "conv*.json"))
        numbers = sorted(int(os.path.basename(p)[4:-5]) for p in train)
        paths += [(n, os.path.join(args.dir, "train", f"conv{n}.json")) for n in numbers]
    for n, path in paths:
        conv = json.load(open(path, encoding="utf-8"))
        split = "tune" if n <= 4 else "report" if n <= 8 else "fresh" if n <= 16 else "train"
        base = len(dialogs)
        for s, session in enumerate(conv["sessions"]):
            start = datetime.datetime.fromisoformat(session["date"]).replace(tzinfo=datetime.timezone.utc)
            t0 = int(start.timestamp() * 1000)
            requests = [
                {
                    "text": f"{t['speaker']}: {t['text']}" if args.speaker else t["text"],
                    "timestamp": t0 + i * 30_000,
                }
                for i, t in enumerate(session["turns"])
            ]
            dialogs.append({"id": f"conv{n}#{s + 1}", "requests": requests})
        for q in conv["questions"]:
            questions.append(
                {"question": q["question"], "dialog": base + q["session"] - 1, "request": q["turn"] - 1, "split": split}
            )
    bench = {
        "source": "conversations/ (LoCoMo-shaped chats written by a language model), "
        + ("speaker-prefixed" if args.speaker else "text only"),
        "dialogs": dialogs,
        "questions": questions,
    }
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump(bench, f)
    turns = sum(len(d["requests"]) for d in dialogs)
    print(f"{len(dialogs)} dialogs, {turns} requests, {len(questions)} questions -> {args.out}")


if __name__ == "__main__":
    main()
