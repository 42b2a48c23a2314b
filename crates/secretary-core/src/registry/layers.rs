//! The layer order, checked on the source: `toolkit/` (what a tool is) must not name the tool list
//! or the registry above it, and the domain modules (`host`, `flags`, `git`, `memory`, `search`,
//! `session`...) must not name any tool layer: their errors become `ToolResult`s in
//! `toolkit::domain`. A `use` of a higher layer would compile (Rust allows cycles inside a crate),
//! so only a test can keep the picture in `docs/architecture.md` true.

use std::fs;
use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir` (or `dir` itself when it is a file).
fn sources(dir: &Path) -> Vec<PathBuf> {
    if dir.is_file() {
        return vec![dir.to_path_buf()];
    }
    let mut out = Vec::new();
    for entry in fs::read_dir(dir).expect("source folder exists").flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(sources(&path));
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            out.push(path);
        }
    }
    out
}

/// The code lines of the files under `part` (comments left out: docs may name any layer) that
/// mention one of `forbidden`, as `file:line: text`.
fn mentions(part: &str, forbidden: &[&str]) -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut found = Vec::new();
    for file in sources(&root.join(part)) {
        let text = fs::read_to_string(&file).expect("source is UTF-8");
        for (number, line) in text.lines().enumerate() {
            let code = line.trim_start();
            if code.starts_with("//") {
                continue;
            }
            if forbidden.iter().any(|name| code.contains(name)) {
                found.push(format!("{}:{}: {code}", file.display(), number + 1));
            }
        }
    }
    found
}

const TOOLS_AND_REGISTRY: &[&str] = &["crate::registry", "crate::tools", "tools::ALL"];

#[test]
fn the_toolkit_names_neither_the_tools_nor_the_registry() {
    let found = mentions("toolkit", TOOLS_AND_REGISTRY);
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn domain_modules_name_no_tool_layer() {
    let mut found = Vec::new();
    // `docs`, `content` and `memory` still answer `ToolResult`s: they are next.
    for part in [
        "host.rs",
        "flags.rs",
        "git.rs",
        "glob.rs",
        "text.rs",
        "history.rs",
        "search",
        "session",
    ] {
        found.extend(mentions(
            part,
            &[
                "crate::tool",
                "crate::registry",
                "ToolResult",
                "ToolContext",
            ],
        ));
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

/// The check reads what it claims to: a file of the tool layer that names the registry is found.
#[test]
fn the_check_finds_a_mention() {
    let found = mentions("registry/mcp_names.rs", TOOLS_AND_REGISTRY);
    assert!(!found.is_empty());
}
