//! Long sequences (`/api/jobs`): a Grundy sequence of up to
//! [`Limits::max_heaps`] heaps with a summary fit for a plot (per-column
//! minimum and maximum from [`grundy::columns`], the period, the rare
//! values), and its values as CSV or an OEIS b-file. The server runs one on
//! a thread and lets the page poll it; the page's worker runs one directly.

use crate::answer::{check_range, read, Fail};
use crate::budget::{ApiError, Limits};
use grundy::columns::MinMax;
use grundy::family::LongRun;
use grundy::spec::{self, Sources};
use serde::Deserialize;
use serde_json::{json, Value as JsonValue};
use std::collections::BTreeMap;
use std::fmt::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Runs longer than this keep their summary but not every value.
pub const DOWNLOADABLE: u64 = 20_000_001;
/// Runs up to this long send every value with their summary.
const SENT: u64 = 100_000;
/// The most plot columns a job summarises into.
const MAX_COLUMNS: usize = 4_000;

/// A request for a long run, read and checked.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JobRequest {
    /// The one kind: "seq".
    pub kind: String,
    /// The game, as the command line names it.
    pub game: String,
    /// The first heap.
    #[serde(default)]
    pub from: u64,
    /// The last heap.
    pub to: u64,
    /// Plot columns to summarise into (default 800).
    pub columns: Option<usize>,
    /// The user's files (`script:NAME`, `dag:NAME`).
    #[serde(default)]
    pub files: BTreeMap<String, String>,
}

impl JobRequest {
    /// Reads a request and checks it against `limits`.
    pub fn read(body: &[u8], limits: &Limits) -> Result<JobRequest, ApiError> {
        let request: JobRequest = read(body)?;
        if request.kind != "seq" {
            return Err(ApiError::bad(format!(
                "unknown job kind {:?}: the one kind is \"seq\"",
                request.kind
            )));
        }
        check_range(
            request.from,
            request.to,
            limits.max_heaps,
            "use `grundy seq` on the command line for more",
        )?;
        Ok(request)
    }

    /// The number of plot columns.
    pub fn columns(&self) -> usize {
        self.columns.unwrap_or(800).clamp(1, MAX_COLUMNS)
    }
}

/// A finished run: the summary the page draws, and the values kept for
/// download (runs up to [`DOWNLOADABLE`] heaps).
pub type Summary = (JsonValue, Option<Vec<u64>>);

/// Computes the sequence, then its summary. `done(n)` is told how many
/// heaps are done now and then; `stop` stops the run.
pub fn compute(
    request: &JobRequest,
    limits: &Limits,
    stop: Arc<AtomicBool>,
    done: Arc<dyn Fn(u64) + Send + Sync>,
) -> Result<Summary, Fail> {
    let (from, to) = (request.from, request.to);
    let columns = request.columns();
    let mut settings = limits.settings();
    settings.max_states = settings.max_states.max(crate::answer::heaps_to(to));
    let mut family =
        spec::parse_game_from(&request.game, settings, &Sources::Given(&request.files))?;
    let tabulated = done.clone();
    family.configure_long_run(LongRun {
        // Tabulating: heaps done of the heaps wanted, counted from 0.
        progress: Box::new(move |n, _| tabulated(n.saturating_sub(from))),
        interrupted: stop.clone(),
        checkpoint: None,
        checkpoint_every: Duration::from_secs(3600),
    });
    let count = to - from + 1;
    // Values are kept for runs short enough to download, and only then.
    let kept = if count <= DOWNLOADABLE { count } else { 0 };
    let mut values: Vec<u64> = Vec::with_capacity(kept as usize);
    let mut plot = MinMax::new(from, to, columns);
    family.sequence(from, to, &mut |n, v| {
        if stop.load(Ordering::Relaxed) {
            return Err(grundy::Error::Interrupted("cancelled".into()));
        }
        if (n - from) % 4096 == 4095 {
            done(n - from + 1);
        }
        plot.push(n, v);
        if count <= DOWNLOADABLE {
            values.push(v);
        }
        Ok(())
    })?;
    done(count);
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
    let values = (count <= DOWNLOADABLE).then_some(values);
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

/// A download of a run's values: CSV (`n,grundy`) or an OEIS b-file
/// (`n value`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Download {
    /// `values.csv`.
    Csv,
    /// `b-file.txt`.
    BFile,
}

impl Download {
    /// The file's extension.
    pub fn extension(self) -> &'static str {
        match self {
            Download::Csv => "csv",
            Download::BFile => "txt",
        }
    }

    /// The HTTP content type.
    pub fn content_type(self) -> &'static str {
        match self {
            Download::Csv => "text/csv; charset=utf-8",
            Download::BFile => "text/plain; charset=utf-8",
        }
    }

    /// The name to save the values of `game` from heap `from` to `to` under.
    pub fn file_name(self, game: &str, from: u64, to: u64) -> String {
        format!(
            "{}-{from}-{to}.{}",
            game.replace(|c: char| !c.is_ascii_alphanumeric() && c != '.', "_"),
            self.extension()
        )
    }

    /// The text of `values[start..end]`, the values of heaps from `from`
    /// on; the CSV header comes with the part that starts at 0.
    pub fn text(self, from: u64, values: &[u64], start: usize, end: usize) -> String {
        let mut text = String::with_capacity((end - start) * 12 + 10);
        let separator = match self {
            Download::Csv => {
                if start == 0 {
                    text.push_str("n,grundy\n");
                }
                ','
            }
            Download::BFile => ' ',
        };
        for (i, v) in values[start..end].iter().enumerate() {
            let _ = writeln!(text, "{}{separator}{v}", from + (start + i) as u64);
        }
        text
    }
}
