//! Using grundy as a library: a game from a contest defined through the
//! `Game` trait, solved by the memo `Solver`, then added to built-in families
//! in one `Sum` that names the winner and every winning move.
//!
//! Codeforces 768E "Game of Stones": from a pile you may remove any number of
//! stones, but never the same number twice from the same pile. A position is
//! (stones, used), `used` a bit mask of the amounts already removed.
//!
//! Run it with `cargo run --example contest_game -p grundy`.

use grundy::family::{GameFamily, Settings};
use grundy::game::{Game, Parts, Syntax};
use grundy::solve::Solver;
use grundy::spec::parse_game;
use grundy::sum::Sum;
use smallvec::smallvec;

struct Stones;

impl Game for Stones {
    type Position = (u64, u64);

    fn options(&self, &(stones, used): &(u64, u64), out: &mut Vec<Parts<(u64, u64)>>) {
        for k in 1..=stones {
            if used & (1 << k) == 0 {
                out.push(smallvec![(stones - k, used | 1 << k)]);
            }
        }
    }
}

/// What people type is the number of stones; the engine writes `stones,used`.
impl Syntax for Stones {
    fn parse_position(&self, text: &str) -> grundy::Result<(u64, u64)> {
        let stones: u64 = text
            .trim()
            .parse()
            .map_err(|_| grundy::Error::invalid(format!("{text:?} is not a number of stones")))?;
        if stones > 60 {
            return Err(grundy::Error::invalid("piles have at most 60 stones"));
        }
        Ok((stones, 0))
    }

    fn format_position(&self, &(stones, used): &(u64, u64)) -> String {
        format!("{stones},{used}")
    }
}

fn main() -> grundy::Result<()> {
    // 1. Values straight from the solver.
    let mut solver = Solver::new(Stones);
    let values: Vec<u64> = (0..=20)
        .map(|n| solver.value(&(n, 0)).expect("small piles"))
        .collect();
    println!("Game of Stones, piles 0..=20: {values:?}");

    // 2. A sum mixing it with built-in families: the contest's own game, a
    //    Nim heap and Dawson's Kayles.
    let mut sum = Sum::new();
    let stones = sum.add_family(Box::new(GameFamily::new(
        "stones",
        Stones,
        Settings::default(),
        false,
    )));
    let nim = sum.add_family(parse_game("nim", Settings::default())?);
    let dawson = sum.add_family(parse_game("0.07", Settings::default())?);
    sum.add_component(stones, "10")?;
    sum.add_component(stones, "4")?;
    sum.add_component(nim, "6")?;
    sum.add_component(dawson, "20")?;
    let analysis = sum.analyze(100)?;
    println!(
        "nim-sum {}: {} player wins",
        analysis.nim_sum,
        analysis.winner.as_str()
    );
    for m in &analysis.winning_moves {
        let family = sum.components()[m.component].family;
        let to: Vec<String> = m.to.iter().map(|p| sum.format(family, p)).collect();
        println!(
            "  [{}] {} -> {}",
            m.component + 1,
            sum.format(family, &m.from),
            if to.is_empty() {
                "(nothing)".into()
            } else {
                to.join(" + ")
            }
        );
    }

    // 3. The octal engine directly: the Grundy sequence of 0.07 and its period.
    let mut dawson = parse_game("0.07", Settings::default())?;
    let mut first = Vec::new();
    dawson.sequence(0, 20, &mut |_, value| {
        first.push(value);
        Ok(())
    })?;
    let report = dawson.period(1 << 16)?;
    let found = report.periodicity.expect("0.07 is periodic");
    println!(
        "0.07: {first:?}...; preperiod {}, period {} ({})",
        found.preperiod, found.period, report.method
    );
    Ok(())
}
