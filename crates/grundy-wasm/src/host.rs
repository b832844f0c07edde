//! What the module takes from the page: output, progress and the clock
//! (imported from `env`), and the command line run over them. Compiled
//! natively (for tests), output is kept in memory and progress is dropped.

use std::io::{BufWriter, Write};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
mod imports {
    #[link(wasm_import_module = "env")]
    extern "C" {
        /// Text from the command line: stream 1 is its standard output, 2 its
        /// standard error.
        pub fn grundy_write(stream: u32, ptr: *const u8, len: usize);
        /// Work done of work to do (0: open-ended).
        pub fn grundy_progress(done: f64, total: f64);
    }
}

/// Sends `bytes` to the page as part of stream 1 or 2.
pub fn write(stream: u32, bytes: &[u8]) {
    #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
    // SAFETY: the page copies the bytes out before the call returns.
    unsafe {
        imports::grundy_write(stream, bytes.as_ptr(), bytes.len())
    };
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    CAPTURED.with(|c| {
        let mut c = c.borrow_mut();
        let index = usize::from(stream == 2);
        c[index].extend_from_slice(bytes);
    });
}

/// Tells the page how far a run is.
pub fn progress(done: u64, total: u64) {
    #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
    // SAFETY: two numbers, no memory.
    unsafe {
        imports::grundy_progress(done as f64, total as f64)
    };
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    let _ = (done, total);
}

#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
thread_local! {
    static CAPTURED: std::cell::RefCell<[Vec<u8>; 2]> = const { std::cell::RefCell::new([Vec::new(), Vec::new()]) };
}

/// What the command line wrote since the last call: (stdout, stderr). Native
/// builds only, for tests.
#[cfg(all(test, not(all(target_arch = "wasm32", target_os = "unknown"))))]
pub fn take_output() -> (String, String) {
    CAPTURED.with(|c| {
        let mut c = c.borrow_mut();
        let out = String::from_utf8_lossy(&std::mem::take(&mut c[0])).into_owned();
        let err = String::from_utf8_lossy(&std::mem::take(&mut c[1])).into_owned();
        (out, err)
    })
}

/// A panic's message, or a failed allocation's, goes to standard error
/// before the module stops, so that the page can show why.
pub fn install_panic_hook() {
    static INSTALLED: std::sync::Once = std::sync::Once::new();
    INSTALLED.call_once(|| {
        std::panic::set_hook(Box::new(|info| {
            write(
                2,
                format!("error: grundy stopped on a bug (please report the command): {info}\n")
                    .as_bytes(),
            );
        }));
        #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
        std::alloc::set_alloc_error_hook(|layout| {
            write(
                2,
                format!(
                    "error: grundy in the page ran out of memory: {} more did not fit in the tab's WebAssembly memory (4 GB at most); ask for less, or use the native grundy\n",
                    grundy::memory::human(layout.size() as u64)
                )
                .as_bytes(),
            );
        });
    });
}

/// Runs `grundy ARGS` with `stdin` as its input; its output goes to the page
/// as the binary's goes to a terminal: standard error at once, standard
/// output in blocks of 8 KiB (the binary's buffer) and all of it at the end.
pub fn run_cli(args: Vec<String>, stdin: String) -> u8 {
    let mut input = std::io::Cursor::new(stdin.into_bytes());
    let mut stdout = BufWriter::with_capacity(8 << 10, crate::Stream(1));
    let mut stderr = crate::Stream(2);
    let status = {
        let mut host = grundy_cli::Host {
            stdin: &mut input,
            stdout: &mut stdout,
            stderr: &mut stderr,
            progress: Some(Arc::new(progress)),
            interrupted: Arc::new(AtomicBool::new(false)),
        };
        grundy_cli::run(args, &mut host)
    };
    let _ = stdout.flush();
    status
}
