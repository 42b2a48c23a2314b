//! `get_changed_files` with a fake `git status`: parsing porcelain v1 `-z`, the groups and their
//! text, the filter, where the repository may be, and deferred gating.

#[path = "common/json.rs"]
mod json;

use json::str_at;
use secretary_core::git::{format, parse, Filter};
use secretary_core::host::{Area, MemoryHost};
use secretary_core::registry::invoke;
use secretary_core::toolkit::catalog::Catalog;
use secretary_core::toolkit::ToolContext;
use serde_json::{json, Value};

const PORCELAIN: &[u8] =
    b"M  src/staged.rs\0 M src/edited.rs\0MM both.rs\0A  new.rs\0R  renamed.rs\0old name.rs\0?? notes/todo.md\0 D gone.rs\0UU conflict.rs\0!! target/x\0?? a file with spaces.txt\0";

fn call(host: &MemoryHost, args: Value) -> Value {
    let ctx = ToolContext::new(None, None).with_host(host);
    invoke("get_changed_files", &args, &ctx).to_value()
}

#[test]
fn porcelain_is_parsed_into_groups() {
    let status = parse(PORCELAIN);
    let names = |group: &[secretary_core::git::Change]| -> Vec<String> {
        group
            .iter()
            .map(|c| format!("{} {}", c.status, c.path))
            .collect()
    };
    assert_eq!(
        names(&status.staged),
        [
            "modified both.rs",
            "added new.rs",
            "renamed renamed.rs",
            "modified src/staged.rs"
        ]
    );
    assert_eq!(status.staged[2].from.as_deref(), Some("old name.rs"));
    assert_eq!(
        names(&status.unstaged),
        [
            "modified both.rs",
            "unmerged conflict.rs",
            "deleted gone.rs",
            "modified src/edited.rs"
        ]
    );
    assert_eq!(
        names(&status.untracked),
        [
            "untracked a file with spaces.txt",
            "untracked notes/todo.md"
        ]
    );
    assert_eq!(
        format(&status, Filter::All),
        "Staged files:\n- modified: both.rs\n- added: new.rs\n- renamed: renamed.rs (from old name.rs)\n\
         - modified: src/staged.rs\n\nUnstaged changes:\n- modified: both.rs\n- unmerged: conflict.rs\n\
         - deleted: gone.rs\n- modified: src/edited.rs\n\nUntracked files:\n- untracked: a file with spaces.txt\n\
         - untracked: notes/todo.md"
    );
    assert_eq!(
        format(&status, Filter::Untracked),
        "Untracked files:\n- untracked: a file with spaces.txt\n- untracked: notes/todo.md"
    );
    assert_eq!(format(&parse(b""), Filter::All), "No changed files found.");
    assert_eq!(
        format(&parse(b"?? x\0"), Filter::Staged),
        "No changed files found."
    );
    // Malformed entries are skipped, not guessed.
    assert_eq!(parse(b"garbage\0M\0").staged, []);
}

#[test]
fn the_tool_formats_and_filters() {
    let host = MemoryHost::new();
    host.set_git_status("", PORCELAIN);
    let all = call(&host, json!({}));
    assert_eq!(all["success"], true, "{all}");
    assert_eq!(all["repositoryPath"], ".");
    assert!(str_at(&all, "text").starts_with("Staged files:\n- modified: both.rs"));
    assert_eq!(all["staged"].as_array().unwrap().len(), 4);
    assert_eq!(
        all["staged"][2],
        json!({"path": "renamed.rs", "status": "renamed", "from": "old name.rs"})
    );
    let staged = call(&host, json!({"sourceControlState": "staged"}));
    assert!(staged.get("unstaged").is_none() && staged.get("untracked").is_none());
    assert!(!staged["text"].as_str().unwrap().contains("Untracked"));

    host.set_git_status("packages/api", "");
    let clean = call(&host, json!({"repositoryPath": "packages/api/"}));
    assert_eq!(clean["text"], "No changed files found.");
    assert_eq!(clean["repositoryPath"], "packages/api");

    let bad = call(&host, json!({"sourceControlState": "merged"}));
    assert!(
        str_at(&bad, "error").contains("expected one of `all`, `staged`, `unstaged`, `untracked`"),
        "{bad}"
    );
    let not_repo = call(&host, json!({"repositoryPath": "docs"}));
    assert_eq!(not_repo["error_type"], "io_error");
    assert!(not_repo["error"].as_str().unwrap().starts_with(
        "Could not read the git status of \"docs\" of the workspace: fatal: not a git repository"
    ));
}

