//! safari: a compiler for tabletop game content.
//!
//! The pipeline is load -> model -> check -> backends -> out/ (see ARCHITECTURE.md). The library
//! crates under `crates/` do everything short of writing: `safari-rules` checks and builds a
//! game in memory, over the layout, the component layer, the engine and the backends. This crate
//! is the command layer's library: the output seam, the only code that writes ([`output`]), and
//! the games built into the binary ([`embedded`]); the commands are the binary's own
//! (`src/main.rs` and `src/cli/`, one file per command). The library crates are re-exported
//! under the names the commands, tests and benchmarks use.

pub mod embedded;
pub mod output;

pub use safari_backends::{self as backends, memory, raster};
pub use safari_components as components;
pub use safari_core::{diag, model, words, world};
pub use safari_layout::{self as layout, fonts};
pub use safari_rules::{
    self as rules, Built, CheckOptions, Checked, build, build_with, charts, check, check_with,
    emit_typst, html, load, rules_of, schemas,
};
