//! `import grundy`: the Python face of the grundy library (PyO3).
//!
//! This crate only converts: Python arguments to specs, positions and
//! settings, and the library's answers to Python objects and numpy arrays.
//! Every rule of every game lives in the `grundy` library; the friendly layer
//! (dataclasses, argument forms, `_repr_html_`) is the Python package in
//! `python/grundy`, which calls the functions here (module `grundy._grundy`).
//!
//! Long work on built-in families runs on a worker thread with a roomy stack
//! while the calling thread, without the GIL, waits and checks for Ctrl-C
//! every few milliseconds; a signal sets the library's interruption flag and
//! the call raises `KeyboardInterrupt`. Games defined in Python run on a
//! worker as well, which holds the GIL and lets go of it at every call of the
//! game's code; the waiting thread then checks for Ctrl-C, and the game's
//! next call stops the work.

mod census;
mod pygame;
mod search;

use grundy::family::{Family, LongRun, Settings};
use grundy::nimber::Value;
use grundy::sum::{Sum, Winner, WinningMove};
use grundy::{spec, Error, Position};
use num_bigint::BigInt;
use numpy::{IntoPyArray, PyArrayMethods};
use pygame::{ErrorSlot, Interner, PySum};
use pyo3::exceptions::{
    PyKeyboardInterrupt, PyMemoryError, PyOSError, PyRuntimeError, PyTypeError, PyValueError,
};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// The stack of the worker thread (address space, not memory): searches
/// recurse as deep as games last, as on the command line.
pub(crate) const WORKER_STACK: usize = 1 << 30;

/// A library error as the Python exception a user expects, with the command
/// line's message (and its caret line under the offending character).
pub(crate) fn py_error(error: Error) -> PyErr {
    match &error {
        Error::Interrupted(message) => PyKeyboardInterrupt::new_err(message.clone()),
        Error::Io(message) => PyOSError::new_err(message.clone()),
        Error::Syntax {
            message,
            input,
            column,
        } if !input.is_empty() => {
            let head = format!("{message}: ");
            let mut text = format!("{head}{input}");
            if let Some(column) = column {
                let pad = head.chars().count() + column;
                text.push_str(&format!("\n{}^", " ".repeat(pad)));
            }
            PyValueError::new_err(text)
        }
        _ => PyValueError::new_err(error.to_string()),
    }
}

fn settings(max_states: usize) -> Settings {
    Settings {
        max_states,
        ..Settings::default()
    }
}

/// What a worker reports while it runs: (done, total), read by the waiting thread.
#[derive(Default)]
struct Progress {
    done: AtomicU64,
    total: AtomicU64,
}

/// The long-run settings a worker gives its families: progress counters the
/// waiting thread reads, and the flag it sets on Ctrl-C.
fn long_run(progress: &Arc<Progress>, interrupted: &Arc<AtomicBool>) -> LongRun {
    let progress = progress.clone();
    LongRun {
        progress: Box::new(move |done, total| {
            progress.total.store(total, Ordering::Relaxed);
            progress.done.store(done, Ordering::Relaxed);
        }),
        interrupted: interrupted.clone(),
        checkpoint: None,
        checkpoint_every: Duration::from_secs(3600),
    }
}

/// Runs `work` on a worker thread, the GIL released, and waits for it while
/// checking for Ctrl-C (and calling `progress(done, total)` now and then).
/// A signal, or an exception from `progress`, stops the work through the
/// interruption flag and is raised once the worker has stopped.
fn run_worker<T: Send>(
    py: Python<'_>,
    progress: Option<&Bound<'_, PyAny>>,
    work: impl FnOnce(&Arc<Progress>, &Arc<AtomicBool>) -> grundy::Result<T> + Send,
) -> PyResult<T> {
    let interrupted = Arc::new(AtomicBool::new(false));
    let finished = Arc::new(AtomicBool::new(false));
    let counters = Arc::new(Progress::default());
    let mut pending: Option<PyErr> = None;
    let outcome = std::thread::scope(|scope| {
        let handle = {
            let interrupted = interrupted.clone();
            let finished = finished.clone();
            let counters = counters.clone();
            std::thread::Builder::new()
                .name("grundy".into())
                .stack_size(WORKER_STACK)
                .spawn_scoped(scope, move || {
                    let result = work(&counters, &interrupted);
                    finished.store(true, Ordering::Release);
                    result
                })
                .map_err(|e| PyRuntimeError::new_err(format!("cannot start a thread: {e}")))?
        };
        let mut shown = (0, 0);
        loop {
            if wait_a_moment(py, &finished, &interrupted, &mut pending) {
                break;
            }
            if let (Some(callback), None) = (progress, &pending) {
                let now = (
                    counters.done.load(Ordering::Relaxed),
                    counters.total.load(Ordering::Relaxed),
                );
                if now != shown && now.1 > 0 {
                    shown = now;
                    if let Err(e) = callback.call1(now) {
                        interrupted.store(true, Ordering::Relaxed);
                        pending = Some(e);
                    }
                }
            }
        }
        handle
            .join()
            .map_err(|_| PyRuntimeError::new_err("internal error: the grundy worker panicked"))
    })?;
    if let Some(e) = pending {
        return Err(e);
    }
    if let Some(callback) = progress {
        let total = counters.total.load(Ordering::Relaxed);
        if total > 0 {
            callback.call1((total, total))?;
        }
    }
    outcome.map_err(py_error)
}

