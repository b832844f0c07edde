//! The memory budget of searches that remember positions (the sparse memo,
//! the exploration of a loopy game, misère search).
//!
//! A count of positions says little about memory: a position of a script is
//! a tree of arrays, one of a Nim heap a word. So these searches also look
//! at what the process really holds, now and then, and give up with a clear
//! error before the machine runs out, naming the figure. The budget is half
//! of the machine's memory unless set otherwise ([`set_budget`], the command
//! line's `--max-memory`).

use crate::error::Error;
use std::sync::atomic::{AtomicU64, Ordering};

/// The budget set by [`set_budget`]; 0 means "half of the machine".
static BUDGET: AtomicU64 = AtomicU64::new(0);

/// The budget when the machine's memory cannot be read.
const FALLBACK_BUDGET: u64 = 8 << 30;

/// Sets the memory budget of every later search, in bytes (0: the default).
pub fn set_budget(bytes: u64) {
    BUDGET.store(bytes, Ordering::Relaxed);
}

/// The memory budget in bytes: as set, or half of the machine's memory.
pub fn budget() -> u64 {
    match BUDGET.load(Ordering::Relaxed) {
        0 => machine().map_or(FALLBACK_BUDGET, |total| total / 2),
        set => set,
    }
}

/// The machine's memory in bytes (`MemTotal` of `/proc/meminfo`), where known.
/// A WebAssembly module's machine is its address space: 4 GiB.
pub fn machine() -> Option<u64> {
    if crate::IN_BROWSER {
        return Some(4 << 30);
    }
    proc_kib("/proc/meminfo", "MemTotal:")
}

/// The memory this process holds now in bytes (its resident set), where known.
/// A WebAssembly module's linear memory only grows, so in a page this is
/// what the page's allocator counts as live ([`set_live_bytes`]), or else
/// the linear memory's size.
pub fn resident() -> Option<u64> {
    if let Some(live) = LIVE.get() {
        return Some(live());
    }
    #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
    return Some(core::arch::wasm32::memory_size(0) as u64 * 65_536);
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    proc_kib("/proc/self/status", "VmRSS:")
}

static LIVE: std::sync::OnceLock<fn() -> u64> = std::sync::OnceLock::new();

/// Where a program that counts its allocations (grundy in a page) says how
/// many bytes are live; [`resident`] reads it from then on.
pub fn set_live_bytes(live: fn() -> u64) {
    let _ = LIVE.set(live);
}

/// Reads a `NAME: N kB` line of a `/proc` file.
fn proc_kib(path: &str, name: &str) -> Option<u64> {
    let text = std::fs::read_to_string(path).ok()?;
    let line = text.lines().find(|l| l.starts_with(name))?;
    let kib: u64 = line[name.len()..]
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kib * 1024)
}

/// Bytes for people: `1.5 GB`, `512 MB`.
pub fn human(bytes: u64) -> String {
    const GB: f64 = (1u64 << 30) as f64;
    const MB: f64 = (1u64 << 20) as f64;
    let b = bytes as f64;
    if b >= GB {
        format!("{:.1} GB", b / GB)
    } else if b >= MB {
        format!("{:.0} MB", b / MB)
    } else {
        format!("{:.0} KB", (b / 1024.0).max(1.0))
    }
}

/// An error when the process holds more than the budget; `positions` says
/// how far the search got.
pub fn check(positions: usize) -> Result<(), Error> {
    if !over_budget() {
        return Ok(());
    }
    let whose = if BUDGET.load(Ordering::Relaxed) == 0 {
        " (half of this machine's memory)"
    } else {
        ""
    };
    Err(Error::TooLarge(format!(
        "gave up after {positions} positions, which filled the memory budget of {}{whose}; \
         a game whose positions never end needs a bound, or raise the budget with --max-memory SIZE",
        human(budget())
    )))
}

/// The state budget (`--max-states`) ran out in a game whose positions are
/// a user's own (a script, a graph): the error says the memory they took
/// and the memory budget too.
pub fn positions_exhausted(limit: usize) -> Error {
    let whose = if BUDGET.load(Ordering::Relaxed) == 0 {
        ", half of this machine's memory"
    } else {
        ""
    };
    Error::PositionsExhausted {
        limit,
        held: resident().map_or_else(|| "an unknown amount".to_string(), human),
        budget: format!("{}{whose}", human(budget())),
    }
}

/// Whether `bytes` more would still be within the budget (true where the
/// process's memory cannot be read).
pub fn fits(bytes: u64) -> bool {
    resident().is_none_or(|used| used.saturating_add(bytes) <= budget())
}

/// Whether the process holds more than the budget now.
pub fn over_budget() -> bool {
    resident().is_some_and(|used| used > budget())
}

/// Whether a hash table of `len` entries (of `entry` bytes each) with room
/// for `capacity`, about to take one more, would take the process past the
/// budget: a full table moves to one of twice the slots, and holds both
/// while it moves, a jump no look at the memory after the fact can catch.
pub fn growth_over_budget(len: usize, capacity: usize, entry: usize) -> bool {
    if len < capacity {
        return false;
    }
    // Slots are a power of two at least 8/7 of the entries, a control byte each.
    let slots = (capacity.max(4) * 8 / 7 + 1).next_power_of_two() * 2;
    let extra = (slots * (entry + 1)) as u64;
    resident().is_some_and(|used| used.saturating_add(extra) > budget())
}

/// An error when the process holds more than the budget, for work that
/// ends but is too large: "`what` needs more than the 500 MB allowed by
/// --max-memory; `advice`".
pub fn check_work(what: &str, advice: &str) -> Result<(), Error> {
    if over_budget() {
        Err(exceeded(what, advice))
    } else {
        Ok(())
    }
}

/// The error of [`check_work`].
pub fn exceeded(what: &str, advice: &str) -> Error {
    let set = BUDGET.load(Ordering::Relaxed) != 0;
    Error::TooLarge(exceeded_text(budget(), set, what, advice))
}

/// The text of [`exceeded`] for a budget of `budget` bytes, `set` by
/// --max-memory or the default.
fn exceeded_text(budget: u64, set: bool, what: &str, advice: &str) -> String {
    let allowed = if set {
        format!("the {} allowed by --max-memory", human(budget))
    } else {
        format!(
            "{}, half of this machine's memory (raise it with --max-memory SIZE)",
            human(budget)
        )
    };
    format!("{what} needs more than {allowed}; {advice}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_process_and_machine_are_measured_on_linux() {
        if cfg!(target_os = "linux") {
            let used = resident().expect("VmRSS");
            let total = machine().expect("MemTotal");
            assert!(used > 0 && used < total);
        }
    }

    #[test]
    fn work_over_the_budget_names_the_figure_and_the_flag() {
        assert_eq!(
            exceeded_text(500 << 20, true, "misère play of this sum", "try smaller heaps"),
            "misère play of this sum needs more than the 500 MB allowed by --max-memory; try smaller heaps"
        );
        assert_eq!(
            exceeded_text(12 << 30, false, "this", "that"),
            "this needs more than 12.0 GB, half of this machine's memory (raise it with --max-memory SIZE); that"
        );
    }

    #[test]
    fn sizes_read_as_people_write_them() {
        assert_eq!(human(3 << 29), "1.5 GB");
        assert_eq!(human(512 << 20), "512 MB");
        assert_eq!(human(1 << 10), "1 KB");
        assert_eq!(human(10), "1 KB");
    }
}
