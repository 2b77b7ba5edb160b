//! One section's content at a given width: its notes, trails (column tracks), tables of row
//! tracks, counters and loose boxes, stacked in the order the content first names them.
//!
//! Positions are relative to the content's top-left corner; the sheet moves them into place.
//! A section's height grows with `stretch`, the millimetres added to each gap between lines,
//! so that a panel given more room than it needs spreads its lines rather than leaving its
//! bottom empty.

use std::cell::RefCell;
use std::collections::HashMap;

use rustc_hash::FxHashMap;

use super::{BoxData, Icon, SectionData, TrackData};
use super::{Item, Level, Line, Part, Rect, Side, shape_extent};
use crate::fonts::{self, Style as Font};
use crate::model::Flow;

/// Gap between a tag and its box, and between words and icons, in mm.
const NEAR: f64 = 1.0;
/// Inner padding of a tag.
const TAG_PAD_X: f64 = 0.55;
const TAG_PAD_Y: f64 = 0.35;
/// A VP badge sits at its box's upper right shoulder: this far from the box's side, and
/// rising this far above its top (mm). It never covers the box a player marks, and costs a
/// line of boxes almost no height.
const BADGE_GAP: f64 = 0.3;
const BADGE_RISE: f64 = 0.9;
/// The most a gap grows when a panel spreads its lines.
pub(crate) const MAX_STRETCH: f64 = 3.5;

/// Content that does not fit across its width, however it wraps.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct TooNarrow {
    /// How much wider, in mm, the room it was given would have to be: the room of its own
    /// column or trail, which may be a part of the section's width.
    pub short_by: f64,
    /// What it is, in words: "the box `area-1#1` and its tags".
    pub what: String,
}

pub struct Content {
    pub items: Vec<Item>,
    pub height: f64,
    /// How many gaps grow with `stretch`: the height gains this many mm per mm of stretch.
    pub gaps: usize,
}

thread_local! {
    static WIDTHS: RefCell<FxHashMap<Font, FxHashMap<String, f64>>> = RefCell::default();
}

/// A text's width at `size` points: measured once per face at 1 pt (advances scale with size).
pub(crate) fn text_width(font: Font, size: f64, text: &str) -> f64 {
    WIDTHS.with(|cache| {
        let mut cache = cache.borrow_mut();
        let widths = cache.entry(font).or_default();
        if let Some(w) = widths.get(text) {
            return w * size;
        }
        let w = fonts::width(font, 1.0, text);
        if widths.len() > 100_000 {
            widths.clear();
        }
        widths.insert(text.to_string(), w);
        w * size
    })
}

/// One line of `text`, its line box's top-left corner at (x, y), measured.
pub(super) fn line(font: Font, size: f64, text: &str, x: f64, y: f64) -> Line {
    Line {
        rect: Rect::new(
            x,
            y,
            text_width(font, size, text),
            fonts::line_height(font, size),
        ),
        text: text.to_string(),
        font,
        size,
    }
}

/// Words broken into lines no wider than `width`; a word wider than the width is an error.
pub(super) fn wrap(font: Font, size: f64, text: &str, width: f64) -> Result<Vec<String>, f64> {
    let space = text_width(font, size, " ");
    let mut lines: Vec<String> = Vec::new();
    let mut current = String::new();
    let mut current_w = 0.0;
    for word in text.split_whitespace() {
        let w = text_width(font, size, word);
        if w > width + 1e-6 {
            return Err(w);
        }
        if current.is_empty() {
            current = word.to_string();
            current_w = w;
        } else if current_w + space + w <= width + 1e-6 {
            current.push(' ');
            current.push_str(word);
            current_w += space + w;
        } else {
            lines.push(std::mem::take(&mut current));
            current = word.to_string();
            current_w = w;
        }
    }
    if !current.is_empty() {
        lines.push(current);
    }
    Ok(lines)
}

// ---- Tags ------------------------------------------------------------------------------------

/// An atom of a tag: a word, or an icon (an index into the sheet's icons).
#[derive(Debug, Clone)]
enum Atom {
    Word(String),
    Icon(usize),
}

/// A tag measured at one size: its lines of atoms and its extent.
#[derive(Debug, Clone)]
struct Tag {
    side: Side,
    lines: Vec<Vec<Atom>>,
    w: f64,
    h: f64,
}

struct TagMetrics<'a> {
    icons: &'a [Icon],
    /// Each icon's index by its word.
    icon_words: &'a HashMap<String, usize>,
    /// The lengths of the icons' words, longest first.
    icon_lengths: Vec<usize>,
    size: f64,
    line_h: f64,
    sign_w: f64,
    icon_h: f64,
    space: f64,
}

