//! Measures past-request search (what `search_requests` ranks with) on a question set over
//! dialogs, LoCoMo-style: for each question, is the dialog holding its evidence request the
//! dialog of the first result (dialog hit@1), and is the evidence request among the first five
//! (turn hit@5)? Also times one query over the whole collection.
//!
//! ```text
//! cargo run --release -p secretary-core --example eval_requests -- --bench FILE.json \
//!     [--split tune|report|all] [--tune] [--k1 X --b X --idf-power X --prefix-weight X
//!     --semantic-weight X --context-weight X --min-semantic X --soft-weight X --soft-depth N --soft-floor X
//!     --soft-max-tokens N --soft-skip 0|1] [--table PATH]
//!     [--dump-features PATH] [--rerank-model PATH] [--dump-request-features PATH]
//!     [--request-rerank-model PATH] [--misses]
//! ```
//!
//! `FILE.json` is `{"dialogs": [{"id", "requests": [{"text", "timestamp"?}]}], "questions":
//! [{"question", "dialog", "request", "split"}]}` (0-based indices), as
//! `scripts/bench-requests/make_bench.py` writes it. Every run prints, on the same questions and
//! in the same process: classic BM25 (k1 1.2, b 0.75, the request text alone), the ranker before
//! issue 26 (the tool defaults, hybrid, request text alone), and the current one
//! (`history::request_options` with `history::push_dialog_documents` and
//! `history::rank_with_dates`), lexical and hybrid, with and without dates. `--tune`
//! grid-searches the context and semantic weights on the `tune` questions and prints the best on
//! `report`. `--table PATH` ranks with another embedding table instead of the compiled-in one
//! (a candidate from `scripts/embeddings/`), in every hybrid row and in `--tune`.
//! `--dump-features PATH` writes every question's first 20 candidates with the reranker's
//! features (`search::rerank`; `tune` questions as half A, `report` as B) for
//! `scripts/rerank/fit_trees.py`; `--rerank-model` adds a row ranked with the forest it writes
//! (tool search's reranker over requests, measured in `docs/benchmarks.md` and not adopted).
//! `--dump-request-features PATH` writes every question in the third person's first 30 results
//! before the request reranker (`search::request_rerank`) with its features (`tune` and
//! `train` questions as half A) for the same script, and beside it `PATH.docs`, each row's question
//! and request number (what `scripts/rerank/teacher_cv.py` joins its own features on);
//! `--request-rerank-model` ranks the default
//! rows with the forest it writes instead of the committed one, and the row "no request
//! reranker" measures the default without it.

#[path = "shared/load.rs"]
mod load;
use load::{read_forest, read_forest_of, read_table};

use std::process::ExitCode;
use std::time::Instant;

use secretary_core::history::{
    push_dialog_documents, rank_with_dates, request_options, rerank_candidates,
};
use secretary_core::search::embed::Table;
use secretary_core::search::request_rerank::{
    self, Placement, RequestReranker, FEATURE_NAMES as REQUEST_FEATURE_NAMES,
};
use secretary_core::search::rerank::{Forest, Reranker, FEATURE_NAMES};
use secretary_core::search::{Document, HybridHit, HybridIndex, HybridOptions, SearchOptions};

struct Bench {
    /// Per dialog, its requests' texts.
    dialogs: Vec<Vec<String>>,
    /// Per dialog, its requests' times.
    times: Vec<Vec<Option<i64>>>,
    questions: Vec<Question>,
}

#[derive(Clone)]
struct Question {
    text: String,
    dialog: usize,
    request: usize,
    split: String,
}

