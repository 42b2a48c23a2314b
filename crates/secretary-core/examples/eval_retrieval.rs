//! Measures the lexical search on a labelled tool-retrieval set (MetaTool) and times it.
//!
//! ```text
//! cargo run --release -p secretary-core --example eval_retrieval -- \
//!     --catalog ../shared/fixtures/tool-retrieval/metatool-catalog.json \
//!     --queries ../shared/fixtures/tool-retrieval/metatool-dev-queries.csv \
//!     [--split-check] [--timing]
//! ```
//!
//! * default: recall@1, recall@5 and MRR@10 over all queries;
//! * `--split-check`: the same on two fixed random halves of the queries, to see whether a figure
//!   holds on queries it was not tuned on (tune on one half, look at the other);
//! * `--timing`: builds a 10,000-document catalog synthesised from the tools (each tool in ~50
//!   variants: suffixed names, its description plus a sentence borrowed from another tool) and
//!   prints build time and per-query latency percentiles;
//! * `--tune`: grid search over the main [`SearchOptions`] on half A only, then the best
//!   settings' figures on half B (how the defaults were chosen);
//! * `--errors N`: prints N misses (query, expected tool, what came first) for error analysis;
//! * `--k1 X --b X --name-weight X --tag-weight X --prefix-weight X --idf-power X
//!   --no-compounds`: override [`SearchOptions`] for experiments.
//! * `--hybrid [--table PATH] [--semantic-weight X] [--semantic-name-weight X]
//!   [--min-semantic X]`: also measures the semantic signal alone and the hybrid ranker
//!   ([`HybridIndex`]), with the compiled-in embedding table or one from `PATH`
//!   (`scripts/embeddings/build_table.py --out PATH`); with `--split-check` on both halves,
//!   with `--timing` on the 10,000-document catalog too;
//! * `--tune-hybrid`: grid search over the semantic weight and name weight on half A, then the
//!   best settings on half B.
//! * `--dump-features PATH`: writes every query's first 20 fused candidates with the reranker's
//!   features and labels as CSV, for `scripts/rerank/fit_trees.py` (which fits on half A only);
//!   `--rerank-model PATH` measures the forest it writes instead of the committed one.
//!   The `fused` rows are the hybrid without its reranker, in the same run; the dump also
//!   writes `PATH.vec`, the vectors `scripts/rerank/query_projection.py` fits the query
//!   projection on. `--no-projection` ranks without the query projection
//!   ([`secretary_core::search::projection`]), `--projection PATH` with the directions
//!   `scripts/rerank/query_projection.py` wrote to `PATH` (at the committed alpha).
//!
//! Figures with the defaults on the 10,320 dev queries: recall@1 0.443, recall@5 0.648,
//! MRR@10 0.531 (halves: 0.648 / 0.648 recall@5). The README's plain TF-IDF reference is
//! 0.309 / 0.464 / 0.375.
//!
//! With `--hybrid` (the committed table of 256 dimensions, defaults of [`HybridOptions`]; issue
//! 26, eleventh pass): semantic alone recall@5 0.744, fused 0.773, with the reranker 0.818 over
//! all queries and 0.801 on half B, which nothing was fitted on (recall@1 0.558, MRR@10 0.662).
//! On the 10,000-document catalog of `--timing` (a query counts as found at the rank of its
//! tool's first variant): lexical recall@5 0.601, hybrid 0.675, hybrid with exhaustive semantic
//! scoring 0.683.

#[path = "shared/load.rs"]
mod load;
use load::{read_forest, read_table};

use std::process::ExitCode;
use std::time::Instant;

use secretary_core::search::embed::Table;
use secretary_core::search::eval::{parse_csv, rank_of, Metrics, MetricsBuilder};
use secretary_core::search::projection::QueryProjection;
use secretary_core::search::rerank::{Forest, Reranker, FEATURE_NAMES};
use secretary_core::search::{Document, HybridIndex, HybridOptions, Index, SearchOptions};

