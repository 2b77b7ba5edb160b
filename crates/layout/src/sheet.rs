//! The page: the title band, the key at the foot, and the sections on the sheet's grid.
//!
//! The grid has the sheet's `columns`; a row is as tall as the tallest section that sits in
//! it alone, and a section spanning rows makes them tall enough together. Sections with a
//! written place keep it; the others go, one by one, where the sheet ends up shortest. The
//! first density of [`LEVELS`] at which the sheet fits the page is kept, and the height left
//! over is shared among the rows, each panel spreading its lines over what it gets.

use std::collections::HashMap;

use super::section::{self, MAX_STRETCH, TooNarrow, line, text_width, wrap};
use super::{
    Footer, Header, KeyEntry, LEVELS, Level, Line, PAGE_MARGIN_MM, Rect, SectionLayout, SheetLayout,
};
use super::{SheetData, one_line};
use crate::fonts::{self, Style as Font};
use crate::model::PaperSize;
use crate::model::{Flow, Style};

const GUTTER: f64 = 2.4;
const PAD_X: f64 = 2.6;
const PAD_BOTTOM: f64 = 2.4;
const HEADER_GAP: f64 = 2.5;

/// Why a sheet cannot fit, at the tightest density, and what would make it fit.
#[derive(Debug, Clone, PartialEq)]
pub struct Overflow {
    /// The paper it was laid out on.
    pub paper: PaperSize,
    /// The section at fault (index into the sheet's sections), when one is.
    pub section: Option<usize>,
    /// What is wrong with it.
    pub fault: Fault,
    /// By how many millimetres it is too tall or too wide.
    pub excess: f64,
    /// What does not fit, in words.
    pub what: String,
    /// Edits that would make it fit, each checked by laying the sheet out again.
    pub suggestions: Vec<String>,
}

/// Why a sheet does not fit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// The title band or the key at the foot is wider than the page.
    Frame,
    /// A section is narrower than what it must hold.
    TooNarrow,
    /// The rows are taller than the page; the section sets the tallest row.
    TallestRow,
    /// The rows are taller than the page, and the sheet fits without the section (the
    /// smallest section it fits without: most likely the one that added a row).
    FitsWithout,
}

/// The game's words for the title band and the foot of the page.
pub struct Titles<'a> {
    pub name: &'a str,
    pub versions: &'a str,
    /// The label of the line a player writes their name on (for example `"Player"`).
    pub player: &'a str,
    /// The label of the score box.
    pub score: &'a str,
    /// What the key at the foot says each mark means.
    pub key: &'a KeyWords<'a>,
    /// Whether the sheet names its own paper (a suggestion of another says where to write
    /// it), rather than taking the game's (`--paper`, game.toml).
    pub own_paper: bool,
}

/// The key's words: what a tag or a box style means in this game. A mark the sheet does not
/// use is left out of the key.
pub struct KeyWords<'a> {
    pub needs: &'a str,
    pub gives: &'a str,
    pub bonus: &'a str,
    pub trigger: &'a str,
    pub free: &'a str,
}

/// Lays the sheet out on `paper`, or says why it cannot fit.
pub fn lay_out(
    sheet: &SheetData,
    titles: &Titles,
    paper: PaperSize,
) -> Result<SheetLayout, Overflow> {
    match attempt(sheet, titles, paper) {
        Ok(layout) => Ok(layout),
        Err(mut overflow) => {
            // The blame and the suggestions share one budget of layout work.
            let spent = std::cell::Cell::new(0usize);
            if overflow.fault == Fault::TallestRow
                && let Some(s) = fits_without(sheet, titles, paper, &spent)
                && Some(s) != overflow.section
            {
                overflow.section = Some(s);
                overflow.fault = Fault::FitsWithout;
                overflow.what = format!(
                    "the sheet is {:.1} mm taller than the page allows, and fits without section `{}`",
                    overflow.excess, sheet.sections[s].id
                );
            }
            overflow.suggestions = suggestions(sheet, titles, paper, &overflow, &spent);
            Err(overflow)
        }
    }
}

