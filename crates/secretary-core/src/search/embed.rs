//! Static embeddings: a token -> vector table and the dense index built with it.
//!
//! The table ([`Table`]) holds two teachers side by side (see `scripts/embeddings/README.md`): a
//! model2vec distillation of a sentence-transformer, trained further with tokenlearn, and
//! WordLlama's token codebook moved onto the same WordPiece vocabulary. Every token has one
//! vector, and a text's vector is the L2-normalised sum (equivalently the mean) of its tokens'
//! vectors. Frequent tokens have short vectors (model2vec's SIF weighting), so "the", "can you"
//! and "please" barely move a query's direction. No model runs at query time: embedding a query
//! is a few table look-ups, and ranking is one dot product per document ([`DenseIndex`]).
//!
//! ## Table format (`assets/embeddings.bin`, little-endian)
//!
//! | bytes | content |
//! |---|---|
//! | 8 | magic: `SCEMB001` (8-bit rows) or `SCEMB002` (4-bit rows) |
//! | 4 | `n`: vocabulary size (u32) |
//! | 4 | `dims`: vector dimensions (u32; even for 4-bit rows) |
//! | 4 | `v`: size of the vocabulary text in bytes (u32) |
//! | `v` | the `n` tokens in id order, each followed by `\n` (UTF-8) |
//! | `4 n` | per-token scale (f32) |
//! | `n dims` or `n dims / 2` | per-token vector; component `j` of token `i` is `q[i][j] * scale[i]` |
//!
//! `q` is int8 in `SCEMB001`; in `SCEMB002` it is a signed 4-bit integer, two to a byte, the
//! lower-numbered component in the low nibble. 4-bit rows are widened to int8 on parsing, so
//! everything past [`Table::parse`] sees one layout; they halve the asset (the committed table
//! holds 256 dimensions in the bytes 128 took at 8 bits, at no loss measured in retrieval).
//!
//! Its SHA-256 is in `assets/embeddings.bin.sha256` and checked by a test.

use std::sync::OnceLock;

use super::dot::dot_i16_i8;
use super::index::bm25_idf;
use super::projection::{Directions, QueryProjection};
use super::soft_match::TokenSets;
use super::tokenize::for_each_piece;
use super::wordpiece::{strip_accent, WordPiece};

/// Magic of a table with int8 rows.
const MAGIC_8BIT: &[u8; 8] = b"SCEMB001";
/// Magic of a table with 4-bit rows.
const MAGIC_4BIT: &[u8; 8] = b"SCEMB002";

/// The committed table, compiled into the core.
static BUILTIN_BYTES: &[u8] = include_bytes!("../../assets/embeddings.bin");

/// 4-bit components, two to a byte (low nibble first), as int8 (-8 to 7).
fn widen_nibbles(packed: &[u8]) -> Vec<i8> {
    packed
        .iter()
        .flat_map(|&b| [((b << 4) as i8) >> 4, (b as i8) >> 4])
        .collect()
}

/// A static embedding table with its WordPiece vocabulary.
#[derive(Clone)]
pub struct Table {
    vocab: WordPiece,
    dims: usize,
    scales: Vec<f32>,
    data: Vec<i8>,
    /// One over the length of each token's int8 row, for [`Table::cosine`]; worked out on first
    /// use, since only the soft match needs it.
    inverse_norms: OnceLock<Vec<f32>>,
}

impl std::fmt::Debug for Table {
    /// A summary: the vectors would flood any log.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Table")
            .field("tokens", &self.vocab.len())
            .field("dims", &self.dims)
            .finish_non_exhaustive()
    }
}

