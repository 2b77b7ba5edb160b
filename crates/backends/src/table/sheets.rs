//! Where the cardboard goes on paper, in millimetres: tiles, tokens and standees packed on
//! cut sheets (backs mirrored for a long-edge flip), a board tiled over home-printer pages
//! with overlaps and alignment marks, and dice stickers and nets.
//!
//! Worked out here and handed to the templates as numbers, as the card pages are
//! (`print::geometry`), so tests can hold the printed sheets to them.

use serde::Serialize;

use crate::diag::{Code, Diagnostic};

use super::data::{BoardData, TableData};
use super::nets::{self, Die, Net, Point};
use crate::print::geometry::{PAGE_MARGIN_MM, PaperSize};

/// Space between two pieces on a cut sheet: each has its own cut line.
pub(crate) const GAP_MM: f64 = 3.0;
/// Room at the top of a cut sheet for its title.
pub(crate) const TITLE_MM: f64 = 8.0;
/// How far two pages of a tiled board overlap.
pub const OVERLAP_MM: f64 = 12.0;
/// The fold-under base at each end of a standee.
pub(crate) const STANDEE_BASE_MM: f64 = 12.0;

/// One piece on a cut sheet: its rectangle (the shape's bounding box) and what it shows.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CutItem {
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
    /// square, hex, round or standee.
    pub shape: &'static str,
    pub symbol: String,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CutPage {
    /// fronts, backs (mirrored: print double-sided, flip on the long edge) or one-sided.
    pub kind: &'static str,
    pub headings: Vec<Heading>,
    pub items: Vec<CutItem>,
}

/// Groups of rectangles under headings, packed in rows on shared pages: a group starts on a
/// new row under its heading (repeated, "continued", when it runs onto the next page).
pub(crate) struct GroupPage {
    pub headings: Vec<Heading>,
    /// (group, index in the group, x, y) of each rectangle on the page.
    pub items: Vec<(usize, usize, f64, f64)>,
}

pub(crate) fn pack_groups(
    paper: PaperSize,
    groups: &[(String, Vec<(f64, f64)>)],
) -> Vec<GroupPage> {
    let left = PAGE_MARGIN_MM;
    let right = paper.width - PAGE_MARGIN_MM;
    let bottom = paper.height - PAGE_MARGIN_MM;
    let mut pages = vec![GroupPage {
        headings: Vec::new(),
        items: Vec::new(),
    }];
    let mut y = PAGE_MARGIN_MM;
    for (group, (heading, sizes)) in groups.iter().enumerate() {
        let first_h = sizes.first().map_or(0.0, |s| s.1);
        if y + TITLE_MM + first_h > bottom && y > PAGE_MARGIN_MM {
            pages.push(GroupPage {
                headings: Vec::new(),
                items: Vec::new(),
            });
            y = PAGE_MARGIN_MM;
        }
        let page = pages.last_mut().expect("a page");
        page.headings.push(Heading {
            x: left,
            y,
            text: heading.clone(),
        });
        y += TITLE_MM;
        let (mut x, mut row_h) = (left, 0.0f64);
        for (index, &(w, h)) in sizes.iter().enumerate() {
            if x + w > right + 1e-9 && x > left {
                x = left;
                y += row_h + GAP_MM;
                row_h = 0.0;
            }
            if y + h > bottom + 1e-9 && y > PAGE_MARGIN_MM + TITLE_MM {
                y = PAGE_MARGIN_MM;
                pages.push(GroupPage {
                    headings: vec![Heading {
                        x: left,
                        y,
                        text: format!("{heading} (continued)"),
                    }],
                    items: Vec::new(),
                });
                y += TITLE_MM;
                x = left;
                row_h = 0.0;
            }
            pages
                .last_mut()
                .expect("a page")
                .items
                .push((group, index, x, y));
            x += w + GAP_MM;
            row_h = row_h.max(h);
        }
        y += row_h + GAP_MM;
    }
    pages.retain(|p| !p.items.is_empty());
    pages
}

/// A set to cut out: (heading, shape, size, each piece's front and back).
type CutSet = (
    String,
    &'static str,
    (f64, f64),
    Vec<String>,
    Vec<Option<String>>,
);

