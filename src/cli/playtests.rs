//! `safari playtests`: read a folder of the logs playtesters downloaded from the playtest pages
//! (Safari Zone RNW's and the family's), check each against its ruleset, and report people's
//! games beside the bots' on the same ruleset (docs/playtest-logs.md).

use std::path::PathBuf;

use super::{Ui, exit};
use crate::rules::playtests::{self, MAX_LOG_BYTES, Options, Reading, family};
use crate::rules::safari_zone::playtests as safari_zone;

#[derive(clap::Args)]
pub struct Args {
    /// A folder of game logs (every `*.json` in it and its subfolders), or one log.
    #[arg(value_name = "LOGS")]
    logs: PathBuf,

    /// The bots that play each ruleset of Safari Zone RNW the logs were played with,
    /// comma-separated; the first is the one whose boxes are compared with the people's
    /// [default: planner,greedy].
    #[arg(long, value_delimiter = ',')]
    bots: Option<Vec<String>>,

    /// The bots that play each ruleset of a game made of components the logs were played
    /// with, each in every seat of a table of its own, comma-separated (random, greedy,
    /// search, search:N) [default: greedy,random].
    #[arg(long, value_delimiter = ',', value_name = "BOTS")]
    family_bots: Option<Vec<String>>,

    /// Games each bot plays per ruleset (at most 1,000,000).
    #[arg(long, default_value_t = crate::rules::safari_zone::sim::DEFAULT_GAMES,
          value_parser = clap::value_parser!(u64).range(1..=crate::load::limits::MAX_GAMES))]
    games: u64,

    /// Games each bot of a game made of components plays per ruleset and table size (at most
    /// 1,000,000).
    #[arg(long, default_value_t = family::DEFAULT_GAMES,
          value_parser = clap::value_parser!(u64).range(1..=crate::load::limits::MAX_GAMES))]
    family_games: u64,

    /// Seed of the bots' games: the same logs and seed give the same report.
    #[arg(long, default_value_t = 1)]
    seed: u64,

    /// Where the report goes (`<out>/<game>/playtests/report.html` and `report.json`)
    /// (default: out in the working folder).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
}

pub fn run(args: Args, ui: Ui) -> u8 {
    let named_or = |named: &Option<Vec<String>>, default: &[&str]| {
        named
            .clone()
            .unwrap_or_else(|| default.iter().map(|b| b.to_string()).collect())
    };
    let bots = named_or(&args.bots, safari_zone::DEFAULT_BOTS);
    let family_bots = named_or(&args.family_bots, family::DEFAULT_BOTS);
    if let Err(message) = playtests::check_bots(&bots, &family_bots) {
        super::error(message);
        return exit::FAILURE;
    }
    let options = Options {
        bots,
        games: args.games,
        family_bots,
        family_games: args.family_games,
        seed: args.seed,
    };
    let root = crate::output::OutputRoot::named_or_default(args.out.as_deref(), None);
    // Where the report goes is held to the output seam's first rule before any bot plays.
    if let Err(diagnostic) = root.usable() {
        super::fault(diagnostic, ui);
        return exit::FAILURE;
    }
    let named = args.logs.display().to_string();
    let mut reading = Reading::new();
    if args.logs.is_file() {
        let name = args
            .logs
            .file_name()
            .map_or(named.clone(), |n| n.to_string_lossy().into_owned());
        match crate::world::read_regular_file(&args.logs, &name, MAX_LOG_BYTES) {
            Ok(bytes) => reading.read(&name, &bytes),
            Err(diagnostic) => reading.refuse(&name, diagnostic.message),
        }
    } else if let Err(code) = read_folder(&args, &mut reading, ui) {
        return code;
    }
    let read = reading.read_count();
    let total = reading.bot_games(&options);
    let bar = if total == 0 {
        indicatif::ProgressBar::hidden()
    } else {
        super::games_bar(total, "bot games", ui)
    };
    let report = reading.report(&named, &options, &|n| bar.inc(n));
    bar.finish_and_clear();
    super::print_out(crate::diag::printable(&playtests::render(&report)));
    if read == 0 {
        super::error(format_args!(
            "no game log in {named} could be read: each file's reason is above"
        ));
        return exit::ERRORS;
    }
    let games = report.game_ids();
    // Each game's folder gets the whole report: every ruleset read and every file not read.
    let files = [
        crate::backends::Output {
            path: "report.json".to_string(),
            bytes: serde_json::to_vec_pretty(&report).expect("reports serialise"),
        },
        crate::backends::Output {
            path: "report.html".to_string(),
            bytes: playtests::page(&report).into_bytes(),
        },
    ];
    for game in games {
        match root.update(game, "playtests", &files) {
            Ok(dir) => ui.info(format!(
                "wrote {}/ (report.html, report.json)",
                dir.display()
            )),
            Err(diagnostic) => {
                super::fault(diagnostic, ui);
                return exit::FAILURE;
            }
        }
    }
    exit::OK
}

/// Reads every `*.json` of the folder of logs into `reading`, one at a time; a file that
/// cannot be read is refused with why. Fails when the folder cannot be listed or holds no
/// JSON file.
fn read_folder(args: &Args, reading: &mut Reading, ui: Ui) -> Result<(), u8> {
    let named = args.logs.display().to_string();
    if !args.logs.is_dir() {
        super::error(format_args!(
            "`{named}` is neither a folder of game logs nor a log file"
        ));
        return Err(exit::FAILURE);
    }
    let folder = crate::world::GameFolder::open(&args.logs).map_err(|diagnostic| {
        super::error(format_args!("{named}: {}", diagnostic.message));
        exit::FAILURE
    })?;
    let files = folder.files().map_err(|diagnostic| {
        super::error(format_args!(
            "{named}: {}: split the logs into folders of fewer",
            diagnostic
                .message
                .replace("the game folder", "the folder of logs")
        ));
        exit::FAILURE
    })?;
    let (logs, others): (Vec<String>, Vec<String>) = files
        .into_iter()
        .partition(|f| f.to_ascii_lowercase().ends_with(".json"));
    if !others.is_empty() {
        ui.detail(format!(
            "{} file{} not ending in .json left aside",
            others.len(),
            if others.len() == 1 { "" } else { "s" }
        ));
    }
    if logs.is_empty() {
        super::error(format_args!(
            "`{named}` holds no `.json` file: the playtest page's Download log saves one per game"
        ));
        return Err(exit::FAILURE);
    }
    let reader = folder.reader();
    for file in &logs {
        let size = folder.size_of(file);
        if size > MAX_LOG_BYTES {
            reading.refuse(
                file,
                format!(
                    "{} bytes, more than the {} a log may have",
                    size,
                    crate::load::limits::bytes(MAX_LOG_BYTES)
                ),
            );
            continue;
        }
        match reader.read(file) {
            Ok(bytes) => reading.read(file, &bytes),
            Err(diagnostic) => reading.refuse(file, diagnostic.message),
        }
    }
    Ok(())
}
