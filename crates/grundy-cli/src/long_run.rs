//! Long computations on the command line: a progress bar on stderr, Ctrl-C
//! that stops cleanly (saving the checkpoint first), and the flags for both.

use grundy::family::LongRun;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
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

/// The flag Ctrl-C sets; installed once per process.
pub fn interrupted() -> Arc<AtomicBool> {
    static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();
    FLAG.get_or_init(|| {
        let flag = Arc::new(AtomicBool::new(false));
        let handler_flag = flag.clone();
        // If a handler cannot be installed, Ctrl-C simply ends the process as usual.
        let _ = ctrlc::set_handler(move || {
            if handler_flag.swap(true, Ordering::SeqCst) {
                // A second Ctrl-C while saving: the user really wants out.
                std::process::exit(130);
            }
        });
        flag
    })
    .clone()
}

/// The long-run settings for a family, with a progress bar labelled `label`.
pub fn long_run(flags: &RunFlags, label: &str) -> LongRun {
    let show = !flags.quiet && std::io::stderr().is_terminal();
    // Created now, hidden, so that its clock (rate, ETA) starts with the work;
    // it appears only once a report says work is still going on, so quick
    // commands never draw it.
    let bar = show.then(|| {
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
        bar.set_style(
            ProgressStyle::with_template(
                "{msg} [{bar:30}] {human_pos}/{human_len} heaps, {per_sec}, ETA {eta}",
            )
            .expect("valid template")
            .progress_chars("=> "),
        );
        bar.set_message(label.to_string());
        bar
    });
    LongRun {
        progress: Box::new(move |done, total| {
            let Some(bar) = &bar else {
                return;
            };
            if total == 0 {
                // Open-ended work (a search): `done` counts positions.
                if bar.is_hidden() {
                    bar.set_style(
                        ProgressStyle::with_template(
                            "{msg} {spinner} {human_pos} positions searched, {per_sec}, {elapsed}",
                        )
                        .expect("valid template"),
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
        }),
        interrupted: interrupted(),
        checkpoint: flags.checkpoint.clone(),
        checkpoint_every: Duration::from_secs(flags.checkpoint_every.max(1)),
    }
}

/// Progress bars (on a terminal) and Ctrl-C for every family of a sum, so a
/// large table built for `value` or `play` never looks like a hang.
pub fn show_progress(sum: &mut grundy::sum::Sum, flags: &RunFlags) {
    let families: std::collections::BTreeSet<usize> =
        sum.components().iter().map(|c| c.family).collect();
    for index in families {
        let family = sum.family_mut(index);
        let label = family.spec();
        family.configure_long_run(long_run(flags, &label));
    }
    // Searches over the whole sum (misère play) report and stop too.
    let whole = long_run(flags, "misère search");
    sum.watch(whole.interrupted, whole.progress);
}
