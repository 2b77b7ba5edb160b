//! `safari typeset-worker` (hidden): the bounded process `build` and `watch` typeset in, and
//! the bounds those commands give it (`--typeset-timeout`, `--typeset-memory`).
//!
//! The worker reads build requests on stdin and answers on stdout until stdin closes (see
//! `backends::print::worker` for why typesetting runs apart). It bounds its own heap before
//! anything else; its parent enforces the time.

use std::io::BufWriter;
use std::time::Duration;

use super::exit;
use crate::backends::print::worker::{self, Bounds, Worker};
use crate::backends::print::{RenderCache, Typesetting};

#[derive(clap::Args)]
pub struct Args {
    /// Bytes the worker's heap may hold.
    #[arg(long = "memory-bytes", value_name = "BYTES")]
    memory_bytes: u64,
}

pub fn run(args: Args) -> u8 {
    crate::memory::set_limit(args.memory_bytes);
    let mut input = std::io::stdin().lock();
    let output = BufWriter::with_capacity(1 << 16, std::io::stdout());
    // What `watch`'s builds keep for the next: an eighth of the memory bound at most.
    let cache = RenderCache::new(usize::try_from(args.memory_bytes / 8).unwrap_or(usize::MAX));
    match crate::backends::print::wire::serve(
        &mut input,
        output,
        &cache,
        &crate::rules::page_export,
    ) {
        Ok(()) => exit::OK,
        // The parent is gone: there is nobody to tell.
        Err(_) => exit::FAILURE,
    }
}

/// The bounds of typesetting, as `build` and `watch` take them.
#[derive(clap::Args)]
pub(crate) struct BoundsArgs {
    /// Stop typesetting a build after this many seconds: a template or park-rules.typ that
    /// loops is reported (SZ0704) instead of running for hours. By default 300 for the
    /// build, and 60 for a document that runs the game's own Typst (its Park Rules, a
    /// template it overrides); given, it bounds every document alike.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    typeset_timeout: Option<f64>,

    /// Stop typesetting when its memory goes over SIZE: MiB, or with a unit (512M, 4G).
    #[arg(
        long,
        value_name = "SIZE",
        value_parser = parse_size,
        default_value_t = MemorySize(Bounds::DEFAULT.memory)
    )]
    typeset_memory: MemorySize,
}

impl BoundsArgs {
    /// A bounded worker running this binary, or the exit code when it cannot be found.
    pub fn typesetting(&self) -> Result<Typesetting, u8> {
        // A time given bounds every document alike; by default, the game's own Typst gets
        // less than the whole build.
        let bounds = match self.typeset_timeout {
            Some(seconds) => {
                Bounds::within(Duration::from_secs_f64(seconds), self.typeset_memory.0)
            }
            None => Bounds {
                memory: self.typeset_memory.0,
                ..Bounds::DEFAULT
            },
        };
        match Worker::this_program(bounds) {
            Ok(worker) => Ok(Typesetting::Bounded(worker)),
            Err(err) => {
                super::error(format_args!(
                    "cannot find this program to typeset in a worker: {err}"
                ));
                Err(exit::FAILURE)
            }
        }
    }
}

fn parse_seconds(text: &str) -> Result<f64, String> {
    text.trim()
        .parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && *s > 0.0 && *s <= 86_400.0)
        .ok_or_else(|| format!("`{text}` is not a number of seconds from 0 to 86400"))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct MemorySize(u64);

impl std::fmt::Display for MemorySize {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&worker::size(self.0))
    }
}

/// "4096" (MiB), "512M", "512 MiB", "4G", "4 GiB"; at least 64 MiB (less does not run the
/// worker at all) and at most 1 TiB.
fn parse_size(text: &str) -> Result<MemorySize, String> {
    let fault = || format!("`{text}` is not a memory size from 64M to 1024G (e.g. 512M, 4G)");
    let trimmed = text.trim();
    let split = trimmed
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(trimmed.len());
    let (number, unit) = trimmed.split_at(split);
    let number: u64 = number.parse().map_err(|_| fault())?;
    let unit = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "m" | "mb" | "mib" => 1 << 20,
        "g" | "gb" | "gib" => 1 << 30,
        _ => return Err(fault()),
    };
    number
        .checked_mul(unit)
        .filter(|bytes| (64 << 20..=1 << 40).contains(bytes))
        .map(MemorySize)
        .ok_or_else(fault)
}
