//! grundy in the browser: the web API's answers ([`grundy_web::answer`])
//! and the command line ([`grundy_cli::run`]), compiled to WebAssembly for
//! the page's worker (`web/worker.js`).
//!
//! The interface is plain functions over the module's memory, with no
//! generated JavaScript glue. The worker writes a request (JSON) into a
//! buffer from [`grundy_alloc`], calls [`grundy_call`], and reads the
//! answer from [`grundy_answer_ptr`] and [`grundy_answer_len`]. A request
//! is one of:
//!
//! - `{"op": "api", "endpoint": "value", "body": {...}}`: what
//!   `POST /api/value` answers on the server;
//! - `{"op": "job", "id": "1", "body": {...}}`: a long sequence, as
//!   `POST /api/jobs` runs one, answered when it is done;
//! - `{"op": "download", "id": "1", "kind": "csv"}`: a finished job's
//!   values (`csv` or `b-file`);
//! - `{"op": "cli", "args": ["value", "nim", "3"], "stdin": "", "files":
//!   {}, "env": {}}`: the command line, reading the files and environment
//!   variables given ([`grundy::page`]).
//!
//! API answers are the status on the first line and the JSON body after it,
//! so that the page reads large integers exactly as it reads the server's.
//! The command line's answer is its exit status; its output goes out while
//! it runs, through the imported `env.grundy_write(stream, ptr, len)`.
//! Progress goes through `env.grundy_progress(done, total)`, and the clock
//! is `env.grundy_now()` (see [`grundy::clock`]). A run is stopped by
//! ending the worker: a page has nothing else that could interrupt it.

// The only unstable feature, for the WebAssembly build (made with Debian's
// rustc and RUSTC_BOOTSTRAP, as std itself is): a failed allocation says so.
#![cfg_attr(
    all(target_arch = "wasm32", target_os = "unknown"),
    feature(alloc_error_hook)
)]

use grundy_web::answer::{answer, Context};
use grundy_web::series::{self, Download, JobRequest};
use grundy_web::{ApiError, Budget, Limits};
use serde::Deserialize;
use std::cell::RefCell;
use std::collections::VecDeque;
use std::io::Write;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

mod host;

/// The module's allocator: the system's, counting the bytes live, so that
/// memory budgets see what a run holds now and not the linear memory's
/// size, which never shrinks (see [`grundy::memory::resident`]).
struct Counting;

static LIVE: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

// SAFETY: every call is passed to the system allocator unchanged.
unsafe impl std::alloc::GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: std::alloc::Layout) -> *mut u8 {
        let p = std::alloc::System.alloc(layout);
        if !p.is_null() {
            LIVE.fetch_add(layout.size() as u64, std::sync::atomic::Ordering::Relaxed);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: std::alloc::Layout) {
        std::alloc::System.dealloc(ptr, layout);
        LIVE.fetch_sub(layout.size() as u64, std::sync::atomic::Ordering::Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: std::alloc::Layout, new_size: usize) -> *mut u8 {
        let p = std::alloc::System.realloc(ptr, layout, new_size);
        if !p.is_null() {
            LIVE.fetch_add(new_size as u64, std::sync::atomic::Ordering::Relaxed);
            LIVE.fetch_sub(layout.size() as u64, std::sync::atomic::Ordering::Relaxed);
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn live_bytes() -> u64 {
    LIVE.load(std::sync::atomic::Ordering::Relaxed)
}

/// The page's budgets: one user, who can stop any run, so no time limit and
/// no queue; the memory of a tab.
fn limits() -> Limits {
    Limits {
        place: "page",
        max_states: 5_000_000,
        tt_bytes: 64 << 20,
        seconds: 0,
        max_heaps: 100_000_001,
        job_seconds: 0,
        heavy: 1,
        max_body: usize::MAX,
    }
}

/// The memory a page's computation may hold before it stops with an error
/// that names the figure (the native `--max-memory`).
pub const MEMORY_BUDGET: u64 = 2 << 30;

#[derive(Deserialize)]
#[serde(tag = "op", rename_all = "lowercase", deny_unknown_fields)]
enum Request {
    Api {
        endpoint: String,
        #[serde(default)]
        body: serde_json::Value,
    },
    Job {
        id: String,
        body: serde_json::Value,
    },
    Download {
        id: String,
        kind: String,
    },
    Cli {
        args: Vec<String>,
        #[serde(default)]
        stdin: String,
        /// Files the command reads (`script:examples/take.rhai`), by the
        /// names it gives them.
        #[serde(default)]
        files: std::collections::BTreeMap<String, String>,
        /// Environment variables (`GRUNDY_SEARCH_STATS=1 grundy ...`).
        #[serde(default)]
        env: std::collections::BTreeMap<String, String>,
    },
}

/// A finished job's values, kept for download.
struct Kept {
    id: String,
    game: String,
    from: u64,
    to: u64,
    values: Option<Vec<u64>>,
}

/// Finished jobs kept for download; older ones are forgotten (each may hold
/// up to 20 million values).
const KEPT: usize = 2;

thread_local! {
    static ANSWER: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    static JOBS: RefCell<VecDeque<Kept>> = const { RefCell::new(VecDeque::new()) };
}

/// A buffer of `len` bytes for the worker to write a request into.
#[no_mangle]
pub extern "C" fn grundy_alloc(len: usize) -> *mut u8 {
    let mut buffer = vec![0u8; len].into_boxed_slice();
    let ptr = buffer.as_mut_ptr();
    std::mem::forget(buffer);
    ptr
}

/// Gives back a buffer from [`grundy_alloc`].
///
/// # Safety
/// `ptr` and `len` must be what [`grundy_alloc`] gave and took.
#[no_mangle]
pub unsafe extern "C" fn grundy_free(ptr: *mut u8, len: usize) {
    drop(Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, len)));
}

/// Answers the request in `ptr[..len]` (a buffer from [`grundy_alloc`],
/// freed here); returns the command line's exit status, or the HTTP status
/// of an API answer. The answer's text is at [`grundy_answer_ptr`].
///
/// # Safety
/// `ptr` and `len` must be what [`grundy_alloc`] gave and took.
#[no_mangle]
pub unsafe extern "C" fn grundy_call(ptr: *mut u8, len: usize) -> u32 {
    host::install_panic_hook();
    if grundy::IN_BROWSER {
        grundy::memory::set_live_bytes(live_bytes);
    }
    grundy::memory::set_budget(MEMORY_BUDGET);
    // The last answer has been read: its memory is free for this request.
    ANSWER.with(|a| *a.borrow_mut() = Vec::new());
    let request = Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, len));
    let (status, text) = call(&request);
    ANSWER.with(|a| *a.borrow_mut() = text.into_bytes());
    status
}

