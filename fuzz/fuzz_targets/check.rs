//! Load and check arbitrary game folders: the six content files, separated by NUL bytes.
//! Whatever the bytes, checking must not panic, and rendering its diagnostics must not either.
#![no_main]

use libfuzzer_sys::fuzz_target;
use safari::diag::{RenderOptions, render_human, render_json};
use safari::world::GameFolder;

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
    let checked = safari::check(&mut folder);
    let diagnostics = checked.diagnostics.into_vec();
    let _ = render_json(&diagnostics, &folder);
    let _ = render_human(&diagnostics, &folder, RenderOptions::default());
});