impl<'a> TagMetrics<'a> {
    fn new(size: f64, icons: &'a [Icon], icon_words: &'a HashMap<String, usize>) -> TagMetrics<'a> {
        let line_h = fonts::line_height(Font::Body, size);
        let mut icon_lengths: Vec<usize> = icon_words
            .keys()
            .map(String::len)
            .filter(|&len| len > 0)
            .collect();
        icon_lengths.sort_unstable_by(|a, b| b.cmp(a));
        icon_lengths.dedup();
        TagMetrics {
            icons,
            icon_words,
            icon_lengths,
            size,
            line_h,
            sign_w: line_h * 0.62,
            icon_h: line_h * 0.9,
            space: text_width(Font::Body, size, " "),
        }
    }
    /// A tag's terms as atoms, `+` between two terms. A term that is an icon's word is the
    /// icon; in any other, each word is split around the icons' words written inside it
    /// (`2x[fish]`: the word `2x`, then the icon).
    fn atoms(&self, terms: &[String]) -> Vec<Atom> {
        let mut atoms = Vec::new();
        for (i, term) in terms.iter().enumerate() {
            if i > 0 {
                atoms.push(Atom::Word("+".to_string()));
            }
            match self.icon_words.get(term.as_str()) {
                Some(&icon) => atoms.push(Atom::Icon(icon)),
                None => {
                    for word in term.split_whitespace() {
                        self.split_icons(word, &mut atoms);
                    }
                }
            }
        }
        atoms
    }
    fn split_icons(&self, word: &str, atoms: &mut Vec<Atom>) {
        let (mut text_from, mut at) = (0, 0);
        while at < word.len() {
            let icon = self.icon_lengths.iter().find_map(|&len| {
                let candidate = word.get(at..at + len)?;
                self.icon_words.get(candidate).map(|&icon| (icon, len))
            });
            match icon {
                Some((icon, len)) => {
                    if text_from < at {
                        atoms.push(Atom::Word(word[text_from..at].to_string()));
                    }
                    atoms.push(Atom::Icon(icon));
                    at += len;
                    text_from = at;
                }
                None => at += word[at..].chars().next().map_or(1, char::len_utf8),
            }
        }
        if text_from < word.len() {
            atoms.push(Atom::Word(word[text_from..].to_string()));
        }
    }
    fn atom_w(&self, atom: &Atom) -> f64 {
        match atom {
            Atom::Word(w) => text_width(Font::Body, self.size, w),
            Atom::Icon(icon) => self.icon_h * self.icons[*icon].width,
        }
    }
    fn line_w(&self, atoms: &[Atom]) -> f64 {
        let words: f64 = atoms.iter().map(|a| self.atom_w(a)).sum();
        words + self.space * atoms.len().saturating_sub(1) as f64
    }
    fn tag(&self, side: Side, lines: Vec<Vec<Atom>>) -> Tag {
        let text_w = lines.iter().map(|l| self.line_w(l)).fold(0.0, f64::max);
        Tag {
            side,
            w: TAG_PAD_X * 2.0 + self.sign_w + NEAR * 0.6 + text_w,
            h: TAG_PAD_Y * 2.0 + self.line_h * lines.len() as f64,
            lines,
        }
    }
    /// The tag on one line.
    fn one_line(&self, side: Side, words: &[String]) -> Option<Tag> {
        (!words.is_empty()).then(|| self.tag(side, vec![self.atoms(words)]))
    }
    /// The tag on two lines, split where its wider line is narrowest.
    fn two_lines(&self, side: Side, words: &[String]) -> Option<Tag> {
        let all = self.atoms(words);
        if all.len() < 2 {
            return self.one_line(side, words);
        }
        let best = (1..all.len())
            .min_by(|&a, &b| {
                let wa = self.line_w(&all[..a]).max(self.line_w(&all[a..]));
                let wb = self.line_w(&all[..b]).max(self.line_w(&all[b..]));
                wa.total_cmp(&wb)
            })
            .unwrap_or(1);
        Some(self.tag(side, vec![all[..best].to_vec(), all[best..].to_vec()]))
    }
    /// Draws `tag` with its top-left corner at (x, y).
    fn draw(&self, tag: &Tag, x: f64, y: f64) -> Item {
        let rect = Rect::new(x, y, tag.w, tag.h);
        let sign = Rect::new(
            x + TAG_PAD_X,
            y + (tag.h - self.sign_w) / 2.0,
            self.sign_w,
            self.sign_w,
        );
        let mut parts = Vec::new();
        for (i, atoms) in tag.lines.iter().enumerate() {
            let top = y + TAG_PAD_Y + self.line_h * i as f64;
            let mut cx = sign.right() + NEAR * 0.6;
            for atom in atoms {
                let w = self.atom_w(atom);
                match atom {
                    Atom::Word(word) => parts.push(Part::Text {
                        line: line(Font::Body, self.size, word, cx, top),
                    }),
                    Atom::Icon(icon) => parts.push(Part::Icon {
                        rect: Rect::new(
                            cx,
                            top + (self.line_h - self.icon_h) / 2.0,
                            w,
                            self.icon_h,
                        ),
                        icon: self.icons[*icon].id.clone(),
                    }),
                }
                cx += w + self.space;
            }
        }
        Item::Tag {
            rect,
            side: tag.side,
            sign,
            parts,
        }
    }
}

// ---- Units: a box with its tags, badge and label -----------------------------------------------

struct Unit<'a> {
    data: &'a BoxData,
    box_w: f64,
    needs: Option<Tag>,
    gives: Option<Tag>,
    /// The label's width (on one line), beside the gives tag.
    label_w: f64,
    /// The label's lines: one, unless it was wrapped to fit a narrow trail.
    label_lines: Vec<String>,
    label_size: f64,
    badge: Option<(f64, f64)>,
    /// In a track, the tags and label sit beside the box; a loose box has them under its name.
    beside: bool,
}

