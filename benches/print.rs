//! Print speed: the default game's three print files and their page previews (the whole
//! `build` short of writing), against the part of it that is Typst's own work (compiling the
//! templates, exporting PDF, rasterising previews), so the overhead of our side shows. A
//! one-card edit (what `watch` rebuilds) is the deck alone; `watch` itself rebuilds it in two
//! passes (PDFs, then previews and the export) in a session that keeps what did not change,
//! measured against the same passes with nothing kept.

use std::collections::BTreeSet;
use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};
use safari::backends::print::Typesetting;
use safari::backends::{BuildOptions, Target};
use safari::rules::rebuild as watch;
use safari::world::GameFolder;

fn options(targets: &[Target]) -> BuildOptions {
    BuildOptions {
        targets: targets.to_vec(),
        ..BuildOptions::default()
    }
}

fn print(c: &mut Criterion) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("content/safari-zone");
    let mut group = c.benchmark_group("print");
    group.sample_size(20);
    for (name, targets) in [
        (
            "default game: sheet, deck, dice and previews",
            &[Target::Sheet, Target::Deck, Target::Dice][..],
        ),
        ("deck only (a card edit)", &[Target::Deck][..]),
    ] {
        let options = options(targets);
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut folder = GameFolder::open(&dir).unwrap();
                let built = safari::build(&mut folder, &options);
                assert!(built.outputs.is_some());
            })
        });
    }
    group.finish();

    // Typst's share, summed over the documents (they compile in parallel, so this can exceed
    // the wall time above): printed once, beside the criterion figures.
    let mut folder = GameFolder::open(&dir).unwrap();
    let built = safari::build(&mut folder, &options(&Target::ALL));
    for t in &built.timings {
        eprintln!(
            "{:<28} Typst compile {:7.1} ms   PDF {:6.1} ms   previews {:6.1} ms",
            t.document, t.typeset_ms, t.pdf_ms, t.previews_ms
        );
    }
}

/// `watch` after a one-card edit: a copy of the default game whose first card's flavour text
/// gets a new number before every rebuild, rebuilt as `watch` does up to the moment every
/// output is current (its first two builds: the PDFs, then the previews and the export).
fn watch_edit(c: &mut Criterion) {
    let dir = std::env::temp_dir().join(format!("safari-bench-watch-{}", std::process::id()));
    let game = dir.join("game");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&game).unwrap();
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("content/safari-zone");
    for entry in std::fs::read_dir(&source).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, game.join(path.file_name().unwrap())).unwrap();
    }
    let out = dir.join("out");
    let deck = std::fs::read_to_string(game.join("deck.toml")).unwrap();
    let flavour = "Its large ears stay raised";
    assert!(deck.contains(flavour));
    let targets: BTreeSet<Target> = watch::affected(
        Some(&safari::rules::safari_zone::module::SafariZone),
        &mut GameFolder::open(&game).unwrap(),
        &["deck.toml"],
    );
    let rebuild = |targets: &BTreeSet<Target>, typesetting: &mut Typesetting| {
        // The first two: when every output is current (the third checks the sheet, and
        // writes nothing after a flavour text).
        for options in watch::passes(targets, &out, true).into_iter().take(2) {
            let mut folder = GameFolder::open(&game).unwrap();
            let built = safari::build_with(&mut folder, &options, typesetting);
            assert!(built.outputs.is_some());
        }
    };
    let mut group = c.benchmark_group("watch");
    group.sample_size(20);
    let mut edit = 0;
    for (name, mut typesetting) in [
        (
            "one card edited, PDFs then previews and export, in a session",
            Typesetting::InProcess.for_session(),
        ),
        (
            "one card edited, PDFs then previews and export, nothing kept",
            Typesetting::InProcess,
        ),
    ] {
        rebuild(&Target::ALL.into_iter().collect(), &mut typesetting);
        group.bench_function(name, |b| {
            b.iter(|| {
                edit += 1;
                let text =
                    deck.replace(flavour, &format!("Edit {edit}: its large ears stay raised"));
                std::fs::write(game.join("deck.toml"), text).unwrap();
                rebuild(&targets, &mut typesetting);
            })
        });
    }
    group.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, print, watch_edit);
criterion_main!(benches);
