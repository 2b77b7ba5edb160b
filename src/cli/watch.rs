//! `safari watch`: build, then rebuild on every save. Only what the saved file affects is
//! rebuilt (a card edit re-typesets the deck, not the Field Guide); diagnostics are printed as
//! they appear and cleared once fixed; while the content has errors nothing is written, so
//! `out/` keeps the last good build.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use notify_debouncer_mini::notify::RecursiveMode;
use notify_debouncer_mini::{DebouncedEvent, new_debouncer};

use super::check::{Format, open_game, report};
use super::{Ui, exit};
use crate::backends::print::{ColorSpace, Typesetting};
use crate::backends::{BuildOptions, Target};
use crate::rules::rebuild::{affected, passes};

#[derive(clap::Args)]
pub struct Args {
    /// The game folder to watch (holding game.toml).
    #[arg(value_name = "GAME_DIR")]
    game: Option<PathBuf>,

    /// Where outputs go: a folder per game inside it (default: out at the game's project: above content/ for a game in content/<game>/, else in the game folder; a link there is followed only when named with --out).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,

    /// How long to wait for a burst of saves to settle, in milliseconds.
    #[arg(long, default_value_t = 30)]
    debounce: u64,

    /// Build only these outputs (comma-separated), as `build --only`: a save rebuilds what it
    /// affects among them.
    #[arg(long, value_enum, value_delimiter = ',')]
    only: Vec<super::values::Only>,

    /// Paper for the print files, instead of the manifest's `[print] paper`, as for `build`.
    #[arg(long, value_parser = crate::model::Paper::parse)]
    paper: Option<crate::model::Paper>,

    /// Also write a PNG of every card design at print resolution (preview/cards/).
    #[arg(long)]
    preview: bool,

    /// Replace the outputs in out/<game>/ even when another game folder with the same id
    /// built them (SZ0802).
    #[arg(long)]
    replace: bool,

    #[command(flatten)]
    bounds: super::typeset_worker::BoundsArgs,
}

pub fn run(args: Args, color_space: ColorSpace, ui: Ui) -> u8 {
    let folder = match open_game(args.game.as_deref(), ui) {
        Ok(folder) => folder,
        Err(code) => return code,
    };
    let root = folder.root().to_path_buf();
    if root.as_os_str().is_empty() {
        super::error(
            "the built-in game cannot be watched: `safari init NAME` makes a copy to edit",
        );
        return exit::FAILURE;
    }
    drop(folder);
    // The output root as named (the output seam holds it, and where it leads, to its rule on
    // every write), and where it leads, so that the writes there are told from edits.
    let named = args.out.is_some();
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| crate::output::default_root(Some(&root)));
    let out = std::path::absolute(&out).unwrap_or(out);
    let usable = crate::output::OutputRoot::at(&out, named);
    let writes = match usable.usable().and_then(|()| usable.resolved()) {
        Ok(writes) => writes,
        Err(diagnostic) => {
            super::fault(diagnostic, ui);
            return exit::FAILURE;
        }
    };
    // One worker for every rebuild: it keeps Typst's caches warm between them, and the
    // images and PDFs of the last builds, so a rebuild rasterises and encodes only the pages
    // that changed.
    let mut typesetting = match args.bounds.typesetting() {
        Ok(typesetting) => typesetting.for_session(),
        Err(code) => return code,
    };

    let (sender, receiver) = std::sync::mpsc::channel();
    let mut debouncer = match new_debouncer(Duration::from_millis(args.debounce), sender) {
        Ok(debouncer) => debouncer,
        Err(err) => {
            super::error(format_args!("cannot watch files: {err}"));
            return exit::FAILURE;
        }
    };
    if let Err(err) = debouncer.watcher().watch(&root, RecursiveMode::Recursive) {
        super::error(format_args!("cannot watch {}: {err}", root.display()));
        return exit::FAILURE;
    }
    let session = Session {
        root: root.clone(),
        out: out.clone(),
        named,
        color_space,
        only: super::values::Only::targets(&args.only)
            .into_iter()
            .collect(),
        paper: args.paper,
        preview: args.preview,
        replace: args.replace,
        refused: std::cell::Cell::new(false),
    };
    // Watching starts before the first build, so a save during it is not missed.
    let mut seen = Seen::default();
    seen.scan(&root, &writes);
    rebuild(
        &session,
        Target::ALL.into_iter().collect(),
        false,
        &mut typesetting,
        ui,
    );
    if session.refused.get() {
        // No rebuild could write there: watching would only repeat the refusal.
        return exit::FAILURE;
    }
    ui.info(format!("watching {} (Ctrl-C to stop)", root.display()));
    for events in receiver {
        let events: Vec<DebouncedEvent> = match events {
            Ok(events) => events,
            Err(err) => {
                eprintln!("warning: file watching: {err}");
                continue;
            }
        };
        let mut edited = Vec::new();
        for event in &events {
            // The output folder may sit inside the game folder: its writes are not edits.
            if event.path.starts_with(&writes) || is_editor_litter(&event.path) {
                continue;
            }
            // File events include reads (the build's own): only a change in a file's size,
            // time or presence is an edit.
            if !seen.changed(&event.path) {
                continue;
            }
            if let Ok(relative) = event.path.strip_prefix(&root) {
                edited.push(relative.to_string_lossy().replace('\\', "/"));
            }
        }
        if edited.is_empty() {
            continue;
        }
        // The manifest may have just named other rules: asked once a batch of saves.
        let (module, targets) = match crate::world::GameFolder::open(&root) {
            Ok(mut folder) => {
                let module = crate::rules_of(&mut folder);
                let edited: Vec<&str> = edited.iter().map(String::as_str).collect();
                (module, affected(module, &mut folder, &edited))
            }
            Err(_) => (None, Target::ALL.into_iter().collect()),
        };
        let reuses_last_sheet = module.is_some_and(|m| m.reuses_last_sheet());
        if !targets.is_empty() {
            rebuild(&session, targets, reuses_last_sheet, &mut typesetting, ui);
        }
    }
    exit::OK
}

