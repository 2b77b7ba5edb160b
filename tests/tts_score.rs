//! The peer games' score at the Tabletop Simulator table, held to the engines: positions the
//! engine reaches in games its bots play are set out on the table in the Lua stand-in (each
//! card, tile and token where the engine has it), the game's "count the score" button is
//! clicked, and what it says in the chat (each seat's score, and who wins once the game is
//! over) is what the engine says of the same position.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use mlua::{Function, LuaSerdeExt, Table};
use safari_engine::family::any;
use serde_json::{Value, json};

use crate::tts_lua::{Tabletop, set_out};

const COLOURS: [&str; 8] = [
    "White", "Red", "Yellow", "Green", "Blue", "Orange", "Purple", "Pink",
];

fn game(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("content")
        .join(name)
}

/// What the score button says: each colour's score, and the winners when it says the game
/// is over.
#[derive(Debug, PartialEq)]
struct Said {
    scores: BTreeMap<String, i64>,
    winners: Option<BTreeSet<String>>,
}

/// The colours in "White, Red and Yellow".
fn colours_in(text: &str) -> BTreeSet<String> {
    text.replace(" and ", ", ")
        .split(", ")
        .map(|c| c.trim().to_string())
        .filter(|c| COLOURS.contains(&c.as_str()))
        .collect()
}

fn read_said(line: &str) -> Said {
    let (_, rest) = line.split_once(": ").expect("a score line");
    let (counts, ending) = rest.split_once(". ").expect("scores, then the ending");
    let scores = counts
        .split(", ")
        .map(|part| {
            let (colour, score) = part.rsplit_once(' ').expect("a colour and a score");
            (colour.to_string(), score.parse().expect("a score"))
        })
        .collect();
    let winners = ending
        .split_once("the game is over")
        .and_then(|(_, rest)| rest.split_once(", and "))
        .map(|(_, who)| {
            let who = who.split(" wins").next().unwrap();
            colours_in(who.split(" (tied").next().unwrap())
        });
    Said { scores, winners }
}

impl Tabletop {
    /// Sets out `position` (the stand-in's `Stand.arrange`); every piece it names is found.
    fn arrange(&self, position: &Value) {
        let lua = &self.stand.lua;
        let stand: Table = lua.globals().get("Stand").unwrap();
        let arrange: Function = stand.get("arrange").unwrap();
        let missing: Vec<String> = arrange
            .call::<Table>(lua.to_value(position).unwrap())
            .unwrap()
            .sequence_values()
            .map(Result::unwrap)
            .collect();
        assert!(missing.is_empty(), "not on the table: {missing:?}");
    }

    /// Clicks the score block's button as White; what it said.
    fn count_the_score(&self) -> Said {
        let (_, env, block) = self
            .scripts
            .iter()
            .find(|(name, _, _)| name.ends_with("count the score"))
            .expect("a score block");
        let before = self.stand.chat().len();
        assert!(self.click(env, block, "Count the", "White"));
        let chat = self.stand.chat();
        assert_eq!(chat.len(), before + 1, "one line: {:?}", &chat[before..]);
        read_said(chat.last().unwrap())
    }

    fn engine(&self, players: usize, seed: u64) -> Box<dyn any::Game> {
        self.engine_with(players, seed, &[])
    }

    fn engine_with(&self, players: usize, seed: u64, variants: &[String]) -> Box<dyn any::Game> {
        let bytes = serde_json::to_vec(&self.ruleset).unwrap();
        let rules = any::open(&bytes, variants).unwrap();
        rules
            .session(vec![Some("random".to_string()); players], seed, &json!([]))
            .unwrap()
    }
}