impl Table {
    /// Parses a table in the format above.
    pub fn parse(bytes: &[u8]) -> Result<Table, String> {
        // Also what a header whose sizes overflow gets: it claims more bytes than there are.
        const TRUNCATED: &str = "embedding table truncated";
        let mut at = 0usize;
        let mut take = |n: usize| -> Result<&[u8], String> {
            let end = at
                .checked_add(n)
                .filter(|&e| e <= bytes.len())
                .ok_or_else(|| TRUNCATED.to_string())?;
            let slice = &bytes[at..end];
            at = end;
            Ok(slice)
        };
        let four_bit = match take(8)? {
            m if m == MAGIC_8BIT => false,
            m if m == MAGIC_4BIT => true,
            _ => return Err("not an embedding table (bad magic)".into()),
        };
        let mut u32_at = || take(4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize);
        let n = u32_at()?;
        let dims = u32_at()?;
        let v = u32_at()?;
        if dims == 0 || dims > 4096 || (four_bit && dims & 1 == 1) {
            return Err(format!("embedding table: bad dimension count {dims}"));
        }
        let text = std::str::from_utf8(take(v)?).map_err(|e| format!("embedding vocab: {e}"))?;
        let tokens: Vec<&str> = text.split_terminator('\n').collect();
        if tokens.len() != n {
            return Err(format!(
                "embedding table: {} tokens, header says {n}",
                tokens.len()
            ));
        }
        // Sizes from the header are checked before use: on wasm32 `usize` is 32 bits.
        let cells = n.checked_mul(dims).ok_or(TRUNCATED)?;
        let scales = le_f32s(take(n.checked_mul(4).ok_or(TRUNCATED)?)?).collect::<Vec<_>>();
        if scales.iter().any(|s| !s.is_finite()) {
            return Err("embedding table: non-finite scale".into());
        }
        let data = if four_bit {
            widen_nibbles(take(cells / 2)?)
        } else {
            take(cells)?.iter().map(|&b| b as i8).collect()
        };
        Ok(Table {
            vocab: WordPiece::new(&tokens),
            dims,
            scales,
            data,
            inverse_norms: OnceLock::new(),
        })
    }