struct Args {
    catalog: String,
    queries: String,
    split_check: bool,
    timing: bool,
    tune: bool,
    errors: usize,
    options: SearchOptions,
    hybrid: bool,
    tune_hybrid: bool,
    table: Option<String>,
    hybrid_options: HybridOptions,
    dump_features: Option<String>,
    rerank_model: Option<&'static Forest>,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        catalog: String::new(),
        queries: String::new(),
        split_check: false,
        timing: false,
        tune: false,
        errors: 0,
        options: SearchOptions::default(),
        hybrid: false,
        tune_hybrid: false,
        table: None,
        hybrid_options: HybridOptions::default(),
        dump_features: None,
        rerank_model: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = |name: &str| it.next().ok_or_else(|| format!("{name} needs a value"));
        let mut number = |name: &str| -> Result<f32, String> {
            value(name)?
                .parse::<f32>()
                .map_err(|e| format!("{name}: {e}"))
        };
        match flag.as_str() {
            "--catalog" => args.catalog = value("--catalog")?,
            "--queries" => args.queries = value("--queries")?,
            "--split-check" => args.split_check = true,
            "--timing" => args.timing = true,
            "--tune" => args.tune = true,
            "--errors" => {
                args.errors = value("--errors")?
                    .parse()
                    .map_err(|e| format!("--errors: {e}"))?
            }
            "--k1" => args.options.k1 = number("--k1")?,
            "--b" => args.options.b = number("--b")?,
            "--name-weight" => args.options.name_weight = number("--name-weight")?,
            "--tag-weight" => args.options.tag_weight = number("--tag-weight")?,
            "--prefix-weight" => args.options.prefix_weight = number("--prefix-weight")?,
            "--prefix-min-len" => {
                args.options.prefix_min_len = number("--prefix-min-len")? as usize
            }
            "--prefix-max-extra" => {
                args.options.prefix_max_extra = number("--prefix-max-extra")? as usize
            }
            "--idf-power" => args.options.idf_power = number("--idf-power")?,
            "--no-compounds" => args.options.split_compound_names = false,
            "--hybrid" => args.hybrid = true,
            "--tune-hybrid" => {
                args.hybrid = true;
                args.tune_hybrid = true
            }
            "--table" => args.table = Some(value("--table")?),
            "--semantic-weight" => {
                args.hybrid_options.semantic_weight = number("--semantic-weight")?
            }
            "--semantic-name-weight" => {
                args.hybrid_options.name_weight = number("--semantic-name-weight")?
            }
            "--semantic-idf" => args.hybrid_options.idf_power = number("--semantic-idf")?,
            "--semantic-candidates" => {
                args.hybrid_options.semantic_candidates = number("--semantic-candidates")? as usize
            }
            "--min-semantic" => args.hybrid_options.min_semantic = number("--min-semantic")?,
            "--dump-features" => {
                args.hybrid = true;
                args.dump_features = Some(value("--dump-features")?)
            }
            "--no-projection" => {
                args.hybrid = true;
                args.hybrid_options.query_projection = None;
            }
            "--projection" => {
                let path = value("--projection")?;
                let rows = std::fs::read(&path).map_err(|e| format!("{path}: {e}"))?;
                args.hybrid = true;
                args.hybrid_options.query_projection = Some(QueryProjection {
                    alpha: QueryProjection::TOOLS.alpha,
                    rows: Vec::leak(rows),
                });
            }
            "--rerank-model" => {
                args.hybrid = true;
                args.rerank_model = Some(read_forest(&value("--rerank-model")?)?)
            }
            "-h" | "--help" => return Err(String::new()),
            other => return Err(format!("unknown argument {other}")),
        }
    }
    if args.catalog.is_empty() || args.queries.is_empty() {
        return Err("--catalog and --queries are required".into());
    }
    Ok(args)
}

/// Writes, for every query, the hybrid's first 20 candidates with their reranker features and
/// whether each is the right tool, as CSV (`query,half,label,<features>`): what
/// `scripts/rerank/fit_trees.py` fits the reranker on (half A only).
fn dump_features(
    path: &str,
    index: &HybridIndex,
    queries: &[(String, usize)],
) -> Result<(), String> {
    let in_b = in_half_b(queries.len());
    let mut out = format!("query,half,label,{}\n", FEATURE_NAMES.join(","));
    for (i, (query, tool)) in queries.iter().enumerate() {
        for (hit, features) in index.candidates(query, 20) {
            let cells: Vec<String> = features.iter().map(|f| format!("{f:.5}")).collect();
            out.push_str(&format!(
                "{i},{},{},{}\n",
                if in_b[i] { "B" } else { "A" },
                u8::from(hit.doc == *tool),
                cells.join(",")
            ));
        }
    }
    std::fs::write(path, out).map_err(|e| format!("{path}: {e}"))
}

