//! The checker and the engine are two readings of one model (docs/rules.md, last section):
//! no box the checker calls unreachable is ever filled in play, and every box it calls
//! reachable is filled in some game of an exploring policy.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use safari::backends::ruleset;
use safari::engine::{self, Game, policy};
use safari::rules::safari_zone::Analysis;
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

/// Plays `games` games with each policy; returns the ids of boxes filled in any of them.
fn filled_in_play(rules: &engine::Rules, games: u64) -> BTreeSet<String> {
    let mut filled = BTreeSet::new();
    for seed in 0..games {
        for name in policy::NAMES {
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
        let analysis = Analysis::of(&game);
        let unreachable: BTreeSet<String> = analysis
            .unreachable_boxes(&game)
            .into_iter()
            .map(|b| game.guide.get(b).id.clone())
            .collect();
        let bytes =
            serde_json::to_vec(&ruleset::build(&game, &ruleset::content_hash(&folder))).unwrap();
        let rules = engine::load(&bytes).unwrap();
        let filled = filled_in_play(&rules, 300);
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
            let never: Vec<&String> = reachable.difference(&filled).collect();
            assert!(
                never.is_empty(),
                "{}: reachable but never filled: {never:?}",
                dir.display()
            );
        }
    }
}
