//! Where things go on paper, in millimetres: paper sizes, and how cards are laid out on a
//! sheet for home printing (duplex or gutter-fold) with their bleed and crop marks.
//!
//! Worked out here and handed to the templates as numbers, so the rules a printed sheet must
//! follow (margins a home printer can reach, backs mirrored for a long-edge flip) live in code
//! the tests read, not in template arithmetic.

use serde::Serialize;

/// The bleed around every card, beyond its trim (the common metric value).
pub const CARD_BLEED_MM: f64 = 3.0;
/// No ink closer than this to the paper's edge: most home printers cannot reach it.
pub const PAGE_MARGIN_MM: f64 = 6.35;
/// Crop marks run this far out from a card's bleed edge.
pub(crate) const CROP_MARK_MM: f64 = 3.0;
/// The gap between a bleed edge and the start of its crop mark: none, so that eight poker
/// cards fit on A4 and six on Letter.
pub(crate) const CROP_MARK_GAP_MM: f64 = 0.0;

pub use crate::model::PaperSize;

/// How the cards of a deck sit on one sheet of paper.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CardGrid {
    /// Cards are turned a quarter turn on the page when that fits more of them.
    pub rotated: bool,
    pub columns: u32,
    pub rows: u32,
    /// The trim size as placed on the page (width and height swapped when rotated).
    pub trim_width: f64,
    pub trim_height: f64,
    pub bleed: f64,
    /// Top-left corner of the first card's trim.
    pub left: f64,
    pub top: f64,
}

impl CardGrid {
    /// The densest grid of `width` x `height` cards (each with its own bleed, bleeds side by
    /// side) that leaves room for crop marks inside the page margin, cards upright or turned.
    pub fn fit(paper: PaperSize, width: f64, height: f64) -> CardGrid {
        Self::fit_within(paper.width, paper.height, 0.0, width, height)
    }

    /// The same, within a region `region_width` wide starting `left_offset` from the page's
    /// left edge (half a page, for gutter-fold).
    pub(crate) fn fit_within(
        region_width: f64,
        page_height: f64,
        left_offset: f64,
        width: f64,
        height: f64,
    ) -> CardGrid {
        let bleed = CARD_BLEED_MM;
        let reserve = PAGE_MARGIN_MM + CROP_MARK_GAP_MM + CROP_MARK_MM;
        let usable_w = region_width - 2.0 * reserve;
        let usable_h = page_height - 2.0 * reserve;
        let count = |w: f64, h: f64| {
            let columns = ((usable_w + 1e-9) / (w + 2.0 * bleed)).floor().max(0.0) as u32;
            let rows = ((usable_h + 1e-9) / (h + 2.0 * bleed)).floor().max(0.0) as u32;
            (columns, rows)
        };
        let upright = count(width, height);
        let turned = count(height, width);
        let rotated = turned.0 * turned.1 > upright.0 * upright.1;
        let ((columns, rows), trim_width, trim_height) = if rotated {
            (turned, height, width)
        } else {
            (upright, width, height)
        };
        let grid_w = columns as f64 * (trim_width + 2.0 * bleed);
        let grid_h = rows as f64 * (trim_height + 2.0 * bleed);
        CardGrid {
            rotated,
            columns,
            rows,
            trim_width,
            trim_height,
            bleed,
            left: left_offset + (region_width - grid_w) / 2.0 + bleed,
            top: (page_height - grid_h) / 2.0 + bleed,
        }
    }

    pub fn per_page(&self) -> u32 {
        self.columns * self.rows
    }

    /// Top-left corner of the trim of the card in `column`, `row`.
    pub(crate) fn trim_at(&self, column: u32, row: u32) -> (f64, f64) {
        (
            self.left + column as f64 * (self.trim_width + 2.0 * self.bleed),
            self.top + row as f64 * (self.trim_height + 2.0 * self.bleed),
        )
    }
}

/// One card placed on a page: which design, which side, where its trim's top-left corner is,
/// and how far it is turned (degrees clockwise).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Placed {
    pub design: usize,
    /// The physical card's number in the deck, from 1.
    pub number: usize,
    pub back: bool,
    pub x: f64,
    pub y: f64,
    pub rotation: i32,
}

