//! The JSON objects of the command line's `--json` output, built in one place
//! so that every face of the library (the command line, the web server, the
//! Python module) speaks exactly the same language.

use crate::error::Result;
use crate::family::Family;
use crate::misere::MisereAnalysis;
use crate::period::PeriodReport;
use crate::position::Position;
use crate::spec::FAMILIES;
use crate::sum::{Analysis, Sum, WinningMove};
use crate::Value;
use serde_json::{json, Value as Json};

/// A value: a number when it fits in 64 bits, else its text (huge values as
/// digits, loopy ones as `inf(0,2)`).
pub fn value(value: &Value) -> Json {
    match value.as_u64() {
        Some(n) => json!(n),
        None => json!(value.to_string()),
    }
}

/// Moves as `{"component": i, "from": "POS", "to": [...]}`, positions written
/// in their family's syntax, components counted from 0.
pub fn moves(sum: &Sum, moves: &[WinningMove]) -> Vec<Json> {
    moves
        .iter()
        .map(|m| move_object(sum, m.component, &m.from, &m.to))
        .collect()
}

/// One move of component `component` from `from` to the parts `to`.
pub fn move_object(sum: &Sum, component: usize, from: &Position, to: &[Position]) -> Json {
    let family = sum.components()[component].family;
    let to: Vec<String> = to.iter().map(|p| sum.format(family, p)).collect();
    json!({"component": component, "from": sum.format(family, from), "to": to})
}

/// `grundy value --json`.
pub fn value_object(sum: &Sum, analysis: &Analysis) -> Json {
    let components: Vec<Json> = sum
        .components()
        .iter()
        .zip(&analysis.values)
        .enumerate()
        .map(|(index, (c, v))| {
            let mut entry = json!({
                "game": sum.family(c.family).spec(),
                "position": sum.format(c.family, &c.position),
                "grundy": value(v),
            });
            if analysis.unlisted.iter().any(|(i, _)| *i == index) {
                entry["winning_moves_unlisted"] = json!(true);
            }
            entry
        })
        .collect();
    json!({
        "components": components,
        "nim_sum": value(&analysis.nim_sum),
        "winner": analysis.winner.as_str(),
        "winning_moves": moves(sum, &analysis.winning_moves),
        // Moves of an unlisted component may exist and are not listed.
        "winning_moves_truncated": analysis.truncated || !analysis.unlisted.is_empty(),
        "drawing_moves": moves(sum, &analysis.drawing_moves),
    })
}

/// `grundy value --misere --json`.
pub fn misere_object(sum: &Sum, analysis: &MisereAnalysis) -> Json {
    let components: Vec<Json> = sum
        .components()
        .iter()
        .enumerate()
        .map(|(index, c)| {
            let mut entry = json!({
                "game": sum.family(c.family).spec(),
                "position": sum.format(c.family, &c.position),
            });
            if let Some(genus) = analysis.genera.get(index) {
                entry["genus"] = json!(genus);
            }
            if analysis.unlisted.contains(&index) {
                entry["winning_moves_unlisted"] = json!(true);
            }
            entry
        })
        .collect();
    json!({
        "play": "misere",
        "method": analysis.method,
        "components": components,
        "winner": analysis.winner.as_str(),
        "winning_moves": moves(sum, &analysis.winning_moves),
        "winning_moves_truncated": analysis.truncated,
    })
}

/// `grundy period --json`.
pub fn period_object(family: &dyn Family, report: &PeriodReport) -> Json {
    let p = report.periodicity.as_ref();
    json!({
        "game": family.spec(),
        "preperiod": p.map(|p| p.preperiod),
        "period": p.map(|p| p.period),
        "saltus": p.map(|p| p.saltus),
        "proven": report.proven,
        "method": report.method,
        "checked_to": report.checked_to,
        "block": p.map(|p| p.block.clone()),
    })
}

/// `grundy table --json`: `{"table": [[...], ...]}`, rows first.
pub fn table_object(rows: &[Vec<Value>]) -> Json {
    let rows: Vec<Vec<Json>> = rows.iter().map(|r| r.iter().map(value).collect()).collect();
    json!({ "table": rows })
}