/// Whether the sheet fits on `paper` at least as generously as it was `laid_out`: at the same
/// density, with no more tags broken over two lines. One layout, at that density.
pub fn fits_as(
    sheet: &SheetData,
    titles: &Titles,
    paper: PaperSize,
    laid_out: &SheetLayout,
) -> bool {
    let level = laid_out.level;
    at_level(sheet, titles, paper, level, &LEVELS[level])
        .is_ok_and(|layout| broken_tags(&layout) <= broken_tags(laid_out))
}

fn attempt(sheet: &SheetData, titles: &Titles, paper: PaperSize) -> Result<SheetLayout, Overflow> {
    attempt_counted(sheet, titles, paper, &std::cell::Cell::new(0))
}

/// [`attempt`], adding to `work` the boxes (and sections) of each layout it makes.
fn attempt_counted(
    sheet: &SheetData,
    titles: &Titles,
    paper: PaperSize,
    work: &std::cell::Cell<usize>,
) -> Result<SheetLayout, Overflow> {
    let size = sheet.sections.len()
        + sheet
            .sections
            .iter()
            .flat_map(|s| &s.tracks)
            .map(|t| t.boxes.len())
            .sum::<usize>();
    // The most generous density at which the sheet fits with no tag broken over two lines;
    // failing that, the most generous at which it fits at all. Tighter densities fit at least
    // as well, so both are found by bisection, from the tightest.
    let mut tried: Vec<Option<Result<SheetLayout, Overflow>>> = vec![None; LEVELS.len()];
    let mut at = |i: usize| -> Result<SheetLayout, Overflow> {
        tried[i]
            .get_or_insert_with(|| {
                work.set(work.get() + size);
                at_level(sheet, titles, paper, i, &LEVELS[i])
            })
            .clone()
    };
    // Most sheets fit at the first try.
    if let Ok(layout) = at(0)
        && broken_tags(&layout) == 0
    {
        return Ok(layout);
    }
    let tightest = LEVELS.len() - 1;
    let whole = broken_tags(&at(tightest)?) == 0;
    let good = |r: &Result<SheetLayout, Overflow>| match r {
        Ok(layout) => !whole || broken_tags(layout) == 0,
        Err(_) => false,
    };
    let (mut lo, mut hi) = (0, tightest);
    while lo < hi {
        let mid = (lo + hi) / 2;
        if good(&at(mid)) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    at(lo)
}

/// Where each section sits: column, row, width and height in cells (0-based column and row).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Cell {
    column: u32,
    row: u32,
    width: u32,
    height: u32,
}

struct Frame {
    header: Header,
    footer: Footer,
    body: Rect,
}