/// Writes the documents' and queries' unit vectors (the queries' without the query projection:
/// `scripts/rerank/query_projection.py` fits it on them) as little-endian f32 (`n_docs n_queries dims`
/// as u32, the document rows, then per query its tool index and half (u32 each) and its row).
fn dump_vectors(
    path: &str,
    index: &HybridIndex,
    queries: &[(String, usize)],
) -> Result<(), String> {
    let dense = index
        .dense()
        .ok_or("no embeddings")?
        .clone()
        .with_projection(None);
    let in_b = in_half_b(queries.len());
    let dims = dense.table().dims();
    let mut out: Vec<u8> = Vec::new();
    for x in [dense.len(), queries.len(), dims] {
        out.extend((x as u32).to_le_bytes());
    }
    for d in 0..dense.len() {
        dense
            .vector(d)
            .iter()
            .for_each(|x| out.extend(x.to_le_bytes()));
    }
    for (i, (query, tool)) in queries.iter().enumerate() {
        out.extend((*tool as u32).to_le_bytes());
        out.extend(u32::from(in_b[i]).to_le_bytes());
        let v = dense
            .embed_query(query)
            .map_or(vec![0.0; dims], |q| q.to_f32());
        v.iter().for_each(|x| out.extend(x.to_le_bytes()));
    }
    std::fs::write(path, out).map_err(|e| format!("{path}: {e}"))
}

fn load_catalog(path: &str) -> Result<Vec<Document>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let value: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("{path}: {e}"))?;
    let items = value
        .as_array()
        .ok_or_else(|| format!("{path}: expected a JSON array"))?;
    Ok(items
        .iter()
        .map(|item| {
            let field = |k: &str| {
                item.get(k)
                    .and_then(|v| v.as_str())
                    .unwrap_or("")
                    .to_string()
            };
            Document::new(field("name"), field("description"))
        })
        .collect())
}

/// `(query, tool index)` pairs; queries naming an unknown tool are reported and skipped.
fn load_queries(path: &str, docs: &[Document]) -> Result<Vec<(String, usize)>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let mut rows = parse_csv(&text).into_iter();
    let header = rows.next().ok_or_else(|| format!("{path}: empty"))?;
    let col = |name: &str| header.iter().position(|h| h.trim() == name);
    let (q, t) = match (col("query"), col("tool")) {
        (Some(q), Some(t)) => (q, t),
        _ => return Err(format!("{path}: need columns query,tool")),
    };
    let mut unknown = 0;
    let mut out = Vec::new();
    for row in rows {
        let (Some(query), Some(tool)) = (row.get(q), row.get(t)) else {
            continue;
        };
        match docs.iter().position(|d| d.name == *tool) {
            Some(i) => out.push((query.clone(), i)),
            None => unknown += 1,
        }
    }
    if unknown > 0 {
        eprintln!("warning: {unknown} queries name a tool missing from the catalog");
    }
    Ok(out)
}

/// Sorts tuning results best first: by recall@5, then MRR@10 (ties keep their order).
fn best_first<T>(results: &mut [(Metrics, T)]) {
    results.sort_by(|x, y| {
        (y.0.recall_at_5, y.0.mrr_at_10)
            .partial_cmp(&(x.0.recall_at_5, x.0.mrr_at_10))
            .unwrap_or(std::cmp::Ordering::Equal)
    });
}

/// The metrics of `queries` (each with the tool it should find) over what `ranked` answers for
/// a query, best first.
fn metrics_of<I: Iterator<Item = usize>>(
    queries: &[(String, usize)],
    ranked: impl Fn(&str) -> I,
) -> Metrics {
    let mut m = MetricsBuilder::default();
    for (query, tool) in queries {
        m.add(rank_of(ranked(query), *tool));
    }
    m.finish()
}

fn evaluate(index: &Index, queries: &[(String, usize)]) -> Metrics {
    metrics_of(queries, |query| {
        index.search(query, 10).into_iter().map(|h| h.doc)
    })
}