    /// The table compiled into the core (parsed once, on first use).
    pub fn builtin() -> &'static Table {
        static TABLE: OnceLock<Table> = OnceLock::new();
        TABLE.get_or_init(|| {
            // The committed asset is checked by tests; a corrupt one is a build defect.
            Table::parse(BUILTIN_BYTES).expect("committed embedding table is valid")
        })
    }

    /// The raw bytes of the compiled-in table (for checksum tests).
    pub fn builtin_bytes() -> &'static [u8] {
        BUILTIN_BYTES
    }

    /// Vector dimensions.
    pub fn dims(&self) -> usize {
        self.dims
    }

    /// The WordPiece vocabulary.
    pub fn vocab(&self) -> &WordPiece {
        &self.vocab
    }

    /// Token `id`'s int8 row (empty for an id out of range).
    pub(crate) fn row(&self, id: u32) -> &[i8] {
        (id as usize)
            .checked_mul(self.dims)
            .and_then(|start| self.data.get(start..start.checked_add(self.dims)?))
            .unwrap_or(&[])
    }

    /// The cosine of two tokens' vectors (0 for an unknown id or a zero vector). A token's
    /// scale does not change its direction, so this is the cosine of the int8 rows.
    pub fn cosine(&self, a: u32, b: u32) -> f32 {
        let wide: Vec<i16> = self.row(a).iter().map(|&x| i16::from(x)).collect();
        row_cosine(
            a == b,
            &wide,
            self.inverse_norm(a),
            self.row(b),
            self.inverse_norm(b),
        )
    }

    /// One over the length of token `id`'s int8 row (0 for an unknown id or a zero vector):
    /// with [`Table::row`], what a cosine needs.
    pub(crate) fn inverse_norm(&self, id: u32) -> f32 {
        let inverse = self.inverse_norms.get_or_init(|| {
            (0..self.vocab.len() as u32)
                .map(|id| {
                    let sq: i32 = self
                        .row(id)
                        .iter()
                        .map(|&x| i32::from(x) * i32::from(x))
                        .sum();
                    let scale = self.scales.get(id as usize).copied().unwrap_or(0.0);
                    if sq > 0 && scale > 0.0 {
                        1.0 / (sq as f32).sqrt()
                    } else {
                        0.0
                    }
                })
                .collect()
        });
        inverse.get(id as usize).copied().unwrap_or(0.0)
    }

    /// Adds `weight` times token `id`'s vector to `acc`.
    fn add_token(&self, id: u32, weight: f32, acc: &mut [f32]) {
        let Some(&scale) = self.scales.get(id as usize) else {
            return;
        };
        let s = scale * weight;
        for (a, &q) in acc.iter_mut().zip(self.row(id)) {
            *a += f32::from(q) * s;
        }
    }

    /// Appends the WordPiece ids of `text` (split as [`Table::accumulate`] splits it) to `ids`,
    /// `[UNK]` left out.
    pub fn token_ids(&self, text: &str, ids: &mut Vec<u32>) {
        let mut word = String::new();
        let mut scratch = String::new();
        let start = ids.len();
        for_each_piece(text, &mut |piece: &str| {
            word.clear();
            word.extend(piece.chars().map(strip_accent));
            self.vocab.encode_word(&word, &mut scratch, ids);
        });
        if let Some(unk) = self.vocab.unk_id() {
            let mut keep = start;
            for i in start..ids.len() {
                if ids[i] != unk {
                    ids[keep] = ids[i];
                    keep += 1;
                }
            }
            ids.truncate(keep);
        }
    }

    /// Adds `weight * token_weight(id)` times each token's vector of `ids` to `acc`.
    pub fn accumulate_ids(
        &self,
        ids: &[u32],
        weight: f32,
        token_weight: &dyn Fn(u32) -> f32,
        acc: &mut [f32],
    ) {
        for &id in ids {
            self.add_token(id, weight * token_weight(id), acc);
        }
    }

    /// Adds the token vectors of `text` (times `weight`) to `acc`; returns how many tokens were
    /// found. Text is split as the lexical index splits it (identifiers on camelCase, `_`, `-`;
    /// punctuation dropped), each piece then into WordPiece tokens; unknown pieces are skipped.
    pub fn accumulate(&self, text: &str, weight: f32, acc: &mut [f32]) -> usize {
        let mut ids = Vec::new();
        let mut word = String::new();
        let mut scratch = String::new();
        for_each_piece(text, &mut |piece: &str| {
            word.clear();
            word.extend(piece.chars().map(strip_accent));
            self.vocab.encode_word(&word, &mut scratch, &mut ids);
        });
        let unk = self.vocab.unk_id();
        let mut found = 0;
        for id in ids {
            if Some(id) != unk {
                self.add_token(id, weight, acc);
                found += 1;
            }
        }
        found
    }

    /// The unit vector of `text`, or `None` when none of its tokens is in the table.
    pub fn embed(&self, text: &str) -> Option<Vec<f32>> {
        let mut v = vec![0f32; self.dims];
        if self.accumulate(text, 1.0, &mut v) == 0 {
            return None;
        }
        normalize(&mut v).then_some(v)
    }
}

/// Scales `v` to unit length; false for a zero vector.
pub(crate) fn normalize(v: &mut [f32]) -> bool {
    let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
    if norm > 0.0 && norm.is_finite() {
        v.iter_mut().for_each(|x| *x /= norm);
        true
    } else {
        false
    }
}

/// Sign bits per document used by the first, approximate pass of [`DenseIndex::candidates`]
/// (the signs of the first 128 dimensions, in two words: with the committed table, the first
/// teacher's part): the Hamming distance between sign patterns estimates the angle between
/// vectors (SimHash), at two XORs and two popcounts per document, which stays cheap in wasm32
/// without SIMD. All 256 signs were not measured against it.
const SIGN_WORDS: usize = 2;

/// Unit vectors of a list of documents, quantized to int8 (one scale per document), for cosine
/// ranking.
///
/// With `idf_power > 0`, every token's vector is also weighted by its inverse document frequency
/// in this collection, raised to `idf_power`, in documents and queries alike: the table's own
/// weighting knows which tokens are frequent in English, not which ones every document of this
/// collection shares ("tool", "search", "information" in a tool catalog).
#[derive(Clone)]
pub struct DenseIndex {
    table: &'static Table,
    dims: usize,
    /// Row-major int8 document vectors; document `d`'s cosine with a quantized query `q` is
    /// `scales[d] * q_scale * sum(q[i] * vectors[d][i])`.
    vectors: Vec<i8>,
    scales: Vec<f32>,
    /// The sign bits of every document's vector ([`SIGN_WORDS`] words each).
    signs: Vec<u64>,
    /// Per-token weight (empty: all 1).
    token_weights: Vec<f32>,
    /// The names and texts embedded apart, when asked for ([`DenseIndex::build`]'s `fields`).
    fields: Option<FieldVectors>,
    /// Directions taken out of every query vector ([`DenseIndex::with_projection`]), decoded.
    projection: Option<Directions>,
    /// Each document's distinct text tokens, for the soft match (`None`: not kept).
    token_sets: Option<TokenSets>,
}

