//! Diagnostics: the product of `safari check`.
//!
//! Modelled on typst's `SourceDiagnostic`: a plain value (code, severity, message, labels, help)
//! built by loaders and checks, and turned into text (miette's graphical report) or JSON only
//! at the edge. Keeping it plain makes it easy to sort, snapshot and serialise.

mod codes;
mod excerpt;
pub mod fix;
mod lines;
mod printable;
mod render;

pub use codes::Code;
pub use fix::{Applicability, Edit, Fix};
pub use lines::LineIndexes;
pub use printable::printable;
pub use render::{RenderOptions, render_human, render_json, summary};

use crate::world::Origin;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
}

/// A span of source with a note: the fault (primary) or one of its reasons (secondary).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Label {
    pub origin: Origin,
    pub message: String,
    pub primary: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    pub code: Code,
    pub severity: Severity,
    pub message: String,
    pub labels: Vec<Label>,
    pub help: Option<String>,
    /// The help as edits a tool can make, when it can be put that way.
    pub fixes: Vec<Fix>,
}

impl Diagnostic {
    pub fn error(code: Code, message: impl Into<String>) -> Self {
        Diagnostic {
            code,
            severity: Severity::Error,
            message: message.into(),
            labels: Vec::new(),
            help: None,
            fixes: Vec::new(),
        }
    }

    pub fn warning(code: Code, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(code, message)
        }
    }

    pub fn with_primary(mut self, origin: Origin, message: impl Into<String>) -> Self {
        self.labels.push(Label {
            origin,
            message: message.into(),
            primary: true,
        });
        self
    }

    pub fn with_secondary(mut self, origin: Origin, message: impl Into<String>) -> Self {
        self.labels.push(Label {
            origin,
            message: message.into(),
            primary: false,
        });
        self
    }

    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    pub fn with_fix(mut self, fix: Fix) -> Self {
        self.fixes.push(fix);
        self
    }

    /// Appends "a name with a similar spelling exists" help when one does.
    pub fn with_suggestion(self, suggestion: Option<&str>) -> Self {
        match suggestion {
            Some(name) => {
                self.with_help(format!("a name with a similar spelling exists: `{name}`"))
            }
            None => self,
        }
    }

    pub fn primary(&self) -> Option<&Label> {
        self.labels.iter().find(|l| l.primary)
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// The key diagnostics are sorted by: file, position, then code and message.
    fn sort_key(&self) -> (Option<(crate::world::FileId, usize, usize)>, Code, &str) {
        (
            self.primary()
                .map(|l| (l.origin.file, l.origin.start, l.origin.end)),
            self.code,
            &self.message,
        )
    }
}

/// Everything loading and checking found, in report order.
#[derive(Debug, Default, Clone)]
pub struct Diagnostics(Vec<Diagnostic>);

impl From<Diagnostic> for Diagnostics {
    fn from(diagnostic: Diagnostic) -> Self {
        Diagnostics(vec![diagnostic])
    }
}

impl Diagnostics {
    pub fn push(&mut self, diagnostic: Diagnostic) {
        self.0.push(diagnostic);
    }

    pub fn extend(&mut self, more: impl IntoIterator<Item = Diagnostic>) {
        self.0.extend(more);
    }

    pub fn has_errors(&self) -> bool {
        self.0.iter().any(Diagnostic::is_error)
    }

    /// Whether any diagnostic from index `start` on says content was lost in loading.
    pub fn lost_content_since(&self, start: usize) -> bool {
        self.0[start.min(self.0.len())..]
            .iter()
            .any(|d| d.is_error() && d.code.loses_content())
    }

    pub fn iter(&self) -> std::slice::Iter<'_, Diagnostic> {
        self.0.iter()
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Sorts by file and position, and drops exact duplicates.
    pub fn sort(&mut self) {
        self.0.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
        self.0.dedup();
    }

    pub fn into_vec(self) -> Vec<Diagnostic> {
        self.0
    }
}

impl IntoIterator for Diagnostics {
    type Item = Diagnostic;
    type IntoIter = std::vec::IntoIter<Diagnostic>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

/// The closest known name to an unknown one, for "did you mean" help.
pub fn similar_name<'a>(
    unknown: &str,
    known: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let unknown = unknown.to_lowercase();
    known
        .into_iter()
        .map(|name| {
            (
                strsim::normalized_damerau_levenshtein(&unknown, &name.to_lowercase()),
                name,
            )
        })
        .filter(|(score, _)| *score >= 0.6)
        .max_by(|a, b| a.0.total_cmp(&b.0).then_with(|| b.1.cmp(a.1)))
        .map(|(_, name)| name)
}
