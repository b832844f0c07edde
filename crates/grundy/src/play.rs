//! Choosing the computer's move in a sum: a perfect player that, when it
//! cannot win, makes winning as hard as it can for its opponent.
//!
//! With a winning move it plays one (normal play by the Sprague-Grundy
//! theorem, misère play by [`crate::misere`]). In a drawn loopy sum it keeps
//! the draw. Otherwise every legal move is tried and it prefers the one after
//! which the opponent has the fewest winning replies, then the one leaving
//! the most moves on the board (a longer game with more chances to go wrong).

use crate::error::Result;
use crate::family::Move;
use crate::misere;
use crate::sum::{Component, Sum, Winner};

/// A move in a sum: component `component` (0-based) becomes the parts `to`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SumMove {
    /// Index of the component moved in.
    pub component: usize,
    /// What it leaves.
    pub to: Vec<crate::position::Position>,
}

/// The components after `mv`.
pub fn apply(components: &[Component], mv: &SumMove) -> Vec<Component> {
    misere::after_move(
        components,
        mv.component,
        &Move {
            to: mv.to.clone(),
            value: crate::Value::zero(),
        },
    )
}

/// Every legal move of the sum, component by component.
pub fn legal_moves(sum: &mut Sum) -> Result<Vec<SumMove>> {
    let components = sum.components().to_vec();
    let mut out = Vec::new();
    for (index, c) in components.iter().enumerate() {
        for m in sum.family_mut(c.family).moves(&c.position)? {
            out.push(SumMove {
                component: index,
                to: m.to,
            });
        }
    }
    Ok(out)
}

/// The winner and winning moves of the sum as it stands.
pub fn assess(
    sum: &mut Sum,
    misere_play: bool,
    max_states: usize,
) -> Result<(Winner, Vec<SumMove>, Vec<SumMove>)> {
    let limit = 10_000;
    let plain = |moves: Vec<crate::sum::WinningMove>| -> Vec<SumMove> {
        moves
            .into_iter()
            .map(|m| SumMove {
                component: m.component,
                to: m.to,
            })
            .collect()
    };
    if misere_play {
        let a = misere::analyze(sum, limit, max_states)?;
        return Ok((a.winner, plain(a.winning_moves), vec![]));
    }
    let a = sum.analyze(limit)?;
    Ok((a.winner, plain(a.winning_moves), plain(a.drawing_moves)))
}

/// The computer's choice, or `None` when there is no legal move.
pub fn choose_move(sum: &mut Sum, misere_play: bool, max_states: usize) -> Result<Option<SumMove>> {
    let (_, winning, drawing) = assess(sum, misere_play, max_states)?;
    if let Some(first) = winning.into_iter().next() {
        return Ok(Some(first));
    }
    if let Some(first) = drawing.into_iter().next() {
        return Ok(Some(first));
    }
    let moves = legal_moves(sum)?;
    let original = sum.components().to_vec();
    let mut best: Option<(usize, std::cmp::Reverse<usize>, SumMove)> = None;
    for mv in moves {
        sum.set_components(apply(&original, &mv));
        let replies = assess(sum, misere_play, max_states).map(|(_, w, _)| w.len());
        let room = legal_moves(sum).map(|m| m.len());
        sum.set_components(original.clone());
        let (replies, room) = (replies?, room?);
        let key = (replies, std::cmp::Reverse(room));
        if best.as_ref().is_none_or(|(r, m, _)| key < (*r, *m)) {
            best = Some((key.0, key.1, mv));
        }
    }
    Ok(best.map(|(_, _, mv)| mv))
}
