//! Without the `native` feature (in a browser, say) the command line has
//! only what its [`crate::Host`] gives: no terminal to draw a progress bar
//! on, no signals, no server and no threads. `grundy serve` and `grundy
//! census` are parsed as everywhere, so their help is the same, and refused.

use crate::long_run::Watch;
use crate::{census, Failure, ServeOptions};
use grundy::Error;
use std::io::Write;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// Nothing to install: the host sets the flag.
pub fn catch_ctrl_c(_interrupted: &Arc<AtomicBool>) {}

/// No terminal: progress is shown only through [`crate::Host::progress`].
pub fn terminal_bar(_label: &str) -> Box<dyn FnMut(u64, u64)> {
    Box::new(|_, _| {})
}

/// The refusal of a command that needs the native program.
fn unavailable(command: &str) -> Failure {
    Failure::Grundy(Error::invalid(format!(
        "grundy {command} is not available in the browser: install the native grundy (see the guide's installation page)"
    )))
}

/// `grundy serve` needs a network server.
pub fn serve(
    _out: &mut impl Write,
    _err: &mut dyn Write,
    _options: ServeOptions,
) -> Result<(), Failure> {
    Err(unavailable("serve"))
}

/// `grundy census` needs threads, and files to resume from.
pub fn census(
    _family: census::Family,
    _out: &mut impl Write,
    _err: &mut dyn Write,
    _watch: &Watch,
) -> Result<(), Failure> {
    Err(unavailable("census"))
}

#[cfg(test)]
mod tests {
    use crate::{run, Host};
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;

    /// Runs `grundy ARGS` with captured output: (status, stdout, stderr).
    fn grundy(args: &[&str]) -> (u8, String, String) {
        let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
        let status = run(
            std::iter::once("grundy").chain(args.iter().copied()),
            &mut Host {
                stdin: &mut &b""[..],
                stdout: &mut stdout,
                stderr: &mut stderr,
                progress: None,
                interrupted: Arc::new(AtomicBool::new(false)),
            },
        );
        let text = |bytes| String::from_utf8(bytes).unwrap();
        (status, text(stdout), text(stderr))
    }

    #[test]
    fn serve_and_census_are_refused_in_one_line() {
        for (args, command) in [
            (&["serve"][..], "serve"),
            (&["serve", "--port", "0", "--open"][..], "serve"),
            (&["census", "octal", "--digits", "2"][..], "census"),
        ] {
            let (status, stdout, stderr) = grundy(args);
            assert_eq!(status, 2);
            assert_eq!(stdout, "");
            assert_eq!(
                stderr,
                format!("error: grundy {command} is not available in the browser: install the native grundy (see the guide's installation page)\n")
            );
        }
        // Their help is the same as everywhere.
        let (status, stdout, _) = grundy(&["serve", "--help"]);
        assert_eq!(status, 0);
        assert!(stdout.contains("--max-states <N>"), "{stdout}");
    }

    #[test]
    fn the_rest_works_without_the_operating_system() {
        let (status, stdout, stderr) = grundy(&["value", "nim", "3", "4", "5"]);
        assert_eq!((status, stderr.as_str()), (0, ""));
        assert!(stdout.contains("nim-sum 2: first player wins"), "{stdout}");
    }
}