/// What each file of the game folder looked like when last seen: (size, modification time).
#[derive(Default)]
struct Seen(std::collections::HashMap<PathBuf, Option<(u64, std::time::SystemTime)>>);

impl Seen {
    /// Records every file under `root` (but not under `out`).
    fn scan(&mut self, root: &Path, out: &Path) {
        for path in crate::world::files_under(root, out) {
            let state = crate::world::file_state(&path);
            self.0.insert(path, state);
        }
    }

    /// Whether `path` differs from when it was last seen (and remembers it as it is now).
    fn changed(&mut self, path: &Path) -> bool {
        if path.is_dir() {
            return false;
        }
        let now = crate::world::file_state(path);
        match (self.0.insert(path.to_path_buf(), now), now) {
            // A file that came and went between two looks (an editor's or sed's temporary).
            (None, None) => false,
            (None, Some(_)) => true,
            (Some(before), now) => before != now,
        }
    }
}

/// Swap files, backups and our own temporary files: saving through them is not an edit.
fn is_editor_litter(path: &Path) -> bool {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    name.starts_with(".#")
        || name.ends_with('~')
        || name.ends_with(".swp")
        || name.ends_with(".swx")
        || name.contains(".tmp-")
}

/// The builds of a rebuild of `targets`, in order: first the PDFs and the ruleset, without
/// page previews (what the designer waits for); then, when anything printed or the export is
/// stale, the page previews and the Tabletop Simulator export (with its images where `out`
/// will hold them). The second makes the PDFs again, but the session's worker takes them, and
/// every image whose page did not change, from what it kept of earlier builds.
///
/// What a watch session was asked for, the same for every rebuild.
struct Session {
    root: PathBuf,
    out: PathBuf,
    /// Whether `--out` named the output root (only then are links to it followed).
    named: bool,
    color_space: ColorSpace,
    /// `--only`: every target when empty.
    only: BTreeSet<Target>,
    paper: Option<crate::model::Paper>,
    preview: bool,
    replace: bool,
    /// Set when the output folder is not one this session may write (SZ0802, SZ0805-SZ0807).
    refused: std::cell::Cell<bool>,
}