/// `grundy games --json`: every family with its syntax, positions, an
/// example and a line on its rules.
pub fn games_object() -> Json {
    let games: Vec<Json> = FAMILIES
        .iter()
        .map(|info| {
            json!({
                "spec": info.syntax,
                "position": info.position,
                "example": info.example,
                "about": info.about,
            })
        })
        .collect();
    json!({ "games": games })
}

/// The most options `explain` lists.
pub const EXPLAIN_OPTIONS: usize = 10_000;

/// `grundy explain --json`: a position's options with their values, and the
/// mex that gives the position's own value.
///
/// `mex` is the minimum excludant of the options' values when they are all
/// finite and all listed; the position's `grundy` is the family's answer
/// (which, for a loopy game, may not be a mex at all).
pub fn explain_object(family: &mut dyn Family, position: &Position) -> Result<Json> {
    let grundy = family.value(position)?;
    let (options, truncated) = family.first_moves(position, EXPLAIN_OPTIONS)?;
    let mut finite: Vec<Option<u64>> = Vec::new();
    let listed: Vec<Json> = options
        .iter()
        .map(|m| {
            finite.push(m.value.as_u64());
            let to: Vec<String> = m.to.iter().map(|p| family.format(p)).collect();
            json!({"to": to, "grundy": value(&m.value)})
        })
        .collect();
    let mut object = json!({
        "game": family.spec(),
        "position": family.format(position),
        "options": listed,
        "options_truncated": truncated,
        "grundy": value(&grundy),
    });
    if !truncated && finite.iter().all(Option::is_some) {
        let mut values: Vec<u64> = finite.into_iter().flatten().collect();
        values.sort_unstable();
        values.dedup();
        let mex = values
            .iter()
            .enumerate()
            .find(|&(i, &v)| v != i as u64)
            .map_or(values.len() as u64, |(i, _)| i as u64);
        object["mex"] = json!(mex);
    }
    Ok(object)
}

/// The sum written back as the command line's words: `nim 3 5 + sub:1-3 4`.
///
/// Consecutive components of one family share its name; the family is
/// written as its [`Family::spec`], which reads back as the same game.
pub fn sum_text(sum: &Sum) -> String {
    let mut groups: Vec<String> = Vec::new();
    let mut last = None;
    for c in sum.components() {
        let position = sum.format(c.family, &c.position);
        if last == Some(c.family) {
            let group = groups.last_mut().expect("a group was started");
            group.push(' ');
            group.push_str(&position);
        } else {
            groups.push(format!("{} {position}", sum.family(c.family).spec()));
            last = Some(c.family);
        }
    }
    groups.join(" + ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::family::Settings;
    use crate::spec::{parse_game, parse_sum};

    fn words(text: &str) -> Vec<String> {
        text.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn explain_works_out_the_mex() {
        // The tutorials' take-1-to-3 game: heap 5 has options 4, 3, 2 with
        // values 0, 3, 2, so mex = 1.
        let mut family = parse_game("sub:1,2,3", Settings::default()).unwrap();
        let position = family.parse("5").unwrap();
        let object = explain_object(family.as_mut(), &position).unwrap();
        assert_eq!(object["mex"], 1);
        assert_eq!(object["grundy"], 1);
        let values: Vec<u64> = object["options"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| o["grundy"].as_u64().unwrap())
            .collect();
        assert_eq!(values, [0, 3, 2]);
    }

    #[test]
    fn explain_of_a_split_gives_the_parts() {
        let mut family = parse_game("0.07", Settings::default()).unwrap();
        let position = family.parse("6").unwrap();
        let object = explain_object(family.as_mut(), &position).unwrap();
        assert!(object["options"].as_array().unwrap().iter().any(|o| o["to"]
            .as_array()
            .unwrap()
            .len()
            == 2));
        assert_eq!(object["mex"], object["grundy"]);
    }

    #[test]
    fn sum_text_reads_back_as_the_same_sum() {
        for text in [
            "nim 3 5 7",
            "sub:1,2,3 4 + nim 7 + sub:1,2,3 9",
            "knight:8 3,4 + choco 3x5 + treblecross ..X..",
            "0.137 20 + grundy 9",
        ] {
            let sum = parse_sum(&words(text), Settings::default()).unwrap();
            let written = sum_text(&sum);
            let again = parse_sum(&words(&written), Settings::default()).unwrap();
            assert_eq!(sum_text(&again), written, "{text}");
            assert_eq!(sum.components().len(), again.components().len());
        }
    }
}