fn at_level(
    sheet: &SheetData,
    titles: &Titles,
    paper: PaperSize,
    index: usize,
    level: &Level,
) -> Result<SheetLayout, Overflow> {
    let frame = frame(sheet, titles, paper, level)?;
    let body = frame.body;
    let columns = sheet.columns.max(1);
    let gutter = GUTTER * level.space.max(0.6);
    let column_w = (body.w - gutter * (columns - 1) as f64) / columns as f64;
    let span_w = |width: u32| column_w * width as f64 + gutter * (width - 1) as f64;
    let mut natural: HashMap<(usize, u32), Result<(f64, usize), TooNarrow>> = HashMap::new();
    let mut measured = |s: usize, width: u32| -> Result<(f64, usize), TooNarrow> {
        natural
            .entry((s, width))
            .or_insert_with(|| section_height(sheet, s, span_w(width), level))
            .clone()
    };

    // Sections with a place keep it; the rest go where the sheet is shortest.
    let mut cells: Vec<Option<Cell>> = sheet
        .sections
        .iter()
        .map(|s| {
            (!s.auto).then(|| Cell {
                column: (s.column - 1).min(columns - 1),
                row: s.row - 1,
                width: s.width.clamp(1, columns - (s.column - 1).min(columns - 1)),
                height: s.height.max(1),
            })
        })
        .collect();
    // With many sections to place, searching every cell for each would take quadratic time:
    // past this many, each goes full width below the others.
    let searching = cells.iter().filter(|c| c.is_none()).count() <= 48;
    for s in 0..sheet.sections.len() {
        if cells[s].is_some() {
            continue;
        }
        let section = &sheet.sections[s];
        if !searching {
            let width = if section.width_given {
                section.width.clamp(1, columns)
            } else {
                columns
            };
            let height = section.height.max(1);
            let row = cells
                .iter()
                .flatten()
                .map(|c| c.row + c.height)
                .max()
                .unwrap_or(0);
            cells[s] = Some(Cell {
                column: 0,
                row,
                width,
                height,
            });
            continue;
        }
        // Narrow first: at equal height, sections sit side by side rather than in a stack.
        let widths: Vec<u32> = if section.width_given {
            vec![section.width.clamp(1, columns)]
        } else {
            (1..=columns).collect()
        };
        let mut best: Option<(f64, u32, Cell)> = None;
        for &width in &widths {
            if measured(s, width).map(|(h, _)| h).is_err() {
                continue;
            }
            for column in 0..=(columns - width) {
                let row = first_free_row(&cells, column, width, section.height.max(1));
                let cell = Cell {
                    column,
                    row,
                    width,
                    height: section.height.max(1),
                };
                cells[s] = Some(cell);
                let placed: Vec<(usize, Cell)> = cells
                    .iter()
                    .enumerate()
                    .filter_map(|(i, c)| c.map(|c| (i, c)))
                    .collect();
                let total = rows_for(&placed, &mut |s, w| measured(s, w).map(|(h, _)| h), gutter)
                    .map(|(rows, _)| total_height(&rows, gutter))
                    .unwrap_or(f64::INFINITY);
                cells[s] = None;
                if best.is_none_or(|(t, r, _)| total < t - 0.5 || (total < t + 0.5 && row < r)) {
                    best = Some((total, row, cell));
                }
            }
        }
        let cell = best.map(|(_, _, c)| c).unwrap_or(Cell {
            column: 0,
            row: first_free_row(&cells, 0, columns, 1),
            width: columns,
            height: 1,
        });
        cells[s] = Some(cell);
    }
    let placed: Vec<(usize, Cell)> = cells
        .iter()
        .enumerate()
        .filter_map(|(i, c)| c.map(|c| (i, c)))
        .collect();
    let (mut rows, drivers) =
        match rows_for(&placed, &mut |s, w| measured(s, w).map(|(h, _)| h), gutter) {
            Ok(rows) => rows,
            Err((s, narrow)) => {
                // Rounded up, so that a shortfall of a few hundredths never reads "0.0 mm".
                let short_by = (narrow.short_by.max(0.0) * 10.0).ceil().max(1.0) / 10.0;
                return Err(Overflow {
                    paper,
                    section: Some(s),
                    fault: Fault::TooNarrow,
                    excess: short_by,
                    what: format!(
                        "section `{}` is {short_by:.1} mm too narrow for {}",
                        sheet.sections[s].id, narrow.what
                    ),
                    suggestions: Vec::new(),
                });
            }
        };
    let total = total_height(&rows, gutter);
    if total > body.h + 1e-6 {
        // The section that sets the tallest row's height is the one to change.
        let s = drivers
            .iter()
            .enumerate()
            .filter_map(|(r, d)| d.map(|d| (rows[r], d)))
            .max_by(|a, b| a.0.total_cmp(&b.0))
            .map(|(_, d)| d);
        return Err(Overflow {
            paper,
            section: s,
            fault: Fault::TallestRow,
            excess: total - body.h,
            what: match s {
                Some(s) => format!(
                    "the sheet is {:.1} mm taller than the page allows, and section `{}` sets its tallest row",
                    total - body.h,
                    sheet.sections[s].id
                ),
                None => format!(
                    "the sheet is {:.1} mm taller than the page allows",
                    total - body.h
                ),
            },
            suggestions: Vec::new(),
        });
    }
    // The height left over goes to the rows in proportion, so the page is used.
    let used: f64 = rows.iter().sum();
    if used > 0.0 {
        let spare = body.h - total;
        for r in rows.iter_mut() {
            *r += spare * *r / used;
        }
    }
    let mut row_y = Vec::with_capacity(rows.len());
    let mut y = body.y;
    for (r, h) in rows.iter().enumerate() {
        row_y.push(y);
        y += h;
        if *h > 0.0 && r + 1 < rows.len() {
            y += gutter;
        }
    }
    let mut sections = Vec::with_capacity(placed.len());
    for (s, cell) in placed {
        let x = body.x + cell.column as f64 * (column_w + gutter);
        let top = row_y[cell.row as usize];
        // The section ends with the last row of its span that holds anything: an empty row
        // has no height and no gutter of its own.
        let first = cell.row as usize;
        let last = (first..(cell.row + cell.height) as usize)
            .rev()
            .find(|&r| rows[r] > 0.0)
            .unwrap_or(first);
        let bottom = row_y[last] + rows[last];
        let rect = Rect::new(x, top, span_w(cell.width), bottom - top);
        let measured = measured(s, cell.width).unwrap_or((rect.h, 0));
        sections.push(place_section(sheet, s, cell, rect, level, measured));
    }
    Ok(SheetLayout {
        width: paper.width,
        height: paper.height,
        level: index,
        box_size: level.box_size,
        text_size: level.text,
        header: frame.header,
        footer: frame.footer,
        sections,
    })
}