impl Unit<'_> {
    /// Room right of the box's edge the badge takes.
    /// A badge goes on the box's free side: on its left when something follows the box on
    /// its right and nothing is required on its left, else on its right.
    fn badge_left(&self) -> bool {
        self.beside && self.badge.is_some() && self.needs.is_none() && self.after_w() > 0.0
    }
    fn badge_right(&self) -> f64 {
        match self.badge {
            Some((w, _)) if !self.badge_left() => w + BADGE_GAP,
            _ => 0.0,
        }
    }
    fn badge_top(&self) -> f64 {
        self.badge.map_or(0.0, |_| BADGE_RISE)
    }
    /// What follows the box on its right: the gives tag, then the label.
    fn after_w(&self) -> f64 {
        let gives = self.gives.as_ref().map_or(0.0, |t| t.w);
        match (gives > 0.0, self.label_w > 0.0) {
            (true, true) => gives + NEAR + self.label_w,
            (true, false) => gives,
            (false, true) => self.label_w,
            (false, false) => 0.0,
        }
    }
    /// What the box has on its left, measured from its gutter's right edge: the requirement
    /// tag, or the badge when it sits there.
    fn needs_w(&self) -> f64 {
        match (&self.needs, self.badge) {
            (Some(tag), _) => tag.w,
            (None, Some((w, _))) if self.badge_left() => (w + BADGE_GAP - NEAR).max(0.01),
            _ => 0.0,
        }
    }
    fn tag_h(&self) -> f64 {
        let n = self.needs.as_ref().map_or(0.0, |t| t.h);
        let g = self.gives.as_ref().map_or(0.0, |t| t.h);
        let label = if self.label_lines.len() > 1 {
            self.label_lines.len() as f64 * fonts::line_height(Font::Body, 1.0) * self.label_size
        } else {
            0.0
        };
        n.max(g).max(label)
    }
}

struct Ctx<'a> {
    level: &'a Level,
    tags: TagMetrics<'a>,
    badge_h: f64,
    label_h: f64,
    stretch: f64,
    /// Stretchable gaps laid so far.
    gaps: std::cell::Cell<usize>,
}

impl Ctx<'_> {
    fn stretched(&self, count: usize) {
        self.gaps.set(self.gaps.get() + count);
    }
    fn gap(&self, base: f64) -> f64 {
        base * self.level.space
    }
    fn badge(&self, vp: u32) -> Option<(f64, f64)> {
        (vp > 0).then(|| {
            let w = text_width(Font::Bold, self.level.text, &vp.to_string()) + 1.3;
            (w.max(self.badge_h), self.badge_h)
        })
    }
    /// A box measured as a track draws it (`beside`: label and tags beside the box) or as a
    /// loose box does (they go under its name, drawn by `loose`).
    fn unit<'a>(&self, b: &'a BoxData, beside: bool) -> Unit<'a> {
        Unit {
            data: b,
            box_w: shape_extent(b.shape, self.level.box_size),
            needs: self.tags.one_line(Side::Needs, &b.needs),
            gives: self.tags.one_line(Side::Gives, &b.gives),
            label_w: match (&b.label, beside) {
                (Some(l), true) => text_width(Font::Body, self.level.text, l),
                _ => 0.0,
            },
            label_lines: match (&b.label, beside) {
                (Some(l), true) => vec![l.clone()],
                _ => Vec::new(),
            },
            label_size: self.level.text,
            badge: self.badge(b.vp),
            beside,
        }
    }
    /// The box, its badge, and its tags, with the box's top-left at (x, y).
    fn draw_unit(&self, u: &Unit, needs_right: f64, x: f64, y: f64, items: &mut Vec<Item>) {
        let bw = u.box_w;
        let size = self.level.box_size;
        // Shapes drawn larger than a square are centred on the square's place.
        let rect = Rect::new(x, y + (size - bw) / 2.0, bw, bw);
        let centre = y + size / 2.0;
        if let Some(tag) = &u.needs {
            items.push(
                self.tags
                    .draw(tag, needs_right - tag.w, centre - tag.h / 2.0),
            );
        }
        items.push(Item::Box {
            rect,
            id: u.data.id.clone(),
            shape: u.data.shape,
            style: u.data.style,
        });
        items.extend(self.badge_item(u, rect));
        let mut after = rect.right() + u.badge_right() + NEAR;
        if let Some(tag) = &u.gives {
            items.push(self.tags.draw(tag, after, centre - tag.h / 2.0));
            after += tag.w + NEAR;
        }
        let lines = u.label_lines.len() as f64;
        for (i, text) in u.label_lines.iter().enumerate() {
            let top = centre - self.label_h * lines / 2.0 + self.label_h * i as f64;
            let l = line(Font::Body, self.level.text, text, after, top);
            items.push(Item::Label { line: l });
        }
    }
    /// The unit's VP badge, on its box's free side, for the box drawn at `rect`.
    fn badge_item(&self, u: &Unit, rect: Rect) -> Option<Item> {
        let (w, h) = u.badge?;
        let x = if u.badge_left() {
            rect.x - BADGE_GAP - w
        } else {
            rect.right() + BADGE_GAP
        };
        let badge = Rect::new(x, rect.y - BADGE_RISE, w, h);
        let mut text = line(
            Font::Bold,
            self.level.text,
            &u.data.vp.to_string(),
            0.0,
            0.0,
        );
        text.rect.x = badge.x + (badge.w - text.rect.w) / 2.0;
        text.rect.y = badge.y + (badge.h - text.rect.h) / 2.0;
        Some(Item::Badge {
            rect: badge,
            line: text,
            vp: u.data.vp,
        })
    }
    fn arrow(&self, right: f64, centre: f64) -> Item {
        let w = (1.6 * self.level.space).clamp(1.2, 2.0);
        Item::Arrow {
            rect: Rect::new(right - w - 0.4, centre - 0.9, w, 1.8),
        }
    }
}

