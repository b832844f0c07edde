//! The example scripts give the same values as the built-in families, and
//! scripts work everywhere a built-in family does.

mod common;

use assert_cmd::Command;
use common::interrupted;
use grundy::family::{Family, Settings};
use grundy::spec::parse_game;

fn example(name: &str) -> String {
    format!(
        "script:{}/../../examples/{name}",
        env!("CARGO_MANIFEST_DIR")
    )
}

fn family(spec: &str) -> Box<dyn Family> {
    parse_game(spec, Settings::default()).unwrap()
}

#[test]
fn divide_matches_the_built_in() {
    let (mut script, mut builtin) = (family(&example("divide.rhai")), family("div:2,3,6"));
    for n in (0..2000).chain([10u64.pow(12), 10u64.pow(18)]) {
        let n = n.to_string();
        assert_eq!(
            script.value(&script.parse(&n).unwrap()).unwrap(),
            builtin.value(&builtin.parse(&n).unwrap()).unwrap(),
            "{n}"
        );
    }
}

#[test]
fn knight_matches_the_built_in() {
    let (mut script, mut builtin) = (family(&example("knight.rhai")), family("knight:8"));
    for r in 0..8 {
        for c in 0..8 {
            let square = format!("{r},{c}");
            assert_eq!(
                script.value(&script.parse(&square).unwrap()).unwrap(),
                builtin.value(&builtin.parse(&square).unwrap()).unwrap(),
                "{square}"
            );
        }
    }
}

#[test]
fn chocolate_matches_the_built_in() {
    let (mut script, mut builtin) = (family(&example("chocolate.rhai")), family("choco"));
    for r in 1..=7 {
        for c in 1..=7 {
            let bar = format!("{r}x{c}");
            assert_eq!(
                script.value(&script.parse(&bar).unwrap()).unwrap(),
                builtin.value(&builtin.parse(&bar).unwrap()).unwrap(),
                "{bar}"
            );
        }
    }
}

#[test]
fn treblecross_outcomes_match_the_built_in() {
    // The script plays the real rule (three in a row ends the game), the
    // built-in family the gap decomposition: their values may differ, but
    // who wins must not.
    let (mut script, mut builtin) = (family(&example("treblecross.rhai")), family("treblecross"));
    for len in 3..=9 {
        for bits in 0..(1u32 << len) {
            let row: String = (0..len)
                .map(|i| if bits >> i & 1 == 1 { 'X' } else { '.' })
                .collect();
            if row.contains("XXX") {
                continue;
            }
            let first_wins = !script
                .value(&script.parse(&row).unwrap())
                .unwrap()
                .is_zero();
            assert_eq!(
                first_wins,
                !builtin
                    .value(&builtin.parse(&row).unwrap())
                    .unwrap()
                    .is_zero(),
                "{row}"
            );
        }
    }
}

#[test]
fn kayles_matches_the_octal_game() {
    let (mut script, mut builtin) = (family(&example("kayles.rhai")), family("0.77"));
    for n in 0..80 {
        let n = n.to_string();
        assert_eq!(
            script.value(&script.parse(&n).unwrap()).unwrap(),
            builtin.value(&builtin.parse(&n).unwrap()).unwrap(),
            "{n}"
        );
    }
}

#[test]
fn scripts_on_the_command_line() {
    let out = Command::cargo_bin("grundy")
        .unwrap()
        .args([
            "value",
            &example("knight.rhai"),
            "3,4",
            "+",
            "nim",
            "2",
            "--json",
        ])
        .assert()
        .success();
    let v: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(v["components"][0]["grundy"], 4);
    assert_eq!(v["nim_sum"], 6);
    let out = Command::cargo_bin("grundy")
        .unwrap()
        .args(["seq", &example("kayles.rhai"), "--to", "11", "--json"])
        .assert()
        .success();
    let v: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(
        v["values"],
        serde_json::json!([0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6])
    );
    let games = Command::cargo_bin("grundy")
        .unwrap()
        .arg("games")
        .assert()
        .success();
    assert!(String::from_utf8_lossy(&games.get_output().stdout).contains("script:FILE"));
}

#[test]
fn script_tables_match_the_built_in() {
    let table = |game: &str| -> serde_json::Value {
        let out = Command::cargo_bin("grundy")
            .unwrap()
            .args(["table", game, "--json"])
            .assert()
            .success();
        serde_json::from_slice(&out.get_output().stdout).unwrap()
    };
    assert_eq!(table(&example("knight.rhai")), table("knight:8"));
    Command::cargo_bin("grundy")
        .unwrap()
        .args(["table", &example("kayles.rhai")])
        .assert()
        .code(2);
}