fn total_height(rows: &[f64], gutter: f64) -> f64 {
    let used = rows.iter().filter(|h| **h > 0.0).count();
    rows.iter().sum::<f64>() + gutter * used.saturating_sub(1) as f64
}

fn first_free_row(cells: &[Option<Cell>], column: u32, width: u32, height: u32) -> u32 {
    let taken = |row: u32| {
        cells.iter().flatten().any(|c| {
            c.column < column + width
                && column < c.column + c.width
                && c.row < row + height
                && row < c.row + c.height
        })
    };
    (0..).find(|&row| !taken(row)).unwrap_or(0)
}

/// Row heights for the placed sections, and which section set each row's height.
#[allow(clippy::type_complexity)]
fn rows_for(
    placed: &[(usize, Cell)],
    height_of: &mut impl FnMut(usize, u32) -> Result<f64, TooNarrow>,
    gutter: f64,
) -> Result<(Vec<f64>, Vec<Option<usize>>), (usize, TooNarrow)> {
    let count = placed
        .iter()
        .map(|(_, c)| c.row + c.height)
        .max()
        .unwrap_or(0) as usize;
    let mut rows = vec![0.0f64; count];
    let mut drivers = vec![None; count];
    let mut by_span: Vec<&(usize, Cell)> = placed.iter().collect();
    by_span.sort_by_key(|(i, c)| (c.height, *i));
    for (s, cell) in by_span {
        let need = height_of(*s, cell.width).map_err(|e| (*s, e))?;
        let first = cell.row as usize;
        let span = first..first + cell.height as usize;
        // As placed: a gutter follows each row that holds anything, none an empty row (it has
        // no height), so the gutters the span has are those between its rows in use. Growing
        // every row of the span puts all of them in use, which only adds gutters.
        let in_use = rows[span.clone()].iter().filter(|h| **h > 0.0).count();
        let have: f64 =
            rows[span.clone()].iter().sum::<f64>() + gutter * in_use.saturating_sub(1) as f64;
        if need > have {
            let more = (need - have) / cell.height as f64;
            for r in span {
                rows[r] += more;
                drivers[r] = Some(*s);
            }
        }
    }
    Ok((rows, drivers))
}

/// The height a section's panel needs at `width`, and how many of its gaps may grow; or why
/// it cannot be that narrow.
fn section_height(
    sheet: &SheetData,
    s: usize,
    width: f64,
    level: &Level,
) -> Result<(f64, usize), TooNarrow> {
    let section = &sheet.sections[s];
    let (tab, _) = tab(section, 0.0, 0.0, level);
    if tab.w > width {
        return Err(TooNarrow {
            short_by: tab.w - width,
            what: "its title".to_string(),
        });
    }
    let content = section::lay_out(
        section,
        (&sheet.icons, sheet.icon_index()),
        width - 2.0 * PAD_X,
        level,
        0.0,
    )?;
    Ok((
        tab.h + level.space * 1.6 + content.height + PAD_BOTTOM,
        content.gaps,
    ))
}

fn tab(section: &super::SectionData, x: f64, y: f64, level: &Level) -> (Rect, Line) {
    let size = level.heading;
    let w = text_width(Font::Display, size, &section.title);
    let h = fonts::line_height(Font::Display, size);
    // Accents reach the line box's top: the title sits low enough in its tab that they stay
    // clear of the panel's frame.
    let rect = Rect::new(x, y, w + 2.0 * 2.4, h + 1.4);
    (
        rect,
        line(Font::Display, size, &section.title, x + 2.4, y + 0.9),
    )
}

