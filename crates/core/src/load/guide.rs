//! Reading a roll-and-write sheet's layout (KDL 2.0) into sections, tracks and boxes.
//!
//! The reader builds the structure and keeps each box's `fill`, `needs` and `gives` as written
//! (with the span of each name inside its string). What they mean is the game's: a rules
//! module's own loader (under `crates/rules/src/`) resolves them once every track and box id is known,
//! so a requirement may name a box defined further down the file; a game of components prints
//! them as written.

use kdl::{KdlDocument, KdlEntry, KdlNode, KdlValue};

use super::limits::{MAX_BOXES, MAX_TEXT_CHARS, MAX_VP};
use super::names::Names;
use super::{kdl_fast, kdl_slips};
use crate::diag::{Code, Diagnostic, Diagnostics, similar_name};
use crate::model::{
    BoxDef, BoxId, Flow, Located, Placement, Section, SectionId, Shape, SheetDef, Style, Track,
    TrackId,
};
use crate::world::{FileId, GameFolder, Origin};

/// What a sheet defines: tracks and boxes for the terms and files that name them, and all of
/// it to report unknown names and bad ids once everything has loaded.
pub struct GuideNames {
    pub tracks: Names<TrackId>,
    sections: Names<SectionId>,
    pub boxes: Names<BoxId>,
}

impl GuideNames {
    /// The names of the sheet `what` names in messages (``the sheet `log` ``).
    pub fn for_sheet(what: &str) -> GuideNames {
        GuideNames {
            tracks: Names::new("track").defined_by(format!(
                "define it in {what} as `track \"{{id}}\" {{ box }}` inside a section"
            )),
            sections: Names::new("section"),
            boxes: Names::new("box").defined_by(format!(
                "define it in {what} as `box \"{{id}}\"` inside a track or a section"
            )),
        }
    }

    pub fn report(&self, folder: &GameFolder, diagnostics: &mut Diagnostics) {
        self.sections.report(folder, diagnostics);
        self.tracks.report(folder, diagnostics);
        self.boxes.report(folder, diagnostics);
    }
}

/// A box's terms as written, each with where it was written.
#[derive(Debug, Clone)]
pub struct WrittenTerms {
    /// What fills it: its own `fill`, or its track's or section's (a free box, filled any
    /// time, takes none from above).
    pub fill: Option<Term>,
    /// Where its own `fill` is written (the value), else the box.
    pub fill_at: Origin,
    /// Where a `fill` was written for it, even one that did not read.
    pub fill_written: FillWritten,
    pub needs: Vec<Term>,
    pub gives: Vec<Term>,
}

/// Where a box's `fill` was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FillWritten {
    OnTheBox,
    /// On its track or section.
    Above,
    Nowhere,
}

/// A sheet as written: its structure, each box with its terms as written, and its names.
pub struct WrittenSheet {
    pub guide: SheetDef<WrittenTerms>,
    pub names: GuideNames,
}

/// How a game reads its sheets.
pub struct Dialect<'a> {
    /// The sheet as messages name it (`the sheet `log``).
    pub what: &'a str,
    /// The help when a box is given two fills.
    pub one_fill_help: &'a str,
}

