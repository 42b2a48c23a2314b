//! A host following a growing session file, for the integration tests that check the store's
//! incremental path (`session_proptest.rs`, `session_fastpath.rs`).

use secretary_core::session::{FileMeta, ReadPlan, SessionStore};

/// Feeds `bytes` to a store cut at `cuts`, as a host following a growing file would.
pub fn feed(store: &mut SessionStore, name: &str, bytes: &[u8], cuts: &[usize]) {
    let mut ends: Vec<usize> = cuts.iter().map(|c| c % (bytes.len() + 1)).collect();
    ends.push(bytes.len());
    ends.sort_unstable();
    let mut mtime = 0.0;
    for end in ends {
        mtime += 1.0;
        let visible = &bytes[..end];
        let meta = FileMeta {
            size: end as u64,
            mtime_ms: mtime,
        };
        match store.plan(name, meta) {
            ReadPlan::Skip => {}
            ReadPlan::Full => {
                let _ = store.apply(name, None, meta, 0, visible);
            }
            ReadPlan::From { offset } => {
                let from = (offset as usize).min(visible.len());
                match store.apply(name, None, meta, offset, &visible[from..]) {
                    Ok(outcome) if outcome.needs_full_read => {
                        let _ = store.apply(name, None, meta, 0, visible);
                    }
                    Ok(_) => {}
                    Err(e) => panic!("an append cannot fail: {e}"),
                }
            }
        }
    }
}
