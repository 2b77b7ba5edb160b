//! Print speed: the default game's three print files and their page previews (the whole
//! `build` short of writing), against the part of it that is Typst's own work (compiling the
//! templates, exporting PDF, rasterising previews), so the overhead of our side shows. A
//! one-card edit (what `watch` rebuilds) is the deck alone.

use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};
use safari::backends::{BuildOptions, Target};
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

criterion_group!(benches, print);
criterion_main!(benches);
