//! The Field Guide: a sheet of sections, each a set of ordered tracks of boxes.

use super::{Action, BoxId, ItemId, Located, SectionId, SpeciesId, TrackId};
use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::world::Origin;

#[derive(Debug, Clone, Default)]
pub struct FieldGuide {
    pub title: String,
    /// Columns of the sheet's layout grid.
    pub columns: u32,
    pub sections: Vec<Section>,
    pub tracks: Vec<Track>,
    pub boxes: Vec<BoxDef>,
}

impl FieldGuide {
    pub fn section(&self, id: SectionId) -> &Section {
        &self.sections[id.index()]
    }
    pub fn track(&self, id: TrackId) -> &Track {
        &self.tracks[id.index()]
    }
    pub fn get(&self, id: BoxId) -> &BoxDef {
        &self.boxes[id.index()]
    }
    pub fn box_ids(&self) -> impl Iterator<Item = BoxId> {
        (0..self.boxes.len() as u32).map(BoxId)
    }
    pub fn track_ids(&self) -> impl Iterator<Item = TrackId> {
        (0..self.tracks.len() as u32).map(TrackId)
    }

    /// Sections must sit on the sheet's grid without overlapping, so the sheet can be drawn.
    pub fn check_placement(&self, diagnostics: &mut Diagnostics) {
        let columns = self.columns.max(1);
        for section in &self.sections {
            let p = &section.placement;
            if p.column + p.width - 1 > columns {
                diagnostics.push(
                    Diagnostic::error(
                        Code::LayoutOverlap,
                        format!(
                            "section `{}` reaches column {}, but the sheet has {columns}",
                            section.id,
                            p.column + p.width - 1
                        ),
                    )
                    .with_primary(section.origin, "placed here")
                    .with_help(
                        "move it to an earlier column, make it narrower, or raise `columns` on `sheet`",
                    ),
                );
            }
        }
        for (i, a) in self.sections.iter().enumerate() {
            // Sections without a place are placed by the layout, in cells left free.
            for b in self.sections[..i].iter().filter(|_| !a.placement.auto) {
                let (pa, pb) = (&a.placement, &b.placement);
                if pb.auto {
                    continue;
                }
                let apart = pa.column >= pb.column + pb.width
                    || pb.column >= pa.column + pa.width
                    || pa.row >= pb.row + pb.height
                    || pb.row >= pa.row + pa.height;
                if !apart {
                    diagnostics.push(
                        Diagnostic::error(
                            Code::LayoutOverlap,
                            format!("sections `{}` and `{}` overlap on the sheet", b.id, a.id),
                        )
                        .with_primary(a.origin, format!("row {}, column {}", pa.row, pa.column))
                        .with_secondary(b.origin, format!("covers rows {}-{}, columns {}-{}", pb.row, pb.row + pb.height - 1, pb.column, pb.column + pb.width - 1))
                        .with_help("give each section its own cells with `column`, `row`, `width` and `height`"),
                    );
                }
            }
        }
    }

    /// The box just before this one in its track, if any.
    pub fn previous(&self, id: BoxId) -> Option<BoxId> {
        let b = self.get(id);
        (b.index > 0).then(|| self.track(b.track).boxes[b.index - 1])
    }
}

/// Where a section sits on the sheet's grid (1-based cells) and how its tracks flow.
#[derive(Debug, Clone, PartialEq)]
pub struct Placement {
    pub column: u32,
    pub row: u32,
    pub width: u32,
    pub height: u32,
    /// Neither `column` nor `row` was written: the layout places the section itself.
    pub auto: bool,
    /// `width` was written; otherwise an automatically placed section's width is chosen too.
    pub width_given: bool,
}

#[derive(Debug, Clone)]
pub struct Section {
    pub id: String,
    pub title: String,
    pub texts: Vec<String>,
    pub placement: Placement,
    pub tracks: Vec<TrackId>,
    pub origin: Origin,
}

#[derive(
    Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum Flow {
    /// Boxes left to right, wrapping to the next row.
    Row,
    /// Boxes top to bottom.
    Column,
}

#[derive(Debug, Clone)]
pub struct Track {
    pub id: String,
    pub title: Option<String>,
    pub section: SectionId,
    pub flow: Flow,
    /// A box written directly in a section is a track of its own, with no title.
    pub loose: bool,
    pub boxes: Vec<BoxId>,
    pub origin: Origin,
}

#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    serde::Serialize,
    serde::Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum Shape {
    Square,
    Circle,
    Diamond,
    Hexagon,
    Star,
    Ball,
}

impl Shape {
    pub const NAMES: &'static [(&'static str, Shape)] = &[
        ("square", Shape::Square),
        ("circle", Shape::Circle),
        ("diamond", Shape::Diamond),
        ("hexagon", Shape::Hexagon),
        ("star", Shape::Star),
        ("ball", Shape::Ball),
    ];
}

#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    serde::Serialize,
    serde::Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum Style {
    Plain,
    /// Gold border: filling it lets the player fill another square box.
    Bonus,
    /// Blue border: filled as a side effect of its event.
    Trigger,
    /// Dotted border: fill it any time once the boxes before it are filled.
    Free,
}

impl Style {
    pub const NAMES: &'static [(&'static str, Style)] = &[
        ("plain", Style::Plain),
        ("bonus", Style::Bonus),
        ("trigger", Style::Trigger),
        ("free", Style::Free),
    ];
}

/// A condition on the left of a box. `Unknown` holds a name that did not resolve: it is
/// reported once where it was written and otherwise treated as never met.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Requirement {
    Item(ItemId),
    Species(SpeciesId),
    Area(TrackId),
    Box(BoxId),
    Vp(u32),
    Unknown,
}

#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    serde::Serialize,
    serde::Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum Habitat {
    Grass,
    Water,
    /// The player chooses grass or water each time it counts.
    Any,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reward {
    Item(ItemId),
    Habitat(Habitat),
    /// An evolved (or gifted) species: the collection process runs for it.
    Species(SpeciesId),
    Unknown,
}

/// What fills a box (besides a bonus chain, which can fill any square box).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cause {
    /// Each expedition die showing this face fills the next box of one such track.
    Dice(Action),
    /// One box at the start of each turn.
    Turn,
    /// One box per Safari Ball thrown.
    Ball,
    /// Collecting any of these species.
    Collect(Vec<SpeciesId>),
    /// Using this item (with a Trainer face).
    Use(ItemId),
    /// Obtaining one of these items (trigger boxes).
    Obtain(Vec<ItemId>),
    /// Any time, once the earlier boxes of its track are filled.
    Free,
    /// Only a bonus chain fills it.
    Bonus,
    /// Not given, or did not resolve (already reported).
    Unknown,
}

#[derive(Debug, Clone)]
pub struct BoxDef {
    /// Stable id: given in the layout, or `<section>.<track>#<n>` (1-based).
    pub id: String,
    pub section: SectionId,
    pub track: TrackId,
    /// Position in its track, 0-based.
    pub index: usize,
    pub shape: Shape,
    pub style: Style,
    pub vp: u32,
    pub label: Option<String>,
    pub cause: Located<Cause>,
    pub requires: Vec<Located<Requirement>>,
    pub rewards: Vec<Located<Reward>>,
    pub origin: Origin,
}

impl BoxDef {
    /// Bonus chains can fill square boxes only.
    pub fn bonus_can_fill(&self) -> bool {
        self.shape == Shape::Square
    }
}
