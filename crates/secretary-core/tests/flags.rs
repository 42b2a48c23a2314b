//! Project and global flags through the tools, over the in-memory host: resolution (project over
//! global), validation, atomic writes and what a crash or a damaged file leaves.

#[path = "common/json.rs"]
mod json;

use json::{assert_field_has, assert_field_starts, assert_has, str_at};
use secretary_core::host::{Area, MemoryHost};
use secretary_core::registry::invoke;
use secretary_core::toolkit::ToolContext;
use serde_json::{json, Value};

fn call(host: &MemoryHost, name: &str, args: Value) -> Value {
    let ctx = ToolContext::new(None, None).with_host(host);
    invoke(name, &args, &ctx).to_value()
}

fn ok(host: &MemoryHost, name: &str, args: Value) -> Value {
    let result = call(host, name, args);
    assert_eq!(result["success"], true, "{name}: {result}");
    result
}

/// `tool` (a `set_*_flag` tool) setting flag `name` to `value`, whatever it answers.
fn try_set(host: &MemoryHost, tool: &str, name: &str, value: Value) -> Value {
    call(host, tool, json!({ "name": name, "value": value }))
}

/// `try_set`, asserting that it succeeded.
fn set(host: &MemoryHost, tool: &str, name: &str, value: Value) -> Value {
    ok(host, tool, json!({ "name": name, "value": value }))
}

#[test]
fn project_value_overrides_global_which_is_the_default() {
    let host = MemoryHost::new();
    set(&host, "set_feature_flag", "strictMode", json!(false));
    set(&host, "set_feature_flag", "spelling", json!("en-GB"));
    // Unset in the project: the global value is the default.
    let got = ok(&host, "get_project_flag", json!({"name": "strictMode"}));
    assert_eq!(
        (got["value"].clone(), got["source"].clone()),
        (json!(false), json!("global"))
    );
    // Set in the project: it wins, and says what it overrides.
    let overriding = set(&host, "set_project_flag", "strictMode", json!(true));
    assert_field_has(&overriding, "message", "Overrides the global value false");
    let got = ok(&host, "get_project_flag", json!({"name": "strictMode"}));
    assert_eq!(
        got,
        json!({"success": true, "name": "strictMode", "value": true, "source": "project", "globalValue": false})
    );
    // Global tools never merge: the global value is unchanged.
    let global = ok(&host, "get_feature_flag", json!({"name": "strictMode"}));
    assert_eq!(
        (global["value"].clone(), global["source"].clone()),
        (json!(false), json!("global"))
    );
    // The project listing merges, the global one does not.
    let listed = ok(&host, "list_project_flags", json!({}));
    assert_eq!(
        listed["flags"],
        json!([
            {"name": "spelling", "value": "en-GB", "source": "global"},
            {"name": "strictMode", "value": true, "source": "project", "globalValue": false},
        ])
    );
    assert_eq!(listed["total"], 2);
    let global_list = ok(&host, "list_feature_flags", json!({}));
    assert_eq!(global_list["total"], 2);
    assert_eq!(
        global_list["flags"][1],
        json!({"name": "strictMode", "value": false, "source": "global"})
    );
    // Deleting the project value lets the global one apply again.
    let deleted = ok(&host, "delete_project_flag", json!({"name": "strictMode"}));
    assert_eq!(deleted["removed"], true);
    assert!(str_at(&deleted, "message").contains("global value false applies again"));
    let got = ok(&host, "get_project_flag", json!({"name": "strictMode"}));
    assert_eq!(got["source"], "global");
}

#[test]
fn files_live_in_their_areas_in_a_readable_format() {
    let host = MemoryHost::new();
    set(&host, "set_project_flag", "packageManager", json!("pnpm"));
    set(&host, "set_feature_flag", "ratio", json!(0.5));
    let project: Value =
        serde_json::from_str(&host.text(Area::WorkspaceState, "flags.json").unwrap()).unwrap();
    assert_eq!(
        project,
        json!({"version": 1, "flags": {"packageManager": "pnpm"}})
    );
    let global: Value =
        serde_json::from_str(&host.text(Area::GlobalState, "flags.json").unwrap()).unwrap();
    assert_eq!(global, json!({"version": 1, "flags": {"ratio": 0.5}}));
    // Overwriting reports the previous value.
    let again = set(&host, "set_project_flag", "packageManager", json!(null));
    assert_eq!(again["previous"], "pnpm");
    let got = ok(&host, "get_project_flag", json!({"name": "packageManager"}));
    assert_eq!(
        (got["value"].clone(), got["source"].clone()),
        (Value::Null, json!("project"))
    );
}

