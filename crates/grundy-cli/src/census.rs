//! `grundy census`: every game of a family, a row each, on all cores, with a
//! progress bar across the whole census; the work is `grundy::census`'s.
//! The command is parsed everywhere, and runs with the `native` feature
//! (it needs threads, and files to resume from).

use std::path::PathBuf;

#[cfg(feature = "native")]
pub use running::run;

/// Which family, and how much of it.
#[derive(clap::Subcommand)]
pub enum Family {
    /// Every octal code 0.d1...dk with k <= D digits.
    Octal {
        /// The most digits after the point.
        #[arg(long, value_name = "D")]
        digits: usize,
        #[command(flatten)]
        flags: Flags,
    },
    /// Every hexadecimal code hex:0.d1...dk with k <= D digits.
    Hex {
        /// The most digits after the point.
        #[arg(long, value_name = "D")]
        digits: usize,
        #[command(flatten)]
        flags: Flags,
    },
    /// Every subtraction game sub:S with S a non-empty subset of 1..=K.
    Sub {
        /// The largest number that may be taken.
        #[arg(long, value_name = "K")]
        max_take: usize,
        #[command(flatten)]
        flags: Flags,
    },
}

/// What every census takes.
#[derive(clap::Args)]
pub struct Flags {
    /// Tabulate each game to at most N heaps (when its period is not proven sooner).
    #[arg(long, value_name = "N", default_value_t = 1 << 17)]
    max: u64,
    /// Keep the rows in FILE (.csv or .jsonl), appended as each code finishes;
    /// the same command resumes it. Without it a Markdown table is printed.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// How many codes to compute at once (default: one per core).
    #[arg(long, value_name = "J")]
    jobs: Option<usize>,
    /// No progress bar.
    #[arg(long, short)]
    quiet: bool,
    /// Write every `seconds` as 0, so that two runs give identical files (tests).
    #[arg(long, hide = true)]
    zero_seconds: bool,
}

#[cfg(feature = "native")]
mod running {
    use super::Family;
    use crate::long_run::Watch;
    use grundy::census::{self, Format, Log, Params, Scope, Status};
    use grundy::Error;
    use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
    use std::io::{IsTerminal, Write};

    /// Runs the census and prints its table (or a summary, with `--out`).
    pub fn run(
        family: Family,
        out: &mut impl Write,
        err: &mut dyn Write,
        watch: &Watch,
    ) -> Result<(), Error> {
        let (scope, flags) = match family {
            Family::Octal { digits, flags } => (Scope::Octal { digits }, flags),
            Family::Hex { digits, flags } => (Scope::Hex { digits }, flags),
            Family::Sub { max_take, flags } => (Scope::Sub { max_take }, flags),
        };
        let params = Params::new(scope, flags.max)?;
        let mut log = match &flags.out {
            Some(path) => Log::open(params, path)?,
            None => Log::in_memory(params),
        };
        for note in &log.notes {
            let _ = writeln!(err, "note: {note}");
        }
        if flags.zero_seconds {
            log.zero_seconds();
        }
        let jobs = flags
            .jobs
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
            .max(1);
        let report = watch.progress.clone().filter(|_| !flags.quiet);
        let bar =
            (report.is_none() && !flags.quiet && std::io::stderr().is_terminal()).then(|| {
                let bar = ProgressBar::with_draw_target(Some(1), ProgressDrawTarget::stderr());
                bar.set_style(
                    ProgressStyle::with_template("census [{bar:30}] {msg}, ETA {eta}")
                        .expect("valid template")
                        .progress_chars("=> "),
                );
                bar
            });
        let interrupted = watch.interrupted();
        let result = census::run(&mut log, jobs, &interrupted, &mut |status| {
            if let Some(report) = &report {
                let (done, total) = work(status);
                report(done, total);
            }
            if let Some(bar) = &bar {
                show(bar, status);
            }
        });
        if let Some(bar) = &bar {
            bar.finish_and_clear();
        }
        let rows = log.rows();
        let unsolved = rows
            .iter()
            .filter(|r| !r.proven && r.same_as.is_none())
            .count();
        let summary = format!(
            "{} of {} codes done: {} proven, {} distinct {} unsolved within {} heaps",
            rows.len(),
            log.members().len(),
            rows.iter().filter(|r| r.proven).count(),
            unsolved,
            if unsolved == 1 { "game" } else { "games" },
            params.max
        );
        match &flags.out {
            Some(path) => {
                if result.is_ok() {
                    let _ = writeln!(err, "{summary}; written to {}", path.display());
                }
            }
            None => {
                let io = |e: std::io::Error| Error::Io(format!("cannot write output: {e}"));
                out.write_all(log.render(Format::Markdown).as_bytes())
                    .map_err(io)?;
                if result.is_ok() {
                    let _ = writeln!(err, "{summary}");
                }
            }
        }
        result.map_err(|e| match e {
            Error::Interrupted(message) => Error::Interrupted(match &flags.out {
                Some(path) => format!(
                    "{message}; every finished row is in {}: run the same command to resume",
                    path.display()
                ),
                None => format!("{message} (with --out FILE a census keeps its rows and resumes)"),
            }),
            other => other,
        })
    }

    /// The work done and the work to do, in units of a million (of heaps
    /// squared, as the census estimates it).
    fn work(status: &Status) -> (u64, u64) {
        let scale = 1e-6;
        (
            (status.work_done * scale) as u64,
            (status.work_total * scale).max(1.0) as u64,
        )
    }

    fn show(bar: &ProgressBar, status: &Status) {
        let (done, total) = work(status);
        bar.set_length(total);
        bar.set_position(done);
        let running: Vec<String> = status
            .running
            .iter()
            .map(|(code, done, _)| match done {
                0 => code.clone(),
                _ => format!("{code} ({done} heaps)"),
            })
            .collect();
        bar.set_message(format!(
            "{}/{} codes, now {}",
            status.done,
            status.total,
            if running.is_empty() {
                "-".to_string()
            } else {
                running.join(" ")
            }
        ));
    }
}
