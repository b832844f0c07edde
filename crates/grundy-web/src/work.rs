//! Running the library for a request: on a thread with a deep stack, under a
//! state budget and a time budget, a few at a time.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use grundy::family::{LongRun, Settings};
use grundy::sum::Sum;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// The budgets of the server's requests.
#[derive(Debug, Clone)]
pub struct Limits {
    /// The most positions one request may remember (memo solvers, tables).
    pub max_states: usize,
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
    fn default() -> Self {
        Limits {
            max_states: 5_000_000,
            seconds: 20,
            max_heaps: 100_000_001,
            job_seconds: 600,
            heavy: 4,
            max_body: 1 << 20,
        }
    }
}

/// The server's budgets and the slots that let a few computations run at
/// once.
pub struct Server {
    pub limits: Limits,
    permits: Arc<Semaphore>,
}

impl Server {
    pub fn new(limits: Limits) -> Self {
        Server {
            permits: Arc::new(Semaphore::new(limits.heavy.max(1))),
            limits,
        }
    }

    /// A slot for one computation, or the error that says the server is busy.
    pub fn permit(&self) -> Result<OwnedSemaphorePermit, ApiError> {
        self.permits.clone().try_acquire_owned().map_err(|_| {
            ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                format!(
                    "the server is busy: {} computations are running; try again in a moment",
                    self.limits.heavy
                ),
            )
        })
    }

    /// The settings a request computes with.
    pub fn settings(&self) -> Settings {
        Settings {
            max_states: self.limits.max_states,
            // Searches on a shared server get a modest table.
            tt_bytes: 256 << 20,
        }
    }

    /// Runs `work` on a thread of its own and waits for it, at most the time
    /// budget: then the work is told to stop and the request gets an error.
    pub async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce(&Budget) -> Result<T, ApiError> + Send + 'static,
    ) -> Result<T, ApiError> {
        let permit = self.permit()?;
        let budget = Budget {
            stop: Arc::new(AtomicBool::new(false)),
        };
        let stop = budget.stop.clone();
        let receiver = spawn(move || {
            let result = work(&budget);
            drop(permit);
            result
        })?;
        let seconds = self.limits.seconds;
        match tokio::time::timeout(Duration::from_secs(seconds), receiver).await {
            Ok(Ok(result)) => result,
            Ok(Err(_)) => Err(ApiError::internal()),
            Err(_) => {
                stop.store(true, Ordering::Relaxed);
                Err(ApiError::bad(format!(
                    "this needs more than the server's {seconds} s per request: ask for less, or use the command line (`grundy`), which has no time limit"
                )))
            }
        }
    }
}

/// Runs `work` on a new thread with a deep stack (searches recurse as deep as
/// games last); the receiver gets its result, or is dropped if it panicked.
pub fn spawn<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<tokio::sync::oneshot::Receiver<T>, ApiError> {
    /// Address space, not memory: pages are only used as the stack grows.
    const STACK: usize = 512 << 20;
    let (sender, receiver) = tokio::sync::oneshot::channel();
    std::thread::Builder::new()
        .name("grundy-work".into())
        .stack_size(STACK)
        .spawn(move || {
            let _ = sender.send(work());
        })
        .map_err(|e| {
            ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                format!("cannot start a computation: {e}"),
            )
        })?;
    Ok(receiver)
}

/// What a computation must watch: the flag that tells it to stop.
pub struct Budget {
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

/// An error answer: a status and `{"error": "..."}`.
#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub message: String,
}

impl ApiError {
    pub fn new(status: StatusCode, message: impl Into<String>) -> Self {
        ApiError {
            status,
            message: message.into(),
        }
    }

    /// HTTP 400: the request asked for something wrong or too large.
    pub fn bad(message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, message)
    }

    /// HTTP 500: a bug; the server goes on.
    pub fn internal() -> Self {
        Self::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the computation failed unexpectedly (a bug in grundy: please report the request)",
        )
    }
}

impl From<grundy::Error> for ApiError {
    /// The command line's message, with what it points at written out (a
    /// page has no caret line) and budgets named as the server's.
    fn from(e: grundy::Error) -> Self {
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
                "gave up after {limit} positions, the server's budget per request: ask for less, or use the command line (`grundy ... --max-states N`)"
            ),
            other => other.to_string(),
        })
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = serde_json::json!({ "error": self.message });
        (self.status, axum::Json(body)).into_response()
    }
}
