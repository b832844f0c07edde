//! Helpers shared by the end-to-end tests.
#![allow(dead_code)]

use assert_cmd::Command;
use grundy::family::Settings;
use grundy::play::legal_moves;
use grundy::spec::parse_sum;
use grundy::sum::Component;
use serde_json::Value as Json;
use std::io::{BufRead, BufReader, Write};
use std::process::Stdio;

/// Runs `grundy ARGS`, expects success, returns stdout.
pub fn stdout(args: &[&str]) -> String {
    let out = Command::cargo_bin("grundy")
        .unwrap()
        .args(args)
        .assert()
        .success();
    String::from_utf8(out.get_output().stdout.clone()).unwrap()
}

/// Runs `grundy ARGS`, expects success, parses stdout as JSON.
pub fn json(args: &[&str]) -> Json {
    serde_json::from_str(&stdout(args)).unwrap()
}

/// Bad input: exit status 2, one line on stderr starting `error` (two when a
/// caret points at the offending character), mentioning `needle`, no panic.
pub fn fails(args: &[&str], needle: &str) {
    let out = Command::cargo_bin("grundy")
        .unwrap()
        .args(args)
        .assert()
        .code(2);
    let err = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert!(!err.contains("panicked"), "{args:?} panicked: {err}");
    let lines: Vec<&str> = err.lines().collect();
    assert!(!lines.is_empty() && lines.len() <= 2, "{args:?}: {err}");
    assert!(lines[0].starts_with("error"), "{args:?}: {err}");
    if lines.len() == 2 {
        assert_eq!(lines[1].trim(), "^", "{args:?}: {err}");
    }
    assert!(
        err.contains(needle),
        "{args:?}: expected {needle:?} in {err}"
    );
}

/// Runs `grundy ARGS`, sends it SIGINT (Ctrl-C) after `after`, and returns
/// what it printed and how it exited, with the seconds it took to stop.
pub fn interrupted(args: &[&str], after: std::time::Duration) -> (std::process::Output, f64) {
    let child = std::process::Command::new(assert_cmd::cargo::cargo_bin("grundy"))
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(after);
    let sent = std::time::Instant::now();
    std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (out, sent.elapsed().as_secs_f64())
}

/// Plays one game of `grundy play ARGS --first computer` through pipes,
/// answering each turn with a random legal move (a seeded generator), and
/// returns the `winner:` line's word.
#[allow(clippy::zombie_processes)] // every path waits; the lint cannot see through the loop
pub fn play_randomly(args: &[&str], misere: bool, seed: u64) -> String {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_grundy"));
    command.arg("play").args(args).args(["--first", "computer"]);
    if misere {
        command.arg("--misere");
    }
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let spec_args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    let mut sum = parse_sum(&spec_args, Settings::default()).unwrap();
    let mut state = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    let mut position = String::new();
    let mut turns = 0;
    for line in lines.by_ref() {
        let line = line.unwrap();
        if let Some(rest) = line.strip_prefix("position:") {
            position = rest.trim().to_string();
        } else if line == "your move?" {
            turns += 1;
            assert!(turns < 10_000, "the game does not end");
            let components: Vec<Component> = position
                .split_whitespace()
                .map(|p| Component {
                    family: 0,
                    position: sum.family(0).parse(p).unwrap(),
                })
                .collect();
            sum.set_components(components);
            let moves = legal_moves(&mut sum).unwrap();
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let mv = &moves[(state >> 33) as usize % moves.len()];
            let to: Vec<String> = mv.to.iter().map(|p| sum.format(0, p)).collect();
            writeln!(stdin, "{}:{}", mv.component + 1, to.join("+")).unwrap();
            stdin.flush().unwrap();
        } else if let Some(winner) = line.strip_prefix("winner:") {
            drop(stdin);
            child.wait().unwrap();
            return winner.trim().to_string();
        } else if line.contains("try again") {
            panic!("the driver's move was refused: {line}");
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    panic!("no winner line");
}

/// Runs `program` with `input` on stdin; its stdout.
pub fn run_with(program: &mut std::process::Command, input: &str) -> String {
    let mut child = program
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    // Fed from another thread: a long input and its answers would fill both
    // pipes, each side waiting for the other to read.
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_string();
    let feeder = std::thread::spawn(move || {
        use std::io::Write;
        stdin.write_all(input.as_bytes()).unwrap();
    });
    let out = child.wait_with_output().unwrap();
    feeder.join().unwrap();
    assert!(out.status.success(), "{program:?} failed");
    String::from_utf8(out.stdout).unwrap()
}

/// A file `name` in this test process's own scratch folder, `what` naming
/// the folder (programs are built there).
pub fn scratch(what: &str, name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("grundy-{what}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}