/// Where the last answer's text starts.
#[no_mangle]
pub extern "C" fn grundy_answer_ptr() -> *const u8 {
    ANSWER.with(|a| a.borrow().as_ptr())
}

/// The length of the last answer's text.
#[no_mangle]
pub extern "C" fn grundy_answer_len() -> usize {
    ANSWER.with(|a| a.borrow().len())
}

/// Answers one request: its status and its text.
pub fn call(request: &[u8]) -> (u32, String) {
    let request: Request = match serde_json::from_slice(request) {
        Ok(r) => r,
        Err(e) => return refusal(ApiError::bad(format!("not a request of the page: {e}"))),
    };
    let limits = limits();
    match request {
        Request::Api { endpoint, body } => {
            let body = serde_json::to_vec(&body).unwrap_or_default();
            let budget = Budget::default();
            let cx = Context {
                limits: &limits,
                budget: &budget,
            };
            match answer(&endpoint, &body, &cx) {
                Ok(json) => (200, json.to_string()),
                Err(e) => refusal(e),
            }
        }
        Request::Job { id, body } => job(id, body, &limits),
        Request::Download { id, kind } => download(&id, &kind),
        Request::Cli {
            args,
            stdin,
            files,
            env,
        } => {
            grundy::page::set_files(files);
            grundy::page::set_env(env);
            let mut argv = vec!["grundy".to_string()];
            argv.extend(args);
            let status = host::run_cli(argv, stdin);
            (u32::from(status), String::new())
        }
    }
}

fn refusal(e: ApiError) -> (u32, String) {
    (u32::from(e.status), e.to_json().to_string())
}

/// A long sequence, with progress as it goes; its values are kept for
/// download.
fn job(id: String, body: serde_json::Value, limits: &Limits) -> (u32, String) {
    let body = serde_json::to_vec(&body).unwrap_or_default();
    let request = match JobRequest::read(&body, limits) {
        Ok(r) => r,
        Err(e) => return refusal(e),
    };
    let total = request.to - request.from + 1;
    // The page learns that the run has begun (the request was sound).
    host::progress(0, total);
    let done = Arc::new(move |n: u64| host::progress(n, total));
    let stop = Arc::new(AtomicBool::new(false));
    match series::compute(&request, limits, stop, done) {
        Ok((summary, values)) => {
            JOBS.with(|jobs| {
                let mut jobs = jobs.borrow_mut();
                jobs.push_back(Kept {
                    id,
                    game: request.game.clone(),
                    from: request.from,
                    to: request.to,
                    values,
                });
                while jobs.len() > KEPT {
                    jobs.pop_front();
                }
            });
            (200, summary.to_string())
        }
        Err(e) => refusal(e.told(limits)),
    }
}

/// A finished job's values as text: the status line's place holds the file
/// name the page saves it under.
fn download(id: &str, kind: &str) -> (u32, String) {
    let kind = match kind {
        "csv" => Download::Csv,
        "b-file" => Download::BFile,
        other => {
            return refusal(ApiError::bad(format!(
                "unknown download {other:?}: csv or b-file"
            )))
        }
    };
    JOBS.with(|jobs| {
        let jobs = jobs.borrow();
        let Some(job) = jobs.iter().find(|j| j.id == id) else {
            return refusal(ApiError::new(
                404,
                format!("no job {id} (finished jobs are forgotten after {KEPT} newer ones)"),
            ));
        };
        let Some(values) = &job.values else {
            return refusal(ApiError::bad(format!(
                "runs of more than {} heaps are not kept for download: use `grundy seq {} --from {} --to {} --out values.txt`",
                series::DOWNLOADABLE, job.game, job.from, job.to
            )));
        };
        let mut text = kind.file_name(&job.game, job.from, job.to);
        text.push('\n');
        text.push_str(&kind.text(job.from, values, 0, values.len()));
        (200, text)
    })
}