/// Reads a sheet in `file`.
pub fn read(
    file: FileId,
    text: &str,
    dialect: &Dialect,
    diagnostics: &mut Diagnostics,
) -> WrittenSheet {
    let parsed = kdl_fast::parse(text);
    // Single-quoted strings parse, as other words: report them, and read on from the text
    // with the quotes straightened when that parses.
    let quoted = match &parsed {
        Ok(document) => kdl_slips::single_quoted(document, text),
        Err(_) => Vec::new(),
    };
    for q in &quoted {
        diagnostics.push(kdl_slips::single_quoted_diagnostic(file, text, q));
    }
    let straightened = kdl_slips::straightened(text, &quoted)
        .filter(|_| !quoted.is_empty())
        .and_then(|t| kdl_fast::parse(&t).ok().map(|d| (t, d)));
    let (straight_text, parsed) = match straightened {
        Some((straight, document)) => (Some(straight), Ok(document)),
        None => (None, parsed),
    };
    let text = straight_text.as_deref().unwrap_or(text);
    let names = GuideNames::for_sheet(dialect.what);
    let mut reader = Reader {
        file,
        text,
        diagnostics,
        guide: SheetDef {
            columns: 1,
            ..SheetDef::default()
        },
        sections: names.sections,
        tracks: names.tracks,
        boxes: names.boxes,
        boxes_over_limit: false,
        dialect,
    };
    match parsed {
        Ok(document) => reader.document(&document),
        Err(error) => {
            // A missing `"` is reported at the string it leaves open, in place of the parser's
            // reports from there on, which are about the rest of the line read as a string.
            let strings = kdl_slips::unclosed_strings(text);
            if !strings.is_empty() {
                for string in &strings {
                    reader
                        .diagnostics
                        .push(kdl_slips::unclosed_string_diagnostic(file, text, string));
                }
                let first_line = text[..strings[0].open].rfind('\n').map_or(0, |n| n + 1);
                for d in error
                    .diagnostics
                    .iter()
                    .filter(|d| d.span.offset() < first_line)
                {
                    reader.diagnostics.push(parse_diagnostic(file, text, d));
                }
                return reader.finish();
            }
            // A missing `}` is reported where indentation says it belongs, in place of the
            // parser's reports at the end of the enclosing block and of the file.
            let unclosed = kdl_slips::unclosed_blocks(text);
            for block in &unclosed {
                reader
                    .diagnostics
                    .push(kdl_slips::unclosed_diagnostic(file, text, block));
            }
            // A missing `{` is reported at the node that lacks it, in place of the parser's
            // reports from there on (the `}` it did not expect, lines below).
            let unopened = kdl_slips::unopened_blocks(text);
            for block in &unopened {
                reader
                    .diagnostics
                    .push(kdl_slips::unopened_diagnostic(file, text, block));
            }
            let first_unopened = unopened.first().map_or(usize::MAX, |b| b.node.start);
            for d in error.diagnostics.iter().filter(|d| {
                (unclosed.is_empty() || !d.message.as_deref().unwrap_or_default().contains("'}'"))
                    && d.span.offset() + d.span.len() <= first_unopened
            }) {
                reader.diagnostics.push(parse_diagnostic(file, text, d));
            }
        }
    }
    reader.finish()
}

/// The parser's report of a syntax error, at the line of the fault.
fn parse_diagnostic(file: FileId, text: &str, d: &kdl::KdlDiagnostic) -> Diagnostic {
    let mut start = d.span.offset().min(text.len());
    let end = (start + d.span.len()).min(text.len());
    // Some parse errors span from the start of the document to the fault: point at the line
    // of the fault instead.
    if let Some(newline) = text.get(start..end).and_then(|s| s.trim_end().rfind('\n')) {
        let line = start + newline + 1;
        start = line + (text[line..end].len() - text[line..end].trim_start().len());
    }
    let message = d
        .message
        .clone()
        .unwrap_or_else(|| "the KDL document could not be parsed".to_string());
    let diagnostic = Diagnostic::error(Code::KdlSyntax, message).with_primary(
        Origin::new(file, start..end),
        d.label.clone().unwrap_or_else(|| "here".to_string()),
    );
    match &d.help {
        Some(help) => diagnostic.with_help(help.clone()),
        None => diagnostic,
    }
}

/// One term as written: its kind (`collect`), its names (`psyduck`, `slowpoke`), and where.
#[derive(Debug, Clone)]
pub struct Term {
    pub kind: Located<String>,
    pub names: Vec<Located<String>>,
    pub origin: Origin,
    /// The whole term as written, trimmed: `collect: psyduck / slowpoke`.
    pub written: String,
}

struct Reader<'a> {
    file: FileId,
    text: &'a str,
    diagnostics: &'a mut Diagnostics,
    guide: SheetDef<WrittenTerms>,
    sections: Names<SectionId>,
    tracks: Names<TrackId>,
    boxes: Names<BoxId>,
    /// Whether boxes past [`MAX_BOXES`] were met (and reported) already.
    boxes_over_limit: bool,
    dialect: &'a Dialect<'a>,
}

/// Properties inherited from a section by its tracks and from a track by its boxes.
#[derive(Clone, Default)]
struct Inherited {
    fill: Option<Term>,
    /// A `fill` was written above, even if it did not read: its fault is reported there.
    fill_written: bool,
}

const SHEET_PROPS: &[&str] = &["title", "columns"];
const SECTION_PROPS: &[&str] = &["title", "column", "row", "width", "height", "fill"];
const TRACK_PROPS: &[&str] = &["title", "flow", "fill"];
const BOX_PROPS: &[&str] = &[
    "shape", "style", "vp", "label", "fill", "needs", "gives", "repeat",
];

