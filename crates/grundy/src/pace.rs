//! The pacing clock of progress reports: how often long work tells how far
//! it got. Kept apart from the families and the solvers, which both use it.

/// When a computation of unknown length reports progress: never in its
/// first second (so quick work never draws a progress bar), then about
/// once a second. Shared by the memo solver, the exploration of loopy games
/// and misère search over whole sums.
#[derive(Debug, Clone, Copy)]
pub struct Pace {
    start: crate::clock::Instant,
    last: crate::clock::Instant,
}

impl Pace {
    /// A pace whose clock starts now.
    pub fn start() -> Self {
        let now = crate::clock::Instant::now();
        Pace {
            start: now,
            last: now,
        }
    }

    /// Whether to report now (and, if so, the next report is a second away).
    pub fn due(&mut self) -> bool {
        const SECOND: std::time::Duration = std::time::Duration::from_secs(1);
        let now = crate::clock::Instant::now();
        let due = now - self.start >= SECOND && now - self.last >= SECOND;
        if due {
            self.last = now;
        }
        due
    }
}