/// Standard output and error of the command line in a page.
pub(crate) struct Stream(pub u32);

impl Write for Stream {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        host::write(self.0, bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ask(request: serde_json::Value) -> (u32, String) {
        call(request.to_string().as_bytes())
    }

    #[test]
    fn an_api_request_is_answered_as_the_server_answers_it() {
        let (status, text) = ask(serde_json::json!({
            "op": "api", "endpoint": "value", "body": {"sum": "nim 3 4 5"}
        }));
        assert_eq!(status, 200);
        let answer: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(answer["nim_sum"], 2);
        assert_eq!(answer["winning_moves"][0]["to"][0], "1");
    }

    #[test]
    fn bad_requests_get_the_apis_status_and_message() {
        let (status, text) = ask(serde_json::json!({
            "op": "api", "endpoint": "value", "body": {"sum": "nim x"}
        }));
        assert_eq!(status, 400);
        assert!(
            text.contains("a heap size is a non-negative integer"),
            "{text}"
        );
        let (status, _) = ask(serde_json::json!({"op": "api", "endpoint": "nope", "body": {}}));
        assert_eq!(status, 404);
        let (status, text) = call(b"not json");
        assert_eq!(status, 400);
        assert!(text.contains("not a request of the page"), "{text}");
        // Budgets are named as the page's.
        let (status, text) = ask(serde_json::json!({
            "op": "api", "endpoint": "quotient", "body": {"game": "kayles", "max_heap": 65}
        }));
        assert_eq!(status, 400);
        assert!(text.contains("beyond the page's quotients"), "{text}");
    }

    #[test]
    fn the_command_line_prints_what_the_binary_prints() {
        let (status, _) =
            ask(serde_json::json!({"op": "cli", "args": ["value", "nim", "3", "4", "5"]}));
        assert_eq!(status, 0);
        let (out, err) = host::take_output();
        assert_eq!(
            out,
            "[1] nim 3  grundy 3\n[2] nim 4  grundy 4\n[3] nim 5  grundy 5\nnim-sum 2: first player wins\n1 winning move:\n  [1] nim: 3 -> 1\n"
        );
        assert_eq!(err, "");
        let (status, _) = ask(serde_json::json!({"op": "cli", "args": ["value", "nim", "x"]}));
        assert_eq!(status, 2);
        let (out, err) = host::take_output();
        assert_eq!(out, "");
        assert!(err.starts_with("error: "), "{err}");
    }

    #[test]
    fn a_command_reads_the_files_the_page_gives() {
        let script = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/kayles.rhai"),
        )
        .unwrap();
        let (status, _) = ask(serde_json::json!({
            "op": "cli",
            "args": ["seq", "script:game.rhai", "--to", "5"],
            "files": {"game.rhai": script},
        }));
        // Natively the disk is read: the file given stands for it only in a page.
        let (out, err) = host::take_output();
        if grundy::IN_BROWSER {
            assert_eq!(status, 0, "{err}");
            assert!(out.contains("0: 0 1 2 3 1 4"), "{out}");
        } else {
            assert_eq!(status, 2);
            assert!(err.contains("game.rhai"), "{err}");
        }
    }

    #[test]
    fn a_long_sequence_is_summarised_and_its_values_downloaded() {
        let (status, text) = ask(serde_json::json!({
            "op": "job", "id": "7", "body": {"kind": "seq", "game": "0.07", "from": 0, "to": 99, "columns": 10}
        }));
        assert_eq!(status, 200, "{text}");
        let summary: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(summary["values"].as_array().unwrap().len(), 100);
        assert_eq!(summary["game"], "0.07");
        assert_eq!(summary["columns"].as_array().unwrap().len(), 10);
        let (status, text) = ask(serde_json::json!({"op": "download", "id": "7", "kind": "csv"}));
        assert_eq!(status, 200);
        let mut lines = text.lines();
        assert_eq!(lines.next(), Some("0.07-0-99.csv"));
        assert_eq!(lines.next(), Some("n,grundy"));
        assert_eq!(lines.next(), Some("0,0"));
        assert_eq!(text.lines().count(), 102);
        let (status, text) =
            ask(serde_json::json!({"op": "download", "id": "7", "kind": "b-file"}));
        assert_eq!(status, 200);
        assert_eq!(text.lines().nth(3), Some("2 1"));
        let (status, _) = ask(serde_json::json!({"op": "download", "id": "8", "kind": "csv"}));
        assert_eq!(status, 404);
        let (status, text) = ask(serde_json::json!({
            "op": "job", "id": "9", "body": {"kind": "seq", "game": "0.07", "from": 5, "to": 1}
        }));
        assert_eq!(status, 400);
        assert!(text.contains("nothing to list"), "{text}");
    }
}
