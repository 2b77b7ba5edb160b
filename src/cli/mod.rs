//! The command line: argument parsing and dispatch, one file per command (as mdBook does).
//! Commands are the only code that prints or writes files.

mod build;
mod check;
mod completions;
mod diff;
mod explain;
mod family;
mod fix;
mod init;
mod playtests;
mod schema;
mod sim;
mod typeset_worker;
mod values;
pub mod watch;

use std::io::IsTerminal;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

use crate::backends::print::ColorSpace;
use crate::diag::{RenderOptions, printable};

/// The default game, relative to the working directory.
pub const DEFAULT_GAME: &str = "content/safari-zone";

#[derive(Parser)]
#[command(
    name = "safari",
    version,
    about = "A compiler for tabletop game content: check, print and play roll-and-write games",
    after_help = "Examples:\n  safari check                      check the default game (content/safari-zone)\n  safari check my-game --format json\n  safari explain SZ0401             what an unreachable box is, and how to fix it"
)]
pub(crate) struct Cli {
    #[command(subcommand)]
    command: Command,

    // `build` and `watch` also take `rgb` and `cmyk`, the print files' colours (the terminal
    // coloured as by `auto`); their help says so, the other commands' does not offer them.
    /// When to colour output (NO_COLOR is honoured).
    #[arg(long, global = true, value_enum, default_value_t = Color::Auto)]
    color: Color,

    /// Print errors only: no warnings, summaries or progress.
    #[arg(long, short, global = true, conflicts_with = "verbose")]
    quiet: bool,

    /// Also print what each step did and how long it took.
    #[arg(long, short, global = true)]
    verbose: bool,
}

/// How commands talk to the person at the terminal.
#[derive(Debug, Clone, Copy)]
pub struct Ui {
    pub render: RenderOptions,
    pub quiet: bool,
    pub verbose: bool,
}

impl Ui {
    /// A line of ordinary progress (dropped with --quiet).
    pub fn info(&self, line: impl std::fmt::Display) {
        if !self.quiet {
            eprintln!("{}", printable(&line.to_string()));
        }
    }

    /// A line of detail (shown with --verbose).
    pub(crate) fn detail(&self, line: impl std::fmt::Display) {
        if self.verbose {
            eprintln!("{}", printable(&line.to_string()));
        }
    }
}

/// A progress bar of `total` games (`what`: "games", "bot games"), hidden with --quiet: the
/// count at once, the pace only once it means something (`words::pace`: measured from the
/// first game done, after a few games and a second of play), so that neither the setup nor
/// one slow first game makes the first estimate.
pub(crate) fn games_bar(total: u64, what: &str, ui: Ui) -> indicatif::ProgressBar {
    use std::sync::{Arc, Mutex};
    if ui.quiet {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(total);
    let first: Arc<Mutex<Option<(std::time::Instant, u64)>>> = Arc::default();
    let style = indicatif::ProgressStyle::with_template(&format!(
        "{{bar:40}} {{pos}}/{{len}} {what}{{pace}}"
    ))
    .expect("a valid template")
    .with_key(
        "pace",
        move |state: &indicatif::ProgressState, out: &mut dyn std::fmt::Write| {
            let pos = state.pos();
            if pos == 0 {
                return;
            }
            let mut first = first.lock().unwrap_or_else(|e| e.into_inner());
            let (at, done) = *first.get_or_insert((std::time::Instant::now(), pos));
            let left = state.len().unwrap_or(pos).saturating_sub(pos);
            if let Some(pace) = crate::words::pace(at.elapsed(), pos - done, left) {
                let _ = out.write_str(&format!(" ({pace})"));
            }
        },
    );
    bar.set_style(style);
    bar
}

#[derive(Clone, Copy, ValueEnum)]
enum Color {
    Auto,
    Always,
    Never,
    /// The print files' colours in RGB, as by default (`build`, `watch`; not offered by the
    /// other commands' help, where it means nothing).
    #[value(hide = true)]
    Rgb,
    /// The print files' colours in CMYK (`build`, `watch`).
    #[value(hide = true)]
    Cmyk,
}

#[derive(Subcommand)]
enum Command {
    /// Check a game's content and report every problem, writing nothing.
    #[command(
        after_help = "Examples:\n  safari check\n  safari check content/safari-zone --format json"
    )]
    Check(check::Args),
    /// Apply the fixes the check is sure of (single or curly quotes where straight double
    /// quotes belong, ids), printing each change.
    #[command(after_help = "Examples:\n  safari fix my-game --dry-run\n  safari fix my-game")]
    Fix(fix::Args),
    /// Build a game's outputs into out/<game>/ (checks first; writes nothing on errors).
    #[command(
        after_help = "Examples:\n  safari build\n  safari build content/safari-zone --out out --paper letter\n  safari build --only deck --preview\n  safari build --layout gutter-fold --back-offset 0.5,-1\n  safari build --color cmyk         the print files' colours as CMYK, for a print shop"
    )]
    Build(build::Args),
    /// Build, then rebuild what each save affects; the last good outputs stay on errors.
    #[command(
        after_help = "Examples:\n  safari watch\n  safari watch my-game --out out\n  safari watch --color cmyk         the print files' colours as CMYK"
    )]
    Watch(watch::Args),
    /// Explain a diagnostic code, with an example (all codes when none is given).
    #[command(after_help = "Examples:\n  safari explain SZ0402\n  safari explain")]
    Explain(explain::Args),
    /// Play many games and report how the game plays.
    #[command(
        after_help = "Examples:\n  safari sim --games 10000 --policy random,greedy\n  safari sim out/safari-zone/ruleset.json --players 3 --seed 7 --log game.jsonl"
    )]
    Sim(sim::Args),
    /// Compare two versions of a game: content, reachability and balance.
    #[command(
        after_help = "Examples:\n  safari diff content/safari-zone-v20240517 content/safari-zone\n  safari diff old-game new-game --games 0 --format json"
    )]
    Diff(diff::Args),
    /// Read a folder of playtest logs and report people's games beside the bots'.
    #[command(
        after_help = "Examples:\n  safari playtests playtest-logs/\n  safari playtests playtest-logs/ --bots planner,expected --games 5000 --seed 2"
    )]
    Playtests(playtests::Args),
    /// Start a new game folder from the built-in Safari Zone RNW.
    #[command(after_help = "Examples:\n  safari init my-safari\n  safari check my-safari")]
    Init(init::Args),
    /// Write the JSON Schemas of the content files into a folder.
    #[command(after_help = "Examples:\n  safari schema schema/")]
    Schema(schema::Args),
    /// Print a shell completion script.
    #[command(
        after_help = "Examples:\n  safari completions bash > ~/.local/share/bash-completion/completions/safari\n  safari completions zsh > ~/.zfunc/_safari"
    )]
    Completions(completions::Args),
    /// The bounded process `build` and `watch` typeset in (internal).
    #[command(name = "typeset-worker", hide = true)]
    TypesetWorker(typeset_worker::Args),
}

