#!/usr/bin/env python3
"""Fits tool search's query projection (crates/secretary-core/src/search/projection.rs) on
half A of the MetaTool dev queries only.

Input: the vectors `eval_retrieval --dump-features PATH` writes beside the features, as
`PATH.vec` (little-endian: n_docs, n_queries, dims as u32; the documents' unit vectors; then per
query its tool, its half (0 A, 1 B) and its unit vector *without* the projection), all f32.

Model: the query's vector minus `alpha` times its parts along the first `k` principal axes of
the residuals "query minus its tool's vector" over half A (their right singular vectors), then
renormalised. The point is to take out what every query shares whatever tool it wants (the
register people ask in), not to learn the catalog: so `k` and `alpha` are chosen by a split of
the *tools* inside half A (fit on the queries of one half of the tools, measure semantic
recall@5 on the queries of the other half, both ways), and the result is printed for tools seen
and unseen by the fit. Half B is only printed.

    python3 scripts/rerank/query_projection.py /tmp/feat.csv.vec OUT.bin   # needs numpy

Writes the k directions (k x dims, little-endian f32) to OUT.bin and prints the chosen k and
alpha (`QueryProjection::TOOLS` in projection.rs).
"""
import sys

import numpy as np


def load(path):
    raw = open(path, "rb").read()
    nd, nq, dims = np.frombuffer(raw[:12], dtype="<u4")
    at = 12 + nd * dims * 4
    docs = np.frombuffer(raw[12:at], dtype="<f4").reshape(nd, dims).astype(np.float64)
    docs /= np.maximum(np.linalg.norm(docs, axis=1, keepdims=True), 1e-9)
    rec = np.frombuffer(raw[at:], dtype=np.uint8).reshape(nq, 8 + dims * 4)
    tool = rec[:, :4].copy().view("<u4").ravel().astype(np.int64)
    half = rec[:, 4:8].copy().view("<u4").ravel()
    queries = rec[:, 8:].copy().view("<f4").reshape(nq, dims).astype(np.float64)
    return docs, tool, half, queries


def directions(docs, tool, queries, rows, k):
    residual = queries[rows] - docs[tool[rows]]
    return np.linalg.svd(residual, full_matrices=False)[2][:k]


def recall(docs, tool, queries, rows, axes=None, alpha=0.0):
    """recall@1 and recall@5 of the cosine alone over every tool."""
    q = queries[rows]
    if axes is not None:
        q = q - alpha * (q @ axes.T) @ axes
    q = q / np.maximum(np.linalg.norm(q, axis=1, keepdims=True), 1e-9)
    s = q @ docs.T
    want = s[np.arange(len(rows)), tool[rows]]
    rank = (s > want[:, None]).sum(1)
    return (rank < 1).mean(), (rank < 5).mean()


def main():
    docs, tool, half, queries = load(sys.argv[1])
    nd = len(docs)
    a, b = np.where(half == 0)[0], np.where(half == 1)[0]
    perm = np.random.default_rng(0).permutation(nd)
    groups = (set(perm[: nd // 2].tolist()), set(perm[nd // 2:].tolist()))
    of = lambda rows, g: np.array([i for i in rows if tool[i] in g])
    base = np.mean([recall(docs, tool, queries, of(a, g))[1] for g in groups])
    print(f"half A, tools apart: semantic recall@5 without projection {base:.4f}")
    best = None
    for k in [4, 8, 16, 24, 32, 48]:
        for alpha in [0.3, 0.5, 0.7]:
            r = [recall(docs, tool, queries, of(a, groups[1 - i]),
                        directions(docs, tool, queries, of(a, groups[i]), k), alpha)
                 for i in (0, 1)]
            r1, r5 = np.mean([x[0] for x in r]), np.mean([x[1] for x in r])
            print(f"k {k:2} alpha {alpha}: unseen tools recall@1 {r1:.4f} recall@5 {r5:.4f}",
                  flush=True)
            if best is None or (r5, r1) > best[0]:
                best = ((r5, r1), k, alpha)
    _, k, alpha = best
    print(f"chosen: k {k}, alpha {alpha}")
    for i in (0, 1):
        axes = directions(docs, tool, queries, of(a, groups[i]), k)
        for name, g in (("seen", groups[i]), ("unseen", groups[1 - i])):
            before = recall(docs, tool, queries, of(b, g))
            after = recall(docs, tool, queries, of(b, g), axes, alpha)
            print(f"  fit on tool group {i}, half B {name:6} tools: recall@1/@5 "
                  f"{before[0]:.4f}/{before[1]:.4f} -> {after[0]:.4f}/{after[1]:.4f}")
    axes = directions(docs, tool, queries, a, k)
    before, after = recall(docs, tool, queries, b), recall(docs, tool, queries, b, axes, alpha)
    print(f"fit on all of half A; half B semantic recall@1/@5 {before[0]:.4f}/{before[1]:.4f} "
          f"-> {after[0]:.4f}/{after[1]:.4f}")
    open(sys.argv[2], "wb").write(axes.astype("<f4").tobytes())


if __name__ == "__main__":
    main()