/// Grundy values as one flat column of the narrowest unsigned type that holds them.
enum Column {
    U16(Vec<u16>),
    U32(Vec<u32>),
    U64(Vec<u64>),
}

impl Column {
    fn with_capacity(count: usize) -> grundy::Result<Self> {
        let mut values = Vec::new();
        values.try_reserve_exact(count).map_err(|_| {
            Error::TooLarge(format!(
                "{count} values do not fit in memory; ask for fewer heaps"
            ))
        })?;
        Ok(Column::U16(values))
    }

    fn push(&mut self, value: u64) {
        match self {
            Column::U16(values) if value <= u16::MAX as u64 => values.push(value as u16),
            Column::U32(values) if value <= u32::MAX as u64 => values.push(value as u32),
            Column::U64(values) => values.push(value),
            Column::U16(values) if value <= u32::MAX as u64 => {
                let mut wider: Vec<u32> = values.iter().map(|v| *v as u32).collect();
                wider.push(value as u32);
                *self = Column::U32(wider);
            }
            Column::U16(values) => {
                let mut wider: Vec<u64> = values.iter().map(|v| *v as u64).collect();
                wider.push(value);
                *self = Column::U64(wider);
            }
            Column::U32(values) => {
                let mut wider: Vec<u64> = values.iter().map(|v| *v as u64).collect();
                wider.push(value);
                *self = Column::U64(wider);
            }
        }
    }

    fn into_array(self, py: Python<'_>, shape: Option<(usize, usize)>) -> PyResult<PyObject> {
        Ok(match (self, shape) {
            (Column::U16(v), None) => v.into_pyarray(py).into_any().unbind(),
            (Column::U32(v), None) => v.into_pyarray(py).into_any().unbind(),
            (Column::U64(v), None) => v.into_pyarray(py).into_any().unbind(),
            (Column::U16(v), Some(s)) => v.into_pyarray(py).reshape(s)?.into_any().unbind(),
            (Column::U32(v), Some(s)) => v.into_pyarray(py).reshape(s)?.into_any().unbind(),
            (Column::U64(v), Some(s)) => v.into_pyarray(py).reshape(s)?.into_any().unbind(),
        })
    }
}

/// The values of heaps `start..=stop` into `column`.
fn fill_sequence(
    family: &mut dyn Family,
    start: u64,
    stop: u64,
    column: &mut Column,
) -> grundy::Result<()> {
    family.sequence_runs(start, stop, &mut |_, values| {
        for &value in values {
            column.push(value);
        }
        Ok(())
    })
}

