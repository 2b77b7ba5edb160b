//! The default game's outputs, file by file, as SHA-256 digests in a snapshot: a change to any
//! output (a PDF, a preview, the ruleset, the Tabletop Simulator export) shows here, so a
//! restructuring that must leave the outputs as they were (the family of games' component
//! layer) is held to it, and a deliberate change is reviewed and accepted with
//! `cargo insta review`.

use std::path::Path;

use safari::backends::BuildOptions;
use safari::backends::tts::AssetBase;
use safari::world::GameFolder;
use sha2::{Digest, Sha256};

#[test]
fn the_default_game_builds_the_same_bytes() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("content/safari-zone");
    let mut folder = GameFolder::open(&dir).unwrap();
    let options = BuildOptions {
        // A fixed address: by default the export names images by their path on this machine.
        asset_base: AssetBase::Url("https://example.invalid/safari-zone".to_string()),
        ..BuildOptions::default()
    };
    let built = safari::build(&mut folder, &options);
    let mut outputs = built.outputs.expect("the default game builds");
    outputs.sort_by(|a, b| a.path.cmp(&b.path));
    let digests: String = outputs
        .iter()
        .map(|o| {
            let hex: String = Sha256::digest(&o.bytes)
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect();
            format!("{hex}  {}\n", o.path)
        })
        .collect();
    insta::assert_snapshot!("safari-zone-outputs", digests);
}
