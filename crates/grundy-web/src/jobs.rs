//! Long runs on the server: a sequence ([`crate::series`]) computed in the
//! background, with progress to poll, cancellation, and its values to
//! download as CSV or a b-file.

use crate::budget::ApiError;
use crate::request::{read_bytes, Body};
use crate::series::{self, Download, JobRequest, DOWNLOADABLE};
use crate::work::Server;
use axum::body::{Body as HttpBody, Bytes};
use axum::extract::{FromRef, Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::{json, Value as JsonValue};
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Finished jobs kept for their downloads; older ones are forgotten.
const KEPT: usize = 8;

/// The endpoints of long runs, for any state that holds the server and its
/// jobs.
pub fn routes<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    Arc<Server>: FromRef<S>,
    Arc<Jobs>: FromRef<S>,
{
    Router::new()
        .route("/api/jobs", post(start))
        .route("/api/jobs/{id}", get(status).delete(cancel))
        .route("/api/jobs/{id}/values.csv", get(csv))
        .route("/api/jobs/{id}/b-file.txt", get(b_file))
}

/// The jobs the server knows, oldest first.
#[derive(Default)]
pub struct Jobs {
    next: AtomicU64,
    list: Mutex<VecDeque<Arc<Job>>>,
}

impl Jobs {
    fn find(&self, id: &str) -> Result<Arc<Job>, ApiError> {
        let list = self.list.lock().expect("jobs lock");
        list.iter()
            .find(|job| job.id == id)
            .cloned()
            .ok_or_else(|| {
                ApiError::new(
                    404,
                    format!("no job {id} (finished jobs are forgotten after {KEPT} newer ones)"),
                )
            })
    }

    fn add(&self, job: Arc<Job>) {
        let mut list = self.list.lock().expect("jobs lock");
        list.push_back(job);
        // Forget the oldest finished jobs; running ones stay until they end.
        while list.len() > KEPT {
            match list.iter().position(|j| j.finished()) {
                Some(i) => {
                    list.remove(i);
                }
                None => break,
            }
        }
    }
}

struct Job {
    id: String,
    game: String,
    from: u64,
    to: u64,
    done: AtomicU64,
    cancel: Arc<AtomicBool>,
    outcome: Mutex<Outcome>,
}

enum Outcome {
    Running,
    Done {
        summary: JsonValue,
        values: Option<Arc<Vec<u64>>>,
    },
    Failed(String),
    Cancelled,
}

impl Job {
    fn finished(&self) -> bool {
        !matches!(*self.outcome.lock().expect("job lock"), Outcome::Running)
    }

    fn status(&self) -> JsonValue {
        let total = self.to - self.from + 1;
        let mut answer = json!({
            "id": self.id,
            "game": self.game,
            "from": self.from,
            "to": self.to,
            "done": self.done.load(Ordering::Relaxed).min(total),
            "total": total,
        });
        let outcome = self.outcome.lock().expect("job lock");
        answer["state"] = json!(match &*outcome {
            Outcome::Running => "running",
            Outcome::Done { .. } => "done",
            Outcome::Failed(_) => "failed",
            Outcome::Cancelled => "cancelled",
        });
        match &*outcome {
            Outcome::Done { summary, .. } => {
                answer["done"] = json!(total);
                answer["result"] = summary.clone();
            }
            Outcome::Failed(message) => answer["error"] = json!(message),
            _ => {}
        }
        answer
    }

    fn values(&self) -> Result<Arc<Vec<u64>>, ApiError> {
        match &*self.outcome.lock().expect("job lock") {
            Outcome::Done {
                values: Some(values),
                ..
            } => Ok(values.clone()),
            Outcome::Done { values: None, .. } => Err(ApiError::bad(format!(
                "runs of more than {DOWNLOADABLE} heaps are not kept for download: use `grundy seq {} --from {} --to {} --out values.txt`",
                self.game, self.from, self.to
            ))),
            _ => Err(ApiError::bad(format!("job {} has not finished", self.id))),
        }
    }
}

async fn start(
    State(server): State<Arc<Server>>,
    State(jobs): State<Arc<Jobs>>,
    body: Body,
) -> Result<Json<JsonValue>, ApiError> {
    let request = JobRequest::read(&read_bytes(body, server.limits.max_body)?, &server.limits)?;
    let (from, to) = (request.from, request.to);
    let permit = server.permit()?;
    let id = (jobs.next.fetch_add(1, Ordering::Relaxed) + 1).to_string();
    let job = Arc::new(Job {
        id: id.clone(),
        game: request.game.clone(),
        from,
        to,
        done: AtomicU64::new(0),
        cancel: Arc::new(AtomicBool::new(false)),
        outcome: Mutex::new(Outcome::Running),
    });
    jobs.add(job.clone());
    // The time budget: past it the job is told to stop, and fails.
    let late = Arc::new(AtomicBool::new(false));
    {
        let (cancel, late) = (job.cancel.clone(), late.clone());
        let seconds = server.limits.job_seconds;
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_secs(seconds)).await;
            late.store(true, Ordering::Relaxed);
            cancel.store(true, Ordering::Relaxed);
        });
    }
    let seconds = server.limits.job_seconds;
    let limits = server.limits.clone();
    let worker = job.clone();
    let finished = crate::work::spawn(move || {
        let counter = worker.clone();
        let done = Arc::new(move |n: u64| counter.done.store(n, Ordering::Relaxed));
        let result = series::compute(&request, &limits, worker.cancel.clone(), done)
            .map_err(|e| e.told(&limits));
        let outcome = match result {
            Ok((summary, values)) => Outcome::Done {
                summary,
                values: values.map(Arc::new),
            },
            Err(_) if late.load(Ordering::Relaxed) => Outcome::Failed(format!(
                "stopped after the server's {seconds} s per long run; use `grundy seq` on the command line for longer runs"
            )),
            Err(_) if worker.cancel.load(Ordering::Relaxed) => Outcome::Cancelled,
            Err(e) => Outcome::Failed(e.message),
        };
        *worker.outcome.lock().expect("job lock") = outcome;
        drop(permit);
    })?;
    // A panic drops the sender: the job then fails instead of running forever.
    let watched = job.clone();
    tokio::spawn(async move {
        if finished.await.is_err() {
            *watched.outcome.lock().expect("job lock") = Outcome::Failed(
                "the computation failed unexpectedly (a bug in grundy: please report it)".into(),
            );
        }
    });
    Ok(Json(json!({ "id": id, "state": "running" })))
}