/// The content of `section` laid out `width` mm wide at `level`.
pub fn lay_out(
    section: &SectionData,
    icons: (&[Icon], &HashMap<String, usize>),
    width: f64,
    level: &Level,
    stretch: f64,
) -> Result<Content, TooNarrow> {
    let ctx = Ctx {
        level,
        tags: TagMetrics::new(level.text, icons.0, icons.1),
        badge_h: fonts::line_height(Font::Bold, level.text) * 0.92 + 0.3,
        label_h: fonts::line_height(Font::Body, level.text),
        stretch,
        gaps: std::cell::Cell::new(0),
    };
    let mut items = Vec::new();
    let mut y = 0.0;
    let block_gap = ctx.gap(2.0) + stretch;
    let mut first = true;
    let next_block = |y: &mut f64, first: &mut bool| {
        if !*first {
            *y += block_gap;
            ctx.stretched(1);
        }
        *first = false;
    };

    let note_h = fonts::line_height(Font::Italic, level.note);
    for text in &section.texts {
        let lines = wrap(Font::Italic, level.note, text, width).map_err(|w| TooNarrow {
            short_by: w - width,
            what: format!("a word of the note \"{}\"", clip(text)),
        })?;
        next_block(&mut y, &mut first);
        for (i, l) in lines.iter().enumerate() {
            if i > 0 {
                y += note_h * 0.05;
            }
            items.push(Item::Note {
                line: line(Font::Italic, level.note, l, 0.0, y),
            });
            y += note_h;
        }
    }

    for group in groups(section) {
        next_block(&mut y, &mut first);
        let height = match group {
            Group::Trails(tracks) => trails(&ctx, &tracks, width, y, &mut items)?,
            Group::Table(tracks) => table_blocks(&ctx, &tracks, width, y, &mut items)?,
            Group::Counter(track) => counter(&ctx, track, width, y, &mut items)?,
            Group::Loose(boxes) => loose(&ctx, &boxes, width, y, &mut items)?,
        };
        y += height;
    }
    Ok(Content {
        items,
        height: y,
        gaps: ctx.gaps.get(),
    })
}

fn clip(text: &str) -> String {
    let mut out: String = text.chars().take(40).collect();
    if text.chars().count() > 40 {
        out.push('…');
    }
    out
}