impl std::fmt::Debug for DenseIndex {
    /// A summary: the vectors would flood any log.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DenseIndex")
            .field("docs", &self.len())
            .field("dims", &self.dims)
            .field("projection", &self.projection)
            .finish_non_exhaustive()
    }
}

/// A document's token ids, by field.
struct DocTokens {
    name: Vec<u32>,
    /// Text and tags.
    text: Vec<u32>,
    context: Vec<u32>,
}

impl DocTokens {
    fn of(table: &Table, doc: &super::Document, context_weight: f32) -> DocTokens {
        let mut name = Vec::new();
        table.token_ids(&doc.name, &mut name);
        let mut text = Vec::new();
        table.token_ids(&doc.text, &mut text);
        for tag in &doc.tags {
            table.token_ids(tag, &mut text);
        }
        let mut context = Vec::new();
        if context_weight > 0.0 {
            table.token_ids(&doc.context, &mut context);
        }
        DocTokens {
            name,
            text,
            context,
        }
    }
}

/// A query vector quantized like the documents.
#[derive(Clone, Debug)]
pub struct QueryVector {
    /// Int8 levels kept as 16 bits: what the SIMD dot product ([`dot_i16_i8`]) multiplies
    /// document rows with, widened once per query instead of once per document.
    q: Vec<i16>,
    scale: f32,
}

impl QueryVector {
    /// The query's vector as floats: the quantized one, unit to about 0.3%.
    pub fn to_f32(&self) -> Vec<f32> {
        self.q.iter().map(|&x| x as f32 * self.scale).collect()
    }
}

impl DenseIndex {
    /// Embeds every document: its name pieces weighted `name_weight`, its text and tags 1, its
    /// context `context_weight`.
    pub fn build(
        table: &'static Table,
        docs: &[super::Document],
        name_weight: f32,
        context_weight: f32,
        idf_power: f32,
        fields: bool,
        token_sets: Option<usize>,
    ) -> DenseIndex {
        let ids: Vec<DocTokens> = docs
            .iter()
            .map(|doc| DocTokens::of(table, doc, context_weight))
            .collect();
        let token_weights = if idf_power > 0.0 && !docs.is_empty() {
            let mut df = vec![0u32; table.vocab().len()];
            let mut seen: Vec<u32> = Vec::new();
            for doc in &ids {
                seen.clear();
                seen.extend(doc.name.iter().chain(&doc.text));
                seen.sort_unstable();
                seen.dedup();
                for &id in &seen {
                    df[id as usize] += 1;
                }
            }
            let n = docs.len() as f32;
            df.iter()
                .map(|&df| bm25_idf(n, df as f32).powf(idf_power))
                .collect()
        } else {
            Vec::new()
        };
        let mut index = DenseIndex {
            table,
            dims: table.dims(),
            vectors: Vec::with_capacity(docs.len() * table.dims()),
            scales: Vec::with_capacity(docs.len()),
            signs: Vec::with_capacity(docs.len() * SIGN_WORDS),
            token_weights,
            fields: fields.then(|| FieldVectors {
                dims: table.dims(),
                vectors: Vec::with_capacity(docs.len() * 2 * table.dims()),
                scales: Vec::with_capacity(docs.len() * 2),
            }),
            projection: None,
            token_sets: token_sets.map(TokenSets::new),
        };
        for doc in &ids {
            index.push(doc, name_weight, context_weight);
        }
        index
    }

