//! Nimbers of big single games checked against published values, through
//! the families a user reaches (`grundy value cram 4x7`).

use grundy::family::Settings;
use grundy::spec::{parse_game, parse_game_from, Sources};
use std::collections::BTreeMap;

fn value(spec: &str, pos: &str) -> u64 {
    let mut family = parse_game(spec, Settings::default()).unwrap();
    let p = family.parse(pos).unwrap();
    family.value(&p).unwrap().as_u64().unwrap()
}

/// Cram nimbers from P. Beling's table (README of
/// github.com/beling/impartial-games, computed with igsolve): rows 4 and 5.
/// Even-by-even boards are 0 by the symmetry strategy.
#[test]
fn cram_matches_belings_table() {
    for (board, nimber) in [
        ("4x4", 0),
        ("4x5", 2),
        ("4x6", 0),
        ("4x7", 3),
        ("5x5", 0),
        ("5x6", 2),
        ("6x4", 0),
        ("5x4", 2),
    ] {
        assert_eq!(value("cram", board), nimber, "cram {board}");
    }
    // One row is Dawson's Kayles moved by one (octal 0.07): OEIS A002187.
    let dawson = [0, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3];
    for (n, &v) in dawson.iter().enumerate().skip(1) {
        assert_eq!(value("cram", &format!("1x{n}")), v, "cram 1x{n}");
    }
}

fn grid(rows: usize, cols: usize) -> String {
    let mut text = String::new();
    for r in 0..rows {
        for c in 0..cols {
            text.push_str(&format!("v{r}_{c}\n"));
            if c + 1 < cols {
                text.push_str(&format!("v{r}_{c} v{r}_{}\n", c + 1));
            }
            if r + 1 < rows {
                text.push_str(&format!("v{r}_{c} v{}_{c}\n", r + 1));
            }
        }
    }
    text
}

fn queens(n: usize) -> String {
    let mut text = String::new();
    for a in 0..n * n {
        text.push_str(&format!("q{a}\n"));
        for b in a + 1..n * n {
            let (r1, c1, r2, c2) = (a / n, a % n, b / n, b % n);
            if r1 == r2 || c1 == c2 || r1.abs_diff(r2) == c1.abs_diff(c2) {
                text.push_str(&format!("q{a} q{b}\n"));
            }
        }
    }
    text
}

fn node_kayles(graph: String) -> u64 {
    let files = BTreeMap::from([("g.txt".to_string(), graph)]);
    let mut family = parse_game_from(
        "nodekayles:g.txt",
        Settings::default(),
        &Sources::Given(&files),
    )
    .unwrap();
    let all = family.parse("all").unwrap();
    family.value(&all).unwrap().as_u64().unwrap()
}

/// OEIS A316632: Node-Kayles on the 3 X n grid graph, n = 1..16.
#[test]
fn node_kayles_on_3_by_n_grids_is_oeis_a316632() {
    let a316632 = [2, 1, 1, 0, 3, 3, 2, 2, 2, 3, 3, 5, 2, 4, 1, 3];
    for (i, &v) in a316632.iter().enumerate() {
        assert_eq!(node_kayles(grid(3, i + 1)), v, "3 x {}", i + 1);
    }
}

/// OEIS A344227: Node-Kayles on the n-queens graph, n = 1..13.
#[test]
fn node_kayles_on_queens_graphs_is_oeis_a344227() {
    let a344227 = [0, 1, 1, 2, 1, 3, 1, 2, 3, 1, 0, 1, 0, 1];
    for (n, &v) in a344227.iter().enumerate().skip(1).take(9) {
        assert_eq!(node_kayles(queens(n)), v, "queens {n}");
    }
}

/// Chomp on one row is Nim (any square but the poison); every larger
/// rectangle is a first-player win (strategy stealing).
#[test]
fn chomp_facts() {
    for n in 1..=10 {
        assert_eq!(value("chomp", &format!("1x{n}")), n - 1);
    }
    for r in 2..=6 {
        for c in 2..=6 {
            assert_ne!(value("chomp", &format!("{r}x{c}")), 0, "chomp {r}x{c}");
        }
    }
    // Square bars: take all but the poison's row and column, then mirror.
    let mut family = parse_game("chomp", Settings::default()).unwrap();
    let p = family.parse("6x6").unwrap();
    let wins = family.moves_to(&p, &grundy::Value::finite(0), 10).unwrap();
    assert_eq!(wins.len(), 1);
    assert_eq!(family.format(&wins[0].to[0]), "6,1,1,1,1,1");
}