enum Group<'a> {
    Trails(Vec<&'a TrackData>),
    Table(Vec<&'a TrackData>),
    Counter(&'a TrackData),
    Loose(Vec<&'a BoxData>),
}

/// A counter is a track whose boxes are all alike with nothing to read: turns, balls.
fn is_counter(track: &TrackData) -> bool {
    track.flow == Flow::Row
        && !track.loose
        && track.boxes.len() > 1
        && track.boxes.iter().all(|b| {
            b.vp == 0
                && b.needs.is_empty()
                && b.gives.is_empty()
                && b.label.is_none()
                && b.shape == track.boxes[0].shape
                && b.style == track.boxes[0].style
        })
}

/// The section's tracks grouped by how they are drawn, in the order each kind first appears.
fn groups(section: &SectionData) -> Vec<Group<'_>> {
    let mut trails = Vec::new();
    let mut table = Vec::new();
    let mut loose = Vec::new();
    let mut order: Vec<(usize, u8, Option<&TrackData>)> = Vec::new();
    for (i, track) in section.tracks.iter().enumerate() {
        if track.loose {
            if loose.is_empty() {
                order.push((i, 3, None));
            }
            loose.extend(track.boxes.iter());
        } else if track.flow == Flow::Column {
            if trails.is_empty() {
                order.push((i, 0, None));
            }
            trails.push(track);
        } else if is_counter(track) {
            order.push((i, 2, Some(track)));
        } else {
            if table.is_empty() {
                order.push((i, 1, None));
            }
            table.push(track);
        }
    }
    let mut trails = Some(trails);
    let mut table = Some(table);
    let mut loose = Some(loose);
    order
        .into_iter()
        .filter_map(|(_, kind, track)| match kind {
            0 => trails.take().map(Group::Trails),
            1 => table.take().map(Group::Table),
            2 => track.map(Group::Counter),
            _ => loose.take().map(Group::Loose),
        })
        .collect()
}

// ---- Trails: column tracks side by side ----------------------------------------------------------

fn trails(
    ctx: &Ctx,
    tracks: &[&TrackData],
    width: f64,
    top: f64,
    items: &mut Vec<Item>,
) -> Result<f64, TooNarrow> {
    let n = tracks.len();
    let column_gap = ctx.gap(2.4).max(1.5);
    let tw = (width - column_gap * (n - 1) as f64) / n as f64;
    let mut units: Vec<Vec<Unit>> = tracks
        .iter()
        .map(|t| t.boxes.iter().map(|b| ctx.unit(b, true)).collect())
        .collect();
    let box_w = units
        .iter()
        .flatten()
        .map(|u| u.box_w)
        .fold(ctx.level.box_size, f64::max);
    // A row is [what it needs | box | badge and what it gives]: the left parts share one
    // gutter, and the widest right part sets the rest.
    let right = |u: &Unit| {
        let after = u.after_w();
        u.badge_right() + if after > 0.0 { NEAR + after } else { 0.0 }
    };
    let widths = |units: &[Vec<Unit>]| {
        let all = || units.iter().flatten();
        (
            all().map(Unit::needs_w).fold(0.0, f64::max),
            all().map(right).fold(0.0, f64::max),
        )
    };
    let need =
        |(left, rest): (f64, f64)| (if left > 0.0 { left + NEAR } else { 0.0 }) + box_w + rest;
    // Too wide on one line: requirement tags, then reward tags, then both take two lines,
    // each only where it is wider than its side's room.
    for (two_needs, two_gives) in [(true, false), (false, true), (true, true)] {
        if need(widths(&units)) <= tw {
            break;
        }
        let (left, rest) = widths(&units);
        let other_left = if two_needs { 0.0 } else { left };
        let other_rest = if two_gives { 0.0 } else { rest };
        let left_room = tw - need((0.0, other_rest)) - NEAR;
        let rest_room = tw - need((other_left, 0.0));
        for u in units.iter_mut().flatten() {
            let b = u.data;
            if two_needs && u.needs.is_some() && u.needs_w() > left_room {
                u.needs = ctx.tags.two_lines(Side::Needs, &b.needs);
            }
            if two_gives && u.gives.is_some() && right(u) > rest_room {
                u.gives = ctx.tags.two_lines(Side::Gives, &b.gives);
            }
        }
    }
    if need(widths(&units)) > tw {
        // Still too wide: names beside the boxes (a summit, a landmark) wrap over lines.
        let (left, _) = widths(&units);
        for u in units.iter_mut().flatten() {
            if u.label_lines.is_empty() {
                continue;
            }
            let gives = u.gives.as_ref().map_or(0.0, |t| t.w + NEAR);
            let room = tw - need((left, 0.0)) - u.badge_right() - NEAR - gives;
            if u.label_w > room
                && let Some(label) = &u.data.label
                && let Ok(lines) = wrap(Font::Body, ctx.level.text, label, room)
            {
                u.label_w = lines
                    .iter()
                    .map(|l| text_width(Font::Body, ctx.level.text, l))
                    .fold(0.0, f64::max);
                u.label_lines = lines;
            }
        }
    }
    let (needs_w, _) = widths(&units);
    let needed = need(widths(&units));
    if needed > tw + 1e-6 {
        let widest = units
            .iter()
            .flatten()
            .max_by(|a, b| (a.needs_w() + right(a)).total_cmp(&(b.needs_w() + right(b))))
            .map(|u| u.data.id.clone())
            .unwrap_or_default();
        return Err(TooNarrow {
            short_by: (needed - tw) * n as f64,
            what: format!(
                "{n} trails side by side (the widest row is box `{widest}` with its tags)"
            ),
        });
    }
    // Titles, wrapped to the trail's width; every trail's first box on one level.
    let title_h = fonts::line_height(Font::Display, ctx.level.title);
    let mut titles = Vec::new();
    for t in tracks {
        let lines = match &t.title {
            Some(title) => {
                wrap(Font::Display, ctx.level.title, title, tw).map_err(|w| TooNarrow {
                    short_by: (w - tw) * n as f64,
                    what: format!("the title of track `{}`", t.id),
                })?
            }
            None => Vec::new(),
        };
        titles.push(lines);
    }
    let title_lines = titles.iter().map(Vec::len).max().unwrap_or(0);
    let title_block = if title_lines > 0 {
        title_h * title_lines as f64 + ctx.gap(1.2).max(1.0)
    } else {
        0.0
    };
    // Row i of every trail shares one height.
    let rows = units.iter().map(Vec::len).max().unwrap_or(0);
    let size = ctx.level.box_size;
    let mut row_top = Vec::with_capacity(rows);
    let mut row_h = Vec::with_capacity(rows);
    for i in 0..rows {
        let in_row = units.iter().filter_map(|t| t.get(i));
        let (mut above, mut below) = (0.0f64, 0.0f64);
        for u in in_row {
            let spill = ((u.tag_h() - size) / 2.0)
                .max((u.box_w - size) / 2.0)
                .max(0.0);
            above = above.max(spill).max(u.badge_top());
            below = below.max(spill);
        }
        row_top.push(above);
        row_h.push(above + size + below);
    }
    let row_gap = ctx.gap(1.6) + ctx.stretch;
    // The [needs | box | gives] block, centred in the trail when there is room to spare.
    let inset = ((tw - needed) / 2.0).max(0.0);
    for (c, (t_units, lines)) in units.iter().zip(&titles).enumerate() {
        let x0 = c as f64 * (tw + column_gap);
        for (k, l) in lines.iter().enumerate() {
            items.push(Item::Title {
                line: line(
                    Font::Display,
                    ctx.level.title,
                    l,
                    x0,
                    top + title_h * k as f64,
                ),
            });
        }
        let needs_right = x0 + inset + needs_w;
        let box_x = needs_right + if needs_w > 0.0 { NEAR } else { 0.0 };
        let mut y = top + title_block;
        for (i, u) in t_units.iter().enumerate() {
            let box_top = y + row_top[i];
            let bx = box_x + (box_w - u.box_w) / 2.0;
            ctx.draw_unit(u, needs_right, bx, box_top, items);
            y += row_h[i] + row_gap;
        }
    }
    let rows_h: f64 = row_h.iter().sum::<f64>() + row_gap * rows.saturating_sub(1) as f64;
    ctx.stretched(rows.saturating_sub(1));
    Ok(title_block + rows_h)
}

// ---- Tables: row tracks whose boxes line up in columns ---------------------------------------------

struct TableTrack<'a> {
    track: &'a TrackData,
    units: Vec<Unit<'a>>,
}

/// The row tracks as tables side by side: as many tables as make the section shortest, a
/// wrapped line counting against a choice as much as two more lines would.
fn table_blocks(
    ctx: &Ctx,
    tracks: &[&TrackData],
    width: f64,
    top: f64,
    items: &mut Vec<Item>,
) -> Result<f64, TooNarrow> {
    let block_gap = ctx.gap(4.0);
    // Balanced by lines: a short track is one line, a long one about one per six boxes.
    let weights: Vec<usize> = tracks.iter().map(|t| 1 + t.boxes.len() / 6).collect();
    // Measured once, laid out for each way of splitting them.
    let rows: Vec<TableTrack> = tracks
        .iter()
        .map(|t| TableTrack {
            track: t,
            units: t.boxes.iter().map(|b| ctx.unit(b, true)).collect(),
        })
        .collect();
    let most = tracks.len().min(6);
    let line = ctx.level.box_size + ctx.gap(1.4);
    let base = ctx.gaps.get();
    let mut best: Option<(f64, f64, Vec<Item>, usize)> = None;
    let mut first_error = None;
    for k in 1..=most {
        let bw = (width - block_gap * (k - 1) as f64) / k as f64;
        let parts = split_balanced(&weights, k);
        let mut block_items = Vec::new();
        let mut height = 0.0f64;
        let mut gaps = 0;
        let mut wraps = 0;
        let mut failed = None;
        for (b, range) in parts.iter().enumerate() {
            let x = b as f64 * (bw + block_gap);
            let mut these = Vec::new();
            ctx.gaps.set(base);
            match table(ctx, &rows[range.clone()], bw, &mut these) {
                Ok((h, w)) => {
                    if h > height {
                        height = h;
                        gaps = ctx.gaps.get() - base;
                    }
                    wraps += w;
                    for mut item in these {
                        item.moved(x, top);
                        block_items.push(item);
                    }
                }
                Err(e) => {
                    failed = Some(e);
                    break;
                }
            }
        }
        if let Some(e) = failed {
            if k == 1 {
                first_error = Some(e);
            }
            // Narrower tables only get worse.
            break;
        }
        let score = height + wraps as f64 * 2.0 * line;
        match &best {
            Some((s, ..)) if score >= *s - 0.5 => {
                // More tables side by side only narrow each: once that stops paying, stop.
                if k > 2 {
                    break;
                }
            }
            _ => best = Some((score, height, block_items, gaps)),
        }
    }
    match best {
        Some((_, height, block_items, gaps)) => {
            ctx.gaps.set(base + gaps);
            items.extend(block_items);
            Ok(height)
        }
        None => Err(first_error.expect("one try at least")),
    }
}

/// `weights` cut into `k` consecutive runs of about equal weight.
fn split_balanced(weights: &[usize], k: usize) -> Vec<std::ops::Range<usize>> {
    let total: usize = weights.iter().sum();
    let mut runs = Vec::with_capacity(k);
    let mut start = 0;
    let mut acc = 0;
    for (i, w) in weights.iter().enumerate() {
        acc += w;
        let runs_left = k - runs.len();
        let items_left = weights.len() - i - 1;
        let target = total * (runs.len() + 1) / k;
        if runs_left > 1 && (acc >= target || items_left < runs_left - 1) && i + 1 > start {
            runs.push(start..i + 1);
            start = i + 1;
        }
    }
    if start < weights.len() {
        runs.push(start..weights.len());
    }
    runs
}

/// One table of row tracks, a track a line, titles in a column of their own. When every
/// track fits on one line, the k-th boxes of all tracks line up in a column (evolution lines
/// read across, their stages down); otherwise each track runs on and wraps between boxes, a
/// continued line starting with an arrow. Returns the height and the number of wraps.
fn table(
    ctx: &Ctx,
    rows: &[TableTrack],
    width: f64,
    items: &mut Vec<Item>,
) -> Result<(f64, usize), TooNarrow> {
    let title_size = ctx.level.title;
    let title_h = fonts::line_height(Font::Display, title_size);
    let widest_title = rows
        .iter()
        .filter_map(|r| r.track.title.as_deref())
        .map(|t| text_width(Font::Display, title_size, t))
        .fold(0.0, f64::max);
    let arrow_slot = ctx.gap(2.6).max(2.2);
    let longest = rows.iter().map(|r| r.units.len()).max().unwrap_or(0);
    let titles_left = widest_title > 0.0 && widest_title <= width * 0.34;
    let title_col = if titles_left {
        widest_title + ctx.gap(2.0)
    } else {
        0.0
    };

    // Aligned: column j holds the j-th box of every track.
    let mut cols = vec![(0.0f64, 0.0f64, 0.0f64, 0.0f64); longest];
    for r in rows {
        for (i, u) in r.units.iter().enumerate() {
            let col = &mut cols[i];
            col.0 = col.0.max(u.needs_w());
            col.1 = col.1.max(u.box_w);
            col.2 = col.2.max(u.badge_right());
            col.3 = col.3.max(u.after_w());
        }
    }
    let aligned_w = title_col
        + cols.iter().map(|col| unit_w(*col)).sum::<f64>()
        + arrow_slot * longest.saturating_sub(1) as f64;
    let aligned = aligned_w <= width + 1e-6;

    // Where each unit goes: (line within its track, x of its needs gutter's right edge).
    let own = |u: &Unit| unit_w((u.needs_w(), u.box_w, u.badge_right(), u.after_w()));
    let indent = title_col + arrow_slot;
    let mut wraps = 0;
    let mut places: Vec<Vec<(usize, f64, f64)>> = Vec::with_capacity(rows.len());
    for r in rows {
        let mut place = Vec::with_capacity(r.units.len());
        if aligned {
            let mut x = title_col;
            for (i, u) in r.units.iter().enumerate() {
                let needs_right = x + cols[i].0;
                let box_x = needs_right + if cols[i].0 > 0.0 { NEAR } else { 0.0 };
                place.push((0, needs_right, box_x + (cols[i].1 - u.box_w) / 2.0));
                x += unit_w(cols[i]) + arrow_slot;
            }
        } else {
            let mut x = title_col;
            let mut line = 0;
            for (i, u) in r.units.iter().enumerate() {
                let w = own(u);
                let too_narrow = |from: f64| TooNarrow {
                    short_by: from + w - width,
                    what: format!("box `{}` with its tags and label", u.data.id),
                };
                let start = if i == 0 { x } else { x + arrow_slot };
                let (start, this_line) = if i > 0 && start + w > width + 1e-6 {
                    // A continued line starts after the arrow slot: the box must fit there.
                    if indent + w > width + 1e-6 {
                        return Err(too_narrow(indent));
                    }
                    wraps += 1;
                    (indent, line + 1)
                } else {
                    if start + w > width + 1e-6 {
                        return Err(too_narrow(start));
                    }
                    (start, line)
                };
                line = this_line;
                let needs_right = start + u.needs_w();
                let box_x = needs_right + if u.needs_w() > 0.0 { NEAR } else { 0.0 };
                place.push((line, needs_right, box_x));
                x = start + w;
            }
        }
        places.push(place);
    }

    let size = ctx.level.box_size;
    let line_gap = ctx.gap(1.4) + ctx.stretch;
    let mut y = 0.0;
    let mut first_line = true;
    for (r, place) in rows.iter().zip(&places) {
        if !titles_left && let Some(title) = &r.track.title {
            if !first_line {
                y += line_gap;
                ctx.stretched(1);
            }
            first_line = false;
            let lines = wrap(Font::Display, title_size, title, width).map_err(|w| TooNarrow {
                short_by: w - width,
                what: format!("the title of track `{}`", r.track.id),
            })?;
            for l in lines {
                items.push(Item::Title {
                    line: line(Font::Display, title_size, &l, 0.0, y),
                });
                y += title_h;
            }
            y += ctx.gap(0.6).max(0.8);
        }
        // Lines only grow along the track, and each holds a box: a line is a run of places.
        let mut line_start = 0;
        for (l, run) in place.chunk_by(|a, b| a.0 == b.0).enumerate() {
            let on_line = line_start..line_start + run.len();
            line_start = on_line.end;
            if (l > 0 || titles_left || r.track.title.is_none()) && !first_line {
                y += line_gap;
                ctx.stretched(1);
            }
            first_line = false;
            let mut above = 0.0f64;
            let mut below = 0.0f64;
            for i in on_line.clone() {
                let u = &r.units[i];
                let spill = ((u.tag_h() - size) / 2.0)
                    .max((u.box_w - size) / 2.0)
                    .max(0.0);
                above = above.max(spill).max(u.badge_top());
                below = below.max(spill);
            }
            if l == 0 && titles_left && r.track.title.is_some() {
                let spill = ((title_h - size) / 2.0).max(0.0);
                above = above.max(spill);
                below = below.max(spill);
            }
            let box_top = y + above;
            let centre = box_top + size / 2.0;
            if l == 0
                && titles_left
                && let Some(title) = &r.track.title
            {
                items.push(Item::Title {
                    line: line(
                        Font::Display,
                        title_size,
                        title,
                        0.0,
                        centre - title_h / 2.0,
                    ),
                });
            }
            for (k, i) in on_line.enumerate() {
                let u = &r.units[i];
                let (_, needs_right, box_x) = place[i];
                // Between two boxes of a line, and at the start of a continued one: never at
                // a line's end.
                if i > 0 && (k > 0 || l > 0) {
                    items.push(ctx.arrow(needs_right - u.needs_w(), centre));
                }
                ctx.draw_unit(u, needs_right, box_x, box_top, items);
            }
            y = box_top + size + below;
        }
    }
    Ok((y, wraps))
}

fn unit_w((needs, box_w, badge, after): (f64, f64, f64, f64)) -> f64 {
    (if needs > 0.0 { needs + NEAR } else { 0.0 })
        + box_w
        + badge.max(0.0)
        + if after > 0.0 { NEAR + after } else { 0.0 }
}

// ---- Counters ------------------------------------------------------------------------------------

/// Turns, balls: boxes in lines, a wider gap after every fifth so they are easy to count.
fn counter(
    ctx: &Ctx,
    track: &TrackData,
    width: f64,
    top: f64,
    items: &mut Vec<Item>,
) -> Result<f64, TooNarrow> {
    let bw = shape_extent(track.boxes[0].shape, ctx.level.box_size);
    let gap = ctx.gap(1.3).max(0.8);
    let group_gap = gap + ctx.gap(1.8);
    let mut y = top;
    if let Some(title) = &track.title {
        let lines = wrap(Font::Display, ctx.level.title, title, width).map_err(|w| TooNarrow {
            short_by: w - width,
            what: format!("the title of track `{}`", track.id),
        })?;
        for l in lines {
            items.push(Item::Title {
                line: line(Font::Display, ctx.level.title, &l, 0.0, y),
            });
            y += fonts::line_height(Font::Display, ctx.level.title);
        }
        y += ctx.gap(0.6).max(0.8);
    }
    if bw > width {
        return Err(TooNarrow {
            short_by: bw - width,
            what: format!("a box of track `{}`", track.id),
        });
    }
    let line_w = |n: usize| {
        n as f64 * bw
            + (n.saturating_sub(1)) as f64 * gap
            + ((n.saturating_sub(1)) / 5) as f64 * (group_gap - gap)
    };
    let n = track.boxes.len();
    let mut per_line = 1;
    while per_line < n && line_w(per_line + 1) <= width + 1e-6 {
        per_line += 1;
    }
    // Whole groups of five on each line, when a line holds more than one group, and the
    // lines as even as that allows (30 balls as 10 + 10 + 10, not 25 + 5).
    if per_line < n && per_line > 5 {
        per_line -= per_line % 5;
        let lines = n.div_ceil(per_line);
        per_line = n.div_ceil(lines).div_ceil(5) * 5;
    }
    let line_gap = ctx.gap(1.3).max(0.8);
    for (l, chunk) in track.boxes.chunks(per_line).enumerate() {
        if l > 0 {
            y += bw + line_gap;
        }
        let mut x = 0.0;
        for (i, b) in chunk.iter().enumerate() {
            if i > 0 {
                x += if i % 5 == 0 { group_gap } else { gap };
            }
            items.push(Item::Box {
                rect: Rect::new(x, y, bw, bw),
                id: b.id.clone(),
                shape: b.shape,
                style: b.style,
            });
            x += bw;
        }
    }
    Ok(y + bw - top)
}

// ---- Loose boxes ---------------------------------------------------------------------------------

/// Boxes filled in any order (a collection, guests): a grid of entries, each a box with its name
/// and tags beside it, read down the columns.
fn loose(
    ctx: &Ctx,
    boxes: &[&BoxData],
    width: f64,
    top: f64,
    items: &mut Vec<Item>,
) -> Result<f64, TooNarrow> {
    let size = ctx.level.box_size;
    let text = ctx.level.text;
    let label_h = ctx.label_h;
    let units: Vec<Unit> = boxes.iter().map(|b| ctx.unit(b, false)).collect();
    // A box without a name shows none: its id is for the content, not for players.
    let label_of = |u: &Unit| u.data.label.clone().unwrap_or_default();
    let box_w = units.iter().map(|u| u.box_w).fold(size, f64::max);
    let badge_r = units.iter().map(Unit::badge_right).fold(0.0, f64::max);
    let lead = box_w + badge_r + NEAR;
    let text_w = |u: &Unit| {
        text_width(Font::Body, text, &label_of(u))
            .max(u.needs_w())
            .max(u.gives.as_ref().map_or(0.0, |t| t.w))
    };
    // One long name does not set every column's width: past a cap (three-quarters of the
    // names fit, with room to spare) a name wraps in its entry.
    let mut widths: Vec<f64> = units.iter().map(&text_w).collect();
    widths.sort_by(f64::total_cmp);
    let typical = widths.get(widths.len() * 3 / 4).copied().unwrap_or(0.0);
    let widest = widths
        .last()
        .copied()
        .unwrap_or(0.0)
        .min((typical * 1.4).max(25.0));
    let column_gap = ctx.gap(2.4);
    let entry_w = lead + widest;
    let columns = (((width + column_gap) / (entry_w + column_gap)).floor() as usize)
        .clamp(1, units.len().max(1));
    let cell_w = (width - column_gap * (columns - 1) as f64) / columns as f64;
    // A box and its badge are drawn whole whatever the room left for the label.
    if let Some(u) = units
        .iter()
        .find(|u| box_w + u.badge_right() > cell_w + 1e-6)
    {
        return Err(TooNarrow {
            short_by: box_w + u.badge_right() - cell_w,
            what: format!("box `{}` and its VP badge", u.data.id),
        });
    }
    let room = cell_w - lead;
    // Each entry's text lines: the label wrapped to the room, then its tags.
    let mut entries = Vec::with_capacity(units.len());
    for u in &units {
        let label = label_of(u);
        let lines = wrap(Font::Body, text, &label, room).map_err(|w| TooNarrow {
            short_by: w - room,
            what: format!("the label of box `{}`", u.data.id),
        })?;
        let mut needs = u.needs.clone();
        let mut gives = u.gives.clone();
        for (tag, words, side) in [
            (&mut needs, &u.data.needs, Side::Needs),
            (&mut gives, &u.data.gives, Side::Gives),
        ] {
            if tag.as_ref().is_some_and(|t| t.w > room) {
                *tag = ctx.tags.two_lines(side, words);
            }
            if let Some(t) = tag.as_ref().filter(|t| t.w > room + 1e-6) {
                return Err(TooNarrow {
                    short_by: t.w - room,
                    what: format!("a tag of box `{}`", u.data.id),
                });
            }
        }
        let h = label_h * lines.len() as f64
            + needs.as_ref().map_or(0.0, |t| t.h + 0.4)
            + gives.as_ref().map_or(0.0, |t| t.h + 0.4);
        entries.push((lines, needs, gives, h));
    }
    // A diamond, hexagon or star is drawn larger than a square box: its row is as tall.
    let drawn = |u: &Unit| u.box_w.max(size);
    let entry_h = entries
        .iter()
        .zip(&units)
        .map(|((_, _, _, h), u)| {
            let s = drawn(u);
            let top = u.badge_top().max((h - s) / 2.0);
            (top + s / 2.0 + h / 2.0).max(top + s)
        })
        .fold(size, f64::max);
    let rows = units.len().div_ceil(columns);
    let row_gap = ctx.gap(1.5) + ctx.stretch;
    for (i, (u, (lines, needs, gives, h))) in units.iter().zip(&entries).enumerate() {
        let (c, r) = (i / rows, i % rows);
        let x = c as f64 * (cell_w + column_gap);
        let y = top + r as f64 * (entry_h + row_gap);
        // Box and text centred on each other within the entry.
        let badge_top = u.badge_top();
        let s = drawn(u);
        let box_top = y + badge_top.max((h - s) / 2.0);
        let centre = box_top + s / 2.0;
        let text_top = (centre - h / 2.0).max(y);
        let rect = Rect::new(
            x + (box_w - u.box_w) / 2.0,
            box_top + (s - u.box_w) / 2.0,
            u.box_w,
            u.box_w,
        );
        items.push(Item::Box {
            rect,
            id: u.data.id.clone(),
            shape: u.data.shape,
            style: u.data.style,
        });
        items.extend(ctx.badge_item(u, rect));
        let tx = x + lead;
        let mut ty = text_top;
        for l in lines {
            items.push(Item::Label {
                line: line(Font::Body, text, l, tx, ty),
            });
            ty += label_h;
        }
        for tag in [needs, gives].into_iter().flatten() {
            ty += 0.4;
            items.push(ctx.tags.draw(tag, tx, ty));
            ty += tag.h;
        }
    }
    ctx.stretched(rows.saturating_sub(1));
    Ok(rows as f64 * entry_h + rows.saturating_sub(1) as f64 * row_gap)
}