/// `grundy.seq`: heaps `start..=stop` of `game` (a spec, or a `grundy.Game`)
/// as a numpy array of uint16, uint32 or uint64.
#[pyfunction]
#[pyo3(signature = (game, start, stop, max_states, progress=None))]
fn sequence(
    py: Python<'_>,
    game: &Bound<'_, PyAny>,
    start: u64,
    stop: u64,
    max_states: usize,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyObject> {
    if start > stop {
        return Err(PyValueError::new_err(format!(
            "start {start} is after stop {stop}: nothing to list"
        )));
    }
    let count = usize::try_from(stop - start)
        .ok()
        .and_then(|n| n.checked_add(1))
        .ok_or_else(|| PyMemoryError::new_err("too many heaps for one array"))?;
    if let Ok(spec) = game.downcast::<PyString>() {
        let spec = spec.to_cow()?.into_owned();
        let column = run_worker(py, progress, move |counters, interrupted| {
            let mut family = spec::parse_game(&spec, settings(max_states))?;
            family.configure_long_run(long_run(counters, interrupted));
            let mut column = Column::with_capacity(count)?;
            fill_sequence(family.as_mut(), start, stop, &mut column)?;
            Ok(column)
        })?;
        return column.into_array(py, None);
    }
    let game = game.clone().unbind();
    run_python_worker(py, move |py, interrupted| {
        let (mut family, _, slot) =
            pygame::family(py, game.bind(py), settings(max_states), interrupted.clone())?;
        let mut column = Column::with_capacity(count).map_err(py_error)?;
        let result = fill_sequence(&mut family, start, stop, &mut column);
        slot.finish(result)?;
        column.into_array(py, None)
    })
}

/// `grundy.period`: the period report of a heap game, as a dict with the
/// keys of `grundy period --json`.
#[pyfunction]
#[pyo3(signature = (game, max, max_states, progress=None))]
fn period(
    py: Python<'_>,
    game: &str,
    max: u64,
    max_states: usize,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyObject> {
    let spec = game.to_string();
    let (name, report) = run_worker(py, progress, move |counters, interrupted| {
        // Asking for N heaps is asking for the memory of N heaps, as on the command line.
        let max_states = max_states.max(max.saturating_add(1) as usize);
        let mut family = spec::parse_game(&spec, settings(max_states))?;
        family.configure_long_run(long_run(counters, interrupted));
        let report = family.period(max)?;
        Ok((family.spec(), report))
    })?;
    let dict = PyDict::new(py);
    let p = report.periodicity.as_ref();
    dict.set_item("game", name)?;
    dict.set_item("preperiod", p.map(|p| p.preperiod))?;
    dict.set_item("period", p.map(|p| p.period))?;
    dict.set_item("saltus", p.map(|p| p.saltus))?;
    dict.set_item("proven", report.proven)?;
    dict.set_item("method", report.method)?;
    dict.set_item("checked_to", report.checked_to)?;
    dict.set_item("block", p.map(|p| p.block.clone()))?;
    Ok(dict.into_any().unbind())
}

/// A pattern's `--json` object as text, and its code in C++, Python and Rust
/// (`None` when there is no pattern to write).
type PatternAnswer = (String, Option<String>, Option<String>, Option<String>);

/// `grundy.pattern`: the pattern's `--json` object as text, and its code in
/// each language (`None` when there is no pattern to write).
#[pyfunction]
#[pyo3(signature = (game, max, outcome, max_states, progress=None))]
fn pattern(
    py: Python<'_>,
    game: &str,
    max: u64,
    outcome: bool,
    max_states: usize,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<PatternAnswer> {
    use grundy::pattern::{code, find_game, Language};
    let spec = game.to_string();
    let found = run_worker(py, progress, move |counters, interrupted| {
        let max_states = max_states.max(max.saturating_add(1) as usize);
        let mut parse = |part: &str| {
            let mut family = spec::parse_game(part, settings(max_states))?;
            family.configure_long_run(long_run(counters, interrupted));
            Ok(family)
        };
        find_game(&spec, &mut parse, max, outcome)
    })?;
    let emit = |language| code(&found, language).ok();
    Ok((
        found.to_json().to_string(),
        emit(Language::Cpp),
        emit(Language::Python),
        emit(Language::Rust),
    ))
}

/// `grundy.quotient`: the misère quotient's `--json` object as text.
#[pyfunction]
#[pyo3(signature = (game, max_heap, max_order, max_states, progress=None))]
fn quotient(
    py: Python<'_>,
    game: &str,
    max_heap: u32,
    max_order: usize,
    max_states: usize,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<String> {
    let spec = game.to_string();
    let found = run_worker(py, progress, move |counters, interrupted| {
        let mut family = spec::parse_game(&spec, settings(max_states))?;
        let mut run = long_run(counters, interrupted);
        let flag = run.interrupted.clone();
        grundy::quotient::build(
            family.as_mut(),
            max_heap,
            &grundy::quotient::Limits {
                max_order,
                max_states,
            },
            &mut run.progress,
            &|| flag.load(Ordering::Relaxed),
        )
    })?;
    Ok(found.to_json().to_string())
}

/// `grundy.table`: the board of values of a grid or bar game, rows first, as
/// a 2-D numpy array.
#[pyfunction]
fn table(py: Python<'_>, game: &str, max_states: usize) -> PyResult<PyObject> {
    let spec = game.to_string();
    let (rows, columns, column) = run_worker(py, None, move |counters, interrupted| {
        let mut family = spec::parse_game(&spec, settings(max_states))?;
        family.configure_long_run(long_run(counters, interrupted));
        let table = family.table()?;
        let columns = table.first().map_or(0, Vec::len);
        let mut column = Column::with_capacity(table.len() * columns)?;
        for row in &table {
            if row.len() != columns {
                return Err(Error::invalid(format!(
                    "the table of {} has rows of different lengths",
                    family.spec()
                )));
            }
            for value in row {
                let value = value.as_u64().ok_or_else(|| {
                    Error::invalid(format!(
                        "the table of {} holds a value that is not a machine word ({value})",
                        family.spec()
                    ))
                })?;
                column.push(value);
            }
        }
        Ok((table.len(), columns, column))
    })?;
    column.into_array(py, Some((rows, columns)))
}

/// `grundy.graph`: the game graph of a built-in sum, as `grundy graph
/// --json` text and the picture `--svg` draws.
#[pyfunction]
fn graph(
    py: Python<'_>,
    sum: &str,
    max_nodes: usize,
    max_states: usize,
) -> PyResult<(String, String)> {
    let words: Vec<String> = sum.split_whitespace().map(String::from).collect();
    run_worker(py, None, move |_, _| {
        let mut sum = spec::parse_sum(&words, settings(max_states))?;
        let graph = grundy::graph::build(&mut sum, max_nodes)?;
        let svg = grundy::graph::svg::render(&graph)?;
        Ok((graph.to_json().to_string(), svg))
    })
}

/// A position as it was before it became text: its value and its family's writing.
struct Shown {
    family: usize,
    position: Position,
    text: String,
}

struct RawMove {
    component: usize,
    from: Shown,
    to: Vec<Shown>,
}

struct RawComponent {
    game: String,
    shown: Shown,
    grundy: Option<Value>,
    genus: Option<String>,
}

/// Everything `value` reports, free of Python (so a worker can build it).
struct Report {
    components: Vec<RawComponent>,
    nim_sum: Option<Value>,
    winner: Winner,
    winning_moves: Vec<RawMove>,
    truncated: bool,
    drawing_moves: Vec<RawMove>,
    method: Option<&'static str>,
}

fn shown(sum: &Sum, family: usize, position: &Position) -> Shown {
    Shown {
        family,
        position: position.clone(),
        text: sum.format(family, position),
    }
}

fn raw_moves(sum: &Sum, moves: &[WinningMove]) -> Vec<RawMove> {
    moves
        .iter()
        .map(|m| {
            let family = sum.components()[m.component].family;
            RawMove {
                component: m.component,
                from: shown(sum, family, &m.from),
                to: m.to.iter().map(|p| shown(sum, family, p)).collect(),
            }
        })
        .collect()
}

/// Normal or misère analysis of a sum, as plain data.
fn report(
    sum: &mut Sum,
    misere: bool,
    max_moves: usize,
    max_states: usize,
) -> grundy::Result<Report> {
    let component = |sum: &Sum, index: usize, grundy: Option<Value>, genus: Option<String>| {
        let c = &sum.components()[index];
        RawComponent {
            game: sum.family(c.family).spec(),
            shown: shown(sum, c.family, &c.position),
            grundy,
            genus,
        }
    };
    if misere {
        let analysis = grundy::misere::analyze(sum, max_moves, max_states)?;
        let components = (0..sum.components().len())
            .map(|i| component(sum, i, None, analysis.genera.get(i).cloned()))
            .collect();
        return Ok(Report {
            components,
            nim_sum: None,
            winner: analysis.winner,
            winning_moves: raw_moves(sum, &analysis.winning_moves),
            truncated: analysis.truncated,
            drawing_moves: vec![],
            method: Some(analysis.method),
        });
    }
    let analysis = sum.analyze(max_moves)?;
    let components = analysis
        .values
        .iter()
        .enumerate()
        .map(|(i, v)| component(sum, i, Some(v.clone()), None))
        .collect();
    Ok(Report {
        components,
        nim_sum: Some(analysis.nim_sum.clone()),
        winner: analysis.winner,
        winning_moves: raw_moves(sum, &analysis.winning_moves),
        truncated: analysis.truncated,
        drawing_moves: raw_moves(sum, &analysis.drawing_moves),
        method: None,
    })
}

/// A value for Python: an int when finite (of any size), else its text
/// (`inf(0,2)`, `win`), as the command line writes it.
fn value_object(py: Python<'_>, value: &Value) -> PyResult<PyObject> {
    Ok(match value {
        Value::Finite(n) => n.into_pyobject(py)?.into_any().unbind(),
        other => other.to_string().into_pyobject(py)?.into_any().unbind(),
    })
}

/// The dict `value` returns: the keys of `grundy value --json`, positions
/// written as the command line writes them, except positions of games defined
/// in Python, which are the Python objects themselves.
fn report_object(
    py: Python<'_>,
    report: Report,
    interners: &[Option<Rc<Interner>>],
) -> PyResult<PyObject> {
    let position = |s: &Shown| -> PyResult<PyObject> {
        match interners.get(s.family).and_then(Option::as_ref) {
            Some(interner) => interner.to_object(py, &s.position),
            None => Ok(s.text.clone().into_pyobject(py)?.into_any().unbind()),
        }
    };
    let moves = |moves: &[RawMove]| -> PyResult<Bound<'_, PyList>> {
        let list = PyList::empty(py);
        for m in moves {
            let entry = PyDict::new(py);
            entry.set_item("component", m.component)?;
            entry.set_item("from", position(&m.from)?)?;
            let to = PyList::empty(py);
            for part in &m.to {
                to.append(position(part)?)?;
            }
            entry.set_item("to", to)?;
            list.append(entry)?;
        }
        Ok(list)
    };
    let dict = PyDict::new(py);
    let components = PyList::empty(py);
    for c in &report.components {
        let entry = PyDict::new(py);
        entry.set_item("game", &c.game)?;
        entry.set_item("position", position(&c.shown)?)?;
        if let Some(v) = &c.grundy {
            entry.set_item("grundy", value_object(py, v)?)?;
        }
        if let Some(g) = &c.genus {
            entry.set_item("genus", g)?;
        }
        components.append(entry)?;
    }
    if let Some(method) = report.method {
        dict.set_item("play", "misere")?;
        dict.set_item("method", method)?;
    }
    dict.set_item("components", components)?;
    if let Some(v) = &report.nim_sum {
        dict.set_item("nim_sum", value_object(py, v)?)?;
    }
    dict.set_item("winner", report.winner.as_str())?;
    dict.set_item("winning_moves", moves(&report.winning_moves)?)?;
    dict.set_item("winning_moves_truncated", report.truncated)?;
    if report.method.is_none() {
        dict.set_item("drawing_moves", moves(&report.drawing_moves)?)?;
    }
    Ok(dict.into_any().unbind())
}

/// `grundy.value`'s engine: `groups` is a list of (game, positions), a game
/// being a spec (positions then are strings, read as on the command line) or
/// a `grundy.Game` (positions are Python values).
#[pyfunction]
#[pyo3(signature = (groups, misere, max_moves, max_states))]
fn analyze(
    py: Python<'_>,
    groups: Vec<(Bound<'_, PyAny>, Vec<Bound<'_, PyAny>>)>,
    misere: bool,
    max_moves: usize,
    max_states: usize,
) -> PyResult<PyObject> {
    if groups.is_empty() {
        return Err(PyValueError::new_err(
            "no game given: write GAME POS... [+ GAME POS...], e.g. grundy.value(\"nim 3 5 7\")",
        ));
    }
    let all_specs = groups.iter().all(|(g, _)| g.is_instance_of::<PyString>());
    if all_specs {
        let mut specs: Vec<(String, Vec<String>)> = Vec::with_capacity(groups.len());
        for (game, positions) in &groups {
            let texts = positions
                .iter()
                .map(|p| p.downcast::<PyString>().map(|s| s.to_string()))
                .collect::<Result<Vec<_>, _>>()
                .map_err(|_| PyTypeError::new_err("positions of built-in games are strings"))?;
            specs.push((game.extract()?, texts));
        }
        let report = run_worker(py, None, move |counters, interrupted| {
            let mut args = Vec::new();
            for (i, (spec, positions)) in specs.into_iter().enumerate() {
                if i > 0 {
                    args.push("+".to_string());
                }
                args.push(spec);
                args.extend(positions);
            }
            let mut sum = spec::parse_sum(&args, settings(max_states))?;
            let families: std::collections::BTreeSet<usize> =
                sum.components().iter().map(|c| c.family).collect();
            for index in families {
                sum.family_mut(index)
                    .configure_long_run(long_run(counters, interrupted));
            }
            // Misère search over the whole sum stops on Ctrl-C too.
            let whole = long_run(counters, interrupted);
            sum.watch(whole.interrupted, whole.progress);
            report(&mut sum, misere, max_moves, max_states)
        })?;
        return report_object(py, report, &[]);
    }
    // Games defined in Python: on a worker too (for its stack), which holds
    // the GIL while it works and calls the games' code.
    let owned = own_groups(&groups);
    run_python_worker(py, move |py, interrupted| {
        let groups = bind_groups(py, &owned);
        analyze_python(py, &groups, misere, max_moves, max_states, interrupted)
    })
}

type OwnedGroups = Vec<(PyObject, Vec<PyObject>)>;

fn own_groups(groups: &[(Bound<'_, PyAny>, Vec<Bound<'_, PyAny>>)]) -> OwnedGroups {
    groups
        .iter()
        .map(|(g, ps)| {
            (
                g.clone().unbind(),
                ps.iter().map(|p| p.clone().unbind()).collect(),
            )
        })
        .collect()
}

fn bind_groups<'py>(
    py: Python<'py>,
    groups: &OwnedGroups,
) -> Vec<(Bound<'py, PyAny>, Vec<Bound<'py, PyAny>>)> {
    groups
        .iter()
        .map(|(g, ps)| {
            (
                g.bind(py).clone(),
                ps.iter().map(|p| p.bind(py).clone()).collect(),
            )
        })
        .collect()
}

/// Runs `work` (which calls games' Python code) on a worker thread with a
/// roomy stack, holding the GIL there; this thread waits and checks for
/// Ctrl-C whenever the worker lets go of the GIL (at every Python call), and
/// a signal stops the games through `interrupted`.
fn run_python_worker(
    py: Python<'_>,
    work: impl FnOnce(Python<'_>, &Arc<AtomicBool>) -> PyResult<PyObject> + Send,
) -> PyResult<PyObject> {
    let interrupted = Arc::new(AtomicBool::new(false));
    let finished = Arc::new(AtomicBool::new(false));
    let mut pending: Option<PyErr> = None;
    let outcome = std::thread::scope(|scope| {
        let handle = {
            let interrupted = interrupted.clone();
            let finished = finished.clone();
            std::thread::Builder::new()
                .name("grundy-python".into())
                .stack_size(WORKER_STACK)
                .spawn_scoped(scope, move || {
                    let result = Python::with_gil(|py| work(py, &interrupted));
                    finished.store(true, Ordering::Release);
                    result
                })
                .map_err(|e| PyRuntimeError::new_err(format!("cannot start a thread: {e}")))?
        };
        loop {
            if wait_a_moment(py, &finished, &interrupted, &mut pending) {
                break;
            }
        }
        py.allow_threads(|| handle.join())
            .map_err(|_| PyRuntimeError::new_err("internal error: the grundy worker panicked"))
    })?;
    if let Some(e) = pending {
        return Err(e);
    }
    outcome
}

/// Waits up to 40 ms for the worker to finish, without the GIL; then, if it
/// has not, checks for Ctrl-C (and other signals), asking the worker to stop
/// and keeping the exception. Returns whether the worker has finished.
fn wait_a_moment(
    py: Python<'_>,
    finished: &AtomicBool,
    interrupted: &AtomicBool,
    pending: &mut Option<PyErr>,
) -> bool {
    py.allow_threads(|| {
        for _ in 0..20 {
            if finished.load(Ordering::Acquire) {
                break;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    });
    if finished.load(Ordering::Acquire) {
        return true;
    }
    if pending.is_none() {
        if let Err(e) = py.check_signals() {
            interrupted.store(true, Ordering::Relaxed);
            *pending = Some(e);
        }
    }
    false
}

fn analyze_python(
    py: Python<'_>,
    groups: &[(Bound<'_, PyAny>, Vec<Bound<'_, PyAny>>)],
    misere: bool,
    max_moves: usize,
    max_states: usize,
    interrupted: &Arc<AtomicBool>,
) -> PyResult<PyObject> {
    let mut sum = Sum::new();
    let mut interners = Vec::new();
    let mut slots: Vec<ErrorSlot> = Vec::new();
    for (game, positions) in groups {
        if let Ok(spec) = game.downcast::<PyString>() {
            let family = sum.add_family(
                spec::parse_game(&spec.to_cow()?, settings(max_states)).map_err(py_error)?,
            );
            interners.push(None);
            if positions.is_empty() {
                return Err(PyValueError::new_err(format!(
                    "{spec} needs at least one position"
                )));
            }
            for p in positions {
                let text = p
                    .downcast::<PyString>()
                    .map_err(|_| PyTypeError::new_err("positions of built-in games are strings"))?;
                sum.add_component(family, &text.to_cow()?)
                    .map_err(py_error)?;
            }
        } else {
            let (family, interner, slot) =
                pygame::family(py, game, settings(max_states), interrupted.clone())?;
            let index = sum.add_family(Box::new(family));
            interners.push(Some(interner.clone()));
            for p in positions {
                let position = interner.to_position(py, p)?;
                let added = sum.add_position(index, position);
                slot.finish(added)?;
            }
            slots.push(slot);
        }
    }
    let result = report(&mut sum, misere, max_moves, max_states);
    for slot in &slots {
        slot.raise()?;
    }
    let report = result.map_err(py_error)?;
    report_object(py, report, &interners)
}

/// Every built-in family: syntax, position, example and rules, as `grundy games` lists them.
#[pyfunction]
fn games(py: Python<'_>) -> PyResult<PyObject> {
    let list = PyList::empty(py);
    for info in spec::FAMILIES {
        let entry = PyDict::new(py);
        entry.set_item("spec", info.syntax)?;
        entry.set_item("position", info.position)?;
        entry.set_item("example", info.example)?;
        entry.set_item("about", info.about)?;
        list.append(entry)?;
    }
    Ok(list.into_any().unbind())
}

/// The canonical spec of a game (`sub:3,1,2` -> `sub:1-3`), or ValueError.
#[pyfunction]
fn canonical_spec(game: &str) -> PyResult<String> {
    spec::parse_game(game, Settings::default())
        .map(|f| f.spec())
        .map_err(py_error)
}

/// A nimber as a machine word, or ValueError.
fn nimber(a: &Bound<'_, PyAny>) -> PyResult<u64> {
    let a: BigInt = a.extract()?;
    u64::try_from(&a).map_err(|_| {
        PyValueError::new_err(format!(
            "{a} is not a nimber below 2^64 (nim_mul and nim_inv work in the field of 64-bit nimbers)"
        ))
    })
}

/// The nim-product of two nimbers below 2^64 (Conway's field).
#[pyfunction]
fn nim_mul(a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> PyResult<u64> {
    Ok(grundy::nimber::nim_mul(nimber(a)?, nimber(b)?))
}

/// The nim-inverse of a non-zero nimber below 2^64.
#[pyfunction]
fn nim_inv(a: &Bound<'_, PyAny>) -> PyResult<u64> {
    grundy::nimber::nim_inv(nimber(a)?).ok_or_else(|| PyValueError::new_err("0 has no nim-inverse"))
}

#[pymodule]
fn _grundy(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PySum>()?;
    m.add_class::<census::CensusLog>()?;
    m.add_class::<search::SearchEngine>()?;
    m.add_function(wrap_pyfunction!(census::census_row, m)?)?;
    m.add_function(wrap_pyfunction!(census::census_pilot, m)?)?;
    m.add_function(wrap_pyfunction!(census::census_run, m)?)?;
    m.add_function(wrap_pyfunction!(analyze, m)?)?;
    m.add_function(wrap_pyfunction!(sequence, m)?)?;
    m.add_function(wrap_pyfunction!(period, m)?)?;
    m.add_function(wrap_pyfunction!(table, m)?)?;
    m.add_function(wrap_pyfunction!(graph, m)?)?;
    m.add_function(wrap_pyfunction!(pattern, m)?)?;
    m.add_function(wrap_pyfunction!(quotient, m)?)?;
    m.add_function(wrap_pyfunction!(games, m)?)?;
    m.add_function(wrap_pyfunction!(canonical_spec, m)?)?;
    m.add_function(wrap_pyfunction!(nim_mul, m)?)?;
    m.add_function(wrap_pyfunction!(nim_inv, m)?)?;
    m.add("DEFAULT_MAX_STATES", grundy::solve::DEFAULT_MAX_STATES)?;
    Ok(())
}
