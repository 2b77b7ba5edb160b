//! Check speed: the default game, and synthetic Field Guides of 1,000 and 9,960 boxes
//! (tracks of ten boxes, each track opened by an item the track before it grants, ten sections
//! to a row of the grid, on a paper large enough to hold them), to show the check grows
//! linearly; the layout alone, which the check includes; and content of every shape a check
//! could be slow on (one long track, long chains of box requirements that hold or that fail,
//! many sections, many cards), each at sizes doubling up to the content limits, so that a flat
//! time per element shows the check is linear in each; and a game of components whose sheet
//! is as large, read and laid out by the same code.

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

/// An in-memory game folder of `files` (name, text).
fn folder_of(files: &[(&'static str, String)]) -> GameFolder {
    let mut folder = GameFolder::in_memory();
    for (name, text) in files {
        folder.add_source(*name, text.clone());
    }
    folder
}

/// The most boxes the limit (10,000) leaves beside the 30 of the turn and ball tracks, in
/// tracks of ten.
const LARGEST: usize = 9_960;

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

/// A game made of components whose one sheet holds `boxes` boxes laid out as [`synthetic`]'s
/// Field Guide (tracks of ten, ten tracks to a section, ten sections to a row of the grid),
/// its tags written as words: the check reads, places and lays the sheet out.
fn component_sheet(boxes: usize) -> Vec<(&'static str, String)> {
    let mut kdl = String::from("sheet columns=10\n");
    for t in 0..boxes / 10 {
        if t % 10 == 0 {
            if t > 0 {
                kdl.push_str("}\n");
            }
            let section = t / 10;
            kdl.push_str(&format!(
                "section \"s{section}\" column={} row={} {{\n",
                section % 10 + 1,
                section / 10 + 1
            ));
        }
        kdl.push_str(&format!(
            "    track \"t{t}\" {{\n        box needs=\"key {t}\" vp=1\n        box repeat=8\n        box gives=\"key {}\"\n    }}\n",
            t + 1
        ));
    }
    kdl.push_str("}\n");
    vec![
        (
            "game.toml",
            "id = \"sheet-bench\"\nname = \"Sheet Bench\"\nrules = \"none\"\n\
             [print]\npaper = { width-mm = 2000, height-mm = 2000 }\n"
                .to_string(),
        ),
        (
            "components.toml",
            "[[sheet]]\nid = \"log\"\nname = \"Log\"\nlayout = \"log.kdl\"\n".to_string(),
        ),
        ("log.kdl", kdl),
    ]
}

/// A sheet of a game made of components beside a Field Guide of as many boxes: the same
/// reader and layout, without Safari Zone's checks.
fn component_sheets(c: &mut Criterion) {
    let mut group = c.benchmark_group("check a game of components with one sheet (load + check)");
    group.sample_size(20);
    for boxes in [1_000, 10_000] {
        let files = component_sheet(boxes);
        group.throughput(Throughput::Elements(boxes as u64));
        group.bench_with_input(BenchmarkId::from_parameter(boxes), &files, |b, files| {
            b.iter(|| {
                let mut folder = folder_of(files);
                let checked = safari::check(&mut folder);
                // The smaller sheet would fit on half of its 2 m page (SZ0315): the check
                // lays it out there too.
                assert!(
                    !checked.diagnostics.has_errors(),
                    "{:?}",
                    checked.diagnostics
                );
            })
        });
    }
    group.finish();
}

fn synthetic_guides(c: &mut Criterion) {
    let mut group = c.benchmark_group("rules check of a loaded synthetic guide");
    for boxes in [1_000, LARGEST] {
        let files = synthetic(boxes);
        let mut folder = folder_of(&files);
        let mut diagnostics = safari::diag::Diagnostics::default();
        let game =
            safari::rules::safari_zone::load::load(&mut folder, &mut diagnostics).expect("loads");
        assert!(diagnostics.is_empty(), "{:?}", diagnostics.iter().next());
        group.throughput(Throughput::Elements(boxes as u64));
        group.bench_with_input(BenchmarkId::from_parameter(boxes), &game, |b, game| {
            b.iter(|| {
                let diagnostics = safari::rules::safari_zone::check(game);
                assert!(!diagnostics.has_errors());
            })
        });
    }
    group.finish();

    let mut group = c.benchmark_group("check synthetic guide (load + check)");
    for boxes in [1_000, LARGEST] {
        let files = synthetic(boxes);
        group.throughput(Throughput::Elements(boxes as u64));
        group.bench_with_input(BenchmarkId::from_parameter(boxes), &files, |b, files| {
            b.iter(|| {
                let mut folder = folder_of(files);
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

/// A game around `guide` (after the turn and ball sections), with `items` and the deck's
/// `cards` (TOML), on paper large enough for any guide within the limits.
fn game_files(guide: &str, items: &str, cards: &str) -> Vec<(&'static str, String)> {
    let guide = format!(
        "sheet columns=10\nsection \"turns\" fill=\"turn\" row=1 width=10 {{\n    track \"turn-tracker\" {{ box shape=\"circle\" repeat=20 }}\n}}\n\
         section \"balls\" fill=\"ball\" row=2 width=10 {{\n    track \"balls\" {{ box shape=\"ball\" repeat=10 }}\n}}\n{guide}"
    );
    let game = "id = \"synthetic\"\nname = \"Synthetic\"\n[play]\nturns = 20\nsafari-balls = 10\n\
                [print]\npaper = { width-mm = 2000, height-mm = 2000 }\n"
        .to_string();
    let species = "[[species]]\nid = \"mon\"\nname = \"Mon\"\n".to_string();
    let dice = "[[set]]\nid = \"e\"\nname = \"E\"\nrole = \"expedition\"\ncount = 5\nsides = 6\nfaces = [\"area\", \"trainer\", \"item\", \"grass\", \"water\", \"hazard\"]\n\n\
                [[set]]\nid = \"c\"\nname = \"C\"\nrole = \"capture\"\ncount = 3\nsides = 6\nfaces = [1, 2, 3, 4, 5, 6]\n"
        .to_string();
    vec![
        ("game.toml", game),
        ("items.toml", items.to_string()),
        ("species.toml", species),
        ("dice.toml", dice),
        ("field-guide.kdl", guide),
        ("deck.toml", format!("name = \"D\"\n{cards}")),
    ]
}

const ONE_CARD: &str = "[[card]]\nspecies = \"mon\"\ncapture-rate = 10\nhabitats = \"[G]\"\n";

/// One section holding one track of `n` boxes.
fn long_track(n: usize) -> Vec<(&'static str, String)> {
    let mut guide =
        String::from("section \"s\" row=3 width=10 fill=\"dice:area\" {\n    track \"t\" {\n");
    for i in 0..n {
        guide.push_str(if i % 3 == 0 {
            "        box vp=1\n"
        } else {
            "        box\n"
        });
    }
    guide.push_str("    }\n}\n");
    game_files(&guide, "", ONE_CARD)
}

/// `n` boxes in tracks of ten, each box after the first needing the box before it by id
/// (`needs="box:..."`), across tracks. With `holds`, the first box is open and every box
/// reachable; without it, the first needs an item no box gives, and the whole chain is
/// unreachable: the report names each box's immediate blocker.
fn needs_chain(n: usize, holds: bool) -> Vec<(&'static str, String)> {
    let mut guide = String::from("section \"s\" row=3 width=10 fill=\"dice:area\" {\n");
    for i in 0..n {
        if i % 10 == 0 {
            guide.push_str(&format!("    track \"t{}\" {{\n", i / 10));
        }
        let needs = match (i, holds) {
            (0, true) => String::new(),
            (0, false) => " needs=\"item:lost-key\"".to_string(),
            _ => format!(" needs=\"box:b{}\"", i - 1),
        };
        guide.push_str(&format!("        box \"b{i}\"{needs} vp=1\n"));
        if i % 10 == 9 || i + 1 == n {
            guide.push_str("    }\n");
        }
    }
    guide.push_str("}\n");
    let items = "[[item]]\nid = \"lost-key\"\nname = \"Lost Key\"\nkind = \"passive\"\n";
    game_files(&guide, items, ONE_CARD)
}

/// `n` boxes in sections of one track of ten boxes, ten sections to a row of the grid.
fn many_sections(n: usize) -> Vec<(&'static str, String)> {
    let mut guide = String::new();
    for s in 0..n / 10 {
        guide.push_str(&format!(
            "section \"s{s}\" column={} row={} fill=\"dice:trainer\" {{\n    track \"t{s}\" {{ box repeat=9; box vp=2 }}\n}}\n",
            s % 10 + 1,
            s / 10 + 3
        ));
    }
    game_files(&guide, "", ONE_CARD)
}

/// A deck of `n` card designs, each its own species, and a Field Guide collecting each
/// species once.
fn many_cards(n: usize) -> Vec<(&'static str, String)> {
    let mut guide = String::from("section \"dex\" row=3 width=10 {\n    track \"dex\" {\n");
    let mut cards = String::new();
    let mut species = String::new();
    for i in 0..n {
        guide.push_str(&format!("        box fill=\"collect:mon-{i}\" vp=1\n"));
        cards.push_str(&format!(
            "[[card]]\nspecies = \"mon-{i}\"\ncapture-rate = {}\nhabitats = \"[G]\"\n",
            2 + i % 10
        ));
        species.push_str(&format!(
            "[[species]]\nid = \"mon-{i}\"\nname = \"Mon {i}\"\n"
        ));
    }
    guide.push_str("    }\n}\n");
    let mut files = game_files(&guide, "", &cards);
    for file in &mut files {
        if file.0 == "species.toml" {
            file.1 = species.clone();
        }
    }
    files
}

/// Load and check (the layout included) of every shape at doubling sizes; the throughput is
/// per box (per card design for the deck), so linear growth shows as a flat rate.
fn shapes(c: &mut Criterion) {
    type Shape = fn(usize) -> Vec<(&'static str, String)>;
    let boxes = [1_245, 2_490, 4_980, LARGEST];
    // Each with whether its check finds errors (the unreachable chain, one per box).
    let shapes: [(&str, Shape, &[usize], bool); 5] = [
        ("long track", long_track, &boxes, false),
        (
            "needs chain, reachable",
            |n| needs_chain(n, true),
            &boxes,
            false,
        ),
        (
            "needs chain, unreachable",
            |n| needs_chain(n, false),
            &boxes,
            true,
        ),
        ("many sections", many_sections, &boxes, false),
        ("many cards", many_cards, &[125, 250, 500, 1_000], false),
    ];
    for (name, shape, sizes, errors) in shapes {
        let mut group = c.benchmark_group(format!("check by shape: {name}"));
        group.sample_size(20);
        for &n in sizes {
            let files = shape(n);
            group.throughput(Throughput::Elements(n as u64));
            group.bench_with_input(BenchmarkId::from_parameter(n), &files, |b, files| {
                b.iter(|| {
                    let mut folder = folder_of(files);
                    let checked = safari::check(&mut folder);
                    assert_eq!(
                        checked.diagnostics.has_errors(),
                        errors,
                        "{name}: {:?}",
                        checked.diagnostics.iter().next()
                    );
                    checked
                })
            });
        }
        group.finish();
    }
}

/// The Field Guide's layout alone: the default game on A4 (what the check adds to a check),
/// and the synthetic guides on their large paper.
fn layout(c: &mut Criterion) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("content/safari-zone");
    let mut folder = GameFolder::open(&dir).unwrap();
    let game = safari::check(&mut folder).game.unwrap();
    c.bench_function("layout default game (A4)", |b| {
        b.iter(|| {
            safari::rules::safari_zone::sheet::field_guide(&game, safari::model::Paper::A4).unwrap()
        })
    });
    let mut group = c.benchmark_group("layout synthetic guide");
    for boxes in [1_000, LARGEST] {
        let mut folder = folder_of(&synthetic(boxes));
        let mut diagnostics = safari::diag::Diagnostics::default();
        let game =
            safari::rules::safari_zone::load::load(&mut folder, &mut diagnostics).expect("loads");
        let paper = game.manifest.paper;
        group.throughput(Throughput::Elements(boxes as u64));
        group.bench_with_input(BenchmarkId::from_parameter(boxes), &game, |b, game| {
            b.iter(|| {
                safari::rules::safari_zone::sheet::field_guide(game, paper).expect("fits its paper")
            })
        });
    }
    group.finish();
}

criterion_group!(
    benches,
    parse_guide,
    default_game,
    synthetic_guides,
    shapes,
    layout,
    component_sheets
);
criterion_main!(benches);
