//! Where the real fixtures of `shared/` are, for the integration tests that read them.
//!
//! `shared/` lives beside the checkout (CI clones the repository next to it) or one level further
//! up (a worktree under `wt/`). A developer without it still gets a passing run, told on stderr
//! which tests did not run; under `CI=true` a missing fixture folder is a failure, so CI can never
//! go green on tests that silently did nothing.

use std::path::PathBuf;

/// Whether `CI` is set to a true value (`1`, `true`, `yes`), as CI systems do.
pub fn ci() -> bool {
    std::env::var("CI")
        .is_ok_and(|v| matches!(v.to_ascii_lowercase().as_str(), "1" | "true" | "yes"))
}

/// `shared/fixtures/<sub>`: from `$SECRETARY_SHARED_DIR` when set (and then only there), else
/// beside the checkout or one level up. `None` (with a `SKIPPED` line on stderr) when absent;
/// panics instead under `CI=true`.
pub fn shared_fixtures(sub: &str) -> Option<PathBuf> {
    let candidates: Vec<PathBuf> = match std::env::var_os("SECRETARY_SHARED_DIR") {
        Some(dir) => vec![PathBuf::from(dir)],
        None => {
            let crate_dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
            vec![
                crate_dir.join("../../../shared"),
                crate_dir.join("../../../../shared"),
            ]
        }
    };
    let found = candidates
        .iter()
        .map(|shared| shared.join("fixtures").join(sub))
        .find(|dir| dir.is_dir());
    if found.is_none() {
        let looked: Vec<String> = candidates.iter().map(|c| c.display().to_string()).collect();
        let why = format!(
            "shared/fixtures/{sub} not found (looked in {}; set SECRETARY_SHARED_DIR to the shared folder)",
            looked.join(", ")
        );
        assert!(!ci(), "CI=true: {why}; the tests that read it cannot run");
        eprintln!("SKIPPED: {why}; the tests that read it did not run");
    }
    found
}
