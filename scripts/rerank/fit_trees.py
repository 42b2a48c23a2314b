#!/usr/bin/env python3
"""Fits a reranker forest on half A only: tool_find's (crates/secretary-core/src/search/rerank.rs,
from `eval_retrieval --dump-features`) or past-request search's (search/request_rerank.rs, from
`eval_requests --dump-request-features`; `--also` the same chats without speakers' names,
`--more` other questions: the natural set put in the third person).

Input: the CSV `eval_retrieval --dump-features PATH` writes (per query, the hybrid's first 20
candidates: query number, half A/B, label 1 for the right tool, then the features). Model: a
LambdaRank forest of regression trees (LightGBM), the candidates of one query as one group,
every tree at most `depth` deep. Its size (depth, learning rate, number of trees; `GRID`) is
chosen by 5-fold cross-validation *inside half A*: the smallest model (2^depth x trees) whose
recall@5 is within 0.2 points of the best, then by MRR@10. Half B is only printed, never used
to choose.

    python3 scripts/rerank/fit_trees.py /tmp/feat.csv crates/secretary-core/assets/tool-rerank.json
    python3 scripts/rerank/fit_trees.py /tmp/feat.csv OUT.json --config 5,0.1,100   # no grid

Writes the forest as JSON (`secretary-forest-2`: the feature names, the depth, then per tree
its splits' features and thresholds in breadth-first order and its leaves, every tree made
complete to the depth), which `search::rerank::Forest` reads, and prints recall@1/@5 and
MRR@10 of the fused and the reranked order on A and B. Needs numpy and lightgbm (PyPI;
4.7.0 wrote the committed file);
deterministic for a given dump (fixed seed, LightGBM's `deterministic`).
"""
import argparse
import csv
import itertools
import json

import lightgbm as lgb
import numpy as np

FORMAT = "secretary-forest-2"
# Above any feature (all lie in 0..=1 but the log of a length): a split that always goes left.
ALWAYS_LEFT = 1e30
# Added to the question numbers of the k-th `--also` dump, k times; `--more` dumps start at MORE.
ALSO = 1_000_000
MORE = 1_000_000_000
GRID = list(itertools.product([4, 5], [0.05, 0.1], [100, 200, 400]))


def load(path):
    with open(path, newline="") as f:
        rows = csv.reader(f)
        header = next(rows)
        names = header[3:]
        qid, half, y, x = [], [], [], []
        for r in rows:
            qid.append(int(r[0]))
            half.append(r[1])
            y.append(int(r[2]))
            x.append([float(v) for v in r[3:]])
    qid, y, x = np.array(qid), np.array(y), np.array(x)
    spans = {}
    for i, q in enumerate(qid):
        spans.setdefault(q, [i, i])[1] = i + 1
    halves = {q: half[a] for q, (a, _) in spans.items()}
    return names, spans, halves, y, x


def metrics(queries, spans, y, scores):
    """recall@1, recall@5, MRR@10 over `queries` (a miss when the tool is not a candidate)."""
    r1 = r5 = mrr = 0.0
    for q in queries:
        a, b = spans[q]
        if y[a:b].sum() == 0:
            continue
        order = np.argsort(-scores[a:b], kind="stable")
        rank = int(np.nonzero(y[a:b][order])[0][0])
        r1 += rank < 1
        r5 += rank < 5
        mrr += 1.0 / (rank + 1) if rank < 10 else 0.0
    n = len(queries)
    return r1 / n, r5 / n, mrr / n


def rows(queries, spans):
    idx = np.concatenate([np.arange(*spans[q]) for q in queries])
    return idx, [spans[q][1] - spans[q][0] for q in queries]


def train(queries, spans, y, x, config):
    depth, rate, rounds = config
    idx, groups = rows(queries, spans)
    params = dict(
        objective="lambdarank", num_leaves=2**depth, max_depth=depth, learning_rate=rate,
        min_data_in_leaf=50,
        lambdarank_truncation_level=10, num_threads=2, seed=1, deterministic=True,
        force_row_wise=True, verbose=-1,
    )
    return lgb.train(params, lgb.Dataset(x[idx], y[idx], group=groups), num_boost_round=rounds)


def cross_validate(a, spans, y, x, config, folds=5):
    return metrics(a, spans, y, cross_validated_scores(a, spans, y, x, config, folds))


def cross_validated_scores(a, spans, y, x, config, folds=5, seed=0):
    """Each row of the questions `a` scored by a model fitted on the other folds."""
    rng = np.random.default_rng(seed)
    # A question of an `--also` dump (its number + k * ALSO) is in its first dump's fold: the
    # same question written another way must not be fitted on to predict itself. A `--more`
    # dump's questions (numbers from MORE up) are others, with folds of their own.
    fold_of = {}
    fold = {q: fold_of.setdefault(q if q >= MORE else q % ALSO, rng.integers(folds)) for q in a}
    scores = np.zeros(len(y))
    for k in range(folds):
        model = train([q for q in a if fold[q] != k], spans, y, x, config)
        idx, _ = rows([q for q in a if fold[q] == k], spans)
        scores[idx] = model.predict(x[idx])
    return scores


