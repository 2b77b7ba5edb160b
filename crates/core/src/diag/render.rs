//! Turning diagnostics into text for people (miette's graphical report) and JSON for tools.

use std::collections::BTreeMap;
use std::fmt::{self, Write};

use miette::{GraphicalReportHandler, GraphicalTheme, LabeledSpan};

use super::excerpt::Excerpt;
use super::lines::LineIndexes;
use super::printable::{needs_escape, printable};
use super::{Code, Diagnostic, Label, Severity};
use crate::world::{FileId, GameFolder};

#[derive(Debug, Clone, Copy)]
pub struct RenderOptions {
    pub width: usize,
    pub color: bool,
}

impl Default for RenderOptions {
    fn default() -> Self {
        RenderOptions {
            width: 100,
            color: false,
        }
    }
}

/// How many diagnostics of one code are rendered; the rest are counted in one line.
const SHOWN_PER_CODE: usize = 20;
/// How many labels of one diagnostic are rendered; the rest are counted in one line.
const SHOWN_LABELS: usize = 20;

/// Renders diagnostics as miette graphical reports: at most [`SHOWN_PER_CODE`] of each code,
/// then a line per code saying how many more there are. Each report shows only the lines its
/// labels point at (see [`Excerpt`]), and all content in it is made [`printable`], so the
/// output is bounded by the number of codes, whatever the input, and safe for a terminal.
pub fn render_human(
    diagnostics: &[Diagnostic],
    folder: &GameFolder,
    options: RenderOptions,
) -> String {
    let theme = if options.color {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    let handler = GraphicalReportHandler::new_themed(theme)
        .with_width(options.width)
        .with_links(false)
        .with_urls(false)
        .with_word_separator(textwrap::WordSeparator::Custom(words_outside_code))
        .with_word_splitter(textwrap::WordSplitter::NoHyphenation)
        .with_break_words(false);
    let mut indexes = LineIndexes::new(folder);
    let mut counts: BTreeMap<Code, usize> = BTreeMap::new();
    let mut out = String::new();
    for diagnostic in diagnostics {
        let count = counts.entry(diagnostic.code).or_default();
        *count += 1;
        if *count > SHOWN_PER_CODE {
            continue;
        }
        let mut report = Report::new(diagnostic, folder, &mut indexes, options.width);
        // Rendering into a String cannot fail. The excerpts of other files follow as reports
        // of their own: miette would head them with an empty "Advice:" line.
        let related = std::mem::take(&mut report.related);
        let _ = handler.render_report(&mut out, &report);
        for other in &related {
            out.push('\n');
            let _ = handler.render_report(&mut out, other);
        }
        if diagnostic.labels.len() > SHOWN_LABELS {
            let _ = writeln!(
                out,
                "  … and {} more places not shown (`--format json` lists them all)",
                diagnostic.labels.len() - SHOWN_LABELS
            );
        }
        out.push('\n');
    }
    for (code, count) in counts {
        if count > SHOWN_PER_CODE {
            let _ = writeln!(
                out,
                "… and {} more {code} not shown: {} (`--format json` lists them all)",
                count - SHOWN_PER_CODE,
                code.title()
            );
        }
    }
    out
}

/// A line split into words at its spaces, but for the spaces inside backticks: a line is
/// wrapped between words and never inside one, so an id (`safari-zone`) or a `code span` is
/// never broken across lines. A line with an odd number of backticks is split at every space.
fn words_outside_code(line: &str) -> Box<dyn Iterator<Item = textwrap::core::Word<'_>> + '_> {
    let balanced = line
        .bytes()
        .filter(|b| *b == b'`')
        .count()
        .is_multiple_of(2);
    let bytes = line.as_bytes();
    let mut words = Vec::new();
    let (mut start, mut i, mut in_code) = (0, 0, false);
    while i < bytes.len() {
        match bytes[i] {
            b'`' if balanced => in_code = !in_code,
            b' ' if !in_code => {
                // A word takes the spaces after it.
                let mut end = i;
                while end < bytes.len() && bytes[end] == b' ' {
                    end += 1;
                }
                words.push(textwrap::core::Word::from(&line[start..end]));
                (start, i) = (end, end);
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    if start < line.len() {
        words.push(textwrap::core::Word::from(&line[start..]));
    }
    Box::new(words.into_iter())
}

/// A summary line: "2 errors, 1 warning" or "no problems".
pub fn summary(diagnostics: &[Diagnostic]) -> String {
    let errors = diagnostics.iter().filter(|d| d.is_error()).count();
    let warnings = diagnostics.len() - errors;
    use crate::words::plural;
    match (errors, warnings) {
        (0, 0) => "no problems found".to_string(),
        (e, 0) => plural(e, "error"),
        (0, w) => plural(w, "warning"),
        (e, w) => format!("{}, {}", plural(e, "error"), plural(w, "warning")),
    }
}

/// One miette report: the labels in one file, with labels in other files as related reports.
struct Report {
    code: String,
    message: String,
    severity: miette::Severity,
    help: Option<String>,
    source: Option<Excerpt>,
    labels: Vec<LabeledSpan>,
    related: Vec<Report>,
}

impl Report {
    fn new(
        diagnostic: &Diagnostic,
        folder: &GameFolder,
        indexes: &mut LineIndexes,
        width: usize,
    ) -> Report {
        // The primary label first, then the others in order, up to the number shown.
        let shown: Vec<&Label> = diagnostic
            .labels
            .iter()
            .filter(|l| l.primary)
            .take(1)
            .chain(diagnostic.labels.iter().filter(|l| !l.primary))
            .chain(diagnostic.labels.iter().filter(|l| l.primary).skip(1))
            .take(SHOWN_LABELS)
            .collect();
        let main_file = shown.first().map(|l| l.origin.file);
        let mut files: Vec<FileId> = Vec::new();
        for label in &shown {
            if Some(label.origin.file) != main_file && !files.contains(&label.origin.file) {
                files.push(label.origin.file);
            }
        }
        let mut excerpt_of = |file: FileId| {
            let in_file: Vec<&Label> = shown
                .iter()
                .copied()
                .filter(|l| l.origin.file == file)
                .collect();
            Excerpt::new(
                &folder.source(file).name,
                indexes.get(file),
                &in_file,
                width,
            )
        };
        let related = files
            .into_iter()
            .map(|file| {
                let (source, labels) = excerpt_of(file);
                Report {
                    code: String::new(),
                    message: format!("related, in {}", printable(&folder.source(file).name)),
                    severity: miette::Severity::Advice,
                    help: None,
                    source: Some(source),
                    labels,
                    related: Vec::new(),
                }
            })
            .collect();
        let (source, labels) = match main_file.map(&mut excerpt_of) {
            Some((source, labels)) => (Some(source), labels),
            None => (None, Vec::new()),
        };
        Report {
            code: diagnostic.code.to_string(),
            message: printable(&diagnostic.message).into_owned(),
            severity: match diagnostic.severity {
                Severity::Error => miette::Severity::Error,
                Severity::Warning => miette::Severity::Warning,
            },
            help: diagnostic
                .help
                .as_deref()
                .map(|h| printable(h).into_owned()),
            source,
            labels,
            related,
        }
    }
}

impl fmt::Debug for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Report {}

impl miette::Diagnostic for Report {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        (!self.code.is_empty()).then(|| Box::new(&self.code) as Box<dyn fmt::Display>)
    }

    fn severity(&self) -> Option<miette::Severity> {
        Some(self.severity)
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        self.source.as_ref().map(|s| s as &dyn miette::SourceCode)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        (!self.labels.is_empty()).then(|| Box::new(self.labels.iter().cloned()) as Box<_>)
    }

    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn miette::Diagnostic> + 'a>> {
        (!self.related.is_empty())
            .then(|| Box::new(self.related.iter().map(|r| r as &dyn miette::Diagnostic)) as Box<_>)
    }
}

#[derive(serde::Serialize)]
struct JsonDiagnostic<'a> {
    code: &'a str,
    severity: Severity,
    message: &'a str,
    file: Option<&'a str>,
    line: Option<usize>,
    column: Option<usize>,
    span: Option<JsonSpan>,
    labels: Vec<JsonLabel<'a>>,
    help: Option<&'a str>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    fixes: Vec<super::fix::JsonFix<'a>>,
}

#[derive(serde::Serialize)]
struct JsonSpan {
    start: usize,
    end: usize,
}

#[derive(serde::Serialize)]
struct JsonLabel<'a> {
    file: &'a str,
    line: usize,
    column: usize,
    span: JsonSpan,
    message: &'a str,
    primary: bool,
}