    /// Embeds `docs` with the token weights of `previous`, copying document `d`'s vector from
    /// `previous` row `reuse[d]` when given (the caller vouches that it is the same document
    /// embedded with the same weights) and embedding the others. This is how a collection that
    /// grows (a user's requests) is re-indexed without embedding everything again; the token
    /// weights stay those of `previous` until the caller builds afresh.
    pub fn rebuild(
        previous: &DenseIndex,
        docs: &[super::Document],
        reuse: &[Option<u32>],
        name_weight: f32,
        context_weight: f32,
    ) -> DenseIndex {
        let dims = previous.dims;
        let mut index = DenseIndex {
            table: previous.table,
            dims,
            vectors: Vec::with_capacity(docs.len() * dims),
            scales: Vec::with_capacity(docs.len()),
            signs: Vec::with_capacity(docs.len() * SIGN_WORDS),
            token_weights: previous.token_weights.clone(),
            fields: previous.fields.as_ref().map(|f| FieldVectors {
                dims,
                vectors: Vec::with_capacity(f.vectors.len()),
                scales: Vec::with_capacity(f.scales.len()),
            }),
            projection: previous.projection.clone(),
            token_sets: previous.token_sets.as_ref().map(TokenSets::emptied),
        };
        for (d, doc) in docs.iter().enumerate() {
            match reuse.get(d).copied().flatten().map(|r| r as usize) {
                Some(r) if r < previous.len() => {
                    index
                        .vectors
                        .extend_from_slice(&previous.vectors[r * dims..(r + 1) * dims]);
                    index.scales.push(previous.scales[r]);
                    index
                        .signs
                        .extend_from_slice(&previous.signs[r * SIGN_WORDS..(r + 1) * SIGN_WORDS]);
                    if let (Some(fields), Some(old)) = (&mut index.fields, &previous.fields) {
                        fields.copy(old, r);
                    }
                    if let (Some(sets), Some(old)) = (&mut index.token_sets, &previous.token_sets) {
                        sets.copy(old, r);
                    }
                }
                _ => {
                    let tokens = DocTokens::of(previous.table, doc, context_weight);
                    index.push(&tokens, name_weight, context_weight);
                }
            }
        }
        index
    }

    /// Appends the vector of one document (and its fields' vectors, when kept).
    fn push(&mut self, doc: &DocTokens, name_weight: f32, context_weight: f32) {
        let weights = &self.token_weights;
        let weight = |id: u32| weights.get(id as usize).copied().unwrap_or(1.0);
        let sum = |ids: &[u32]| {
            let mut v = vec![0f32; self.dims];
            self.table.accumulate_ids(ids, 1.0, &weight, &mut v);
            v
        };
        let (name, text) = (sum(&doc.name), sum(&doc.text));
        let mut v = text.clone();
        for (a, n) in v.iter_mut().zip(&name) {
            *a += name_weight * n;
        }
        self.table
            .accumulate_ids(&doc.context, context_weight, &weight, &mut v);
        let start = self.vectors.len();
        self.vectors.resize(start + self.dims, 0);
        let scale = if normalize(&mut v) {
            let row = &mut self.vectors[start..];
            quantize(&v, |i, q| row[i] = q as i8)
        } else {
            0.0
        };
        self.scales.push(scale);
        let row = &self.vectors[start..];
        self.signs.extend(sign_words(row.iter().map(|&x| x > 0)));
        if let Some(fields) = &mut self.fields {
            fields.push(name);
            fields.push(text);
        }
        if let Some(sets) = &mut self.token_sets {
            sets.push(&doc.text);
        }
    }

    /// A token's weight in this collection (its IDF raised to the index's power; 1 when the
    /// index weights no tokens).
    pub fn token_weight(&self, id: u32) -> f32 {
        self.token_weights.get(id as usize).copied().unwrap_or(1.0)
    }

    /// Each document's distinct text tokens, when the index keeps them (for the soft match).
    pub(crate) fn token_sets(&self) -> Option<&TokenSets> {
        self.token_sets.as_ref()
    }

    /// The query's cosines with document `d`'s name and with its text, `(0, 0)` when the index
    /// keeps no field vectors (see [`FieldVectors`]).
    pub fn field_cosines(&self, query: &QueryVector, d: usize) -> (f32, f32) {
        self.fields
            .as_ref()
            .map_or((0.0, 0.0), |f| f.cosines(query, d))
    }

