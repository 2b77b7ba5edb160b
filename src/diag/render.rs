//! Turning diagnostics into text for people (miette's graphical report) and JSON for tools.

use std::fmt;

use miette::{GraphicalReportHandler, GraphicalTheme, LabeledSpan, NamedSource, SourceSpan};

use super::{Diagnostic, Label, Severity};
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

/// Renders diagnostics as miette graphical reports, followed by a summary line.
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
        .with_urls(false);
    let mut out = String::new();
    for diagnostic in diagnostics {
        let report = Report::new(diagnostic, folder);
        // Rendering into a String cannot fail.
        let _ = handler.render_report(&mut out, &report);
        out.push('\n');
    }
    out
}

/// A summary line: "2 errors, 1 warning" or "no problems".
pub fn summary(diagnostics: &[Diagnostic]) -> String {
    let errors = diagnostics.iter().filter(|d| d.is_error()).count();
    let warnings = diagnostics.len() - errors;
    let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
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
    source: Option<NamedSource<String>>,
    labels: Vec<LabeledSpan>,
    related: Vec<Report>,
}

impl Report {
    fn new(diagnostic: &Diagnostic, folder: &GameFolder) -> Report {
        let main_file = diagnostic
            .primary()
            .or(diagnostic.labels.first())
            .map(|l| l.origin.file);
        let mut files: Vec<FileId> = Vec::new();
        for label in &diagnostic.labels {
            if Some(label.origin.file) != main_file && !files.contains(&label.origin.file) {
                files.push(label.origin.file);
            }
        }
        let labels_in = |file: Option<FileId>| -> Vec<LabeledSpan> {
            diagnostic
                .labels
                .iter()
                .filter(|l| Some(l.origin.file) == file)
                .map(labeled_span)
                .collect()
        };
        let related = files
            .into_iter()
            .map(|file| Report {
                code: String::new(),
                message: format!("related, in {}", folder.source(file).name),
                severity: miette::Severity::Advice,
                help: None,
                source: Some(named_source(folder, file)),
                labels: labels_in(Some(file)),
                related: Vec::new(),
            })
            .collect();
        Report {
            code: diagnostic.code.to_string(),
            message: diagnostic.message.clone(),
            severity: match diagnostic.severity {
                Severity::Error => miette::Severity::Error,
                Severity::Warning => miette::Severity::Warning,
            },
            help: diagnostic.help.clone(),
            source: main_file.map(|file| named_source(folder, file)),
            labels: labels_in(main_file),
            related,
        }
    }
}

fn named_source(folder: &GameFolder, file: FileId) -> NamedSource<String> {
    let source = folder.source(file);
    NamedSource::new(source.name.clone(), source.text.clone())
}

fn labeled_span(label: &Label) -> LabeledSpan {
    let span = SourceSpan::new(
        label.origin.start.into(),
        label.origin.end - label.origin.start,
    );
    let text = (!label.message.is_empty()).then(|| label.message.clone());
    if label.primary {
        LabeledSpan::new_primary_with_span(text, span)
    } else {
        LabeledSpan::new_with_span(text, span)
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

/// Renders diagnostics as a JSON array, one object per diagnostic.
pub fn render_json(diagnostics: &[Diagnostic], folder: &GameFolder) -> String {
    let label = |l: &'_ Label| {
        let source = folder.source(l.origin.file);
        let (line, column) = source.line_column(l.origin.start);
        (source, line, column)
    };
    let items: Vec<JsonDiagnostic> = diagnostics
        .iter()
        .map(|d| {
            let primary = d.primary().map(|l| (label(l), l));
            JsonDiagnostic {
                code: d.code.as_str(),
                severity: d.severity,
                message: &d.message,
                file: primary.map(|((s, _, _), _)| s.name.as_str()),
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
                        let (source, line, column) = label(l);
                        JsonLabel {
                            file: &source.name,
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
                fixes: super::fix::to_json(&d.fixes, folder),
            }
        })
        .collect();
    serde_json::to_string_pretty(&items).expect("diagnostics serialise") + "\n"
}