/// A straight crop mark, from (x1, y1) to (x2, y2).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Mark {
    pub x1: f64,
    pub y1: f64,
    pub x2: f64,
    pub y2: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CardPage {
    /// `"fronts"`, `"backs"`, `"gutter-fold"`.
    pub kind: &'static str,
    pub cards: Vec<Placed>,
    pub marks: Vec<Mark>,
    /// A fold line's x position, for gutter-fold pages.
    pub fold: Option<f64>,
}

/// How card pages are printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DeckLayout {
    /// Fronts pages, each followed by its backs, mirrored for long-edge duplex.
    #[default]
    Duplex,
    /// Fronts on the left half, backs on the right half, folded along the middle.
    GutterFold,
}

/// The grid cards of `width` x `height` are laid out in on `paper` for `layout`: none fit when
/// its `per_page()` is 0.
pub(crate) fn grid_for(paper: PaperSize, width: f64, height: f64, layout: DeckLayout) -> CardGrid {
    match layout {
        DeckLayout::Duplex => CardGrid::fit(paper, width, height),
        DeckLayout::GutterFold => {
            CardGrid::fit_within(paper.width / 2.0, paper.height, 0.0, width, height)
        }
    }
}

/// SZ0313 when cards of `width` x `height` (the cards of `what`) fit no page of `paper` in
/// `layout`, with their bleed and crop marks. `origin` is where the content writes what does
/// not fit (the card size, or the paper when the cards are the default size); with none, as
/// when the paper came from `--paper` (`from_flag`) and the cards are the default size, the
/// message says it all.
pub fn card_fit(
    what: &str,
    (width, height): (f64, f64),
    paper: PaperSize,
    layout: DeckLayout,
    origin: Option<crate::world::Origin>,
    from_flag: bool,
) -> Option<crate::diag::Diagnostic> {
    (grid_for(paper, width, height, layout).per_page() == 0).then(|| {
        let page = if from_flag {
            format!("{}, the paper `--paper` names", paper.label())
        } else {
            paper.label()
        };
        let room = match layout {
            DeckLayout::Duplex => page,
            DeckLayout::GutterFold => format!("half of {page} (gutter-fold)"),
        };
        let size = format!("{width:.1} × {height:.1} mm cards");
        let message = match origin {
            Some(_) => format!("a card of {what}, with its bleed and crop marks, does not fit on {room}"),
            None => format!("a card of {what} ({size}), with its bleed and crop marks, does not fit on {room}"),
        };
        let diagnostic = crate::diag::Diagnostic::error(crate::diag::Code::TooLargeForPaper, message);
        let diagnostic = match origin {
            Some(origin) => diagnostic.with_primary(origin, size),
            None => diagnostic,
        };
        let help = if from_flag {
            "choose a larger `--paper`, the duplex layout, or a smaller card size"
        } else {
            "choose a larger paper (`[print] paper`, or `--paper`), the duplex layout, or a smaller card size"
        };
        diagnostic.with_help(help)
    })
}

/// The pages of a deck: `physical` lists the design of every physical card in deck order.
pub fn card_pages(
    paper: PaperSize,
    width: f64,
    height: f64,
    physical: &[usize],
    layout: DeckLayout,
    back_offset: (f64, f64),
) -> (CardGrid, Vec<CardPage>) {
    match layout {
        DeckLayout::Duplex => {
            let grid = CardGrid::fit(paper, width, height);
            let pages = duplex_pages(&grid, physical, back_offset);
            (grid, pages)
        }
        DeckLayout::GutterFold => {
            let half = paper.width / 2.0;
            let grid = CardGrid::fit_within(half, paper.height, 0.0, width, height);
            let pages = gutter_fold_pages(&grid, paper, physical);
            (grid, pages)
        }
    }
}

fn duplex_pages(grid: &CardGrid, physical: &[usize], back_offset: (f64, f64)) -> Vec<CardPage> {
    // A card that fits no page is refused before printing (SZ0313); never divide by it here.
    if grid.per_page() == 0 {
        return Vec::new();
    }
    let per_page = grid.per_page() as usize;
    let front_rotation = if grid.rotated { 90 } else { 0 };
    let mut pages = Vec::new();
    for (page, chunk) in physical.chunks(per_page).enumerate() {
        let mut fronts = Vec::new();
        let mut backs = Vec::new();
        for (slot, &design) in chunk.iter().enumerate() {
            let number = page * per_page + slot + 1;
            let (column, row) = (slot as u32 % grid.columns, slot as u32 / grid.columns);
            let (x, y) = grid.trim_at(column, row);
            fronts.push(Placed {
                design,
                number,
                back: false,
                x,
                y,
                rotation: front_rotation,
            });
            // A long-edge flip mirrors each row: the back of column c is printed in column
            // (columns - 1 - c). A turned card's back is turned the other way, or it would
            // come out upside down.
            let (bx, by) = grid.trim_at(grid.columns - 1 - column, row);
            backs.push(Placed {
                design,
                number,
                back: true,
                x: bx + back_offset.0,
                y: by + back_offset.1,
                rotation: if grid.rotated { 270 } else { 0 },
            });
        }
        let marks = crop_marks(grid);
        pages.push(CardPage {
            kind: "fronts",
            cards: fronts,
            marks,
            fold: None,
        });
        pages.push(CardPage {
            kind: "backs",
            cards: backs,
            marks: Vec::new(),
            fold: None,
        });
    }
    pages
}

