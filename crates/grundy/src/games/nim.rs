//! Nim: take any positive number of stones from a heap. A heap of n has value n
//! (Bouton, 1901), so heaps of any size are answered without search.

use crate::error::Result;
use crate::family::{heap_of, parse_heap, Family, Move};
use crate::nimber::Value;
use crate::position::Position;
use num_bigint::BigUint;

/// Heaps from which any positive number may be taken.
#[derive(Debug, Default, Clone)]
pub struct Nim {
    spec: String,
    /// Raised (by Ctrl-C, say) to stop a long [`Family::sequence`].
    interrupted: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
}

/// The most moves [`Nim::moves`] lists before asking for a smaller heap.
const MAX_LISTED_MOVES: u64 = 10_000_000;

impl Nim {
    /// Nim under the name `spec` (`nim`, or `northcott` for its columns).
    pub fn new(spec: impl Into<String>) -> Self {
        Nim {
            spec: spec.into(),
            interrupted: None,
        }
    }
}

impl Family for Nim {
    fn spec(&self) -> String {
        self.spec.clone()
    }

    fn configure_long_run(&mut self, run: crate::family::LongRun) {
        self.interrupted = Some(run.interrupted);
    }

    fn parse(&self, text: &str) -> Result<Position> {
        Ok(Position::heap(parse_heap(text)?))
    }

    fn value(&mut self, position: &Position) -> Result<Value> {
        Ok(Value::Finite(heap_of(position, &self.spec)?))
    }

    fn moves(&mut self, position: &Position) -> Result<Vec<Move>> {
        let n = heap_of(position, &self.spec)?;
        let n = u64::try_from(&n)
            .ok()
            .filter(|n| *n <= MAX_LISTED_MOVES)
            .ok_or_else(|| {
                crate::Error::TooLarge(format!(
                    "a heap of {n} has too many moves to list one by one"
                ))
            })?;
        Ok((0..n)
            .rev()
            .map(|m| Move {
                to: if m == 0 {
                    vec![]
                } else {
                    vec![Position::from(m)]
                },
                value: Value::finite(m),
            })
            .collect())
    }

    fn moves_to(&mut self, position: &Position, target: &Value, limit: usize) -> Result<Vec<Move>> {
        let n = heap_of(position, &self.spec)?;
        Ok(match target {
            Value::Finite(t) if *t < n && limit > 0 => vec![Move {
                to: if *t == BigUint::default() {
                    vec![]
                } else {
                    vec![Position::heap(t.clone())]
                },
                value: target.clone(),
            }],
            _ => vec![],
        })
    }

    fn is_heap_game(&self) -> bool {
        true
    }

    fn show(&self, position: &Position) -> String {
        crate::family::show_heap(position)
    }

    fn period(&mut self, _max: u64) -> Result<crate::period::PeriodReport> {
        Ok(crate::period::PeriodReport {
            periodicity: Some(crate::period::Periodicity {
                preperiod: 0,
                period: 1,
                saltus: 1,
                block: vec![0],
                prefix: vec![],
            }),
            proven: true,
            method: "closed form: a heap of n has value n (Bouton 1901), arithmetic-periodic with saltus 1".into(),
            checked_to: 0,
        })
    }

    fn sequence(
        &mut self,
        from: u64,
        to: u64,
        sink: &mut dyn FnMut(u64, u64) -> Result<()>,
    ) -> Result<()> {
        for n in from..=to {
            crate::family::stream_stopped(self.interrupted.as_deref(), n)?;
            sink(n, n)?;
        }
        Ok(())
    }
}
