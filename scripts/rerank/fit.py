#!/usr/bin/env python3
"""Fits the tool_find reranker (crates/secretary-core/src/search/rerank.rs) on half A only.

Input: the CSV `eval_retrieval --dump-features PATH` writes (per query, the hybrid's first 20
candidates: query number, half A/B, label 1 for the right tool, then the features). Model: a
conditional logit, i.e. per query the softmax of the score w . f over its candidates, fitted to
put the mass on the right tool (queries whose tool is not among the 20 teach nothing and are
left out), with an L2 penalty on w; f is the features (linear) or the features then their
products two by two, f[i] * f[j] for i <= j (quadratic, as `Reranker::score` computes them).
The family and the penalty are chosen by 2-fold cross-validation *inside half A* (recall@5,
then MRR@10); half B is only printed, never used to choose.

    python3 scripts/rerank/fit.py /tmp/feat.csv      # needs numpy and scipy

Prints the chosen weights as a Rust array for `Reranker::TOOLS`, and recall@1/@5 and MRR@10
of the fused order and of the reranked order on A and B.
"""
import csv
import sys

import numpy as np
from scipy.optimize import minimize


def load(path):
    with open(path, newline="") as f:
        rows = csv.reader(f)
        header = next(rows)
        names = header[3:]
        queries = {}
        for r in rows:
            q = queries.setdefault(int(r[0]), {"half": r[1], "y": [], "x": []})
            q["y"].append(int(r[2]))
            q["x"].append([float(v) for v in r[3:]])
    out = []
    for qid in sorted(queries):
        q = queries[qid]
        out.append((qid, q["half"], np.array(q["y"]), np.array(q["x"])))
    return names, out


def fit(groups, l2):
    groups = [(y, x) for y, x in groups if y.sum() == 1]
    dims = groups[0][1].shape[1]

    def loss(w):
        total, grad = 0.0, np.zeros(dims)
        for y, x in groups:
            s = x @ w
            s -= s.max()
            p = np.exp(s)
            p /= p.sum()
            total -= np.log(p[y == 1][0] + 1e-12)
            grad -= x[y == 1][0] - p @ x
        n = len(groups)
        return total / n + l2 * w @ w, grad / n + 2 * l2 * w

    w0 = np.zeros(dims)
    w0[0] = 5.0  # start from the fused order
    return minimize(loss, w0, jac=True, method="L-BFGS-B").x


def metrics(groups, w=None):
    """recall@1, recall@5, MRR@10 over every query of `groups` (a miss when the tool is not among
    the candidates); `w` None: the fused order as dumped."""
    r1 = r5 = mrr = 0.0
    for y, x in groups:
        if y.sum() == 0:
            continue
        order = np.arange(len(y)) if w is None else np.argsort(-(x @ w), kind="stable")
        rank = int(np.nonzero(y[order])[0][0])
        r1 += rank < 1
        r5 += rank < 5
        mrr += 1.0 / (rank + 1) if rank < 10 else 0.0
    n = len(groups)
    return r1 / n, r5 / n, mrr / n


def quadratic(x):
    n = x.shape[1]
    return np.hstack([x] + [(x[:, i] * x[:, j])[:, None] for i in range(n) for j in range(i, n)])


def main():
    names, queries = load(sys.argv[1])
    best = None
    for family, expand in (("linear", lambda x: x), ("quadratic", quadratic)):
        a = [(y, expand(x)) for _, h, y, x in queries if h == "A"]
        folds = (a[0::2], a[1::2])
        for l2 in [1e-4, 1e-3, 1e-2]:
            cv = [metrics(folds[1 - k], fit(folds[k], l2)) for k in (0, 1)]
            r1, r5, mrr = (sum(m[i] for m in cv) / 2 for i in range(3))
            print(f"{family} l2 {l2:g}: A 2-fold recall@1 {r1:.4f} recall@5 {r5:.4f} "
                  f"MRR@10 {mrr:.4f}", flush=True)
            if best is None or (r5, mrr) > best[0]:
                best = ((r5, mrr), family, expand, l2)
    _, family, expand, l2 = best
    a = [(y, expand(x)) for _, h, y, x in queries if h == "A"]
    b = [(y, expand(x)) for _, h, y, x in queries if h == "B"]
    w = fit(a, l2)
    print(f"chosen: {family}, l2 {l2:g}")
    for name, v in zip(names, w):
        print(f"  {name:14} {v: .4f}")
    print("weights: [" + ", ".join(f"{v:.4f}" for v in w) + "]")
    print("--rerank-weights " + ",".join(f"{v:.4f}" for v in w))
    for half, g in (("A", a), ("B", b)):
        f0, f1 = metrics(g), metrics(g, w)
        print(f"half {half}: fused r@1 {f0[0]:.4f} r@5 {f0[1]:.4f} mrr {f0[2]:.4f} | "
              f"reranked r@1 {f1[0]:.4f} r@5 {f1[1]:.4f} mrr {f1[2]:.4f}")


if __name__ == "__main__":
    main()
