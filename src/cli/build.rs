//! `safari build`: check a game, then run the backends and write their files into
//! `out/<game>/`. Nothing is written when the check or a template finds errors, and the
//! output folder is replaced whole or not at all (`output::OutputRoot::replace`).

use std::path::{Path, PathBuf};

use super::check::{Format, open_game, report};
use super::{Ui, exit};
use crate::backends::tts::{AssetBase, file_url};
use crate::backends::{BuildOptions, Output, Target};
use crate::model::Paper;
use crate::words::{plural, plural_of};

#[derive(clap::Args)]
pub struct Args {
    /// The game folder (holding game.toml).
    #[arg(value_name = "GAME_DIR")]
    game: Option<PathBuf>,

    /// Where outputs go: a folder per game inside it (default: out at the game's project: above content/ for a game in content/<game>/, else in the game folder; a link there is followed only when named with --out).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,

    /// Build only these outputs (comma-separated); everything when not given.
    #[arg(long, value_enum, value_delimiter = ',')]
    only: Vec<super::values::Only>,

    /// Paper for the print files, instead of the manifest's `[print] paper`: a5, a4, letter, a3,
    /// tabloid (any case), or WIDTHxHEIGHT in millimetres (300x420).
    #[arg(long, value_parser = Paper::parse)]
    paper: Option<Paper>,

    /// How card pages are laid out.
    #[arg(long, value_enum, default_value_t = super::values::Layout::Duplex)]
    layout: super::values::Layout,

    /// Move every card back page by X,Y millimetres (right, down) to correct a printer's
    /// duplex drift; the calibration page at the end of encounter-deck.pdf measures it.
    #[arg(long, value_name = "X,Y", value_parser = parse_offset, allow_hyphen_values = true)]
    back_offset: Option<(f64, f64)>,

    /// Also write a PNG of every card design at print resolution (preview/cards/).
    #[arg(long)]
    preview: bool,

    /// Also write a PNG per card face and one for the back at the size and bleed a
    /// print-on-demand service takes, with the copies of each (printer/<service>/):
    /// tgc (The Game Crafter, a poker card 825 x 1125 px) or mpc (MakePlayingCards,
    /// 822 x 1122 px).
    #[arg(long, value_enum, value_name = "SERVICE")]
    printer: Option<super::values::Service>,

    /// Tabletop Simulator: image URLs become URL/<file> (for images uploaded to a web host
    /// or the Steam Cloud). By default they are file:/// paths to out/<game>/tts/images.
    #[arg(long, value_name = "URL")]
    asset_base: Option<String>,

    /// Tabletop Simulator: also copy the saved object, its thumbnail and images into the
    /// game's Saves/Saved Objects folder.
    #[arg(long)]
    install: bool,

    /// Replace the outputs in out/<game>/ even when another game folder with the same id
    /// built them (SZ0802).
    #[arg(long)]
    replace: bool,

    /// Tabletop Simulator's data folder, for --install (found in the usual place by default).
    #[arg(long, value_name = "DIR", requires = "install")]
    tts_dir: Option<PathBuf>,

    #[command(flatten)]
    bounds: super::typeset_worker::BoundsArgs,

    /// Instead of building, write the print documents this build would typeset as Typst
    /// projects into out/<game>/typst/, for Typst alone to compile
    /// (benches/typst_side_by_side.sh).
    #[arg(long, hide = true)]
    emit_typst: bool,
}

