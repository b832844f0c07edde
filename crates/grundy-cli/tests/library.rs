//! The command line as a library: `grundy_cli::run` with captured streams
//! writes what the `grundy` binary writes and returns its exit status;
//! progress goes to the host's report, and the host's flag stops the work.

use assert_cmd::Command;
use grundy_cli::{Host, Progress};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};

/// What one run wrote, and its status.
#[derive(Debug, PartialEq, Eq)]
struct Ran {
    stdout: String,
    stderr: String,
    status: i32,
}

/// Runs `grundy ARGS` through the library with `input` as stdin, on a
/// thread with a roomy stack as the binary's.
fn library(args: &[&str], input: &str, progress: Option<Progress>, stop: bool) -> Ran {
    let mut argv = vec!["grundy".to_string()];
    argv.extend(args.iter().map(|a| a.to_string()));
    let input = input.to_string();
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(move || {
            let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
            let status = grundy_cli::run(
                argv,
                &mut Host {
                    stdin: &mut input.as_bytes(),
                    stdout: &mut stdout,
                    stderr: &mut stderr,
                    progress,
                    interrupted: Arc::new(AtomicBool::new(stop)),
                },
            );
            Ran {
                stdout: String::from_utf8(stdout).unwrap(),
                stderr: String::from_utf8(stderr).unwrap(),
                status: status.into(),
            }
        })
        .unwrap()
        .join()
        .unwrap()
}

/// Runs the `grundy` binary with `input` on stdin.
fn binary(args: &[&str], input: &str) -> Ran {
    let out = Command::cargo_bin("grundy")
        .unwrap()
        .args(args)
        .write_stdin(input)
        .output()
        .unwrap();
    Ran {
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
        status: out.status.code().unwrap(),
    }
}

/// The library and the binary agree, to the byte and the status.
fn same(args: &[&str], input: &str) -> Ran {
    let native = binary(args, input);
    let ran = library(args, input, None, false);
    assert_eq!(ran, native, "grundy {}", args.join(" "));
    ran
}

#[test]
fn results_are_the_binarys() {
    let ran = same(&["value", "nim", "3", "4", "5"], "");
    assert!(
        ran.stdout.contains("nim-sum 2: first player wins"),
        "{ran:?}"
    );
    let ran = same(&["value", "nim", "3", "4", "5", "--json"], "");
    assert!(ran.stdout.starts_with('{'), "{ran:?}");
    let ran = same(&["seq", "0.07", "--to", "30"], "");
    assert_eq!(ran.stdout.lines().count(), 4, "{ran:?}");
    let ran = same(&["period", "0.07"], "");
    assert!(ran.stdout.contains("period 34"), "{ran:?}");
    let ran = same(&["explain", "nim", "5"], "");
    assert!(ran.stdout.contains("mex = 5"), "{ran:?}");
    let ran = same(&["games"], "");
    assert!(ran.stdout.starts_with("Families of games"), "{ran:?}");
    let ran = same(&["nimber", "mul", "2", "3"], "");
    assert_eq!(ran.stdout, "*2 * *3 = *1\n");
    // Positions that begin with a minus sign reach the game's own check.
    let ran = same(&["value", "cram:3x3", "-1,2"], "");
    assert_eq!(ran.status, 2, "{ran:?}");
}

#[test]
fn help_and_version_are_the_binarys() {
    let ran = same(&["--help"], "");
    assert!(ran.stdout.starts_with("Sprague-Grundy values"), "{ran:?}");
    assert_eq!(ran.status, 0);
    same(&["--version"], "");
    same(&["seq", "--help"], "");
    same(&["serve", "--help"], "");
    same(&["census", "octal", "--help"], "");
    // A command without its arguments: the help on stderr, status 2.
    let ran = same(&["census"], "");
    assert_eq!(ran.status, 2, "{ran:?}");
    assert!(ran.stdout.is_empty() && !ran.stderr.is_empty(), "{ran:?}");
}

