//! Typst as a library: one engine per build (fonts parsed once), documents compiled from the
//! templates with the game's data as `sys.inputs`, and Typst's diagnostics turned into ours.

use typst::WorldExt;
use typst::diag::{Severity as TypstSeverity, SourceDiagnostic};
use typst::foundations::Dict;
use typst_as_lib::TypstEngine;
use typst_layout::PagedDocument;

use super::files::{TemplateFiles, typst_id};
use crate::diag::{Code, Diagnostic};
use crate::world::Origin;

pub struct Typesetter<'a> {
    engine: TypstEngine,
    files: &'a TemplateFiles,
}

/// A typeset document and the warnings Typst gave on the way.
pub struct Typeset {
    pub document: PagedDocument,
    pub warnings: Vec<Diagnostic>,
}

impl<'a> Typesetter<'a> {
    pub fn new(files: &'a TemplateFiles) -> Typesetter<'a> {
        let engine = TypstEngine::builder()
            .fonts(
                crate::fonts::FILES
                    .iter()
                    .chain(crate::fonts::FALLBACK.iter())
                    .copied(),
            )
            .add_file_resolver(files.resolver())
            .build();
        Typesetter { engine, files }
    }

    /// Typesets `templates/<template>` with `inputs` as `sys.inputs`.
    pub fn typeset(&self, template: &str, inputs: Dict) -> Result<Typeset, Vec<Diagnostic>> {
        let main = typst_id(&format!("/templates/{template}"));
        let world = self
            .engine
            .world_builder(main)
            .with_inputs(inputs)
            .build()
            .map_err(|err| {
                vec![Diagnostic::error(
                    Code::TemplateError,
                    format!("cannot prepare `{template}`: {err}"),
                )]
            })?;
        let result = typst::compile::<PagedDocument>(&world);
        let convert = |d: &SourceDiagnostic| self.diagnostic(&world, template, d);
        let warnings: Vec<Diagnostic> = result.warnings.iter().map(convert).collect();
        match result.output {
            Ok(document) => Ok(Typeset { document, warnings }),
            Err(errors) => Err(errors.iter().map(convert).chain(warnings).collect()),
        }
    }

    fn diagnostic(
        &self,
        world: &impl typst::World,
        template: &str,
        source: &SourceDiagnostic,
    ) -> Diagnostic {
        let code = match source.severity {
            TypstSeverity::Error => Code::TemplateError,
            TypstSeverity::Warning => Code::TemplateWarning,
        };
        let text = format!("typesetting {template}: {}", source.message);
        let mut diagnostic = match source.severity {
            TypstSeverity::Error => Diagnostic::error(code, text),
            TypstSeverity::Warning => Diagnostic::warning(code, text),
        };
        if let Some(origin) = self.origin(world, source.span) {
            diagnostic = diagnostic.with_primary(origin, source.message.to_string());
        } else if let Some(id) = source.span.id() {
            diagnostic.message = format!(
                "{} (in {})",
                diagnostic.message,
                id.vpath().get_without_slash()
            );
        }
        for point in &source.trace {
            if let Some(origin) = self.origin(world, point.span) {
                diagnostic = diagnostic.with_secondary(origin, trace_words(&point.v));
            }
        }
        let mut help = Vec::new();
        for hint in &source.hints {
            match self.origin(world, hint.span) {
                Some(origin) => diagnostic = diagnostic.with_secondary(origin, hint.v.to_string()),
                None => help.push(hint.v.to_string()),
            }
        }
        if !help.is_empty() {
            diagnostic = diagnostic.with_help(help.join("\n"));
        }
        diagnostic
    }

    fn origin(
        &self,
        world: &impl typst::World,
        span: impl Into<typst::syntax::DiagSpan>,
    ) -> Option<Origin> {
        let span = span.into();
        let (_, file) = self.files.lookup(span.id()?)?;
        let range = world.range(span)?;
        Some(Origin::new(*file, range))
    }
}

fn trace_words(point: &typst::diag::Tracepoint) -> String {
    use typst::diag::Tracepoint;
    match point {
        Tracepoint::Call(Some(name)) => format!("in this call of `{name}`"),
        Tracepoint::Call(None) => "in this call".to_string(),
        Tracepoint::Show(name) => format!("in this show rule for `{name}`"),
        Tracepoint::Import(_) => "imported here".to_string(),
        Tracepoint::Include(_) => "included here".to_string(),
    }
}
