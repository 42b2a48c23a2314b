//! Native parse speed: the fast path (`parse`) against the serde visitors alone
//! (`parse_with_visitors`) on the same bytes, alternating, median of several runs.
//!
//! ```text
//! cargo run --release -p secretary-core --example bench_parse -- bench-data/session-100mb.json [...]
//! ```

use std::time::Instant;

use secretary_core::session::{parse, parse_with_visitors};

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    println!("| file | MB | fast ms | visitors ms | speed-up | fast MB/s | visitors MB/s |");
    println!("|---|---:|---:|---:|---:|---:|---:|");
    for path in std::env::args().skip(1) {
        let bytes = match std::fs::read(&path) {
            Ok(bytes) => bytes,
            Err(e) => {
                eprintln!("{path}: {e}");
                continue;
            }
        };
        let mb = bytes.len() as f64 / 1e6;
        let runs = if mb > 50.0 { 7 } else { 21 };
        let (mut fast, mut slow) = (Vec::new(), Vec::new());
        for _ in 0..runs {
            let t = Instant::now();
            let a = parse(&path, &bytes);
            fast.push(t.elapsed().as_secs_f64() * 1e3);
            let t = Instant::now();
            let b = parse_with_visitors(&path, &bytes);
            slow.push(t.elapsed().as_secs_f64() * 1e3);
            assert_eq!(a, b, "{path}: the two paths differ");
        }
        let (f, s) = (median(fast), median(slow));
        let name = path.rsplit('/').next().unwrap_or(&path);
        println!(
            "| {name} | {mb:.2} | {f:.2} | {s:.2} | {:.1}× | {:.0} | {:.0} |",
            s / f,
            mb / (f / 1e3),
            mb / (s / 1e3)
        );
    }
}