#[test]
fn errors_are_the_binarys() {
    let ran = same(&["value", "nim", "x"], "");
    assert_eq!(ran.status, 2, "{ran:?}");
    assert!(ran.stdout.is_empty(), "{ran:?}");
    assert!(ran.stderr.starts_with("error: "), "{ran:?}");
    let ran = same(&["value", "sub:1,,2", "3"], "");
    assert_eq!(ran.stderr.lines().count(), 2, "a caret line: {ran:?}");
    let ran = same(&["seq", "0.07"], "");
    assert!(ran.stderr.contains("--to"), "{ran:?}");
    let ran = same(&["frobnicate"], "");
    assert!(ran.stderr.ends_with("(see `grundy --help`)\n"), "{ran:?}");
    let ran = same(
        &[
            "seq",
            "0.07",
            "--to",
            "5",
            "--out",
            "/nonexistent/dir/v.txt",
        ],
        "",
    );
    assert_eq!(ran.status, 2, "{ran:?}");
    // Output printed before a failure is kept, the error after it.
    same(&["seq", "0.07", "--to", "20", "--max-states", "10"], "");
}

#[test]
fn play_reads_the_hosts_stdin() {
    let script = "hint\n1:2\nundo\n9:1\n1:2\n";
    let ran = same(&["play", "nim", "3", "4", "5"], script);
    assert!(ran.stdout.contains("hint: winning moves:"), "{ran:?}");
    assert!(ran.stdout.contains("undone: 2 moves taken back"), "{ran:?}");
    assert!(
        ran.stdout.ends_with("end of input: game abandoned\n"),
        "{ran:?}"
    );
    let ran = same(&["play", "nim", "1", "--first", "computer"], "");
    assert!(ran.stdout.ends_with("winner: computer\n"), "{ran:?}");
    let ran = same(&["play", "nim", "2", "--misere"], "quit\n");
    assert!(ran.stdout.ends_with("game abandoned\n"), "{ran:?}");
}

/// The `(done, total)` of each call of a progress report, in order.
type Calls = Arc<Mutex<Vec<(u64, u64)>>>;

/// A progress report that records its calls.
fn recorded() -> (Progress, Calls) {
    let calls = Arc::new(Mutex::new(Vec::new()));
    let sink = calls.clone();
    let report: Progress = Arc::new(move |done, total| sink.lock().unwrap().push((done, total)));
    (report, calls)
}

#[test]
fn long_work_reports_its_progress_to_the_host() {
    let to = 300_000u64;
    let (report, calls) = recorded();
    let args = ["seq", "0.6", "--to", "300000", "--json"];
    let ran = library(&args, "", Some(report), false);
    assert_eq!(ran.status, 0, "{}", ran.stderr);
    assert_eq!(ran, binary(&args, ""));
    let calls = calls.lock().unwrap();
    // The table is built a step at a time, each step reported, then the end.
    let before_the_end: Vec<&(u64, u64)> = calls.iter().filter(|&&(done, _)| done <= to).collect();
    assert!(before_the_end.len() >= 3, "{calls:?}");
    assert!(calls.windows(2).all(|w| w[0].0 <= w[1].0), "{calls:?}");
    assert!(
        calls
            .iter()
            .all(|&(done, total)| total == to + 1 && done <= total),
        "{calls:?}"
    );
    assert_eq!(calls.last(), Some(&(to + 1, to + 1)));

    // --quiet: no progress at all.
    let (report, calls) = recorded();
    let ran = library(
        &["seq", "0.6", "--to", "300000", "-q"],
        "",
        Some(report),
        false,
    );
    assert_eq!(ran.status, 0, "{}", ran.stderr);
    assert!(calls.lock().unwrap().is_empty());
}

#[test]
fn the_hosts_flag_stops_long_work() {
    // Set before the work starts: it stops at its first step, as after Ctrl-C.
    let ran = library(&["seq", "0.6", "--to", "10000000"], "", None, true);
    assert_eq!(ran.status, 130, "{ran:?}");
    assert!(
        ran.stderr.starts_with("error: interrupted after "),
        "{ran:?}"
    );
    assert_eq!(ran.stderr.lines().count(), 1, "{ran:?}");
    // The heaps computed are printed, in whole rows.
    assert!(ran.stdout.starts_with("       0: 0 0 1"), "{ran:?}");
    assert!(ran.stdout.ends_with('\n'), "{ran:?}");
}
