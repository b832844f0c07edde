//! The example scripts give the same values as the built-in families, and
//! scripts work everywhere a built-in family does.

use assert_cmd::Command;
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
        assert_eq!(script.value(&n).unwrap(), builtin.value(&n).unwrap(), "{n}");
    }
}

#[test]
fn knight_matches_the_built_in() {
    let (mut script, mut builtin) = (family(&example("knight.rhai")), family("knight:8"));
    for r in 0..8 {
        for c in 0..8 {
            let square = format!("{r},{c}");
            assert_eq!(
                script.value(&square).unwrap(),
                builtin.value(&square).unwrap(),
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
                script.value(&bar).unwrap(),
                builtin.value(&bar).unwrap(),
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
            let first_wins = !script.value(&row).unwrap().is_zero();
            assert_eq!(first_wins, !builtin.value(&row).unwrap().is_zero(), "{row}");
        }
    }
}

#[test]
fn kayles_matches_the_octal_game() {
    let (mut script, mut builtin) = (family(&example("kayles.rhai")), family("0.77"));
    for n in 0..80 {
        let n = n.to_string();
        assert_eq!(script.value(&n).unwrap(), builtin.value(&n).unwrap(), "{n}");
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
    }
}
