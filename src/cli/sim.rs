//! `safari sim`: play many games of a game (or a ruleset.json) and report how it plays.

use std::path::PathBuf;

use super::{Ui, exit};
use crate::rules::safari_zone::engine::{self, Rules, policy};
use crate::rules::safari_zone::ruleset;
use crate::rules::safari_zone::sim;

#[derive(clap::Args)]
pub struct Args {
    /// A game folder, or a ruleset.json written by `safari build`.
    #[arg(value_name = "GAME_DIR | RULESET")]
    input: Option<PathBuf>,

    /// Games to play, per policy (at most 1,000,000).
    #[arg(long, default_value_t = sim::DEFAULT_GAMES,
          value_parser = clap::value_parser!(u64).range(1..=crate::load::limits::MAX_GAMES))]
    games: u64,

    /// Players per game, within the game's own range of players (default: one per seat of
    /// `--seats`, else 1).
    #[arg(long,
          value_parser = clap::value_parser!(u32).range(1..=crate::load::limits::MAX_PLAYERS as i64))]
    players: Option<u32>,

    /// Policies to compare, each playing every seat of its own table (random, greedy,
    /// expected, planner, search, target:BOX), comma-separated [default: planner, unless
    /// --seats is given].
    #[arg(long, value_delimiter = ',')]
    policy: Option<Vec<String>>,

    /// One table of mixed policies: one seat per policy, in turn order, comma-separated
    /// (`--seats greedy,expected,random`).
    #[arg(long, value_delimiter = ',')]
    seats: Option<Vec<String>>,

    /// Rotate seat order between games, so that the first player's advantage and the
    /// policies' skill can be told apart.
    #[arg(long)]
    rotate: bool,

    /// Also play to fill this box as early as possible, and report when it is filled
    /// ("how soon can Area 3 open?").
    #[arg(long, value_name = "BOX")]
    target: Option<String>,

    /// Seed of the run: the same seed gives the same report.
    #[arg(long, default_value_t = 1)]
    seed: u64,

    /// Where the report goes (`<out>/<game>/sim/report.json`) (default: out at the game's project: above content/ for a game in content/<game>/, else in the game folder; a link there is followed only when named with --out).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,

    /// Write the first game of the first policy as JSON lines, one event per line.
    #[arg(long, value_name = "FILE")]
    log: Option<PathBuf>,

    /// Play a variant the game's rules offer (`diagonal`, `swapping` in Gamewright's
    /// Safari); repeat for more than one.
    #[arg(long = "variant", value_name = "NAME")]
    variants: Vec<String>,
}

/// The rules a run plays: Safari Zone RNW's, or a ruleset of a game made of components.
enum Loaded {
    Zone(Box<Rules>),
    Family(Vec<u8>),
}

/// The tables a run plays: each `--policy` at its own table, the `--seats` table, the
/// `--target` table.
fn tables(args: &Args, rules: &Rules) -> Result<Vec<sim::Table>, String> {
    let seated = args.seats.as_ref().map(|s| s.len() as u32);
    let players = match (args.players, seated) {
        (Some(p), Some(s)) if p != s => {
            return Err(format!(
                "--players {p} does not match the {} of --seats",
                crate::words::plural(s, "seat")
            ));
        }
        (Some(p), _) => p,
        (None, Some(s)) => s,
        (None, None) => 1,
    };
    let (fewest, most) = rules.players;
    if !(fewest..=most).contains(&players) {
        return Err(format!(
            "{} is played by {fewest} to {most} players, not {players}",
            rules.name
        ));
    }
    let policies = match (&args.policy, &args.seats, &args.target) {
        (Some(list), _, _) => list.clone(),
        (None, Some(_), _) => Vec::new(),
        (None, None, _) => vec![sim::DEFAULT_POLICY.to_string()],
    };
    let mut tables: Vec<sim::Table> = policies
        .iter()
        .map(|p| sim::Table::same(p, players as usize))
        .collect();
    if let Some(seats) = &args.seats {
        tables.push(sim::Table {
            seats: seats.clone(),
            rotate: args.rotate,
        });
    } else if args.rotate {
        for table in &mut tables {
            table.rotate = true;
        }
    }
    if let Some(target) = &args.target {
        tables.push(sim::Table::same(
            &format!("target:{target}"),
            players as usize,
        ));
    }
    for name in tables.iter().flat_map(|t| &t.seats) {
        if policy::by_name(name).is_none() {
            return Err(format!(
                "unknown policy `{name}`; known: {}, target:BOX",
                policy::NAMES.join(", ")
            ));
        }
        if let Some(id) = name.strip_prefix("target:")
            && !rules.box_ids.iter().any(|b| b == id)
        {
            return Err(format!(
                "{} has no box `{id}`{}",
                rules.name,
                box_hint(id, &rules.box_ids)
            ));
        }
    }
    Ok(tables)
}

