//! A roll-and-write sheet's layout: every section, track, box, badge, tag, arrow and line of
//! text placed as a rectangle in millimetres on the chosen paper. It knows no game: what a
//! box's tags say, the words set as icons and the title band's and key's words are the caller's.
//!
//! The layout is computed here, in Rust, and the Typst template only draws what it says. That
//! makes the sheet's fit a fact the checker knows: `check` runs this same layout and reports a
//! sheet that cannot fit (`SZ0309`) with the section at fault and what would make it fit,
//! so a `build` never fails on a layout `check` passed. Text is measured with the bundled
//! fonts (`crate::fonts`), as Typst will set it.
//!
//! The engine adapts before it fails. It tries densities from generous to tight ([`LEVELS`]):
//! at each it places the sections (explicit places kept, the others where the sheet ends up
//! shortest), lays out each section's content at its width (tracks wrap only between boxes,
//! row tracks line up as a table, trails share a requirement gutter),
//! sizes the grid's rows, and keeps the first density at which the sheet fits. Then the room
//! left is shared out: rows grow, and each panel spreads its lines over its height.

pub mod fonts;
mod input;
mod section;
mod sheet;
#[cfg(test)]
mod tests;

pub use input::{BoxData, Icon, SectionData, SheetData, TrackData, one_line};
pub use sheet::{Fault, KeyWords, Overflow, Titles, fits_as, lay_out};

use serde::Serialize;

use safari_core::{diag, model, world};

use crate::fonts::Style as Font;
use crate::model::{Shape, Style};

/// A rectangle on the page, in millimetres from its top-left corner.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Default)]
pub struct Rect {
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
}

impl Rect {
    pub fn new(x: f64, y: f64, w: f64, h: f64) -> Rect {
        Rect { x, y, w, h }
    }
    pub fn right(&self) -> f64 {
        self.x + self.w
    }
    pub fn bottom(&self) -> f64 {
        self.y + self.h
    }
    pub fn moved(&self, dx: f64, dy: f64) -> Rect {
        Rect::new(self.x + dx, self.y + dy, self.w, self.h)
    }
    pub fn contains(&self, other: &Rect, tolerance: f64) -> bool {
        other.x >= self.x - tolerance
            && other.y >= self.y - tolerance
            && other.right() <= self.right() + tolerance
            && other.bottom() <= self.bottom() + tolerance
    }
}

/// One line of text: set in `font` at `size` points, its line box (ascender to descender)
/// at `rect`. Text is never wrapped by the template: the layout has broken it into lines.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Line {
    pub rect: Rect,
    pub text: String,
    pub font: Font,
    pub size: f64,
}

/// Which side of a box a tag is on: what it needs (left) or what it gives (right).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Side {
    Needs,
    Gives,
}

/// A piece of a tag: words, or an icon (`SheetData::icons`).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Part {
    Text {
        line: Line,
    },
    /// The icon's `id`.
    Icon {
        rect: Rect,
        icon: String,
    },
}

/// What the template draws, each in its rectangle.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Item {
    /// A box players mark.
    Box {
        rect: Rect,
        id: String,
        shape: Shape,
        style: Style,
    },
    /// A box's victory points, at its upper right.
    Badge { rect: Rect, line: Line, vp: u32 },
    /// A requirement (a lock tag, on the left) or a reward (an arrow tag, on the right).
    Tag {
        rect: Rect,
        side: Side,
        /// The lock or arrow sign at the tag's start.
        sign: Rect,
        parts: Vec<Part>,
    },
    /// The arrow between two boxes of a track, or at the start of a track's continued line.
    Arrow { rect: Rect },
    /// A track's title.
    Title { line: Line },
    /// A section's note.
    Note { line: Line },
    /// A box's name (an entry in a collection grid, a guest).
    Label { line: Line },
}

impl Item {
    /// The rectangle the item inks.
    pub fn rect(&self) -> Rect {
        match self {
            Item::Box { rect, .. }
            | Item::Badge { rect, .. }
            | Item::Tag { rect, .. }
            | Item::Arrow { rect } => *rect,
            Item::Title { line } | Item::Note { line } | Item::Label { line } => line.rect,
        }
    }
    fn moved(&mut self, dx: f64, dy: f64) {
        let shift_line = |line: &mut Line| line.rect = line.rect.moved(dx, dy);
        match self {
            Item::Box { rect, .. } | Item::Arrow { rect } => *rect = rect.moved(dx, dy),
            Item::Badge { rect, line, .. } => {
                *rect = rect.moved(dx, dy);
                shift_line(line);
            }
            Item::Tag {
                rect, sign, parts, ..
            } => {
                *rect = rect.moved(dx, dy);
                *sign = sign.moved(dx, dy);
                for part in parts {
                    match part {
                        Part::Text { line } => shift_line(line),
                        Part::Icon { rect, .. } => *rect = rect.moved(dx, dy),
                    }
                }
            }
            Item::Title { line } | Item::Note { line } | Item::Label { line } => shift_line(line),
        }
    }
}

/// A section's panel: its frame, the title tab hanging from its top edge, and its content.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SectionLayout {
    pub id: String,
    pub rect: Rect,
    pub tab: Rect,
    pub title: Line,
    /// Map-like sections (trails side by side) are tinted.
    pub tinted: bool,
    /// Where the section ended up on the grid (1-based), chosen or as written.
    pub column: u32,
    pub row: u32,
    pub width: u32,
    pub height: u32,
    pub items: Vec<Item>,
}

/// The page's title band: the game's name, the sheet's title, a line for the player's name
/// and a box for the score.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Header {
    pub name: Line,
    pub title: Line,
    pub player: Line,
    /// The line to write the player's name on.
    pub player_field: Rect,
    pub score: Line,
    pub score_box: Rect,
    /// The heavy rule under the band.
    pub rule: Rect,
}

