//! Running a request on the server: on a thread with a deep stack, under a
//! state budget and a time budget, a few at a time.

use crate::budget::{ApiError, Budget, Limits};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

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
                503,
                format!(
                    "the server is busy: {} computations are running; try again in a moment",
                    self.limits.heavy
                ),
            )
        })
    }

    /// Runs `work` on a thread of its own and waits for it, at most the time
    /// budget: then the work is told to stop and the request gets an error.
    pub async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce(&Budget) -> Result<T, ApiError> + Send + 'static,
    ) -> Result<T, ApiError> {
        let permit = self.permit()?;
        let budget = Budget::default();
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
        .map_err(|e| ApiError::new(503, format!("cannot start a computation: {e}")))?;
    Ok(receiver)
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = StatusCode::from_u16(self.status).unwrap_or(StatusCode::BAD_REQUEST);
        (status, axum::Json(self.to_json())).into_response()
    }
}