/// When the only errors are sheets that do not fit their paper (SZ0309), the targets asked
/// for that do not lay the sheet out (the deck, the dice), as `--only` takes them. Asked for
/// everything (`all`), a Safari Zone RNW game has no tiles or board to offer.
fn without_the_sheet(checked: &crate::Checked, targets: &[Target], all: bool) -> Option<String> {
    let diagnostics = &checked.diagnostics;
    let errors = || diagnostics.iter().filter(|d| d.is_error());
    if errors().next().is_none() || errors().any(|d| d.code != crate::diag::Code::LayoutOverflow) {
        return None;
    }
    let others: Vec<&str> = targets
        .iter()
        .filter(|t| !t.lays_out_sheet())
        .filter(|t| !(all && checked.table.is_none() && matches!(t, Target::Tiles | Target::Board)))
        .map(|t| super::values::Only::name(*t))
        .collect();
    (!others.is_empty()).then(|| others.join(","))
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

pub fn run(args: Args, color_space: crate::backends::print::ColorSpace, ui: Ui) -> u8 {
    let started = std::time::Instant::now();
    let mut folder = match open_game(args.game.as_deref(), ui) {
        Ok(folder) => folder,
        Err(code) => return code,
    };
    let mut options = BuildOptions::default();
    if !args.only.is_empty() {
        options.targets = super::values::Only::targets(&args.only);
    }
    options.print.paper = args.paper;
    options.print.layout = args.layout.into();
    options.print.back_offset = args.back_offset.unwrap_or((0.0, 0.0));
    options.print.card_previews = args.preview;
    options.print.printer = args.printer.map(Into::into);
    options.print.color_space = color_space;
    options.asset_base = match &args.asset_base {
        Some(url) => {
            if let Some(fault) = crate::backends::tts::asset_base_fault(url) {
                let diagnostic = crate::diag::Diagnostic::error(
                    crate::diag::Code::AssetBaseUnusable,
                    format!("--asset-base: {fault}"),
                )
                .with_help(
                    "give the address of the folder you upload out/<game>/tts/images/ to \
                     (docs/tabletop-simulator.md)",
                );
                report(&folder, &diagnostic.into(), Format::Human, ui);
                return exit::FAILURE;
            }
            AssetBase::Url(url.clone())
        }
        None => AssetBase::OutputFolder(
            args.out
                .clone()
                .unwrap_or_else(|| crate::output::default_root(folder.on_disk())),
        ),
    };
    // Where the outputs go is held to the seam's first rule before any typesetting.
    if let Err(diagnostic) =
        crate::output::OutputRoot::named_or_default(args.out.as_deref(), folder.on_disk()).usable()
    {
        super::fault(diagnostic, ui);
        return exit::FAILURE;
    }
    if args.emit_typst {
        return emit_typst(&mut folder, &options, args.out.as_deref(), ui);
    }
    // A spinner while typesetting (large decks take seconds); indicatif draws nothing when
    // stderr is not a terminal.
    let spinner = if ui.quiet {
        indicatif::ProgressBar::hidden()
    } else {
        indicatif::ProgressBar::new_spinner()
    };
    spinner.set_message("checking, typesetting and rendering");
    spinner.enable_steady_tick(std::time::Duration::from_millis(120));
    let mut typesetting = match args.bounds.typesetting() {
        Ok(typesetting) => typesetting,
        Err(code) => return code,
    };
    let built = crate::build_with(&mut folder, &options, &mut typesetting);
    // The worker is done: it ends while the files are written.
    drop(typesetting);
    spinner.finish_and_clear();
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
    let Some((id, name)) = built
        .checked
        .identity()
        .map(|(id, name)| (id.to_string(), name.to_string()))
    else {
        // Not a game at all (no readable manifest) is a usage fault, as for `check`; a
        // manifest with faults in it is content.
        if super::check::no_game(&built.checked) {
            return exit::FAILURE;
        }
        eprintln!("build stopped: fix the errors above; nothing was written");
        return exit::ERRORS;
    };
    let Some(outputs) = built.outputs else {
        eprintln!("build stopped: fix the errors above; nothing was written");
        if let Some(others) =
            without_the_sheet(&built.checked, &options.targets, args.only.is_empty())
        {
            ui.info(format!(
                "only the sheet does not fit: `safari build --only {others}` still makes the rest"
            ));
        }
        return exit::ERRORS;
    };
    let root = crate::output::OutputRoot::named_or_default(args.out.as_deref(), folder.on_disk())
        .for_game(folder.on_disk(), args.replace);
    if args.install && !outputs.iter().any(|o| o.path.starts_with("tts/")) {
        super::error("--install needs the Tabletop Simulator export (`--only tts`)");
        return exit::FAILURE;
    }
    match root.replace(&id, &outputs, &options.targets, &super::documents) {
        Ok(target) => {
            // Documents by name, wherever they are; pictures by folder.
            let document = |o: &&Output| {
                !o.path.starts_with("preview/")
                    && !o.path.starts_with("tts/")
                    && !o.path.starts_with("printer/")
            };
            let written = outputs.iter().filter(document).count();
            for output in outputs.iter().filter(document) {
                ui.info(format!("wrote {}", target.join(&output.path).display()));
            }
            let previews = outputs
                .iter()
                .filter(|o| o.path.starts_with("preview/"))
                .count();
            if previews > 0 {
                ui.info(format!(
                    "wrote {} into {}",
                    plural(previews, "preview image"),
                    target.join("preview").display()
                ));
            }
            let printer = outputs
                .iter()
                .filter(|o| o.path.starts_with("printer/"))
                .count();
            if printer > 0 {
                ui.info(format!(
                    "wrote {} into {}",
                    plural(printer, "print-on-demand file"),
                    target.join("printer").display()
                ));
            }
            let tts = outputs.len() - written - previews - printer;
            if tts > 0 {
                ui.info(format!(
                    "wrote the Tabletop Simulator export ({}) into {}",
                    plural(tts, "file"),
                    target.join("tts").display()
                ));
                if let AssetBase::Url(url) = &options.asset_base
                    && !url.to_ascii_lowercase().starts_with("file:")
                {
                    let images = outputs
                        .iter()
                        .filter(|o| o.path.starts_with("tts/images/"))
                        .count();
                    ui.info(format!(
                        "upload the {} in {} to {}/ before the table is loaded \
                         (docs/tabletop-simulator.md)",
                        plural(images, "image"),
                        target.join("tts/images").display(),
                        url.trim_end_matches('/')
                    ));
                }
            }
            // Installed only once `out/` holds the same export, so that a failed build never
            // leaves Tabletop Simulator with a table `out/` does not have.
            if args.install {
                let name = crate::backends::tts::save_name(&name);
                let base = options.asset_base.url(&id);
                let owner = folder
                    .on_disk()
                    .map_or(crate::output::BUILT_IN.to_string(), |f| {
                        f.display().to_string()
                    });
                let installed = install(
                    &name,
                    &base,
                    &outputs,
                    args.tts_dir.as_deref(),
                    (&owner, args.replace),
                    ui,
                );
                if let Err(diagnostic) = installed {
                    super::fault(
                        diagnostic.with_help(format!(
                            "nothing was installed; the outputs in {} are new",
                            target.display()
                        )),
                        ui,
                    );
                    return exit::FAILURE;
                }
            }
            exit::OK
        }
        Err(diagnostic) => {
            report(&folder, &diagnostic.into(), Format::Human, ui);
            exit::FAILURE
        }
    }
}

/// `--emit-typst`: checks the game as a build would, then writes its print documents as Typst
/// projects into `out/<game>/typst/` (`backends::print::emit`).
fn emit_typst(
    folder: &mut crate::world::GameFolder,
    options: &BuildOptions,
    out: Option<&Path>,
    ui: Ui,
) -> u8 {
    let emitted = crate::emit_typst(folder, options);
    report(folder, &emitted.checked.diagnostics, Format::Human, ui);
    let (Some(outputs), Some((id, _))) = (&emitted.outputs, emitted.checked.identity()) else {
        return if emitted.checked.identity().is_none() {
            exit::FAILURE
        } else {
            exit::ERRORS
        };
    };
    let root = crate::output::OutputRoot::named_or_default(out, folder.on_disk())
        .for_game(folder.on_disk(), false);
    match root.update(id, "typst", outputs) {
        Ok(dir) => {
            ui.info(format!("wrote the Typst projects into {}", dir.display()));
            exit::OK
        }
        Err(diagnostic) => {
            report(folder, &diagnostic.into(), Format::Human, ui);
            exit::FAILURE
        }
    }
}

/// Tabletop Simulator's data folder on this system.
fn tts_home() -> Option<PathBuf> {
    let home = std::env::var_os("HOME")
        .or_else(|| std::env::var_os("USERPROFILE"))
        .map(PathBuf::from)?;
    let candidates = [
        home.join("Documents/My Games/Tabletop Simulator"),
        home.join("Library/Tabletop Simulator"),
        home.join(".local/share/Tabletop Simulator"),
    ];
    candidates.into_iter().find(|dir| dir.is_dir())
}

/// Copies the saved object, its thumbnail and its images into `Saves/Saved Objects/`, for the
/// game folder `owner` (`output::install`: a save there that safari did not install is never
/// replaced); only files this export names are written, so nothing else in the folder is
/// touched. A save whose images are hosted (`--asset-base https://…`) is installed as it is,
/// for every player to see them; one whose images are files on this computer points at the
/// copied images, and the person is told that only this computer shows them.
fn install(
    name: &str,
    base: &str,
    outputs: &[Output],
    tts_dir: Option<&Path>,
    (owner, take_over): (&str, bool),
    ui: Ui,
) -> Result<(), crate::diag::Diagnostic> {
    let hosted = !base.to_ascii_lowercase().starts_with("file:");
    let home = match tts_dir {
        Some(dir) => dir.to_path_buf(),
        None => tts_home().ok_or_else(|| {
            crate::diag::Diagnostic::error(
                crate::diag::Code::OutputUnwritable,
                "Tabletop Simulator's folder was not found",
            )
            .with_help("pass it with --tts-dir")
        })?,
    };
    let saved = home.join("Saves/Saved Objects");
    let images = saved.join(format!("{name} images"));
    // The images folder is the export's own: replaced whole, so that the images of earlier
    // installs do not pile up; then the save that points into it.
    let pictures: Vec<Output> = outputs
        .iter()
        .filter_map(|output| {
            let file = output.path.strip_prefix("tts/images/")?;
            Some(Output {
                path: file.to_string(),
                bytes: output.bytes.clone(),
            })
        })
        .collect();
    let json_path = format!("tts/{name}.json");
    let files: Vec<Output> = outputs
        .iter()
        .filter(|output| !output.path.starts_with("tts/images/"))
        .filter_map(|output| {
            let file = output.path.strip_prefix("tts/")?;
            let bytes = if output.path == json_path && !hosted {
                let text = String::from_utf8_lossy(&output.bytes).into_owned();
                text.replace(base, &file_url(&images)).into_bytes()
            } else {
                output.bytes.clone()
            };
            Some(Output {
                path: file.to_string(),
                bytes,
            })
        })
        .collect();
    crate::output::install(&saved, name, &pictures, &files, owner, take_over)?;
    ui.info(format!("installed into {}", saved.display()));
    if !hosted {
        ui.info(format!(
            "note: the installed table's {} on this computer ({}): only this \
             computer shows them, and other players see blank cards and sheets. For a table with \
             other players, upload them to a web host and build with --asset-base URL \
             (docs/tabletop-simulator.md, \"Images every player can see\")",
            plural_of(pictures.len(), "image is a file", "images are files"),
            file_url(&images)
        ));
    }
    Ok(())
}
