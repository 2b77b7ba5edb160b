//! A roll-and-write sheet: sections, each a set of ordered tracks of boxes. Each box carries
//! its terms (`T`): what fills it, what it needs and what it gives, as the game reads them.

use super::{BoxId, SectionId, TrackId};
use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::world::Origin;

#[derive(Debug, Clone)]
pub struct SheetDef<T> {
    pub title: String,
    /// Columns of the sheet's layout grid.
    pub columns: u32,
    pub sections: Vec<Section>,
    pub tracks: Vec<Track>,
    pub boxes: Vec<BoxDef<T>>,
}

impl<T> Default for SheetDef<T> {
    fn default() -> Self {
        SheetDef {
            title: String::new(),
            columns: 0,
            sections: Vec::new(),
            tracks: Vec::new(),
            boxes: Vec::new(),
        }
    }
}

impl<T> SheetDef<T> {
    pub fn section(&self, id: SectionId) -> &Section {
        &self.sections[id.index()]
    }
    pub fn track(&self, id: TrackId) -> &Track {
        &self.tracks[id.index()]
    }
    pub fn get(&self, id: BoxId) -> &BoxDef<T> {
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
                        .with_secondary(b.origin, format!("covers {}, {}", cells("row", pb.row, pb.height), cells("column", pb.column, pb.width)))
                        .with_help("give each section its own cells with `column`, `row`, `width` and `height`"),
                    );
                }
            }
        }
    }

    /// The same sheet with each box's terms made by `f` from the box as it is.
    pub fn with_terms<U>(self, mut f: impl FnMut(&BoxDef<T>) -> U) -> SheetDef<U> {
        let boxes = self.boxes.into_iter().map(|b| BoxDef {
            terms: f(&b),
            id: b.id,
            section: b.section,
            track: b.track,
            index: b.index,
            shape: b.shape,
            style: b.style,
            vp: b.vp,
            label: b.label,
            origin: b.origin,
        });
        SheetDef {
            title: self.title,
            columns: self.columns,
            sections: self.sections,
            tracks: self.tracks,
            boxes: boxes.collect(),
        }
    }

    /// The box just before this one in its track, if any.
    pub fn previous(&self, id: BoxId) -> Option<BoxId> {
        let b = self.get(id);
        (b.index > 0).then(|| self.track(b.track).boxes[b.index - 1])
    }
}

/// The rows or columns a section covers from `first`, `count` of them: "row 3", "rows 3-4".
fn cells(what: &str, first: u32, count: u32) -> String {
    match count {
        0 | 1 => format!("{what} {first}"),
        n => format!("{what}s {first}-{}", first + n - 1),
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

pub use safari_engine::vocabulary::{Flow, Shape, Style};

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

#[derive(Debug, Clone)]
pub struct BoxDef<T> {
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
    pub origin: Origin,
    /// What fills it, needs and gives, as its game reads them.
    pub terms: T,
}