/// What the engine says of its game now, as the score button would say it.
fn engine_says(game: &dyn any::Game, scores: Vec<i64>) -> Said {
    Said {
        scores: scores
            .into_iter()
            .enumerate()
            .map(|(seat, score)| (COLOURS[seat].to_string(), score))
            .collect(),
        winners: game.outcome().map(|outcome| {
            outcome
                .winners
                .iter()
                .map(|&seat| COLOURS[seat].to_string())
                .collect()
        }),
    }
}

/// Plays `game` by its bots, calling `look` between turns (as `look` picks them) and at the
/// end; how many positions were looked at.
fn play(
    game: &mut dyn any::Game,
    at_rest: &dyn Fn(&Value) -> bool,
    look: &mut dyn FnMut(&dyn any::Game),
) -> usize {
    let mut looked = 0;
    let mut steps = 0;
    while game.to_move().is_some() {
        game.bot_step().expect("a bot to move");
        steps += 1;
        let view = game.view(None);
        if (steps % 7 == 0 && at_rest(&view)) || game.outcome().is_some() {
            look(game);
            looked += 1;
        }
        assert!(steps < 20_000, "the game ends");
    }
    looked
}

/// Gamewright's Safari: the hands in the hand zones, the jungle face down and face up as the
/// engine has it (a Safari Charlie where one was played), the card set aside for five players
/// beside it. The score button scores each hand as the engine does, and once the jungle is
/// all face up (or the last Safari Charlie is down) names the winners the engine names.
#[test]
fn gamewright_safaris_score_at_the_table_is_the_engines() {
    let dir = game("gamewright-safari");
    let mut looked = 0;
    let mut over = 0;
    for players in 2..=5usize {
        let table = set_out(&dir, &|_| {});
        table.choose_players(players as u32);
        let removed: Vec<String> = table.ruleset["rules"]["setups"][players.to_string()]["removed"]
            .as_array()
            .unwrap()
            .iter()
            .map(|id| id.as_str().unwrap().to_string())
            .collect();
        for seed in 0..3u64 {
            let mut game = table.engine(players, seed);
            looked += play(
                game.as_mut(),
                &|view| view["holding"].is_null(),
                &mut |game| {
                    let view = game.view(None);
                    let card = |c: &Value| json!({ "deck": "animals", "card": c["id"] });
                    let mut hands = serde_json::Map::new();
                    for (seat, hand) in view["hands"].as_array().unwrap().iter().enumerate() {
                        let cards: Vec<Value> =
                            hand["cards"].as_array().unwrap().iter().map(card).collect();
                        hands.insert(COLOURS[seat].to_string(), json!(cards));
                    }
                    let columns = view["columns"].as_u64().unwrap() as usize;
                    let mut lying = Vec::new();
                    for (cell, at) in view["jungle"].as_array().unwrap().iter().enumerate() {
                        let spot = json!([
                            (cell % columns) as f64 * 2.6,
                            1.0,
                            -((cell / columns) as f64) * 3.6
                        ]);
                        let (what, face_down) = match at["face"].as_str().unwrap() {
                            "down" => (card(&at["card"]), true),
                            "up" => (card(&at["card"]), false),
                            "charlie" => (json!({ "deck": "safari-charlie" }), false),
                            _ => continue,
                        };
                        lying.push(json!({ "what": what, "at": spot, "face_down": face_down }));
                    }
                    for (n, id) in removed.iter().enumerate() {
                        lying.push(json!({
                            "what": { "deck": "animals", "card": id },
                            "at": [-10.0 - 3.0 * n as f64, 1.0, 0.0],
                            "face_down": false,
                        }));
                    }
                    table.arrange(&json!({ "hands": hands, "table": lying }));
                    let scores = view["hands"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|h| h["score"].as_i64().unwrap())
                        .collect();
                    let expected = engine_says(game, scores);
                    over += expected.winners.is_some() as usize;
                    assert_eq!(
                        table.count_the_score(),
                        expected,
                        "{players} players, seed {seed}, turn {}",
                        view["turns"]
                    );
                },
            );
        }
    }
    eprintln!("Gamewright's Safari: {looked} positions, {over} ends");
    assert!(
        looked >= 40 && over == 12,
        "{looked} positions, {over} ends"
    );
}