/// The cut sheets of every tile set, token set and piece set: a set with backs on pages of its
/// own, each followed by its backs; the sets without backs sharing pages.
pub fn cut_pages(data: &TableData, paper: PaperSize) -> Vec<CutPage> {
    let mut pages = Vec::new();
    let mut sets: Vec<CutSet> = Vec::new();
    for set in data.tiles.iter().chain(&data.tokens) {
        let size = if set.shape == "hex" {
            (set.size * 2.0 / 3f64.sqrt(), set.size)
        } else {
            (set.size, set.size)
        };
        let mut fronts = Vec::new();
        let mut backs = Vec::new();
        for kind in &set.kinds {
            for _ in 0..kind.count {
                fronts.push(kind.symbol.clone());
                backs.push(kind.back.clone());
            }
        }
        sets.push((set.name.clone(), set.shape, size, fronts, backs));
    }
    for set in &data.pieces {
        let (size, shape) = match set.kind {
            "disc" => ((set.size, set.size), "round"),
            _ => (
                (set.size * 0.62, 2.0 * set.size + 2.0 * STANDEE_BASE_MM),
                "standee",
            ),
        };
        let fronts: Vec<String> = set.pieces.iter().map(|p| p.symbol.clone()).collect();
        let backs = vec![None; fronts.len()];
        sets.push((set.name.clone(), shape, size, fronts, backs));
    }
    let (two_sided, one_sided): (Vec<_>, Vec<_>) = sets
        .into_iter()
        .partition(|set| set.4.iter().any(Option::is_some));
    // A set with backs has pages of its own: each page of fronts is followed by its backs,
    // mirrored for a long-edge flip.
    for (heading, shape, (w, h), fronts, backs) in &two_sided {
        for page in pack_groups(paper, &[(heading.clone(), vec![(*w, *h); fronts.len()])]) {
            let item = |x: f64, y: f64, symbol: String| CutItem {
                x,
                y,
                w: *w,
                h: *h,
                shape,
                symbol,
            };
            let backs_heading = page
                .headings
                .iter()
                .map(|h| Heading {
                    text: format!("{} (backs)", h.text),
                    ..h.clone()
                })
                .collect();
            pages.push(CutPage {
                kind: "fronts",
                headings: page.headings,
                items: page
                    .items
                    .iter()
                    .map(|&(_, i, x, y)| item(x, y, fronts[i].clone()))
                    .collect(),
            });
            pages.push(CutPage {
                kind: "backs",
                headings: backs_heading,
                items: page
                    .items
                    .iter()
                    .filter_map(|&(_, i, x, y)| {
                        backs[i].clone().map(|b| item(paper.width - x - w, y, b))
                    })
                    .collect(),
            });
        }
    }
    // One-sided sets share pages, each under its heading.
    let groups: Vec<(String, Vec<(f64, f64)>)> = one_sided
        .iter()
        .map(|(heading, _, size, fronts, _)| (heading.clone(), vec![*size; fronts.len()]))
        .collect();
    for page in pack_groups(paper, &groups) {
        pages.push(CutPage {
            kind: "one-sided",
            headings: page.headings,
            items: page
                .items
                .iter()
                .map(|&(g, i, x, y)| {
                    let (_, shape, (w, h), fronts, _) = &one_sided[g];
                    CutItem {
                        x,
                        y,
                        w: *w,
                        h: *h,
                        shape,
                        symbol: fronts[i].clone(),
                    }
                })
                .collect(),
        });
    }
    pages
}

/// One page of a board: the window of the board it shows (board mm) and where that window
/// sits on the page.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BoardPage {
    pub width: f64,
    pub height: f64,
    /// The window of the board: x, y, w, h in the board's millimetres from its top-left.
    pub window: [f64; 4],
    /// Where the window's top-left corner is on the page.
    pub at: [f64; 2],
    /// Row and column of this page in the tiling, from 1, and their counts.
    pub row: usize,
    pub column: usize,
    pub rows: usize,
    pub columns: usize,
    /// Board positions (mm) of alignment crosses: each in the overlap two pages share.
    pub marks: Vec<[f64; 2]>,
    /// Seams in board mm: `[x, y1, y2]` vertical, drawn dashed where one page is cut to lie
    /// over the next.
    pub seams_x: Vec<f64>,
    pub seams_y: Vec<f64>,
}

