//! `grundy play` driven through pipes: the computer, moving first from a
//! winning position, beats a driver that plays random legal moves, in normal
//! and misère play, for several families.

mod common;

use common::play_randomly;
use std::io::Write;
use std::process::{Command, Stdio};

#[test]
fn the_computer_wins_from_winning_positions() {
    let games: &[(&[&str], bool)] = &[
        (&["nim", "3", "5", "7"], false),
        (&["nim", "3", "5", "7"], true),
        (&["sub:1,3,4", "10", "7"], false),
        (&["sub:1,3,4", "10", "6"], true),
        (&["pow:2", "13", "6"], false),
        (&["pow:2", "13", "5"], true),
        (&["kayles", "5", "3"], false),
        (&["kayles", "6", "2"], true),
    ];
    for (args, misere) in games {
        for seed in 0..6 {
            assert_eq!(
                play_randomly(args, *misere, seed),
                "computer",
                "{args:?} misere={misere} seed={seed}"
            );
        }
    }
}

#[test]
fn end_of_input_quits_cleanly() {
    let out = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(["play", "nim", "3"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("position: 3") && text.contains("your move?"),
        "{text}"
    );
}

#[test]
fn winner_lines_for_the_person() {
    let out = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(["play", "nim", "3"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            child.stdin.take().unwrap().write_all(b"1:\n")?;
            child.wait_with_output()
        })
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("winner: you"), "{text}");
}

#[test]
fn loopy_graphs_hold_the_draw_and_win_when_they_can() {
    let dir = std::env::temp_dir().join(format!("grundy-play-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let graph = dir.join("g.txt");
    // x <-> y forever; s <-> t, and s can escape to the terminal e.
    std::fs::write(&graph, "x y\ny x\ns t\nt s\ns e\n").unwrap();
    let spec = format!("dag:{}", graph.display());
    let run = |position: &str, moves: &str| -> String {
        let mut child = Command::new(env!("CARGO_BIN_EXE_grundy"))
            .args(["play", &spec, position, "--first", "computer"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(moves.as_bytes())
            .unwrap();
        String::from_utf8(child.wait_with_output().unwrap().stdout).unwrap()
    };
    // The computer keeps the draw: the position repeats, nobody wins.
    let text = run("x", "1:x\n1:x\n1:x\n");
    assert!(text.contains("winner: none"), "{text}");
    // From s the computer leaves the cycle and wins.
    let text = run("s", "");
    assert!(
        text.contains("computer plays 1:e") && text.contains("winner: computer"),
        "{text}"
    );
}