/// Writes a command's result to standard output. When the reader has gone away (`| head`),
/// the command ends quietly, as Unix tools do, rather than with a panic.
pub(crate) fn print_out(text: impl std::fmt::Display) {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    if let Err(err) = write!(stdout, "{text}").and_then(|()| stdout.flush()) {
        if err.kind() != std::io::ErrorKind::BrokenPipe {
            error(format_args!("cannot write the output: {err}"));
        }
        std::process::exit(exit::FAILURE.into());
    }
}

/// Prints `error: ` and `message` on standard error, every control and direction-changing
/// character in it shown as an escape ([`printable`]): messages repeat names, paths and
/// arguments, any of which may hold an escape sequence.
pub fn error(message: impl std::fmt::Display) {
    eprintln!("error: {}", printable(&message.to_string()));
}

/// Prints a diagnostic that points into no file (a fault of the output folder) as `check`
/// prints one: its code, message and help.
pub(crate) fn fault(diagnostic: crate::diag::Diagnostic, ui: Ui) {
    eprint!(
        "{}",
        crate::diag::render_human(
            &[diagnostic],
            &crate::world::GameFolder::in_memory(),
            ui.render
        )
    );
}

/// Exit codes: 0 clean (warnings allowed), 1 content errors, 2 usage or I/O failure.
/// The print documents rules modules write for `target`, for the output seam to tell their
/// files apart: any module's, so a game that changed its rules leaves no stale document of the
/// old ones.
fn documents(target: crate::backends::Target) -> Vec<&'static str> {
    crate::rules::documents(target).collect()
}

pub mod exit {
    pub(crate) const OK: u8 = 0;
    pub(crate) const ERRORS: u8 = 1;
    pub(crate) const FAILURE: u8 = 2;
}

pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => {
            let _ = err.print();
            return ExitCode::from(if err.use_stderr() {
                exit::FAILURE
            } else {
                exit::OK
            });
        }
    };
    let color = match cli.color {
        Color::Always => true,
        Color::Never => false,
        Color::Auto | Color::Rgb | Color::Cmyk => {
            std::env::var_os("NO_COLOR").is_none() && std::io::stderr().is_terminal()
        }
    };
    let color_space = match cli.color {
        Color::Cmyk => ColorSpace::Cmyk,
        _ => ColorSpace::Rgb,
    };
    if matches!(cli.color, Color::Rgb | Color::Cmyk)
        && !matches!(cli.command, Command::Build(_) | Command::Watch(_))
    {
        error(
            "`--color rgb` and `--color cmyk` choose the print files' colours: they are for `build` and `watch`",
        );
        return ExitCode::from(exit::FAILURE);
    }
    let ui = Ui {
        render: RenderOptions {
            width: terminal_width(),
            color,
        },
        quiet: cli.quiet,
        verbose: cli.verbose,
    };
    let code = match cli.command {
        Command::Check(args) => check::run(args, ui),
        Command::Fix(args) => fix::run(args, ui),
        Command::Build(args) => build::run(args, color_space, ui),
        Command::Watch(args) => watch::run(args, color_space, ui),
        Command::Explain(args) => explain::run(args),
        Command::Init(args) => init::run(args, ui),
        Command::Diff(args) => diff::run(args, ui),
        Command::Playtests(args) => playtests::run(args, ui),
        Command::Schema(args) => schema::run(args),
        Command::Sim(args) => sim::run(args, ui),
        Command::Completions(args) => completions::run::<Cli>(args),
        Command::TypesetWorker(args) => typeset_worker::run(args),
    };
    ExitCode::from(code)
}

fn terminal_width() -> usize {
    std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(100)
}
