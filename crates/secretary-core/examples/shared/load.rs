//! Files the eval examples read from the command line, each kept for the whole run (leaked, as
//! the search options hold `&'static` references). The core reads no files itself, so the
//! examples share this instead.

use secretary_core::search::embed::Table;
use secretary_core::search::rerank::{Forest, FEATURE_NAMES};

/// An embedding table file (`--table`, a candidate from `scripts/embeddings/`).
pub fn read_table(path: &str) -> Result<&'static Table, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
    let table = Table::parse(&bytes).map_err(|e| format!("{path}: {e}"))?;
    Ok(Box::leak(Box::new(table)))
}

/// A reranker forest file (`--rerank-model`, as `scripts/rerank/fit_trees.py` writes it).
pub fn read_forest(path: &str) -> Result<&'static Forest, String> {
    read_forest_of(path, &FEATURE_NAMES)
}

/// A forest file fitted on the features `names` (`--request-rerank-model`: the request
/// reranker's).
pub fn read_forest_of(path: &str, names: &[&str]) -> Result<&'static Forest, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let forest = Forest::parse(&text, names).map_err(|e| format!("{path}: {e}"))?;
    Ok(Box::leak(Box::new(forest)))
}
