//! End-to-end tests of the classic variants: `staircase`, `moore:K` and
//! `hackenbush:FILE`.

mod common;

use common::{fails, json, play_randomly, stdout};
use std::io::Write;
use std::process::{Command, Stdio};

/// The spec of a Hackenbush example of the repository.
fn example(name: &str) -> String {
    format!(
        "hackenbush:{}/../../examples/{name}",
        env!("CARGO_MANIFEST_DIR")
    )
}

fn graph(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("grundy-variants-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(name);
    std::fs::write(&file, text).unwrap();
    format!("hackenbush:{}", file.display())
}

#[test]
fn staircase_values_sums_and_winning_moves() {
    let v = json(&["value", "staircase", "5,2,4,7", "--json"]);
    assert_eq!(v["components"][0]["grundy"], 1);
    let moves = v["winning_moves"].as_array().unwrap();
    // One from the odd step 1, one from the even step 4 onto step 3.
    let to: Vec<&str> = moves.iter().map(|m| m["to"][0].as_str().unwrap()).collect();
    assert_eq!(to, ["4,2,4,7", "5,2,5,6"]);
    let v = json(&[
        "value",
        "staircase",
        "3,1,2",
        "+",
        "nim",
        "4",
        "+",
        "moore:2",
        "1,2,3",
        "--json",
    ]);
    assert_eq!(v["nim_sum"], 1 ^ 4 ^ 6);
    // Counts of any size.
    let text = stdout(&["value", "staircase", "100000000000000000000000,1,3"]);
    assert!(text.contains("grundy 100000000000000000000003"), "{text}");
}

#[test]
fn moore_values_by_search_and_outcomes_by_the_theorem() {
    let v = json(&["value", "moore:2", "3,5,6", "--json"]);
    assert_eq!(v["components"][0]["grundy"], 14);
    assert_eq!(v["winning_moves"][0]["to"][0], "3,3,3");
    // K = 1 is Nim.
    let v = json(&["value", "moore:1", "3,5,7", "--json"]);
    assert_eq!(v["components"][0]["grundy"], 1);
    assert_eq!(v["winning_moves"].as_array().unwrap().len(), 3);
    // Beyond the search: a P-position has value 0 ...
    let v = json(&[
        "value",
        "moore:3",
        "99999999,99999999,99999999,99999999",
        "--json",
    ]);
    assert_eq!(v["nim_sum"], 0);
    assert_eq!(v["winner"], "second");
    // ... and an N-position names its winner and why its value is missing.
    fails(
        &["value", "moore:2", "1000000,1000000,999999"],
        "by Moore's theorem the player to move wins",
    );
    // In a sum the other components' winning moves are still listed.
    let sum = [
        "value",
        "moore:2",
        "1000000,1000000,1000000",
        "+",
        "nim",
        "1",
    ];
    let text = stdout(&sum);
    assert!(text.contains("first player wins"), "{text}");
    assert!(
        text.contains("[1] moore:2 1000000,1000000,1000000: its winning moves are not listed"),
        "{text}"
    );
    assert!(
        text.contains("1+ winning move:\n  [2] nim: 1 -> (nothing)"),
        "{text}"
    );
    let v = json(&[&sum[..], &["--json"]].concat());
    assert_eq!(v["components"][0]["winning_moves_unlisted"], true);
    assert_eq!(v["winning_moves"].as_array().unwrap().len(), 1);
    assert_eq!(v["winning_moves_truncated"], true);
}

#[test]
fn hackenbush_trees_cycles_loops_and_doubled_edges() {
    let tree = example("hackenbush-tree.txt");
    let v = json(&["value", &tree, "all", "--json"]);
    assert_eq!(v["components"][0]["grundy"], 5);
    assert_eq!(v["winning_moves"][0]["to"][0], "1,2,3,5");
    let house = example("hackenbush-house.txt");
    let v = json(&["value", &house, "all", "--json"]);
    assert_eq!(v["components"][0]["grundy"], 0);
    // A loop on the ground and a doubled edge fuse into three loops (1),
    // with a stalk of 2 on top of the doubled edge: 1 ^ 2 = 3.
    let spec = graph("loops.txt", "0 0\n0 a\n0 a # twice\na b\nb c\n");
    let v = json(&["value", &spec, "all", "--json"]);
    assert_eq!(v["components"][0]["grundy"], 3);
    // Without the loop and one of the doubled edges: a stalk of 3; with the
    // loop back, 1 ^ 3 = 2.
    let text = stdout(&["value", &spec, "2,4,5"]);
    assert!(text.contains("grundy 3"), "{text}");
    let text = stdout(&["value", &spec, "1,2,4,5"]);
    assert!(text.contains("grundy 2"), "{text}");
    // Edges cut off from the ground are gone.
    let text = stdout(&["value", &spec, "4,5"]);
    assert!(text.contains("none  grundy 0"), "{text}");
}

#[test]
fn listed_by_games_with_examples() {
    let text = stdout(&["games"]);
    for needle in [
        "grundy value staircase 3,1,2",
        "grundy value moore:2 1,2,3",
        "grundy value hackenbush:examples/hackenbush-tree.txt all",
    ] {
        assert!(text.contains(needle), "{needle}: {text}");
    }
    let v = json(&["games", "--json"]);
    let listed = v.to_string();
    assert!(listed.contains("moore:K") && listed.contains("hackenbush:FILE"));
}

#[test]
fn bad_input_is_one_line_and_status_2() {
    let tree = example("hackenbush-tree.txt");
    let bad_file = graph("bad.txt", "0 a b\n");
    let no_ground = graph("nog.txt", "a b\n");
    for (args, needle) in [
        (vec!["value", "moore:0", "1,2"], "1 <= K <= 1000"),
        (vec!["value", "moore:1001", "1,2"], "1 <= K <= 1000"),
        (vec!["value", "moore:x", "1,2"], "expected a number"),
        (vec!["value", "moore", "1,2"], "moore needs a number K"),
        (vec!["value", "moore:2", "1,,2"], "empty heap"),
        (vec!["value", "staircase:3", "1"], "takes no parameters"),
        (vec!["value", "staircase", "1,x"], "unexpected 'x'"),
        (vec!["value", "staircase", "1,-2"], "cannot be negative"),
        (
            vec!["value", "hackenbush:/no/such/file", "all"],
            "cannot read graph file",
        ),
        (vec!["value", &bad_file, "all"], "expected one edge"),
        (
            vec!["value", &no_ground, "all"],
            "no edge touches the ground",
        ),
        (vec!["value", &tree, "9"], "is not an edge"),
    ] {
        fails(&args, needle);
    }
}

#[test]
fn the_computer_wins_from_winning_positions() {
    let tree = example("hackenbush-tree.txt");
    let tree = tree.as_str();
    let games: &[&[&str]] = &[
        &["staircase", "3,1,2"],
        &["staircase", "5,2,4,7", "0,3"],
        &["moore:2", "1,2,3"],
        &[tree, "all"],
        &[tree, "all", "1,2,3"],
    ];
    for args in games {
        for seed in 0..4 {
            assert_eq!(
                play_randomly(args, false, seed),
                "computer",
                "{args:?} seed={seed}"
            );
        }
    }
}

#[test]
fn hackenbush_edges_are_cut_by_number_in_play() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(["play", &example("hackenbush-tree.txt"), "all"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"1:cut 4\n").unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("position: 1,2,3,5"), "{text}");
}
