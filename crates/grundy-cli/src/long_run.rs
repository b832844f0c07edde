//! Long computations on the command line: progress (a bar on a terminal, or
//! the host's own report), a stop flag that stops cleanly (saving the
//! checkpoint first), and the flags for both.

use crate::{platform, Host, Progress};
use grundy::family::LongRun;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// Flags shared by the commands that may run for a long time.
#[derive(clap::Args, Clone)]
pub struct RunFlags {
    /// Save the computed values to FILE now and then and on Ctrl-C, and resume from it.
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,
    /// Seconds between checkpoint saves.
    #[arg(long, value_name = "SECONDS", default_value_t = 60)]
    pub checkpoint_every: u64,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
}

impl Default for RunFlags {
    fn default() -> Self {
        RunFlags {
            checkpoint: None,
            checkpoint_every: 60,
            quiet: false,
        }
    }
}

/// How long work shows its progress and learns that it is to stop: the
/// host's part of a [`LongRun`].
#[derive(Clone)]
pub struct Watch {
    /// The host's progress report; `None`: a bar on a terminal stderr.
    pub progress: Option<Progress>,
    /// The stop flag.
    pub interrupted: Arc<AtomicBool>,
}

impl Watch {
    /// The host's progress report and stop flag.
    pub fn of(host: &Host<'_>) -> Self {
        Watch {
            progress: host.progress.clone(),
            interrupted: host.interrupted.clone(),
        }
    }

    /// The stop flag, with Ctrl-C set to raise it if it is the process's
    /// own ([`crate::ctrl_c`]).
    pub fn interrupted(&self) -> Arc<AtomicBool> {
        platform::catch_ctrl_c(&self.interrupted);
        self.interrupted.clone()
    }
}

/// Sets `family`'s long-run settings from the flags, refusing `--checkpoint`
/// for a family that has no table to save rather than ignoring it.
pub fn configure(
    family: &mut dyn grundy::family::Family,
    watch: &Watch,
    flags: &RunFlags,
) -> Result<(), grundy::Error> {
    if flags.checkpoint.is_some() && !family.saves_checkpoints() {
        return Err(grundy::Error::invalid(format!(
            "--checkpoint has nothing of {} to save here: it keeps the tables of heap games (octal codes, sub:, grundy, ...) and the searches of cram, chomp and nodekayles",
            family.spec()
        )));
    }
    let spec = family.spec();
    family.configure_long_run(long_run(watch, flags, &spec));
    Ok(())
}

/// The long-run settings for a family, its progress labelled `label`.
pub fn long_run(watch: &Watch, flags: &RunFlags, label: &str) -> LongRun {
    let progress: Box<dyn FnMut(u64, u64)> = match &watch.progress {
        _ if flags.quiet => Box::new(|_, _| {}),
        Some(report) => {
            let report = report.clone();
            Box::new(move |done, total| report(done, total))
        }
        None => platform::terminal_bar(label),
    };
    LongRun {
        progress,
        interrupted: watch.interrupted(),
        checkpoint: flags.checkpoint.clone(),
        checkpoint_every: Duration::from_secs(flags.checkpoint_every.max(1)),
    }
}

/// Progress (a bar on a terminal) and the stop flag for every family of a
/// sum, so a large table built for `value` or `play` never looks like a hang.
pub fn show_progress(sum: &mut grundy::sum::Sum, watch: &Watch, flags: &RunFlags) {
    let families: std::collections::BTreeSet<usize> =
        sum.components().iter().map(|c| c.family).collect();
    // Each heap game of the sum keeps its own table: the first in the
    // file named, the next ones beside it, with `.2`, `.3`, ... appended.
    let mut tables = 0;
    for index in families {
        let family = sum.family_mut(index);
        let label = family.spec();
        let mut run = long_run(watch, flags, &label);
        if family.saves_checkpoints() {
            tables += 1;
            if tables > 1 {
                run.checkpoint = run.checkpoint.map(|path| {
                    let mut name = path.into_os_string();
                    name.push(format!(".{tables}"));
                    name.into()
                });
            }
        }
        family.configure_long_run(run);
    }
    // Searches over the whole sum (misère play) report and stop too.
    let whole = long_run(watch, flags, "misère search");
    sum.watch(whole.interrupted, whole.progress);
}