fn evaluate_hybrid(index: &HybridIndex, queries: &[(String, usize)]) -> Metrics {
    metrics_of(queries, |query| {
        index.search(query, 10).into_iter().map(|h| h.doc)
    })
}

/// The semantic signal alone: documents ranked by cosine only.
fn evaluate_semantic(index: &HybridIndex, queries: &[(String, usize)]) -> Metrics {
    metrics_of(queries, |query| {
        let scores = index.semantic_scores(query);
        let mut order: Vec<usize> = (0..scores.len()).collect();
        order.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]).then(a.cmp(&b)));
        order.into_iter().take(10)
    })
}

fn load_table(path: &Option<String>) -> Result<&'static Table, String> {
    match path {
        None => Ok(Table::builtin()),
        Some(p) => read_table(p),
    }
}

fn hybrid_report(
    docs: &[Document],
    queries: &[(String, usize)],
    options: &HybridOptions,
    table: &'static Table,
    split_check: bool,
) {
    println!(
        "hybrid options: semantic weight {} name weight {} min semantic {} idf^{}; \
         table {} dims, {} tokens; query projection: {}",
        options.semantic_weight,
        options.name_weight,
        options.min_semantic,
        options.idf_power,
        table.dims(),
        table.vocab().len(),
        match options.query_projection {
            None => "off".to_string(),
            Some(p) if p.directions(table.dims()) == 0 =>
                "off (not fitted on this table's width)".to_string(),
            Some(p) => format!("{} directions at {}", p.directions(table.dims()), p.alpha),
        }
    );
    let index = HybridIndex::with_table(docs, options.clone(), table);
    let mut sets = vec![("all", queries.to_vec())];
    if split_check {
        let (a, b) = split_halves(queries.len());
        let pick = |ix: &[usize]| ix.iter().map(|&i| queries[i].clone()).collect::<Vec<_>>();
        sets.push(("half A", pick(&a)));
        sets.push(("half B", pick(&b)));
    }
    let fused = HybridIndex::with_table(
        docs,
        HybridOptions {
            rerank: None,
            ..options.clone()
        },
        table,
    );
    for (name, set) in &sets {
        println!("{name:7} semantic: {}", evaluate_semantic(&index, set));
        println!("{name:7} fused:    {}", evaluate_hybrid(&fused, set));
        println!("{name:7} hybrid:   {}", evaluate_hybrid(&index, set));
    }
}

fn tune_hybrid(
    docs: &[Document],
    queries: &[(String, usize)],
    base: &HybridOptions,
    table: &'static Table,
) {
    let (a, b) = split_halves(queries.len());
    let pick = |ix: &[usize]| ix.iter().map(|&i| queries[i].clone()).collect::<Vec<_>>();
    let (half_a, half_b) = (pick(&a), pick(&b));
    let mut results = Vec::new();
    for name_weight in [0.0f32, 1.0, 2.0, 4.0] {
        for w in [0.3f32, 0.4, 0.5, 0.6, 0.7, 0.8] {
            let options = HybridOptions {
                semantic_weight: w,
                name_weight,
                ..base.clone()
            };
            let index = HybridIndex::with_table(docs, options.clone(), table);
            results.push((evaluate_hybrid(&index, &half_a), options));
        }
    }
    best_first(&mut results);
    println!(
        "tune-hybrid: {} settings on half A; best, then half B:",
        results.len()
    );
    for (metrics, options) in results.iter().take(8) {
        let on_b = evaluate_hybrid(
            &HybridIndex::with_table(docs, options.clone(), table),
            &half_b,
        );
        println!(
            "  w {:.2} name {:.1} | A r@5 {:.4} mrr {:.4} | B r@1 {:.4} r@5 {:.4} mrr {:.4}",
            options.semantic_weight,
            options.name_weight,
            metrics.recall_at_5,
            metrics.mrr_at_10,
            on_b.recall_at_1,
            on_b.recall_at_5,
            on_b.mrr_at_10
        );
    }
}