/// What to write for `id`, a box the ruleset does not have: the boxes of a section or track of
/// that name (`area-3` is a track: its boxes are `areas.area-3#1` …), a box whose id ends so
/// (`area-3#1`), else one spelt alike; or how to find them.
fn box_hint(id: &str, box_ids: &[String]) -> String {
    let named: Vec<&str> = box_ids
        .iter()
        .map(String::as_str)
        .filter(|b| b.ends_with(&format!(".{id}")) || b.split(['.', '#']).any(|part| part == id))
        .collect();
    match named.as_slice() {
        [] => match crate::diag::similar_name(id, box_ids.iter().map(String::as_str)) {
            Some(similar) => format!(" (did you mean `{similar}`?)"),
            None => " (a box id is `section.track#n`: `safari build` writes every id into \
                       ruleset.json, and the playtest page names each box)"
                .to_string(),
        },
        [one] => format!(" (did you mean `{one}`?)"),
        [first, .., last] => format!(
            " (`{id}` has {} boxes, `{first}` to `{last}`: a box id is `section.track#n`)",
            named.len()
        ),
    }
}

pub fn run(args: Args, ui: Ui) -> u8 {
    let mut game_folder = None;
    let loaded = load(args.input.as_deref(), &mut game_folder, ui);
    // Where the report goes is held to the output seam's first rule before any game is played.
    if loaded.is_ok()
        && let Err(diagnostic) = output_root(&args, game_folder.as_deref()).usable()
    {
        super::fault(diagnostic, ui);
        return exit::FAILURE;
    }
    let rules = match loaded {
        Ok(Loaded::Zone(rules)) => *rules,
        Ok(Loaded::Family(bytes)) => {
            if args.target.is_some() || args.log.is_some() {
                super::error(
                    "--target and --log are Safari Zone RNW's: a game made of components is simulated by its bots alone",
                );
                return exit::FAILURE;
            }
            let run = super::family::Run {
                games: args.games,
                players: args.players,
                policies: args.policy.as_deref(),
                seats: args.seats.as_deref(),
                rotate: args.rotate,
                seed: args.seed,
                variants: &args.variants,
                out: output_root(&args, game_folder.as_deref()),
            };
            return super::family::sim(&bytes, &run, ui);
        }
        Err(code) => return code,
    };
    if let Some(variant) = args.variants.first() {
        super::error(format_args!("{} has no variant `{variant}`", rules.name));
        return exit::FAILURE;
    }
    let tables = match tables(&args, &rules) {
        Ok(tables) => tables,
        Err(message) => {
            super::error(&message);
            return exit::FAILURE;
        }
    };
    if let Some(path) = &args.log {
        let table = &tables[0];
        let mut policies: Vec<policy::Builtin> = table
            .seats
            .iter()
            .map(|name| policy::by_name(name).expect("checked"))
            .collect();
        let mut game = engine::Game::new(&rules, table.seats.len(), sim::game_seed(args.seed, 0));
        game.log = Some(Vec::new());
        game.play(&mut policies);
        let lines: String = game
            .log
            .unwrap_or_default()
            .iter()
            .map(|e| serde_json::to_string(e).expect("events serialise") + "\n")
            .collect();
        if let Err(err) = crate::output::write_atomically(path, lines.as_bytes()) {
            super::error(&err.message);
            return exit::FAILURE;
        }
    }
    let total = args.games * tables.len() as u64;
    let bar = super::games_bar(total, "games", ui);
    let runs: Vec<sim::Report> = tables
        .iter()
        .map(|table| sim::play(&rules, table, args.games, args.seed, &|n| bar.inc(n)))
        .collect();
    bar.finish_and_clear();
    let report = sim::SimReport {
        game: rules.name.clone(),
        seed: args.seed,
        findings: sim::findings(&runs),
        runs,
    };
    super::print_out(crate::diag::printable(&sim::render(&report)));
    let mut files = vec![
        crate::backends::Output {
            path: "report.json".to_string(),
            bytes: serde_json::to_vec_pretty(&report).expect("reports serialise"),
        },
        crate::backends::Output {
            path: "report.html".to_string(),
            bytes: sim::page(&report).into_bytes(),
        },
    ];
    match sim::charts(&report.runs) {
        Ok(charts) => files.extend(
            charts
                .into_iter()
                .map(|(path, bytes)| crate::backends::Output { path, bytes }),
        ),
        Err(err) => {
            super::error(format_args!("cannot draw the charts: {err}"));
            return exit::FAILURE;
        }
    }
    let dir = match output_root(&args, game_folder.as_deref()).update(&rules.id, "sim", &files) {
        Ok(dir) => dir,
        Err(diagnostic) => {
            super::fault(diagnostic, ui);
            return exit::FAILURE;
        }
    };
    ui.info(format!(
        "wrote {}/ (report.html, report.json, charts as SVG and PNG)",
        dir.display()
    ));
    exit::OK
}

