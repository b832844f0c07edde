//! End-to-end tests of `grundy census`: the table, the file, resuming and refusals.

mod common;

use assert_cmd::Command;
use common::{fails, stdout};

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("grundy-cli-census-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    path
}

#[test]
fn a_new_user_gets_the_table() {
    let table = stdout(&["census", "octal", "--digits", "1", "--max", "4096"]);
    let lines: Vec<&str> = table.lines().collect();
    assert_eq!(
        lines[0],
        "| code | preperiod | period | saltus | proven | computed_to | max_value | rare_mask | rare_count | same_as | seconds |"
    );
    assert_eq!(lines.len(), 2 + 7);
    // 0.4 is Dawson's Kayles shifted by one heap: preperiod 54, period 34.
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("| 0.4 | 54 | 34 | 0 | yes |")),
        "{table}"
    );
    let subs = stdout(&["census", "sub", "--max-take", "3", "--max", "4096"]);
    assert!(subs.contains("| sub:1,2 | 0 | 3 | 0 | yes |"), "{subs}");
    let hex = stdout(&[
        "census", "hex", "--digits", "1", "--max", "4096", "--jobs", "1",
    ]);
    assert_eq!(hex.lines().count(), 2 + 15);
}

#[test]
fn files_resume_and_refuse_other_censuses() {
    let path = scratch("octal2.csv");
    let out = path.to_str().unwrap();
    let args = [
        "census",
        "octal",
        "--digits",
        "2",
        "--max",
        "2048",
        "--out",
        out,
        "--zero-seconds",
    ];
    assert_eq!(stdout(&args), "");
    let whole = std::fs::read_to_string(&path).unwrap();
    assert_eq!(whole.lines().count(), 2 + 63);
    assert!(whole.starts_with("# grundy census octal --digits 2 --max 2048\ncode,preperiod,"));
    // Drop the last ten rows, as if stopped: the rerun computes them again.
    let kept: Vec<&str> = whole.lines().take(2 + 53).collect();
    std::fs::write(&path, kept.join("\n") + "\n").unwrap();
    stdout(&args);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), whole);
    let json = scratch("octal2.jsonl");
    stdout(&[
        "census",
        "octal",
        "--digits",
        "2",
        "--max",
        "2048",
        "--out",
        json.to_str().unwrap(),
    ]);
    let first = std::fs::read_to_string(&json).unwrap();
    let header: serde_json::Value = serde_json::from_str(first.lines().next().unwrap()).unwrap();
    assert_eq!(
        header["census"],
        "grundy census octal --digits 2 --max 2048"
    );
    let row: serde_json::Value = serde_json::from_str(first.lines().nth(7).unwrap()).unwrap();
    assert_eq!(
        (row["code"].as_str(), row["preperiod"].as_u64()),
        (Some("0.07"), Some(53))
    );
    fails(
        &[
            "census", "octal", "--digits", "3", "--max", "2048", "--out", out,
        ],
        "holds the census `grundy census octal --digits 2 --max 2048`",
    );
    std::fs::write(&path, whole.replacen("0.07,53", "0.07,5x", 1)).unwrap();
    fails(&args, "is damaged at line");
    fails(
        &["census", "octal", "--digits", "0"],
        "--digits must be between 1 and 7",
    );
    fails(
        &["census", "sub", "--max-take", "2", "--out", "x.txt"],
        ".csv or .jsonl",
    );
}

#[test]
fn ctrl_c_keeps_every_finished_row() {
    // SIGINT while the census runs: exit 130, rows kept, the rerun finishes.
    let path = scratch("stopped.csv");
    let out = path.to_str().unwrap();
    let bin = assert_cmd::cargo::cargo_bin("grundy");
    let mut child = std::process::Command::new(&bin)
        .args([
            "census", "octal", "--digits", "2", "--max", "16384", "--out", out, "--jobs", "1",
        ])
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    while std::fs::read_to_string(&path).map_or(0, |t| t.lines().count()) < 10 {
        assert!(started.elapsed().as_secs() < 60, "no rows after a minute");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let _ = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .ok();
    let status = child.wait().unwrap();
    let rows = std::fs::read_to_string(&path).unwrap().lines().count() - 2;
    if rows < 63 {
        assert_eq!(status.code(), Some(130));
    }
    stdout(&[
        "census", "octal", "--digits", "2", "--max", "16384", "--out", out, "-q",
    ]);
    assert_eq!(
        std::fs::read_to_string(&path).unwrap().lines().count(),
        2 + 63
    );
}