/// DiceAFARI: the engine's map laid out on the table (each tile of its terrain where the map
/// card puts it, a Travel Token of its holder's colour on each claimed tile, the photos still
/// on the map between their tiles), the photos taken in their takers' hands. The score button
/// counts every seat's score as the engine does, and names the winner once every tile is held.
/// Played as the base game, and with the scoring variants (Wetlands, Exclusive Coverage) in
/// the ruleset the table carries.
#[test]
fn diceafaris_score_at_the_table_is_the_engines() {
    let (looked, over) = diceafari_against_the_engine(&[]);
    eprintln!("DiceAFARI: {looked} positions, {over} ends");
    assert!(looked >= 20 && over == 9, "{looked} positions, {over} ends");
    let variants = ["wetlands", "exclusive-coverage"].map(String::from);
    let (looked, over) = diceafari_against_the_engine(&variants);
    eprintln!("DiceAFARI with {variants:?}: {looked} positions, {over} ends");
    assert!(looked >= 20 && over == 9, "{looked} positions, {over} ends");
}

/// The ruleset the table carries with `variants` applied to its rules, as the engine applies
/// them (each variant's patch merged into `rules`).
fn with_variants(objects: &mut [Value], variants: &[String]) {
    fn merge(into: &mut Value, patch: &Value) {
        match (into, patch) {
            (Value::Object(into), Value::Object(patch)) => {
                for (key, value) in patch {
                    merge(into.entry(key.clone()).or_insert(Value::Null), value);
                }
            }
            (into, patch) => *into = patch.clone(),
        }
    }
    for object in objects.iter_mut() {
        if !object["Nickname"]
            .as_str()
            .unwrap_or_default()
            .ends_with(" ruleset")
        {
            continue;
        }
        let mut ruleset: Value =
            serde_json::from_str(object["LuaScriptState"].as_str().unwrap()).unwrap();
        for variant in variants {
            let patch = ruleset["rules"]["variants"][variant].clone();
            assert!(patch.is_object(), "no variant {variant}");
            merge(&mut ruleset["rules"], &patch);
        }
        object["LuaScriptState"] = json!(ruleset.to_string());
    }
}

