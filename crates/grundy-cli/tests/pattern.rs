//! `grundy pattern`: the patterns of the sources' games, and the emitted
//! code of every kind and language compiled (g++, rustc) or run (python3)
//! against `grundy seq` and `grundy table` on every tabulated position, and
//! against `grundy value` on huge heaps where the pattern is proven.

mod common;
use common::{fails, json, run_with, scratch, stdout};
use std::path::Path;
use std::process::Command;

/// A script of two-number positions with a known answer: a token on a grid
/// moves 1 or 2 squares left or down, a sum of two `sub:1,2` heaps, so
/// G(r, c) = (r mod 3) xor (c mod 3).
fn grid_script() -> String {
    let path = scratch("pattern", "grid.rhai");
    std::fs::write(
        &path,
        r#"
fn moves(p) {
    let out = [];
    for d in [1, 2] {
        if p[0] >= d { out.push([p[0] - d, p[1]]); }
        if p[1] >= d { out.push([p[0], p[1] - d]); }
    }
    out
}
fn table() {
    let rows = [];
    for r in 0..12 {
        let row = [];
        for c in 0..12 { row.push([r, c]); }
        rows.push(row);
    }
    rows
}
"#,
    )
    .unwrap();
    format!("script:{}", path.display())
}

/// A script of strips with a known answer and a period per row: on row 0
/// any number may be taken (G = c), on row r >= 1 one to r (G = c mod
/// (r + 1)); no one period fits every row.
fn strip_script() -> String {
    let path = scratch("pattern", "strip.rhai");
    std::fs::write(
        &path,
        r#"
fn moves(p) {
    let out = [];
    let most = if p[0] == 0 { p[1] } else { p[0] };
    for k in 1..=most {
        if p[1] >= k { out.push([p[0], p[1] - k]); }
    }
    out
}
fn table() {
    let rows = [];
    for r in 0..4 {
        let row = [];
        for c in 0..40 { row.push([r, c]); }
        rows.push(row);
    }
    rows
}
"#,
    )
    .unwrap();
    format!("script:{}", path.display())
}