fn load(path: &str) -> Result<Bench, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let value: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("{path}: {e}"))?;
    let dialogs: Vec<Vec<String>> = value["dialogs"]
        .as_array()
        .ok_or_else(|| format!("{path}: no dialogs"))?
        .iter()
        .map(|d| {
            d["requests"]
                .as_array()
                .map(|rs| {
                    rs.iter()
                        .map(|r| r["text"].as_str().unwrap_or("").to_string())
                        .collect()
                })
                .unwrap_or_default()
        })
        .collect();
    let times: Vec<Vec<Option<i64>>> = value["dialogs"]
        .as_array()
        .map(|ds| {
            ds.iter()
                .map(|d| {
                    d["requests"]
                        .as_array()
                        .map(|rs| rs.iter().map(|r| r["timestamp"].as_i64()).collect())
                        .unwrap_or_default()
                })
                .collect()
        })
        .unwrap_or_default();
    let questions = value["questions"]
        .as_array()
        .ok_or_else(|| format!("{path}: no questions"))?
        .iter()
        .filter_map(|q| {
            let dialog = q["dialog"].as_u64()? as usize;
            let request = q["request"].as_u64()? as usize;
            (dialog < dialogs.len() && request < dialogs[dialog].len()).then(|| Question {
                text: q["question"].as_str().unwrap_or("").to_string(),
                dialog,
                request,
                split: q["split"].as_str().unwrap_or("report").to_string(),
            })
        })
        .collect();
    Ok(Bench {
        dialogs,
        times,
        questions,
    })
}

/// The documents and, per document, its (dialog, request).
fn documents(bench: &Bench, context: bool) -> (Vec<Document>, Vec<(usize, usize)>) {
    let mut docs = Vec::new();
    let mut refs = Vec::new();
    for (d, requests) in bench.dialogs.iter().enumerate() {
        let texts: Vec<&str> = requests.iter().map(String::as_str).collect();
        if context {
            push_dialog_documents(&texts, &mut docs);
        } else {
            docs.extend(texts.iter().map(|t| Document::new("", *t)));
        }
        refs.extend((0..texts.len()).map(|r| (d, r)));
    }
    (docs, refs)
}

#[derive(Default, Clone, Copy)]
struct Scores {
    n: usize,
    dialog_at_1: usize,
    turn_at_5: usize,
    turn_rr: f64,
}

impl std::fmt::Display for Scores {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n = self.n.max(1) as f64;
        write!(
            f,
            "questions {:>5}  dialog hit@1 {:.4}  turn hit@5 {:.4}  turn MRR@10 {:.4}",
            self.n,
            self.dialog_at_1 as f64 / n,
            self.turn_at_5 as f64 / n,
            self.turn_rr / n
        )
    }
}

impl Scores {
    fn turn5(&self) -> f64 {
        self.turn_at_5 as f64 / self.n.max(1) as f64
    }
    fn dialog1(&self) -> f64 {
        self.dialog_at_1 as f64 / self.n.max(1) as f64
    }
}

/// Each request's time, and its dialog for neighbour support (empty: none).
type Layout<'a> = (&'a [Option<i64>], &'a [u32]);

/// The first ten results for `question` as `search_requests` ranks them: with `layout`, a time
/// named in the question counts and neighbours support ([`rank_with_dates`]).
fn ranked(index: &HybridIndex, layout: Option<Layout>, question: &str) -> Vec<HybridHit> {
    match layout {
        Some((times, dialogs)) => rank_with_dates(index, times, dialogs, question, 10)
            .into_iter()
            .map(|(hit, _)| hit)
            .collect(),
        None => index.search(question, 10),
    }
}

/// Each question ranked as `search_requests` ranks it: with `layout`, a time named in the
/// question counts and a question in the third person gets neighbour support when `layout` holds
/// the dialogs ([`rank_with_dates`]); without, the question is searched as plain words.
fn evaluate(
    index: &HybridIndex,
    refs: &[(usize, usize)],
    layout: Option<Layout>,
    questions: &[&Question],
) -> Scores {
    let mut s = Scores::default();
    for q in questions {
        let hits = ranked(index, layout, &q.text);
        s.n += 1;
        if hits.first().map(|h| refs[h.doc].0) == Some(q.dialog) {
            s.dialog_at_1 += 1;
        }
        if let Some(rank) = hits
            .iter()
            .position(|h| refs[h.doc] == (q.dialog, q.request))
        {
            if rank < 5 {
                s.turn_at_5 += 1;
            }
            s.turn_rr += 1.0 / (rank + 1) as f64;
        }
    }
    s
}