fn timing_hybrid(
    docs: &[Document],
    queries: &[(String, usize)],
    options: &HybridOptions,
    table: &'static Table,
) {
    let big = synthesise(docs, 10_000);
    let fused_options = HybridOptions {
        rerank: None,
        ..options.clone()
    };
    let mut builds = Vec::new();
    let mut fused_builds = Vec::new();
    let mut index = None;
    for _ in 0..5 {
        let start = Instant::now();
        std::hint::black_box(HybridIndex::with_table(&big, fused_options.clone(), table));
        fused_builds.push(start.elapsed().as_secs_f64() * 1e3);
        let start = Instant::now();
        index = Some(HybridIndex::with_table(&big, options.clone(), table));
        builds.push(start.elapsed().as_secs_f64() * 1e3);
    }
    let Some(index) = index else { return };
    builds.sort_by(f64::total_cmp);
    fused_builds.sort_by(f64::total_cmp);
    println!(
        "fused build (no reranker): median {:.1} ms",
        fused_builds[fused_builds.len() / 2]
    );
    // Quality on the large catalog: document i is a variant of tool i % n, so a query is found
    // at rank r when the r-th distinct tool among the results is its tool. Compares the
    // approximate first pass with exhaustive semantic scoring.
    let exhaustive = HybridIndex::with_table(
        &big,
        HybridOptions {
            semantic_candidates: usize::MAX,
            ..options.clone()
        },
        table,
    );
    let lexical = HybridIndex::with_table(&big, HybridOptions::lexical_only(), table);
    let fused = HybridIndex::with_table(&big, fused_options, table);
    for (name, ix) in [
        ("lexical", &lexical),
        ("fused", &fused),
        ("hybrid", &index),
        ("exhaustive", &exhaustive),
    ] {
        let mut m = MetricsBuilder::default();
        for (query, tool) in queries.iter().step_by(5) {
            let mut tools: Vec<usize> = Vec::new();
            for h in ix.search(query, 60) {
                let t = h.doc % docs.len();
                if !tools.contains(&t) {
                    tools.push(t);
                }
            }
            m.add(rank_of(tools.into_iter().take(10), *tool));
        }
        println!("10k catalog, {name:10}: {}", m.finish());
    }
    println!(
        "hybrid timing: {} docs; build median {:.1} ms (min {:.1}, max {:.1})",
        index.len(),
        builds[builds.len() / 2],
        builds[0],
        builds[builds.len() - 1]
    );
    // The fused order alone and with the reranker, one after the other, twice (the machine's
    // load drifts).
    for _ in 0..2 {
        query_timing("fused timing", queries, |q| {
            std::hint::black_box(fused.search(q, 10));
        });
        query_timing("hybrid timing", queries, |q| {
            std::hint::black_box(index.search(q, 10));
        });
    }
}

/// Times `search` over the first 2,000 queries (after 200 warm-up calls) and prints p50, p90,
/// p99 and max in microseconds, prefixed by `label`.
fn query_timing(label: &str, queries: &[(String, usize)], search: impl Fn(&str)) {
    let sample: Vec<&str> = queries.iter().take(2000).map(|(q, _)| q.as_str()).collect();
    for q in sample.iter().take(200) {
        search(q);
    }
    let mut micros = Vec::with_capacity(sample.len());
    for q in &sample {
        let start = Instant::now();
        search(q);
        micros.push(start.elapsed().as_secs_f64() * 1e6);
    }
    micros.sort_by(f64::total_cmp);
    let pct = |p: f64| micros[((micros.len() - 1) as f64 * p).round() as usize];
    println!(
        "{label}: {} queries (limit 10): p50 {:.1} us, p90 {:.1} us, p99 {:.1} us, max {:.1} us",
        micros.len(),
        pct(0.5),
        pct(0.9),
        pct(0.99),
        pct(1.0)
    );
}

/// Per query of `n`, whether it is in half B of [`split_halves`].
fn in_half_b(n: usize) -> Vec<bool> {
    let mut in_b = vec![false; n];
    for i in split_halves(n).1 {
        in_b[i] = true;
    }
    in_b
}

/// A deterministic shuffle (xorshift), so the split-check halves are the same on every run.
fn split_halves(n: usize) -> (Vec<usize>, Vec<usize>) {
    let mut order: Vec<usize> = (0..n).collect();
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    for i in (1..n).rev() {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        order.swap(i, (state % (i as u64 + 1)) as usize);
    }
    let (a, b) = order.split_at(n / 2);
    (a.to_vec(), b.to_vec())
}

