//! grundy: impartial combinatorial games under the Sprague-Grundy theorem.
//!
//! Every impartial game under normal play is equivalent to a Nim heap whose
//! size is its Grundy value, the mex of its options' values; a sum of games is
//! a first-player win exactly when the XOR of its components' values is not
//! zero. This crate computes those values for many families of games, adds them
//! up, and names every winning move.
//!
//! - [`game::Game`] describes a game by its moves; [`solve::Solver`] finds values
//!   with a sparse memo, [`heap::HeapTable`] with a dense table for heap games.
//! - [`family::Family`] is the uniform face of a family, with positions as
//!   [`Position`] values; [`spec`] reads family names, and [`sum::Sum`]
//!   analyses sums across families.

#![warn(missing_docs)]

pub mod census;
pub mod certificate;
pub mod clock;
pub mod columns;
pub mod error;
pub mod family;
pub mod files;
pub mod game;
pub mod games;
pub mod genus;
pub mod graph;
pub mod heap;
pub mod json;
pub mod loopy;
pub mod memory;
pub mod misere;
pub mod nimber;
pub mod pace;
pub mod page;
pub mod pattern;
pub mod period;
pub mod play;
pub mod position;
pub mod quotient;
pub mod search;
pub mod solve;
pub mod spec;
pub mod sum;

pub use error::{Error, Result};
pub use nimber::Value;
pub use position::Position;

/// Whether this is grundy compiled to WebAssembly for a page
/// (`wasm32-unknown-unknown`): no threads, no files, the page's clock.
pub const IN_BROWSER: bool = cfg!(all(target_arch = "wasm32", target_os = "unknown"));

/// Whether this platform runs threads. A WebAssembly module in a page has
/// one thread: work that natively runs beside the main loop runs in it.
pub const THREADS: bool = !IN_BROWSER;