fn place_section(
    sheet: &SheetData,
    s: usize,
    cell: Cell,
    rect: Rect,
    level: &Level,
    measured: (f64, usize),
) -> SectionLayout {
    let section = &sheet.sections[s];
    // The spare height is spread over the gaps between lines, each growing by at most
    // MAX_STRETCH; the rest stays at the panel's foot.
    let (natural, gaps) = measured;
    let content_w = rect.w - 2.0 * PAD_X;
    let stretch = if gaps > 0 && rect.h - natural > 0.1 {
        ((rect.h - natural) / gaps as f64).min(MAX_STRETCH)
    } else {
        0.0
    };
    let (tab, title) = tab(section, rect.x, rect.y, level);
    let top = rect.y + tab.h + level.space * 1.6;
    // Spreading the lines may change how row tracks split into side-by-side tables, and so
    // which gaps grow: never let that take the content past the panel's foot.
    let room = rect.bottom() - PAD_BOTTOM - top;
    let mut stretch = stretch;
    let mut chosen = None;
    for _ in 0..4 {
        match section::lay_out(
            section,
            (&sheet.icons, sheet.icon_index()),
            content_w,
            level,
            stretch,
        ) {
            Ok(content) if content.height <= room + 1e-6 || stretch == 0.0 => {
                chosen = Some(content.items);
                break;
            }
            Ok(content) => {
                let over = content.height - room;
                let grown = content.height - (natural - (rect.h - room));
                stretch = if grown > over {
                    stretch * (1.0 - over / grown) * 0.98
                } else {
                    0.0
                };
                if stretch < 0.05 {
                    stretch = 0.0;
                }
            }
            Err(_) => break,
        }
    }
    let mut items = chosen
        .or_else(|| {
            section::lay_out(
                section,
                (&sheet.icons, sheet.icon_index()),
                content_w,
                level,
                0.0,
            )
            .ok()
            .map(|c| c.items)
        })
        .unwrap_or_default();
    for item in &mut items {
        item.moved(rect.x + PAD_X, top);
    }
    let trails = section
        .tracks
        .iter()
        .filter(|t| !t.loose && t.flow == Flow::Column)
        .count();
    SectionLayout {
        id: section.id.clone(),
        rect,
        tab,
        title,
        tinted: trails > 1,
        column: cell.column + 1,
        row: cell.row + 1,
        width: cell.width,
        height: cell.height,
        items,
    }
}

