//! `grundy._grundy.SearchEngine`: one board's search engine, as the driver
//! and the workers of a distributed search (`grundy.search`) use it.
//!
//! The engine lives on a thread of its own (with the search's deep stack);
//! each call sends it a piece of work and waits for the answer with the GIL
//! released, checking for Ctrl-C, which stops a search through the engine's
//! stop flag.

use crate::{py_error, WORKER_STACK};
use grundy::search::cluster::{self, Fact};
use grundy::search::family::Opened;
use grundy::search::{Saving, Stop};
use grundy::Error;
use pyo3::exceptions::{PyKeyboardInterrupt, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::Arc;
use std::time::Duration;

/// What the engine's thread holds: the engine, and the facts it has sent
/// already (so that each task sends back only what is new).
struct Held {
    opened: Opened,
    sent: std::collections::HashMap<u128, u64>,
    /// The run the facts in `sent` went to.
    run: String,
}

type Job = Box<dyn FnOnce(&mut Held) + Send>;

/// `SearchEngine(game, position, tt_size=1 << 28, facts=None, threads=1)`:
/// the search engine of one board (`"cram", "6x7"`), with a table of
/// `tt_size` bytes, kept in the file `facts` (loaded when it exists).
#[pyclass(module = "grundy._grundy")]
pub struct SearchEngine {
    jobs: Option<Sender<Job>>,
    thread: Option<std::thread::JoinHandle<()>>,
    stop: Arc<AtomicBool>,
    #[pyo3(get)]
    tag: String,
    #[pyo3(get)]
    root: u128,
    #[pyo3(get)]
    loaded: usize,
}

impl SearchEngine {
    /// Runs `f` on the engine's thread and waits for its answer, the GIL
    /// released; Ctrl-C stops a search and is raised.
    fn call<T: Send + 'static>(
        &self,
        py: Python<'_>,
        f: impl FnOnce(&mut Held) -> T + Send + 'static,
    ) -> PyResult<T> {
        let (tx, rx) = channel();
        let jobs = self
            .jobs
            .as_ref()
            .ok_or_else(|| PyRuntimeError::new_err("the search engine is closed"))?;
        jobs.send(Box::new(move |o: &mut Held| {
            let _ = tx.send(f(o));
        }))
        .map_err(|_| PyRuntimeError::new_err("the search engine's thread has stopped"))?;
        self.wait(py, rx)
    }

    fn wait<T: Send>(&self, py: Python<'_>, mut rx: Receiver<T>) -> PyResult<T> {
        let mut pending = None;
        loop {
            let (got, back) = py.allow_threads(move || {
                let got = rx.recv_timeout(Duration::from_millis(40));
                (got, rx)
            });
            rx = back;
            match got {
                Ok(v) => {
                    self.stop.store(false, Ordering::Relaxed);
                    return match pending {
                        Some(e) => Err(e),
                        None => Ok(v),
                    };
                }
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                    if pending.is_none() {
                        if let Err(e) = py.check_signals() {
                            self.stop.store(true, Ordering::Relaxed);
                            pending = Some(e);
                        }
                    }
                }
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                    return Err(PyRuntimeError::new_err(
                        "internal error: the search engine's thread panicked",
                    ))
                }
            }
        }
    }
}

fn stop_error(stop: Stop) -> PyErr {
    match stop {
        Stop::Interrupted => PyKeyboardInterrupt::new_err("interrupted"),
        Stop::Budget(n) => PyValueError::new_err(format!("stopped after {n} positions")),
        Stop::Io(e) => py_error(Error::Io(e)),
    }
}

fn facts_of(tag: &str, bytes: &[u8]) -> PyResult<Vec<Fact>> {
    cluster::decode(tag, bytes).map_err(py_error)
}

#[pymethods]
impl SearchEngine {
    #[new]
    #[pyo3(signature = (game, position, tt_size = 1 << 28, facts = None, threads = 1))]
    fn new(
        py: Python<'_>,
        game: String,
        position: String,
        tt_size: usize,
        facts: Option<std::path::PathBuf>,
        threads: usize,
    ) -> PyResult<Self> {
        let stop = Arc::new(AtomicBool::new(false));
        let (jobs, inbox) = channel::<Job>();
        let (ready_tx, ready) = channel::<grundy::Result<(String, u128, usize)>>();
        let flag = stop.clone();
        let thread = std::thread::Builder::new()
            .name("grundy-search".into())
            .stack_size(WORKER_STACK)
            .spawn(move || {
                let opened = (|| {
                    let mut o = grundy::spec::open_distributed(&game, &position, tt_size)?;
                    o.engine.set_stop_flag(flag);
                    o.engine.set_threads(threads.max(1));
                    let mut loaded = 0;
                    if let Some(path) = facts {
                        let saving = Saving {
                            path,
                            spec: o.tag.clone(),
                            every: Duration::from_secs(3600),
                        };
                        loaded = o.engine.set_saving(saving)?.unwrap_or(0);
                    }
                    Ok((o, loaded))
                })();
                match opened {
                    Err(e) => {
                        let _ = ready_tx.send(Err(e));
                    }
                    Ok((opened, loaded)) => {
                        let _ = ready_tx.send(Ok((opened.tag.clone(), opened.root, loaded)));
                        let mut held = Held {
                            opened,
                            sent: Default::default(),
                            run: String::new(),
                        };
                        for job in inbox {
                            job(&mut held);
                        }
                    }
                }
            })
            .map_err(|e| PyRuntimeError::new_err(format!("cannot start a thread: {e}")))?;
        let (tag, root, loaded) = py
            .allow_threads(move || ready.recv())
            .map_err(|_| PyRuntimeError::new_err("internal error: the search engine panicked"))?
            .map_err(py_error)?;
        Ok(SearchEngine {
            jobs: Some(jobs),
            thread: Some(thread),
            stop,
            tag,
            root,
            loaded,
        })
    }