fn gutter_fold_pages(grid: &CardGrid, paper: PaperSize, physical: &[usize]) -> Vec<CardPage> {
    // A card that fits no page is refused before printing (SZ0313); never divide by it here.
    if grid.per_page() == 0 {
        return Vec::new();
    }
    let per_page = grid.per_page() as usize;
    let fold = paper.width / 2.0;
    let mut pages = Vec::new();
    for (page, chunk) in physical.chunks(per_page).enumerate() {
        let mut cards = Vec::new();
        for (slot, &design) in chunk.iter().enumerate() {
            let number = page * per_page + slot + 1;
            let (column, row) = (slot as u32 % grid.columns, slot as u32 / grid.columns);
            let (x, y) = grid.trim_at(column, row);
            cards.push(Placed {
                design,
                number,
                back: false,
                x,
                y,
                rotation: if grid.rotated { 90 } else { 0 },
            });
            // The back is the front's mirror image across the fold line.
            let mirrored_x = 2.0 * fold - (x + grid.trim_width);
            cards.push(Placed {
                design,
                number,
                back: true,
                x: mirrored_x,
                y,
                rotation: if grid.rotated { 270 } else { 0 },
            });
        }
        let mut marks = crop_marks(grid);
        let mirrored: Vec<Mark> = marks
            .iter()
            .map(|m| Mark {
                x1: 2.0 * fold - m.x1,
                y1: m.y1,
                x2: 2.0 * fold - m.x2,
                y2: m.y2,
            })
            .collect();
        marks.extend(mirrored);
        pages.push(CardPage {
            kind: "gutter-fold",
            cards,
            marks,
            fold: Some(fold),
        });
    }
    pages
}

/// Crop marks for every trim line of a full grid, in the margin around it: vertical marks
/// above and below, horizontal marks left and right, never over a card.
fn crop_marks(grid: &CardGrid) -> Vec<Mark> {
    let mut marks = Vec::new();
    let (first_x, first_y) = grid.trim_at(0, 0);
    let (last_x, last_y) =
        grid.trim_at(grid.columns.saturating_sub(1), grid.rows.saturating_sub(1));
    let grid_top = first_y - grid.bleed;
    let grid_bottom = last_y + grid.trim_height + grid.bleed;
    let grid_left = first_x - grid.bleed;
    let grid_right = last_x + grid.trim_width + grid.bleed;
    for column in 0..grid.columns {
        let (x, _) = grid.trim_at(column, 0);
        for x in [x, x + grid.trim_width] {
            marks.push(Mark {
                x1: x,
                y1: grid_top - CROP_MARK_GAP_MM - CROP_MARK_MM,
                x2: x,
                y2: grid_top - CROP_MARK_GAP_MM,
            });
            marks.push(Mark {
                x1: x,
                y1: grid_bottom + CROP_MARK_GAP_MM,
                x2: x,
                y2: grid_bottom + CROP_MARK_GAP_MM + CROP_MARK_MM,
            });
        }
    }
    for row in 0..grid.rows {
        let (_, y) = grid.trim_at(0, row);
        for y in [y, y + grid.trim_height] {
            marks.push(Mark {
                x1: grid_left - CROP_MARK_GAP_MM - CROP_MARK_MM,
                y1: y,
                x2: grid_left - CROP_MARK_GAP_MM,
                y2: y,
            });
            marks.push(Mark {
                x1: grid_right + CROP_MARK_GAP_MM,
                y1: y,
                x2: grid_right + CROP_MARK_GAP_MM + CROP_MARK_MM,
                y2: y,
            });
        }
    }
    marks
}
