//! Long runs: a Grundy sequence of up to [`crate::Limits::max_heaps`] heaps
//! computed in the background, with progress to poll, cancellation, a
//! summary fit for a plot (per-column minimum and maximum, the period, the
//! rare values) and the values to download as CSV or a b-file.

use crate::api::{check_range, read};
use crate::work::{ApiError, Server};
use axum::body::{Body as HttpBody, Bytes};
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
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

pub fn routes() -> Router<Arc<Server>> {
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
    body: Result<Bytes, BytesRejection>,
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
    let id = (server.jobs.next.fetch_add(1, Ordering::Relaxed) + 1).to_string();
    let job = Arc::new(Job {
        id: id.clone(),
        game: request.game.clone(),
        from,
        to,
        done: AtomicU64::new(0),
        cancel: Arc::new(AtomicBool::new(false)),
        outcome: Mutex::new(Outcome::Running),
    });
    server.jobs.add(job.clone());
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
    let mut plot = Columns::new(from, count, columns);
    family.sequence(from, to, &mut |n, v| {
        if job.cancel.load(Ordering::Relaxed) {
            return Err(grundy::Error::Interrupted("cancelled".into()));
        }
        job.done.store(n - from + 1, Ordering::Relaxed);
        plot.add(n, v);
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
    if let Some(class) = rare {
        plot.count_rare(&values, |v| class.is_rare(v as u32));
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
        "columns": plot.to_json(),
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

/// The sequence cut into columns for a plot: each column's heaps, least and
/// greatest value, and how many of its values are rare.
struct Columns {
    from: u64,
    count: u64,
    columns: Vec<(u64, u64, u64, u64, u64)>,
}

impl Columns {
    fn new(from: u64, count: u64, wanted: usize) -> Self {
        Columns {
            from,
            count,
            columns: Vec::with_capacity(wanted.min(count as usize)),
        }
        .with_width(wanted)
    }

    fn with_width(mut self, wanted: usize) -> Self {
        let wanted = (wanted as u64).min(self.count).max(1);
        for k in 0..wanted {
            let first = self.from + k * self.count / wanted;
            let last = self.from + (k + 1) * self.count / wanted - 1;
            self.columns.push((first, last, u64::MAX, 0, 0));
        }
        self
    }

    fn column_of(&self, n: u64) -> usize {
        let wanted = self.columns.len() as u64;
        let offset = n - self.from;
        // The first column k with first(k+1) > n.
        let mut k = (offset as u128 * wanted as u128 / self.count as u128) as usize;
        while k + 1 < self.columns.len() && self.columns[k + 1].0 <= n {
            k += 1;
        }
        while self.columns[k].0 > n {
            k -= 1;
        }
        k
    }

    fn add(&mut self, n: u64, value: u64) {
        let k = self.column_of(n);
        let column = &mut self.columns[k];
        column.2 = column.2.min(value);
        column.3 = column.3.max(value);
    }

    fn count_rare(&mut self, values: &[u64], rare: impl Fn(u64) -> bool) {
        for (i, &v) in values.iter().enumerate() {
            if rare(v) {
                let k = self.column_of(self.from + i as u64);
                self.columns[k].4 += 1;
            }
        }
    }

    fn max_value(&self) -> u64 {
        self.columns.iter().map(|c| c.3).max().unwrap_or(0)
    }

    fn to_json(&self) -> JsonValue {
        JsonValue::Array(
            self.columns
                .iter()
                .map(|&(from, to, min, max, rare)| {
                    json!({"from": from, "to": to, "min": min, "max": max, "rare": rare})
                })
                .collect(),
        )
    }
}

async fn status(
    State(server): State<Arc<Server>>,
    Path(id): Path<String>,
) -> Result<Json<JsonValue>, ApiError> {
    Ok(Json(server.jobs.find(&id)?.status()))
}

async fn cancel(
    State(server): State<Arc<Server>>,
    Path(id): Path<String>,
) -> Result<Json<JsonValue>, ApiError> {
    let job = server.jobs.find(&id)?;
    job.cancel.store(true, Ordering::Relaxed);
    let mut answer = job.status();
    if answer["state"] == "running" {
        answer["state"] = json!("cancelling");
    }
    Ok(Json(answer))
}

async fn csv(State(server): State<Arc<Server>>, Path(id): Path<String>) -> Response {
    download(&server, &id, "csv")
}

async fn b_file(State(server): State<Arc<Server>>, Path(id): Path<String>) -> Response {
    download(&server, &id, "txt")
}

/// The values streamed as CSV (`n,grundy`) or as an OEIS b-file (`n value`).
fn download(server: &Server, id: &str, kind: &'static str) -> Response {
    let (job, values) = match server.jobs.find(id).and_then(|job| {
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

#[cfg(test)]
mod tests {
    use super::Columns;
    use proptest::prelude::*;

    proptest! {
        /// The columns cover the heaps in order without gaps, each heap falls
        /// in the column that holds it, and each column's least and greatest
        /// values are those of its heaps (the plain way: a scan per column).
        #[test]
        fn columns_partition_the_heaps_and_summarise_them(
            from in 0u64..1_000,
            values in proptest::collection::vec(0u64..50, 1..600),
            wanted in 1usize..100,
        ) {
            let count = values.len() as u64;
            let mut columns = Columns::new(from, count, wanted);
            for (i, &v) in values.iter().enumerate() {
                columns.add(from + i as u64, v);
            }
            prop_assert_eq!(columns.columns.len() as u64, (wanted as u64).min(count));
            prop_assert_eq!(columns.columns[0].0, from);
            prop_assert_eq!(columns.columns.last().unwrap().1, from + count - 1);
            for pair in columns.columns.windows(2) {
                prop_assert_eq!(pair[0].1 + 1, pair[1].0);
            }
            for &(first, last, min, max, _) in &columns.columns {
                let slice = &values[(first - from) as usize..=(last - from) as usize];
                prop_assert_eq!(min, *slice.iter().min().unwrap());
                prop_assert_eq!(max, *slice.iter().max().unwrap());
            }
            prop_assert_eq!(columns.max_value(), *values.iter().max().unwrap());
        }
    }
}
