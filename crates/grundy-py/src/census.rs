//! The census in Python: one row of one code (`census_row`, `census_pilot`:
//! what a Dask or Ray task calls, the GIL released), the census file
//! (`CensusLog`: the same writer as `grundy census`, so the files are the
//! same), and the local run on all cores (`census_run`).

use super::{py_error, run_worker};
use grundy::census::{self, Computed, Format, Log, Member, Params, Pilot, Row};
use grundy::Error;
use pyo3::exceptions::{PyKeyboardInterrupt, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::path::PathBuf;

/// A row as a dict with the census file's columns.
fn row_dict<'py>(py: Python<'py>, row: &Row) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item("code", &row.code)?;
    dict.set_item("preperiod", row.preperiod)?;
    dict.set_item("period", row.period)?;
    dict.set_item("saltus", row.saltus)?;
    dict.set_item("proven", row.proven)?;
    dict.set_item("computed_to", row.computed_to)?;
    dict.set_item("max_value", row.max_value)?;
    dict.set_item("rare_mask", row.rare_mask)?;
    dict.set_item("rare_count", row.rare_count)?;
    dict.set_item("same_as", row.same_as.as_deref())?;
    dict.set_item("seconds", row.seconds)?;
    dict.set_item("fingerprint", &row.fingerprint)?;
    Ok(dict)
}

fn dict_row(dict: &Bound<'_, PyDict>) -> PyResult<Row> {
    fn get<'py, T: FromPyObject<'py>>(dict: &Bound<'py, PyDict>, key: &str) -> PyResult<T> {
        match dict.get_item(key)? {
            Some(value) => value.extract(),
            None => Err(PyValueError::new_err(format!("a census row needs {key:?}"))),
        }
    }
    Ok(Row {
        code: get(dict, "code")?,
        preperiod: get(dict, "preperiod")?,
        period: get(dict, "period")?,
        saltus: get(dict, "saltus")?,
        proven: get(dict, "proven")?,
        computed_to: get(dict, "computed_to")?,
        max_value: get(dict, "max_value")?,
        rare_mask: get(dict, "rare_mask")?,
        rare_count: get(dict, "rare_count")?,
        same_as: get(dict, "same_as")?,
        seconds: get(dict, "seconds")?,
        fingerprint: get(dict, "fingerprint")?,
    })
}

/// `census_row(code, max)`: the census row of one code, computed until its
/// period is proven or `max` heaps (the GIL released; Ctrl-C stops it).
#[pyfunction]
pub fn census_row(py: Python<'_>, code: &str, max: u64) -> PyResult<PyObject> {
    let member = Member::from_code(code).map_err(py_error)?;
    let computed = run_worker(py, None, move |counters, interrupted| {
        let counters = counters.clone();
        census::compute(
            &member,
            max,
            interrupted.clone(),
            Box::new(move |done, total| {
                use std::sync::atomic::Ordering;
                counters.total.store(total, Ordering::Relaxed);
                counters.done.store(done, Ordering::Relaxed);
            }),
        )
    })?;
    Ok(row_dict(py, &computed.row)?.into_any().unbind())
}

/// `census_pilot(code, max)`: `{"row": dict}` when a short run finishes the
/// code, else `{"estimate": cost}` for scheduling the full run.
#[pyfunction]
pub fn census_pilot(py: Python<'_>, code: &str, max: u64) -> PyResult<PyObject> {
    let member = Member::from_code(code).map_err(py_error)?;
    let answer = run_worker(py, None, move |_, interrupted| {
        census::pilot(&member, max, interrupted.clone())
    })?;
    let dict = PyDict::new(py);
    match answer {
        Pilot::Done(computed) => dict.set_item("row", row_dict(py, &computed.row)?)?,
        Pilot::Estimate(cost) => dict.set_item("estimate", cost)?,
    }
    Ok(dict.into_any().unbind())
}

fn params(family: &str, size: usize, max: u64) -> PyResult<Params> {
    Params::from_family(family, size, max).map_err(py_error)
}

fn format_named(name: &str) -> PyResult<Format> {
    match name {
        "csv" => Ok(Format::Csv),
        "jsonl" => Ok(Format::Jsonl),
        "markdown" => Ok(Format::Markdown),
        other => Err(PyValueError::new_err(format!(
            "no census format {other:?}: csv, jsonl or markdown"
        ))),
    }
}

/// A census file (or a census in memory): the rows finished, those still to
/// compute, and the writer `grundy census` uses, so that a census run by a
/// cluster leaves the very file a local run would.
#[pyclass(module = "grundy._grundy")]
pub struct CensusLog {
    log: Log,
}

