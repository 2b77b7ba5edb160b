//! Safari Zone RNW's build: the ruleset, the print documents and the Tabletop Simulator
//! export, from its model. The print backend typesets what this plans; the command layer
//! writes what it returns.

use super::model::Game;
use crate::backends::print::files::TemplateFiles;
use crate::backends::print::{ExportPlan, PrintOptions, TtsSettings, Typesetting};
use crate::backends::{BuildOptions, Built, Target};
use crate::diag::Diagnostic;
use crate::world::GameFolder;

use super::ruleset;

/// Everything a backend may read: the model and the sources behind it.
pub struct Context<'a> {
    pub game: &'a Game,
    pub folder: &'a GameFolder,
    /// The Field Guide as the check laid it out, when the build prints the sheet.
    pub layout: Option<&'a crate::layout::SheetLayout>,
}

/// Runs the backends `options` ask for, typesetting where `typesetting` says. Errors (a
/// template that does not compile, typesetting past its bounds) mean no file at all: a build
/// is whole or not written.
pub(crate) fn run_all(
    context: &Context,
    templates: &TemplateFiles,
    options: &BuildOptions,
    typesetting: &mut Typesetting,
) -> Result<Built, Vec<Diagnostic>> {
    let mut outputs = Vec::new();
    let mut warnings = Vec::new();
    let mut timings = Vec::new();
    if options.targets.contains(&Target::Ruleset) {
        outputs.push(ruleset::output(context));
    }
    let documents = options.documents();
    // The exports are made from the print documents (one design, several outputs), so they
    // are typeset with them.
    let tts = options.targets.contains(&Target::Tts);
    let playtest = options.targets.contains(&Target::Play);
    let export = (tts || playtest).then(|| {
        let ruleset = ruleset::build_laid_out(
            context.game,
            &ruleset::content_hash(context.folder),
            context.layout,
        );
        ExportPlan {
            rules: super::RULES.to_string(),
            ruleset_json: serde_json::to_string(&ruleset).expect("rulesets serialise"),
            tts: tts.then(|| TtsSettings {
                asset_base: options.asset_base.url(&context.game.manifest.id),
            }),
            playtest,
            last_sheet: options.last_sheet,
        }
    });
    if !documents.is_empty() || export.is_some() {
        let print_options = PrintOptions {
            documents,
            ..options.print.clone()
        };
        let printed = super::print::print(
            context.game,
            context.layout,
            templates,
            &print_options,
            export,
            typesetting,
        )?;
        outputs.extend(printed.outputs);
        warnings.extend(printed.warnings);
        timings = printed.timings;
    }
    outputs.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(Built {
        outputs,
        warnings,
        timings,
    })
}
