//! Writes the TypeScript declarations of every type the facade hands the hosts as JSON into a
//! folder, one file per type (`scripts/gen-ts-types` writes `extension/src/core/generated/`, and
//! `scripts/gen-ts-types --check` a temporary folder it compares with that one).
//!
//! `cargo run -p secretary-wasm --features ts --example ts_types -- <folder>`

use secretary_core::error_kind::ErrorKind;
use secretary_core::prompts::PromptOutput;
use secretary_core::session::{ApplyOutcome, DialogSummary, ReadPlan, StoredDialog};
use secretary_wasm::listing::{ClientToolEntry, PromptListing, ToolListing};
use ts_rs::{Config, TS};

fn main() {
    let Some(folder) = std::env::args().nth(1) else {
        eprintln!("usage: ts_types <folder>");
        std::process::exit(2);
    };
    // 64-bit integers (times, offsets) are JSON numbers: the values stay below 2^53.
    let config = Config::new().with_out_dir(&folder).with_large_int("number");
    // The union must spell each kind as the wire does (`ErrorKind::as_str`), or a host matching
    // `"live_pending"` would match a name the core never answers.
    let union = ErrorKind::inline(&config);
    let kinds: Vec<String> = ErrorKind::ALL
        .iter()
        .map(|kind| format!("\"{}\"", kind.as_str()))
        .collect();
    if union != kinds.join(" | ") {
        eprintln!(
            "ts_types: ErrorKind's TypeScript union ({union}) is not its wire strings ({})",
            kinds.join(" | ")
        );
        std::process::exit(1);
    }
    // Each call writes the type and every type it refers to.
    let results = [
        ErrorKind::export_all(&config),
        ReadPlan::export_all(&config),
        ApplyOutcome::export_all(&config),
        StoredDialog::export_all(&config),
        DialogSummary::export_all(&config),
        PromptOutput::export_all(&config),
        ToolListing::export_all(&config),
        PromptListing::export_all(&config),
        ClientToolEntry::export_all(&config),
    ];
    for result in results {
        if let Err(error) = result {
            eprintln!("ts_types: {error}");
            std::process::exit(1);
        }
    }
}
