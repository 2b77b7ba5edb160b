//! The checker and the engine are two readings of one model (docs/rules.md, last section):
//! no box the checker calls unreachable is ever filled in play (on the fixtures and on
//! generated guides where items and species compete), and on the games without errors every
//! box it calls reachable is filled in some game of an exploring policy or, on the generated
//! guides, of one aiming at it.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use safari::rules::safari_zone::Analysis;
use safari::rules::safari_zone::engine::{self, Game, policy};
use safari::rules::safari_zone::ruleset;
use safari::world::GameFolder;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Games whose content is whole (it may still have reachability faults): the default game
/// and the fixtures whose only diagnostics are about reachability, cards or the budget.
fn playable() -> Vec<PathBuf> {
    let mut dirs = vec![root().join("content/safari-zone")];
    let mut fixtures: Vec<PathBuf> = std::fs::read_dir(root().join("tests/fixtures"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    fixtures.sort();
    dirs.extend(fixtures);
    dirs.retain(|dir| {
        let mut folder = GameFolder::open(dir).unwrap();
        let checked = safari::check(&mut folder);
        checked.game.is_some()
            && checked.diagnostics.iter().all(|d| {
                let code = d.code.as_str();
                code.starts_with("SZ04") || code.starts_with("SZ05") || code.starts_with("SZ06")
            })
    });
    dirs
}

/// The boxes the checker calls unreachable, the game's rules as the engine reads them from its
/// ruleset, and whether the checker's verdicts are exact (it tried every order of play).
fn verdicts_and_rules(
    game: &safari::rules::safari_zone::model::Game,
    folder: &GameFolder,
) -> (BTreeSet<String>, engine::Rules, bool) {
    let analysis = Analysis::of(game);
    let unreachable = analysis
        .unreachable_boxes(game)
        .into_iter()
        .map(|b| game.guide.get(b).id.clone())
        .collect();
    let bytes = serde_json::to_vec(&ruleset::build(game, &ruleset::content_hash(folder))).unwrap();
    (unreachable, engine::load(&bytes).unwrap(), analysis.exact)
}

/// The built-in policies, `search` at a small budget (any budget plays by the rules); without
/// it for the generated guides, where fitting its model to each of a hundred guides would
/// take most of the test's time.
fn policies(with_search: bool) -> Vec<&'static str> {
    policy::NAMES
        .iter()
        .filter_map(|name| match *name {
            "search" => with_search.then_some("search:2"),
            name => Some(name),
        })
        .collect()
}

/// Plays `games` games with each policy; returns the ids of boxes filled in any of them.
fn filled_in_play(rules: &engine::Rules, games: u64, policies: &[&str]) -> BTreeSet<String> {
    let mut filled = BTreeSet::new();
    for seed in 0..games {
        for name in policies {
            let mut policies = vec![policy::by_name(name).unwrap()];
            let mut game = Game::new(rules, 1, seed);
            game.play(&mut policies);
            for (b, on) in game.players[0].filled.iter().enumerate() {
                if *on {
                    filled.insert(rules.box_id(b).to_string());
                }
            }
        }
    }
    filled
}

#[test]
fn the_engine_never_fills_a_box_the_checker_calls_unreachable() {
    let dirs = playable();
    assert!(dirs.len() >= 8, "{dirs:?}");
    for dir in dirs {
        let mut folder = GameFolder::open(&dir).unwrap();
        let checked = safari::check(&mut folder);
        let game = checked.game.unwrap();
        let (unreachable, rules, exact) = verdicts_and_rules(&game, &folder);
        // The fixture games are small: the checker tries every order of play on each.
        assert!(exact, "{}: too large for the exact search", dir.display());
        let filled = filled_in_play(&rules, 300, &policies(true));
        let both: Vec<&String> = filled.intersection(&unreachable).collect();
        assert!(
            both.is_empty(),
            "{}: filled in play but unreachable: {both:?}",
            dir.display()
        );
        if checked
            .diagnostics
            .iter()
            .all(|d| !d.is_error() && d.code.as_str() != "SZ0601")
        {
            let reachable: BTreeSet<String> = game
                .guide
                .boxes
                .iter()
                .map(|b| b.id.clone())
                .filter(|id| !unreachable.contains(id))
                .collect();
            // A box the policies rarely fill is played for: the target policy aims at it.
            let mut filled = filled;
            let rare: Vec<String> = reachable.difference(&filled).cloned().collect();
            for id in rare {
                let target = format!("target:{id}");
                filled.extend(filled_in_play(&rules, 300, &[target.as_str()]));
            }
            let never: Vec<&String> = reachable.difference(&filled).collect();
            assert!(
                never.is_empty(),
                "{}: reachable but never filled: {never:?}",
                dir.display()
            );
        }
    }
}

/// A generated section for [`generated_guides_agree`]: tracks of boxes with causes, styles,
/// requirements and rewards drawn from the tiny game's names, so that items, species and
/// bounded events (an item obtained once, a species given by one box) compete.
fn section_kdl(index: usize, tracks: &[Vec<(usize, usize, usize, usize)>]) -> String {
    const FILLS: [&str; 8] = [
        "dice:area",
        "dice:item",
        "obtain:key",
        "obtain:stone",
        "collect:alpha",
        "collect:beta",
        "collect:gamma",
        "free",
    ];
    const NEEDS: [&str; 6] = [
        "",
        "item:key",
        "item:stone",
        "species:beta",
        "vp:6",
        "vp:60",
    ];
    const GIVES: [&str; 5] = [
        "",
        "item:key",
        "item:stone",
        "species:beta",
        "species:gamma",
    ];
    let mut out = format!("section \"gen-{index}\" title=\"Generated {index}\" {{\n");
    for (t, boxes) in tracks.iter().enumerate() {
        out.push_str(&format!("    track \"gen-{index}-{t}\" {{\n"));
        for (fill, trigger, need, give) in boxes {
            let fill = FILLS[fill % FILLS.len()];
            let style = match (fill, trigger % 2) {
                ("free", _) => " style=\"free\"".to_string(),
                (f, 1) if f.starts_with("obtain") || f.starts_with("collect") => {
                    " style=\"trigger\"".to_string()
                }
                _ => String::new(),
            };
            let fill = if fill == "free" {
                String::new()
            } else {
                format!(" fill=\"{fill}\"")
            };
            let need = match NEEDS[need % NEEDS.len()] {
                "" => String::new(),
                n => format!(" needs=\"{n}\""),
            };
            let give = match GIVES[give % GIVES.len()] {
                "" => String::new(),
                g => format!(" gives=\"{g}\""),
            };
            out.push_str(&format!("        box{style}{fill}{need}{give} vp=1\n"));
        }
        out.push_str("    }\n");
    }
    out + "}\n"
}

proptest::proptest! {
    // PROPTEST_CASES runs more (thousands, to look for new disagreements).
    #![proptest_config(proptest::prelude::ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(1000),
        ..Default::default()
    })]

    /// On generated guides: no box the checker calls unreachable (SZ0401, SZ0405, SZ0406, ...)
    /// is filled in any game of any policy, and every box it calls reachable is filled in some
    /// game, of a built-in policy or of one aiming at it (`target:BOX`).
    #[test]
    fn generated_guides_agree(
        sections in proptest::collection::vec(
            proptest::collection::vec(
                proptest::collection::vec((0usize..8, 0usize..2, 0usize..6, 0usize..5), 1..4),
                1..4,
            ),
            1..4,
        )
    ) {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
            "agreement-{}",
            std::thread::current().name().unwrap_or("main").replace("::", "-")
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let tiny = root().join("tests/fixtures/clean-tiny");
        for name in ["game.toml", "items.toml", "species.toml", "dice.toml", "deck.toml"] {
            std::fs::copy(tiny.join(name), dir.join(name)).unwrap();
        }
        // Time enough that a box reachable at all is filled in some game of a player aiming
        // at it: 40 turns, 30 Safari Balls.
        let guide = std::fs::read_to_string(tiny.join("field-guide.kdl"))
            .unwrap()
            .replacen("shape=\"circle\" repeat=6", "shape=\"circle\" repeat=40", 1)
            .replacen("shape=\"ball\" repeat=4", "shape=\"ball\" repeat=30", 1);
        let generated: String = sections
            .iter()
            .enumerate()
            .map(|(i, tracks)| section_kdl(i, tracks))
            .collect();
        std::fs::write(dir.join("field-guide.kdl"), guide + "\n" + &generated).unwrap();
        // Generous paper: the layout is not what this test is about.
        let manifest = std::fs::read_to_string(dir.join("game.toml")).unwrap();
        let manifest = manifest
            .replacen("turns = 6", "turns = 40", 1)
            .replacen("safari-balls = 4", "safari-balls = 30", 1);
        std::fs::write(
            dir.join("game.toml"),
            manifest + "\n[print]\npaper = { width-mm = 2000, height-mm = 2000 }\n",
        )
        .unwrap();

        let mut folder = GameFolder::open(&dir).unwrap();
        let checked = safari::check(&mut folder);
        let Some(game) = checked.game else { return Ok(()) };
        let whole = checked.diagnostics.iter().all(|d| {
            let code = d.code.as_str();
            code.starts_with("SZ04") || code.starts_with("SZ05") || code.starts_with("SZ06")
                || !d.is_error()
        });
        if !whole {
            return Ok(());
        }

        let (unreachable, rules, exact) = verdicts_and_rules(&game, &folder);
        let filled = filled_in_play(&rules, 40, &policies(false));
        let both: Vec<&String> = filled.intersection(&unreachable).collect();
        proptest::prop_assert!(
            both.is_empty(),
            "filled in play but unreachable: {:?}\n{}",
            both,
            generated
        );

        // And the other way: every box the checker calls reachable is filled by a player
        // playing for it, when no turn budget stands in the way. Turn Tracker and Safari Ball
        // boxes are left out: they count turns and throws, which a player plays for by
        // making the game last, not by any fill.
        // Where the guide is too large to try every order of play, the checker is the
        // fixpoint alone, which may call reachable a box no order fills (never the reverse):
        // this direction is promised where the search ran (a rare dense guide here).
        if !exact || checked.diagnostics.iter().any(|d| d.code.as_str() == "SZ0601") {
            return Ok(());
        }
        let never: Vec<&String> = rules
            .box_ids
            .iter()
            .enumerate()
            .filter(|(b, _)| !rules.turn_boxes.contains(b) && !rules.ball_boxes.contains(b))
            .map(|(_, id)| id)
            .filter(|id| !unreachable.contains(*id) && !filled.contains(*id))
            .filter(|id| !filled_aiming_at(&rules, id, 100))
            .collect();
        proptest::prop_assert!(
            never.is_empty(),
            "reachable but never filled, even aiming at it: {:?}\n{}",
            never,
            generated
        );
    }
}

/// Whether a player playing `target:BOX` fills the box in one of `games` games.
fn filled_aiming_at(rules: &engine::Rules, id: &str, games: u64) -> bool {
    let b = rules.box_ids.iter().position(|b| b == id).unwrap();
    // One policy for every game: it plans once per ruleset.
    let mut policies = vec![policy::by_name(&format!("target:{id}")).unwrap()];
    (0..games).any(|seed| {
        let mut game = Game::new(rules, 1, seed);
        game.play(&mut policies);
        game.players[0].filled[b]
    })
}
