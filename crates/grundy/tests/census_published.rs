//! The census against published tables.
//!
//! Sources (facts only; nothing copied but the numbers):
//!
//! - Tomek Czajka, "Solving octal games" (github.com/tczajka/octal-games):
//!   `TrivialGames.md` and `SolvedGames.md` give preperiod ("prefix") and
//!   period of every periodic octal game with up to three digits, for one
//!   representative of each class, and `GameLookup.md` maps every code to its
//!   representative. A class holds games equal up to a shift: a game in which
//!   a heap of one token cannot be taken is listed as the game with every heap
//!   one smaller, so the tables count from the first heap with a move.
//! - Achim Flammenkamp, "Sprague-Grundy Values of Octal-Games"
//!   (wwwhomes.uni-bielefeld.de/achim/octal.html), the source of the solved
//!   list's larger entries (0.16: 105351 and 149459; 0.56: 326640 and 144),
//!   also cited by OEIS A071436 and the README's record table.
//! - Winning Ways, ch. 4: Dawson's Kayles 0.07 (53, 34), Kayles 0.77 (71, 12).
//!
//! The two lists count differently: `TrivialGames.md` from the first heap
//! with a move (its `.4` reads 0 1 1 2 0 3 ..., which is 0.4 from heap 2,
//! prefix 52 where 0.4 counted from heap 0 has 54), `SolvedGames.md` from
//! heap 0 of the game as named (`.45` prefix 498 and `.644` prefix 3256 are
//! the census's own preperiods, though neither can take a heap of one). The
//! checks below put both on the first convention.
//!
//! For every 1-, 2- and 3-digit code `0.d1d2d3` that the lookup table sends
//! to a game listed with a period, the census must find that period, and the
//! listed preperiod once the heaps without a move are taken off.

use grundy::census::{compute, Member};
use grundy::family::Settings;
use grundy::spec::parse_game;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// (representative, preperiod, period) from Czajka's lists (the first two
/// are `4.` and `4.3`, the representatives of some `0.` codes).
const PUBLISHED: &[(&str, u64, u64)] = &[
    ("4", 0, 2),
    ("4.3", 2, 2),
    (".1", 2, 1),
    (".4", 52, 34),
    (".02", 0, 4),
    (".11", 3, 1),
    (".12", 1, 4),
    (".15", 1, 10),
    (".17", 33, 34),
    (".22", 0, 3),
    (".26", 0, 4),
    (".31", 3, 2),
    (".32", 1, 3),
    (".34", 7, 8),
    (".35", 1, 6),
    (".44", 141, 24),
    (".51", 1, 1),
    (".52", 4, 4),
    (".53", 11, 9),
    (".54", 3, 7),
    (".57", 1, 4),
    (".71", 3, 2),
    (".72", 1, 4),
    (".75", 1, 2),
    (".77", 71, 12),
    (".002", 0, 6),
    (".017", 14, 60),
    (".022", 0, 5),
    (".044", 211, 36),
    (".045", 187, 32),
    (".051", 47, 48),
    (".055", 258, 148),
    (".101", 4, 1),
    (".102", 1, 6),
    (".111", 4, 1),
    (".112", 1, 6),
    (".115", 1, 14),
    (".116", 139, 96),
    (".121", 4, 4),
    (".122", 1, 5),
    (".123", 5, 5),
    (".124", 122, 62),
    (".131", 4, 4),
    (".132", 1, 5),
    (".134", 60, 62),
    (".141", 14, 11),
    (".144", 4, 10),
    (".145", 3, 9),
    (".147", 3, 8),
    (".152", 2, 48),
    (".153", 16, 14),
    (".154", 4, 11),
    (".157", 1, 6),
    (".171", 12, 11),
    (".173", 21, 40),
    (".176", 24, 8),
    (".226", 20, 5),
    (".312", 5, 2),
    (".316", 4, 12),
    (".331", 4, 3),
    (".332", 1, 4),
    (".351", 1, 8),
    (".353", 4, 2),
    (".373", 2, 28),
    (".375", 37, 18),
    (".512", 3, 6),
    (".524", 1, 52),
    (".532", 7, 5),
    (".536", 1, 5),
    (".772", 8, 4),
    (".45", 498, 20),
    (".156", 3479, 349),
    (".356", 7315, 142),
    (".644", 3256, 442),
    (".165", 5181, 1550),
    (".127", 46578, 4),
];