    /// The canonical components of the whole position (or of `pos`, in the
    /// board's layout).
    #[pyo3(signature = (pos = None))]
    fn components(&self, py: Python<'_>, pos: Option<u128>) -> PyResult<Vec<u128>> {
        let pos = pos.unwrap_or(self.root);
        self.call(py, move |o| dist(o).components(pos))
    }

    /// The options of a component, each a list of canonical components.
    fn options(&self, py: Python<'_>, c: u128) -> PyResult<Vec<Vec<u128>>> {
        self.call(py, move |o| dist(o).component_options(c))
    }

    /// The size of a component (of a sum, the largest is tested).
    fn size(&self, py: Python<'_>, c: u128) -> PyResult<u32> {
        self.call(py, move |o| dist(o).size(c))
    }

    /// `(nimber or None, mask of nimbers excluded)` of a component.
    fn known(&self, py: Python<'_>, c: u128) -> PyResult<(Option<u32>, u32)> {
        self.call(py, move |o| {
            let k = dist(o).known(c);
            (k.exact, k.not)
        })
    }

    /// Records a component's nimber.
    fn record_exact(&self, py: Python<'_>, c: u128, nimber: u32) -> PyResult<()> {
        self.call(py, move |o| dist(o).record_exact(c, nimber))
    }

    /// Records that a component's nimber is not `k`.
    fn record_not(&self, py: Python<'_>, c: u128, k: u32) -> PyResult<()> {
        self.call(py, move |o| dist(o).record_not(c, k))
    }

    /// Whether the sum of canonical components has nimber `k` (searched
    /// here); with `max_nodes`, None when that many positions did not settle it.
    #[pyo3(signature = (comps, k, max_nodes = None))]
    fn sum_is(
        &self,
        py: Python<'_>,
        comps: Vec<u128>,
        k: u32,
        max_nodes: Option<u64>,
    ) -> PyResult<Option<bool>> {
        self.call(py, move |h| {
            dist(h).sum_is_within(&comps, k, max_nodes.unwrap_or(u64::MAX))
        })?
        .map_err(stop_error)
    }

    /// The nimber of a canonical component (searched here); with
    /// `max_nodes`, None when that many positions did not find it.
    #[pyo3(signature = (c, max_nodes = None))]
    fn nimber(&self, py: Python<'_>, c: u128, max_nodes: Option<u64>) -> PyResult<Option<u32>> {
        self.call(py, move |h| {
            dist(h).nimber_within(c, max_nodes.unwrap_or(u64::MAX))
        })?
        .map_err(stop_error)
    }

    /// The facts worth sending that this engine has not sent before to the
    /// same `run` (a driver's name for its run): work of at least
    /// 2^`min_log2` positions, and every fact of the components `always`,
    /// as bytes.
    #[pyo3(signature = (min_log2, always = Vec::new(), run = String::new()))]
    fn new_facts<'py>(
        &self,
        py: Python<'py>,
        min_log2: u32,
        always: Vec<u128>,
        run: String,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let tag = self.tag.clone();
        let bytes = self.call(py, move |h| {
            if h.run != run {
                h.sent.clear();
                h.run = run;
            }
            let mut facts = dist(h).facts(min_log2, &always);
            facts.retain(|&(c, m)| h.sent.insert(c, m) != Some(m));
            cluster::encode(&tag, &facts)
        })?;
        Ok(PyBytes::new(py, &bytes))
    }

    /// The `most` costliest facts, as bytes.
    fn best_facts<'py>(&self, py: Python<'py>, most: usize) -> PyResult<Bound<'py, PyBytes>> {
        let tag = self.tag.clone();
        let bytes = self.call(py, move |o| {
            cluster::encode(&tag, &dist(o).best_facts(most))
        })?;
        Ok(PyBytes::new(py, &bytes))
    }

    /// Merges facts (bytes from `facts` of an engine of the same board);
    /// how many were taken. Facts of another board raise `ValueError`.
    fn merge(&self, py: Python<'_>, facts: &[u8]) -> PyResult<usize> {
        let facts = facts_of(&self.tag, facts)?;
        self.call(py, move |o| dist(o).merge(&facts))
    }

    /// Saves the table to the facts file (atomically), if one was given.
    fn save(&self, py: Python<'_>) -> PyResult<()> {
        self.call(py, |h| h.opened.engine.save())?.map_err(py_error)
    }

    /// `(positions searched, table entries)`.
    fn stats(&self, py: Python<'_>) -> PyResult<(u64, usize)> {
        self.call(py, |h| {
            let s = h.opened.engine.stats();
            (s.nodes, s.entries)
        })
    }

    /// Stops the engine's thread.
    fn close(&mut self) {
        self.jobs = None;
        if let Some(t) = self.thread.take() {
            self.stop.store(true, Ordering::Relaxed);
            let _ = t.join();
        }
    }
}

impl Drop for SearchEngine {
    fn drop(&mut self) {
        self.close();
    }
}

fn dist(h: &mut Held) -> &mut dyn cluster::Distributed {
    h.opened
        .engine
        .distributed()
        .expect("open_distributed gives searching engines only")
}