#[test]
fn bad_scripts_are_one_line() {
    let dir = std::env::temp_dir().join(format!("grundy-script-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (name, source, needle) in [
        (
            "syntax.rhai",
            "fn moves(n) {\n  let = 3;\n}\n",
            "syntax.rhai:2:",
        ),
        (
            "runtime.rhai",
            "fn moves(n) {\n  n.nothing()\n}\n",
            "runtime.rhai:2:",
        ),
        ("endless.rhai", "fn moves(n) { loop { } }\n", "operations"),
        // Where Rhai knows no line, the function is named and no 0:0 is made up.
        (
            "helper-loop.rhai",
            "fn helper(n) { loop { n += 1; } }\nfn moves(n) { helper(n) }\n",
            "helper-loop.rhai: in fn moves: ran for more than",
        ),
        (
            "deep.rhai",
            "fn f(n) { f(n + 1) }\nfn moves(n) { f(n) }\n",
            "in fn moves: calls went too deep",
        ),
        // An error inside a called function names that function and its line.
        (
            "inner.rhai",
            "fn helper(n) {\n  n.nothing()\n}\nfn moves(n) { helper(n) }\n",
            "inner.rhai:2:",
        ),
        // Types in the script's words, not Rust's.
        (
            "number.rhai",
            "fn moves(n) { 5 }\n",
            "moves must return an array of options, not an integer",
        ),
        (
            "float.rhai",
            "fn moves(n) { [1.5] }\n",
            "not a floating-point number",
        ),
        ("none.rhai", "fn other(n) { [] }\n", "must define fn moves"),
        (
            "split-cycle.rhai",
            "fn moves(n) { if n == 1 { [sum([2, 2])] } else if n == 2 { [1] } else { [] } }\n",
            "cycle",
        ),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, source).unwrap();
        let out = Command::cargo_bin("grundy")
            .unwrap()
            .args(["value", &format!("script:{}", path.display()), "1"])
            .assert()
            .code(2);
        let err = String::from_utf8(out.get_output().stderr.clone()).unwrap();
        assert!(
            err.contains(needle) && err.lines().count() == 1,
            "{name}: {err}"
        );
        assert!(
            !err.contains(":0:0") && !err.contains("i64"),
            "{name}: {err}"
        );
    }
}

