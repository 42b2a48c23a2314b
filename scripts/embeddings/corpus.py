"""The sentences the static table is trained on (tokenlearn): English prose about what software
and words do, from two pinned Debian files (the Debian archive is one of the registries this
project may use; nothing from MetaTool or any evaluation set is in it).

- Debian bookworm's package descriptions (`Translation-en`): short descriptions ("Real-time
  strategy game of ancient warfare") and long-description paragraphs.
- WordNet 3.0 (`wordnet-base_3.0-37`): every synset's definition ("hew: make or shape as with an
  axe") and its example sentences.

`feature_sets()` returns the two sets exactly as the committed table was trained on them: 20,000
sampled description texts (featurized at up to 128 tokens) and the rest (up to 64 tokens),
in the order and chunks of that run.
"""
import hashlib
import json
import lzma
import os
import random
import subprocess
import sys
import tempfile
import urllib.request

DEBIAN = "http://deb.debian.org/debian"
TRANSLATION = (
    f"{DEBIAN}/dists/bookworm/main/i18n/Translation-en.xz",
    "a3d4a0bfd8e9242810b0885eda7c1a6e05dac15b333ddbaab03ba56f2dfa4bf0",
)
WORDNET = (
    f"{DEBIAN}/pool/main/w/wordnet/wordnet-base_3.0-37_all.deb",
    "61060d960f9ada8fa120872312eccd3ecebfbab8c4579e4f5a74e1cf67620752",
)
SAMPLE = 20_000
CHUNK = 20_000


def fetch(url_sha, cache):
    """The file, from `cache` or downloaded; a changed checksum is said, not hidden (a Debian
    point release can rewrite Translation-en; the table then differs from the committed one)."""
    url, sha = url_sha
    path = os.path.join(cache, os.path.basename(url))
    if not os.path.exists(path):
        print(f"downloading {url}", file=sys.stderr)
        with urllib.request.urlopen(url, timeout=120) as r, open(path + ".part", "wb") as f:
            f.write(r.read())
        os.replace(path + ".part", path)
    digest = hashlib.sha256(open(path, "rb").read()).hexdigest()
    if digest != sha:
        print(f"warning: {os.path.basename(url)} has sha256 {digest}, not {sha}", file=sys.stderr)
    return path


def debian_texts(cache):
    """Short descriptions and long-description paragraphs (600 characters at most), in file order."""
    shorts, texts, cur = [], [], None
    # Line by line as a text file reads (not str.splitlines, which also splits at \x0c, \x85...).
    for line in lzma.open(fetch(TRANSLATION, cache), "rt", encoding="utf-8"):
        if line.startswith("Description-en: "):
            short = line[len("Description-en: "):].strip()
            shorts.append(short)
            texts.append(short)
            cur = []
        elif line.startswith(" ") and cur is not None:
            s = line.strip()
            if s == ".":
                # A paragraph break; one right after the short description (no text yet) is
                # skipped and the next paragraph is collected instead (as the committed run did).
                if cur:
                    texts.append(" ".join(cur)[:600])
                    cur = None
            else:
                cur.append(s)
        else:
            if cur:
                texts.append(" ".join(cur)[:600])
            cur = None
    return shorts, texts


def wordnet_texts(cache):
    """`lemma: definition` and the example sentences of every synset."""
    deb = fetch(WORDNET, cache)
    out = os.path.join(cache, "wordnet")
    if not os.path.isdir(out):
        subprocess.run(["dpkg-deb", "-x", deb, out + ".part"], check=True)
        os.replace(out + ".part", out)
    texts = []
    for pos in ["noun", "verb", "adj", "adv"]:
        for line in open(os.path.join(out, "usr/share/wordnet", f"data.{pos}"), encoding="latin-1"):
            if line.startswith("  ") or "|" not in line:
                continue
            head, gloss = line.split("|", 1)
            fields = head.split()
            count = int(fields[3], 16)
            words = [fields[4 + 2 * i].replace("_", " ") for i in range(count)]
            parts = [p.strip().strip('"') for p in gloss.strip().split(";")]
            texts.append(f"{words[0]}: {parts[0]}")
            texts.extend(example for example in parts[1:] if len(example) > 15)
    return texts


def feature_sets(cache):
    """[(texts, max_seq_length, batch_size)], the chunks to featurize, in training order."""
    shorts, descriptions = debian_texts(cache)
    seen, sample = set(), []
    for t in descriptions:
        if len(t) > 12 and t not in seen:
            seen.add(t)
            sample.append(t)
    random.Random(0).shuffle(sample)
    sample = sample[:SAMPLE]
    taken = set(sample)
    rest = list(dict.fromkeys(t for t in wordnet_texts(cache) + shorts if len(t) > 12))
    rest = [t for t in rest if t not in taken]
    random.Random(0).shuffle(rest)
    chunks = [(sample, 128, 64)]
    # The committed run read its chunk files in name order (big_0, big_100000, ..., big_20000...).
    for start in sorted(range(0, len(rest), CHUNK), key=str):
        chunks.append((rest[start:start + CHUNK], 64, 128))
    return chunks


def featurize(model_dir, cache):
    """The texts and the teacher's (all-MiniLM-L6-v2) sentence vectors, cached per chunk."""
    import numpy as np
    from sentence_transformers import SentenceTransformer

    teacher = SentenceTransformer(model_dir, device="cpu")
    texts, vectors = [], []
    for i, (chunk, max_len, batch) in enumerate(feature_sets(cache)):
        key = hashlib.sha256(json.dumps([chunk, max_len, batch]).encode()).hexdigest()[:16]
        path = os.path.join(cache, f"features-{key}.npy")
        if not os.path.exists(path):
            print(f"featurizing chunk {i}: {len(chunk)} texts", file=sys.stderr)
            teacher.max_seq_length = max_len
            v = teacher.encode(chunk, batch_size=batch, show_progress_bar=False, normalize_embeddings=False)
            with tempfile.NamedTemporaryFile(dir=cache, suffix=".npy", delete=False) as f:
                np.save(f, v.astype(np.float32))
            os.replace(f.name, path)
        texts.extend(chunk)
        vectors.append(np.load(path))
    return texts, np.concatenate(vectors)
