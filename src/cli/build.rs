//! `safari build`: check a game, then run the backends and write their files into
//! `out/<game>/`. Nothing is written when the check or a template finds errors; each file is
//! written atomically, so a failed build leaves the previous outputs whole.

use std::path::{Path, PathBuf};

use super::check::{Format, open_game, report};
use super::{Ui, exit};
use crate::backends::print::geometry::DeckLayout;
use crate::backends::{BuildOptions, Output, Target};
use crate::model::Paper;

#[derive(clap::Args)]
pub struct Args {
    /// The game folder (holding game.toml).
    #[arg(value_name = "GAME_DIR")]
    game: Option<PathBuf>,

    /// Where outputs go: a folder per game inside it.
    #[arg(long, default_value = "out")]
    out: PathBuf,

    /// Build only these outputs (comma-separated); everything when not given.
    #[arg(long, value_enum, value_delimiter = ',')]
    only: Vec<Target>,

    /// Paper for the print files, instead of the manifest's `[print] paper`.
    #[arg(long, value_enum)]
    paper: Option<PaperArg>,

    /// How card pages are laid out.
    #[arg(long, value_enum, default_value_t = DeckLayout::Duplex)]
    layout: DeckLayout,

    /// Move every card back page by X,Y millimetres (right, down) to correct a printer's
    /// duplex drift; the calibration page at the end of encounter-deck.pdf measures it.
    #[arg(long, value_name = "X,Y", value_parser = parse_offset, allow_hyphen_values = true)]
    back_offset: Option<(f64, f64)>,

    /// Also write a PNG of every card design at print resolution (preview/cards/).
    #[arg(long)]
    preview: bool,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum PaperArg {
    A4,
    Letter,
}

fn parse_offset(text: &str) -> Result<(f64, f64), String> {
    let parts: Vec<&str> = text.split(',').map(str::trim).collect();
    let [x, y] = parts.as_slice() else {
        return Err("expected two numbers of millimetres, X,Y (e.g. 0.5,-1)".to_string());
    };
    let number = |s: &str| {
        s.parse::<f64>()
            .ok()
            .filter(|n| n.is_finite() && n.abs() <= 20.0)
            .ok_or_else(|| format!("`{s}` is not an offset in millimetres between -20 and 20"))
    };
    Ok((number(x)?, number(y)?))
}

pub fn run(args: Args, ui: Ui) -> u8 {
    let started = std::time::Instant::now();
    let mut folder = match open_game(args.game.as_deref()) {
        Ok(folder) => folder,
        Err(code) => return code,
    };
    let mut options = BuildOptions::default();
    if !args.only.is_empty() {
        options.targets = args.only.clone();
    }
    options.print.paper = args.paper.map(|p| match p {
        PaperArg::A4 => Paper::A4,
        PaperArg::Letter => Paper::Letter,
    });
    options.print.layout = args.layout;
    options.print.back_offset = args.back_offset.unwrap_or((0.0, 0.0));
    options.print.card_previews = args.preview;
    let built = crate::build(&mut folder, &options);
    report(&folder, &built.checked.diagnostics, Format::Human, ui);
    for t in &built.timings {
        ui.detail(format!(
            "{}: Typst {:.1} ms, PDF {:.1} ms, previews {:.1} ms",
            t.document, t.typeset_ms, t.pdf_ms, t.previews_ms
        ));
    }
    ui.detail(format!(
        "built in {:.1} ms",
        started.elapsed().as_secs_f64() * 1e3
    ));
    let Some(game) = built.checked.game else {
        // Not a game at all (no readable manifest): a usage fault, as for `check`.
        return exit::FAILURE;
    };
    let Some(outputs) = built.outputs else {
        eprintln!("build stopped: fix the errors above; nothing was written");
        return exit::ERRORS;
    };
    let target = args.out.join(&game.manifest.id);
    match write_all(&target, &outputs).and_then(|()| remove_stale_previews(&target, &outputs)) {
        Ok(()) => {
            let written = outputs.iter().filter(|o| !o.path.contains('/')).count();
            for output in outputs.iter().filter(|o| !o.path.contains('/')) {
                ui.info(format!("wrote {}", target.join(&output.path).display()));
            }
            let previews = outputs.len() - written;
            if previews > 0 {
                ui.info(format!(
                    "wrote {previews} preview image(s) into {}",
                    target.join("preview").display()
                ));
            }
            exit::OK
        }
        Err(err) => {
            eprintln!("error: cannot write into {}: {err}", target.display());
            exit::FAILURE
        }
    }
}

pub fn write_all(target: &Path, outputs: &[Output]) -> std::io::Result<()> {
    for output in outputs {
        let path = target.join(&output.path);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        crate::write_atomically(&path, &output.bytes)?;
    }
    Ok(())
}

/// Removes preview images a previous build left that this one did not make again (a deck
/// that lost a page, a card design renamed), for the documents this build made.
pub fn remove_stale_previews(target: &Path, outputs: &[Output]) -> std::io::Result<()> {
    let made: std::collections::HashSet<&str> = outputs.iter().map(|o| o.path.as_str()).collect();
    // A preview's family: its path without the page number ("preview/dice-"), or its folder.
    let family = |path: &str| -> Option<String> {
        let rest = path.strip_prefix("preview/")?;
        Some(match rest.rsplit_once('/') {
            Some((folder, _)) => format!("preview/{folder}/"),
            None => format!(
                "preview/{}",
                rest.trim_end_matches(".png")
                    .trim_end_matches(|c: char| c.is_ascii_digit())
            ),
        })
    };
    let families: std::collections::HashSet<String> =
        outputs.iter().filter_map(|o| family(&o.path)).collect();
    let mut stack = vec![target.join("preview")];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            let Ok(relative) = path.strip_prefix(target) else {
                continue;
            };
            let relative = relative.to_string_lossy().replace('\\', "/");
            let stale = relative.ends_with(".png")
                && !made.contains(relative.as_str())
                && family(&relative).is_some_and(|f| families.contains(&f));
            if stale {
                std::fs::remove_file(&path)?;
            }
        }
    }
    Ok(())
}
