//! The contest templates of `examples/templates/` (C++ compiled with
//! `g++ -O2`, Python run with `python3`) answer as grundy does: the mex DP
//! over heaps as `grundy seq`, the sum as `grundy value --json`, the board
//! as `grundy table`, on several games and sizes.
//!
//! Where g++ or python3 is missing the tests say so and skip that language,
//! except in CI (`.ci/run` sets `GRUNDY_REQUIRE_TOOLS`; CI services set
//! `CI`), where both must be there.

mod common;
use common::{json, run_with, scratch, stdout};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn template(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../../examples/templates/{name}"))
}

/// Whether `tool` runs here; if not, a note, or a failure under CI.
fn have(tool: &str) -> bool {
    let found = Command::new(tool)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !found {
        assert!(
            std::env::var_os("GRUNDY_REQUIRE_TOOLS").is_none() && std::env::var_os("CI").is_none(),
            "{tool} is needed to test the templates"
        );
        eprintln!("note: {tool} is not installed: its templates are not tested here");
    }
    found
}

/// A template built for one language: its input to what it printed.
type Program = Box<dyn Fn(&str) -> String>;

/// The template `stem` in each language available, by language.
fn programs(stem: &str) -> Vec<(&'static str, Program)> {
    let mut out: Vec<(&'static str, Program)> = Vec::new();
    if have("g++") {
        let source = template(&format!("{stem}.cpp"));
        let binary = scratch("templates", stem);
        let status = Command::new("g++")
            .args(["-std=c++17", "-O2", "-Wall", "-Werror", "-o"])
            .arg(&binary)
            .arg(&source)
            .status()
            .unwrap();
        assert!(status.success(), "g++ failed on {}", source.display());
        out.push((
            "cpp",
            Box::new(move |input| run_with(&mut Command::new(&binary), input)),
        ));
    }
    if have("python3") {
        let source = template(&format!("{stem}.py"));
        out.push((
            "python",
            Box::new(move |input| run_with(Command::new("python3").arg(&source), input)),
        ));
    }
    out
}

/// The heap games of the templates: a move takes s in `take`, and with
/// `split` may leave the rest as two heaps. grundy names the first
/// `sub:S`, the second an octal code with the digit 7 at each s.
fn spec(take: &[u64], split: bool) -> String {
    if split {
        let top = *take.iter().max().unwrap();
        let digits: String = (1..=top)
            .map(|s| if take.contains(&s) { '7' } else { '0' })
            .collect();
        format!("0.{digits}")
    } else {
        let set: Vec<String> = take.iter().map(u64::to_string).collect();
        format!("sub:{}", set.join(","))
    }
}

fn rules(take: &[u64], split: bool) -> String {
    let set: Vec<String> = take.iter().map(u64::to_string).collect();
    format!("{} {} {}", take.len(), set.join(" "), split as u8)
}

const GAMES: &[(&[u64], bool, u64)] = &[
    (&[1, 3, 4], false, 300),
    (&[2, 5, 7], false, 250),
    (&[1, 2], true, 200),
    (&[1, 3], true, 150),
    (&[2], true, 120),
    (&[1], true, 60),
];

#[test]
fn the_heap_template_prints_what_grundy_seq_does() {
    for (language, run) in programs("heap_mex") {
        for (take, split, n) in GAMES {
            let game = spec(take, *split);
            for to in [0, 1, 7, *n] {
                let want = json(&["seq", &game, "--to", &to.to_string(), "--json"])["values"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|v| v.as_u64().unwrap())
                    .collect::<Vec<_>>();
                let printed = run(&format!("{} {to}\n", rules(take, *split)));
                let got: Vec<u64> = printed
                    .split_whitespace()
                    .map(|v| v.parse().unwrap())
                    .collect();
                assert_eq!(got, want, "{language} {game} to {to}");
            }
        }
    }
}

#[test]
fn the_sum_template_answers_as_grundy_value_does() {
    let sums: &[&[u64]] = &[
        &[5, 3],
        &[2, 3],
        &[0],
        &[7],
        &[1, 1],
        &[10, 20, 30],
        &[4, 9, 13, 21, 40],
        &[60, 61, 62],
    ];
    for (language, run) in programs("sum_nim") {
        for (take, split, _) in GAMES {
            let game = spec(take, *split);
            for heaps in sums {
                let words: Vec<String> = heaps.iter().map(u64::to_string).collect();
                let mut args = vec!["value", game.as_str()];
                args.extend(words.iter().map(String::as_str));
                args.push("--json");
                let want = json(&args);
                assert_eq!(want["winning_moves_truncated"], false);
                let input = format!(
                    "{}\n{} {}\n",
                    rules(take, *split),
                    heaps.len(),
                    words.join(" ")
                );
                let printed = run(&input);
                let mut lines = printed.lines();
                let x = want["nim_sum"].as_u64().unwrap();
                assert_eq!(
                    lines.next().unwrap(),
                    format!(
                        "nim-sum {x}: {} player wins",
                        want["winner"].as_str().unwrap()
                    ),
                    "{language} {game} {heaps:?}"
                );
                // Winning moves as (heap, from, the heaps left, sorted).
                let mut got: Vec<(u64, String, Vec<String>)> = lines
                    .map(|line| {
                        let (heap, rest) = line
                            .strip_prefix("heap ")
                            .unwrap()
                            .split_once(": ")
                            .unwrap();
                        let (from, to) = rest.split_once(" -> ").unwrap();
                        let mut to: Vec<String> = if to == "nothing" {
                            vec![]
                        } else {
                            to.split(" + ").map(str::to_string).collect()
                        };
                        to.sort();
                        (heap.parse().unwrap(), from.to_string(), to)
                    })
                    .collect();
                let mut expected: Vec<(u64, String, Vec<String>)> = want["winning_moves"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|m| {
                        let mut to: Vec<String> = m["to"]
                            .as_array()
                            .unwrap()
                            .iter()
                            .map(|p| p.as_str().unwrap().to_string())
                            .collect();
                        to.sort();
                        (
                            m["component"].as_u64().unwrap() + 1,
                            m["from"].as_str().unwrap().to_string(),
                            to,
                        )
                    })
                    .collect();
                got.sort();
                expected.sort();
                assert_eq!(got, expected, "{language} {game} {heaps:?}");
            }
        }
    }
}

#[test]
fn the_board_template_prints_what_grundy_table_does() {
    for (language, run) in programs("knight_board") {
        for n in [1, 2, 3, 5, 8, 15, 40] {
            let want = stdout(&["table", &format!("knight:{n}")]);
            assert_eq!(run(&format!("{n}\n")), want, "{language} knight:{n}");
        }
    }
}