/// The title band, the key at the foot and the body between them.
fn frame(
    sheet: &SheetData,
    titles: &Titles,
    paper: PaperSize,
    level: &Level,
) -> Result<Frame, Overflow> {
    let m = PAGE_MARGIN_MM;
    let inner = paper.width - 2.0 * m;
    // The player's name and score on the right; the game's name and the sheet's title on the
    // left, the name as large as fits.
    let small = 8.0;
    let small_h = fonts::line_height(Font::Body, small);
    let player_w = text_width(Font::Body, small, titles.player);
    let score_w = text_width(Font::Body, small, titles.score);
    let field_w = (inner * 0.2).clamp(20.0, 40.0);
    let score_box = (14.0, 6.5);
    let right_w = player_w + 1.5 + field_w + 4.0 + score_w + 1.5 + score_box.0;
    let name = one_line(titles.name).to_uppercase();
    let title = sheet.title.to_uppercase();
    let mut name_size = 30.0f64;
    let fits = |size: f64| {
        text_width(Font::Display, size, &name)
            + 4.0
            + text_width(Font::Display, size * 0.6, &title)
            + 4.0
            + right_w
            <= inner
    };
    while !fits(name_size) && name_size > 12.0 {
        name_size -= 1.0;
    }
    if !fits(name_size) {
        let excess = text_width(Font::Display, name_size, &name)
            + 4.0
            + text_width(Font::Display, name_size * 0.6, &title)
            + 4.0
            + right_w
            - inner;
        return Err(Overflow {
            paper,
            section: None,
            fault: Fault::Frame,
            excess,
            what: format!(
                "the game's name, the sheet's title and the `{}` and `{}` fields do not fit across the title band",
                titles.player, titles.score
            ),
            suggestions: Vec::new(),
        });
    }
    let name_h = fonts::line_height(Font::Display, name_size);
    let title_size = name_size * 0.6;
    let title_h = fonts::line_height(Font::Display, title_size);
    // The score box sits 0.6 mm above the band's foot: a small name keeps it off the margin.
    let band = name_h.max(score_box.1 + 0.6);
    // Display text sits on a shared baseline: the sheet's title is aligned to the name's foot.
    let name_line = line(Font::Display, name_size, &name, m, m + band - name_h);
    let title_line = line(
        Font::Display,
        title_size,
        &title,
        name_line.rect.right() + 4.0,
        m + band - title_h - (name_h - title_h) * 0.12,
    );
    let right = paper.width - m;
    let score_rect = Rect::new(
        right - score_box.0,
        m + band - score_box.1 - 0.6,
        score_box.0,
        score_box.1,
    );
    let score_line = line(
        Font::Body,
        small,
        titles.score,
        score_rect.x - 1.5 - score_w,
        score_rect.bottom() - small_h,
    );
    let field = Rect::new(
        score_line.rect.x - 4.0 - field_w,
        score_rect.bottom() - 1.0,
        field_w,
        0.3,
    );
    let player_line = line(
        Font::Body,
        small,
        titles.player,
        field.x - 1.5 - player_w,
        score_rect.bottom() - small_h,
    );
    let rule = Rect::new(m, m + band + 1.2, inner, 0.7);
    let header = Header {
        name: name_line,
        title: title_line,
        player: player_line,
        player_field: field,
        score: score_line,
        score_box: score_rect,
        rule,
    };

    // The foot: the versions on the left, a key to the marks the sheet uses on the right.
    let foot = 7.0;
    let foot_h = fonts::line_height(Font::Body, foot);
    let bottom = paper.height - m;
    let foot_y = bottom - foot_h;
    let versions_text = [titles.name, sheet.title.as_str(), titles.versions]
        .into_iter()
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join(" · ");
    // The versions wrap over as many lines as they need, the last on the page's foot line;
    // a word wider than the page is cut short rather than set into the margin.
    let clipped: Vec<String> = versions_text
        .split_whitespace()
        .map(|word| {
            let mut word = word.to_string();
            while text_width(Font::Body, foot, &word) > inner && word.chars().count() > 1 {
                word.pop();
            }
            word
        })
        .collect();
    let lines = wrap(Font::Body, foot, &clipped.join(" "), inner).unwrap_or_default();
    let count = lines.len().max(1);
    let versions: Vec<Line> = lines
        .iter()
        .enumerate()
        .map(|(i, text)| {
            line(
                Font::Body,
                foot,
                text,
                m,
                foot_y - (count - 1 - i) as f64 * foot_h,
            )
        })
        .collect();
    let versions_top = foot_y - (count - 1) as f64 * foot_h;
    let last_right = versions.last().map_or(m, |l| l.rect.right());
    let boxes = || {
        sheet
            .sections
            .iter()
            .flat_map(|s| s.tracks.iter())
            .flat_map(|t| t.boxes.iter())
    };
    let styles = |style: Style| boxes().any(|b| b.style == style);
    let tags = |needs: bool| {
        boxes().any(|b| {
            if needs {
                !b.needs.is_empty()
            } else {
                !b.gives.is_empty()
            }
        })
    };
    let mut entries: Vec<(&str, &str)> = Vec::new();
    if tags(true) && !titles.key.needs.is_empty() {
        entries.push(("needs", titles.key.needs));
    }
    if tags(false) && !titles.key.gives.is_empty() {
        entries.push(("gives", titles.key.gives));
    }
    for (style, sample, words) in [
        (Style::Bonus, "bonus", titles.key.bonus),
        (Style::Trigger, "trigger", titles.key.trigger),
        (Style::Free, "free", titles.key.free),
    ] {
        if styles(style) && !words.is_empty() {
            entries.push((sample, words));
        }
    }
    let sample = 3.2;
    let widths: Vec<f64> = entries
        .iter()
        .map(|(_, words)| sample + 1.0 + text_width(Font::Body, foot, words))
        .collect();
    let key_w: f64 = widths.iter().sum::<f64>() + 3.5 * entries.len().saturating_sub(1) as f64;
    // One line when it clears the versions, else a line of its own above them.
    let (key_y, foot_top) = if last_right + 6.0 + key_w <= right {
        (foot_y, versions_top)
    } else {
        (versions_top - foot_h - 1.2, versions_top - foot_h - 1.2)
    };
    let mut x = right - key_w;
    let mut key = Vec::new();
    for ((sample_name, words), w) in entries.iter().zip(&widths) {
        // A sample is taller than the foot's line: centred on it, but never into the margin.
        let sample_y = (key_y + (foot_h - sample) / 2.0).min(bottom - sample);
        let rect = Rect::new(x, sample_y, sample, sample);
        key.push(KeyEntry {
            sample: sample_name.to_string(),
            rect,
            line: line(Font::Body, foot, words, x + sample + 1.0, key_y),
        });
        x += w + 3.5;
    }
    if key_w > inner {
        return Err(Overflow {
            paper,
            section: None,
            fault: Fault::Frame,
            excess: key_w - inner,
            what: "the key at the foot of the page is wider than the page".to_string(),
            suggestions: Vec::new(),
        });
    }
    let body_top = rule.bottom() + HEADER_GAP * level.space.max(0.6);
    let body = Rect::new(m, body_top, inner, foot_top - 2.0 - body_top);
    Ok(Frame {
        header,
        footer: Footer { versions, key },
        body,
    })
}