    /// Takes `projection`'s directions out of every query vector from now on (documents are
    /// untouched; see [`super::projection`]).
    pub fn with_projection(mut self, projection: Option<QueryProjection>) -> DenseIndex {
        self.projection = projection.map(|p| p.decoded(self.dims));
        self
    }

    /// The table this index was built with.
    pub fn table(&self) -> &'static Table {
        self.table
    }

    /// Number of documents.
    pub fn len(&self) -> usize {
        self.scales.len()
    }

    /// Whether the index has no documents.
    pub fn is_empty(&self) -> bool {
        self.scales.is_empty()
    }

    /// Whether `text` holds at least one word of two or more letters that the vocabulary knows
    /// whole (not only as word pieces).
    pub fn knows_a_word(&self, text: &str) -> bool {
        let vocab = self.table.vocab();
        let mut known = false;
        super::wordpiece::basic_tokenize(text, &mut |word| {
            if !known && word.chars().count() >= 2 && word.chars().all(char::is_alphabetic) {
                known = vocab.id(word).is_some();
            }
        });
        known
    }

    /// The quantized unit vector of a query, weighted as the documents are; `None` when none of
    /// its tokens is in the table.
    pub fn embed_query(&self, query: &str) -> Option<QueryVector> {
        // A query made only of pieces of unknown words ("zzzz qqqq") still gets a vector, close
        // enough to everything to pass any floor: its meaning is noise, so it has none.
        if !self.knows_a_word(query) {
            return None;
        }
        let mut ids = Vec::new();
        self.table.token_ids(query, &mut ids);
        if ids.is_empty() {
            return None;
        }
        let mut v = vec![0f32; self.dims];
        let weight = |id: u32| self.token_weights.get(id as usize).copied().unwrap_or(1.0);
        self.table.accumulate_ids(&ids, 1.0, &weight, &mut v);
        if let Some(projection) = &self.projection {
            projection.apply(&mut v);
        }
        if !normalize(&mut v) {
            return None;
        }
        let mut q = vec![0i16; self.dims];
        // Levels are -127..=127 (`quantize`), so the narrowing is exact.
        let scale = quantize(&v, |i, x| q[i] = x as i16);
        Some(QueryVector { q, scale })
    }

    /// Document `d`'s unit vector as floats (its int8 levels times its scale, so unit to about
    /// 0.3%).
    ///
    /// # Panics
    /// When `d` is not below [`DenseIndex::len`].
    pub fn vector(&self, d: usize) -> Vec<f32> {
        self.row(d)
            .iter()
            .map(|&x| f32::from(x) * self.scales[d])
            .collect()
    }

    /// Document `d`'s int8 levels.
    fn row(&self, d: usize) -> &[i8] {
        &self.vectors[d * self.dims..(d + 1) * self.dims]
    }

    /// Cosine of the query with document `d`.
    pub fn cosine(&self, query: &QueryVector, d: usize) -> f32 {
        dot_i16_i8(&query.q, self.row(d)) as f32 * query.scale * self.scales[d]
    }

    /// Cosine similarity of `query` with every document, into `out` (exhaustive).
    pub fn scores(&self, query: &QueryVector, out: &mut Vec<f32>) {
        out.clear();
        out.extend((0..self.len()).map(|d| self.cosine(query, d)));
    }

    /// The documents most similar to `query`, `(document, cosine)`: the best `k` by the
    /// Hamming distance of their sign bits to the query's, rescored exactly, plus `extra`
    /// documents (scored exactly too). Costs a few operations per document plus
    /// `(k + extra) * dims` multiply-adds, instead of `n * dims`.
    pub fn candidates(&self, query: &QueryVector, k: usize, extra: &[u32]) -> Vec<(u32, f32)> {
        let n = self.len();
        let mut picked: Vec<u32> = if n <= k || k == 0 {
            (0..n as u32).collect()
        } else {
            let qs = sign_words(query.q.iter().map(|&x| x > 0));
            // Counting sort by distance (at most 64 * SIGN_WORDS): take the nearest buckets
            // until k documents are in.
            let mut dist = vec![0u8; n];
            let mut hist = [0u32; 64 * SIGN_WORDS + 1];
            for (out, words) in dist.iter_mut().zip(self.signs.chunks_exact(SIGN_WORDS)) {
                let mut h = 0u32;
                for (a, b) in words.iter().zip(&qs) {
                    h += (a ^ b).count_ones();
                }
                hist[h as usize] += 1;
                *out = h as u8;
            }
            let mut cut = 0usize;
            let mut total = 0usize;
            while cut < hist.len() && total < k {
                total += hist[cut] as usize;
                cut += 1;
            }
            // Every document is written at the next free place, which only moves on for the
            // near ones: no branch per document (the far ones are most and come at random).
            let mut picked = vec![0u32; total + 1];
            let mut at = 0usize;
            for (d, &h) in dist.iter().enumerate() {
                if let Some(slot) = picked.get_mut(at) {
                    *slot = d as u32;
                }
                at += usize::from((h as usize) < cut);
            }
            picked.truncate(at);
            picked
        };
        picked.extend_from_slice(extra);
        picked.sort_unstable();
        picked.dedup();
        picked
            .into_iter()
            .filter(|&d| (d as usize) < n)
            .map(|d| (d, self.cosine(query, d as usize)))
            .collect()
    }
}