/// Positions of DiceAFARI games the engine's bots play with `variants`, each scored at the
/// table: how many, and how many were ends.
fn diceafari_against_the_engine(variants: &[String]) -> (usize, usize) {
    let dir = game("diceafari");
    let mut looked = 0;
    let mut over = 0;
    for players in 2..=4usize {
        let table = set_out(&dir, &|objects| with_variants(objects, variants));
        if players != 2 {
            table.choose_players(players as u32);
        }
        let rules = &table.ruleset["rules"];
        let tokens = table.ruleset["tokens"].as_array().unwrap();
        let set = |id: &Value| {
            tokens
                .iter()
                .chain(table.ruleset["tiles"].as_array().unwrap())
                .find(|s| s["id"] == *id)
                .unwrap()
                .clone()
        };
        let tile_set = set(&rules["tiles"]);
        let step = tile_set["size_mm"].as_f64().unwrap() / 25.4 * 1.04;
        let travel: Vec<String> = set(&rules["travel"])["kinds"]
            .as_array()
            .unwrap()
            .iter()
            .map(|k| k["symbol"].as_str().unwrap().to_string())
            .collect();
        for seed in 0..3u64 {
            let mut game = table.engine_with(players, seed, variants);
            looked += play(
                game.as_mut(),
                &|view| view["phase"] == "rolling",
                &mut |game| {
                    let view = game.view(None);
                    let spot = |tile: &Value| {
                        (
                            tile["column"].as_f64().unwrap() * step,
                            -tile["row"].as_f64().unwrap() * step,
                        )
                    };
                    let tiles = view["tiles"].as_array().unwrap();
                    let mut lying = Vec::new();
                    for tile in tiles {
                        let (x, z) = spot(tile);
                        lying.push(json!({ "what": { "set": rules["tiles"], "kind": tile["terrain"] }, "at": [x, 1.0, z] }));
                        if let Some(owner) = tile["owner"].as_u64() {
                            lying.push(json!({
                                "what": { "set": rules["travel"], "kind": travel[owner as usize] },
                                "at": [x, 1.2, z],
                            }));
                        }
                    }
                    for space in view["spaces"].as_array().unwrap() {
                        let Some(animal) = space["photo"].as_str() else {
                            continue;
                        };
                        let between = space["between"].as_array().unwrap();
                        let (a, b) = (
                            spot(&tiles[between[0].as_u64().unwrap() as usize]),
                            spot(&tiles[between[1].as_u64().unwrap() as usize]),
                        );
                        lying.push(json!({
                            "what": { "set": rules["photos"], "kind": animal },
                            "at": [(a.0 + b.0) / 2.0, 1.3, (a.1 + b.1) / 2.0],
                            "face_down": true,
                        }));
                    }
                    let mut hands = serde_json::Map::new();
                    let mut scores = Vec::new();
                    for (seat, held) in view["seats"].as_array().unwrap().iter().enumerate() {
                        let photos: Vec<Value> = held["photos"]
                            .as_array()
                            .unwrap()
                            .iter()
                            .map(|animal| json!({ "set": rules["photos"], "kind": animal }))
                            .collect();
                        hands.insert(COLOURS[seat].to_string(), json!(photos));
                        scores.push(held["score"].as_i64().unwrap());
                    }
                    table.arrange(&json!({ "hands": hands, "table": lying }));
                    let mut expected = engine_says(game, scores);
                    // Every tile held, the game ends once every player has had their turns,
                    // which the table does not count: it names who leads.
                    if expected.winners.is_none() && tiles.iter().all(|t| t["owner"].is_u64()) {
                        let best = *expected.scores.values().max().unwrap();
                        expected.winners = Some(
                            expected
                                .scores
                                .iter()
                                .filter(|(_, s)| **s == best)
                                .map(|(c, _)| c.clone())
                                .collect(),
                        );
                    }
                    let said = table.count_the_score();
                    // The rulebook's tie-break is who played last, which the table does not
                    // show: with a tie for the lead, the table names all the tied.
                    if let (Some(winners), Some(named)) = (&mut expected.winners, &said.winners) {
                        let best = expected.scores.values().max().unwrap();
                        let tied: BTreeSet<String> = expected
                            .scores
                            .iter()
                            .filter(|(_, s)| *s == best)
                            .map(|(c, _)| c.clone())
                            .collect();
                        if tied.len() > 1 {
                            assert!(winners.is_subset(named));
                            *winners = tied;
                        }
                    }
                    over += game.outcome().is_some() as usize;
                    assert_eq!(
                        said, expected,
                        "{players} players, seed {seed}, turn {}",
                        view["turn"]
                    );
                },
            );
        }
    }
    (looked, over)
}