/// (code, its representative) from Czajka's `GameLookup.md`, for every code
/// whose representative is in [`PUBLISHED`].
const LOOKUP: &[(&str, &str)] = &[
    ("0.1", ".1"),
    ("0.2", "4"),
    ("0.3", "4"),
    ("0.4", ".4"),
    ("0.5", "4"),
    ("0.7", "4"),
    ("0.01", ".1"),
    ("0.02", ".02"),
    ("0.03", ".02"),
    ("0.05", "4"),
    ("0.07", ".4"),
    ("0.11", ".11"),
    ("0.12", ".12"),
    ("0.13", ".02"),
    ("0.15", ".15"),
    ("0.17", ".17"),
    ("0.21", "4"),
    ("0.22", ".22"),
    ("0.23", ".22"),
    ("0.24", "4"),
    ("0.25", "4"),
    ("0.26", ".26"),
    ("0.27", ".26"),
    ("0.31", ".31"),
    ("0.32", ".32"),
    ("0.33", ".22"),
    ("0.34", ".34"),
    ("0.35", ".35"),
    ("0.41", ".17"),
    ("0.42", ".4"),
    ("0.43", ".17"),
    ("0.44", ".44"),
    ("0.45", ".45"),
    ("0.46", ".44"),
    ("0.47", ".45"),
    ("0.51", ".51"),
    ("0.52", ".52"),
    ("0.53", ".53"),
    ("0.54", ".54"),
    ("0.55", ".51"),
    ("0.57", ".57"),
    ("0.71", ".71"),
    ("0.72", ".72"),
    ("0.73", ".26"),
    ("0.75", ".75"),
    ("0.77", ".77"),
    ("0.001", ".1"),
    ("0.002", ".002"),
    ("0.003", ".002"),
    ("0.011", ".11"),
    ("0.012", "4"),
    ("0.013", ".002"),
    ("0.017", ".017"),
    ("0.021", ".02"),
    ("0.022", ".022"),
    ("0.023", ".022"),
    ("0.031", ".02"),
    ("0.032", ".022"),
    ("0.033", ".022"),
    ("0.041", ".017"),
    ("0.043", ".017"),
    ("0.044", ".044"),
    ("0.045", ".045"),
    ("0.046", ".044"),
    ("0.047", ".045"),
    ("0.051", ".051"),
    ("0.052", "4"),
    ("0.053", ".051"),
    ("0.055", ".055"),
    ("0.057", ".055"),
    ("0.071", ".4"),
    ("0.072", ".4"),
    ("0.073", ".4"),
    ("0.074", ".44"),
    ("0.075", ".44"),
    ("0.076", ".44"),
    ("0.077", ".44"),
    ("0.101", ".101"),
    ("0.102", ".102"),
    ("0.103", "4"),
    ("0.105", "4"),
    ("0.107", "4"),
    ("0.111", ".111"),
    ("0.112", ".112"),
    ("0.113", ".002"),
    ("0.115", ".115"),
    ("0.116", ".116"),
    ("0.117", ".051"),
    ("0.121", ".121"),
    ("0.122", ".122"),
    ("0.123", ".123"),
    ("0.124", ".124"),
    ("0.127", ".127"),
    ("0.131", ".131"),
    ("0.132", ".132"),
    ("0.133", ".022"),
    ("0.134", ".134"),
    ("0.137", ".4"),
    ("0.141", ".141"),
    ("0.144", ".144"),
    ("0.145", ".145"),
    ("0.147", ".147"),
    ("0.151", ".51"),
    ("0.152", ".152"),
    ("0.153", ".153"),
    ("0.154", ".154"),
    ("0.155", ".51"),
    ("0.156", ".156"),
    ("0.157", ".157"),
    ("0.165", ".165"),
    ("0.171", ".171"),
    ("0.173", ".173"),
    ("0.175", ".57"),
    ("0.176", ".176"),
    ("0.177", ".45"),
    ("0.201", ".31"),
    ("0.202", "4"),
    ("0.203", ".71"),
    ("0.211", ".31"),
    ("0.212", "4"),
    ("0.213", ".71"),
    ("0.221", ".22"),
    ("0.222", ".26"),
    ("0.223", ".26"),
    ("0.226", ".226"),
    ("0.227", ".226"),
    ("0.231", ".22"),
    ("0.232", ".26"),
    ("0.233", ".26"),
    ("0.236", ".226"),
    ("0.237", ".226"),
    ("0.241", ".71"),
    ("0.242", "4"),
    ("0.243", ".71"),
    ("0.251", ".71"),
    ("0.252", "4"),
    ("0.253", ".71"),
    ("0.261", ".26"),
    ("0.262", ".26"),
    ("0.263", ".26"),
    ("0.271", ".26"),
    ("0.272", ".26"),
    ("0.273", ".26"),
    ("0.301", "4"),
    ("0.302", "4"),
    ("0.303", "4"),
    ("0.304", "4"),
    ("0.305", "4"),
    ("0.306", "4"),
    ("0.307", "4"),
    ("0.311", ".71"),
    ("0.312", ".312"),
    ("0.313", ".71"),
    ("0.315", ".71"),
    ("0.316", ".316"),
    ("0.317", ".71"),
    ("0.321", ".32"),
    ("0.322", ".72"),
    ("0.323", ".72"),
    ("0.326", ".72"),
    ("0.327", ".72"),
    ("0.331", ".331"),
    ("0.332", ".332"),
    ("0.333", ".26"),
    ("0.335", ".26"),
    ("0.337", ".26"),
    ("0.341", ".34"),
    ("0.351", ".351"),
    ("0.352", "4.3"),
    ("0.353", ".353"),
    ("0.355", ".75"),
    ("0.356", ".356"),
    ("0.357", ".75"),
    ("0.372", ".332"),
    ("0.373", ".373"),
    ("0.375", ".375"),
    ("0.401", ".4"),
    ("0.402", ".4"),
    ("0.403", ".4"),
    ("0.411", ".17"),
    ("0.412", ".173"),
    ("0.413", ".173"),
    ("0.421", ".4"),
    ("0.422", ".4"),
    ("0.423", ".4"),
    ("0.431", ".17"),
    ("0.432", ".173"),
    ("0.433", ".173"),
    ("0.441", ".44"),
    ("0.442", ".44"),
    ("0.443", ".44"),
    ("0.451", ".45"),
    ("0.452", ".45"),
    ("0.453", ".45"),
    ("0.461", ".44"),
    ("0.462", ".44"),
    ("0.463", ".44"),
    ("0.471", ".45"),
    ("0.472", ".45"),
    ("0.473", ".45"),
    ("0.501", "4"),
    ("0.502", "4"),
    ("0.503", "4"),
    ("0.504", "4"),
    ("0.505", "4"),
    ("0.506", "4"),
    ("0.507", "4"),
    ("0.511", ".51"),
    ("0.512", ".512"),
    ("0.513", ".512"),
    ("0.514", ".51"),
    ("0.515", ".51"),
    ("0.516", ".157"),
    ("0.517", ".157"),
    ("0.521", ".52"),
    ("0.522", ".52"),
    ("0.523", ".52"),
    ("0.524", ".524"),
    ("0.525", ".524"),
    ("0.526", ".524"),
    ("0.527", ".524"),
    ("0.531", ".53"),
    ("0.532", ".532"),
    ("0.533", ".532"),
    ("0.534", ".57"),
    ("0.535", ".57"),
    ("0.536", ".536"),
    ("0.537", ".536"),
    ("0.541", ".54"),
    ("0.542", ".54"),
    ("0.543", ".54"),
    ("0.544", ".147"),
    ("0.545", ".147"),
    ("0.546", ".147"),
    ("0.547", ".147"),
    ("0.551", ".51"),
    ("0.552", ".157"),
    ("0.553", ".157"),
    ("0.554", ".51"),
    ("0.555", ".51"),
    ("0.556", ".157"),
    ("0.557", ".157"),
    ("0.571", ".57"),
    ("0.572", ".536"),
    ("0.573", ".536"),
    ("0.574", ".57"),
    ("0.575", ".57"),
    ("0.576", ".536"),
    ("0.577", ".536"),
    ("0.602", ".373"),
    ("0.603", ".373"),
    ("0.612", ".373"),
    ("0.613", ".373"),
    ("0.622", ".373"),
    ("0.623", ".373"),
    ("0.632", ".373"),
    ("0.633", ".373"),
    ("0.644", ".644"),
    ("0.645", ".644"),
    ("0.646", ".644"),
    ("0.647", ".644"),
    ("0.654", ".644"),
    ("0.655", ".644"),
    ("0.656", ".644"),
    ("0.657", ".644"),
    ("0.664", ".644"),
    ("0.665", ".644"),
    ("0.666", ".644"),
    ("0.667", ".644"),
    ("0.674", ".644"),
    ("0.675", ".644"),
    ("0.676", ".644"),
    ("0.677", ".644"),
    ("0.701", "4"),
    ("0.702", "4"),
    ("0.703", "4"),
    ("0.704", "4"),
    ("0.705", "4"),
    ("0.706", "4"),
    ("0.707", "4"),
    ("0.711", ".71"),
    ("0.712", ".71"),
    ("0.713", ".71"),
    ("0.714", ".71"),
    ("0.715", ".71"),
    ("0.716", ".71"),
    ("0.717", ".71"),
    ("0.721", ".72"),
    ("0.722", ".72"),
    ("0.723", ".72"),
    ("0.724", ".72"),
    ("0.725", ".72"),
    ("0.726", ".72"),
    ("0.727", ".72"),
    ("0.731", ".26"),
    ("0.732", ".26"),
    ("0.733", ".26"),
    ("0.734", ".26"),
    ("0.735", ".26"),
    ("0.736", ".26"),
    ("0.737", ".26"),
    ("0.751", ".75"),
    ("0.752", ".75"),
    ("0.753", ".75"),
    ("0.754", ".75"),
    ("0.755", ".75"),
    ("0.756", ".75"),
    ("0.757", ".75"),
    ("0.771", ".77"),
    ("0.772", ".772"),
    ("0.773", ".772"),
];