async fn status(
    State(jobs): State<Arc<Jobs>>,
    Path(id): Path<String>,
) -> Result<Json<JsonValue>, ApiError> {
    Ok(Json(jobs.find(&id)?.status()))
}

async fn cancel(
    State(jobs): State<Arc<Jobs>>,
    Path(id): Path<String>,
) -> Result<Json<JsonValue>, ApiError> {
    let job = jobs.find(&id)?;
    job.cancel.store(true, Ordering::Relaxed);
    let mut answer = job.status();
    if answer["state"] == "running" {
        answer["state"] = json!("cancelling");
    }
    Ok(Json(answer))
}

async fn csv(State(jobs): State<Arc<Jobs>>, Path(id): Path<String>) -> Response {
    download(&jobs, &id, Download::Csv)
}

async fn b_file(State(jobs): State<Arc<Jobs>>, Path(id): Path<String>) -> Response {
    download(&jobs, &id, Download::BFile)
}

/// The values streamed as CSV (`n,grundy`) or as an OEIS b-file (`n value`).
fn download(jobs: &Jobs, id: &str, kind: Download) -> Response {
    let (job, values) = match jobs.find(id).and_then(|job| {
        let values = job.values()?;
        Ok((job, values))
    }) {
        Ok(found) => found,
        Err(e) => return e.into_response(),
    };
    const CHUNK: usize = 1 << 16;
    let from = job.from;
    let chunks = values.len().div_ceil(CHUNK);
    let body = futures_util::stream::iter((0..chunks).map(move |c| {
        let start = c * CHUNK;
        let end = (start + CHUNK).min(values.len());
        Ok::<_, std::convert::Infallible>(Bytes::from(kind.text(from, &values, start, end)))
    }));
    let name = kind.file_name(&job.game, job.from, job.to);
    (
        [
            (header::CONTENT_TYPE, kind.content_type().to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{name}\""),
            ),
        ],
        HttpBody::from_stream(body),
    )
        .into_response()
}
