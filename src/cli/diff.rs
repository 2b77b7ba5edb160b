//! `safari diff OLD NEW`: what changed between two versions of a game, in content,
//! reachability and balance: a summary on the terminal (`--full` for everything, `--format
//! json` for tools), and the whole diff as an HTML page in `<out>/<game>/diff/report.html`.

use std::path::PathBuf;

use super::check::Format;
use super::{Ui, exit};
use crate::rules::safari_zone::Analysis;
use crate::rules::safari_zone::diff::{self, Diff, Version};
use crate::rules::safari_zone::engine;
use crate::rules::safari_zone::ruleset::{self, Ruleset};
use crate::rules::safari_zone::sim;

#[derive(clap::Args)]
pub struct Args {
    /// The earlier version's game folder.
    old: PathBuf,
    /// The later version's game folder.
    new: PathBuf,

    /// Games to simulate for each version (0: skip the balance comparison).
    #[arg(long, default_value_t = sim::DEFAULT_GAMES)]
    games: u64,

    /// Players per simulated game.
    #[arg(long, default_value_t = 1)]
    players: usize,

    /// The policy both versions are played with (random, greedy, expected, planner, search).
    #[arg(long, default_value = sim::DEFAULT_POLICY)]
    policy: String,

    /// Seed of both simulations.
    #[arg(long, default_value_t = 1)]
    seed: u64,

    /// How to print the diff.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,

    /// Print every change and every shift, not only the summary's first screen.
    #[arg(long)]
    full: bool,

    /// Where the HTML report goes (`<out>/<game>/diff/report.html`) (default: out at the game's project: above content/ for a game in content/<game>/, else in the game folder; a link there is followed only when named with --out).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,

    /// Play a variant the game's rules offer (a game made of components; repeat for more).
    #[arg(long = "variant", value_name = "NAME")]
    variants: Vec<String>,
}

/// Where the report goes: with the newer version (the game `out/` of its project), kept clear
/// of both versions' game folders.
fn output_root(args: &Args) -> crate::output::OutputRoot {
    crate::output::OutputRoot::named_or_default(args.out.as_deref(), Some(&args.new))
        .keeping_clear_of(&args.old)
        .keeping_clear_of(&args.new)
}

struct Loaded {
    label: String,
    ruleset: Ruleset,
    diagnostics: Vec<crate::diag::Diagnostic>,
    unreachable: std::collections::BTreeSet<String>,
    files: Vec<diff::GameFile>,
}

fn load(dir: &std::path::Path, ui: Ui) -> Result<Loaded, u8> {
    let (folder, checked) = super::check::checked(Some(dir), ui)?;
    let Some(game) = checked.game else {
        return Err(super::sim::no_engine(&checked));
    };
    let analysis = Analysis::of(&game);
    let unreachable = analysis
        .unreachable_boxes(&game)
        .into_iter()
        .map(|b| game.guide.get(b).id.clone())
        .collect();
    Ok(Loaded {
        label: dir.display().to_string(),
        ruleset: ruleset::build(&game, &ruleset::content_hash(&folder)),
        diagnostics: checked.diagnostics.into_vec(),
        unreachable,
        files: diff::files_of(&folder, &game),
    })
}

fn version(l: &Loaded) -> Version<'_> {
    Version {
        label: l.label.clone(),
        ruleset: &l.ruleset,
        diagnostics: &l.diagnostics,
        unreachable: l.unreachable.clone(),
        files: l.files.clone(),
    }
}

/// Two versions of a game made of components are compared by play alone.
fn family_diff(args: &Args, ui: Ui) -> Option<u8> {
    let ruleset = |dir: &std::path::Path| -> Result<Option<Vec<u8>>, u8> {
        let (_, checked) = super::check::checked(Some(dir), ui)?;
        if checked.diagnostics.has_errors() {
            return Ok(None);
        }
        match super::family::ruleset_of(&checked) {
            None => Ok(None),
            Some(Ok(bytes)) => Ok(Some(bytes)),
            Some(Err(message)) => {
                super::error(&message);
                Err(exit::FAILURE)
            }
        }
    };
    let (old, new) = match (ruleset(&args.old), ruleset(&args.new)) {
        (Ok(Some(old)), Ok(Some(new))) => (old, new),
        (Err(code), _) | (_, Err(code)) => return Some(code),
        _ => return None,
    };
    let policies = [args.policy.clone()];
    let run = super::family::Run {
        games: args.games.max(1),
        players: (args.players > 1).then_some(args.players as u32),
        policies: (args.policy != sim::DEFAULT_POLICY).then_some(&policies[..]),
        seats: None,
        rotate: false,
        seed: args.seed,
        variants: &args.variants,
        out: output_root(args),
    };
    let label = |p: &std::path::Path| p.display().to_string();
    match super::family::diff(
        (&label(&args.old), &old),
        (&label(&args.new), &new),
        &run,
        matches!(args.format, Format::Json),
    ) {
        Ok(text) => {
            super::print_out(crate::diag::printable(&text));
            Some(exit::OK)
        }
        Err(message) => {
            super::error(&message);
            Some(exit::FAILURE)
        }
    }
}