/// ~10,000 tool-like documents from the catalog: every tool in variants with a suffixed name and
/// its description extended by a sentence of another tool, so that vocabulary, document lengths
/// and posting-list lengths look like a large real catalog rather than 50 exact copies.
fn synthesise(docs: &[Document], target: usize) -> Vec<Document> {
    const SUFFIXES: &[&str] = &[
        "pro", "lite", "v2", "plus", "cloud", "api", "beta", "mini", "max", "hub", "go", "ai", "x",
        "next", "one", "studio", "kit", "desk", "local", "web", "mobile", "team", "open", "fast",
        "smart", "live", "core", "daily", "prime", "zen", "labs", "works", "ly", "ify", "io",
        "app", "bot", "gpt", "assist", "helper", "tools", "suite", "box", "lab", "base", "flow",
        "sync", "map", "link", "spot", "net",
    ];
    let sentence = |d: &Document| d.text.split(". ").next().unwrap_or("").to_string();
    (0..target)
        .map(|i| {
            let base = &docs[i % docs.len()];
            let round = i / docs.len();
            let other = &docs[(i * 7 + round * 13 + 3) % docs.len()];
            let name = if round == 0 {
                base.name.clone()
            } else {
                format!("{}_{}", base.name, SUFFIXES[round % SUFFIXES.len()])
            };
            let text = if round == 0 {
                base.text.clone()
            } else {
                format!("{} {}.", base.text, sentence(other))
            };
            Document {
                name,
                text,
                ..Document::default()
            }
        })
        .collect()
}

fn timing(docs: &[Document], queries: &[(String, usize)], options: &SearchOptions) {
    let big = synthesise(docs, 10_000);
    let mut builds = Vec::new();
    let mut index = None;
    for _ in 0..5 {
        let start = Instant::now();
        index = Some(Index::with_options(&big, options.clone()));
        builds.push(start.elapsed().as_secs_f64() * 1e3);
    }
    let Some(index) = index else { return };
    builds.sort_by(f64::total_cmp);
    println!(
        "timing: {} docs, {} terms; build median {:.1} ms (min {:.1}, max {:.1})",
        index.len(),
        index.term_count(),
        builds[builds.len() / 2],
        builds[0],
        builds[builds.len() - 1]
    );
    query_timing("timing", queries, |q| {
        std::hint::black_box(index.search(q, 10));
    });
}

