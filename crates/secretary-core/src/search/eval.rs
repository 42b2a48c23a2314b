//! Retrieval quality measures, shared by `examples/eval_retrieval.rs`, the dev-set test and any
//! later ranker (embeddings) that must be compared on the same footing.
//!
//! Every query has exactly one relevant document (its labelled tool). recall@k is the share of
//! queries whose tool is among the first k results; MRR@10 is the mean of 1/rank over queries
//! whose tool is in the first 10 (0 otherwise).

/// recall@1, recall@5 and MRR@10 over a set of queries.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Metrics {
    pub queries: usize,
    pub recall_at_1: f64,
    pub recall_at_5: f64,
    pub mrr_at_10: f64,
}

impl std::fmt::Display for Metrics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "queries {:>6}  recall@1 {:.4}  recall@5 {:.4}  MRR@10 {:.4}",
            self.queries, self.recall_at_1, self.recall_at_5, self.mrr_at_10
        )
    }
}

/// Accumulates ranks one query at a time.
#[derive(Debug, Clone, Copy, Default)]
pub struct MetricsBuilder {
    queries: usize,
    at_1: usize,
    at_5: usize,
    reciprocal: f64,
}

impl MetricsBuilder {
    /// Records one query whose relevant document came at 1-based `rank` (`None`: not returned).
    pub fn add(&mut self, rank: Option<usize>) {
        self.queries += 1;
        if let Some(rank) = rank {
            if rank == 1 {
                self.at_1 += 1;
            }
            if rank <= 5 {
                self.at_5 += 1;
            }
            if (1..=10).contains(&rank) {
                self.reciprocal += 1.0 / rank as f64;
            }
        }
    }

    pub fn finish(&self) -> Metrics {
        let n = self.queries.max(1) as f64;
        Metrics {
            queries: self.queries,
            recall_at_1: self.at_1 as f64 / n,
            recall_at_5: self.at_5 as f64 / n,
            mrr_at_10: self.reciprocal / n,
        }
    }
}

/// The 1-based rank of `relevant` in `ranked`, if present.
pub fn rank_of(ranked: impl IntoIterator<Item = usize>, relevant: usize) -> Option<usize> {
    ranked
        .into_iter()
        .position(|d| d == relevant)
        .map(|p| p + 1)
}

/// Parses RFC 4180 CSV: fields separated by commas, records by CRLF or LF; a field in double
/// quotes may contain commas, line breaks and doubled quotes (`""` for `"`). Lenient on malformed
/// input (a stray quote inside an unquoted field is kept as text) and never panics.
pub fn parse_csv(text: &str) -> Vec<Vec<String>> {
    let mut records = Vec::new();
    let mut record: Vec<String> = Vec::new();
    let mut field = String::new();
    let mut in_quotes = false;
    let mut field_started = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if in_quotes {
            if c == '"' {
                if chars.peek() == Some(&'"') {
                    chars.next();
                    field.push('"');
                } else {
                    in_quotes = false;
                }
            } else {
                field.push(c);
            }
            continue;
        }
        match c {
            '"' if !field_started => {
                in_quotes = true;
                field_started = true;
            }
            ',' => {
                record.push(std::mem::take(&mut field));
                field_started = false;
            }
            '\r' if chars.peek() == Some(&'\n') => {}
            '\n' => {
                record.push(std::mem::take(&mut field));
                field_started = false;
                records.push(std::mem::take(&mut record));
            }
            _ => {
                field.push(c);
                field_started = true;
            }
        }
    }
    if field_started || !field.is_empty() || !record.is_empty() {
        record.push(field);
        records.push(record);
    }
    records
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_handles_quotes_commas_and_newlines() {
        let text =
            "query,tool\r\nplain,A\n\"with, comma\",B\n\"say \"\"hi\"\"\",C\n\"two\nlines\",D\n";
        let rows = parse_csv(text);
        assert_eq!(rows.len(), 5);
        assert_eq!(rows[1], ["plain", "A"]);
        assert_eq!(rows[2], ["with, comma", "B"]);
        assert_eq!(rows[3], ["say \"hi\"", "C"]);
        assert_eq!(rows[4], ["two\nlines", "D"]);
        assert_eq!(
            parse_csv("a,b"),
            vec![vec!["a".to_string(), "b".to_string()]]
        );
        assert!(parse_csv("").is_empty());
    }

    #[test]
    fn metrics_count_ranks() {
        let mut m = MetricsBuilder::default();
        m.add(Some(1));
        m.add(Some(4));
        m.add(Some(11));
        m.add(None);
        let m = m.finish();
        assert_eq!(m.queries, 4);
        assert!((m.recall_at_1 - 0.25).abs() < 1e-9);
        assert!((m.recall_at_5 - 0.5).abs() < 1e-9);
        assert!((m.mrr_at_10 - (1.0 + 0.25) / 4.0).abs() < 1e-9);
    }
}
