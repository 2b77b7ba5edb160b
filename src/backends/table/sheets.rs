//! Where the cardboard goes on paper, in millimetres: tiles, tokens and standees packed on
//! cut sheets (backs mirrored for a long-edge flip), a board tiled over home-printer pages
//! with overlaps and alignment marks, and dice stickers and nets.
//!
//! Worked out here and handed to the templates as numbers, as the card pages are
//! (`print::geometry`), so tests can hold the printed sheets to them.

use serde::Serialize;

use super::data::{BoardData, TableData};
use super::nets::{self, Die, Net, Point};
use crate::backends::print::geometry::{PAGE_MARGIN_MM, PaperSize};

/// Space between two pieces on a cut sheet: each has its own cut line.
pub const GAP_MM: f64 = 3.0;
/// Room at the top of a cut sheet for its title.
pub const TITLE_MM: f64 = 8.0;
/// How far two pages of a tiled board overlap.
pub const OVERLAP_MM: f64 = 12.0;
/// The fold-under base at each end of a standee.
pub const STANDEE_BASE_MM: f64 = 12.0;

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
    pub title: String,
    pub items: Vec<CutItem>,
}

/// Rectangles `sizes` packed in rows on pages of `paper` inside the margins, below the title:
/// (page, x, y) for each, in order.
pub fn pack(paper: PaperSize, sizes: &[(f64, f64)]) -> Vec<(usize, f64, f64)> {
    let left = PAGE_MARGIN_MM;
    let right = paper.width - PAGE_MARGIN_MM;
    let top = PAGE_MARGIN_MM + TITLE_MM;
    let bottom = paper.height - PAGE_MARGIN_MM;
    let (mut page, mut x, mut y, mut row_h) = (0, left, top, 0.0f64);
    let mut placed = Vec::with_capacity(sizes.len());
    for &(w, h) in sizes {
        if x + w > right + 1e-9 && x > left {
            x = left;
            y += row_h + GAP_MM;
            row_h = 0.0;
        }
        if y + h > bottom + 1e-9 && y > top {
            page += 1;
            x = left;
            y = top;
            row_h = 0.0;
        }
        placed.push((page, x, y));
        x += w + GAP_MM;
        row_h = row_h.max(h);
    }
    placed
}