#[test]
fn a_move_list_too_long_to_search_stops_at_once() {
    let dir = std::env::temp_dir().join(format!("grundy-script-split-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("split.rhai");
    // Every split of n in two: 10^18 options from one call.
    std::fs::write(
        &path,
        "fn moves(n) {\n    let out = [];\n    for a in 1..n {\n        out.push(sum([a, n - a]));\n    }\n    out\n}\n",
    )
    .unwrap();
    let spec = format!("script:{}", path.display());
    let huge = "1000000000000000000";
    // The state budget bounds one call's arrays when it is the smaller.
    common::fails(
        &["value", &spec, huge, "--max-states", "100"],
        "in fn moves: an array grew past 100 items (items of arrays inside count too), more than the state budget lets one call build (--max-states); return fewer options, or raise --max-states",
    );
    common::fails(
        &["value", &spec, huge],
        &format!(
            "in fn moves: an array grew past {} items (items of arrays inside count too), the most one call may build; a move list that long cannot be searched",
            grundy::games::script::MAX_ARRAY_ITEMS
        ),
    );
    // A tiny state budget leaves room for positions that are arrays: the
    // state budget runs out first.
    common::fails(
        &["value", &example("stones.rhai"), "5", "--max-states", "1"],
        "gave up after 1 positions",
    );
    // Under the bound, the same script answers: an even n splits into
    // equal halves, an odd n cannot avoid leaving a win.
    let text = grundy(&["value", &spec, "6", "--max-states", "100"], "");
    assert!(text.contains("grundy 1"), "{text}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn ctrl_c_stops_a_script_that_is_running() {
    let dir = std::env::temp_dir().join(format!("grundy-script-slow-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("slow.rhai");
    // Each call of moves does real work; 100000 calls would take minutes.
    std::fs::write(
        &path,
        "fn moves(n) { let s = 0; for i in 0..200000 { s += i; } if n > 0 { [n - 1] } else { [] } }\n",
    )
    .unwrap();
    let spec = format!("script:{}", path.display());
    let (out, took) = interrupted(
        &["value", &spec, "100000", "-q"],
        std::time::Duration::from_millis(700),
    );
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(130), "{err}");
    assert!(
        err.contains("interrupted") && err.lines().count() == 1,
        "{err}"
    );
    assert!(took < 5.0, "took {took} s to stop");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn positions_that_never_end_stop_at_the_memory_budget() {
    let dir = std::env::temp_dir().join(format!("grundy-script-grow-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("cyc.rhai");
    // From 3, moves reach every larger number: a loopy game with no end.
    std::fs::write(
        &path,
        "fn moves(n) { if n > 0 { [n - 1, n + 1] } else { [] } }\n",
    )
    .unwrap();
    let spec = format!("script:{}", path.display());
    let out = Command::cargo_bin("grundy")
        .unwrap()
        .args(["value", &spec, "3", "--max-memory", "150M", "-q"])
        .assert()
        .code(2);
    let err = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert!(
        err.contains("memory budget of 150 MB") && err.lines().count() == 1,
        "{err}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

fn grundy(args: &[&str], input: &str) -> String {
    let out = Command::cargo_bin("grundy")
        .unwrap()
        .args(args)
        .write_stdin(input)
        .assert()
        .success();
    String::from_utf8(out.get_output().stdout.clone()).unwrap()
}

/// Codeforces 768E "Game of Stones" (examples/stones.rhai): its own `parse`
/// turns the typed `5` into `[5, 0]`, and the engine never hands its own
/// writing of a position (`5,0`) back to that `parse`.
#[test]
fn a_script_with_its_own_parse_works_everywhere() {
    let stones = example("stones.rhai");
    // The problem's official samples: Jon moves second and wins ("YES")
    // exactly when the second player wins. Sample 1: one pile of 5 -> NO.
    let v: serde_json::Value =
        serde_json::from_str(&grundy(&["value", &stones, "5", "--json"], "")).unwrap();
    assert_eq!(v["winner"], "first");
    assert_eq!(v["components"][0]["position"], "5,0");
    assert_eq!(v["winning_moves"][0]["from"], "5,0");
    assert_eq!(v["winning_moves"][0]["to"][0], "0,32");
    // Sample 2: piles 1 and 2 -> YES.
    let v: serde_json::Value =
        serde_json::from_str(&grundy(&["value", &stones, "1", "2", "--json"], "")).unwrap();
    assert_eq!(v["winner"], "second");
    // Text, and sums with built-in families.
    let text = grundy(&["value", &stones, "5", "+", "nim", "2"], "");
    assert!(text.contains("5,0  grundy 2"), "{text}");
    assert!(text.contains("second player wins"), "{text}");
    // seq: heap n is what a person gets by typing n; the values are the
    // known answer, the largest k with 1 + ... + k <= n.
    let text = grundy(&["seq", &stones, "--to", "15", "--csv"], "");
    let values: Vec<u64> = text
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(1).unwrap().parse().unwrap())
        .collect();
    assert_eq!(values, [0, 1, 1, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 4, 5]);
    // play: the position line, moves typed as the line writes them, a hint,
    // and a move that is not legal explained with the legal ones.
    let text = grundy(&["play", &stones, "5"], "1:3,8\nhint\n1:0,32\n");
    assert!(text.contains("position: 5,0"), "{text}");
    assert!(text.contains("legal moves here: 1:4,2 1:3,4"), "{text}");
    assert!(text.contains("hint: winning moves: 1:0,32"), "{text}");
    assert!(text.contains("winner: you"), "{text}");
}

#[test]
fn a_script_without_end_is_stopped_naming_the_memory_too() {
    // examples/forever.rhai: every heap n moves to n + 1.
    let script =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/forever.rhai");
    let game = format!("script:{}", script.display());
    let bounded = ["value", game.as_str(), "0", "--max-states", "20000"];
    let both = [&bounded[..], &["--max-memory", "3G"]].concat();
    for args in [&bounded[..], &both[..]] {
        common::fails(
            args,
            "gave up after 20000 positions (the state budget, --max-states), holding ",
        );
        common::fails(
            args,
            "--max-memory); a game whose positions never end needs a bound",
        );
    }
    common::fails(&both, "(the budget is 3.0 GB, --max-memory)");
}
