//! Reachability against an independent reading: random Field Guides built so that every box
//! can be filled must have no unreachable box, and deleting the only grant of a required item
//! must make exactly the boxes that depend on it unreachable (as a naive simulation finds).

use std::collections::BTreeSet;

use proptest::prelude::*;
use safari::diag::Diagnostics;
use safari::rules::safari_zone::Analysis;
use safari::rules::safari_zone::model::Game;
use safari::world::GameFolder;

/// One generated box: which earlier item it needs, which item it grants, its VP threshold.
#[derive(Debug, Clone)]
struct GenBox {
    face: &'static str,
    needs_item: Option<usize>,
    needs_vp: Option<u32>,
    gives_item: Option<usize>,
    vp: u32,
    bonus: bool,
}

#[derive(Debug, Clone)]
struct GenGuide {
    tracks: Vec<Vec<GenBox>>,
    items: usize,
}

/// Tracks in order; a box may only need items granted, and VP given, by earlier tracks, so
/// every box can be filled by construction.
fn guide() -> impl Strategy<Value = GenGuide> {
    let track = prop::collection::vec(
        (
            any::<bool>(),
            any::<bool>(),
            0u32..4,
            any::<bool>(),
            any::<bool>(),
            any::<bool>(),
        ),
        1..6,
    );
    prop::collection::vec(track, 1..9)
        .prop_flat_map(|raw| {
            let picks = raw.iter().map(|t| t.len()).sum::<usize>();
            (
                Just(raw),
                prop::collection::vec(any::<prop::sample::Index>(), picks * 2),
            )
        })
        .prop_map(|(raw, picks)| {
            let mut picks = picks.into_iter();
            let mut tracks = Vec::new();
            let mut granted_before: Vec<usize> = Vec::new();
            let mut vp_before = 0u32;
            let mut items = 0;
            for spec in raw {
                let mut track = Vec::new();
                let mut granted_here = Vec::new();
                let mut vp_here = 0;
                for (area, wants_item, vp, wants_vp, gives, bonus) in spec {
                    let pick_item = picks.next().unwrap();
                    let pick_vp = picks.next().unwrap();
                    let needs_item = (wants_item && !granted_before.is_empty())
                        .then(|| granted_before[pick_item.index(granted_before.len())]);
                    let needs_vp = (wants_vp && vp_before > 0)
                        .then(|| pick_vp.index(vp_before as usize) as u32 + 1);
                    let gives_item = gives.then(|| {
                        items += 1;
                        items - 1
                    });
                    granted_here.extend(gives_item);
                    vp_here += vp;
                    track.push(GenBox {
                        face: if area { "area" } else { "item" },
                        needs_item,
                        needs_vp,
                        gives_item,
                        vp,
                        bonus,
                    });
                }
                granted_before.extend(granted_here);
                vp_before += vp_here;
                tracks.push(track);
            }
            GenGuide { tracks, items }
        })
}

fn fixture_file(name: &str) -> String {
    std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/clean-tiny")
            .join(name),
    )
    .unwrap()
}

fn render(guide: &GenGuide) -> (String, String) {
    let mut kdl = String::from(
        "section \"turns\" fill=\"turn\" {\n    track \"turn-tracker\" { box shape=\"circle\" repeat=6 }\n}\n\
         section \"balls\" fill=\"ball\" {\n    track \"balls\" { box shape=\"ball\" repeat=4 }\n}\n\
         section \"gen\" {\n",
    );
    for (t, track) in guide.tracks.iter().enumerate() {
        kdl.push_str(&format!("    track \"t{t}\" {{\n"));
        for b in track {
            let mut line = format!("        box fill=\"dice:{}\" vp={}", b.face, b.vp);
            let needs: Vec<String> = b
                .needs_item
                .map(|i| format!("item:g{i}"))
                .into_iter()
                .chain(b.needs_vp.map(|v| format!("vp:{v}")))
                .collect();
            if !needs.is_empty() {
                line.push_str(&format!(" needs=\"{}\"", needs.join(", ")));
            }
            if let Some(i) = b.gives_item {
                line.push_str(&format!(" gives=\"item:g{i}\""));
            }
            if b.bonus {
                line.push_str(" style=\"bonus\"");
            }
            kdl.push_str(&line);
            kdl.push('\n');
        }
        kdl.push_str("    }\n");
    }
    kdl.push_str("}\n");
    let mut items = fixture_file("items.toml");
    for i in 0..guide.items {
        items.push_str(&format!(
            "\n[[item]]\nid = \"g{i}\"\nname = \"G{i}\"\nkind = \"passive\"\n"
        ));
    }
    (kdl, items)
}

