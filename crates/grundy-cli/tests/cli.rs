//! End-to-end tests of the `grundy` binary: the engine commands and bad input.

mod common;

use common::{fails, json, stdout};

#[test]
fn the_issue_example_as_text() {
    let text = stdout(&["value", "sub:1,2,3", "3", "4", "5"]);
    assert!(text.contains("grundy 3"), "{text}");
    assert!(text.contains("nim-sum 2: first player wins"), "{text}");
    assert!(text.contains("3 winning moves"), "{text}");
    assert!(text.contains("3 -> 1") && text.contains("4 -> 2") && text.contains("5 -> 3"));
}

#[test]
fn the_issue_example_as_json() {
    let v = json(&["value", "sub:1,2,3", "3", "4", "5", "--json"]);
    let grundy: Vec<u64> = v["components"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["grundy"].as_u64().unwrap())
        .collect();
    assert_eq!(grundy, [3, 0, 1]);
    assert_eq!(v["components"][1]["position"], "4");
    assert_eq!(v["nim_sum"], 2);
    assert_eq!(v["winner"], "first");
    assert_eq!(v["winning_moves_truncated"], false);
    let moves = v["winning_moves"].as_array().unwrap();
    assert_eq!(moves.len(), 3);
    assert_eq!(
        moves[0],
        serde_json::json!({"component": 0, "from": "3", "to": ["1"]})
    );
    assert_eq!(
        moves[2],
        serde_json::json!({"component": 2, "from": "5", "to": ["3"]})
    );
}

#[test]
fn second_player_wins_has_no_moves() {
    let v = json(&["value", "nim", "1", "2", "3", "--json"]);
    assert_eq!(v["winner"], "second");
    assert_eq!(v["nim_sum"], 0);
    assert_eq!(v["winning_moves"].as_array().unwrap().len(), 0);
}

#[test]
fn sums_across_families() {
    let v = json(&[
        "value",
        "nim",
        "5",
        "+",
        "sub:1,2,3",
        "7",
        "+",
        "pow:2",
        "4",
        "--json",
    ]);
    assert_eq!(v["components"][0]["grundy"], 5);
    assert_eq!(v["components"][1]["grundy"], 3);
    assert_eq!(v["components"][2]["game"], "pow:2");
    assert_eq!(
        v["nim_sum"],
        5 ^ 3 ^ v["components"][2]["grundy"].as_u64().unwrap()
    );
}

#[test]
fn emptied_heaps_leave_nothing() {
    let v = json(&["value", "nim", "3", "--json"]);
    assert_eq!(v["winning_moves"][0]["to"], serde_json::json!([]));
}

#[test]
fn huge_divide_heaps_answer_through_the_sparse_memo() {
    let v = json(&["value", "div:2,3,6", "1000000000000000000", "--json"]);
    assert!(v["components"][0]["grundy"].is_u64());
    let v = json(&[
        "value",
        "div:2,3,6",
        "1237940039285380274899124224",
        "--json",
    ]);
    assert!(v["components"][0]["grundy"].is_u64());
}

#[test]
fn huge_nim_heaps_are_their_own_value() {
    let v = json(&[
        "value",
        "nim",
        "1237940039285380274899124224",
        "+",
        "nim",
        "1",
        "--json",
    ]);
    assert_eq!(v["components"][0]["grundy"], "1237940039285380274899124224");
    assert_eq!(v["nim_sum"], "1237940039285380274899124225");
    assert_eq!(
        v["winning_moves"],
        serde_json::json!([{"component": 0, "from": "1237940039285380274899124224", "to": ["1"]}])
    );
    assert_eq!(v["winner"], "first");
}

#[test]
fn a_heap_ten_million_moves_deep() {
    let v = json(&["value", "sub:1", "10000000", "--json"]);
    assert_eq!(v["components"][0]["grundy"], 0);
}

#[test]
fn move_lists_can_be_cut() {
    let v = json(&["value", "nim", "7", "7", "7", "--json", "--max-moves", "2"]);
    assert_eq!(v["winning_moves"].as_array().unwrap().len(), 2);
    assert_eq!(v["winning_moves_truncated"], true);
}