fn first_values(code: &str, last: u64) -> Vec<u64> {
    let mut family = parse_game(code, Settings::default()).unwrap();
    let mut values = Vec::new();
    family
        .sequence(0, last, &mut |_, v| {
            values.push(v);
            Ok(())
        })
        .unwrap();
    values
}

/// Checks one code against a published (preperiod, period) of its class.
fn check(code: &str, preperiod: u64, period: u64, max: u64) {
    let member = Member::from_code(code).unwrap();
    let row = compute(
        &member,
        max,
        Arc::new(AtomicBool::new(false)),
        Box::new(|_, _| {}),
    )
    .unwrap()
    .row;
    // Heaps 1..=shift have no move: the tables start after them.
    let shift = shift_of(code);
    assert!(
        row.proven,
        "{code}: not proven within {max} heaps ({row:?})"
    );
    assert_eq!(row.period, Some(period), "{code}: period");
    let ours = row.preperiod.unwrap().saturating_sub(shift);
    assert_eq!(
        ours, preperiod,
        "{code}: preperiod {:?} with shift {shift}",
        row.preperiod
    );
}

/// The games of `SolvedGames.md`, whose preperiods count from heap 0.
const FROM_HEAP_ZERO: &[&str] = &[".45", ".156", ".356", ".644", ".165", ".127"];

