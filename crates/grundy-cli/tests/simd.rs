//! `GRUNDY_SIMD`: the instruction path, forced from the environment.

use assert_cmd::Command;
use grundy::heap::simd::Path;

fn run(path: &str, args: &[&str]) -> std::process::Output {
    Command::cargo_bin("grundy")
        .unwrap()
        .env("GRUNDY_SIMD", path)
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn every_supported_path_gives_the_same_values() {
    // 0.6 (many rare heaps, two threads), 0.1777 (small values), 0.007
    // (a sum-free set), long enough for the engine's every strategy.
    for game in ["0.6", "0.1777", "0.007"] {
        let reference = run("portable", &["seq", game, "--to", "20000", "--quiet"]);
        assert!(reference.status.success());
        for path in Path::supported_paths() {
            let out = run(path.name(), &["seq", game, "--to", "20000", "--quiet"]);
            assert!(out.status.success(), "{game} on {path}");
            assert_eq!(out.stdout, reference.stdout, "{game} on {path}");
        }
    }
}

#[test]
fn an_empty_value_means_the_best_path() {
    let out = run("", &["value", "0.6", "10"]);
    assert!(out.status.success());
}

#[test]
fn unknown_and_unsupported_paths_are_one_clear_error() {
    let mut wrong = vec!["sse9".to_string(), "AVX2 please".to_string()];
    wrong.extend(
        Path::ALL
            .iter()
            .filter(|p| !p.supported())
            .map(|p| p.name().to_string()),
    );
    for value in wrong {
        let out = run(&value, &["value", "0.6", "10"]);
        assert_eq!(out.status.code(), Some(2), "{value}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.starts_with("error: GRUNDY_SIMD="), "{err}");
        assert!(err.contains("portable"), "{err}");
        assert!(!err.contains("panicked"), "{err}");
        assert!(out.stdout.is_empty());
    }
}