/// Rebuilds `targets` (those of `--only` among them) in the builds [`passes`] gives. The
/// typesetting worker lives from build to build: Typst's caches make typesetting again cheap,
/// and what it kept of earlier builds spares rasterising and encoding the pages that did not
/// change.
fn rebuild(
    session: &Session,
    targets: BTreeSet<Target>,
    reuses_last_sheet: bool,
    typesetting: &mut Typesetting,
    ui: Ui,
) {
    let out = session.out.as_path();
    let targets: BTreeSet<Target> = if session.only.is_empty() {
        targets
    } else {
        targets.intersection(&session.only).copied().collect()
    };
    if targets.is_empty() {
        return;
    }
    let started = Instant::now();
    let mut passes = passes(&targets, out, reuses_last_sheet);
    for pass in &mut passes {
        pass.print.color_space = session.color_space;
        pass.print.paper = session.paper;
        pass.print.card_previews = session.preview && pass.print.page_previews;
    }
    let mut passes = passes.into_iter();
    let Some(first) = passes.next() else {
        return;
    };
    let Some(built) = build_and_write(session, &first, typesetting, ui, true) else {
        return;
    };
    let names: Vec<&str> = built.iter().map(|t| target_name(*t)).collect();
    ui.info(format!(
        "rebuilt {} in {:.0} ms",
        names.join(", "),
        started.elapsed().as_secs_f64() * 1e3
    ));
    for (index, options) in passes.enumerate() {
        let clock = Instant::now();
        if build_and_write(session, &options, typesetting, ui, false).is_none() {
            return;
        }
        let what = if index == 0 {
            if options.targets.contains(&Target::Tts) {
                "then previews and the Tabletop Simulator export"
            } else {
                "then previews"
            }
        } else {
            "then the Field Guide checked against the deck"
        };
        ui.info(format!(
            "{what} in {:.0} ms",
            clock.elapsed().as_secs_f64() * 1e3
        ));
    }
}

/// One build, reported and written; what was built, when it succeeded.
fn build_and_write(
    session: &Session,
    options: &BuildOptions,
    typesetting: &mut Typesetting,
    ui: Ui,
    report_diagnostics: bool,
) -> Option<Vec<Target>> {
    let mut folder = match crate::world::GameFolder::open(&session.root) {
        Ok(folder) => folder,
        Err(diagnostic) => {
            super::error(&diagnostic.message);
            return None;
        }
    };
    let built = crate::build_with(&mut folder, options, typesetting);
    if report_diagnostics {
        if ui.render.color {
            // A fresh screen per build: fixed problems disappear with the old output.
            eprint!("\x1b[2J\x1b[H");
        }
        report(&folder, &built.checked.diagnostics, Format::Human, ui);
    } else if built.checked.diagnostics.has_errors() {
        // A later build's own faults (typesetting what the first did not: the sheet after a
        // card edit, the previews) show below the first build's report.
        report(&folder, &built.checked.diagnostics, Format::Human, ui);
    }
    for t in &built.timings {
        ui.detail(format!(
            "  {}: Typst {:.1} ms, PDF {:.1} ms, previews {:.1} ms",
            t.document, t.typeset_ms, t.pdf_ms, t.previews_ms
        ));
    }
    let built_errors = built.checked.diagnostics.has_errors();
    let id = built.checked.identity().map(|(id, _)| id.to_string());
    match (id, built.outputs) {
        (Some(id), Some(outputs)) => {
            let root = crate::output::OutputRoot::at(&session.out, session.named)
                .for_game(Some(&session.root), session.replace);
            let id = &id;
            // The quick pass makes no page previews: only a full pass says which are stale.
            let full = options.print.page_previews;
            match root.update(id, "", &outputs).and_then(|_| {
                if full {
                    root.remove_stale(id, &outputs, &options.targets, &super::documents)
                } else {
                    Ok(())
                }
            }) {
                // The targets that made files: a game without tiles or a board has none.
                Ok(()) => Some(
                    options
                        .targets
                        .iter()
                        .filter(|target| {
                            outputs
                                .iter()
                                .any(|o| target.owns(&o.path, &super::documents))
                        })
                        .copied()
                        .collect(),
                ),
                Err(diagnostic) => {
                    use crate::diag::Code;
                    let refused = [
                        Code::OutputOfAnotherGame,
                        Code::OutputFolderNotSafaris,
                        Code::OutputAmongSources,
                        Code::OutputThroughLink,
                    ];
                    if refused.contains(&diagnostic.code) {
                        session.refused.set(true);
                    }
                    report(&folder, &diagnostic.into(), Format::Human, ui);
                    None
                }
            }
        }
        _ => {
            if report_diagnostics || built_errors {
                ui.info("not rebuilt: the last good outputs stay in place");
            }
            None
        }
    }
}

/// A target as `watch` reports it: as `--only` names it, the playtest page in words.
fn target_name(target: Target) -> &'static str {
    match target {
        Target::Play => "playtest page",
        target => super::values::Only::name(target),
    }
}
