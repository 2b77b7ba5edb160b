//! The shared core: what every game's content and every layer above it build on, knowing no
//! game. `world` is the one seam files are read through and the table of sources diagnostics
//! point into; `diag` the diagnostics (codes, labels, fixes, rendering); `load` the readers
//! every loader shares (recoverable TOML, the KDL of roll-and-write sheets, symbol tables,
//! limits, the manifest's shared formats); `model` what every game's model shares (located
//! values, paper and card sizes, a sheet's structure); `words` numbers in words for people
//! (plurals, rates, durations). It links no Typst and touches no
//! output: the crates above it add the layout, the component layer, the rules modules and the
//! backends.

pub mod diag;
pub mod load;
pub mod model;
pub mod words;
pub mod world;
