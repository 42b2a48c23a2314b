//! Native parse speed: the fast path (`parse`) against the serde visitors alone
//! (`parse_with_visitors`) on the same bytes, alternating, median of several runs.
//!
//! Beside wall time, the thread's own CPU time (Linux: `/proc/thread-self/schedstat`), which a
//! machine shared with other work disturbs far less: a parse that waits for the CPU is not slower.
//!
//! ```text
//! cargo run --release -p secretary-core --example bench_parse -- bench-data/session-100mb.json [...]
//! ```

use std::time::Instant;

use secretary_core::session::{parse, parse_with_visitors};

/// Nanoseconds this thread has run on a CPU, where Linux tells it.
fn thread_cpu_ns() -> Option<u64> {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// Milliseconds of CPU `f` took (wall time when the CPU time is unknown), and its result.
fn timed<T>(f: impl FnOnce() -> T) -> (f64, Option<f64>, T) {
    let cpu = thread_cpu_ns();
    let t = Instant::now();
    let out = f();
    let wall = t.elapsed().as_secs_f64() * 1e3;
    let cpu = cpu.zip(thread_cpu_ns()).map(|(a, b)| (b - a) as f64 / 1e6);
    (wall, cpu, out)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    println!("| file | MB | fast ms | visitors ms | speed-up | fast MB/s | visitors MB/s | fast CPU ms | visitors CPU ms | fast MB/s of CPU |");
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
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
        let (mut fast_cpu, mut slow_cpu) = (Vec::new(), Vec::new());
        for _ in 0..runs {
            let (wall, cpu, a) = timed(|| parse(&path, &bytes));
            fast.push(wall);
            fast_cpu.extend(cpu);
            let (wall, cpu, b) = timed(|| parse_with_visitors(&path, &bytes));
            slow.push(wall);
            slow_cpu.extend(cpu);
            assert_eq!(a, b, "{path}: the two paths differ");
        }
        let (f, s) = (median(fast), median(slow));
        let cpu = |v: Vec<f64>| if v.is_empty() { None } else { Some(median(v)) };
        let (fc, sc) = (cpu(fast_cpu), cpu(slow_cpu));
        let show = |v: Option<f64>| v.map_or("n/a".to_string(), |v| format!("{v:.2}"));
        let name = path.rsplit('/').next().unwrap_or(&path);
        println!(
            "| {name} | {mb:.2} | {f:.2} | {s:.2} | {:.1}× | {:.0} | {:.0} | {} | {} | {} |",
            s / f,
            mb / (f / 1e3),
            mb / (s / 1e3),
            show(fc),
            show(sc),
            fc.map_or("n/a".to_string(), |c| format!("{:.0}", mb / (c / 1e3))),
        );
    }
}
