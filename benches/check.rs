//! Check speed: the default game, and synthetic Field Guides of 1,000 and 10,000 boxes
//! (tracks of ten boxes, each track opened by an item the track before it grants, ten sections
//! to a row of the grid, on a paper large enough to hold them), to show the check grows linearly; and the layout alone, which
//! the check includes.

use std::path::Path;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use safari::world::GameFolder;

fn default_game(c: &mut Criterion) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("content/safari-zone");
    c.bench_function("check default game (read + load + check)", |b| {
        b.iter(|| {
            let mut folder = GameFolder::open(&dir).unwrap();
            let checked = safari::check(&mut folder);
            assert!(checked.diagnostics.is_empty());
        })
    });
}

/// The Field Guide's KDL parse alone: the `kdl` crate's parser and the fast reader the loader
/// uses (which hands anything it does not read to the crate).
fn parse_guide(c: &mut Criterion) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("content/safari-zone/field-guide.kdl");
    let text = std::fs::read_to_string(path).unwrap();
    let mut group = c.benchmark_group("parse default Field Guide");
    group.throughput(Throughput::Bytes(text.len() as u64));
    group.bench_function("kdl crate", |b| {
        b.iter(|| kdl::KdlDocument::parse_v2(&text).unwrap())
    });
    group.bench_function("fast reader", |b| {
        b.iter(|| safari::load::kdl_fast::parse_fast(&text).unwrap())
    });
    group.finish();
}

/// A game whose Field Guide has `boxes` boxes, all reachable.
fn synthetic(boxes: usize) -> Vec<(&'static str, String)> {
    let tracks = boxes / 10;
    let mut items = String::new();
    let mut guide = String::from(
        "sheet columns=10\nsection \"turns\" fill=\"turn\" row=1 width=10 {\n    track \"turn-tracker\" { box shape=\"circle\" repeat=20 }\n}\n\
         section \"balls\" fill=\"ball\" row=2 width=10 {\n    track \"balls\" { box shape=\"ball\" repeat=10 }\n}\n",
    );
    for t in 0..tracks {
        if t % 10 == 0 {
            if t > 0 {
                guide.push_str("}\n");
            }
            let face = if (t / 10) % 2 == 0 { "area" } else { "item" };
            // Ten sections to a row of the sheet's grid.
            let section = t / 10;
            guide.push_str(&format!(
                "section \"s{section}\" column={} row={} fill=\"dice:{face}\" {{\n",
                section % 10 + 1,
                section / 10 + 3
            ));
        }
        items.push_str(&format!(
            "[[item]]\nid = \"key-{t}\"\nname = \"Key {t}\"\nkind = \"passive\"\n\n"
        ));
        guide.push_str(&format!("    track \"t{t}\" {{\n"));
        for i in 0..10 {
            let mut line = String::from("        box");
            if i == 0 && t > 0 {
                line.push_str(&format!(" needs=\"item:key-{}\"", t - 1));
            }
            if i == 9 {
                line.push_str(&format!(" gives=\"item:key-{t}\""));
            }
            if i % 3 == 0 {
                line.push_str(" vp=1");
            }
            guide.push_str(&line);
            guide.push('\n');
        }
        guide.push_str("    }\n");
    }
    guide.push_str("}\n");
    let game = "id = \"synthetic\"\nname = \"Synthetic\"\n[play]\nturns = 20\nsafari-balls = 10\n\
                [print]\npaper = { width-mm = 2000, height-mm = 2000 }\n"
        .to_string();
    let species = "[[species]]\nid = \"mon\"\nname = \"Mon\"\n".to_string();
    let dice = "[[set]]\nid = \"e\"\nname = \"E\"\nrole = \"expedition\"\ncount = 5\nsides = 6\nfaces = [\"area\", \"trainer\", \"item\", \"grass\", \"water\", \"hazard\"]\n\n\
                [[set]]\nid = \"c\"\nname = \"C\"\nrole = \"capture\"\ncount = 3\nsides = 6\nfaces = [1, 2, 3, 4, 5, 6]\n"
        .to_string();
    let deck = "name = \"D\"\nsize = 1\n[[card]]\nspecies = \"mon\"\ncapture-rate = 10\nhabitats = \"[G]\"\n".to_string();
    vec![
        ("game.toml", game),
        ("items.toml", items),
        ("species.toml", species),
        ("dice.toml", dice),
        ("field-guide.kdl", guide),
        ("deck.toml", deck),
    ]
}

fn synthetic_guides(c: &mut Criterion) {
    let mut group = c.benchmark_group("rules check of a loaded synthetic guide");
    for boxes in [1_000, 10_000] {
        let files = synthetic(boxes);
        let mut folder = GameFolder::in_memory();
        for (name, text) in &files {
            folder.add_source(*name, text.clone());
        }
        let mut diagnostics = safari::diag::Diagnostics::default();
        let game = safari::load::load(&mut folder, &mut diagnostics).expect("loads");
        assert!(diagnostics.is_empty());
        group.throughput(Throughput::Elements(boxes as u64));
        group.bench_with_input(BenchmarkId::from_parameter(boxes), &game, |b, game| {
            b.iter(|| {
                let diagnostics = safari::rules::check(game);
                assert!(!diagnostics.has_errors());
            })
        });
    }
    group.finish();

    let mut group = c.benchmark_group("check synthetic guide (load + check)");
    for boxes in [1_000, 10_000] {
        let files = synthetic(boxes);
        group.throughput(Throughput::Elements(boxes as u64));
        group.bench_with_input(BenchmarkId::from_parameter(boxes), &files, |b, files| {
            b.iter(|| {
                let mut folder = GameFolder::in_memory();
                for (name, text) in files {
                    folder.add_source(*name, text.clone());
                }
                let checked = safari::check(&mut folder);
                assert!(
                    !checked.diagnostics.has_errors(),
                    "{:?}",
                    checked.diagnostics.iter().next()
                );
            })
        });
    }
    group.finish();
}

/// The Field Guide's layout alone: the default game on A4 (what the check adds to a check),
/// and the synthetic guides on their large paper.
fn layout(c: &mut Criterion) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("content/safari-zone");
    let mut folder = GameFolder::open(&dir).unwrap();
    let game = safari::check(&mut folder).game.unwrap();
    c.bench_function("layout default game (A4)", |b| {
        b.iter(|| safari::layout::field_guide(&game, safari::model::Paper::A4).unwrap())
    });
    let mut group = c.benchmark_group("layout synthetic guide");
    for boxes in [1_000, 10_000] {
        let mut folder = GameFolder::in_memory();
        for (name, text) in synthetic(boxes) {
            folder.add_source(name, text);
        }
        let mut diagnostics = safari::diag::Diagnostics::default();
        let game = safari::load::load(&mut folder, &mut diagnostics).expect("loads");
        let paper = game.manifest.paper;
        group.throughput(Throughput::Elements(boxes as u64));
        group.bench_with_input(BenchmarkId::from_parameter(boxes), &game, |b, game| {
            b.iter(|| safari::layout::field_guide(game, paper).expect("fits its paper"))
        });
    }
    group.finish();
}

criterion_group!(benches, parse_guide, default_game, synthetic_guides, layout);
criterion_main!(benches);
