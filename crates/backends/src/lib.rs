//! Backends: pure functions from a checked game to files, as bytes in memory.
//!
//! They know no game: the print backend typesets plans (templates and their data) that a rules
//! module or the component layer makes, `table` prints and exports any game made of
//! components, and `tts` holds what every Tabletop Simulator export shares. Each returns the
//! files it makes, with paths relative to the game's output folder. None of them touches the disk:
//! the `build` command writes what they return, atomically, and only when the check found no
//! errors. This keeps backends testable and the output folder consistent. They are the only
//! crate that links Typst; `raster` turns its pages into pictures, and `memory` bounds the heap
//! of the worker they typeset in.

pub mod memory;
pub mod print;
pub mod raster;
pub mod table;
pub mod tts;

use safari_components as components;
use safari_core::{diag, load, model, world};
use safari_layout::{self as layout, fonts};

use crate::diag::Diagnostic;
use print::{Document, PrintOptions};

/// The print documents rules modules write for a target, by name (`<name>.pdf` and its page
/// previews `preview/<name>-<page>.png`): what only they know, handed to what must tell their
/// files apart (the command layer hands over `rules::documents`).
pub type DocumentNames<'a> = &'a dyn Fn(Target) -> Vec<&'static str>;

/// A file a backend made: its path inside `out/<game>/`, and its bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Output {
    pub path: String,
    pub bytes: Vec<u8>,
}

/// What a build makes (the command line's `--only`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Target {
    /// The game's sheets: its rules module's sheet document, or a game of components'
    /// roll-and-write sheets (sheets/<id>.pdf).
    Sheet,
    /// The cards: its rules module's deck documents, or every deck of a game made of
    /// components (decks/<id>.pdf and decks/<id>-cards.pdf).
    Deck,
    /// The dice: dice.pdf.
    Dice,
    /// Tiles, tokens and pieces on cut sheets: pieces.pdf.
    Tiles,
    /// Boards, whole and tiled over pages: boards/.
    Board,
    /// The JSON ruleset: ruleset.json.
    Ruleset,
    /// The Tabletop Simulator saved object and its images: tts/.
    Tts,
    /// The playtest page, a game to play in the browser: play/index.html.
    Play,
}

impl Target {
    /// Whether making this target lays the game's sheet out (so a sheet that does not fit
    /// stops it): the sheet, the export and the playtest page that draw it, and the ruleset,
    /// which says where each box prints.
    pub fn lays_out_sheet(self) -> bool {
        matches!(
            self,
            Target::Sheet | Target::Tts | Target::Play | Target::Ruleset
        )
    }

    /// Whether the file at `path` (inside a game's output folder) is made by this target, a
    /// rules module's print documents being `documents`: a build of the target replaces every
    /// such file, a build without it keeps them.
    pub fn owns(self, path: &str, documents: DocumentNames) -> bool {
        let page_preview = |name: &str| {
            path.strip_prefix("preview/")
                .and_then(|rest| rest.strip_prefix(name))
                .and_then(|rest| rest.strip_prefix('-'))
                .and_then(|rest| rest.strip_suffix(".png"))
                .is_some_and(|page| !page.is_empty() && page.bytes().all(|b| b.is_ascii_digit()))
        };
        let documents = || {
            documents(self)
                .iter()
                .any(|name| path == format!("{name}.pdf") || page_preview(name))
        };
        match self {
            Target::Sheet => {
                documents() || path.starts_with("sheets/") || path.starts_with("preview/sheets/")
            }
            Target::Deck => {
                documents()
                    || path.starts_with("preview/cards/")
                    || path.starts_with("printer/")
                    || path.starts_with("decks/")
                    || path.starts_with("preview/decks/")
            }
            Target::Dice => path == "dice.pdf" || page_preview("dice"),
            Target::Tiles => path == "pieces.pdf" || page_preview("pieces"),
            Target::Board => path.starts_with("boards/") || path.starts_with("preview/boards/"),
            Target::Ruleset => path == "ruleset.json",
            Target::Tts => path.starts_with("tts/"),
            Target::Play => path.starts_with("play/"),
        }
    }

    pub const ALL: [Target; 8] = [
        Target::Sheet,
        Target::Deck,
        Target::Dice,
        Target::Tiles,
        Target::Board,
        Target::Ruleset,
        Target::Tts,
        Target::Play,
    ];
}

#[derive(Debug, Clone)]
pub struct BuildOptions {
    pub targets: Vec<Target>,
    pub print: PrintOptions,
    /// Where the Tabletop Simulator images will be found.
    pub asset_base: tts::AssetBase,
    /// The export's sheet tiles are the ones the session's last export drew, when its
    /// cache holds them (the sheet is then not typeset): for `watch`'s quick pass after an
    /// edit the sheet does not show, which a later pass with the sheet checks.
    pub last_sheet: bool,
}

impl BuildOptions {
    /// The print documents the targets ask for.
    pub fn documents(&self) -> Vec<Document> {
        self.targets
            .iter()
            .filter_map(|target| match target {
                Target::Sheet => Some(Document::Sheet),
                Target::Deck => Some(Document::Deck),
                Target::Dice => Some(Document::Dice),
                Target::Ruleset | Target::Tts | Target::Play | Target::Tiles | Target::Board => {
                    None
                }
            })
            .collect()
    }
}

impl Default for BuildOptions {
    fn default() -> Self {
        BuildOptions {
            targets: Target::ALL.to_vec(),
            print: PrintOptions::default(),
            asset_base: tts::AssetBase::Url("images".to_string()),
            last_sheet: false,
        }
    }
}

/// The files of a build, sorted by path, and the warnings the backends gave.
pub struct Built {
    pub outputs: Vec<Output>,
    pub warnings: Vec<Diagnostic>,
    pub timings: Vec<print::Timing>,
}
