//! Helpers shared by the end-to-end tests.
#![allow(dead_code)]

use assert_cmd::Command;
use serde_json::Value as Json;

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
