//! The `grundy` command: who wins a sum of impartial games, and how.
//!
//! The command line itself is the library's [`grundy_cli::run`]; this
//! program gives it the process's streams and Ctrl-C, and a roomy stack.

use std::io::Write;
use std::process::ExitCode;

/// The stack of the thread that does the work (address space, not memory):
/// searches recurse as deep as games last.
const WORKER_STACK: usize = 1 << 30;

fn main() -> ExitCode {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let worker = std::thread::Builder::new()
        .stack_size(WORKER_STACK)
        .spawn(move || {
            let stdin = std::io::stdin();
            let mut input = stdin.lock();
            let stdout = std::io::stdout();
            let mut out = std::io::BufWriter::new(stdout.lock());
            let mut err = std::io::stderr();
            grundy_cli::run(
                args,
                &mut grundy_cli::Host {
                    stdin: &mut input,
                    stdout: &mut out,
                    stderr: &mut err,
                    progress: None,
                    interrupted: grundy_cli::ctrl_c(),
                },
            )
        });
    match worker.map(|w| w.join()) {
        Ok(Ok(status)) => ExitCode::from(status),
        Ok(Err(panic)) => std::panic::resume_unwind(panic),
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "error: cannot write output: {e}");
            ExitCode::from(2)
        }
    }
}