/// p50 and p99 of one query over the whole collection, in milliseconds (after 100 warm-ups).
fn timing(index: &HybridIndex, layout: Option<Layout>, questions: &[&Question]) -> (f64, f64) {
    let search = |q: &str| match layout {
        Some((times, dialogs)) => {
            std::hint::black_box(rank_with_dates(index, times, dialogs, q, 10));
        }
        None => {
            std::hint::black_box(index.search(q, 10));
        }
    };
    for q in questions.iter().take(100) {
        search(&q.text);
    }
    let mut ms: Vec<f64> = questions
        .iter()
        .map(|q| {
            let start = Instant::now();
            search(&q.text);
            start.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    ms.sort_by(f64::total_cmp);
    let pct = |p: f64| ms[((ms.len() - 1) as f64 * p).round() as usize];
    (pct(0.5), pct(0.99))
}

struct Overrides(Vec<(String, f32)>);

impl Overrides {
    fn apply(&self, mut o: HybridOptions) -> HybridOptions {
        for (k, v) in &self.0 {
            match k.as_str() {
                "--k1" => o.lexical.k1 = *v,
                "--b" => o.lexical.b = *v,
                "--idf-power" => o.lexical.idf_power = *v,
                "--prefix-weight" => o.lexical.prefix_weight = *v,
                "--semantic-weight" => o.semantic_weight = *v,
                "--context-weight" => {
                    o.lexical.context_weight = *v;
                    o.context_weight = *v
                }
                "--lexical-context-weight" => o.lexical.context_weight = *v,
                "--semantic-context-weight" => o.context_weight = *v,
                "--min-semantic" => o.min_semantic = *v,
                "--soft-weight" | "--soft-depth" | "--soft-floor" | "--soft-max-tokens"
                | "--soft-skip" => {
                    if let Some(soft) = &mut o.soft_match {
                        match k.as_str() {
                            "--soft-weight" => soft.weight = *v,
                            "--soft-depth" => soft.depth = *v as usize,
                            "--soft-floor" => soft.floor = *v,
                            // 0: no question words left out of the soft match (an ablation).
                            "--soft-skip" if *v == 0.0 => soft.skip_words = &[],
                            "--soft-skip" => {}
                            _ => soft.max_tokens = *v as usize,
                        }
                    }
                }
                _ => {}
            }
        }
        o
    }
}

fn run() -> Result<(), String> {
    let mut bench_path = None;
    let mut split = "report".to_string();
    let mut tune = false;
    let mut dump: Option<String> = None;
    let mut dump_requests: Option<String> = None;
    let mut request_model: Option<&'static Forest> = None;
    let mut rerank: Option<&'static Forest> = None;
    let mut misses = false;
    let mut overrides = Overrides(Vec::new());
    let mut table = Table::builtin();
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        match flag.as_str() {
            "--bench" => bench_path = it.next(),
            "--table" => {
                let p = it.next().ok_or("--table needs a path")?;
                table = read_table(&p)?;
            }
            "--split" => split = it.next().ok_or("--split needs a value")?,
            "--tune" => tune = true,
            "--misses" => misses = true,
            "--dump-features" => dump = Some(it.next().ok_or("--dump-features needs a path")?),
            "--dump-request-features" => {
                dump_requests = Some(it.next().ok_or("--dump-request-features needs a path")?)
            }
            "--request-rerank-model" => {
                let path = it.next().ok_or("--request-rerank-model needs a path")?;
                request_model = Some(read_forest_of(&path, &REQUEST_FEATURE_NAMES)?)
            }
            "--rerank-model" => {
                let path = it.next().ok_or("--rerank-model needs a path")?;
                rerank = Some(read_forest(&path)?)
            }
            other if other.starts_with("--") => {
                let v = it
                    .next()
                    .ok_or(format!("{other} needs a value"))?
                    .parse::<f32>()
                    .map_err(|e| format!("{other}: {e}"))?;
                overrides.0.push((other.to_string(), v));
            }
            other => return Err(format!("unknown argument {other}")),
        }
    }
    let path = bench_path.ok_or("--bench FILE is required")?;
    let bench = load(&path)?;
    let pick = |name: &str| -> Vec<&Question> {
        bench
            .questions
            .iter()
            .filter(|q| name == "all" || q.split == name)
            .collect()
    };
    let questions = pick(&split);
    let n_requests: usize = bench.dialogs.iter().map(Vec::len).sum();
    println!(
        "{path}: {} dialogs, {n_requests} requests; split {split}: {} questions",
        bench.dialogs.len(),
        questions.len()
    );

    if let Some(out) = dump {
        return dump_features(&bench, table, &out);
    }
    if let Some(out) = dump_requests {
        return dump_request_features(&bench, table, &out);
    }
    if tune {
        let tune_set = pick("tune");
        let (docs, refs) = documents(&bench, true);
        let mut results = Vec::new();
        for cw in [0.0f32, 0.15, 0.3, 0.5] {
            for sw in [0.3f32, 0.45, 0.55, 0.65] {
                for k1 in [1.2f32, 2.0] {
                    let mut o = overrides.apply(request_options(true));
                    o.lexical.context_weight = cw;
                    o.context_weight = cw;
                    o.semantic_weight = sw;
                    o.lexical.k1 = k1;
                    let index = HybridIndex::with_table(&docs, o.clone(), table);
                    let s = evaluate(&index, &refs, None, &tune_set);
                    println!("  tune cw {cw:.2} sw {sw:.2} k1 {k1:.1}: {s}");
                    results.push((s.turn5() + s.dialog1(), o));
                }
            }
        }
        results.sort_by(|a, b| b.0.total_cmp(&a.0));
        for (_, o) in results.iter().take(3) {
            let index = HybridIndex::with_table(&docs, o.clone(), table);
            println!(
                "best on tune -> report: cw {:.2} sw {:.2} k1 {:.1}: {}",
                o.context_weight,
                o.semantic_weight,
                o.lexical.k1,
                evaluate(&index, &refs, None, &pick("report"))
            );
        }
        return Ok(());
    }

    let bm25 = HybridOptions {
        lexical: SearchOptions {
            context_weight: 0.0,
            ..SearchOptions::classic_bm25()
        },
        ..HybridOptions::lexical_only()
    };
    // What search_requests ranked with before issue 26: the tool defaults, min semantic 0.3.
    let before = HybridOptions {
        lexical: SearchOptions {
            context_weight: 0.0,
            ..SearchOptions::default()
        },
        context_weight: 0.0,
        min_semantic: 0.3,
        rerank: None,
        query_projection: None,
        ..HybridOptions::default()
    };
    let mut now = overrides.apply(request_options(true));
    if let Some(model) = request_model {
        now.request_rerank = Some(RequestReranker {
            depth: RequestReranker::DEPTH,
            model,
        });
    }
    let now_lexical = overrides.apply(request_options(false));
    // The default of issue 26's first four passes: the same without the soft match.
    // (Both before the request reranker, which needs the answer kinds' traits.)
    let unsoft = HybridOptions {
        soft_match: None,
        answer_kinds: None,
        request_rerank: None,
        ..now.clone()
    };
    // The fifth pass's default: the same without the answer kinds.
    let unkinded = HybridOptions {
        answer_kinds: None,
        request_rerank: None,
        ..now.clone()
    };
    let reranked = rerank.map(|model| HybridOptions {
        rerank: Some(Reranker { depth: 20, model }),
        ..now.clone()
    });
    // (name, options, context, dates, neighbour support); dates and support are
    // `rank_with_dates`, the search of `search_requests`, without them `HybridIndex::search`.
    // Every row with dates but "no neighbour support" has support, as the tool does.
    let mut rankers: Vec<(&str, HybridOptions, bool, bool, bool)> = vec![
        (
            "BM25 (k1 1.2, b 0.75), request text",
            bm25,
            false,
            false,
            false,
        ),
        ("before: hybrid, request text", before, false, false, false),
        (
            "now: lexical, context, dates",
            now_lexical,
            true,
            true,
            true,
        ),
        ("no soft match, context, dates", unsoft, true, true, true),
        (
            "no answer kinds, context, dates",
            unkinded,
            true,
            true,
            true,
        ),
        (
            "now: hybrid, context, no dates",
            now.clone(),
            true,
            false,
            false,
        ),
        (
            "no neighbour support, context, dates",
            now.clone(),
            true,
            true,
            false,
        ),
        (
            "no request reranker, context, dates",
            HybridOptions {
                request_rerank: None,
                ..now.clone()
            },
            true,
            true,
            true,
        ),
        (
            "now: hybrid, context, dates (default)",
            now,
            true,
            true,
            true,
        ),
    ];
    if let Some(options) = reranked {
        rankers.push((
            "reranked (--rerank-model), dates",
            options,
            true,
            true,
            true,
        ));
    }
    let all_times: Vec<Option<i64>> = bench.times.iter().flatten().copied().collect();
    for (name, options, context, dates, support) in rankers {
        let (docs, refs) = documents(&bench, context);
        let dialogs: Vec<u32> = if support {
            refs.iter().map(|&(d, _)| d as u32).collect()
        } else {
            Vec::new()
        };
        let layout = dates.then_some((all_times.as_slice(), dialogs.as_slice()));
        let start = Instant::now();
        let index = HybridIndex::with_table(&docs, options, table);
        let build = start.elapsed().as_secs_f64() * 1e3;
        let s = evaluate(&index, &refs, layout, &questions);
        if misses && name.ends_with("(default)") {
            print_misses(&bench, &index, &refs, layout, &questions);
        }
        let (p50, p99) = timing(&index, layout, &questions);
        println!("{name:40} {s}  build {build:.1} ms  query p50 {p50:.3} ms p99 {p99:.3} ms");
    }
    incremental(&bench);
    Ok(())
}

/// Prints each question whose evidence request is not among the first five (`--misses`, for the
/// default ranker): the question, its evidence request and the first result, each cut to a line.
fn print_misses(
    bench: &Bench,
    index: &HybridIndex,
    refs: &[(usize, usize)],
    layout: Option<Layout>,
    questions: &[&Question],
) {
    let line = |(d, r): (usize, usize)| -> String {
        let text: String = bench.dialogs[d][r].chars().take(160).collect();
        format!("[{d}:{r}] {}", text.replace('\n', " "))
    };
    for q in questions {
        let hits: Vec<usize> = ranked(index, layout, &q.text)
            .iter()
            .map(|h| h.doc)
            .collect();
        let rank = hits.iter().position(|&h| refs[h] == (q.dialog, q.request));
        if rank.is_some_and(|r| r < 5) {
            continue;
        }
        println!("miss {:?} (rank {rank:?})", q.text);
        println!("  want {}", line((q.dialog, q.request)));
        if let Some(&top) = hits.first() {
            println!("  got  {}", line(refs[top]));
        }
    }
}

/// Times the default index's full build against a rebuild after one request is appended to the
/// last dialog (what `history::RequestIndex::build_from` does as a session grows: every other
/// request's vector reused, the new one and its predecessor embedded).
fn incremental(bench: &Bench) {
    let (docs, _) = documents(bench, true);
    let mut grown = bench.dialogs.clone();
    if let Some(last) = grown.last_mut() {
        last.push("One more request: rename the crate and update the imports".to_string());
    }
    let grown_bench = Bench {
        dialogs: grown,
        times: Vec::new(),
        questions: Vec::new(),
    };
    let (grown_docs, _) = documents(&grown_bench, true);
    let reuse: Vec<Option<u32>> = grown_docs
        .iter()
        .enumerate()
        .map(|(d, doc)| (docs.get(d) == Some(doc)).then_some(d as u32))
        .collect();
    let mut full = Vec::new();
    let mut again = Vec::new();
    for _ in 0..5 {
        let start = Instant::now();
        let index = HybridIndex::with_options(&docs, request_options(true));
        full.push(start.elapsed().as_secs_f64() * 1e3);
        let start = Instant::now();
        std::hint::black_box(HybridIndex::rebuild(&index, &grown_docs, &reuse));
        again.push(start.elapsed().as_secs_f64() * 1e3);
    }
    full.sort_by(f64::total_cmp);
    again.sort_by(f64::total_cmp);
    println!(
        "index of {} requests: full build {:.1} ms, after one request appended {:.1} ms \
         ({} of {} vectors reused; medians of 5)",
        docs.len(),
        full[2],
        again[2],
        reuse.iter().flatten().count(),
        grown_docs.len()
    );
}

/// Writes every question's first 20 candidates (the default ranker, without dates) with the
/// reranker's features as CSV for `scripts/rerank/fit_trees.py`: `tune` questions as half A, `report`
/// as B; label 1 for the evidence request.
fn dump_features(bench: &Bench, table: &'static Table, path: &str) -> Result<(), String> {
    let (docs, refs) = documents(bench, true);
    let options = HybridOptions {
        rerank: Some(Reranker {
            depth: 20,
            model: Forest::none(),
        }),
        ..request_options(true)
    };
    let index = HybridIndex::with_table(&docs, options, table);
    let mut out = format!("query,half,label,{}\n", FEATURE_NAMES.join(","));
    for (i, q) in bench.questions.iter().enumerate() {
        let half = if q.split == "tune" { "A" } else { "B" };
        for (hit, features) in index.candidates(&q.text, 20) {
            let cells: Vec<String> = features.iter().map(|f| format!("{f:.5}")).collect();
            let label = u8::from(refs[hit.doc] == (q.dialog, q.request));
            out.push_str(&format!("{i},{half},{label},{}\n", cells.join(",")));
        }
    }
    std::fs::write(path, out).map_err(|e| format!("{path}: {e}"))
}

/// Writes, for every question in the third person that names no time, its first 30 results as
/// `search_requests` gives them to the request reranker ([`rerank_candidates`]: after neighbour
/// support; the same gate and the same list), with the request reranker's features, as CSV for
/// `scripts/rerank/fit_trees.py`: `tune` and `train` questions as half A (what it is fitted
/// on), the others as B; label 1 for the evidence request.
fn dump_request_features(bench: &Bench, table: &'static Table, path: &str) -> Result<(), String> {
    let (docs, refs) = documents(bench, true);
    let options = HybridOptions {
        request_rerank: None,
        ..request_options(true)
    };
    let index = HybridIndex::with_table(&docs, options, table);
    let dialogs: Vec<u32> = refs.iter().map(|&(d, _)| d as u32).collect();
    let times: Vec<Option<i64>> = bench.times.iter().flatten().copied().collect();
    let placement = Placement {
        dialogs: &dialogs,
        times: &times,
    };
    let mut out = format!("query,half,label,{}\n", REQUEST_FEATURE_NAMES.join(","));
    let mut docs_of_rows = String::new();
    for (i, q) in bench.questions.iter().enumerate() {
        // What search_requests reranks, as it gives it to the reranker.
        let Some(hits) = rerank_candidates(&index, &times, &dialogs, &q.text) else {
            continue;
        };
        let half = if q.split == "tune" || q.split == "train" {
            "A"
        } else {
            "B"
        };
        let features = request_rerank::features(&index, placement, &q.text, &hits);
        for (hit, features) in hits.iter().zip(features) {
            let cells: Vec<String> = features.iter().map(|f| format!("{f:.5}")).collect();
            let label = u8::from(refs[hit.doc] == (q.dialog, q.request));
            out.push_str(&format!("{i},{half},{label},{}\n", cells.join(",")));
            docs_of_rows.push_str(&format!("{i},{}\n", hit.doc));
        }
    }
    std::fs::write(path, out).map_err(|e| format!("{path}: {e}"))?;
    let side = format!("{path}.docs");
    std::fs::write(&side, docs_of_rows).map_err(|e| format!("{side}: {e}"))
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("eval_requests: {e}");
            ExitCode::FAILURE
        }
    }
}
