//! The one error type of the library: every failure a user can cause, worded for them.

use thiserror::Error;

/// What went wrong, in words a user of the command line can act on.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum Error {
    /// Text that does not parse: a game spec or a position. `column` (0-based,
    /// in characters) points at the offending character of `input`, when known.
    #[error("{message}")]
    Syntax {
        /// What is wrong, in words.
        message: String,
        /// The text that was read.
        input: String,
        /// The offending character's index in `input`, when known.
        column: Option<usize>,
    },
    /// Well-formed input that names something impossible (an out-of-board
    /// square, an unknown vertex, a parameter that makes no game).
    #[error("{0}")]
    Invalid(String),
    /// The move graph has a cycle; normal-play values need a finite game.
    #[error("the game has a cycle through {}; its positions have no Grundy value (normal play needs every game to end)", .positions.join(" -> "))]
    Cycle {
        /// The positions of the cycle, in move order, in command-line syntax.
        positions: Vec<String>,
    },
    /// The search needed more states than the budget allows.
    #[error("gave up after {limit} positions (the state budget); raise it with --max-states if you have the memory")]
    Budget {
        /// The budget, in positions (`--max-states`).
        limit: usize,
    },
    /// The state budget ran out in a game whose positions are a user's own
    /// (a script, a graph), where a count of positions says little: the
    /// message names the memory they held and the memory budget as well.
    #[error("gave up after {limit} positions (the state budget, --max-states), holding {held} of memory (the budget is {budget}, --max-memory); a game whose positions never end needs a bound, or raise --max-states and, if it needs more memory, --max-memory")]
    PositionsExhausted {
        /// The budget, in positions (`--max-states`).
        limit: usize,
        /// The memory the process held then, in words (`35 MB`).
        held: String,
        /// The memory budget, in words (`11.8 GB, half of this machine's memory`).
        budget: String,
    },
    /// A position too large for any method available for this game.
    #[error("{0}")]
    TooLarge(String),
    /// The user interrupted a long computation; the message says what was kept.
    #[error("{0}")]
    Interrupted(String),
    /// A file could not be read or written.
    #[error("{0}")]
    Io(String),
}

impl Error {
    /// A syntax error pointing at `column` of `input`.
    pub fn syntax(message: impl Into<String>, input: &str, column: Option<usize>) -> Self {
        Error::Syntax {
            message: message.into(),
            input: input.to_string(),
            column,
        }
    }

    /// An error about well-formed but impossible input.
    pub fn invalid(message: impl Into<String>) -> Self {
        Error::Invalid(message.into())
    }
}

/// The library's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;