/// The cut sheets of every tile set, token set and piece set: each set on pages of its own,
/// a set with backs followed by its backs pages.
pub fn cut_pages(data: &TableData, paper: PaperSize) -> Vec<CutPage> {
    let mut pages = Vec::new();
    let sets = data
        .tiles
        .iter()
        .map(|t| {
            (
                t,
                if t.shape == "hex" {
                    (t.size * 2.0 / 3f64.sqrt(), t.size)
                } else {
                    (t.size, t.size)
                },
            )
        })
        .chain(data.tokens.iter().map(|t| (t, (t.size, t.size))));
    for (set, (w, h)) in sets {
        let mut fronts = Vec::new();
        let mut backs = Vec::new();
        for kind in &set.kinds {
            for _ in 0..kind.count {
                fronts.push(kind.symbol.clone());
                backs.push(kind.back.clone());
            }
        }
        let placed = pack(paper, &vec![(w, h); fronts.len()]);
        let count = placed.last().map_or(0, |p| p.0 + 1);
        for page in 0..count {
            let on_page: Vec<usize> = (0..placed.len()).filter(|&i| placed[i].0 == page).collect();
            let item = |i: usize, symbol: String, mirrored: bool| CutItem {
                x: if mirrored {
                    paper.width - placed[i].1 - w
                } else {
                    placed[i].1
                },
                y: placed[i].2,
                w,
                h,
                shape: set.shape,
                symbol,
            };
            pages.push(CutPage {
                kind: "fronts",
                title: set.name.clone(),
                items: on_page
                    .iter()
                    .map(|&i| item(i, fronts[i].clone(), false))
                    .collect(),
            });
            if on_page.iter().any(|&i| backs[i].is_some()) {
                pages.push(CutPage {
                    kind: "backs",
                    title: format!("{} (backs)", set.name),
                    items: on_page
                        .iter()
                        .filter_map(|&i| backs[i].clone().map(|b| item(i, b, true)))
                        .collect(),
                });
            }
        }
    }
    for set in &data.pieces {
        let (w, h, shape) = match set.kind {
            "disc" => (set.size, set.size, "round"),
            _ => (
                set.size * 0.62,
                2.0 * set.size + 2.0 * STANDEE_BASE_MM,
                "standee",
            ),
        };
        let placed = pack(paper, &vec![(w, h); set.pieces.len()]);
        let count = placed.last().map_or(0, |p| p.0 + 1);
        for page in 0..count {
            pages.push(CutPage {
                kind: "one-sided",
                title: set.name.clone(),
                items: (0..placed.len())
                    .filter(|&i| placed[i].0 == page)
                    .map(|i| CutItem {
                        x: placed[i].1,
                        y: placed[i].2,
                        w,
                        h,
                        shape,
                        symbol: set.pieces[i].symbol.clone(),
                    })
                    .collect(),
            });
        }
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
pub fn whole_board(board: &BoardData, bleed: f64) -> BoardPage {
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

pub fn die_of(name: &str) -> Die {
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
    /// Dice set index and face index.
    pub dice: usize,
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
pub fn sticker_edge(die: Die) -> f64 {
    match die {
        Die::D6 => 14.5,
        Die::D4 => 18.0,
        Die::D8 => 14.0,
        Die::D10 => 12.0,
        Die::D12 => 9.0,
        Die::D20 => 9.5,
    }
}

/// Every dice set's stickers (one per face of every die), then one net per die to fold:
/// each set's group under its heading, groups following each other on shared pages.
pub fn dice_pages(data: &TableData, paper: PaperSize) -> Vec<DicePage> {
    // (heading, pieces): a piece is its faces, tabs and folds placed from (0, 0), and its size.
    type Piece = (
        Vec<DrawnFace>,
        Vec<Vec<Point>>,
        Vec<(Point, Point)>,
        (f64, f64),
    );
    let mut groups: Vec<(String, Vec<Piece>)> = Vec::new();
    for (set_ix, set) in data.dice.iter().enumerate() {
        let die = die_of(set.die);
        let (outline, size) = nets::sticker(die, sticker_edge(die));
        let (min, max) = bounds(&outline);
        let sides = set.faces.len();
        let stickers = (0..set.count as usize * sides)
            .map(|i| {
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
                    face: i % sides,
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
            format!("{}: stickers for {} blank {}", set.name, set.count, set.die),
            stickers,
        ));
    }
    for (set_ix, set) in data.dice.iter().enumerate() {
        let net: Net = nets::net(die_of(set.die), nets::default_edge(die_of(set.die)));
        let sides = set.faces.len();
        let faces: Vec<DrawnFace> = net
            .faces
            .iter()
            .map(|f| DrawnFace {
                outline: f.outline.clone(),
                centre: f.centre.clone(),
                rotation: f.rotation,
                size: f.size,
                dice: set_ix,
                face: f.face.min(sides.saturating_sub(1)),
            })
            .collect();
        let piece: Piece = (
            faces,
            net.tabs.clone(),
            net.folds.clone(),
            (net.width, net.height),
        );
        groups.push((
            format!("{}: paper {} to cut out, fold and glue", set.name, set.die),
            vec![piece; set.count as usize],
        ));
    }
    let mut pages: Vec<DicePage> = Vec::new();
    let left = PAGE_MARGIN_MM;
    let right = paper.width - PAGE_MARGIN_MM;
    let bottom = paper.height - PAGE_MARGIN_MM;
    let new_page = |pages: &mut Vec<DicePage>| {
        pages.push(DicePage {
            headings: Vec::new(),
            faces: Vec::new(),
            tabs: Vec::new(),
            folds: Vec::new(),
        });
        PAGE_MARGIN_MM
    };
    let mut y = new_page(&mut pages);
    for (heading, pieces) in groups {
        let first_h = pieces.first().map_or(0.0, |p| p.3.1);
        if y + TITLE_MM + first_h > bottom && y > PAGE_MARGIN_MM {
            y = new_page(&mut pages);
        }
        pages.last_mut().expect("a page").headings.push(Heading {
            x: left,
            y,
            text: heading.clone(),
        });
        y += TITLE_MM;
        let (mut x, mut row_h) = (left, 0.0f64);
        for (faces, tabs, folds, (w, h)) in pieces {
            if x + w > right + 1e-9 && x > left {
                x = left;
                y += row_h + GAP_MM;
                row_h = 0.0;
            }
            if y + h > bottom + 1e-9 && y > PAGE_MARGIN_MM + TITLE_MM {
                y = new_page(&mut pages);
                pages.last_mut().expect("a page").headings.push(Heading {
                    x: left,
                    y,
                    text: format!("{heading} (continued)"),
                });
                y += TITLE_MM;
                x = left;
                row_h = 0.0;
            }
            let shift = |p: &Point| Point {
                x: p.x + x,
                y: p.y + y,
            };
            let page = pages.last_mut().expect("a page");
            page.faces.extend(faces.into_iter().map(|f| DrawnFace {
                outline: f.outline.iter().map(shift).collect(),
                centre: shift(&f.centre),
                ..f
            }));
            page.tabs
                .extend(tabs.iter().map(|t| t.iter().map(shift).collect()));
            page.folds
                .extend(folds.iter().map(|(a, b)| (shift(a), shift(b))));
            x += w + GAP_MM;
            row_h = row_h.max(h);
        }
        y += row_h + GAP_MM;
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
