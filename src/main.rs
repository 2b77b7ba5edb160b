//! The `safari` binary: the command line (`cli/`, one file per command) over the library,
//! whose modules it names as its own (`crate::backends`, `crate::rules`, ...).

mod cli;

use safari::*;

// The KDL parser allocates heavily; mimalloc makes a cold `safari check` noticeably faster.
// The wrapper bounds the typesetting worker's heap (see crates/backends/src/memory.rs); elsewhere it only looks.
#[global_allocator]
static GLOBAL: safari::memory::Bounded<mimalloc::MiMalloc> =
    safari::memory::Bounded(mimalloc::MiMalloc);

fn main() -> std::process::ExitCode {
    cli::main()
}
