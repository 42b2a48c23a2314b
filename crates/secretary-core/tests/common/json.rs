//! Reading a tool's JSON answer in a test: one spelling of "this field is a string", "this
//! array's field, item by item" and "the item named so", so a test says which field it checks and
//! what it expects, and a missing or mistyped field fails with its name and the whole answer.
//! (Included with `#[path]` by the test files that use it; each uses a part, hence `dead_code`.)
#![allow(dead_code)]

use secretary_core::registry::invoke;
use secretary_core::toolkit::ToolContext;
use serde_json::Value;

/// `value[key]` as a string; panics naming the key and the value when it is not one.
#[track_caller]
pub fn str_at<'a>(value: &'a Value, key: &str) -> &'a str {
    value[key]
        .as_str()
        .unwrap_or_else(|| panic!("`{key}` is not a string in {value}"))
}

/// The items of the array `list`; panics showing it when it is not an array.
#[track_caller]
pub fn items(list: &Value) -> &Vec<Value> {
    list.as_array()
        .unwrap_or_else(|| panic!("not an array: {list}"))
}

/// The string `field` of every item of the array `list`, in order.
#[track_caller]
pub fn strs(list: &Value, field: &str) -> Vec<String> {
    items(list)
        .iter()
        .map(|item| str_at(item, field).to_string())
        .collect()
}

/// The item of the array `list` whose `name` is `name`.
#[track_caller]
pub fn named<'a>(list: &'a Value, name: &str) -> &'a Value {
    items(list)
        .iter()
        .find(|item| item["name"] == name)
        .unwrap_or_else(|| panic!("no item named {name} in {list}"))
}

/// The answer of tool `name` called with `args` in `ctx`, as JSON.
pub fn answer(ctx: &ToolContext, name: &str, args: Value) -> Value {
    invoke(name, &args, ctx).to_value()
}

/// The answer of tool `name` called with `args` in a context with nothing in it: no host, no
/// store, no workspace (what a tool says when it has nothing to work with).
pub fn call_bare(name: &str, args: Value) -> Value {
    answer(&ToolContext::new(None, None), name, args)
}

/// `(item[text], item[number])` for every item of the array `list`, in order: what a ranked
/// answer lists (a session and its request index, a heading and its score).
#[track_caller]
pub fn pairs(list: &Value, text: &str, number: &str) -> Vec<(String, u64)> {
    items(list)
        .iter()
        .map(|item| {
            let n = item[number]
                .as_u64()
                .unwrap_or_else(|| panic!("`{number}` is not a number in {item}"));
            (str_at(item, text).to_string(), n)
        })
        .collect()
}

/// Asserts that `text` holds `part`, showing the whole text when it does not.
#[track_caller]
pub fn assert_has(text: &str, part: &str) {
    assert!(text.contains(part), "{text}");
}

/// Asserts that `text` starts with `prefix`, showing the whole text when it does not.
#[track_caller]
pub fn assert_starts(text: &str, prefix: &str) {
    assert!(text.starts_with(prefix), "{text}");
}

/// Asserts that the string `value[key]` holds `part`, showing the whole value when it does not.
#[track_caller]
pub fn assert_field_has(value: &Value, key: &str, part: &str) {
    assert!(str_at(value, key).contains(part), "{value}");
}

/// Asserts that the string `value[key]` starts with `prefix`, showing the whole value when it
/// does not.
#[track_caller]
pub fn assert_field_starts(value: &Value, key: &str, prefix: &str) {
    assert!(str_at(value, key).starts_with(prefix), "{value}");
}