// ---- What would make it fit ----------------------------------------------------------------------

/// The layout work the blame ([`fits_without`], half of it at most) and the suggestions may
/// cost together, in boxes laid out. Each suggestion is
/// checked by laying the sheet out again, a few dozen times in all: nothing for a sheet of
/// ordinary size, but at the box limit each layout takes milliseconds, and an overflowing
/// sheet's check took seconds. Past the budget the remaining suggestions are not tried, so a
/// check costs at most a bounded number of the sheet's layouts; the edits most likely to help
/// a sheet that large (bigger paper, a shorter track) are tried first.
const SUGGESTION_WORK: usize = 500_000;

/// The smallest section (in boxes; the later of two alike) the sheet fits without, within
/// the suggestions' budget: a section added to a full sheet most likely took a row of its own.
fn fits_without(
    sheet: &SheetData,
    titles: &Titles,
    paper: PaperSize,
    spent: &std::cell::Cell<usize>,
) -> Option<usize> {
    if sheet.sections.len() < 2 {
        return None;
    }
    let boxes =
        |s: usize| -> usize { sheet.sections[s].tracks.iter().map(|t| t.boxes.len()).sum() };
    let mut order: Vec<usize> = (0..sheet.sections.len()).collect();
    order.sort_by_key(|&s| (boxes(s), std::cmp::Reverse(s)));
    order
        .into_iter()
        .take_while(|_| spent.get() < SUGGESTION_WORK / 2)
        .find(|&s| {
            let mut without = sheet.clone();
            without.sections.remove(s);
            attempt_counted(&without, titles, paper, spent).is_ok()
        })
}