fn load(guide: &GenGuide) -> Game {
    let (kdl, items) = render(guide);
    let mut folder = GameFolder::in_memory();
    folder.add_source("game.toml", fixture_file("game.toml"));
    folder.add_source("species.toml", fixture_file("species.toml"));
    folder.add_source("dice.toml", fixture_file("dice.toml"));
    folder.add_source(
        "deck.toml",
        "name = \"D\"\n[[card]]\nspecies = \"alpha\"\ncapture-rate = 9\nhabitats = \"[G]\"\n",
    );
    folder.add_source("items.toml", items);
    folder.add_source("field-guide.kdl", kdl.clone());
    let mut diagnostics = Diagnostics::default();
    let game =
        safari::rules::safari_zone::load::load(&mut folder, &mut diagnostics).expect("loads");
    assert!(
        diagnostics.is_empty(),
        "{kdl}\n{:?}",
        diagnostics.iter().collect::<Vec<_>>()
    );
    game
}

/// The naive reading: fill any box whose track and requirements allow, until nothing changes.
/// Returns (track, index) of the boxes never filled.
fn naive_unfillable(guide: &GenGuide) -> BTreeSet<(usize, usize)> {
    let mut filled: BTreeSet<(usize, usize)> = BTreeSet::new();
    loop {
        let mut changed = false;
        for (t, track) in guide.tracks.iter().enumerate() {
            for (i, b) in track.iter().enumerate() {
                if filled.contains(&(t, i)) || (i > 0 && !filled.contains(&(t, i - 1))) {
                    continue;
                }
                let has = |item: usize| {
                    filled
                        .iter()
                        .any(|(ft, fi)| guide.tracks[*ft][*fi].gives_item == Some(item))
                };
                let vp: u32 = filled
                    .iter()
                    .map(|(ft, fi)| guide.tracks[*ft][*fi].vp)
                    .sum();
                if b.needs_item.is_none_or(has) && b.needs_vp.is_none_or(|n| vp >= n) {
                    filled.insert((t, i));
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    let mut all = BTreeSet::new();
    for (t, track) in guide.tracks.iter().enumerate() {
        for i in 0..track.len() {
            if !filled.contains(&(t, i)) {
                all.insert((t, i));
            }
        }
    }
    all
}

fn checker_unreachable(game: &Game) -> BTreeSet<(usize, usize)> {
    let analysis = Analysis::of(game);
    analysis
        .unreachable_boxes(game)
        .into_iter()
        .map(|b| {
            let def = game.guide.get(b);
            let track = &game.guide.track(def.track).id;
            (track.trim_start_matches('t').parse().unwrap(), def.index)
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn guides_reachable_by_construction_have_no_unreachable_box(guide in guide()) {
        let game = load(&guide);
        prop_assert!(naive_unfillable(&guide).is_empty());
        prop_assert_eq!(checker_unreachable(&game), BTreeSet::new());
        let diagnostics = safari::rules::safari_zone::check(&game);
        prop_assert!(!diagnostics.iter().any(|d| d.code.as_str().starts_with("SZ04")));
    }

    #[test]
    fn deleting_the_only_grant_of_a_required_item_blocks_exactly_its_dependents(
        guide in guide(),
        which in any::<prop::sample::Index>(),
    ) {
        let required: Vec<usize> = guide.tracks.iter().flatten().filter_map(|b| b.needs_item).collect();
        prop_assume!(!required.is_empty());
        let item = required[which.index(required.len())];
        let mut broken = guide.clone();
        for b in broken.tracks.iter_mut().flatten() {
            if b.gives_item == Some(item) {
                b.gives_item = None;
            }
        }
        let expected = naive_unfillable(&broken);
        prop_assert!(!expected.is_empty());
        let game = load(&broken);
        prop_assert_eq!(checker_unreachable(&game), expected);
    }
}
