//! Tool search natively on the catalog `scripts/bench-tools.mjs` builds (the MetaTool tools and
//! variants up to 10,000), through the same path as the wasm module's `Catalog.search` (the
//! catalog's search and the JSON answer). Made for instruction counts, which a noisy machine
//! does not move: `valgrind --tool=callgrind --toggle-collect='bench_tool_query::run_query'`
//! counts the queries alone, not the catalog or the index build.
//!
//! ```text
//! cargo run --release -p secretary-core --example bench_tool_query -- \
//!     ../shared/fixtures/tool-retrieval/metatool-catalog.json \
//!     ../shared/fixtures/tool-retrieval/metatool-dev-queries.csv [ROUNDS]
//! ```
//!
//! Prints the p50 and p90 of one query in microseconds over ROUNDS (default 1) passes of the
//! first 2,000 queries.

use std::process::ExitCode;
use std::time::Instant;

use secretary_core::search::eval::parse_csv;
use secretary_core::toolkit::catalog::{Catalog, CatalogTool};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(catalog), Some(queries)) = (args.first(), args.get(1)) else {
        eprintln!("usage: bench_tool_query <catalog.json> <queries.csv> [rounds]");
        return ExitCode::from(2);
    };
    let rounds: usize = args.get(2).and_then(|r| r.parse().ok()).unwrap_or(1);
    let (tools, queries) = match load(catalog, queries) {
        Ok(loaded) => loaded,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let catalog = Catalog::external_only_with(big_catalog(&tools, 10_000), true);
    // The index is built on the first search: outside `run_query`, so that counts leave it out.
    std::hint::black_box(catalog.search("warm up", 10));
    let mut micros = Vec::with_capacity(rounds * queries.len());
    for _ in 0..rounds {
        for query in &queries {
            let start = Instant::now();
            std::hint::black_box(run_query(&catalog, query));
            micros.push(start.elapsed().as_secs_f64() * 1e6);
        }
    }
    micros.sort_by(f64::total_cmp);
    let at = |p: f64| micros.get((micros.len() as f64 * p) as usize).copied();
    println!(
        "{} queries on 10,000 tools: p50 {:.1} µs, p90 {:.1} µs",
        micros.len(),
        at(0.5).unwrap_or(0.0),
        at(0.9).unwrap_or(0.0)
    );
    ExitCode::SUCCESS
}

/// One query as `Catalog.search` answers it: `[{"name", "score"}]` as JSON text.
#[inline(never)]
fn run_query(catalog: &Catalog, query: &str) -> String {
    let hits: Vec<serde_json::Value> = catalog
        .search(query, 10)
        .into_iter()
        .map(|(hit, tool)| serde_json::json!({ "name": tool.name, "score": hit.score }))
        .collect();
    serde_json::to_string(&hits).unwrap_or_default()
}

/// The catalog's tools and the first 2,000 queries of the CSV (first column).
fn load(catalog: &str, queries: &str) -> Result<(Vec<CatalogTool>, Vec<String>), String> {
    let text = std::fs::read_to_string(catalog).map_err(|e| format!("{catalog}: {e}"))?;
    let tools: Vec<CatalogTool> =
        serde_json::from_str(&text).map_err(|e| format!("{catalog}: {e}"))?;
    let text = std::fs::read_to_string(queries).map_err(|e| format!("{queries}: {e}"))?;
    let queries = parse_csv(&text)
        .into_iter()
        .skip(1)
        .filter_map(|row| row.into_iter().next())
        .take(2000)
        .collect();
    Ok((tools, queries))
}

/// `bigCatalog` of `scripts/bench-tools.mjs`: each tool, then variants named `<tool>_v<i>` whose
/// description adds the first sentence of another tool's.
fn big_catalog(base: &[CatalogTool], n: usize) -> Vec<CatalogTool> {
    let mut tools = base.to_vec();
    if base.is_empty() {
        return tools;
    }
    for i in base.len()..n {
        let a = &base[i % base.len()];
        let b = &base[(i * 7 + 3) % base.len()];
        let first = match b.description.find(". ") {
            Some(end) => &b.description[..=end],
            None => &b.description,
        };
        tools.push(CatalogTool {
            name: format!("{}_v{i}", a.name),
            description: format!("{} {}", a.description, first.trim_end()),
            ..a.clone()
        });
    }
    tools
}