#[pymethods]
impl CensusLog {
    /// Opens (creating or resuming) the census of `family` ("octal", "hex",
    /// "sub") of size `size` (digits, or the largest take) to `max` heaps,
    /// kept in `path` (.csv or .jsonl) or, without one, in memory.
    #[new]
    #[pyo3(signature = (family, size, max, path=None, zero_seconds=false))]
    fn new(
        family: &str,
        size: usize,
        max: u64,
        path: Option<PathBuf>,
        zero_seconds: bool,
    ) -> PyResult<Self> {
        let params = params(family, size, max)?;
        let mut log = match path {
            Some(path) => Log::open(params, &path).map_err(py_error)?,
            None => Log::in_memory(params),
        };
        if zero_seconds {
            log.zero_seconds();
        }
        Ok(CensusLog { log })
    }

    /// What opening the file noticed (a torn last line dropped).
    #[getter]
    fn notes(&self) -> Vec<String> {
        self.log.notes.clone()
    }

    /// The census's command: `grundy census octal --digits 2 --max 131072`.
    #[getter]
    fn command(&self) -> String {
        self.log.params().command()
    }

    /// The codes still to compute, in census order (codes that are
    /// trivially another code's game get their rows with it).
    fn to_compute(&self) -> Vec<String> {
        let members = self.log.members();
        self.log
            .to_compute()
            .into_iter()
            .map(|i| members[i].code.clone())
            .collect()
    }

    /// Rows finished.
    fn done(&self) -> usize {
        self.log.done()
    }

    /// Rows in the whole census.
    fn total(&self) -> usize {
        self.log.members().len()
    }

    /// Records a finished row (a dict from `census_row`): appended to the
    /// file and fsynced, with the rows of the codes trivially the same game.
    /// Returns the rows written.
    fn record(&mut self, py: Python<'_>, row: &Bound<'_, PyDict>) -> PyResult<Vec<PyObject>> {
        let row = dict_row(row)?;
        let code = row.code.clone();
        let written = self
            .log
            .record(
                &code,
                Computed {
                    row,
                    sequence: None,
                },
            )
            .map_err(py_error)?;
        written
            .iter()
            .map(|r| Ok(row_dict(py, r)?.into_any().unbind()))
            .collect()
    }

    /// Once every code is done, rewrites the file in census order with the
    /// final `same_as`; returns whether it did (False while codes remain).
    fn finish(&mut self) -> PyResult<bool> {
        self.log.finish().map_err(py_error)
    }

    /// The finished rows in census order.
    fn rows(&self, py: Python<'_>) -> PyResult<Vec<PyObject>> {
        self.log
            .rows()
            .iter()
            .map(|r| Ok(row_dict(py, r)?.into_any().unbind()))
            .collect()
    }

    /// The census as text: "csv", "jsonl" or "markdown".
    #[pyo3(signature = (format="markdown"))]
    fn render(&self, format: &str) -> PyResult<String> {
        Ok(self.log.render(format_named(format)?))
    }
}

/// `census_run(family, size, max, path, jobs)`: the whole census on this
/// machine, `jobs` codes at once (as `grundy census`), the GIL released.
/// Returns the rows; Ctrl-C stops it with every finished row kept in `path`.
#[pyfunction]
#[pyo3(signature = (family, size, max, path=None, jobs=None, zero_seconds=false))]
pub fn census_run(
    py: Python<'_>,
    family: &str,
    size: usize,
    max: u64,
    path: Option<PathBuf>,
    jobs: Option<usize>,
    zero_seconds: bool,
) -> PyResult<(Vec<PyObject>, String)> {
    let params = params(family, size, max)?;
    let jobs = jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let (rows, markdown, outcome) = run_worker(py, None, move |counters, interrupted| {
        let mut log = match &path {
            Some(path) => Log::open(params, path)?,
            None => Log::in_memory(params),
        };
        if zero_seconds {
            log.zero_seconds();
        }
        let counters = counters.clone();
        let outcome = census::run(&mut log, jobs, interrupted, &mut |status| {
            use std::sync::atomic::Ordering;
            counters.total.store(status.total as u64, Ordering::Relaxed);
            counters.done.store(status.done as u64, Ordering::Relaxed);
        });
        Ok((log.rows(), log.render(Format::Markdown), outcome))
    })?;
    match outcome {
        Ok(()) => {}
        Err(Error::Interrupted(message)) => return Err(PyKeyboardInterrupt::new_err(message)),
        Err(e) => return Err(py_error(e)),
    }
    let rows = rows
        .iter()
        .map(|r| Ok(row_dict(py, r)?.into_any().unbind()))
        .collect::<PyResult<Vec<_>>>()?;
    Ok((rows, markdown))
}