/// One entry of the key at the foot of the page: a sample and what it means.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct KeyEntry {
    /// `"bonus"`, `"trigger"`, `"free"` (box styles) or `"needs"`, `"gives"` (tags).
    pub sample: String,
    pub rect: Rect,
    pub line: Line,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Footer {
    /// The game, the sheet and the content versions, on one line or more.
    pub versions: Vec<Line>,
    pub key: Vec<KeyEntry>,
}

/// The whole front of the sheet.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SheetLayout {
    pub width: f64,
    pub height: f64,
    /// The density the sheet fits at: 0 is the most generous of [`LEVELS`].
    pub level: usize,
    pub box_size: f64,
    pub text_size: f64,
    pub header: Header,
    pub footer: Footer,
    pub sections: Vec<SectionLayout>,
}

impl SheetLayout {
    /// Every item of every section with the section it is in.
    pub fn items(&self) -> impl Iterator<Item = (&SectionLayout, &Item)> {
        self.sections
            .iter()
            .flat_map(|s| s.items.iter().map(move |item| (s, item)))
    }
}

/// One density: the sizes and spacing a sheet is laid out at. Each level is tighter than the
/// one before; the last is the floor (5 mm boxes, 7 pt text) a player can still use.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Level {
    /// A square box's side, in millimetres.
    pub box_size: f64,
    /// Captions, tags and labels, in points.
    pub text: f64,
    /// Section notes, in points.
    pub note: f64,
    /// Track titles, in points.
    pub title: f64,
    /// Section titles, in points.
    pub heading: f64,
    /// A factor on every gap.
    pub space: f64,
}

/// From generous (big paper) to tight: spacing is tightened first, then boxes and text shrink to the
/// floor of 5 mm and 7 pt.
pub(crate) const LEVELS: &[Level] = &[
    Level {
        box_size: 9.0,
        text: 10.0,
        note: 10.0,
        title: 13.5,
        heading: 18.0,
        space: 1.7,
    },
    Level {
        box_size: 8.0,
        text: 9.0,
        note: 9.0,
        title: 12.5,
        heading: 16.5,
        space: 1.5,
    },
    Level {
        box_size: 7.0,
        text: 8.5,
        note: 8.5,
        title: 11.5,
        heading: 15.0,
        space: 1.35,
    },
    Level {
        box_size: 6.4,
        text: 8.0,
        note: 8.0,
        title: 11.0,
        heading: 14.0,
        space: 1.2,
    },
    Level {
        box_size: 5.8,
        text: 7.5,
        note: 7.5,
        title: 10.5,
        heading: 13.0,
        space: 1.0,
    },
    Level {
        box_size: 5.8,
        text: 7.5,
        note: 7.5,
        title: 10.0,
        heading: 13.0,
        space: 0.8,
    },
    Level {
        box_size: 5.6,
        text: 7.0,
        note: 7.0,
        title: 9.5,
        heading: 12.0,
        space: 0.65,
    },
    Level {
        box_size: 5.3,
        text: 7.0,
        note: 7.0,
        title: 9.0,
        heading: 11.0,
        space: 0.5,
    },
    Level {
        box_size: 5.0,
        text: 7.0,
        note: 7.0,
        title: 8.5,
        heading: 10.0,
        space: 0.4,
    },
];

/// No box smaller than this, no text smaller than that: the floor the tests hold.
pub const MIN_BOX_MM: f64 = 5.0;
pub const MIN_TEXT_PT: f64 = 7.0;

/// How far from the paper's edge ink may go.
pub const PAGE_MARGIN_MM: f64 = 8.0;

/// The drawn width of a box of `shape` whose square is `size` (the templates draw a few
/// shapes a little larger, so they read as big as a square).
pub(crate) fn shape_extent(shape: Shape, size: f64) -> f64 {
    match shape {
        Shape::Diamond => size * 1.15,
        Shape::Hexagon => size * 1.1,
        Shape::Star => size * 1.25,
        _ => size,
    }
}

impl Overflow {
    /// The `SZ0309` diagnostic: `sheet` (``"the sheet `log`"``) does not fit, blaming the
    /// section at fault where `sections` (each section's origin, in order) says it is.
    pub fn diagnostic(
        &self,
        sheet: &str,
        sections: &[crate::world::Origin],
    ) -> crate::diag::Diagnostic {
        use crate::diag::{Code, Diagnostic};
        let paper = match self.paper.name {
            "custom" => self.paper.label(),
            _ => format!(
                "{} ({} × {} mm)",
                self.paper.label(),
                self.paper.width,
                self.paper.height
            ),
        };
        let mut diagnostic = Diagnostic::error(
            Code::LayoutOverflow,
            format!("{sheet} does not fit on {paper}: {}", self.what),
        );
        if let Some(&origin) = self.section.and_then(|s| sections.get(s)) {
            let excess = self.excess;
            let label = match self.fault {
                Fault::TooNarrow => format!("{excess:.1} mm too wide for its columns"),
                Fault::FitsWithout => format!(
                    "the sheet fits without this section; with it, it is {excess:.1} mm too tall"
                ),
                Fault::TallestRow | Fault::Frame => {
                    format!("the tallest section in its row: the sheet is {excess:.1} mm too tall")
                }
            };
            diagnostic = diagnostic.with_primary(origin, label);
        }
        diagnostic.with_help(format!(
            "the layout already shrank boxes to {MIN_BOX_MM} mm and text to {MIN_TEXT_PT} pt; to make it fit:\n{}",
            self.suggestions
                .iter()
                .map(|s| format!("- {s}"))
                .collect::<Vec<_>>()
                .join("\n")
        ))
    }
}