/// Tricky Safari: each player's photo log ticked by its buttons as the engine's game went
/// (the animals each has photographed, a circle per move), the score button counts each one's
/// photos and names the winner the engine names once someone has every animal or every move is
/// played.
#[test]
fn tricky_safaris_score_at_the_table_is_the_engines() {
    let dir = game("tricky-safari");
    let table = set_out(&dir, &|_| {});
    let mut looked = 0;
    let mut over = 0;
    let label = |id: &str| {
        table.ruleset["symbols"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["id"] == id)
            .map(|s| s["label"].as_str().unwrap().to_string())
            .unwrap()
    };
    let logs: Vec<(Table, Table)> = (0..2)
        .map(|seat| {
            let (_, env, o) = table
                .scripts
                .iter()
                .find(|(name, _, _)| *name == format!("Photo Log: {}", COLOURS[seat]))
                .expect("a photo log at each seat");
            (env.clone(), o.clone())
        })
        .collect();
    for seed in 0..6u64 {
        let mut game = table.engine(2, seed);
        looked += play(game.as_mut(), &|_| true, &mut |game| {
            let view = game.view(None);
            for (seat, (env, log)) in logs.iter().enumerate() {
                // Clear the log, then tick what the engine's seat has.
                let ticked: Vec<usize> = table
                    .labels(log)
                    .iter()
                    .enumerate()
                    .filter(|(_, l)| *l == "X")
                    .map(|(n, _)| n + 1)
                    .collect();
                for n in ticked {
                    assert!(table.click(env, log, n, COLOURS[seat]));
                }
                let tooltips: Vec<String> = table
                    .buttons(log)
                    .iter()
                    .map(|b| b.get::<String>("tooltip").unwrap())
                    .collect();
                let tick = |tooltip: &str| {
                    let n = tooltips
                        .iter()
                        .position(|t| t == tooltip)
                        .unwrap_or_else(|| panic!("no box {tooltip:?} in {tooltips:?}"));
                    assert!(table.click(env, log, n + 1, COLOURS[seat]));
                };
                for animal in view["animals"].as_array().unwrap() {
                    let by = animal["photographed_by"].as_array().unwrap();
                    if by.iter().any(|s| s.as_u64() == Some(seat as u64)) {
                        let piece = table.ruleset["pieces"][0]["pieces"]
                            .as_array()
                            .unwrap()
                            .iter()
                            .find(|p| p["id"] == animal["id"])
                            .unwrap();
                        tick(&label(piece["symbol"].as_str().unwrap()));
                    }
                }
                let moves_boxes: Vec<String> = tooltips
                    .iter()
                    .filter(|t| t.starts_with("moves"))
                    .cloned()
                    .collect();
                for m in moves_boxes
                    .iter()
                    .take(view["moves"][seat].as_u64().unwrap() as usize)
                {
                    tick(m);
                }
            }
            let scores = view["photos"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p.as_i64().unwrap())
                .collect();
            let expected = engine_says(game, scores);
            over += expected.winners.is_some() as usize;
            assert_eq!(
                table.count_the_score(),
                expected,
                "seed {seed}, moves {}",
                view["moves"]
            );
        });
    }
    eprintln!("Tricky Safari: {looked} positions, {over} ends");
    assert!(looked >= 12 && over == 6, "{looked} positions, {over} ends");
}

/// A photo log keeps its ticks through a save and a load: what its script saves, loaded again,
/// shows the same boxes ticked.
#[test]
fn a_photo_log_keeps_its_ticks_through_a_save_and_a_load() {
    let table = set_out(&game("tricky-safari"), &|_| {});
    let (_, env, log) = table
        .scripts
        .iter()
        .find(|(name, _, _)| name.starts_with("Photo Log"))
        .expect("a photo log");
    for n in [1, 3, 12] {
        assert!(table.click(env, log, n, "White"));
    }
    let ticked = |labels: Vec<String>| -> Vec<usize> {
        labels
            .iter()
            .enumerate()
            .filter(|(_, l)| *l == "X")
            .map(|(n, _)| n + 1)
            .collect()
    };
    assert_eq!(ticked(table.labels(log)), vec![1, 3, 12]);
    let saved: String = env.get::<Function>("onSave").unwrap().call(()).unwrap();
    env.get::<Function>("onLoad")
        .unwrap()
        .call::<()>(saved)
        .unwrap();
    assert_eq!(ticked(table.labels(log)), vec![1, 3, 12]);
    // A second click clears a tick.
    assert!(table.click(env, log, 3, "White"));
    assert_eq!(ticked(table.labels(log)), vec![1, 12]);
}
