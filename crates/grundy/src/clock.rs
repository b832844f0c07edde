//! The clock that paces progress reports, checkpoints and time limits.
//!
//! Natively this is [`std::time::Instant`]. A WebAssembly module in a
//! browser has no clock of its own (`Instant::now` stops the module there),
//! so on `wasm32-unknown-unknown` the time comes from the page: the module
//! imports `env.grundy_now`, which returns `performance.now()` in
//! milliseconds.

#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub use std::time::Instant;

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub use browser::Instant;

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
mod browser {
    use std::time::Duration;

    #[link(wasm_import_module = "env")]
    extern "C" {
        /// Milliseconds since the page started, never going back.
        fn grundy_now() -> f64;
    }

    /// A moment, read from the page's monotonic clock.
    #[derive(Debug, Clone, Copy, PartialEq, PartialOrd)]
    pub struct Instant(f64);

    impl Instant {
        /// Now.
        pub fn now() -> Self {
            // SAFETY: an imported function without arguments or memory access.
            Instant(unsafe { grundy_now() })
        }

        /// The time since this moment.
        pub fn elapsed(&self) -> Duration {
            Instant::now().duration_since(*self)
        }

        /// The time from `earlier` to this moment (zero if it was later).
        pub fn duration_since(&self, earlier: Instant) -> Duration {
            Duration::from_secs_f64(((self.0 - earlier.0) / 1000.0).max(0.0))
        }
    }

    impl std::ops::Sub for Instant {
        type Output = Duration;
        fn sub(self, earlier: Instant) -> Duration {
            self.duration_since(earlier)
        }
    }

    impl std::ops::Add<Duration> for Instant {
        type Output = Instant;
        fn add(self, d: Duration) -> Instant {
            Instant(self.0 + d.as_secs_f64() * 1000.0)
        }
    }
}