/// Each document's name and text (with tags) embedded apart, int8 like [`DenseIndex`]'s
/// vectors and with its token weights: the reranker ([`super::rerank`]) asks how close the
/// query is to the name alone and to the description alone, which the one fused vector per
/// document does not tell (near-twin tools differ in one or the other).
#[derive(Clone, Debug)]
pub struct FieldVectors {
    dims: usize,
    /// Per document, the name's row then the text's row.
    vectors: Vec<i8>,
    /// Per document, the name's scale then the text's scale (0: nothing embedded).
    scales: Vec<f32>,
}

impl FieldVectors {
    /// Appends one field's vector (unnormalized; a zero vector gets scale 0).
    fn push(&mut self, mut v: Vec<f32>) {
        let start = self.vectors.len();
        self.vectors.resize(start + self.dims, 0);
        let row = &mut self.vectors[start..];
        let scale = if normalize(&mut v) {
            quantize(&v, |i, q| row[i] = q as i8)
        } else {
            0.0
        };
        self.scales.push(scale);
    }

    /// Appends `previous`'s rows of document `r` (its name and its text).
    fn copy(&mut self, previous: &FieldVectors, r: usize) {
        let rows = 2 * r * self.dims..2 * (r + 1) * self.dims;
        if let (Some(v), Some(s)) = (
            previous.vectors.get(rows),
            previous.scales.get(2 * r..2 * r + 2),
        ) {
            self.vectors.extend_from_slice(v);
            self.scales.extend_from_slice(s);
        }
    }

    /// The query's cosines with document `d`'s name and with its text (0 for a field with no
    /// known token, or a document out of range).
    pub fn cosines(&self, query: &QueryVector, d: usize) -> (f32, f32) {
        let cosine = |row: usize| match (
            self.vectors.get(row * self.dims..(row + 1) * self.dims),
            self.scales.get(row),
        ) {
            (Some(v), Some(&scale)) => dot_i16_i8(&query.q, v) as f32 * query.scale * scale,
            _ => 0.0,
        };
        (cosine(2 * d), cosine(2 * d + 1))
    }
}

/// The cosine of two tokens from their int8 rows (`a`'s widened to 16 bits, as the soft match
/// keeps the query's) and inverse norms ([`Table::inverse_norm`]); `same` when they are one
/// token, whose cosine is exactly 1 (the int8 sum would round), or 0 for a token with no vector.
/// What [`Table::cosine`] and the soft match's cosines share.
#[inline]
pub(crate) fn row_cosine(same: bool, a: &[i16], a_norm: f32, b: &[i8], b_norm: f32) -> f32 {
    if same {
        return if b_norm > 0.0 { 1.0 } else { 0.0 };
    }
    dot_i16_i8(a, b) as f32 * a_norm * b_norm
}

