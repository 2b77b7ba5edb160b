//! `watch`'s incremental rebuild: after a one-card edit, the rebuild takes every image and PDF
//! whose page did not change from what the session kept, and must still write exactly the
//! bytes a full build of the edited content writes (the previews, the sprite sheets, the
//! export's JSON that names images by their hash, the PDFs). Both ways the session runs: in
//! this process, and in the typesetting worker as `watch` runs it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use safari::backends::print::Typesetting;
use safari::backends::print::worker::{Bounds, Worker};
use safari::backends::tts::AssetBase;
use safari::backends::{BuildOptions, Target};
use safari::rules::rebuild as watch;
use safari::world::GameFolder;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn temp_dir(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("safari-incremental-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let target = to.join(path.file_name().unwrap());
        if path.is_dir() {
            copy_dir(&path, &target);
        } else {
            std::fs::copy(&path, &target).unwrap();
        }
    }
}

type Files = BTreeMap<String, Vec<u8>>;

fn build(dir: &Path, options: &BuildOptions, typesetting: &mut Typesetting) -> Files {
    let mut folder = GameFolder::open(dir).unwrap();
    let built = safari::build_with(&mut folder, options, typesetting);
    let outputs = built
        .outputs
        .unwrap_or_else(|| panic!("{:?}", built.checked.diagnostics));
    outputs.into_iter().map(|o| (o.path, o.bytes)).collect()
}

/// One of `watch`'s builds: its options, its files, and what it took from the session's
/// cache and made (in this process).
struct Pass {
    options: BuildOptions,
    files: Files,
    counts: Option<(usize, usize)>,
}

/// What `watch` makes for a save of `targets`, build by build.
fn rebuild(dir: &Path, out: &Path, targets: &[Target], typesetting: &mut Typesetting) -> Vec<Pass> {
    let targets: BTreeSet<Target> = targets.iter().copied().collect();
    let mut folder = GameFolder::open(dir).unwrap();
    let module = safari::rules_of(&mut folder);
    let reuses_last_sheet = module.is_some_and(|m| m.reuses_last_sheet());
    watch::passes(&targets, out, reuses_last_sheet)
        .into_iter()
        .map(|options| {
            let files = build(dir, &options, typesetting);
            let counts = match typesetting {
                Typesetting::Session(cache) => Some(cache.last_build()),
                _ => None,
            };
            Pass {
                options,
                files,
                counts,
            }
        })
        .collect()
}

fn documents(target: Target) -> Vec<&'static str> {
    safari::rules::documents(target).collect()
}

/// The output folder after `passes`, as `watch` writes it: each build's files, and after a
/// build with previews, the files of its targets that it did not make removed.
fn write(folder: &mut Files, passes: &[Pass]) {
    for pass in passes {
        if pass.options.print.page_previews {
            folder.retain(|path, _| {
                pass.files.contains_key(path)
                    || !pass
                        .options
                        .targets
                        .iter()
                        .any(|t| t.owns(path, &documents))
            });
        }
        folder.extend(pass.files.clone());
    }
}

/// The edits, each to the content as the one before left it, and whether the Field Guide
/// receives what it changes (and so names other content at its foot): a flavour text (only
/// the card prints it), a capture rate (the generated reference page prints it, the game's
/// own Park Rules may), the flavour text back as it was, and a card printed once more (the
/// Park Rules count the cards, and every card after it is numbered anew).
struct Edit {
    deck: String,
    sheet_shows_it: bool,
    renumbers: bool,
}

fn edits(deck: &str) -> Vec<Edit> {
    let flavour = "Its large ears stay raised to catch the faintest rustle in the tall grass.";
    assert!(deck.contains(flavour));
    let first = deck.replace(flavour, "Its ears twitch at every rustle of the grass.");
    let second = first.replacen("capture-rate = 13", "capture-rate = 14", 1);
    assert_ne!(first, second);
    let third = second.replace("Its ears twitch at every rustle of the grass.", flavour);
    let fourth =
        third
            .replacen("size = 52", "size = 53", 1)
            .replacen("copies = 5", "copies = 6", 1);
    assert_ne!(third, fourth);
    let edit = |deck: String, sheet_shows_it, renumbers| Edit {
        deck,
        sheet_shows_it,
        renumbers,
    };
    vec![
        edit(first, false, false),
        edit(second, true, false),
        edit(third, false, false),
        edit(fourth, true, true),
    ]
}