def short(x):
    """`x` to 7 significant digits: the core reads f32 (about 7), and the file stays small."""
    return float(f"{x:.7g}")


def export(model, names, depth):
    """The forest as `search::rerank::Forest` reads it: every tree made complete to `depth`
    (splits in breadth-first order, split i's children 2i+1 and 2i+2, then the leaves), a leaf
    above the bottom becoming splits that always go left (threshold `ALWAYS_LEFT`) over copies
    of its value, so that the walk is `depth` steps with no branch on the data."""
    inner, bottom = 2**depth - 1, 2**depth
    trees = []
    for info in model.dump_model()["tree_info"]:
        feature, threshold, leaf = [0] * inner, [ALWAYS_LEFT] * inner, [0.0] * bottom

        def fill(node, at, level):
            if "leaf_value" in node:
                # The bottom leaves under `at` are 2^(depth - level) consecutive ones.
                first = at
                while first < inner:
                    first = 2 * first + 1
                for i in range(first - inner, first - inner + 2 ** (depth - level)):
                    leaf[i] = short(node["leaf_value"])
                return
            if level >= depth:
                raise ValueError("a tree deeper than max_depth")
            # The core goes right when a feature is above the threshold and has no missing
            # values (no feature is ever NaN): anything else would be read differently.
            if node["decision_type"] != "<=" or node.get("missing_type", "None") != "None":
                raise ValueError(f"split {node['decision_type']} {node.get('missing_type')}")
            feature[at] = node["split_feature"]
            threshold[at] = short(node["threshold"])
            fill(node["left_child"], 2 * at + 1, level + 1)
            fill(node["right_child"], 2 * at + 2, level + 1)

        fill(info["tree_structure"], 0, 0)
        trees.append(dict(feature=feature, threshold=threshold, leaf=leaf))
    return {"format": FORMAT, "features": names, "depth": depth, "trees": trees}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("dump")
    parser.add_argument("out")
    parser.add_argument("--config", help="depth,rate,rounds: skip the grid")
    parser.add_argument("--also", action="append", default=[],
                        help="another dump of the same features and the same questions (over "
                             "the collection written another way), fitted on with the first")
    parser.add_argument("--more", action="append", default=[],
                        help="another dump of the same features and other questions")
    args = parser.parse_args()
    names, spans, halves, y, x = load(args.dump)
    extra = [(path, k * ALSO) for k, path in enumerate(args.also, 1)]
    extra += [(path, MORE + k * ALSO) for k, path in enumerate(args.more)]
    for path, offset in extra:
        more_names, more_spans, more_halves, more_y, more_x = load(path)
        if more_names != names:
            raise SystemExit(f"{path}: other features than {args.dump}")
        for q, (start, end) in more_spans.items():
            spans[q + offset] = [start + len(y), end + len(y)]
            halves[q + offset] = more_halves[q]
        y, x = np.concatenate([y, more_y]), np.vstack([x, more_x])
    a = [q for q in spans if halves[q] == "A"]
    b = [q for q in spans if halves[q] == "B"]
    if args.config:
        depth, rate, rounds = args.config.split(",")
        config = (int(depth), float(rate), int(rounds))
    else:
        results = []
        for config in GRID:
            m = cross_validate(a, spans, y, x, config)
            print(f"{config}: A 5-fold recall@1 {m[0]:.4f} recall@5 {m[1]:.4f} MRR@10 {m[2]:.4f}",
                  flush=True)
            results.append((config, m))
        best = max(m[1] for _, m in results)
        near = [(c, m) for c, m in results if m[1] >= best - 0.002]
        config = min(near, key=lambda cm: (2 ** cm[0][0] * cm[0][2], -cm[1][2]))[0]
    print(f"chosen: depth {config[0]}, rate {config[1]}, {config[2]} trees")
    model = train(a, spans, y, x, config)
    for half, queries in (("A", a), ("B", b)):
        fused = metrics(queries, spans, y, -np.arange(len(y), dtype=float))
        idx, _ = rows(queries, spans)
        scores = np.zeros(len(y))
        scores[idx] = model.predict(x[idx])
        tree = metrics(queries, spans, y, scores)
        print(f"half {half}: fused r@1 {fused[0]:.4f} r@5 {fused[1]:.4f} mrr {fused[2]:.4f} | "
              f"reranked r@1 {tree[0]:.4f} r@5 {tree[1]:.4f} mrr {tree[2]:.4f}")
    with open(args.out, "w") as f:
        json.dump(export(model, names, config[0]), f, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main()
