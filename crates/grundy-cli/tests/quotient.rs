//! `grundy quotient`: the JSON carries the whole table, and anyone can
//! recompute an outcome from it; `value --misere` answers through it.

mod common;
use common::{fails, json};

#[test]
fn the_table_recomputes_every_outcome() {
    let q = json(&["quotient", "0.07", "--max-heap", "14", "--json"]);
    assert_eq!(
        (q["order"].as_u64(), q["p_size"].as_u64()),
        (Some(24), Some(5))
    );
    assert_eq!(q["tame"], false);
    let table: Vec<Vec<u64>> = q["table"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            r.as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_u64().unwrap())
                .collect()
        })
        .collect();
    let map: Vec<u64> = q["heap_map"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    let p: Vec<u64> = q["p_portion"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    assert_eq!(map.len(), 15);
    assert_eq!(q["elements"].as_array().unwrap().len(), 24);
    for sum in [
        vec![4u64, 5, 9],
        vec![14, 14],
        vec![2, 3, 10, 11],
        vec![7, 8, 12, 13, 6],
    ] {
        let x = sum
            .iter()
            .fold(0, |x, h| table[x as usize][map[*h as usize] as usize]);
        let mut args = vec!["value".to_string(), "dawson".to_string()];
        args.extend(sum.iter().map(u64::to_string));
        args.extend(["--misere".to_string(), "--json".to_string()]);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let value = json(&args);
        // Sums that genus theory covers are answered by it, small ones by
        // search, the rest by the quotient: all must agree with the table.
        assert!(["quotient", "genus", "search"].contains(&value["method"].as_str().unwrap()));
        let second = value["winner"] == "second";
        assert_eq!(p.contains(&x), second, "{sum:?}");
    }
}

#[test]
fn bad_requests_are_one_line() {
    fails(&["quotient", "knight:8"], "heap games");
    fails(
        &["quotient", "0.07", "--max-heap", "100000"],
        "up to heap 10000",
    );
    fails(
        &[
            "quotient",
            "kayles",
            "--max-heap",
            "40",
            "--max-order",
            "10",
        ],
        "has order 6",
    );
}

/// Runs `grundy ARGS` and expects it to end within `seconds` with exit
/// status 2 and one line on stderr, which it returns.
pub fn refused_within(args: &[&str], seconds: u64) -> String {
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("grundy"))
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed().as_secs() >= seconds {
            child.kill().ok();
            child.wait().ok();
            panic!("{args:?} still ran after {seconds} s");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
    assert_eq!(status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    err
}

#[test]
fn a_quotient_stops_at_the_memory_budget_naming_it() {
    let err = refused_within(
        &[
            "quotient",
            "0.37",
            "--max-heap",
            "20",
            "--max-memory",
            "60M",
            "-q",
        ],
        120,
    );
    assert!(
        err.contains("needs more than the 60 MB allowed by --max-memory"),
        "{err}"
    );
}

#[test]
fn misere_play_keeps_the_memory_budget_whatever_the_method() {
    // One heap far beyond any quotient (search), and three heaps a
    // quotient covers only in part (the quotient, then search).
    for sum in [&["0.07", "10000"][..], &["0.07", "64", "64", "64"]] {
        let mut args = vec!["value"];
        args.extend(sum);
        args.extend(["--misere", "--max-memory", "80M", "-q"]);
        let err = refused_within(&args, 120);
        assert!(
            err.contains(
                "misère play of this sum needs more than the 80 MB allowed by --max-memory"
            ),
            "{err}"
        );
    }
}

/// The peak memory of `grundy ARGS` in KiB (the child's maxrss), with its
/// exit status.
// The child is reaped by `wait4`, which also reads its resource usage.
#[allow(clippy::zombie_processes)]
fn peak_kib(args: &[&str]) -> (i32, i64) {
    let child = std::process::Command::new(assert_cmd::cargo::cargo_bin("grundy"))
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut status = 0;
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = unsafe { libc::wait4(child.id() as i32, &mut status, 0, &mut usage) };
    assert_eq!(pid, child.id() as i32);
    (libc::WEXITSTATUS(status), usage.ru_maxrss)
}

#[test]
fn the_memory_budget_bounds_the_peak_not_only_the_end() {
    // A memo table that doubles holds its old and new halves at once: the
    // budget is kept by refusing before the doubling, and the peak, not
    // only the memory held when the refusal comes, stays within it.
    let (code, peak) = peak_kib(&[
        "value",
        "0.07",
        "10000",
        "--misere",
        "--max-memory",
        "500M",
        "-q",
    ]);
    assert_eq!(code, 2);
    assert!(
        peak <= 500 * 1024,
        "peak {peak} KiB over the 500 MiB budget"
    );
}