#[test]
fn text_lists_twenty_moves_and_counts_the_rest() {
    // A heap of 10^21 of Dawson's Kayles has 1000+ winning splits.
    let text = stdout(&["value", "0.07", "1000000000000000000000"]);
    assert!(text.contains("1000+ winning moves:"), "{text}");
    let listed = text
        .lines()
        .filter(|l| l.starts_with("  [1] 0.07: "))
        .count();
    assert_eq!(listed, 20, "{text}");
    assert!(
        text.contains("... and at least 980 more (--max-moves N to list more, or --json for all)"),
        "{text}"
    );
    // --max-moves sets how many are listed; JSON keeps its contract.
    let text = stdout(&["value", "nim", "7", "7", "7", "--max-moves", "2"]);
    assert_eq!(
        text.lines().filter(|l| l.starts_with("  [")).count(),
        2,
        "{text}"
    );
    assert!(text.contains("2+ winning moves:"), "{text}");
    assert!(text.contains("and at least 1 more"), "{text}");
    let v = json(&["value", "0.07", "1000000000000000000000", "--json"]);
    assert_eq!(v["winning_moves"].as_array().unwrap().len(), 1000);
    assert_eq!(v["winning_moves_truncated"], true);
    // Components are tagged [i], as the moves name them.
    let text = stdout(&["value", "sub:1,2,3", "3", "+", "nim", "4"]);
    assert!(
        text.starts_with("[1] sub:1-3 3  grundy 3\n[2] nim 4"),
        "{text}"
    );
    assert!(text.contains("  [2] nim: 4 -> 3"), "{text}");
}

#[test]
fn sequences_in_three_formats() {
    let v = json(&["seq", "sub:1,2,3", "--to", "9", "--json"]);
    assert_eq!(
        v["values"],
        serde_json::json!([0, 1, 2, 3, 0, 1, 2, 3, 0, 1])
    );
    assert_eq!(v["from"], 0);
    assert_eq!(v["to"], 9);
    let v = json(&["seq", "pow:2", "--from", "3", "--to", "5", "--json"]);
    assert_eq!(v["values"], serde_json::json!([0, 1, 2]));
    let csv = stdout(&["seq", "div:2,3,6", "--to", "3", "--csv"]);
    assert_eq!(csv.lines().next(), Some("n,grundy"));
    assert_eq!(csv.lines().count(), 5);
    let text = stdout(&["seq", "nim", "--to", "12"]);
    assert!(
        text.starts_with("       0: 0 1 2 3 4 5 6 7 8 9\n      10: 10 11 12\n"),
        "{text}"
    );
}

#[test]
fn games_lists_every_family_with_an_example() {
    let text = stdout(&["games"]);
    for family in ["nim", "sub:", "pow:", "div:"] {
        assert!(text.contains(family), "{family} missing from\n{text}");
    }
}

#[test]
fn bad_input_is_one_clear_line() {
    fails(&["value", "foo", "3"], "unknown game family");
    fails(&["value", "sub:", "3"], "needs a subtraction set");
    fails(&["value", "sub:0", "3"], "at least 1");
    fails(&["value", "sub:1,,2", "3"], "empty element");
    fails(&["value", "div:1", "3"], "changes nothing");
    fails(&["value", "nim", "-3"], "negative");
    fails(&["value", "nim", "abc"], "non-negative integer");
    fails(&["value", "nim", "3", "+"], "must be followed");
    fails(&["value", "+", "nim", "3"], "cannot start");
    fails(
        &["value", "nim", "3", "+", "+", "nim", "2"],
        "must be followed",
    );
    fails(&["value", "nim"], "at least one position");
    fails(&["value"], "required");
    fails(&["value", "sub:99999999999999999999999", "3"], "too large");
    fails(&["value", "sub:1-99999999999", "3"], "too large");
    fails(&["value", "pow:1", "3"], "at least 2");
    fails(
        &["value", "grundy", "100000000000000000000"],
        "grundy period",
    );
    fails(
        &["value", "grundy", "200", "--max-states", "100"],
        "state budget",
    );
    fails(
        &[
            "value",
            "div:2,3",
            "1000000000000000000000000",
            "--max-states",
            "5",
        ],
        "state budget",
    );
    fails(&["seq", "sub:1", "--to", "-5"], "negative");
    fails(&["seq", "sub:1", "--from", "9", "--to", "5"], "after");
    fails(&["seq", "sub:1", "--to", "99999999999999999999999"], "2^64");
    fails(&["frobnicate"], "unrecognized subcommand");
}

#[test]
fn nimber_arithmetic() {
    assert_eq!(stdout(&["nimber", "mul", "5", "3"]).trim(), "*5 * *3 = *15");
    assert_eq!(stdout(&["nimber", "add", "5", "3"]).trim(), "*5 + *3 = *6");
    let v = json(&["nimber", "inv", "7", "--json"]);
    let inverse = v["result"].as_u64().unwrap();
    assert_eq!(grundy::nimber::nim_mul(7, inverse), 1);
    fails(&["nimber", "inv", "0"], "no nim-inverse");
    fails(&["nimber", "mul", "5"], "takes 2 operands");
    fails(
        &["nimber", "mul", "5", "18446744073709551616"],
        "beyond 2^64",
    );
}
