//! The built-in families, one file each. Each file defines the game's rules;
//! [`crate::spec`] reads the text that names it.

pub mod callback;
pub mod chocolate;
pub mod chomp;
pub mod cram;
pub mod dag;
pub mod divide;
pub mod hackenbush;
pub mod knight;
pub mod moore;
pub mod nim;
pub mod nodekayles;
pub mod octal;
pub mod powers;
pub mod script;
pub mod staircase;
pub mod subtraction;
pub mod treblecross;
