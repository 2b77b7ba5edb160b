//! Load and check arbitrary games made of components: `game.toml`, `components.toml`,
//! `maps.toml` (a second component file) and `sheet.kdl` (a roll-and-write sheet's layout),
//! separated by NUL bytes. Whatever the bytes, checking
//! must not panic and rendering its diagnostics must not either; and when the check passes,
//! planning the build (print documents and the Tabletop Simulator export) must not panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use safari::diag::{RenderOptions, render_human, render_json};
use safari::world::GameFolder;

const FILES: [&str; 4] = ["game.toml", "components.toml", "maps.toml", "sheet.kdl"];

fuzz_target!(|data: &[u8]| {
    let mut folder = GameFolder::in_memory();
    for (name, bytes) in FILES.iter().zip(data.split(|b| *b == 0)) {
        let _ = folder.add_bytes(name, bytes.to_vec());
    }
    let checked = safari::check(&mut folder);
    if let Some(table) = &checked.table
        && !checked.diagnostics.has_errors()
        && let Some(module) = safari::rules::module(&table.manifest.rules.value)
    {
        let data = safari::backends::table::data::table_data(
            table,
            module,
            table.manifest.paper,
            Default::default(),
        );
        let _ = safari::backends::table::ruleset::ruleset(table, module);
        let _ = safari::backends::table::tts::Export::plan(&data);
    }
    let diagnostics = checked.diagnostics.into_vec();
    let _ = render_json(&diagnostics, &folder);
    let _ = render_human(&diagnostics, &folder, RenderOptions::default());
});