/// Renders diagnostics as a JSON array, one object per diagnostic: all of them, in time
/// linear in their number and the size of the files they point into.
pub fn render_json(diagnostics: &[Diagnostic], folder: &GameFolder) -> String {
    let mut indexes = LineIndexes::new(folder);
    let position = |indexes: &mut LineIndexes, l: &Label| {
        let (line, column) = indexes.get(l.origin.file).line_column(l.origin.start);
        (
            folder.source(l.origin.file).name.as_str(),
            line + 1,
            column + 1,
        )
    };
    let items: Vec<JsonDiagnostic> = diagnostics
        .iter()
        .map(|d| {
            let primary = d.primary().map(|l| (position(&mut indexes, l), l));
            JsonDiagnostic {
                code: d.code.as_str(),
                severity: d.severity,
                message: &d.message,
                file: primary.map(|((name, _, _), _)| name),
                line: primary.map(|((_, line, _), _)| line),
                column: primary.map(|((_, _, column), _)| column),
                span: primary.map(|(_, l)| JsonSpan {
                    start: l.origin.start,
                    end: l.origin.end,
                }),
                labels: d
                    .labels
                    .iter()
                    .map(|l| {
                        let (file, line, column) = position(&mut indexes, l);
                        JsonLabel {
                            file,
                            line,
                            column,
                            span: JsonSpan {
                                start: l.origin.start,
                                end: l.origin.end,
                            },
                            message: &l.message,
                            primary: l.primary,
                        }
                    })
                    .collect(),
                help: d.help.as_deref(),
                fixes: super::fix::to_json(&d.fixes, folder, &mut indexes),
            }
        })
        .collect();
    let json = serde_json::to_string_pretty(&items).expect("diagnostics serialise");
    escape_controls(json) + "\n"
}

/// JSON with the characters [`printable`] escapes written as `\uXXXX`. serde_json escapes
/// only those below U+0020; the others (DEL, C1 controls, direction overrides) can only be in
/// strings, where an escape means the same character.
fn escape_controls(json: String) -> String {
    if !json.chars().any(needs_escape) {
        return json;
    }
    let mut out = String::with_capacity(json.len());
    for c in json.chars() {
        if needs_escape(c) {
            // Every such character is in the Basic Multilingual Plane: one escape each.
            let _ = write!(out, "\\u{:04x}", c as u32);
        } else {
            out.push(c);
        }
    }
    out
}
