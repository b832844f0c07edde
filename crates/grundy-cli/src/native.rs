//! What needs a whole operating system: Ctrl-C, the progress bar drawn on a
//! terminal, `grundy serve` and `grundy census`.

use crate::long_run::Watch;
use crate::{census, io_error, Failure, ServeOptions};
use grundy::Error;
use indicatif::{HumanCount, ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Once, OnceLock};

/// The process's Ctrl-C flag.
fn process_flag() -> &'static Arc<AtomicBool> {
    static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();
    FLAG.get_or_init(|| Arc::new(AtomicBool::new(false)))
}

/// The flag Ctrl-C sets, for [`crate::Host::interrupted`] in a program
/// that is the command line (the `grundy` binary).
///
/// Ctrl-C is caught only once long work begins: from then on it sets the
/// flag, the work stops cleanly (saving its checkpoint) and the command
/// ends with status 130, and a second Ctrl-C ends the process at once.
/// Until then, and in commands without long work (`grundy serve`), Ctrl-C
/// ends the process as usual. Any other flag given to [`crate::run`] is
/// left to its owner, and no signal handler is installed.
pub fn ctrl_c() -> Arc<AtomicBool> {
    process_flag().clone()
}

/// Installs the Ctrl-C handler, once, if `interrupted` is [`ctrl_c`]'s flag.
pub fn catch_ctrl_c(interrupted: &Arc<AtomicBool>) {
    static CAUGHT: Once = Once::new();
    if !Arc::ptr_eq(interrupted, process_flag()) {
        return;
    }
    CAUGHT.call_once(|| {
        let flag = interrupted.clone();
        // If a handler cannot be installed, Ctrl-C simply ends the process as usual.
        let _ = ctrlc::set_handler(move || {
            if flag.swap(true, Ordering::SeqCst) {
                // A second Ctrl-C while saving: the user really wants out.
                std::process::exit(130);
            }
        });
    });
}

/// A progress bar labelled `label`, drawn on stderr if it is a terminal
/// (else nothing is shown).
pub fn terminal_bar(label: &str) -> Box<dyn FnMut(u64, u64)> {
    if !std::io::stderr().is_terminal() {
        return Box::new(|_, _| {});
    }
    // Created now, hidden, so that its clock (rate, ETA) starts with the work;
    // it appears only once a report says work is still going on, so quick
    // commands never draw it.
    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
    bar.set_style(
        ProgressStyle::with_template(
            "{msg} [{bar:30}] {human_pos}/{human_len} heaps, {rate}, ETA {eta}",
        )
        .expect("valid template")
        .with_key("rate", rate)
        .progress_chars("=> "),
    );
    bar.set_message(label.to_string());
    Box::new(move |done, total| {
        if total == 0 {
            // Open-ended work (a search): `done` counts positions.
            if bar.is_hidden() {
                bar.set_style(
                    ProgressStyle::with_template(
                        "{msg} {spinner} {human_pos} positions searched, {rate}, {elapsed}",
                    )
                    .expect("valid template")
                    .with_key("rate", rate),
                );
                bar.set_draw_target(ProgressDrawTarget::stderr());
            }
            bar.set_position(done);
            return;
        }
        if bar.is_hidden() {
            if done >= total {
                return;
            }
            bar.set_draw_target(ProgressDrawTarget::stderr());
        }
        bar.set_length(total);
        bar.set_position(done);
        if done >= total {
            bar.finish_and_clear();
        }
    })
}

/// A progress bar's rate as a whole number a second, digits grouped:
/// `1,093,300/s` (indicatif's own `{per_sec}` shows four decimals).
fn rate(state: &ProgressState, out: &mut dyn std::fmt::Write) {
    let _ = write!(out, "{}/s", HumanCount(state.per_sec().round() as u64));
}

/// `grundy serve`: prints where it listens, then serves until Ctrl-C.
pub fn serve(
    out: &mut impl Write,
    err: &mut dyn Write,
    options: ServeOptions,
) -> Result<(), Failure> {
    let ServeOptions {
        host,
        port,
        open,
        max_states,
        seconds,
        jobs,
    } = options;
    if host != "127.0.0.1" && host != "localhost" && host != "::1" {
        let _ = writeln!(
            err,
            "warning: listening on {host}: anyone who can reach this machine can use the server and its processors"
        );
    }
    let config = grundy_web::Config {
        host,
        port,
        limits: grundy_web::Limits {
            max_states: max_states.max(1),
            seconds: seconds.max(1),
            heavy: jobs.max(1),
            ..grundy_web::Limits::default()
        },
    };
    let mut printed = Ok(());
    let ready = |address: std::net::SocketAddr| {
        let shown = match address.ip() {
            ip if ip.is_unspecified() => format!("127.0.0.1:{}", address.port()),
            _ => address.to_string(),
        };
        let url = format!("http://{shown}/");
        printed =
            writeln!(out, "grundy is serving {url} (Ctrl-C stops it)").and_then(|()| out.flush());
        if open {
            if let Err(e) = grundy_web::open_browser(&url) {
                let _ = writeln!(
                    err,
                    "warning: cannot open a browser ({e}): open {url} yourself"
                );
            }
        }
    };
    grundy_web::serve(config, ready, std::future::pending())
        .map_err(|e| Failure::Grundy(Error::Io(e.to_string())))?;
    printed.map_err(io_error)
}

/// `grundy census`, on all cores, with its progress across the whole census.
pub fn census(
    family: census::Family,
    out: &mut impl Write,
    err: &mut dyn Write,
    watch: &Watch,
) -> Result<(), Failure> {
    Ok(census::run(family, out, err, watch)?)
}

#[cfg(test)]
mod tests {
    /// `grundy serve --help` shows the server's own defaults.
    #[test]
    fn serve_defaults_are_the_servers() {
        let limits = grundy_web::Limits::default();
        assert_eq!(crate::SERVE_MAX_STATES, limits.max_states);
        assert_eq!(crate::SERVE_SECONDS, limits.seconds);
        assert_eq!(crate::SERVE_JOBS, limits.heavy);
    }
}