/// The values of heaps 0..=to of a heap game, from `grundy seq`.
fn seq(game: &str, to: u64) -> Vec<u64> {
    let seq = json(&["seq", game, "--to", &to.to_string(), "--json"]);
    seq["values"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect()
}

/// The Codeforces 768E script of the examples folder.
fn stones_script() -> String {
    format!(
        "script:{}/../../examples/stones.rhai",
        env!("CARGO_MANIFEST_DIR")
    )
}

#[test]
fn the_sources_games() {
    // take 1-3: n mod 4, proven by the subtraction window.
    let take = json(&["pattern", "sub:1-3", "--json"]);
    assert_eq!(take["kind"], "periodic");
    assert_eq!(
        (take["preperiod"].as_u64(), take["period"].as_u64()),
        (Some(0), Some(4))
    );
    assert_eq!(take["proven"], true);
    assert_eq!(take["block"], serde_json::json!([0, 1, 2, 3]));
    // sub:1,3,4: period 7, its P-positions n mod 7 in {0, 2}.
    let out = stdout(&["pattern", "sub:1,3,4", "--outcome"]);
    assert!(
        out.starts_with("sub:1,3,4 (outcome): periodic, preperiod 0, period 7\n"),
        "{out}"
    );
    assert!(out.contains("periodic block: P N P N N N N"), "{out}");
    // Divide by 2, 3 or 6: nothing fits, said plainly.
    let divide = json(&["pattern", "div:2,3,6", "--json"]);
    assert_eq!(divide["kind"], "none");
    assert_eq!(divide["proven"], false);
    let divide_wins = json(&["pattern", "div:2,3,6", "--outcome", "--json"]);
    assert_eq!(divide_wins["kind"], "none", "{divide_wins}");
    assert!(divide["method"]
        .as_str()
        .unwrap()
        .starts_with("no pattern fits every heap up to 4095"));
    // The text says what to try next; who wins only where it was not tried.
    let text = stdout(&["pattern", "div:2,3,6"]);
    assert!(
        text.ends_with("\nnext: look for a pattern in who wins (--outcome); compute the values in your program with a memoised mex, or print them (`grundy seq`) into it; or split the game into independent parts and XOR their values\n"),
        "{text}"
    );
    let text = stdout(&["pattern", "div:2,3,6", "--outcome"]);
    assert!(
        text.contains("\nnext: compute the values") && !text.contains("(--outcome)"),
        "{text}"
    );
    // Codeforces 768E, the stones script: runs of length 1, 2, 3, ...
    let stones = json(&["pattern", &stones_script(), "--max", "60", "--json"]);
    assert_eq!(stones["kind"], "runs", "{stones}");
    assert_eq!(
        (stones["length"].as_u64(), stones["step"].as_u64()),
        (Some(1), Some(1))
    );
    assert_eq!(stones["proven"], false);
    // Northcott's columns: a gap n is a Nim heap narrowed by 1..4: n mod 5.
    let northcott = json(&["pattern", "northcott:4", "--json"]);
    assert_eq!(northcott["period"], 5, "{northcott}");
    assert_eq!(northcott["proven"], true);
    // Chocolate splitting: values of an R x C bar.
    let choco = json(&["pattern", "choco:16x16", "--outcome", "--json"]);
    assert_eq!(choco["kind"], "periodic-2d", "{choco}");
    assert_eq!(choco["symmetric"], true);
    // The knight game: P-positions r mod 4 < 2 and c mod 4 < 2, except the
    // far corner of the 8x8 board.
    let knight = json(&["pattern", "knight:8", "--outcome", "--json"]);
    assert_eq!(knight["kind"], "periodic-2d", "{knight}");
    assert_eq!(knight["period"], serde_json::json!([4, 4]));
    assert_eq!(knight["exceptions"], serde_json::json!([[7, 7, 0]]));
    // Its values have no pattern: who wins is shown instead, and said so.
    let values = json(&["pattern", "knight:8", "--json"]);
    assert_eq!(
        (values["outcome"].as_bool(), values["kind"].as_str()),
        (Some(true), Some("periodic-2d"))
    );
    assert!(
        values["method"]
            .as_str()
            .unwrap()
            .starts_with("the values have none"),
        "{values}"
    );
    // HackerRank's chessboard game, a script with squares from 1,1: the
    // knight's pattern, in the script's own coordinates.
    let chessboard = format!(
        "script:{}/../../examples/chessboard.rhai",
        env!("CARGO_MANIFEST_DIR")
    );
    let board = json(&["pattern", &chessboard, "--outcome", "--json"]);
    assert_eq!(board["kind"], "periodic-2d", "{board}");
    assert_eq!(
        (board["origin"].clone(), board["period"].clone()),
        (serde_json::json!([1, 1]), serde_json::json!([4, 4]))
    );
    // A script of two-number positions: (r mod 3) xor (c mod 3).
    let grid = json(&["pattern", &grid_script(), "--json"]);
    assert_eq!(grid["kind"], "periodic-2d", "{grid}");
    assert_eq!(
        (grid["offset"].clone(), grid["period"].clone()),
        (serde_json::json!([0, 0]), serde_json::json!([3, 3]))
    );
    assert_eq!(
        grid["block"],
        serde_json::json!([[0, 1, 2], [1, 0, 3], [2, 3, 0]])
    );
    // Dawson's Kayles: proven by the Guy-Smith theorem, with its prefix.
    let dawson = json(&["pattern", "0.07", "--json"]);
    assert_eq!(
        (dawson["preperiod"].as_u64(), dawson["period"].as_u64()),
        (Some(53), Some(34))
    );
    assert!(dawson["method"].as_str().unwrap().contains("Guy-Smith"));
    // Nim: arithmetic-periodic (a closed form); every heap but 0 wins.
    let nim = json(&["pattern", "nim", "--json"]);
    assert_eq!(
        (nim["kind"].as_str(), nim["saltus"].as_u64()),
        (Some("arithmetic-periodic"), Some(1))
    );
    let wins = json(&["pattern", "nim", "--outcome", "--json"]);
    assert_eq!(
        (wins["preperiod"].as_u64(), wins["period"].as_u64()),
        (Some(1), Some(1))
    );
    assert_eq!(wins["proven"], true);
}

#[test]
fn bad_requests_are_one_line() {
    fails(
        &["pattern", "sub:1,3,4", "--emit", "java"],
        "the languages are cpp, python and rust",
    );
    fails(
        &["pattern", "div:2,3,6", "--emit", "cpp"],
        "so there is no code to write",
    );
    fails(&["pattern", "nodekayles:/nonexistent"], "nonexistent");
    fails(&["pattern", "chomp:0x3"], "each at least 1");
    fails(&["pattern", "cram:3x0", "--outcome"], "each at least 1");
    for max in ["16777216", "18446744073709551615"] {
        fails(&["pattern", "sub:1,2", "--max", max], "at most");
        fails(&["pattern", "0.6 + nim", "--max", max], "at most");
    }
    fails(&["pattern", "sub:1,2", "--max", "-1"], "-1");
    fails(&["pattern", "chomp:3x3 + nim"], "must be heap games");
    fails(&["pattern", "nim + + nim"], "a sum of two heap games");
}

/// Runs the Python that `grundy pattern ARGS --emit python` writes on the
/// positions `(r, c)`.
fn python_answers(args: &[&str], outcome: bool, name: &str, positions: &[(u64, u64)]) -> Vec<u64> {
    let code = stdout(&[args, &["--emit", "python"]].concat());
    let input: String = positions
        .iter()
        .map(|(r, c)| format!("{r} {c}\n"))
        .collect();
    answers(&code, "python", true, outcome, name, &input)
}

/// The values `grundy value FAMILY POS...` gives each of `positions`.
fn values_of(family: &str, positions: &[String]) -> Vec<u64> {
    let mut args = vec!["value", family];
    args.extend(positions.iter().map(String::as_str));
    args.push("--json");
    json(&args)["components"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["grundy"].as_u64().unwrap())
        .collect()
}

/// How `grundy value` writes the position (r, c) of a game.
type Written<'a> = &'a dyn Fn(u64, u64) -> String;

#[test]
fn emitted_board_code_takes_positions_as_grundy_value_does() {
    // (game, its family in `grundy value`, how that writes (r, c), first r and c)
    let board = |r: u64, c: u64| format!("{r}x{c}");
    let square = |r: u64, c: u64| format!("{r},{c}");
    let cases: &[(&str, &str, Written, u64)] = &[
        ("chomp:8x8", "chomp", &board, 1),
        ("cram:2x24", "cram", &board, 1),
        ("cram:4x6", "cram", &board, 1),
        ("choco:16x16", "choco", &board, 1),
        ("knight:8", "knight:8", &square, 0),
        // A sum: heaps from 0, its value the nim-sum of its parts'.
        ("sub:1,2 + sub:1,3", "", &square, 0),
    ];
    for (i, (game, family, written, first)) in cases.iter().enumerate() {
        for outcome in [false, true] {
            let mut args = vec!["pattern", game];
            if outcome {
                args.push("--outcome");
            }
            let found = json(&[args.as_slice(), &["--json"]].concat());
            if found["kind"] == "none" {
                continue;
            }
            let outcome = found["outcome"].as_bool().unwrap();
            let last = |i: usize| found["checked_to"][i].as_u64().unwrap().min(40);
            let positions: Vec<(u64, u64)> = (*first..=last(0))
                .flat_map(|r| (*first..=last(1)).map(move |c| (r, c)))
                .collect();
            let values: Vec<u64> = if family.is_empty() {
                let heaps = |to: u64| (0..=to).map(|n| n.to_string()).collect::<Vec<_>>();
                let (xs, ys) = (
                    values_of("sub:1,2", &heaps(last(0))),
                    values_of("sub:1,3", &heaps(last(1))),
                );
                positions
                    .iter()
                    .map(|(r, c)| xs[*r as usize] ^ ys[*c as usize])
                    .collect()
            } else {
                let words: Vec<String> = positions.iter().map(|(r, c)| written(*r, *c)).collect();
                values_of(family, &words)
            };
            let got = python_answers(&args, outcome, &format!("board{i}-{outcome}"), &positions);
            for ((r, c), (g, v)) in positions.iter().zip(got.iter().zip(&values)) {
                let want = if outcome { (*v != 0) as u64 } else { *v };
                assert_eq!(*g, want, "{game} outcome={outcome} at {}", written(*r, *c));
            }
            // The text names rows and columns as the game does.
            let text = stdout(&args);
            let from = found["origin"][0].as_u64().or(found["origin"][1].as_u64());
            assert_eq!(from, Some(*first), "{text}");
            assert!(
                text.contains(&format!("rows {first} to"))
                    || text.contains(&format!("row {first}:")),
                "{text}"
            );
        }
    }
}

#[test]
fn a_row_that_is_a_heap_game_holds_past_the_table() {
    // A 1xN Cram board is 0.07 on a heap of N, so row 1 must follow 0.07's
    // values to any length, not only to the table's 24 columns; row 2 is
    // checked where it was tabulated, against `grundy value`.
    let far = 200;
    let dawson = seq("0.07", far);
    let row2: Vec<String> = (1..=24).map(|c| format!("2x{c}")).collect();
    let row2 = values_of("cram", &row2);
    let small: Vec<String> = (1..=30).map(|c| format!("1x{c}")).collect();
    let small = values_of("cram", &small);
    assert_eq!(small, dawson[1..=30], "1xN Cram is 0.07 on a heap of N");
    for outcome in [false, true] {
        let mut args = vec!["pattern", "cram:2x24"];
        if outcome {
            args.push("--outcome");
        }
        let found = json(&[args.as_slice(), &["--json"]].concat());
        // Values with no pattern would fall back on who wins.
        let outcome = found["outcome"].as_bool().unwrap();
        let positions: Vec<(u64, u64)> = (1..=far)
            .map(|c| (1, c))
            .chain((1..=24).map(|c| (2, c)))
            .collect();
        let got = python_answers(&args, outcome, &format!("cram-rows-{outcome}"), &positions);
        for ((r, c), g) in positions.iter().zip(got) {
            let v = if *r == 1 {
                dawson[*c as usize]
            } else {
                row2[*c as usize - 1]
            };
            let want = if outcome { (v != 0) as u64 } else { v };
            assert_eq!(g, want, "cram outcome={outcome} at {r}x{c}");
        }
        assert_eq!(found["rows"][0]["proven"], true, "{found}");
        assert_eq!(found["rows"][1]["proven"], false, "{found}");
        assert_eq!(found["proven"], false, "{found}");
    }
    // A 1xN Chomp board is a Nim heap of N - 1: proven, P only at 1x1.
    let chomp: Vec<String> = (1..=12).map(|c| format!("1x{c}")).collect();
    let values: Vec<u64> = (0..12).collect();
    assert_eq!(values_of("chomp", &chomp), values);
    let found = json(&["pattern", "chomp:1x12", "--outcome", "--json"]);
    assert_eq!(found["proven"], true, "{found}");
    let positions: Vec<(u64, u64)> = (1..=far).map(|c| (1, c)).collect();
    let got = python_answers(
        &["pattern", "chomp:1x12", "--outcome"],
        true,
        "chomp-row",
        &positions,
    );
    for ((_, c), g) in positions.iter().zip(got) {
        assert_eq!(g, (*c != 1) as u64, "chomp 1x{c}");
    }
}

#[test]
fn a_sums_pattern_holds_far_past_its_table_or_is_none() {
    let far = 6000;
    // (sum, whether a pattern must be found)
    let cases: &[(&str, &str, bool)] = &[
        ("0.07", "0.16", false),
        ("sub:1,2", "0.6", false),
        ("sub:1,2", "grundy", false),
        ("sub:1,3,4", "0.07", true),
        ("nim", "sub:1,2", false),
    ];
    for (i, (a, b, must)) in cases.iter().enumerate() {
        let (xs, ys) = (seq(a, far), seq(b, far));
        for outcome in [false, true] {
            let game = format!("{a} + {b}");
            let mut args = vec!["pattern", game.as_str()];
            if outcome {
                args.push("--outcome");
            }
            let found = json(&[args.as_slice(), &["--json"]].concat());
            if found["kind"] == "none" {
                assert!(!must, "{game}: {found}");
                continue;
            }
            assert_eq!(found["kind"], "periodic-2d", "{found}");
            let rows = [0, 1, 2, 3, 7, 53, 100, 2999, far];
            let positions: Vec<(u64, u64)> = rows
                .iter()
                .flat_map(|r| (0..=far).map(move |c| (*r, c)))
                .collect();
            let got = python_answers(&args, outcome, &format!("sum{i}-{outcome}"), &positions);
            for ((r, c), g) in positions.iter().zip(got) {
                let v = xs[*r as usize] ^ ys[*c as usize];
                let want = if outcome {
                    (xs[*r as usize] != ys[*c as usize]) as u64
                } else {
                    v
                };
                assert_eq!(g, want, "{game} outcome={outcome} at {r},{c}");
            }
        }
    }
}

fn compile(status: std::process::ExitStatus, what: &str, source: &Path) {
    assert!(status.success(), "{what} failed on {}", source.display());
}

/// The answers of `code` (in `language`) for the positions of `input` (one
/// a line: `n`, or `r c`), one a line, as integers (outcomes as 0 or 1).
fn answers(
    code: &str,
    language: &str,
    two: bool,
    outcome: bool,
    name: &str,
    input: &str,
) -> Vec<u64> {
    let function = if outcome {
        "first_player_wins"
    } else {
        "grundy"
    };
    let printed = match language {
        "cpp" => {
            let source = scratch("pattern", &format!("{name}.cpp"));
            let read = if two {
                format!("long long r, c; while (scanf(\"%lld %lld\", &r, &c) == 2) printf(\"%lld\\n\", (long long){function}(r, c));")
            } else {
                format!("long long n; while (scanf(\"%lld\", &n) == 1) printf(\"%lld\\n\", (long long){function}(n));")
            };
            std::fs::write(
                &source,
                format!("#include <cstdio>\n{code}\nint main() {{ {read} }}\n"),
            )
            .unwrap();
            let binary = scratch("pattern", name);
            let status = Command::new("g++")
                .args(["-std=c++17", "-O1", "-Wall", "-Werror", "-o"])
                .arg(&binary)
                .arg(&source)
                .status()
                .expect("g++ is installed");
            compile(status, "g++", &source);
            run_with(&mut Command::new(&binary), input)
        }
        "rust" => {
            let source = scratch("pattern", &format!("{name}.rs"));
            let read = if two {
                format!("let v: Vec<u64> = line.split_whitespace().map(|x| x.parse().unwrap()).collect(); println!(\"{{}}\", {function}(v[0], v[1]) as u64);")
            } else {
                format!("let n: u64 = line.trim().parse().unwrap(); println!(\"{{}}\", {function}(n) as u64);")
            };
            std::fs::write(
                &source,
                format!("{code}\nfn main() {{ for line in std::io::stdin().lines() {{ let line = line.unwrap(); {read} }} }}\n"),
            )
            .unwrap();
            let binary = scratch("pattern", &format!("{name}-rs"));
            let status = Command::new("rustc")
                .args(["-O", "-D", "warnings", "--edition", "2021", "-o"])
                .arg(&binary)
                .arg(&source)
                .status()
                .unwrap();
            compile(status, "rustc", &source);
            run_with(&mut Command::new(&binary), input)
        }
        _ => {
            let source = scratch("pattern", &format!("{name}.py"));
            let call = if two {
                format!("{function}(*map(int, line.split()))")
            } else {
                format!("{function}(int(line))")
            };
            std::fs::write(
                &source,
                format!("{code}\n\nimport sys\nfor line in sys.stdin:\n    print(int({call}))\n"),
            )
            .unwrap();
            run_with(Command::new("python3").arg(&source), input)
        }
    };
    printed.lines().map(|l| l.parse().unwrap()).collect()
}

#[test]
fn emitted_code_of_every_kind_and_language_answers_as_grundy_does() {
    let stones = stones_script();
    let grid = grid_script();
    let strip = strip_script();
    // (game, extra arguments, two-number positions, proven)
    let cases: &[(&str, &[&str], bool, bool)] = &[
        ("sub:1,3,4", &[], false, true),
        ("0.07", &[], false, true),
        ("nim", &[], false, true),
        (stones.as_str(), &["--max", "40"], false, false),
        ("choco:16x16", &[], true, false),
        // The whole board is the table: checked everywhere, so proven.
        ("knight:8", &[], true, true),
        (grid.as_str(), &[], true, false),
        (strip.as_str(), &[], true, false),
        // A sum of two heap games with proven periods: proven.
        ("sub:1,3,4 + 0.07", &[], true, true),
    ];
    for (i, (game, extra, two, proven)) in cases.iter().enumerate() {
        for outcome in [false, true] {
            let mut args = vec!["pattern", game];
            args.extend_from_slice(extra);
            if outcome {
                args.push("--outcome");
            }
            let found = json(&[args.as_slice(), &["--json"]].concat());
            if found["kind"] == "none" {
                continue;
            }
            // A board whose values have no pattern answers with who wins.
            let outcome = found["outcome"].as_bool().unwrap();
            // Every tabulated position, from seq and table.
            let parts: Vec<&str> = game.split(" + ").collect();
            let (input, expected): (String, Vec<u64>) = if let [a, b] = parts.as_slice() {
                // A sum: the XOR of its parts' values, from seq.
                let (xs, ys) = (seq(a, 60), seq(b, 150));
                let mut input = String::new();
                let mut expected = Vec::new();
                for (r, x) in xs.iter().enumerate() {
                    for (c, y) in ys.iter().enumerate() {
                        input.push_str(&format!("{r} {c}\n"));
                        expected.push(x ^ y);
                    }
                }
                (input, expected)
            } else if *two {
                let table = json(&["table", game, "--json"]);
                let rows = table["table"].as_array().unwrap();
                let origin = |i: usize| found["origin"][i].as_u64().unwrap() as usize;
                let mut input = String::new();
                let mut expected = Vec::new();
                for (r, row) in rows.iter().enumerate() {
                    for (c, v) in row.as_array().unwrap().iter().enumerate() {
                        input.push_str(&format!("{} {}\n", r + origin(0), c + origin(1)));
                        expected.push(v.as_u64().unwrap());
                    }
                }
                (input, expected)
            } else {
                let values = seq(game, found["checked_to"].as_u64().unwrap().min(2000));
                let input = (0..values.len()).map(|n| format!("{n}\n")).collect();
                (input, values)
            };
            let expected: Vec<u64> = if outcome {
                expected.iter().map(|v| (*v != 0) as u64).collect()
            } else {
                expected
            };
            for language in ["cpp", "python", "rust"] {
                let code = stdout(&[args.as_slice(), &["--emit", language]].concat());
                assert!(
                    code.contains(if *proven {
                        "Holds for every position"
                    } else {
                        "Not proven"
                    }),
                    "{code}"
                );
                let name = format!("case{i}-{outcome}-{language}");
                let got = answers(&code, language, *two, outcome, &name, &input);
                assert_eq!(
                    got, expected,
                    "{game} {language} outcome={outcome}:\n{code}"
                );
                // Huge positions of a proven sum: as `grundy value` says.
                if let [a, b] = parts.as_slice() {
                    let huge = [
                        ["1000000000000", "999999999999999999"],
                        ["123456789012345678", "77"],
                        ["5", "1000000000000000000"],
                    ];
                    let input: String = huge.iter().map(|[r, c]| format!("{r} {c}\n")).collect();
                    let got = answers(
                        &code,
                        language,
                        true,
                        outcome,
                        &format!("{name}-huge"),
                        &input,
                    );
                    for ([r, c], g) in huge.iter().zip(got) {
                        let value = json(&["value", a, r, "+", b, c, "--json"]);
                        let v = value["nim_sum"].as_u64().unwrap();
                        assert_eq!(
                            g,
                            if outcome { (v != 0) as u64 } else { v },
                            "{game} at {r},{c}"
                        );
                    }
                }
                // Huge heaps, where the pattern is proven: as `grundy value` says.
                if *proven && !*two {
                    let huge = ["1000000000000", "999999999999999999", "123456789012345678"];
                    let got = answers(
                        &code,
                        language,
                        false,
                        outcome,
                        &format!("{name}-huge"),
                        &(huge.join("\n") + "\n"),
                    );
                    for (n, g) in huge.iter().zip(got) {
                        let value = json(&["value", game, n, "--json"]);
                        let v = value["components"][0]["grundy"].as_u64().unwrap();
                        let want = if outcome { (v != 0) as u64 } else { v };
                        assert_eq!(g, want, "{game} {language} heap {n}");
                    }
                }
            }
        }
    }
}
