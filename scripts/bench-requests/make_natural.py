#!/usr/bin/env python3
"""Builds the "natural" past-requests question set: the dialogs of a make_bench.py file with the
questions of `natural-questions.jsonl` beside this script instead of the mechanical ones.

Why: make_bench.py's questions are a request's own words (some swapped for WordNet synonyms) in
a few fixed frames. People and agents ask in sentences, as LoCoMo's questions do ("What kind of
cooking machine did the user describe?"). The 960 questions of `natural-questions.jsonl` were
written by a language model (the developers' coding assistant, Nov 2026) for 960 requests drawn
at random, one per dialog, from the requests of 40 to 700 characters that are mostly prose: it
saw the request (and the one before it) and was told to ask, weeks later, for that request by
its gist, keeping at most two distinctive words and no run of three words of the request, half
in the first person and half about "the user". Nothing else was filtered or rewritten. Each
line names its dialog by ShareGPT conversation id and its request by 0-based index; `split`
(tune or report) comes from the dialog id as in make_bench.py.

    python3 scripts/bench-requests/make_natural.py --bench /tmp/sg/requests-words.json \\
        --out /tmp/sg/requests-natural.json

`--third-person` deletes every first- and second-person word ("I", "my", "you", "the user", ...)
from each question, so that all of them are questions in the third person ("What kind of cooking
machine did describe, ...?"): how search_requests answers such questions about one person's
requests to an assistant is measured on it, and the request reranker is fitted on its `tune`
questions among others (docs/benchmarks.md, issue 26, twelfth and thirteenth passes).
"""

import argparse
import hashlib
import json
import os
import re
import sys


PERSONAL = re.compile(r"\b(the user's|the user|users|user|i|me|mine|my|our|us|we|you|your)\b", re.I)


def third_person(question):
    """`question` without its first- and second-person words, spaces closed up."""
    return re.sub(r"\s+", " ", PERSONAL.sub("", question)).strip()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bench", required=True, help="make_bench.py output (--seed 26, the word-recall set)")
    ap.add_argument("--out", required=True)
    ap.add_argument(
        "--questions",
        default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "natural-questions.jsonl"),
    )
    ap.add_argument("--third-person", action="store_true",
                    help="delete every first- and second-person word from the questions")
    args = ap.parse_args()
    bench = json.load(open(args.bench, encoding="utf-8"))
    by_id = {d["id"]: n for n, d in enumerate(bench["dialogs"])}
    questions = []
    missing = 0
    for line in open(args.questions, encoding="utf-8"):
        q = json.loads(line)
        d = by_id.get(q["dialog"])
        if d is None or q["request"] >= len(bench["dialogs"][d]["requests"]):
            missing += 1
            continue
        split = "tune" if int(hashlib.sha256(q["dialog"].encode()).hexdigest(), 16) % 2 == 0 else "report"
        text = third_person(q["question"]) if args.third_person else q["question"]
        questions.append({"question": text, "dialog": d, "request": q["request"], "split": split})
    if missing:
        sys.exit(f"{missing} questions name a dialog or request the bench file does not have")
    bench["questions"] = questions
    bench["source"] += "; natural questions (natural-questions.jsonl, written by a language model)"
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump(bench, f)
    tune = sum(q["split"] == "tune" for q in questions)
    print(f"{len(questions)} questions ({tune} tune, {len(questions) - tune} report) -> {args.out}")


if __name__ == "__main__":
    main()
