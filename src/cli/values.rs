//! The command line's names for what the backends take. The backends' own types know neither
//! the command line nor any game; the help a designer reads (which files a target makes, in
//! which game) is written here, in the one layer that may name games.

use crate::backends::Target;
use crate::backends::print::geometry::DeckLayout;
use crate::backends::print::printer::Printer;

/// What a build makes (`--only`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Only {
    /// The game sheet: field-guide.pdf (the Field Guide and Park Rules), or a game of
    /// components' roll-and-write sheets (sheets/<id>.pdf).
    Sheet,
    /// The Encounter Deck: encounter-deck.pdf and encounter-deck-cards.pdf (a game made of
    /// components: every deck, decks/<id>.pdf and decks/<id>-cards.pdf).
    Deck,
    /// The dice: dice.pdf.
    Dice,
    /// Tiles, tokens and pieces on cut sheets: pieces.pdf (games made of components).
    Tiles,
    /// Boards, whole and tiled over pages: boards/ (games made of components).
    Board,
    /// The JSON ruleset: ruleset.json.
    Ruleset,
    /// The Tabletop Simulator saved object and its images: tts/.
    Tts,
    /// The playtest page, a game to play in the browser: play/index.html (Safari Zone RNW).
    Play,
}

impl Only {
    /// The targets `--only` names.
    pub fn targets(only: &[Only]) -> Vec<Target> {
        only.iter().map(|o| o.target()).collect()
    }

    fn target(self) -> Target {
        match self {
            Only::Sheet => Target::Sheet,
            Only::Deck => Target::Deck,
            Only::Dice => Target::Dice,
            Only::Tiles => Target::Tiles,
            Only::Board => Target::Board,
            Only::Ruleset => Target::Ruleset,
            Only::Tts => Target::Tts,
            Only::Play => Target::Play,
        }
    }

    /// A target as `--only` spells it.
    pub fn name(target: Target) -> &'static str {
        match target {
            Target::Sheet => "sheet",
            Target::Deck => "deck",
            Target::Dice => "dice",
            Target::Tiles => "tiles",
            Target::Board => "board",
            Target::Ruleset => "ruleset",
            Target::Tts => "tts",
            Target::Play => "play",
        }
    }
}

/// How card pages are printed (`--layout`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Layout {
    /// Fronts pages, each followed by its backs, mirrored for long-edge duplex.
    #[default]
    Duplex,
    /// Fronts on the left half, backs on the right half, folded along the middle.
    GutterFold,
}

impl From<Layout> for DeckLayout {
    fn from(layout: Layout) -> DeckLayout {
        match layout {
            Layout::Duplex => DeckLayout::Duplex,
            Layout::GutterFold => DeckLayout::GutterFold,
        }
    }
}

/// A print-on-demand service (`--printer`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Service {
    /// The Game Crafter: 1/8 inch (3.175 mm) of bleed a side.
    Tgc,
    /// MakePlayingCards (and PrinterStudio): 36 px at 300 dpi (3.048 mm) a side.
    Mpc,
}

impl From<Service> for Printer {
    fn from(service: Service) -> Printer {
        match service {
            Service::Tgc => Printer::Tgc,
            Service::Mpc => Printer::Mpc,
        }
    }
}
