//! `check()`-style tests of reachability: a Field Guide written in KDL, over a tiny game's
//! other files, and what the checker makes of it as a designer would read it (the earliest turn
//! each box can be filled, or that it never can, and the reports), compared with the
//! expectation written beside it. `UPDATE_EXPECT=1 cargo test --release --lib reachability`
//! rewrites the expectations after an intended change.

use expect_test::{Expect, expect};

use crate::diag::Diagnostics;
use crate::safari_zone::graph::earliest_turns;
use crate::safari_zone::{Analysis, load};
use crate::world::GameFolder;

/// The tiny game's files besides its Field Guide: six turns, its dice, species `alpha`
/// (evolves to `beta`, then `gamma`) and `fish`, a deck with a card met only in the area `far`
/// (so every guide below has that track) and one caught only with the `rod`, and these items.
const GAME: &[(&str, &str)] = &[
    (
        "game.toml",
        include_str!("../../../../../tests/fixtures/clean-tiny/game.toml"),
    ),
    (
        "dice.toml",
        include_str!("../../../../../tests/fixtures/clean-tiny/dice.toml"),
    ),
    (
        "deck.toml",
        include_str!("../../../../../tests/fixtures/clean-tiny/deck.toml"),
    ),
    ("items.toml", ITEMS),
    (
        "species.toml",
        include_str!("../../../../../tests/fixtures/clean-tiny/species.toml"),
    ),
];

/// The tiny game's items, and a `lamp` that nothing in the frame gives.
const ITEMS: &str = r#"
[[item]]
id = "key"
name = "Gate Key"
kind = "passive"

[[item]]
id = "lamp"
name = "Lamp"
kind = "passive"

[[item]]
id = "rod"
name = "Rod"
kind = "passive"

[[item]]
id = "stone"
name = "Stone"
kind = "usable"
effect = "evolve"
"#;

/// What every guide below shares: the Turn Tracker, the Safari Balls and the Bag.
const FRAME: &str = r#"
sheet title="Test" columns=2
section "turns" title="Turns" fill="turn" {
    track "turn-tracker" {
        box shape="circle" repeat=6
    }
}
section "balls" title="Safari Balls" fill="ball" {
    track "balls" {
        box shape="ball" repeat=4
    }
}
section "bag" title="Bag" fill="dice:item" {
    track "gear" {
        box gives="item:rod"
        box style="bonus" gives="item:stone"
    }
}
"#;

/// Checks the Field Guide `FRAME` + `kdl` and describes, for each box outside the frame, the
/// earliest turn it can be filled on (a lower bound: the dice that show its face each turn,
/// and what it waits for) or that it never can, then each reachability report.
fn check(kdl: &str, expect: Expect) {
    let mut folder = GameFolder::in_memory();
    for (name, text) in GAME {
        folder.add_source(*name, *text);
    }
    folder.add_source("field-guide.kdl", format!("{FRAME}{kdl}"));
    let mut loading = Diagnostics::default();
    let game = load::load(&mut folder, &mut loading);
    let errors: Vec<&str> = loading
        .iter()
        .filter(|d| d.is_error())
        .map(|d| d.message.as_str())
        .collect();
    assert!(errors.is_empty(), "the game does not load: {errors:?}");
    let game = game.expect("the game loads");
    let analysis = Analysis::of(&game);
    let earliest = earliest_turns(&analysis.graph, &game, &analysis.reach);
    let frame = ["turns", "balls", "bag"];
    let mut described = String::new();
    for b in game.guide.box_ids() {
        let def = game.guide.get(b);
        if frame.contains(&game.guide.sections[def.section.index()].id.as_str()) {
            continue;
        }
        let node = analysis.graph.box_node[b.index()];
        let when = match earliest.turn[node.0 as usize] {
            Some(turn) => format!("turn {turn} at the earliest"),
            None => "never".to_string(),
        };
        described.push_str(&format!("{}: {when}\n", def.id));
    }
    let mut diagnostics = Diagnostics::default();
    super::check(&game, &analysis, &mut diagnostics);
    for d in diagnostics.iter() {
        described.push_str(&format!("{:?}: {}\n", d.code, d.message));
    }
    expect.assert_eq(&described);
}

#[test]
fn a_track_opens_box_by_box_and_a_key_opens_the_next() {
    check(
        r#"
section "areas" title="Areas" fill="dice:area" {
    track "start" {
        box vp=1
        box gives="item:key" vp=2
    }
    track "far" {
        box needs="item:key" vp=3
        box vp=2
    }
}
"#,
        expect![[r#"
            areas.start#1: turn 1 at the earliest
            areas.start#2: turn 1 at the earliest
            areas.far#1: turn 1 at the earliest
            areas.far#2: turn 1 at the earliest
        "#]],
    );
}

#[test]
fn a_long_track_fills_as_fast_as_the_dice_show_its_face() {
    check(
        r#"
section "areas" title="Areas" fill="dice:area" {
    track "far" {
        box repeat=6
    }
}
"#,
        expect![[r#"
            areas.far#1: turn 1 at the earliest
            areas.far#2: turn 1 at the earliest
            areas.far#3: turn 1 at the earliest
            areas.far#4: turn 1 at the earliest
            areas.far#5: turn 2 at the earliest
            areas.far#6: turn 2 at the earliest
        "#]],
    );
}

#[test]
fn a_key_given_only_behind_its_own_door_is_never_found() {
    check(
        r#"
section "areas" title="Areas" fill="dice:area" {
    track "far" {
        box needs="item:key"
        box
        box gives="item:key" vp=4
    }
}
"#,
        expect![[r#"
            areas.far#1: never
            areas.far#2: never
            areas.far#3: never
            ImpossibleLoop: impossible loop: `areas.far#1` -> item `key` -> `areas.far#3` -> `areas.far#1`
        "#]],
    );
}

#[test]
fn two_boxes_that_each_need_what_the_other_gives_are_one_loop() {
    check(
        r#"
section "areas" title="Areas" fill="dice:area" {
    track "east" {
        box needs="item:key" gives="item:lamp"
    }
    track "far" {
        box needs="item:lamp" gives="item:key"
    }
}
"#,
        expect![[r#"
            areas.east#1: never
            areas.far#1: never
            ImpossibleLoop: impossible loop: `areas.east#1` -> item `key` -> `areas.far#1` -> item `lamp` -> `areas.east#1`
        "#]],
    );
}

#[test]
fn a_victory_point_threshold_past_every_point_on_the_sheet_is_never_met() {
    check(
        r#"
section "areas" title="Areas" fill="dice:area" {
    track "start" {
        box vp=2
        box vp=3
    }
    track "far" {
        box needs="vp:6"
        box needs="vp:4"
    }
}
"#,
        expect![[r#"
            areas.start#1: turn 1 at the earliest
            areas.start#2: turn 1 at the earliest
            areas.far#1: never
            areas.far#2: never
            Unreachable: `areas.far#1` needs 6 VP, but all the boxes that can be filled give 5 VP together (1 blocked track, 1 dead card)
        "#]],
    );
}
