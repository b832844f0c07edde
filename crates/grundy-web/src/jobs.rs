//! Long runs: a Grundy sequence of up to
//! [`Limits::max_heaps`](crate::work::Limits::max_heaps) heaps computed in
//! the background, with progress to poll, cancellation, a summary fit for a
//! plot (per-column minimum and maximum from [`grundy::columns`], the period,
//! the rare values) and the values to download as CSV or a b-file.

use crate::request::{check_range, read, Body};
use crate::work::{ApiError, Server};
use axum::body::{Body as HttpBody, Bytes};
use axum::extract::{FromRef, Path, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use grundy::columns::MinMax;
use grundy::family::LongRun;
use grundy::spec::{self, Sources};
use serde::Deserialize;
use serde_json::{json, Value as JsonValue};
use std::collections::{BTreeMap, VecDeque};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Finished jobs kept for their downloads; older ones are forgotten.
const KEPT: usize = 8;
/// Runs longer than this keep their summary but not every value.
const DOWNLOADABLE: u64 = 20_000_001;
/// Runs up to this long send every value with their summary.
const SENT: u64 = 100_000;
/// The most plot columns a job summarises into.
const MAX_COLUMNS: usize = 4_000;

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
                    StatusCode::NOT_FOUND,
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

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct JobRequest {
    kind: String,
    game: String,
    #[serde(default)]
    from: u64,
    to: u64,
    columns: Option<usize>,
    #[serde(default)]
    files: BTreeMap<String, String>,
}

async fn start(
    State(server): State<Arc<Server>>,
    State(jobs): State<Arc<Jobs>>,
    body: Body,
) -> Result<Json<JsonValue>, ApiError> {
    let request: JobRequest = read(body, server.limits.max_body)?;
    if request.kind != "seq" {
        return Err(ApiError::bad(format!(
            "unknown job kind {:?}: the one kind is \"seq\"",
            request.kind
        )));
    }
    let (from, to) = (request.from, request.to);
    let limit = server.limits.max_heaps;
    check_range(
        from,
        to,
        limit,
        "use `grundy seq` on the command line for more",
    )?;
    let columns = request.columns.unwrap_or(800).clamp(1, MAX_COLUMNS);
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
    let settings = {
        let mut settings = server.settings();
        settings.max_states = settings.max_states.max(to as usize + 1);
        settings
    };
    let seconds = server.limits.job_seconds;
    let worker = job.clone();
    let finished = crate::work::spawn(move || {
        let result = run(&worker, &request, settings, columns);
        let outcome = match result {
            Ok((summary, values)) => Outcome::Done { summary, values },
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

type Summary = (JsonValue, Option<Arc<Vec<u64>>>);

/// Computes the sequence, then its summary.
fn run(
    job: &Arc<Job>,
    request: &JobRequest,
    settings: grundy::family::Settings,
    columns: usize,
) -> Result<Summary, ApiError> {
    let (from, to) = (job.from, job.to);
    let mut family =
        spec::parse_game_from(&request.game, settings, &Sources::Given(&request.files))?;
    let progress = job.clone();
    family.configure_long_run(LongRun {
        // Tabulating: heaps done of the heaps wanted, counted from 0.
        progress: Box::new(move |done, _| {
            progress
                .done
                .store(done.saturating_sub(progress.from), Ordering::Relaxed)
        }),
        interrupted: job.cancel.clone(),
        checkpoint: None,
        checkpoint_every: Duration::from_secs(3600),
    });
    let count = to - from + 1;
    let mut values: Vec<u64> = Vec::with_capacity(count.min(DOWNLOADABLE) as usize);
    let mut plot = MinMax::new(from, to, columns);
    family.sequence(from, to, &mut |n, v| {
        if job.cancel.load(Ordering::Relaxed) {
            return Err(grundy::Error::Interrupted("cancelled".into()));
        }
        job.done.store(n - from + 1, Ordering::Relaxed);
        plot.push(n, v);
        if count <= DOWNLOADABLE {
            values.push(v);
        }
        Ok(())
    })?;
    let rare = if count <= DOWNLOADABLE {
        let small: Vec<u32> = values.iter().map(|&v| v as u32).collect();
        grundy::period::rare_class(&small)
    } else {
        None
    };
    let mut rare_counts = vec![0u64; plot.columns()];
    if let Some(class) = rare {
        for (n, &v) in (from..).zip(&values) {
            if class.is_rare(v as u32) {
                rare_counts[plot.column_of(n)] += 1;
            }
        }
    }
    let period = if family.is_heap_game() {
        family
            .period(to + 1)
            .ok()
            .map(|report| grundy::json::period_object(family.as_ref(), &report))
    } else {
        None
    };
    let mut summary = json!({
        "game": family.spec(),
        "from": from,
        "to": to,
        "columns": columns_object(&plot, &rare_counts),
        "max_value": plot.max_value(),
        "period": period,
        "rare": rare.map(|c| json!({"mask": c.mask, "count": c.count})),
    });
    if count <= SENT {
        summary["values"] = json!(values);
    }
    let values = (count <= DOWNLOADABLE).then(|| Arc::new(values));
    Ok((summary, values))
}

/// Each column of the plot: its heaps, its least and greatest value, and how
/// many of its values are rare.
fn columns_object(plot: &MinMax, rare_counts: &[u64]) -> JsonValue {
    JsonValue::Array(
        (0..plot.columns())
            .map(|c| {
                let (from, to) = plot.heaps(c);
                // Every column has values once the whole sequence is in.
                let (min, max) = plot.range(c).unwrap_or((u64::MAX, 0));
                json!({"from": from, "to": to, "min": min, "max": max, "rare": rare_counts[c]})
            })
            .collect(),
    )
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
    download(&jobs, &id, "csv")
}

async fn b_file(State(jobs): State<Arc<Jobs>>, Path(id): Path<String>) -> Response {
    download(&jobs, &id, "txt")
}

/// The values streamed as CSV (`n,grundy`) or as an OEIS b-file (`n value`).
fn download(jobs: &Jobs, id: &str, kind: &'static str) -> Response {
    let (job, values) = match jobs.find(id).and_then(|job| {
        let values = job.values()?;
        Ok((job, values))
    }) {
        Ok(found) => found,
        Err(e) => return e.into_response(),
    };
    const CHUNK: usize = 1 << 16;
    let from = job.from;
    let header_line = if kind == "csv" { "n,grundy\n" } else { "" };
    let chunks = values.len().div_ceil(CHUNK);
    let body = futures_util::stream::iter((0..chunks).map(move |c| {
        use std::fmt::Write;
        let mut text = String::with_capacity(CHUNK * 12);
        if c == 0 {
            text.push_str(header_line);
        }
        let start = c * CHUNK;
        let separator = if kind == "csv" { ',' } else { ' ' };
        for (i, v) in values[start..(start + CHUNK).min(values.len())]
            .iter()
            .enumerate()
        {
            let _ = writeln!(text, "{}{separator}{v}", from + (start + i) as u64);
        }
        Ok::<_, std::convert::Infallible>(Bytes::from(text))
    }));
    let name = format!(
        "{}-{}-{}.{kind}",
        job.game
            .replace(|c: char| !c.is_ascii_alphanumeric() && c != '.', "_"),
        job.from,
        job.to
    );
    let content_type = if kind == "csv" {
        "text/csv; charset=utf-8"
    } else {
        "text/plain; charset=utf-8"
    };
    (
        [
            (header::CONTENT_TYPE, content_type.to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{name}\""),
            ),
        ],
        HttpBody::from_stream(body),
    )
        .into_response()
}
