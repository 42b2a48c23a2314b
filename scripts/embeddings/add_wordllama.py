#!/usr/bin/env python3
"""Builds the committed table from two teachers: the tokenlearn table (all-MiniLM-L6-v2,
`build_table.py`) and WordLlama's token codebook (PyPI `wordllama`, whose wheel ships its
256-dimension weights and tokenizer; nothing is downloaded from a model hub).

Each WordPiece token of the base table keeps its own 128 components and gets 128 more: the mean of
the WordLlama rows of the Llama BPE pieces that spell it (`weather` -> `▁weather`; `##ing` ->
`ing`, no word-start mark), the first 128 of WordLlama's 256 dimensions (its training makes any
prefix a usable embedding), scaled by `--alpha` times the ratio of the two tables' mean row lengths
(WordLlama's over all 256 dimensions) so the second teacher counts for about `alpha` of the first. The rows are stored at 4 bits with one scale
each (format `SCEMB002`, `crates/secretary-core/src/search/embed.rs`): 256 dimensions in the bytes
128 dimensions took at 8 bits.

    python3 scripts/embeddings/add_wordllama.py --base BASE.bin --wordllama-wheel WHEEL \
        --out crates/secretary-core/assets/embeddings.bin

BASE.bin is the tokenlearn table (`build_table.py --out BASE.bin`, or from the history:
`git show 98f5587:crates/secretary-core/assets/embeddings.bin > BASE.bin`). WHEEL is
`pip download wordllama==0.4.0.post1 --no-deps` (needs numpy, safetensors and tokenizers).
Deterministic: the same inputs give the same bytes.
"""
import argparse
import hashlib
import os
import struct
import zipfile

import numpy as np
from safetensors.numpy import load as load_safetensors
from tokenizers import Tokenizer

from refine_table import read_table  # the int8 table reader, beside this file

WEIGHTS = "wordllama/weights/l2_supercat_256.safetensors"
TOKENIZER = "wordllama/tokenizers/l2_supercat_tokenizer_config.json"


def read_wordllama(wheel):
    with zipfile.ZipFile(wheel) as z:
        weights = load_safetensors(z.read(WEIGHTS))
        tokenizer = Tokenizer.from_str(z.read(TOKENIZER).decode("utf-8"))
    (matrix,) = weights.values()
    return matrix.astype(np.float32), tokenizer


def transfer(tokens, matrix, tokenizer):
    """Each WordPiece token's vector in WordLlama: the mean of its BPE pieces' rows."""
    out = np.zeros((len(tokens), matrix.shape[1]), np.float32)
    for i, token in enumerate(tokens):
        if token.startswith("[") and token.endswith("]"):
            continue  # [PAD], [UNK]: no meaning of their own
        text = token[2:] if token.startswith("##") else "\u2581" + token
        ids = [t.id for t in tokenizer.model.tokenize(text)]
        if ids:
            out[i] = matrix[ids].mean(axis=0)
    return out


def pack4(rows):
    """One scale per row; components rounded to -7..7, two per byte, the first in the low nibble."""
    amax = np.abs(rows).max(axis=1)
    scale = np.where(amax > 0, amax / 7.0, 1.0).astype(np.float32)
    q = np.clip(np.rint(rows / scale[:, None]), -7, 7).astype(np.int8)
    nibbles = (q & 0x0F).astype(np.uint8)
    packed = nibbles[:, 0::2] | (nibbles[:, 1::2] << 4)
    return scale, packed


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", required=True)
    ap.add_argument("--wordllama-wheel", required=True)
    ap.add_argument("--dims", type=int, default=128, help="WordLlama dimensions kept")
    ap.add_argument("--alpha", type=float, default=0.4)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()

    tokens, base = read_table(args.base)
    text = "".join(t + "\n" for t in tokens).encode("utf-8")
    matrix, tokenizer = read_wordllama(args.wordllama_wheel)
    extra = transfer(tokens, matrix, tokenizer)
    ratio = np.linalg.norm(base, axis=1).mean() / np.linalg.norm(extra, axis=1).mean()
    rows = np.concatenate([base, args.alpha * ratio * extra[:, : args.dims]], axis=1)
    assert rows.shape[1] % 2 == 0
    scale, packed = pack4(rows)

    blob = b"SCEMB002" + struct.pack("<III", len(tokens), rows.shape[1], len(text)) + text
    blob += scale.astype("<f4").tobytes() + packed.tobytes()
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "wb") as f:
        f.write(blob)
    digest = hashlib.sha256(blob).hexdigest()
    with open(args.out + ".sha256", "w") as f:
        f.write(f"{digest}  {os.path.basename(args.out)}\n")
    print(f"{args.out}: {len(tokens)} tokens x {rows.shape[1]} dims at 4 bits, "
          f"{len(blob)} bytes, sha256 {digest}")


if __name__ == "__main__":
    main()
