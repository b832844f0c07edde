//! The budgets of requests, the flag that stops one, and the error answer.

use grundy::family::{LongRun, Settings};
use grundy::sum::Sum;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// The budgets of the API's requests.
#[derive(Debug, Clone)]
pub struct Limits {
    /// Who answers, as messages name it: "server" (`grundy serve`) or "page"
    /// (the WebAssembly worker).
    pub place: &'static str,
    /// The most positions one request may remember (memo solvers, tables).
    pub max_states: usize,
    /// The transposition table of a search, in bytes.
    pub tt_bytes: usize,
    /// Seconds one request may compute before it gets an error.
    pub seconds: u64,
    /// The most heaps a long run (`/api/jobs`) may tabulate (heaps 0 to 10^8).
    pub max_heaps: u64,
    /// Seconds a long run may compute.
    pub job_seconds: u64,
    /// How many computations may run at once.
    pub heavy: usize,
    /// The largest request body, in bytes.
    pub max_body: usize,
}

impl Default for Limits {
    /// The server's budgets.
    fn default() -> Self {
        Limits {
            place: "server",
            max_states: 5_000_000,
            // Searches on a shared server get a modest table.
            tt_bytes: 256 << 20,
            seconds: 20,
            max_heaps: 100_000_001,
            job_seconds: 600,
            heavy: 4,
            max_body: 1 << 20,
        }
    }
}

impl Limits {
    /// The settings a request computes with.
    pub fn settings(&self) -> Settings {
        Settings {
            max_states: self.max_states,
            tt_bytes: self.tt_bytes,
        }
    }
}

/// What a computation must watch: the flag that tells it to stop.
#[derive(Default)]
pub struct Budget {
    /// Set to stop the computation.
    pub stop: Arc<AtomicBool>,
}

impl Budget {
    /// The long-run settings that make a family stop when told to.
    pub fn long_run(&self) -> LongRun {
        LongRun {
            progress: Box::new(|_, _| {}),
            interrupted: self.stop.clone(),
            checkpoint: None,
            checkpoint_every: Duration::from_secs(3600),
        }
    }

    /// Makes every family of `sum` stop when told to.
    pub fn watch(&self, sum: &mut Sum) {
        let families: std::collections::BTreeSet<usize> =
            sum.components().iter().map(|c| c.family).collect();
        for index in families {
            sum.family_mut(index).configure_long_run(self.long_run());
        }
        // Searches over the whole sum (misère play) stop too.
        sum.watch(self.stop.clone(), Box::new(|_, _| {}));
    }
}

/// An error answer: an HTTP status and `{"error": "..."}`.
#[derive(Debug)]
pub struct ApiError {
    /// The HTTP status: 400 for a request that asks for something wrong or
    /// too large.
    pub status: u16,
    /// One line that says what is wrong.
    pub message: String,
}

impl ApiError {
    /// An error with its status.
    pub fn new(status: u16, message: impl Into<String>) -> Self {
        ApiError {
            status,
            message: message.into(),
        }
    }

    /// HTTP 400: the request asked for something wrong or too large.
    pub fn bad(message: impl Into<String>) -> Self {
        Self::new(400, message)
    }

    /// HTTP 500: a bug; the server goes on.
    pub fn internal() -> Self {
        Self::new(
            500,
            "the computation failed unexpectedly (a bug in grundy: please report the request)",
        )
    }

    /// The library's error, told as `limits` answers it: the command line's
    /// message, with what it points at written out (a page has no caret
    /// line) and budgets named as the server's or the page's.
    pub fn from_grundy(e: grundy::Error, limits: &Limits) -> Self {
        use grundy::Error;
        ApiError::bad(match e {
            Error::Syntax {
                message,
                input,
                column: Some(column),
            } if !input.is_empty() => {
                format!("{message}: {input} (at character {})", column + 1)
            }
            Error::Syntax { message, input, .. } if !input.is_empty() => {
                format!("{message}: {input}")
            }
            Error::Budget { limit } | Error::PositionsExhausted { limit, .. } => format!(
                "gave up after {limit} positions, the {}'s budget per request: ask for less, or use the command line (`grundy ... --max-states N`)",
                limits.place
            ),
            other => other.to_string(),
        })
    }

    /// The JSON body of the answer.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({ "error": self.message })
    }
}