/// Packs the first `64 * SIGN_WORDS` booleans into words (missing ones are 0).
fn sign_words(bits: impl Iterator<Item = bool>) -> [u64; SIGN_WORDS] {
    let mut out = [0u64; SIGN_WORDS];
    for (i, b) in bits.take(64 * SIGN_WORDS).enumerate() {
        if b {
            out[i / 64] |= 1 << (i % 64);
        }
    }
    out
}

/// The little-endian `f32`s of `bytes` (a trailing partial value is ignored): the table's
/// scales, the query projection's directions.
pub(crate) fn le_f32s(bytes: &[u8]) -> impl Iterator<Item = f32> + Clone + '_ {
    bytes
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

/// Quantizes a vector to int8 levels (-127..=127) with one scale, calling `put(i, level)`;
/// returns the scale (value = level * scale).
fn quantize(v: &[f32], mut put: impl FnMut(usize, i32)) -> f32 {
    let max = v.iter().fold(0f32, |m, x| m.max(x.abs()));
    if max <= 0.0 {
        return 0.0;
    }
    let scale = max / 127.0;
    for (i, x) in v.iter().enumerate() {
        put(i, (x / scale).round().clamp(-127.0, 127.0) as i32);
    }
    scale
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A table of the given magic with tokens `a`, `b` and `##c`, scales 1, 2 and 0.5, and the
    /// given row bytes.
    fn table_bytes(magic: &[u8; 8], dims: u32, rows: &[u8]) -> Vec<u8> {
        let text = b"a\nb\n##c\n";
        let mut out = magic.to_vec();
        for x in [3, dims, text.len() as u32] {
            out.extend(x.to_le_bytes());
        }
        out.extend(text);
        for s in [1.0f32, 2.0, 0.5] {
            out.extend(s.to_le_bytes());
        }
        out.extend(rows);
        out
    }

    #[test]
    fn four_bit_rows_widen_to_the_same_int8_rows() {
        let rows: [[i8; 4]; 3] = [[1, -1, 7, -8], [0, 3, -7, 5], [-2, 2, 0, 6]];
        let wide: Vec<u8> = rows.iter().flatten().map(|&q| q as u8).collect();
        let packed: Vec<u8> = rows
            .iter()
            .flat_map(|r| {
                r.chunks(2)
                    .map(|p| (p[0] as u8 & 0x0F) | ((p[1] as u8) << 4))
            })
            .collect();
        let eight = Table::parse(&table_bytes(MAGIC_8BIT, 4, &wide)).expect("8-bit table");
        let four = Table::parse(&table_bytes(MAGIC_4BIT, 4, &packed)).expect("4-bit table");
        for id in 0..3 {
            assert_eq!(four.row(id), &rows[id as usize], "row {id}");
            assert_eq!(four.row(id), eight.row(id), "row {id}");
        }
        assert_eq!(four.scales, eight.scales);
    }

    #[test]
    fn four_bit_tables_of_odd_width_or_cut_short_are_refused() {
        let odd = Table::parse(&table_bytes(MAGIC_4BIT, 3, &[0; 6]));
        assert_eq!(
            odd.err().as_deref(),
            Some("embedding table: bad dimension count 3")
        );
        let short = Table::parse(&table_bytes(MAGIC_4BIT, 4, &[0; 5]));
        assert_eq!(short.err().as_deref(), Some("embedding table truncated"));
        assert!(Table::parse(&table_bytes(MAGIC_4BIT, 4, &[0; 6])).is_ok());
    }

    /// A header's token count is checked against the tokens listed before any size is
    /// computed from it (the overflow checks after it only matter where `usize` is 32 bits).
    #[test]
    fn a_header_claiming_more_tokens_than_it_lists_is_refused() {
        let mut bytes = table_bytes(MAGIC_8BIT, 4096, &[]);
        bytes[8..12].copy_from_slice(&u32::MAX.to_le_bytes());
        assert_eq!(
            Table::parse(&bytes).err().as_deref(),
            Some("embedding table: 3 tokens, header says 4294967295")
        );
    }
}