fn holds_to_full_builds(name: &str, mut session: Typesetting) {
    let dir = temp_dir(name);
    let game = dir.join("game");
    copy_dir(&root().join("content/safari-zone"), &game);
    let out = dir.join("out");
    let targets = watch::affected(
        Some(&safari::rules::safari_zone::module::SafariZone),
        &mut GameFolder::open(&game).unwrap(),
        &["deck.toml"],
    );
    let targets: Vec<Target> = targets.into_iter().collect();
    // What `watch` starts with: a build of everything, in the session.
    let mut folder = Files::new();
    write(
        &mut folder,
        &rebuild(&game, &out, &Target::ALL, &mut session),
    );
    let deck = std::fs::read_to_string(game.join("deck.toml")).unwrap();
    for (step, edit) in edits(&deck).into_iter().enumerate() {
        let sheet_shows_it = edit.sheet_shows_it;
        std::fs::write(game.join("deck.toml"), edit.deck).unwrap();
        let passes = rebuild(&game, &out, &targets, &mut session);
        assert_eq!(
            passes.len(),
            3,
            "PDFs; previews and export; the sheet checked"
        );
        // The second build, previews and export, rasterises one card's face and the deck
        // page that first shows it, and encodes them and that card's sprite sheet: no more.
        // (A card printed once more numbers every card after it anew.)
        if let (Some((reused, made)), false) = (passes[1].counts, edit.renumbers) {
            assert!(
                made <= 3 && reused > 30,
                "edit {step}: {made} images made and {reused} reused"
            );
        }
        // What the session keeps of the default game: about 25 MB (card faces, PNGs, PDFs).
        if let Typesetting::Session(cache) = &session {
            assert!(cache.bytes() < 64 << 20, "{} bytes kept", cache.bytes());
        }
        // A full build of the edited content as `safari build` makes it: nothing kept.
        let options = BuildOptions {
            asset_base: AssetBase::OutputFolder(out.clone()),
            ..BuildOptions::default()
        };
        let full = build(&game, &options, &mut Typesetting::InProcess);
        // Every file of every build is the full build's; the second build's export too,
        // made with the last build's Field Guide tiles, unless the sheet shows the edit (the
        // third build then brings the tiles up to date).
        for (index, pass) in passes.iter().enumerate() {
            for (path, bytes) in &pass.files {
                if sheet_shows_it && index == 1 && path.starts_with("tts/") {
                    continue;
                }
                let Some(expected) = full.get(path) else {
                    panic!("edit {step}, build {index}: {path} is not a full build's file")
                };
                assert!(
                    bytes == expected,
                    "edit {step}, build {index}: {path} differs from a full build's"
                );
            }
        }
        // And once all are written, the output folder is the full build's, file for file.
        write(&mut folder, &passes);
        assert_eq!(
            folder.keys().collect::<Vec<_>>(),
            full.keys().collect::<Vec<_>>(),
            "edit {step}: the output folder holds a full build's files"
        );
        for (path, bytes) in &full {
            assert!(folder[path] == *bytes, "edit {step}: {path} differs");
        }
        // The third build typesets the sheet only when it receives the edit: otherwise the
        // session's Field Guide is the one typeset before (a hit of the session's cache, as
        // each document it keeps is), and nothing is drawn again.
        if let Some((reused, made)) = passes[2].counts {
            if sheet_shows_it {
                assert!(made > 0, "edit {step}: the changed sheet was not typeset");
            } else {
                assert!(
                    made == 0 && reused > 0,
                    "edit {step}: the unchanged sheet made {made} results ({reused} reused)"
                );
            }
        }
        if sheet_shows_it {
            let before = &passes[1].files;
            assert!(
                passes[2]
                    .files
                    .iter()
                    .any(|(path, bytes)| path.starts_with("tts/images/park-rules")
                        && before.get(path) != Some(bytes)),
                "edit {step}: the third build redraws the Park Rules tile"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_rebuild_in_a_session_writes_what_a_full_build_writes() {
    holds_to_full_builds("in-process", Typesetting::InProcess.for_session());
}

#[test]
fn a_rebuild_in_watchs_worker_writes_what_a_full_build_writes() {
    let worker = Worker::new(env!("CARGO_BIN_EXE_safari"), Bounds::DEFAULT);
    holds_to_full_builds("worker", Typesetting::Bounded(worker).for_session());
}

/// A game made of components: after an edit of the file that holds one deck, `watch` rebuilds
/// that deck, the ruleset and the export (two builds, the sheets and boards untouched, their
/// printed content id the same), and the output folder is then a full build's, file for file.
#[test]
fn a_rebuild_of_a_game_of_components_writes_what_a_full_build_writes() {
    let dir = temp_dir("components");
    let game = dir.join("game");
    copy_dir(&root().join("content/diceafari"), &game);
    let out = dir.join("out");
    let mut session = Typesetting::InProcess.for_session();
    let mut folder = Files::new();
    write(
        &mut folder,
        &rebuild(&game, &out, &Target::ALL, &mut session),
    );
    let maps = std::fs::read_to_string(game.join("maps.toml")).unwrap();
    let edited = maps.replacen("A broad back", "A broad grey back", 1);
    assert_ne!(edited, maps);
    std::fs::write(game.join("maps.toml"), edited).unwrap();
    let module = safari::rules_of(&mut GameFolder::open(&game).unwrap());
    let targets = watch::affected(
        module,
        &mut GameFolder::open(&game).unwrap(),
        &["maps.toml"],
    );
    let targets: Vec<Target> = targets.into_iter().collect();
    assert_eq!(
        targets,
        [Target::Deck, Target::Ruleset, Target::Tts, Target::Play]
    );
    let passes = rebuild(&game, &out, &targets, &mut session);
    assert_eq!(passes.len(), 2, "PDFs; previews and export");
    // The second build, previews and export, makes little: the edited card's face (the
    // export's deck sheet is pasted from faces kept apart, then encoded) and the deck page
    // that shows it; everything else is kept from the first build.
    if let Some((reused, made)) = passes[1].counts {
        assert!(
            made <= 4 && reused > 30,
            "{made} images made and {reused} reused"
        );
    }
    let options = BuildOptions {
        asset_base: AssetBase::OutputFolder(out.clone()),
        ..BuildOptions::default()
    };
    let full = build(&game, &options, &mut Typesetting::InProcess);
    write(&mut folder, &passes);
    assert_eq!(
        folder.keys().collect::<Vec<_>>(),
        full.keys().collect::<Vec<_>>(),
        "the output folder holds a full build's files"
    );
    for (path, bytes) in &full {
        assert!(folder[path] == *bytes, "{path} differs from a full build's");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