/// Heaps 1..=shift of a code have no move.
fn shift_of(code: &str) -> u64 {
    first_values(code, 64).iter().position(|&v| v != 0).unwrap() as u64 - 1
}

fn needed(preperiod: u64, period: u64) -> u64 {
    (2 * preperiod + 2 * period + 64)
        .next_power_of_two()
        .clamp(4096, 1 << 17)
}

#[test]
fn every_code_mapped_to_a_published_period_has_it() {
    let mut checked = 0;
    for &(code, representative) in LOOKUP {
        let &(_, e, p) = PUBLISHED.iter().find(|k| k.0 == representative).unwrap();
        let e = if FROM_HEAP_ZERO.contains(&representative) {
            e.saturating_sub(shift_of(&format!("0{representative}")))
        } else {
            e
        };
        check(code, e, p, needed(e + 8, p));
        checked += 1;
    }
    assert!(checked > 300);
}

#[test]
fn winning_ways_by_hand() {
    check("0.07", 52, 34, 4096); // Dawson's Kayles: preperiod 53 counted from heap 0
    let row = compute(
        &Member::from_code("0.07").unwrap(),
        4096,
        Arc::new(AtomicBool::new(false)),
        Box::new(|_, _| {}),
    )
    .unwrap()
    .row;
    assert_eq!((row.preperiod, row.period), (Some(53), Some(34)));
    check("0.77", 71, 12, 4096);
}

/// Czajka's corrections of earlier tables, which the census confirms:
/// Winning Ways' locator sends .27 to .06, but .27 is .26 (identical
/// sequences); Flammenkamp's tables call .161 and .36 equivalent, but they
/// first differ at heap 519.
#[test]
fn corrections_of_earlier_tables() {
    let max = 4096;
    assert_eq!(first_values("0.27", max), first_values("0.26", max));
    assert_ne!(first_values("0.27", 200), first_values("0.06", 200));
    let a = first_values("0.161", 2000);
    let b = first_values("0.36", 2000);
    let first = (0..a.len()).find(|&i| a[i] != b[i]);
    assert_eq!(first, Some(519));
}

/// Flammenkamp's 0.16 (preperiod 105351, period 149459) and Gangolli and
/// Plambeck's 0.56 (326640, 144) need a census to 2^20 heaps:
/// `cargo test --release -p grundy --test census_published -- --ignored`.
#[test]
#[ignore]
fn the_long_ones_to_two_to_the_twenty() {
    check("0.16", 105351, 149459, 1 << 20);
    check("0.56", 326640, 144, 1 << 20);
}
