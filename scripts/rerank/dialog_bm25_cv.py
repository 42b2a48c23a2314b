#!/usr/bin/env python3
"""Measures what scoring a whole dialog as one document would add to the request reranker:
BM25 of the question against every request of a dialog joined, and how much of the question's
weight the dialog holds anywhere, by the same cross-validation inside half A as `teacher_cv.py`
(whose folds, forest and printout this reuses).

Why: dialog hit@1 asks which session holds the answer, and the reranker scores turns. Its dialog
features pool the turns' own scores (`dialog_best`, `dialog_sum`, `dialog_share`), which reward a
session with one turn that matches; a session where the question's words are spread over several
turns (the place in one, the person's family in the next, the day in a third) scores no turn
high. A session as one document is the classic unit of session retrieval and was not measured
(`docs/benchmarks.md`, issue 26: sixteenth pass pooled the turns' scores, not their words).

Features of a candidate ("turn" in the printout: the first four; "dialog": the last two):
- BM25 (k1 1.2, b 0.75) of the question against the candidate's dialog, all its requests joined,
  over all dialogs of the bench as the collection; that less the best candidate dialog's; that
  dialog's rank by it among the candidates' dialogs (1 / (1 + rank));
- the same BM25 against the candidate and the two requests either side joined (a passage);
- the share of the question's IDF weight (distinct words) found anywhere in the dialog; that
  less the best candidate dialog's.

Words: lowercase `[a-z0-9]+`, the core's stop list (read from `search/tokenize.rs`), Snowball
English stems (PyPI `snowballstemmer`, the stemmer the core's `rust-stemmers` implements).

    python3 scripts/rerank/dialog_bm25_cv.py [--local | --novel] \\
        /tmp/sg/conv24-speaker.json /tmp/r-names.csv /tmp/sg/conv24-plain.json /tmp/r-plain.csv

`--local` measures instead the question's words weighed by IDF over the candidates' dialogs
alone (see `local_features`): the candidate's share of that weight, that less the best
candidate's, the share its passage holds ("turn": the first three); its dialog's share, that less
the best dialog's, the dialog's rank by it ("dialog": the last three). `--novel` measures the
same six with each word's weight counted only where the dialog is the first to hold it (see
`novel_features`).
"""
import math
import os
import re
import sys
from collections import Counter

import numpy as np
import snowballstemmer

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import teacher_cv as tc  # noqa: E402

TOKEN = re.compile(r"[a-z0-9]+")


def stop_words():
    source = open(os.path.join(HERE, "../../crates/secretary-core/src/search/tokenize.rs")).read()
    block = source[source.index("const STOP_WORDS"):]
    return set(re.findall(r'"([^"]+)"', block[:block.index("];")]))


STOP = stop_words()
STEM = snowballstemmer.stemmer("english")


def terms(text):
    return STEM.stemWords([t for t in TOKEN.findall(text.lower()) if t not in STOP])


class Bm25:
    """BM25 over a collection of bags of terms."""

    def __init__(self, bags, k1=1.2, b=0.75):
        self.bags = [Counter(x) for x in bags]
        self.lengths = np.array([sum(x.values()) for x in self.bags], float)
        self.mean = self.lengths.mean() or 1.0
        df = Counter(t for x in self.bags for t in x)
        n = len(self.bags)
        self.idf = {t: math.log(1 + (n - f + 0.5) / (f + 0.5)) for t, f in df.items()}
        self.k1, self.b = k1, b

    def score(self, query, bag, length):
        norm = self.k1 * (1 - self.b + self.b * length / self.mean)
        return sum(self.idf.get(t, 0.0) * bag[t] * (self.k1 + 1) / (bag[t] + norm) for t in set(query) if t in bag)