/// A board over as many pages of `paper` as it takes, neighbouring pages overlapping by
/// [`OVERLAP_MM`]; one page when it fits.
pub fn tiled_board(board: &BoardData, paper: PaperSize) -> Vec<BoardPage> {
    let pw = paper.width - 2.0 * PAGE_MARGIN_MM;
    let ph = paper.height - 2.0 * PAGE_MARGIN_MM - TITLE_MM;
    let spans = |length: f64, room: f64| -> Vec<(f64, f64)> {
        if length <= room + 1e-9 {
            return vec![(0.0, length)];
        }
        let step = room - OVERLAP_MM;
        let count = ((length - OVERLAP_MM) / step).ceil() as usize;
        (0..count)
            .map(|i| {
                let start = i as f64 * step;
                (start, (length - start).min(room))
            })
            .collect()
    };
    let xs = spans(board.width, pw);
    let ys = spans(board.height, ph);
    let seams_x: Vec<f64> = xs
        .iter()
        .skip(1)
        .map(|(start, _)| start + OVERLAP_MM / 2.0)
        .collect();
    let seams_y: Vec<f64> = ys
        .iter()
        .skip(1)
        .map(|(start, _)| start + OVERLAP_MM / 2.0)
        .collect();
    let mut marks = Vec::new();
    let every = |length: f64| -> Vec<f64> {
        let n = (length / 60.0).ceil().max(1.0) as usize;
        (0..n)
            .map(|i| (i as f64 + 0.5) * length / n as f64)
            .collect()
    };
    for &x in &seams_x {
        marks.extend(every(board.height).into_iter().map(|y| [x, y]));
    }
    for &y in &seams_y {
        marks.extend(every(board.width).into_iter().map(|x| [x, y]));
    }
    let mut pages = Vec::new();
    for (row, &(y0, h)) in ys.iter().enumerate() {
        for (column, &(x0, w)) in xs.iter().enumerate() {
            let inside =
                |p: &&[f64; 2]| p[0] >= x0 && p[0] <= x0 + w && p[1] >= y0 && p[1] <= y0 + h;
            pages.push(BoardPage {
                width: paper.width,
                height: paper.height,
                window: [x0, y0, w, h],
                at: [
                    PAGE_MARGIN_MM + (pw - w) / 2.0,
                    PAGE_MARGIN_MM + TITLE_MM + (ph - h) / 2.0,
                ],
                row: row + 1,
                column: column + 1,
                rows: ys.len(),
                columns: xs.len(),
                marks: marks.iter().filter(inside).copied().collect(),
                seams_x: seams_x
                    .iter()
                    .copied()
                    .filter(|&s| s > x0 && s < x0 + w)
                    .collect(),
                seams_y: seams_y
                    .iter()
                    .copied()
                    .filter(|&s| s > y0 && s < y0 + h)
                    .collect(),
            });
        }
    }
    pages
}

/// The board whole on one page of its own size with bleed, for a print shop.
pub(crate) fn whole_board(board: &BoardData, bleed: f64) -> BoardPage {
    BoardPage {
        width: board.width + 2.0 * bleed,
        height: board.height + 2.0 * bleed,
        window: [0.0, 0.0, board.width, board.height],
        at: [bleed, bleed],
        row: 1,
        column: 1,
        rows: 1,
        columns: 1,
        marks: Vec::new(),
        seams_x: Vec::new(),
        seams_y: Vec::new(),
    }
}

pub(crate) fn die_of(name: &str) -> Die {
    match name {
        "d4" => Die::D4,
        "d8" => Die::D8,
        "d10" => Die::D10,
        "d12" => Die::D12,
        "d20" => Die::D20,
        _ => Die::D6,
    }
}

/// A face drawn on the dice sheet: a polygon (page mm) and the face's content.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DrawnFace {
    pub outline: Vec<Point>,
    pub centre: Point,
    pub rotation: f64,
    pub size: f64,
    /// Dice set index, the die's in its set, and the face's on the die.
    pub dice: usize,
    pub die: usize,
    pub face: usize,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DicePage {
    pub headings: Vec<Heading>,
    pub faces: Vec<DrawnFace>,
    pub tabs: Vec<Vec<Point>>,
    pub folds: Vec<(Point, Point)>,
}

/// A line of text on a sheet: where its top-left corner is (mm).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Heading {
    pub x: f64,
    pub y: f64,
    pub text: String,
}

/// A blank die's sticker side for each die type, in mm (about 15 mm for a 16 mm d6).
pub(crate) fn sticker_edge(die: Die) -> f64 {
    match die {
        Die::D6 => 14.5,
        Die::D4 => 18.0,
        Die::D8 => 14.0,
        Die::D10 => 12.0,
        Die::D12 => 9.0,
        Die::D20 => 9.5,
    }
}