/// Grid search over the main tunables on half A only, then the best settings' figures on half B:
/// a setting that only looks good on the queries it was picked with would show it here.
fn tune(docs: &[Document], queries: &[(String, usize)], base: &SearchOptions) {
    let (a, b) = split_halves(queries.len());
    let pick = |ix: &[usize]| ix.iter().map(|&i| queries[i].clone()).collect::<Vec<_>>();
    let (half_a, half_b) = (pick(&a), pick(&b));
    let mut results = Vec::new();
    for k1 in [0.9f32, 1.2, 1.6, 2.0] {
        for b in [0.3f32, 0.5, 0.75] {
            for name_weight in [1.0f32, 2.0, 3.0, 5.0] {
                for prefix_weight in [0.0f32, 0.3, 0.5] {
                    for idf_power in [1.0f32, 1.5] {
                        let options = SearchOptions {
                            k1,
                            b,
                            name_weight,
                            prefix_weight,
                            idf_power,
                            ..base.clone()
                        };
                        let index = Index::with_options(docs, options.clone());
                        results.push((evaluate(&index, &half_a), options));
                    }
                }
            }
        }
    }
    best_first(&mut results);
    println!(
        "tune: {} settings on half A; best by recall@5 on A, then their half B:",
        results.len()
    );
    for (metrics, options) in results.iter().take(8) {
        let on_b = evaluate(&Index::with_options(docs, options.clone()), &half_b);
        println!(
            "  k1 {:.1} b {:.2} name {:.0} prefix {:.1} idf^{:.1} | A r@5 {:.4} mrr {:.4} \
             | B r@1 {:.4} r@5 {:.4} mrr {:.4}",
            options.k1,
            options.b,
            options.name_weight,
            options.prefix_weight,
            options.idf_power,
            metrics.recall_at_5,
            metrics.mrr_at_10,
            on_b.recall_at_1,
            on_b.recall_at_5,
            on_b.mrr_at_10,
        );
    }
    let index = Index::with_options(docs, SearchOptions::default());
    println!("  defaults: half B {}", evaluate(&index, &half_b));
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(args) => args,
        Err(e) => {
            if !e.is_empty() {
                eprintln!("error: {e}");
            }
            eprintln!(
                "usage: eval_retrieval --catalog <catalog.json> --queries <queries.csv> \
                 [--split-check] [--timing] [--errors N] [--k1 X] [--b X] [--name-weight X] \
                 [--tag-weight X] [--prefix-weight X] [--idf-power X] [--no-compounds] [--tune] \
                 [--hybrid] [--tune-hybrid] [--table PATH] [--semantic-weight X] \
                 [--semantic-name-weight X] [--min-semantic X] [--dump-features PATH] \
                 [--rerank-model PATH] [--no-projection]"
            );
            return ExitCode::from(2);
        }
    };
    let (docs, queries) = match load_catalog(&args.catalog)
        .and_then(|docs| load_queries(&args.queries, &docs).map(|q| (docs, q)))
    {
        Ok(v) => v,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    // The textbook baseline, in the same run: BM25 (k1 1.2, b 0.75) over name and description.
    let bm25 = Index::with_options(&docs, SearchOptions::classic_bm25());
    println!("BM25 (k1 1.2, b 0.75): {}", evaluate(&bm25, &queries));
    println!("options: {:?}", args.options);
    let index = Index::with_options(&docs, args.options.clone());
    println!("all:     {}", evaluate(&index, &queries));
    if args.split_check {
        let (a, b) = split_halves(queries.len());
        let pick = |ix: &[usize]| ix.iter().map(|&i| queries[i].clone()).collect::<Vec<_>>();
        println!("half A:  {}", evaluate(&index, &pick(&a)));
        println!("half B:  {}", evaluate(&index, &pick(&b)));
    }
    if args.tune {
        tune(&docs, &queries, &args.options);
    }
    let table = if args.hybrid {
        match load_table(&args.table) {
            Ok(t) => Some(t),
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::FAILURE;
            }
        }
    } else {
        None
    };
    let mut hybrid_options = HybridOptions {
        lexical: args.options.clone(),
        ..args.hybrid_options.clone()
    };
    if let Some(model) = args.rerank_model {
        hybrid_options.rerank = Some(Reranker { depth: 20, model });
    }
    if let Some(table) = table {
        hybrid_report(&docs, &queries, &hybrid_options, table, args.split_check);
        if let Some(path) = &args.dump_features {
            // A reranker with no trees keeps the fused order and builds the field vectors.
            let options = HybridOptions {
                rerank: Some(Reranker {
                    depth: 20,
                    model: Forest::none(),
                }),
                ..hybrid_options.clone()
            };
            let index = HybridIndex::with_table(&docs, options, table);
            if let Err(e) = dump_features(path, &index, &queries)
                .and_then(|()| dump_vectors(&format!("{path}.vec"), &index, &queries))
            {
                eprintln!("error: {e}");
                return ExitCode::FAILURE;
            }
        }
        if args.tune_hybrid {
            tune_hybrid(&docs, &queries, &hybrid_options, table);
        }
    }
    if args.errors > 0 {
        let mut shown = 0;
        for (i, (query, tool)) in queries.iter().enumerate() {
            if shown >= args.errors {
                break;
            }
            // Spread the sample over the file (it is grouped by tool).
            if i % 7 != 0 {
                continue;
            }
            let hits = index.search(query, 5);
            if hits.iter().any(|h| h.doc == *tool) {
                continue;
            }
            shown += 1;
            let top: Vec<&str> = hits
                .iter()
                .take(3)
                .map(|h| docs[h.doc].name.as_str())
                .collect();
            println!("miss: {query:?} -> want {} got {top:?}", docs[*tool].name);
        }
    }
    if args.timing {
        timing(&docs, &queries, &args.options);
        if let Some(table) = table {
            timing_hybrid(&docs, &queries, &hybrid_options, table);
        }
    }
    ExitCode::SUCCESS
}