pub fn run(args: Args, ui: Ui) -> u8 {
    // Where the report goes is held to the output seam's first rule before any game is played.
    if let Err(diagnostic) = output_root(&args).usable() {
        super::fault(diagnostic, ui);
        return exit::FAILURE;
    }
    if let Some(code) = family_diff(&args, ui) {
        return code;
    }
    if engine::policy::by_name(&args.policy).is_none() {
        super::error(format_args!(
            "unknown policy `{}`; known: {}",
            args.policy,
            engine::policy::NAMES.join(", ")
        ));
        return exit::FAILURE;
    }
    let (old, new) = match (load(&args.old, ui), load(&args.new, ui)) {
        (Ok(old), Ok(new)) => (old, new),
        (Err(code), _) | (_, Err(code)) => return code,
    };
    let (v_old, v_new) = (version(&old), version(&new));
    let has_errors = |l: &Loaded| l.diagnostics.iter().any(|d| d.is_error());
    let errors = has_errors(&old) || has_errors(&new);
    let reports = if args.games == 0 {
        None
    } else if errors {
        ui.info("balance not compared: a version has errors (see `safari check`)");
        None
    } else {
        let play = |r: &Ruleset| -> Result<sim::Report, String> {
            let bytes = serde_json::to_vec(r).map_err(|e| e.to_string())?;
            let rules = engine::load(&bytes).map_err(|e| e.to_string())?;
            Ok(sim::simulate(
                &rules,
                &args.policy,
                args.games,
                args.players.max(1),
                args.seed,
                &|_| {},
            ))
        };
        match (play(&old.ruleset), play(&new.ruleset)) {
            (Ok(a), Ok(b)) => Some((a, b)),
            (Err(e), _) | (_, Err(e)) => {
                super::error(format_args!("cannot simulate: {e}"));
                return exit::FAILURE;
            }
        }
    };
    let matching = diff::Matching::of(&old.ruleset, &new.ruleset);
    let result = Diff {
        old: v_old.label.clone(),
        new: v_new.label.clone(),
        content: diff::content(&v_old, &v_new, &matching),
        reachability: diff::verdicts(&v_old, &v_new, &matching),
        balance: reports
            .as_ref()
            .map(|(a, b)| diff::balance(a, b, &old.ruleset, &new.ruleset, &matching)),
    };
    match args.format {
        Format::Json => super::print_out(format!(
            "{}\n",
            serde_json::to_string_pretty(&result).expect("diffs serialise")
        )),
        Format::Human if args.full => {
            super::print_out(crate::diag::printable(&diff::text::full(&result)))
        }
        Format::Human => super::print_out(crate::diag::printable(&diff::text::summary(
            &result,
            diff::summary::FIRST_SCREEN_LINES,
        ))),
    }
    if errors {
        // Outputs are never written from content with errors (ARCHITECTURE.md).
        ui.info("no HTML report: a version has errors");
        return exit::OK;
    }
    let page = diff::page::page(
        &result,
        &new.ruleset.game.name,
        reports.as_ref().map(|(a, b)| (a, b)),
    );
    let files = [crate::backends::Output {
        path: "report.html".to_string(),
        bytes: page.into_bytes(),
    }];
    match output_root(&args).update(&new.ruleset.game.id, "diff", &files) {
        Ok(dir) => {
            ui.info(format!("wrote {}", dir.join("report.html").display()));
            exit::OK
        }
        Err(diagnostic) => {
            super::fault(diagnostic, ui);
            exit::FAILURE
        }
    }
}
