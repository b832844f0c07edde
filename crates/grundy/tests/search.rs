//! The search solver against the plain memo solver, and against published
//! nimbers.

use grundy::game::{Game, Parts};
use grundy::games::chomp::ChompGame;
use grundy::games::cram::CramGame;
use grundy::games::nodekayles::NodeKaylesGame;
use grundy::search::{SearchGame, Searcher};
use grundy::solve::Solver;
use proptest::prelude::*;
use smallvec::smallvec;

/// Any search game played move by move on the whole position, without
/// splitting, reductions or symmetry: the reference.
struct Plain<G>(G);

impl<G: SearchGame> Game for Plain<G> {
    type Position = G::Pos;
    fn options(&self, p: &G::Pos, out: &mut Vec<Parts<G::Pos>>) {
        let mut opts = Vec::new();
        self.0.options(*p, &mut opts);
        out.extend(opts.into_iter().map(|o| smallvec![o]));
    }
}

fn agree<G: SearchGame + Clone>(game: G, positions: &[G::Pos]) -> Result<(), TestCaseError> {
    let mut plain = Solver::new(Plain(game.clone()));
    // Alone, and three threads sharing the table (more than this machine's
    // cores, so that they interleave).
    for threads in [1, 3] {
        let mut search = Searcher::new(game.clone(), 1 << 22).unwrap();
        search.set_threads(threads);
        for &p in positions {
            let want = plain.value(&p).unwrap() as u32;
            prop_assert_eq!(search.nimber(p).unwrap(), want, "{:?}", p);
            for k in 0..4 {
                prop_assert_eq!(search.has_nimber(p, k).unwrap(), k == want);
            }
            // Every option's value, as the winning-move search sees it.
            let mut options = Vec::new();
            Plain(game.clone()).options(&p, &mut options);
            for o in options {
                let v = plain.value(&o[0]).unwrap() as u32;
                prop_assert_eq!(search.has_nimber(o[0], v).unwrap(), true);
                prop_assert_eq!(search.has_nimber(o[0], v + 1).unwrap(), false);
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Random Cram positions on every board up to 4x5.
    #[test]
    fn cram_matches_the_memo_solver(rows in 1u32..=4, cols in 1u32..=5, seeds in prop::collection::vec(any::<u64>(), 4)) {
        let n = rows * cols;
        let full = (1u64 << n) - 1;
        let mut positions = vec![full];
        positions.extend(seeds.iter().map(|s| s & full));
        positions.extend(seeds.iter().map(|s| (s | s >> 7) & full));
        agree(CramGame::<u64>::new(cols), &positions)?;
        // The same boards in two words.
        let wide: Vec<u128> = positions.iter().map(|&p| p as u128).collect();
        agree(CramGame::<u128>::new(cols), &wide)?;
        // And laid out a row a byte (boards up to 8x8), keyed by byte operations.
        let bytes = CramGame::<u64>::with_stride(cols, 8);
        let laid: Vec<u64> = positions.iter().map(|&p| bytes.import(p as u128)).collect();
        agree(bytes, &laid)?;
        // And a row every 16 bits (boards up to 4 rows of 16), keyed by 16-bit operations.
        let lanes = CramGame::<u64>::with_stride(cols, 16);
        let laid: Vec<u64> = positions.iter().map(|&p| lanes.import(p as u128)).collect();
        agree(lanes, &laid)?;
    }

    /// Random Chomp diagrams up to 5x5.
    #[test]
    fn chomp_matches_the_memo_solver(rows in prop::collection::vec(1u32..=5, 1..=5)) {
        let mut rows = rows;
        rows.sort_unstable_by(|a, b| b.cmp(a));
        let pos = rows.iter().enumerate().fold(0u64, |acc, (i, &r)| acc | ((r as u64) << (4 * i)));
        agree(ChompGame::<u64>::new(), &[pos])?;
    }

    /// Node-Kayles on random graphs of 12 vertices.
    #[test]
    fn node_kayles_matches_the_memo_solver(edges in prop::collection::vec((0u32..12, 0u32..12), 0..30), subset in any::<u16>()) {
        let mut adj = vec![0u128; 12];
        for (a, b) in edges {
            if a != b {
                adj[a as usize] |= 1 << b;
                adj[b as usize] |= 1 << a;
            }
        }
        let all = (1u64 << 12) - 1;
        agree(NodeKaylesGame::<u64>::new(&adj), &[all, subset as u64 & all])?;
    }
}

/// Every position of the 4x4 and 3x5 Cram boards (and 2x7): the splitting
/// and reduction rules (pendants, bridges, the 2x2 cut) meet every local
/// pattern that fits, so each rule is checked against the plain game here,
/// not only on random samples.
#[test]
fn cram_every_small_position_matches_the_memo_solver() {
    for (rows, cols, threads) in [(4u32, 4u32, 1), (3, 5, 3), (2, 7, 2)] {
        let game = CramGame::<u64>::new(cols);
        let mut plain = Solver::new(Plain(game.clone()));
        let mut search = Searcher::new(game, 1 << 24).unwrap();
        search.set_threads(threads);
        for p in 0u64..1 << (rows * cols) {
            let want = plain.value(&p).unwrap() as u32;
            assert_eq!(
                search.nimber(p).unwrap(),
                want,
                "{rows}x{cols} position {p:#b}"
            );
        }
    }
}

/// Every domino a player may place on a Cram board written as rows, as
/// the boards the placements leave (rows of `.` and `#` joined by `/`).
fn every_domino(board: &str) -> Vec<String> {
    let rows: Vec<Vec<char>> = board.split('/').map(|r| r.chars().collect()).collect();
    let mut out = Vec::new();
    for r in 0..rows.len() {
        for c in 0..rows[r].len() {
            for (dr, dc) in [(0, 1), (1, 0)] {
                let (r2, c2) = (r + dr, c + dc);
                if r2 < rows.len() && c2 < rows[r].len() && rows[r][c] == '.' && rows[r2][c2] == '.'
                {
                    let mut next = rows.clone();
                    next[r][c] = '#';
                    next[r2][c2] = '#';
                    let text: Vec<String> = next.iter().map(|row| row.iter().collect()).collect();
                    out.push(text.join("/"));
                }
            }
        }
    }
    out.sort();
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// The family lists every legal move of a Cram position, each with the
    /// value of what it leaves, whatever the reductions the search makes
    /// (a pendant cell dropped keeps the value, not the moves).
    #[test]
    fn cram_lists_every_legal_move(rows in 1usize..=4, cols in 1usize..=5, seed in any::<u64>()) {
        let board: Vec<String> = (0..rows)
            .map(|r| (0..cols).map(|c| if seed >> (r * cols + c) & 1 == 1 { '.' } else { '#' }).collect())
            .collect();
        let board = board.join("/");
        let mut family = grundy::spec::parse_game("cram", grundy::family::Settings::default()).unwrap();
        let position = family.parse(&board).unwrap();
        let moves = family.moves(&position).unwrap();
        let mut listed: Vec<String> = moves.iter().map(|m| family.format(&m.to[0])).collect();
        listed.sort();
        prop_assert_eq!(&listed, &every_domino(&board), "{}", board);
        for m in &moves {
            let value = family.value(&m.to[0]).unwrap();
            prop_assert_eq!(&m.value, &value, "{}", board);
        }
    }
}
