//! `safari sim`: play many games of a game (or a ruleset.json) and report how it plays.

use std::path::PathBuf;

use indicatif::{ProgressBar, ProgressStyle};

use super::{Ui, exit};
use crate::backends::ruleset;
use crate::engine::{self, Rules, policy};
use crate::sim;

#[derive(clap::Args)]
pub struct Args {
    /// A game folder, or a ruleset.json written by `safari build`.
    #[arg(value_name = "GAME_DIR | RULESET")]
    input: Option<PathBuf>,

    /// Games to play, per policy (at most 1,000,000).
    #[arg(long, default_value_t = sim::DEFAULT_GAMES,
          value_parser = clap::value_parser!(u64).range(1..=crate::load::limits::MAX_GAMES))]
    games: u64,

    /// Players per game, within the game's own range of players.
    #[arg(long, default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(1..=crate::load::limits::MAX_PLAYERS as i64))]
    players: u32,

    /// Policies to compare, by name (random, greedy, expected), comma-separated.
    #[arg(long, value_delimiter = ',', default_value = sim::DEFAULT_POLICY)]
    policy: Vec<String>,

    /// Seed of the run: the same seed gives the same report.
    #[arg(long, default_value_t = 1)]
    seed: u64,

    /// Where the report goes (`<out>/<game>/sim/report.json`).
    #[arg(long, default_value = "out")]
    out: PathBuf,

    /// Write the first game of the first policy as JSON lines, one event per line.
    #[arg(long, value_name = "FILE")]
    log: Option<PathBuf>,
}

pub fn run(args: Args, ui: Ui) -> u8 {
    for name in &args.policy {
        if policy::by_name(name).is_none() {
            eprintln!(
                "error: unknown policy `{name}`; known: {}",
                policy::NAMES.join(", ")
            );
            return exit::FAILURE;
        }
    }
    let rules = match load(args.input.as_deref(), ui) {
        Ok(rules) => rules,
        Err(code) => return code,
    };
    let (fewest, most) = rules.players;
    if !(fewest..=most).contains(&args.players) {
        eprintln!(
            "error: {} is played by {fewest} to {most} players, not {}",
            rules.name, args.players
        );
        return exit::FAILURE;
    }
    let players = args.players as usize;
    if let Some(path) = &args.log {
        let mut policies: Vec<policy::Builtin> = (0..players)
            .map(|_| policy::by_name(&args.policy[0]).expect("checked"))
            .collect();
        let mut game = engine::Game::new(&rules, players, sim::game_seed(args.seed, 0));
        game.log = Some(Vec::new());
        game.play(&mut policies);
        let lines: String = game
            .log
            .unwrap_or_default()
            .iter()
            .map(|e| serde_json::to_string(e).expect("events serialise") + "\n")
            .collect();
        if let Err(err) = crate::output::write_atomically(path, lines.as_bytes()) {
            eprintln!("error: {}", err.message);
            return exit::FAILURE;
        }
    }
    let total = args.games * args.policy.len() as u64;
    let bar = if ui.quiet {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(total)
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games ({per_sec}, {eta} left)")
            .expect("a valid template"),
    );
    let reports: Vec<sim::Report> = args
        .policy
        .iter()
        .map(|name| {
            sim::simulate(&rules, name, args.games, players, args.seed, &|n| {
                bar.inc(n)
            })
        })
        .collect();
    bar.finish_and_clear();
    super::print_out(crate::diag::printable(&sim::render(&reports)));
    let mut files = vec![crate::backends::Output {
        path: "report.json".to_string(),
        bytes: serde_json::to_vec_pretty(&reports).expect("reports serialise"),
    }];
    match sim::charts(&reports) {
        Ok(charts) => files.extend(
            charts
                .into_iter()
                .map(|(path, bytes)| crate::backends::Output { path, bytes }),
        ),
        Err(err) => {
            eprintln!("error: cannot draw the charts: {err}");
            return exit::FAILURE;
        }
    }
    let dir = match crate::output::OutputRoot::new(&args.out).update(&rules.id, "sim", &files) {
        Ok(dir) => dir,
        Err(diagnostic) => {
            eprintln!("error: {}", crate::diag::printable(&diagnostic.message));
            return exit::FAILURE;
        }
    };
    ui.info(format!(
        "wrote {}/ (report.json, charts as SVG and PNG)",
        dir.display()
    ));
    exit::OK
}

/// The rules of a game folder (checked, then read back through its ruleset) or a ruleset file.
fn load(input: Option<&std::path::Path>, ui: Ui) -> Result<Rules, u8> {
    let bytes = if let Some(input) = input.filter(|i| i.is_file()) {
        crate::world::read_regular_file(
            input,
            &input.display().to_string(),
            crate::load::limits::MAX_RULESET_BYTES,
        )
        .map_err(|diagnostic| {
            eprintln!("error: {}", crate::diag::printable(&diagnostic.message));
            exit::FAILURE
        })?
    } else {
        let (folder, checked) = super::check::checked(input)?;
        if checked.diagnostics.has_errors() {
            super::check::report(
                &folder,
                &checked.diagnostics,
                super::check::Format::Human,
                ui,
            );
            eprintln!("sim stopped: fix the errors above");
            return Err(exit::ERRORS);
        }
        let game = checked.game.expect("checked games have a model");
        let ruleset = ruleset::build(&game, &ruleset::content_hash(&folder));
        serde_json::to_vec(&ruleset).expect("rulesets serialise")
    };
    engine::load(&bytes).map_err(|err| {
        let name = input.map_or("the default game".to_string(), |i| i.display().to_string());
        eprintln!(
            "error: {}",
            crate::diag::printable(&format!("{name}: {err}"))
        );
        exit::FAILURE
    })
}