#[test]
fn the_repository_must_lie_inside_the_workspace() {
    let host = MemoryHost::new();
    host.set_git_status("", "");
    host.set_git_status("sub/repo", "?? x\0");
    for outside in [
        "..",
        "../other",
        "sub/../../x",
        "/etc",
        "/home/me/proj-other",
        "~/x",
        "a\\b",
    ] {
        let refused = call(&host, json!({"repositoryPath": outside}));
        assert_eq!(
            refused["error_type"], "path_refused",
            "{outside}: {refused}"
        );
        assert!(str_at(&refused, "error").contains("must lie inside the workspace folder"));
    }
    // Absolute paths need the host's folder: without it they are refused, with it resolved.
    let unknown = call(&host, json!({"repositoryPath": "/home/me/proj/sub/repo"}));
    assert!(str_at(&unknown, "error").contains("pass a path relative to it"));
    host.set_root(Area::Workspace, "/home/me/proj");
    for inside in [
        "/home/me/proj/sub/repo",
        "/home/me/proj/sub/repo/",
        "file:///home/me/proj/sub/repo",
        "sub/repo",
        "./sub/repo",
    ] {
        let found = call(&host, json!({"repositoryPath": inside}));
        if inside == "./sub/repo" {
            // `.` segments are refused like `..`: only plain relative paths.
            assert_eq!(found["error_type"], "path_refused", "{found}");
            continue;
        }
        assert_eq!(found["repositoryPath"], "sub/repo", "{inside}: {found}");
        assert_eq!(found["untracked"][0]["path"], "x");
    }
    assert_eq!(
        call(&host, json!({"repositoryPath": "/home/me/proj"}))["repositoryPath"],
        "."
    );
    let sibling = call(&host, json!({"repositoryPath": "/home/me/project"}));
    assert_eq!(sibling["error_type"], "path_refused");
    let escape = call(&host, json!({"repositoryPath": "/home/me/proj/../x"}));
    assert_eq!(escape["error_type"], "path_refused");
    // Windows: drive letters and backslashes, without case.
    let win = MemoryHost::new();
    win.set_root(Area::Workspace, "C:\\Users\\me\\proj");
    win.set_git_status("Sub", "");
    assert_eq!(
        call(&win, json!({"repositoryPath": "c:\\users\\ME\\proj\\Sub"}))["repositoryPath"],
        "Sub"
    );
    assert_eq!(
        call(
            &win,
            json!({"repositoryPath": "file:///c%3A/Users/me/proj/Sub"})
        )["repositoryPath"],
        "Sub"
    );
    assert_eq!(
        call(&win, json!({"repositoryPath": "D:\\proj"}))["error_type"],
        "path_refused"
    );
    // A host without git.
    let bare = invoke(
        "get_changed_files",
        &json!({}),
        &ToolContext::new(None, None),
    )
    .to_value();
    assert_eq!(bare["error_type"], "host_unavailable");
}

#[test]
fn get_changed_files_is_deferred() {
    let catalog = Catalog::new("chat_secretary_", Vec::new(), &[]);
    let host = MemoryHost::new();
    host.set_git_status("", "");
    let ctx = ToolContext::new(None, None)
        .with_host(&host)
        .with_catalog(&catalog);
    let before = invoke("chat_secretary_get_changed_files", &json!({}), &ctx).to_value();
    assert_eq!(before["error_type"], "not_loaded");
    invoke(
        "chat_secretary_tool_load",
        &json!({"names": ["chat_secretary_get_changed_files"]}),
        &ctx,
    );
    let after = invoke("chat_secretary_get_changed_files", &json!({}), &ctx).to_value();
    assert_eq!(after["text"], "No changed files found.");
}