def features(bench, _docs_v, _questions_v, side):
    dialog_of, docs, questions = tc.by_question(bench, side)
    turns = [terms(r["text"]) for d in bench["dialogs"] for r in d["requests"]]
    whole = Bm25([sum((turns[i] for i in np.nonzero(dialog_of == k)[0]), []) for k in range(len(bench["dialogs"]))])
    passages = Bm25([sum((turns[x] for x in [d, *tc.beside(d, dialog_of)]), []) for d in range(len(turns))])
    out = np.zeros((len(docs), 6))
    for q, rows in questions:
        query = terms(bench["questions"][q]["question"])
        weight = {t: whole.idf.get(t, 0.0) for t in set(query)}
        total = sum(weight.values()) or 1.0
        dialogs = sorted({dialog_of[docs[r]] for r in rows})
        bm = {k: whole.score(query, whole.bags[k], whole.lengths[k]) for k in dialogs}
        held = {k: sum(w for t, w in weight.items() if t in whole.bags[k]) / total for k in dialogs}
        rank_of = {k: i for i, k in enumerate(sorted(dialogs, key=lambda k: -bm[k]))}
        best, best_held = max(bm.values()), max(held.values())
        for r in rows:
            d, k = docs[r], dialog_of[docs[r]]
            out[r] = [bm[k], bm[k] - best, 1 / (1 + rank_of[k]),
                      passages.score(query, passages.bags[d], passages.lengths[d]),
                      held[k], held[k] - best_held]
    return out, dialog_of[docs]


def share_features(bench, side, weigh):
    """Six columns from a share of the question's weight: the candidate's, that less the best
    candidate's, its passage's (the candidate and the two requests either side); its dialog's, that
    less the best candidate dialog's, that dialog's rank by it. `weigh(whole)` is given every
    dialog's words and returns `share_of(query, dialogs)`, which returns `share(words, dialog)`."""
    dialog_of, docs, questions = tc.by_question(bench, side)
    turns = [set(terms(r["text"])) for d in bench["dialogs"] for r in d["requests"]]
    whole = [set().union(*(turns[i] for i in np.nonzero(dialog_of == k)[0])) for k in range(len(bench["dialogs"]))]
    share_of = weigh(whole)
    out = np.zeros((len(docs), 6))
    for q, rows in questions:
        dialogs = sorted({dialog_of[docs[r]] for r in rows})
        share = share_of(set(terms(bench["questions"][q]["question"])), dialogs)
        held = {k: share(whole[k], k) for k in dialogs}
        rank_of = {k: i for i, k in enumerate(sorted(dialogs, key=lambda k: -held[k]))}
        mine = np.array([share(turns[docs[r]], dialog_of[docs[r]]) for r in rows])
        best = max(held.values())
        for j, r in enumerate(rows):
            d, k = docs[r], dialog_of[docs[r]]
            passage = turns[d].union(*(turns[x] for x in tc.beside(d, dialog_of)))
            out[r] = [mine[j], mine[j] - mine.max(), share(passage, k), held[k], held[k] - best, 1 / (1 + rank_of[k])]
    return out, dialog_of[docs]


def local_features(bench, _docs_v, _questions_v, side):
    """`--local`: the question's words weighed by how few of the candidates' dialogs hold them
    (IDF over those dialogs alone, not the collection): what tells sessions of one topic apart."""

    def weigh(whole):
        def share_of(query, dialogs):
            df = {t: sum(t in whole[k] for k in dialogs) for t in query}
            weight = {t: math.log((len(dialogs) + 1) / (f + 0.5)) for t, f in df.items() if f}
            total = sum(weight.values()) or 1.0
            return lambda words, _k: sum(w for t, w in weight.items() if t in words) / total

        return share_of

    return share_features(bench, side, weigh)


def novel_features(bench, _docs_v, _questions_v, side):
    """`--novel`: how much of the question a candidate says first. An event is told once, when it
    happens ("I got the charge nurse job!"); later sessions of the same people refer back to it
    and are its rivals. A word is new in a dialog when no dialog begun earlier holds it."""
    begun = [min((r.get("timestamp") or 0) for r in d["requests"]) for d in bench["dialogs"]]

    def weigh(whole):
        first = {}
        for k in sorted(range(len(whole)), key=lambda k: begun[k]):
            for t in whole[k]:
                first.setdefault(t, begun[k])
        idf = {t: math.log(len(whole) / sum(t in w for w in whole)) for t in first}

        def share_of(query, _dialogs):
            query = query & set(first)
            total = sum(idf[t] for t in query) or 1.0
            return lambda words, k: sum(idf[t] for t in query if t in words and first[t] >= begun[k]) / total

        return share_of

    return share_features(bench, side, weigh)


def main():
    tc.vectors = lambda _path, _bench, _model: (None, None)
    tc.teacher_features = features
    if sys.argv[1:2] in (["--local"], ["--novel"]):
        tc.teacher_features = local_features if sys.argv[1] == "--local" else novel_features
        tc.TURN_COLUMNS = 3
        del sys.argv[1]
    sys.argv = [sys.argv[0], "--model", "unused", *sys.argv[1:]]
    tc.main()


if __name__ == "__main__":
    main()
