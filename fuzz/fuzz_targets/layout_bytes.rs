//! The layout's promises on arbitrary game folders: the six content files separated by NUL
//! bytes, as in `check`. Checking must not panic, and a sheet laid out must keep what
//! `crates/layout/` promises (see `common/invariants.rs`). With the default game's files and a
//! hand-written field-guide.kdl joined this way, it is also how a layout fault found by the
//! `layout` target is reproduced from plain KDL.
#![no_main]

use libfuzzer_sys::fuzz_target;
use safari::world::GameFolder;

#[path = "common/invariants.rs"]
mod invariants;

const FILES: [&str; 6] = [
    "game.toml",
    "items.toml",
    "species.toml",
    "dice.toml",
    "field-guide.kdl",
    "deck.toml",
];

fuzz_target!(|data: &[u8]| {
    let mut folder = GameFolder::in_memory();
    for (name, bytes) in FILES.iter().zip(data.split(|b| *b == 0)) {
        let _ = folder.add_bytes(name, bytes.to_vec());
    }
    let checked = safari::check_with(
        &mut folder,
        &safari::CheckOptions {
            paper: None,
            sheet: true,
        },
    );
    invariants::check(&checked, data.len());
});