/// A set of dice as the dice sheets print it, whatever the game: its name, its dice's solid
/// (none for a number of sides no regular solid has: stickers only, square ones), and how
/// many faces each of its dice has.
#[derive(Debug, Clone)]
pub struct DiceToPrint {
    pub name: String,
    pub solid: Option<Die>,
    /// For each die of the set, its number of faces.
    pub dice: Vec<usize>,
}

impl DiceToPrint {
    /// The dice of a game made of components: `count` alike dice of a type.
    pub fn of(set: &crate::table::data::DiceData) -> DiceToPrint {
        DiceToPrint {
            name: set.name.clone(),
            solid: Some(die_of(set.die)),
            dice: vec![set.faces.len(); set.count as usize],
        }
    }

    /// The solid a die of `sides` faces is, when a regular one is.
    pub fn solid_of(sides: usize) -> Option<Die> {
        [Die::D4, Die::D6, Die::D8, Die::D10, Die::D12, Die::D20]
            .into_iter()
            .find(|die| die.sides() == sides)
    }

    fn words(&self) -> String {
        match self.solid {
            Some(die) => format!("d{}", die.sides()),
            None if self.dice.len() == 1 => "die".to_string(),
            None => "dice".to_string(),
        }
    }
}

/// Every dice set's stickers (one per face of every die), then one net per die to fold:
/// each set's group under its heading, groups following each other on shared pages.
pub fn dice_pages(data: &TableData, paper: PaperSize) -> Vec<DicePage> {
    let sets: Vec<DiceToPrint> = data.dice.iter().map(DiceToPrint::of).collect();
    dice_pages_of(&sets, paper)
}

/// [`dice_pages`] of any game's dice.
pub fn dice_pages_of(sets: &[DiceToPrint], paper: PaperSize) -> Vec<DicePage> {
    // (heading, pieces): a piece is its faces, tabs and folds placed from (0, 0), and its size.
    type Piece = (
        Vec<DrawnFace>,
        Vec<Vec<Point>>,
        Vec<(Point, Point)>,
        (f64, f64),
    );
    let mut groups: Vec<(String, Vec<Piece>)> = Vec::new();
    for (set_ix, set) in sets.iter().enumerate() {
        let sticker = set.solid.unwrap_or(Die::D6);
        let (outline, size) = nets::sticker(sticker, sticker_edge(sticker));
        let (min, max) = bounds(&outline);
        let stickers = set
            .dice
            .iter()
            .enumerate()
            .flat_map(|(die, &faces)| (0..faces).map(move |face| (die, face)))
            .map(|(die, face)| {
                let shifted = outline
                    .iter()
                    .map(|p| Point {
                        x: p.x - min.x,
                        y: p.y - min.y,
                    })
                    .collect();
                let face = DrawnFace {
                    outline: shifted,
                    centre: Point {
                        x: -min.x,
                        y: -min.y,
                    },
                    rotation: 0.0,
                    size,
                    dice: set_ix,
                    die,
                    face,
                };
                (
                    vec![face],
                    Vec::new(),
                    Vec::new(),
                    (max.x - min.x, max.y - min.y),
                )
            })
            .collect();
        groups.push((
            format!(
                "{}: stickers for {} blank {}",
                set.name,
                set.dice.len(),
                set.words()
            ),
            stickers,
        ));
    }
    for (set_ix, set) in sets.iter().enumerate() {
        let Some(solid) = set.solid else { continue };
        let net: Net = nets::net(solid, nets::default_edge(solid));
        let pieces = set
            .dice
            .iter()
            .enumerate()
            .map(|(die, &sides)| {
                let faces: Vec<DrawnFace> = net
                    .faces
                    .iter()
                    .map(|f| DrawnFace {
                        outline: f.outline.clone(),
                        centre: f.centre.clone(),
                        rotation: f.rotation,
                        size: f.size,
                        dice: set_ix,
                        die,
                        face: f.face.min(sides.saturating_sub(1)),
                    })
                    .collect();
                (
                    faces,
                    net.tabs.clone(),
                    net.folds.clone(),
                    (net.width, net.height),
                )
            })
            .collect();
        groups.push((
            format!(
                "{}: paper {} to cut out, fold and glue",
                set.name,
                set.words()
            ),
            pieces,
        ));
    }
    let sizes: Vec<(String, Vec<(f64, f64)>)> = groups
        .iter()
        .map(|(heading, pieces)| (heading.clone(), pieces.iter().map(|p| p.3).collect()))
        .collect();
    let mut pages: Vec<DicePage> = Vec::new();
    for page in pack_groups(paper, &sizes) {
        let mut drawn = DicePage {
            headings: page.headings,
            faces: Vec::new(),
            tabs: Vec::new(),
            folds: Vec::new(),
        };
        for (g, i, x, y) in page.items {
            let (faces, tabs, folds, _) = &groups[g].1[i];
            let shift = |p: &Point| Point {
                x: p.x + x,
                y: p.y + y,
            };
            drawn.faces.extend(faces.iter().map(|f| DrawnFace {
                outline: f.outline.iter().map(shift).collect(),
                centre: shift(&f.centre),
                ..f.clone()
            }));
            drawn
                .tabs
                .extend(tabs.iter().map(|t| t.iter().map(shift).collect()));
            drawn
                .folds
                .extend(folds.iter().map(|(a, b)| (shift(a), shift(b))));
        }
        pages.push(drawn);
    }
    pages.retain(|p| !p.faces.is_empty());
    pages
}

