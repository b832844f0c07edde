//! `grundy play`: a game against the computer in the terminal, speaking the
//! line protocol of DESIGN.md so that programs can play too.
//!
//! Every turn prints the board, then one line `position: P1 P2 ...` (the
//! components in order; an emptied component disappears, and a split one is
//! replaced by its parts in place). On the person's turn it prints the line
//! `your move?` and reads `I:RESULT`, `hint`, `undo` or `quit`. The game ends
//! with a line `winner: computer` or `winner: you` (or `winner: none` when a
//! loopy game repeats a position three times).

use crate::{io_error, Failure};
use grundy::play::{apply, assess, choose_move, legal_moves, SumMove};
use grundy::sum::{Component, Sum, Winner};
use grundy::Error;
use std::collections::HashMap;
use std::io::{BufRead, Write};

/// Who moves first.
#[derive(clap::ValueEnum, Clone, Copy, PartialEq, Eq, Debug)]
pub enum First {
    /// The person.
    Me,
    /// The computer.
    Computer,
}

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Turn {
    Person,
    Computer,
}

fn positions(sum: &Sum) -> String {
    sum.components()
        .iter()
        .map(|c| sum.format(c.family, &c.position))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A move as the person would type it: `2:3`, `1:2+5`, `3:`.
fn describe(sum: &Sum, mv: &SumMove) -> String {
    let family = sum.components()[mv.component].family;
    let parts: Vec<String> = mv.to.iter().map(|p| sum.format(family, p)).collect();
    format!("{}:{}", mv.component + 1, parts.join("+"))
}

fn board(out: &mut impl Write, sum: &Sum) -> std::io::Result<()> {
    if sum.components().is_empty() {
        return writeln!(out, "(nothing left)");
    }
    for (i, c) in sum.components().iter().enumerate() {
        let family = sum.family(c.family);
        let shown = family.show(&c.position);
        let mut lines = shown.lines();
        writeln!(
            out,
            "{:>3}. {}: {}",
            i + 1,
            family.spec(),
            lines.next().unwrap_or("")
        )?;
        for line in lines {
            writeln!(out, "     {line}")?;
        }
    }
    Ok(())
}

/// Reads `I:RESULT` into a legal move, or says what is wrong.
fn parse_move(sum: &mut Sum, text: &str) -> Result<SumMove, String> {
    let Some((index, result)) = text.split_once(':') else {
        return Err(
            "write a move as I:RESULT (component I becomes RESULT), or hint, undo, quit".into(),
        );
    };
    let count = sum.components().len();
    let index: usize = match index.trim().parse() {
        Ok(i) if (1..=count).contains(&i) => i - 1,
        _ => {
            return Err(format!(
                "the component number must be between 1 and {count}"
            ))
        }
    };
    let component = sum.components()[index].clone();
    let family = sum.family_mut(component.family);
    let legal = family
        .moves(&component.position)
        .map_err(|e| e.to_string())?;
    let found = |wanted: &mut Vec<grundy::Position>| {
        wanted.sort();
        legal.iter().find(|m| {
            let mut to = m.to.clone();
            to.sort();
            to == *wanted
        })
    };
    let chosen = |m: &grundy::family::Move| SumMove {
        component: index,
        to: m.to.clone(),
    };
    // The parts as typed, without empty heaps (`1:0` empties a heap).
    let typed: Vec<&str> = result
        .split('+')
        .map(str::trim)
        .filter(|p| !(p.is_empty() || family.is_heap_game() && *p == "0"))
        .collect();
    // First as the moves are written (`position:` lines, hints), so that a
    // position is never read back through a game's own parsing of text...
    let mut sorted_typed = typed.clone();
    sorted_typed.sort_unstable();
    for m in &legal {
        let mut written: Vec<String> = m.to.iter().map(|p| family.format(p)).collect();
        written.sort_unstable();
        if written == sorted_typed {
            return Ok(chosen(m));
        }
    }
    // ... then a shorthand (a Treblecross cell number), then as a person
    // writes a new position.
    if let Some(mut parts) = family.shorthand(&component.position, result) {
        if let Some(m) = found(&mut parts) {
            return Ok(chosen(m));
        }
    }
    let mut parts = Vec::new();
    let mut unreadable = None;
    for part in &typed {
        match family.parse(part) {
            Ok(position) if family.is_heap_game() && position.as_u64() == Some(0) => {}
            Ok(position) => parts.push(position),
            Err(e) => {
                // A malformed position is worth explaining; a script's own
                // failure to read it is not (the legal moves say enough).
                let detail = matches!(e, grundy::Error::Syntax { .. });
                unreadable = Some(detail.then(|| format!("{part}: {e}")));
                break;
            }
        }
    }
    if unreadable.is_none() {
        if let Some(m) = found(&mut parts) {
            return Ok(chosen(m));
        }
    }
    // Not a legal move: say so, and show some that are.
    let some: Vec<String> = legal
        .iter()
        .take(8)
        .map(|m| {
            let to: Vec<String> = m.to.iter().map(|p| family.format(p)).collect();
            format!("{}:{}", index + 1, to.join("+"))
        })
        .collect();
    let more = if legal.len() > some.len() { " ..." } else { "" };
    let why = match (unreadable, legal.is_empty()) {
        (_, true) => "; this component has no moves left".to_string(),
        (Some(Some(e)), false) if parts.is_empty() && typed.len() == 1 => {
            format!(" ({e}); legal moves here: {}{more}", some.join(" "))
        }
        _ => format!("; legal moves here: {}{more}", some.join(" ")),
    };
    Err(format!(
        "{} -> {} is not a legal move in {}{why}",
        family.format(&component.position),
        if typed.is_empty() {
            "(nothing)".to_string()
        } else {
            typed.join("+")
        },
        family.spec()
    ))
}

/// Plays one game; `input` gives the person's lines.
pub fn run(
    sum: &mut Sum,
    misere: bool,
    first: First,
    max_states: usize,
    input: &mut impl BufRead,
    out: &mut impl Write,
) -> Result<(), Failure> {
    let mut turn = if first == First::Me {
        Turn::Person
    } else {
        Turn::Computer
    };
    // The components before each move made, with who made it; undo pops them.
    let mut history: Vec<(Vec<Component>, Turn)> = Vec::new();
    // How often each position (with the player to move) has been reached by
    // the moves on the board now: the start, then one count a move. Undo takes
    // back the counts of the moves it takes back, so only moves repeat.
    let mut seen: HashMap<(String, Turn), u32> = HashMap::new();
    let mut reached: Vec<(String, Turn)> = Vec::new();
    let mut arrived = true;
    let play = if misere {
        "misère play: whoever moves last loses"
    } else {
        "normal play: whoever moves last wins"
    };
    writeln!(out, "{play}. Moves are I:RESULT; also hint, undo, quit.").map_err(io_error)?;
    loop {
        writeln!(out).map_err(io_error)?;
        board(out, sum).map_err(io_error)?;
        writeln!(out, "position: {}", positions(sum)).map_err(io_error)?;
        if std::mem::take(&mut arrived) {
            let key = (positions(sum), turn);
            let repeats = seen.entry(key.clone()).or_insert(0);
            *repeats += 1;
            reached.push(key);
            if *repeats >= 3 {
                writeln!(out, "the same position has come up three times: a draw")
                    .map_err(io_error)?;
                writeln!(out, "winner: none").map_err(io_error)?;
                return out.flush().map_err(io_error);
            }
        }
        if legal_moves(sum)?.is_empty() {
            // The player to move cannot: in normal play they lose.
            let mover_loses = !misere;
            let winner = match (turn, mover_loses) {
                (Turn::Person, true) | (Turn::Computer, false) => "computer",
                _ => "you",
            };
            writeln!(out, "no moves are left").map_err(io_error)?;
            writeln!(out, "winner: {winner}").map_err(io_error)?;
            return out.flush().map_err(io_error);
        }
        let chosen = match turn {
            Turn::Computer => {
                let mv = choose_move(sum, misere, max_states)?.expect("a legal move exists");
                writeln!(out, "computer plays {}", describe(sum, &mv)).map_err(io_error)?;
                mv
            }
            Turn::Person => {
                writeln!(out, "your move?").map_err(io_error)?;
                out.flush().map_err(io_error)?;
                let mut line = String::new();
                if input
                    .read_line(&mut line)
                    .map_err(|e| Error::Io(e.to_string()))?
                    == 0
                {
                    writeln!(out, "end of input: game abandoned").map_err(io_error)?;
                    return out.flush().map_err(io_error);
                }
                match line.trim() {
                    "quit" => {
                        writeln!(out, "game abandoned").map_err(io_error)?;
                        return out.flush().map_err(io_error);
                    }
                    "hint" => {
                        let (winner, winning, drawing) = assess(sum, misere, max_states)?;
                        match (winner, winning.is_empty()) {
                            (Winner::First, false) => {
                                let list: Vec<String> =
                                    winning.iter().take(20).map(|m| describe(sum, m)).collect();
                                writeln!(out, "hint: winning moves: {}", list.join(" "))
                                    .map_err(io_error)?
                            }
                            (Winner::Draw, _) if !drawing.is_empty() => {
                                let list: Vec<String> =
                                    drawing.iter().take(20).map(|m| describe(sum, m)).collect();
                                writeln!(
                                    out,
                                    "hint: no winning move; these keep the draw: {}",
                                    list.join(" ")
                                )
                                .map_err(io_error)?
                            }
                            _ => writeln!(out, "hint: there is no winning move here")
                                .map_err(io_error)?,
                        }
                        // Show the same position again.
                        continue;
                    }
                    "undo" => {
                        // Back to the person's previous turn, if they had one.
                        let Some(last) = history.iter().rposition(|(_, was)| *was == Turn::Person)
                        else {
                            writeln!(out, "nothing to undo: you have not moved yet")
                                .map_err(io_error)?;
                            continue;
                        };
                        let (components, _) = history[last].clone();
                        let taken_back = history.len() - last;
                        history.truncate(last);
                        for _ in 0..taken_back {
                            let key = reached.pop().expect("one count a move");
                            *seen.get_mut(&key).expect("counted") -= 1;
                        }
                        sum.set_components(components);
                        turn = Turn::Person;
                        let noun = if taken_back == 1 { "move" } else { "moves" };
                        writeln!(out, "undone: {taken_back} {noun} taken back")
                            .map_err(io_error)?;
                        continue;
                    }
                    "" => continue,
                    text => match parse_move(sum, text) {
                        Ok(mv) => mv,
                        Err(why) => {
                            writeln!(out, "{why}; try again").map_err(io_error)?;
                            continue;
                        }
                    },
                }
            }
        };
        history.push((sum.components().to_vec(), turn));
        let family = sum.components()[chosen.component].family;
        let ends = chosen.to.iter().any(|p| sum.family(family).ends_game(p));
        sum.set_components(apply(sum.components(), &chosen));
        if ends {
            board(out, sum).map_err(io_error)?;
            let winner = if turn == Turn::Computer {
                "computer"
            } else {
                "you"
            };
            writeln!(out, "three in a row!").map_err(io_error)?;
            writeln!(out, "winner: {winner}").map_err(io_error)?;
            return out.flush().map_err(io_error);
        }
        turn = if turn == Turn::Person {
            Turn::Computer
        } else {
            Turn::Person
        };
        arrived = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use grundy::family::Settings;
    use grundy::spec::parse_sum;
    use proptest::prelude::*;

    /// Plays `lines` as the person's input and returns everything printed.
    fn transcript(words: &[&str], first: First, lines: &[String]) -> String {
        let args: Vec<String> = words.iter().map(|w| w.to_string()).collect();
        let mut sum = parse_sum(&args, Settings::default()).unwrap();
        let input = lines.join("\n") + "\n";
        let mut out = Vec::new();
        run(
            &mut sum,
            false,
            first,
            1_000_000,
            &mut input.as_bytes(),
            &mut out,
        )
        .unwrap_or_else(|_| panic!("play failed"));
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn undo_with_nothing_to_undo_changes_nothing() {
        let text = transcript(
            &["nim", "3", "4", "5"],
            First::Me,
            &["undo".into(), "undo".into()],
        );
        assert_eq!(text.matches("nothing to undo").count(), 2, "{text}");
        assert!(!text.contains("winner"), "{text}");
        // The computer moved first: its move is not the person's to take back.
        let text = transcript(&["nim", "3", "4", "5"], First::Computer, &["undo".into()]);
        assert!(text.contains("nothing to undo"), "{text}");
        assert_eq!(text.matches("computer plays").count(), 1, "{text}");
    }

    #[test]
    fn undo_takes_back_the_persons_move_and_the_reply() {
        let text = transcript(
            &["nim", "3", "4", "5"],
            First::Me,
            &["1:0".into(), "undo".into()],
        );
        assert!(text.contains("undone: 2 moves taken back"), "{text}");
        let last = text.rsplit("position:").next().unwrap();
        assert!(last.trim_start().starts_with("3 4 5"), "{text}");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        /// Nim cannot draw: no mix of moves, undos and hints makes it one.
        #[test]
        fn moves_and_undos_never_draw_an_acyclic_game(
            script in proptest::collection::vec((0u8..4, 1usize..4, 0u64..6), 0..40),
            computer_first in any::<bool>(),
        ) {
            let lines: Vec<String> = script
                .iter()
                .map(|&(kind, component, heap)| match kind {
                    0 => "undo".to_string(),
                    1 => "hint".to_string(),
                    _ => format!("{component}:{heap}"),
                })
                .collect();
            let first = if computer_first { First::Computer } else { First::Me };
            let text = transcript(&["nim", "3", "4", "5"], first, &lines);
            prop_assert!(!text.contains("winner: none"), "{}", text);
            prop_assert!(!text.contains("three times"), "{}", text);
        }
    }

    /// In a loopy game, undoing at the same position over and over is no
    /// repetition; moves that come back to it are.
    #[test]
    fn in_a_loopy_game_only_moves_repeat_a_position() {
        let dir = std::env::temp_dir().join(format!("grundy-play-undo-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let graph = dir.join("g.txt");
        std::fs::write(&graph, "x y\ny x\n").unwrap();
        let spec = format!("dag:{}", graph.display());
        let mut lines = vec![];
        for _ in 0..5 {
            lines.push("1:y".to_string());
            lines.push("undo".to_string());
        }
        let text = transcript(&[&spec, "x"], First::Me, &lines);
        assert!(!text.contains("winner: none"), "{text}");
        assert_eq!(text.matches("undone: 2 moves").count(), 5, "{text}");
        // Moves alone: x (start), x after two moves, x after four: a draw.
        let text = transcript(&[&spec, "x"], First::Me, &["1:y".into(), "1:y".into()]);
        assert!(text.contains("winner: none"), "{text}");
        std::fs::remove_dir_all(&dir).ok();
    }
}