#[test]
fn unset_flags_answer_source_unset() {
    let host = MemoryHost::new();
    let got = ok(&host, "get_project_flag", json!({"name": "nothing"}));
    assert_eq!(
        (got["value"].clone(), got["source"].clone()),
        (Value::Null, json!("unset"))
    );
    let got = ok(&host, "get_feature_flag", json!({"name": "nothing"}));
    assert_eq!(got["source"], "unset");
    let deleted = ok(&host, "delete_feature_flag", json!({"name": "nothing"}));
    assert_eq!(deleted["removed"], false);
    assert_eq!(host.writes(), 0, "removing an unset flag writes nothing");
    assert_eq!(ok(&host, "list_feature_flags", json!({}))["total"], 0);
}

#[test]
fn names_and_values_are_validated() {
    let host = MemoryHost::new();
    for name in ["", "1st", "a b", "../x", "x/y", &"a".repeat(65)] {
        let result = try_set(&host, "set_project_flag", name, json!(1));
        assert_eq!(result["success"], false, "{name}");
        assert_field_starts(&result, "error", "Invalid flag name");
    }
    for value in [json!([1, 2]), json!({"a": 1})] {
        let result = try_set(&host, "set_feature_flag", "x", value);
        assert_field_has(&result, "error", "string, number, boolean or null");
    }
    let missing = call(&host, "set_feature_flag", json!({"name": "x"}));
    assert_field_has(&missing, "error", "missing field `value`");
    assert_eq!(host.writes(), 0);
}

#[test]
fn without_a_host_or_a_workspace_the_tools_say_so() {
    let ctx = ToolContext::new(None, None);
    let result = invoke("get_project_flag", &json!({"name": "x"}), &ctx).to_value();
    assert_eq!(result["error_type"], "host_unavailable");
    assert!(
        result["error"].as_str().unwrap().contains("no file access"),
        "{result}"
    );
    // An empty window: no workspace state, but global flags still work.
    let host = MemoryHost::new().without_area(Area::WorkspaceState);
    let result = try_set(&host, "set_project_flag", "x", json!(1));
    assert_field_starts(&result, "error", "Project flags need a workspace");
    set(&host, "set_feature_flag", "x", json!(1));
}

#[test]
fn a_crash_mid_write_keeps_the_last_good_state_and_the_temp_file_is_ignored() {
    let host = MemoryHost::new();
    set(&host, "set_project_flag", "step", json!(1));
    host.crash_next_write();
    let crashed = try_set(&host, "set_project_flag", "step", json!(2));
    assert_eq!(crashed["success"], false);
    assert_eq!(crashed["error_type"], "io_error");
    // The temporary file is left behind, the flags file still holds the last good state.
    assert!(host
        .paths(Area::WorkspaceState)
        .contains(&".flags.json.tmp".to_string()));
    assert_eq!(
        ok(&host, "get_project_flag", json!({"name": "step"}))["value"],
        1
    );
    // The next write works and the leftover does not disturb it.
    set(&host, "set_project_flag", "step", json!(3));
    assert_eq!(
        ok(&host, "get_project_flag", json!({"name": "step"}))["value"],
        3
    );
}

#[test]
fn a_damaged_file_is_reported_and_never_overwritten() {
    let host = MemoryHost::new();
    let truncated = "{\"version\": 1, \"flags\": {\"a\": tr";
    host.put(Area::GlobalState, "flags.json", truncated);
    for (tool, args) in [
        ("get_feature_flag", json!({"name": "a"})),
        ("set_feature_flag", json!({"name": "b", "value": 1})),
        ("delete_feature_flag", json!({"name": "a"})),
        ("list_feature_flags", json!({})),
        // Project resolution reads the global defaults too.
        ("get_project_flag", json!({"name": "a"})),
    ] {
        let result = call(&host, tool, args);
        assert_eq!(result["error_type"], "storage_damaged", "{tool}: {result}");
        let error = result["error"].as_str().unwrap();
        assert_has(error, "globalState/flags.json is damaged");
        assert!(error.contains("fix the JSON or delete the file"), "{error}");
    }
    assert_eq!(
        host.text(Area::GlobalState, "flags.json").unwrap(),
        truncated,
        "the damaged file was kept"
    );
    // Project flags alone are unaffected.
    set(&host, "set_project_flag", "a", json!(1));
    // A file from a newer version is refused the same way.
    secretary_core::host::Host::remove(&host, Area::GlobalState, "flags.json").unwrap();
    host.put(
        Area::WorkspaceState,
        "flags.json",
        r#"{"version": 2, "flags": {}}"#,
    );
    let newer = call(&host, "list_project_flags", json!({}));
    assert!(
        newer["error"].as_str().unwrap().contains("newer version"),
        "{newer}"
    );
}