fn bounds(points: &[Point]) -> (Point, Point) {
    let mut min = Point {
        x: f64::MAX,
        y: f64::MAX,
    };
    let mut max = Point {
        x: f64::MIN,
        y: f64::MIN,
    };
    for p in points {
        min.x = min.x.min(p.x);
        min.y = min.y.min(p.y);
        max.x = max.x.max(p.x);
        max.y = max.y.max(p.y);
    }
    (min, max)
}

/// For `check`: every card fits a page with its bleed and crop marks, and every tile, token and standee a
/// page with its cut line.
pub fn fits(
    table: &crate::components::Table,
    paper: crate::model::Paper,
    from_flag: bool,
    diagnostics: &mut crate::diag::Diagnostics,
) {
    use crate::print::geometry::{DeckLayout, card_fit};
    let page = PaperSize::of(paper);
    let named = if from_flag {
        format!("{}, the paper `--paper` names", page.label())
    } else {
        page.label()
    };
    let too_large = |what: String, origin: crate::world::Origin, size: (f64, f64)| {
        Diagnostic::error(
            Code::TooLargeForPaper,
            format!("{what} does not fit on {named}"),
        )
        .with_primary(origin, format!("{:.1} × {:.1} mm", size.0, size.1))
        .with_help("choose a larger paper (`[print] paper`, or `--paper`), or make it smaller")
    };
    for deck in &table.decks {
        let size = (deck.card_size.width_mm, deck.card_size.height_mm);
        let what = format!("the deck `{}`", deck.id.value);
        diagnostics.extend(card_fit(
            &what,
            size,
            page,
            DeckLayout::Duplex,
            Some(deck.id.origin),
            from_flag,
        ));
    }
    let room = (
        page.width - 2.0 * PAGE_MARGIN_MM,
        page.height - 2.0 * PAGE_MARGIN_MM - TITLE_MM,
    );
    let mut piece = |what: String, origin: crate::world::Origin, size: (f64, f64)| {
        if size.0 > room.0 + 1e-9 || size.1 > room.1 + 1e-9 {
            diagnostics.push(too_large(what, origin, size));
        }
    };
    for set in &table.tiles {
        let w = if set.shape == crate::components::TileShape::Hex {
            set.size_mm * 2.0 / 3f64.sqrt()
        } else {
            set.size_mm
        };
        piece(
            format!("a tile of `{}`", set.id.value),
            set.id.origin,
            (w, set.size_mm),
        );
    }
    for set in &table.tokens {
        piece(
            format!("a token of `{}`", set.id.value),
            set.id.origin,
            (set.size_mm, set.size_mm),
        );
    }
    for set in &table.pieces {
        let size = match set.kind {
            crate::components::PieceKind::Disc => (set.size_mm, set.size_mm),
            _ => (
                set.size_mm * 0.62,
                2.0 * set.size_mm + 2.0 * STANDEE_BASE_MM,
            ),
        };
        piece(
            format!("a piece of `{}`, folded out,", set.id.value),
            set.id.origin,
            size,
        );
    }
}