impl Reader<'_> {
    fn finish(self) -> WrittenSheet {
        let Reader {
            guide,
            sections,
            tracks,
            boxes,
            ..
        } = self;
        WrittenSheet {
            guide,
            names: GuideNames {
                tracks,
                sections,
                boxes,
            },
        }
    }

    fn origin(&self, span: miette::SourceSpan) -> Origin {
        let start = span.offset().min(self.text.len());
        Origin::new(self.file, start..(start + span.len()).min(self.text.len()))
    }

    fn node_origin(&self, node: &KdlNode) -> Origin {
        // A node's span runs to the end of its children; blame its first line.
        let origin = self.origin(node.span());
        let line_end = self.text[origin.range()]
            .find('\n')
            .map_or(origin.end, |i| origin.start + i);
        Origin::new(self.file, origin.start..line_end.max(origin.start))
    }

    fn document(&mut self, document: &KdlDocument) {
        for node in document.nodes() {
            match node.name().value() {
                "sheet" => self.sheet(node),
                "section" => self.section(node),
                other => self.unknown_node(node, other, &["sheet", "section"]),
            }
        }
        if self.guide.sections.is_empty() {
            self.diagnostics.push(
                Diagnostic::error(
                    Code::EmptyGroup,
                    format!("{} has no sections", self.dialect.what),
                )
                .with_primary(Origin::new(self.file, 0..0), "in this file")
                .with_help("add `section \"id\" title=\"...\" { track \"id\" { box } }`"),
            );
        }
    }

    fn unknown_node(&mut self, node: &KdlNode, name: &str, known: &[&str]) {
        let origin = self.origin(node.name().span());
        self.diagnostics.push(
            Diagnostic::error(Code::UnknownNode, format!("unknown node `{name}`"))
                .with_primary(origin, format!("expected one of: {}", known.join(", ")))
                .with_suggestion(similar_name(name, known.iter().copied())),
        );
    }

    /// Checks a node's entries: at most `args` positional arguments, only `known` properties.
    fn entries<'n>(
        &mut self,
        node: &'n KdlNode,
        args: usize,
        known: &[&str],
    ) -> (Vec<&'n KdlEntry>, Vec<(&'n str, &'n KdlEntry)>) {
        let mut positional = Vec::new();
        let mut props: Vec<(&str, &KdlEntry)> = Vec::new();
        for entry in node.entries() {
            match entry.name() {
                None if positional.len() < args => positional.push(entry),
                None => {
                    let origin = self.origin(entry.span());
                    self.diagnostics.push(
                        Diagnostic::error(
                            Code::UnknownNode,
                            format!("unexpected argument to `{}`", node.name().value()),
                        )
                        .with_primary(origin, "not expected here")
                        .with_help(format!(
                            "`{}` takes {}; name other values as properties: {}",
                            node.name().value(),
                            crate::words::plural(args, "argument"),
                            known.join(", ")
                        )),
                    );
                }
                Some(name) if known.contains(&name.value()) => {
                    if let Some(index) = props.iter().position(|(n, _)| *n == name.value()) {
                        let first = self.origin(props[index].1.span());
                        let origin = self.origin(entry.span());
                        self.diagnostics.push(
                            Diagnostic::error(
                                Code::InvalidValue,
                                format!("property `{}` is given twice", name.value()),
                            )
                            .with_primary(origin, "given again here")
                            .with_secondary(first, "first given here")
                            .with_help("combine several values with `,` in one property"),
                        );
                        props[index] = (name.value(), entry);
                    } else {
                        props.push((name.value(), entry));
                    }
                }
                Some(name) => {
                    let origin = self.origin(name.span());
                    self.diagnostics.push(
                        Diagnostic::error(
                            Code::UnknownNode,
                            format!(
                                "unknown property `{}` on `{}`",
                                name.value(),
                                node.name().value()
                            ),
                        )
                        .with_primary(origin, format!("expected one of: {}", known.join(", ")))
                        .with_suggestion(similar_name(name.value(), known.iter().copied())),
                    );
                }
            }
        }
        (positional, props)
    }

    fn prop<'n>(props: &[(&str, &'n KdlEntry)], name: &str) -> Option<&'n KdlEntry> {
        props.iter().find(|(n, _)| *n == name).map(|(_, e)| *e)
    }

    fn string(&mut self, entry: &KdlEntry, what: &str) -> Option<String> {
        match entry.value() {
            KdlValue::String(s) if s.chars().count() > MAX_TEXT_CHARS => {
                let origin = self.value_origin(entry);
                self.diagnostics.push(
                    Diagnostic::error(
                        Code::LimitExceeded,
                        format!("{what} is longer than {MAX_TEXT_CHARS} characters"),
                    )
                    .with_primary(
                        Origin::new(origin.file, origin.start..origin.start + 1),
                        "this text starts here",
                    )
                    .with_help("shorten it: a text on the sheet is at most a paragraph"),
                );
                None
            }
            KdlValue::String(s) => Some(s.clone()),
            other => {
                self.invalid(entry, format!("{what} must be a string, found `{other}`"));
                None
            }
        }
    }

    fn number(&mut self, entry: &KdlEntry, what: &str, min: i128, max: i128) -> Option<u32> {
        match entry.value().as_integer() {
            Some(n) if (min..=max).contains(&n) => Some(n as u32),
            Some(n) => {
                self.invalid(
                    entry,
                    format!("{what} must be between {min} and {max}, found {n}"),
                );
                None
            }
            None => {
                self.invalid(
                    entry,
                    format!("{what} must be a whole number, found `{}`", entry.value()),
                );
                None
            }
        }
    }

    fn invalid(&mut self, entry: &KdlEntry, message: String) {
        let origin = self.value_origin(entry);
        self.diagnostics
            .push(Diagnostic::error(Code::InvalidValue, message).with_primary(origin, "here"));
    }

    /// The span of an entry's value (after `name=`).
    fn value_origin(&self, entry: &KdlEntry) -> Origin {
        Origin::new(self.file, kdl_slips::value_range(self.text, entry))
    }

    /// The span of `part` inside a string entry, when it appears verbatim in the source.
    fn part_origin(&self, entry: &KdlEntry, part_offset: usize, part_len: usize) -> Origin {
        let value = self.value_origin(entry);
        let raw = &self.text[value.range()];
        let inner_start = if raw.starts_with('"') { 1 } else { 0 };
        let full = entry.value().as_string().unwrap_or_default();
        let inner = raw.get(inner_start..inner_start + full.len());
        if inner == Some(full) {
            let start = value.start + inner_start + part_offset;
            Origin::new(self.file, start..start + part_len)
        } else {
            value
        }
    }

    fn sheet(&mut self, node: &KdlNode) {
        let (_, props) = self.entries(node, 0, SHEET_PROPS);
        if let Some(e) = Self::prop(&props, "title") {
            self.guide.title = self.string(e, "title").unwrap_or_default();
        }
        if let Some(e) = Self::prop(&props, "columns") {
            self.guide.columns = self.number(e, "columns", 1, 12).unwrap_or(1);
        }
        self.no_children(node);
    }

    fn no_children(&mut self, node: &KdlNode) {
        if let Some(children) = node.children()
            && let Some(child) = children.nodes().first()
        {
            let origin = self.node_origin(child);
            self.diagnostics.push(
                Diagnostic::error(
                    Code::UnknownNode,
                    format!("`{}` takes no children", node.name().value()),
                )
                .with_primary(origin, "not expected here"),
            );
        }
    }

    /// A node's id argument, as written: ids are held to the id rule when the names are
    /// reported, with every place that names them.
    fn id_arg(&mut self, positional: &[&KdlEntry]) -> Option<(String, Origin)> {
        let entry = positional.first()?;
        let origin = self.value_origin(entry);
        let id = self.string(entry, "an id")?;
        Some((id, origin))
    }

    fn section(&mut self, node: &KdlNode) {
        let (positional, props) = self.entries(node, 1, SECTION_PROPS);
        let origin = self.node_origin(node);
        let section_id = SectionId(self.guide.sections.len() as u32);
        let id = match self.id_arg(&positional) {
            Some((id, id_origin)) => {
                if let Err(d) = self.sections.define_written(&id, section_id, id_origin) {
                    self.diagnostics.push(d);
                }
                id
            }
            None => {
                if positional.is_empty() {
                    self.missing_id(node, origin);
                }
                format!("section-{}", section_id.0 + 1)
            }
        };
        let title = Self::prop(&props, "title")
            .and_then(|e| self.string(e, "title"))
            .unwrap_or_else(|| id.clone());
        let mut placement = Placement {
            column: 1,
            row: section_id.0 + 1,
            width: 1,
            height: 1,
            auto: Self::prop(&props, "column").is_none() && Self::prop(&props, "row").is_none(),
            width_given: Self::prop(&props, "width").is_some(),
        };
        for (key, slot) in [
            ("column", &mut placement.column),
            ("row", &mut placement.row),
            ("width", &mut placement.width),
            ("height", &mut placement.height),
        ] {
            if let Some(e) = Self::prop(&props, key)
                && let Some(n) = self.number(e, key, 1, 1000)
            {
                *slot = n;
            }
        }
        let inherited = Inherited {
            fill: Self::prop(&props, "fill").and_then(|e| self.fill(e)),
            fill_written: Self::prop(&props, "fill").is_some(),
        };
        self.guide.sections.push(Section {
            id: id.clone(),
            title,
            texts: Vec::new(),
            placement,
            tracks: Vec::new(),
            origin,
        });
        let mut loose = 0;
        let mut skipped = false;
        if let Some(children) = node.children() {
            for child in children.nodes() {
                match child.name().value() {
                    "track" => self.track(child, section_id, &id, &inherited),
                    "box" => {
                        loose += 1;
                        self.loose_box(child, section_id, &id, loose, &inherited);
                    }
                    "text" => {
                        let (positional, _) = self.entries(child, 1, &[]);
                        if let Some(text) = positional.first().and_then(|e| self.string(e, "text"))
                        {
                            self.guide.sections[section_id.index()].texts.push(text);
                        }
                    }
                    other => {
                        skipped = true;
                        self.unknown_node(child, other, &["track", "box", "text"]);
                    }
                }
            }
        }
        if self.guide.sections[section_id.index()].tracks.is_empty() && !skipped {
            self.diagnostics.push(
                Diagnostic::error(Code::EmptyGroup, format!("section `{id}` has no boxes"))
                    .with_primary(origin, "this section is empty")
                    .with_help("add a `track` with boxes, or a `box`, or remove the section"),
            );
        }
    }

    fn missing_id(&mut self, node: &KdlNode, origin: Origin) {
        self.diagnostics.push(
            Diagnostic::error(
                Code::InvalidValue,
                format!("`{}` needs an id", node.name().value()),
            )
            .with_primary(origin, "no id given")
            .with_help(format!("write `{} \"some-id\" ...`", node.name().value())),
        );
    }

    /// Adds a track (its `boxes` still empty), defining its id where `id_origin` says (an id
    /// the content writes) or at the track.
    fn new_track(&mut self, track: Track, id_origin: Option<Origin>) -> TrackId {
        let track_id = TrackId(self.guide.tracks.len() as u32);
        let defined = match id_origin {
            Some(at) => self.tracks.define_written(&track.id, track_id, at),
            None => self.tracks.define(&track.id, track_id, track.origin),
        };
        if let Err(d) = defined {
            self.diagnostics.push(d);
        }
        self.guide.sections[track.section.index()]
            .tracks
            .push(track_id);
        self.guide.tracks.push(track);
        track_id
    }

    fn track(&mut self, node: &KdlNode, section: SectionId, section_id: &str, up: &Inherited) {
        let (positional, props) = self.entries(node, 1, TRACK_PROPS);
        let origin = self.node_origin(node);
        let (id, id_origin) = match self.id_arg(&positional) {
            Some((id, o)) => (id, Some(o)),
            None => {
                if positional.is_empty() {
                    self.missing_id(node, origin);
                }
                (
                    format!("{section_id}-track-{}", self.guide.tracks.len() + 1),
                    None,
                )
            }
        };
        let title = Self::prop(&props, "title").and_then(|e| self.string(e, "title"));
        let flow = match Self::prop(&props, "flow") {
            Some(e) => match self.string(e, "flow").as_deref() {
                Some("row") | None => Flow::Row,
                Some("column") => Flow::Column,
                Some(other) => {
                    let message = format!("flow must be `row` or `column`, found `{other}`");
                    self.invalid(e, message);
                    Flow::Row
                }
            },
            None => Flow::Row,
        };
        let inherited = match Self::prop(&props, "fill") {
            Some(e) => Inherited {
                fill: self.fill(e),
                fill_written: true,
            },
            None => up.clone(),
        };
        let track = Track {
            id: id.clone(),
            title,
            section,
            flow,
            loose: false,
            boxes: Vec::new(),
            origin,
        };
        let track = self.new_track(track, id_origin);
        let mut skipped = false;
        if let Some(children) = node.children() {
            for child in children.nodes() {
                match child.name().value() {
                    "box" => {
                        let prefix = format!("{section_id}.{id}");
                        self.boxes(child, section, track, &prefix, &inherited);
                    }
                    other => {
                        skipped = true;
                        self.unknown_node(child, other, &["box"]);
                    }
                }
            }
        }
        if self.guide.tracks[track.index()].boxes.is_empty() && !skipped {
            self.diagnostics.push(
                Diagnostic::error(Code::EmptyGroup, format!("track `{id}` has no boxes"))
                    .with_primary(origin, "this track is empty")
                    .with_help("add `box` nodes inside its braces, or remove the track"),
            );
        }
    }

    fn loose_box(
        &mut self,
        node: &KdlNode,
        section: SectionId,
        section_id: &str,
        n: usize,
        up: &Inherited,
    ) {
        let origin = self.node_origin(node);
        let explicit = node
            .entries()
            .first()
            .filter(|e| e.name().is_none())
            .and_then(|e| e.value().as_string())
            .map(str::to_string);
        let id = explicit.unwrap_or_else(|| format!("{section_id}#{n}"));
        let track = Track {
            id,
            title: None,
            section,
            flow: Flow::Row,
            loose: true,
            boxes: Vec::new(),
            origin,
        };
        let track = self.new_track(track, None);
        self.boxes(node, section, track, section_id, up);
    }

    /// Reads a `box` node (which may stand for several boxes with `repeat`).
    fn boxes(
        &mut self,
        node: &KdlNode,
        section: SectionId,
        track: TrackId,
        prefix: &str,
        up: &Inherited,
    ) {
        let (positional, props) = self.entries(node, 1, BOX_PROPS);
        let origin = self.node_origin(node);
        self.no_children(node);
        let explicit_id = self.id_arg(&positional);
        let repeat = match Self::prop(&props, "repeat") {
            Some(e) => self.number(e, "repeat", 1, 1000).unwrap_or(1),
            None => 1,
        };
        if repeat > 1
            && let Some((_, id_origin)) = &explicit_id
        {
            self.diagnostics.push(
                Diagnostic::error(Code::InvalidValue, "a repeated box cannot have an id")
                    .with_primary(*id_origin, "each of the repeated boxes would share this id")
                    .with_help("remove the id (boxes are then numbered) or the `repeat`"),
            );
        }
        let shape = self
            .named(&props, "shape", Shape::NAMES)
            .unwrap_or(Shape::Square);
        let style = self
            .named(&props, "style", Style::NAMES)
            .unwrap_or(Style::Plain);
        let vp = Self::prop(&props, "vp")
            .and_then(|e| self.number(e, "vp", 0, MAX_VP as i128))
            .unwrap_or(0);
        let label = Self::prop(&props, "label").and_then(|e| self.string(e, "label"));
        let own_fill = Self::prop(&props, "fill");
        let fill = match own_fill {
            Some(e) => self.fill(e),
            // A dotted box is filled any time its track allows, whatever its track says.
            None if style == Style::Free => None,
            None => up.fill.clone(),
        };
        let needs = Self::prop(&props, "needs").and_then(|e| self.terms(e));
        let gives = Self::prop(&props, "gives").and_then(|e| self.terms(e));
        let fill_origin = Self::prop(&props, "fill").map_or(origin, |e| self.value_origin(e));
        let fill_written = match (own_fill, up.fill_written) {
            (Some(_), _) => FillWritten::OnTheBox,
            (None, true) => FillWritten::Above,
            (None, false) => FillWritten::Nowhere,
        };
        for _ in 0..repeat {
            if self.guide.boxes.len() >= MAX_BOXES {
                if !self.boxes_over_limit {
                    self.boxes_over_limit = true;
                    self.diagnostics.push(
                        Diagnostic::error(
                            Code::LimitExceeded,
                            format!("{} has more than {MAX_BOXES} boxes", self.dialect.what),
                        )
                        .with_primary(origin, "the sheet passes the limit here")
                        .with_help("boxes past the limit are not read"),
                    );
                }
                break;
            }
            let box_id = BoxId(self.guide.boxes.len() as u32);
            let index = self.guide.tracks[track.index()].boxes.len();
            let id = match (&explicit_id, repeat) {
                (Some((id, _)), 1) => id.clone(),
                _ if self.guide.tracks[track.index()].loose => {
                    let track_id = &self.guide.tracks[track.index()].id;
                    match repeat {
                        1 => track_id.clone(),
                        _ => format!("{track_id}#{}", index + 1),
                    }
                }
                _ => format!("{prefix}#{}", index + 1),
            };
            let defined = match (&explicit_id, repeat) {
                (Some((_, at)), 1) => self.boxes.define_written(&id, box_id, *at),
                (Some((_, at)), _) => self.boxes.define(&id, box_id, *at),
                (None, _) => self.boxes.define(&id, box_id, origin),
            };
            if let Err(d) = defined {
                self.diagnostics.push(d);
            }
            self.guide.boxes.push(BoxDef {
                id,
                section,
                track,
                index,
                shape,
                style,
                vp,
                label: label.clone(),
                origin,
                terms: WrittenTerms {
                    fill: fill.clone(),
                    fill_at: fill_origin,
                    fill_written,
                    needs: needs.clone().unwrap_or_default(),
                    gives: gives.clone().unwrap_or_default(),
                },
            });
            self.guide.tracks[track.index()].boxes.push(box_id);
        }
    }

    fn named<T: Copy>(
        &mut self,
        props: &[(&str, &KdlEntry)],
        key: &str,
        names: &[(&str, T)],
    ) -> Option<T> {
        let entry = Self::prop(props, key)?;
        let value = self.string(entry, key)?;
        match names.iter().find(|(n, _)| *n == value) {
            Some((_, v)) => Some(*v),
            None => {
                let origin = self.value_origin(entry);
                let known: Vec<&str> = names.iter().map(|(n, _)| *n).collect();
                self.diagnostics.push(
                    Diagnostic::error(Code::InvalidValue, format!("unknown {key} `{value}`"))
                        .with_primary(origin, format!("expected one of: {}", known.join(", ")))
                        .with_suggestion(similar_name(&value, known.iter().copied())),
                );
                None
            }
        }
    }

    /// Reads a `fill`: exactly one term.
    fn fill(&mut self, entry: &KdlEntry) -> Option<Term> {
        let mut terms = self.terms(entry)?;
        if let Some(extra) = terms.get(1) {
            self.diagnostics.push(
                Diagnostic::error(Code::InvalidValue, "a box has one `fill`")
                    .with_primary(extra.origin, "a second fill")
                    .with_help(self.dialect.one_fill_help),
            );
        }
        terms.truncate(1);
        terms.pop()
    }

    /// Splits `kind:name/name, kind:name` into terms, each name with its own span.
    fn terms(&mut self, entry: &KdlEntry) -> Option<Vec<Term>> {
        let text = self.string(entry, entry.name().map_or("value", |n| n.value()))?;
        let mut terms = Vec::new();
        let mut offset = 0;
        for part in text.split(',') {
            let part_start = offset + (part.len() - part.trim_start().len());
            offset += part.len() + 1;
            let part = part.trim();
            if part.is_empty() {
                continue;
            }
            let origin = self.part_origin(entry, part_start, part.len());
            let (kind, rest, rest_start) = match part.split_once(':') {
                Some((kind, rest)) => (kind.trim(), rest, part_start + kind.len() + 1),
                None => (part, "", part_start + part.len()),
            };
            let mut names = Vec::new();
            let mut name_offset = rest_start;
            for name in rest.split('/') {
                let start = name_offset + (name.len() - name.trim_start().len());
                name_offset += name.len() + 1;
                let name = name.trim();
                if !name.is_empty() {
                    names.push(Located::new(
                        name.to_string(),
                        self.part_origin(entry, start, name.len()),
                    ));
                }
            }
            terms.push(Term {
                kind: Located::new(
                    kind.to_string(),
                    self.part_origin(entry, part_start, kind.len()),
                ),
                names,
                origin,
                written: part.to_string(),
            });
        }
        if terms.is_empty() {
            let origin = self.value_origin(entry);
            let what = entry.name().map_or("value", |n| n.value()).to_string();
            self.diagnostics.push(
                Diagnostic::error(Code::InvalidValue, format!("`{what}` is empty"))
                    .with_primary(origin, "nothing here")
                    .with_help(format!("give `{what}` a value, or leave the property out")),
            );
            return None;
        }
        Some(terms)
    }
}