/// Where the report goes: kept clear of the game folder simulated, when it was one.
fn output_root(args: &Args, game: Option<&std::path::Path>) -> crate::output::OutputRoot {
    let root = crate::output::OutputRoot::named_or_default(args.out.as_deref(), game);
    match game {
        Some(game) => root.keeping_clear_of(game),
        None => root,
    }
}

/// The rules of a game folder (checked, then read back through its ruleset) or a ruleset file;
/// the game folder opened, if one was, goes into `game_folder`.
fn load(
    input: Option<&std::path::Path>,
    game_folder: &mut Option<PathBuf>,
    ui: Ui,
) -> Result<Loaded, u8> {
    let bytes = if let Some(input) = input.filter(|i| i.is_file()) {
        let bytes = crate::world::read_regular_file(
            input,
            &input.display().to_string(),
            crate::load::limits::MAX_RULESET_BYTES,
        )
        .map_err(|diagnostic| {
            super::error(&diagnostic.message);
            exit::FAILURE
        })?;
        if super::family::is_components_ruleset(&bytes) {
            return Ok(Loaded::Family(bytes));
        }
        bytes
    } else {
        let (folder, checked) = super::check::checked(input, ui)?;
        *game_folder = folder.on_disk().map(std::path::Path::to_path_buf);
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
        if let Some(ruleset) = super::family::ruleset_of(&checked) {
            return ruleset.map(Loaded::Family).map_err(|message| {
                super::error(&message);
                exit::FAILURE
            });
        }
        let Some(game) = checked.game else {
            return Err(no_engine(&checked));
        };
        let ruleset = ruleset::build(&game, &ruleset::content_hash(&folder));
        serde_json::to_vec(&ruleset).expect("rulesets serialise")
    };
    engine::load(&bytes)
        .map(|rules| Loaded::Zone(Box::new(rules)))
        .map_err(|err| {
            let name = input.map_or("the default game".to_string(), |i| i.display().to_string());
            super::error(format_args!("{name}: {err}"));
            exit::FAILURE
        })
}

/// The message for a game whose rules have no engine: only Safari Zone RNW's is played.
pub(crate) fn no_engine(checked: &crate::Checked) -> u8 {
    let Some(table) = checked.table.as_ref() else {
        // Neither model loaded: the manifest's faults say why.
        for diagnostic in checked.diagnostics.iter() {
            super::error(&diagnostic.message);
        }
        return exit::FAILURE;
    };
    super::error(super::family::no_engine_message(
        &table.manifest.rules.value,
    ));
    exit::FAILURE
}
