//! Safari Zone RNW's playtest page: one HTML file a designer can email or put on any static
//! host, that plays the game with the rules enforced, opened from disk with no server and no
//! network.
//!
//! The page holds four things, and no rule: the rules engine as WebAssembly (built from
//! `crates/engine-wasm` by this crate's build script, run by the page in a Web Worker), the
//! ruleset as `ruleset.json` has it (read by the engine when the page runs, so another ruleset
//! of the same format can be opened in its place), the planner's model of that ruleset, and
//! the pictures the print files are made of (the sheet's two sides, each card design and die
//! face, as SVG from the same typesetting). The engine, the model and the pictures are gzipped
//! and base64-encoded, and unpacked by the browser's own `DecompressionStream`. The script and
//! its stylesheet are `page/`; this crate only puts the file together, as bytes: a pure
//! backend, which the compiler's build writes.

use std::io::Write;

use base64::Engine;
use maud::{DOCTYPE, PreEscaped, html};
use serde::Serialize;

/// The rules engine, as WebAssembly.
pub const ENGINE_WASM: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/safari_engine.wasm"));
/// The family's engines, as WebAssembly (the same crate built with its family entry point).
pub const FAMILY_ENGINE_WASM: &[u8] =
    include_bytes!(concat!(env!("OUT_DIR"), "/safari_family_engine.wasm"));

/// What both pages' scripts share (`SafariPage`), loaded before each.
const SHARED_SCRIPT: &str = include_str!("../page/engine.js");
const SCRIPT: &str = include_str!("../page/play.js");
const STYLE: &str = include_str!("../page/play.css");
const FAMILY_SCRIPT: &str = include_str!("../page/family.js");
const FAMILY_STYLE: &str = include_str!("../page/family.css");

/// What the page loads nothing beyond: every script, style and picture is in the file, the
/// WebAssembly is compiled from bytes the page holds, and the engine runs in a Web Worker made
/// from a script the page holds (a `blob:` URL), so that the page never waits on it.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'unsafe-inline' \
     'wasm-unsafe-eval'; style-src 'unsafe-inline'; img-src data: blob:; connect-src data:; \
     worker-src blob:; form-action 'none'; base-uri 'none'";

/// The pictures the page draws the game with, each an SVG document, as the print files have
/// them.
#[derive(Debug, Default, Serialize)]
pub struct Pictures {
    /// The sheet's front (the Field Guide) and back (the Park Rules).
    pub sheet: Vec<String>,
    /// The sheet's size in mm.
    pub sheet_mm: (f64, f64),
    /// Each card design by the card's id, and the back.
    pub cards: Vec<(String, String)>,
    pub card_back: Option<String>,
    /// The dice faces' pictures, each once.
    pub faces: Vec<String>,
    /// Each die's faces, by dice set, die and face in the ruleset's order, as places in
    /// `faces`.
    pub dice: Vec<Vec<Vec<usize>>>,
}

/// The page, for the game named `title`, playing `ruleset_json` (the text of ruleset.json)
/// and drawing it with `pictures`; `planner_model` is the planner's model of the ruleset
/// (the text of `safari_engine::search::Model`), fitted where the page is built so that the
/// page's planner needs no study before its first move.
pub fn page(title: &str, ruleset_json: &str, pictures: &Pictures, planner_model: &str) -> Vec<u8> {
    let pictures = serde_json::to_vec(pictures).expect("pictures serialise");
    let markup = html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                meta http-equiv="Content-Security-Policy" content=(CONTENT_SECURITY_POLICY);
                title { (title) " · playtest" }
                style { (PreEscaped(STYLE)) }
            }
            body {
                div #app data-state="loading" {
                    p.loading { "Loading " (title) "…" }
                }
                noscript { p { "This page plays the game in your browser: it needs JavaScript." } }
                script #ruleset type="application/json" { (PreEscaped(script_safe(ruleset_json))) }
                script #engine type="application/gzip+base64" { (packed(ENGINE_WASM)) }
                script #pictures type="application/gzip+base64" { (packed(&pictures)) }
                script #planner type="application/gzip+base64" { (packed(planner_model.as_bytes())) }
                script { (PreEscaped(SHARED_SCRIPT)) }
                script { (PreEscaped(SCRIPT)) }
            }
        }
    };
    markup.into_string().into_bytes()
}

/// The page of a game made of components whose rules have an engine
/// (`safari_engine::family`), playing `ruleset_json` (the text of its ruleset.json). The same
/// engine module runs it, through its family entry point; the cards are drawn from the
/// ruleset's symbols (colour, glyph, name), so a ruleset opened later draws its own.
pub fn family_page(title: &str, ruleset_json: &str) -> Vec<u8> {
    let markup = html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                meta http-equiv="Content-Security-Policy" content=(CONTENT_SECURITY_POLICY);
                title { (title) " · playtest" }
                style { (PreEscaped(FAMILY_STYLE)) }
            }
            body {
                div #app data-state="loading" {
                    p.loading { "Loading " (title) "…" }
                }
                noscript { p { "This page plays the game in your browser: it needs JavaScript." } }
                script #ruleset type="application/json" { (PreEscaped(script_safe(ruleset_json))) }
                script #engine type="application/gzip+base64" { (packed(FAMILY_ENGINE_WASM)) }
                script { (PreEscaped(SHARED_SCRIPT)) }
                script { (PreEscaped(FAMILY_SCRIPT)) }
            }
        }
    };
    markup.into_string().into_bytes()
}

/// JSON text safe inside a `<script>` element: no `<` to end it early (`\u003c` reads as the
/// same character in JSON).
fn script_safe(json: &str) -> String {
    json.replace('<', "\\u003c")
}

/// Bytes gzipped (with no timestamp: the same bytes give the same page) and base64-encoded.
fn packed(bytes: &[u8]) -> String {
    let mut gzip = flate2::GzBuilder::new()
        .mtime(0)
        .write(Vec::new(), flate2::Compression::default());
    gzip.write_all(bytes).expect("writing to memory");
    let gzipped = gzip.finish().expect("writing to memory");
    base64::engine::general_purpose::STANDARD.encode(gzipped)
}
