//! What a hostile session costs the core, beside an honest input of the same size read in the same
//! run: time and the peak of heap memory (a counting allocator) for
//!
//! - a `.jsonl` log whose every line pads a request's message parts with empty slots (10 MB),
//!   beside a log of as many ordinary request lines;
//! - a Cursor conversation of `N` bubbles kept one per database row, beside the same bubbles
//!   inline in the composer;
//! - `N` session files that share one session id, applied to a store one by one, beside `N`
//!   files of distinct ids.
//!
//! A path the core handles well costs about what its honest twin costs; the ratio is the figure.
//!
//! ```text
//! cargo run --release -p secretary-core --example bench_hostile -- [N]
//! ```

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use secretary_core::session::{parse, FileMeta, SessionStore};

/// The system allocator, counting the bytes live and their peak.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let ptr = System.alloc(layout);
        if !ptr.is_null() {
            let live = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(live, Ordering::Relaxed);
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout);
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Milliseconds `f` took and the heap it added at its peak (MB), with its result.
fn measured<T>(f: impl FnOnce() -> T) -> (f64, f64, T) {
    let base = LIVE.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let t = Instant::now();
    let out = f();
    let ms = t.elapsed().as_secs_f64() * 1e3;
    let peak = (PEAK.load(Ordering::Relaxed) - base) as f64 / 1e6;
    (ms, peak, out)
}

fn row(case: &str, honest: (f64, f64), hostile: (f64, f64)) {
    println!(
        "| {case} | {:.1} ms, {:.1} MB | {:.1} ms, {:.1} MB | {:.2}× | {:.2}× |",
        honest.0,
        honest.1,
        hostile.0,
        hostile.1,
        hostile.0 / honest.0.max(1e-3),
        hostile.1 / honest.1.max(1e-3)
    );
}

/// A 10 MB log: the initial state, then lines that each pad request 1's message parts by 1,000
/// slots (hostile) or each push an ordinary request (honest).
fn padding_logs() -> (String, String) {
    let initial = r#"{"kind":0,"v":{"version":3,"sessionId":"pad","requests":[{"requestId":"r","message":{"text":"t","parts":[]}}]}}"#;
    let (mut hostile, mut honest) = (format!("{initial}\n"), format!("{initial}\n"));
    let mut k = 0u64;
    while hostile.len() < 10_000_000 {
        k += 1;
        hostile.push_str(&format!(
            "{{\"kind\":2,\"k\":[\"requests\",0,\"message\",\"parts\"],\"v\":[],\"i\":{}}}\n",
            k * 1000
        ));
    }
    while honest.len() < hostile.len() {
        k += 1;
        honest.push_str(&format!(
            "{{\"kind\":2,\"k\":[\"requests\"],\"v\":[{{\"message\":{{\"text\":\"r{k}\"}}}}]}}\n"
        ));
    }
    (honest, hostile)
}

/// A Cursor conversation of `n` bubbles: one row each (hostile for a scan per bubble) or inline.
fn cursor_docs(n: usize) -> (String, String) {
    let bubble = |i: usize| format!(r#"{{"type":{},"text":"message {i}"}}"#, 1 + i % 2);
    let inline: Vec<String> = (0..n).map(bubble).collect();
    let composer = format!(
        r#"{{"composerId":"c","createdAt":1000,"conversation":[{}]}}"#,
        inline.join(",")
    );
    let honest = serde_json::json!({"cursor": 1, "conversation": "c", "rows": [
        {"key": "composerData:c", "value": composer}]});
    let headers: Vec<String> = (0..n)
        .map(|i| format!(r#"{{"bubbleId":"b{i}","type":{}}}"#, 1 + i % 2))
        .collect();
    let composer = format!(
        r#"{{"composerId":"c","createdAt":1000,"fullConversationHeadersOnly":[{}]}}"#,
        headers.join(",")
    );
    let mut rows = vec![serde_json::json!({"key": "composerData:c", "value": composer})];
    rows.extend(
        (0..n).map(|i| serde_json::json!({"key": format!("bubbleId:c:b{i}"), "value": bubble(i)})),
    );
    let hostile = serde_json::json!({"cursor": 1, "conversation": "c", "rows": rows});
    (honest.to_string(), hostile.to_string())
}

/// `n` small sessions applied to one store, all of id `s` (hostile) or each its own.
fn store_of(n: usize, shared: bool) -> SessionStore {
    let mut store = SessionStore::new();
    for i in 0..n {
        let id = if shared {
            "s".to_owned()
        } else {
            format!("s{i}")
        };
        let text = format!(
            r#"{{"version":3,"sessionId":"{id}","requests":[{{"message":{{"text":"copy {i}"}},"timestamp":{}}}]}}"#,
            1000 + i
        );
        let meta = FileMeta {
            size: text.len() as u64,
            mtime_ms: 1.0,
        };
        let path = format!("/w/chatSessions/{i}.json");
        let _ = store.apply(&path, Some("w"), meta, 0, text.as_bytes());
    }
    store
}

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(10_000);
    println!("| case | honest twin | hostile | time ratio | memory ratio |");
    println!("|---|---|---|---|---|");

    let (honest, hostile) = padding_logs();
    let (a_ms, a_mb, a) = measured(|| parse("pad.jsonl", honest.as_bytes()));
    let (b_ms, b_mb, b) = measured(|| parse("pad.jsonl", hostile.as_bytes()));
    assert!(a.is_ok() && b.is_ok());
    row(
        &format!(
            "10 MB `.jsonl`, every line padding message parts ({} lines)",
            hostile.lines().count()
        ),
        (a_ms, a_mb),
        (b_ms, b_mb),
    );

    let (honest, hostile) = cursor_docs(n);
    let (a_ms, a_mb, a) = measured(|| parse("state.vscdb#c", honest.as_bytes()));
    let (b_ms, b_mb, b) = measured(|| parse("state.vscdb#c", hostile.as_bytes()));
    let (a, b) = (a.expect("inline"), b.expect("rows"));
    assert_eq!(a.requests.len(), b.requests.len());
    row(
        &format!("Cursor conversation of {n} bubbles, one row each"),
        (a_ms, a_mb),
        (b_ms, b_mb),
    );

    let (a_ms, a_mb, honest) = measured(|| store_of(n, false));
    let (b_ms, b_mb, hostile) = measured(|| store_of(n, true));
    assert_eq!(
        (honest.entries().count(), hostile.entries().count()),
        (n, 1)
    );
    row(
        &format!("{n} session files sharing one session id"),
        (a_ms, a_mb),
        (b_ms, b_mb),
    );
    // A tool call names its session by id: each of the n ids once, against the shared one n times.
    let ids: Vec<String> = (0..n).map(|i| format!("s{i}")).collect();
    let (a_ms, a_mb, a) = measured(|| ids.iter().filter(|id| honest.get(id).is_some()).count());
    let (b_ms, b_mb, b) = measured(|| (0..n).filter(|_| hostile.get("s").is_some()).count());
    assert_eq!((a, b), (n, n));
    row(
        &format!("{n} lookups by session id (`get`) in those stores"),
        (a_ms, a_mb),
        (b_ms, b_mb),
    );
}