fn suggestions(
    sheet: &SheetData,
    titles: &Titles,
    paper: PaperSize,
    overflow: &Overflow,
    spent: &std::cell::Cell<usize>,
) -> Vec<String> {
    let attempt = |sheet: &SheetData, paper: PaperSize| {
        (spent.get() < SUGGESTION_WORK).then(|| attempt_counted(sheet, titles, paper, spent))
    };
    let fits =
        |sheet: &SheetData, paper: PaperSize| attempt(sheet, paper).is_some_and(|r| r.is_ok());
    let bigger_paper = bigger_paper(sheet, titles.own_paper, paper, &fits);
    let shorter_track = shorter_track(sheet, paper, overflow, &fits);
    let mut out = Vec::new();
    // Another place for the section at fault, or for another section with a written place:
    // at each width, the layout's own choice of cell (a dozen tries at most).
    let mut candidates: Vec<usize> = overflow.section.into_iter().collect();
    candidates.extend((0..sheet.sections.len()).filter(|s| Some(*s) != overflow.section));
    let columns = sheet.columns.max(1);
    let mut tries = 0;
    'moves: for s in candidates.into_iter().filter(|&s| !sheet.sections[s].auto) {
        for width in (1..=columns).rev() {
            tries += 1;
            if tries > 12 {
                break 'moves;
            }
            let mut moved = sheet.clone();
            moved.sections[s].auto = true;
            moved.sections[s].width = width;
            moved.sections[s].width_given = true;
            // The place the layout found, written as the designer would write it, must fit too.
            let found = attempt(&moved, paper)
                .and_then(Result::ok)
                .and_then(|layout| {
                    layout
                        .sections
                        .iter()
                        .find(|l| l.id == sheet.sections[s].id)
                        .map(|p| (p.column, p.row, p.width))
                });
            let written = found.filter(|&(column, row, width)| {
                let mut placed = sheet.clone();
                let section = &mut placed.sections[s];
                (section.column, section.row, section.width) = (column, row, width);
                section.width_given = true;
                fits(&placed, paper)
            });
            if let Some((column, row, width)) = written {
                out.push(format!(
                    "move section `{}` to column {column}, row {row}, {width} column{} wide",
                    sheet.sections[s].id,
                    if width == 1 { "" } else { "s" }
                ));
                break 'moves;
            }
        }
    }
    // Every section placed by the layout.
    if sheet.sections.iter().any(|s| !s.auto) {
        let mut free = sheet.clone();
        for section in &mut free.sections {
            section.auto = true;
            section.width_given = false;
        }
        if fits(&free, paper) {
            out.push(
                "let the layout place every section: remove `column`, `row` and `width` from the sections"
                    .to_string(),
            );
        }
    }
    out.extend(shorter_track);
    out.extend(bigger_paper);
    if out.is_empty() {
        out.push("give the sheet fewer boxes, or shorten its titles and labels".to_string());
    }
    out
}

/// Fewer boxes: the longest track of the section at fault, shortened until the sheet fits.
fn shorter_track(
    sheet: &SheetData,
    paper: PaperSize,
    overflow: &Overflow,
    fits: &dyn Fn(&SheetData, PaperSize) -> bool,
) -> Option<String> {
    if let Some(s) = overflow.section {
        let longest = sheet.sections[s]
            .tracks
            .iter()
            .enumerate()
            .max_by_key(|(_, t)| t.boxes.len())
            .map(|(i, t)| (i, t.boxes.len(), t.id.clone(), t.loose));
        if let Some((t, len, id, loose)) = longest
            && len > 1
            && !loose
        {
            let shortened = |keep: usize| {
                let mut short = sheet.clone();
                short.sections[s].tracks[t].boxes.truncate(keep);
                fits(&short, paper)
            };
            if shortened(1) {
                let (mut lo, mut hi) = (1usize, len - 1);
                while lo < hi {
                    let mid = (lo + hi).div_ceil(2);
                    if shortened(mid) {
                        lo = mid;
                    } else {
                        hi = mid - 1;
                    }
                }
                return Some(format!(
                    "split track `{id}` ({len} boxes) over two sections, or give it at most {lo} boxes"
                ));
            }
        }
    }
    None
}

/// The first standard paper the sheet fits on, as a suggestion.
fn bigger_paper(
    sheet: &SheetData,
    own_paper: bool,
    paper: PaperSize,
    fits: &dyn Fn(&SheetData, PaperSize) -> bool,
) -> Option<String> {
    // The next paper of the same family first (A-series after A4, US sizes after Letter).
    let order: &[PaperSize] = if matches!(paper.name, "letter" | "tabloid") {
        &[
            PaperSize::LETTER,
            PaperSize::TABLOID,
            PaperSize::A4,
            PaperSize::A3,
        ]
    } else {
        &[
            PaperSize::A4,
            PaperSize::A3,
            PaperSize::LETTER,
            PaperSize::TABLOID,
        ]
    };
    for other in order {
        if other.name != paper.name && fits(sheet, *other) {
            let (label, name) = (other.label(), other.name);
            let how = match own_paper {
                true => format!("`paper = \"{name}\"` on the sheet"),
                false => format!("`--paper {name}` or `paper = \"{name}\"` in game.toml"),
            };
            return Some(format!(
                "print on {label} ({} × {} mm): {how}",
                other.width, other.height
            ));
        }
    }
    None
}

/// Requirement and reward tags set on two lines.
fn broken_tags(layout: &SheetLayout) -> usize {
    let one_line = fonts::line_height(Font::Body, layout.text_size) * 1.5;
    layout
        .items()
        .filter(|(_, item)| matches!(item, super::Item::Tag { rect, .. } if rect.h > one_line))
        .count()
}
