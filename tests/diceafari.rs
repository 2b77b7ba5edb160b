//! DiceAFARI played by its engine from the ruleset the compiler writes: the rulebook's route
//! shapes and Bonus, reclaiming, photos, the scoring of sets and its optional rules, the end
//! and the tie-break, hidden photos, seeded play, and the checker and the engine agreeing on
//! which tiles the dice can claim and which Bonus Die faces are ever earned.

use std::collections::BTreeSet;
use std::path::Path;

use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;
use safari::world::GameFolder;
use safari_engine::family::bots::Bot;
use safari_engine::family::diceafari::{Action, Game, Table, Tiles};
use safari_engine::family::{Play, Start, any};
use serde_json::{Value, json};

const PACK: &str = "content/diceafari";

fn pack_ruleset() -> Value {
    let mut folder = GameFolder::open(&Path::new(env!("CARGO_MANIFEST_DIR")).join(PACK)).unwrap();
    let checked = safari::check(&mut folder);
    assert!(!checked.diagnostics.has_errors());
    let table = checked.table.unwrap();
    let module = safari::rules::module(&table.manifest.rules.value).unwrap();
    serde_json::from_str(&safari::backends::table::ruleset::text(&table, module)).unwrap()
}

/// The pack's ruleset played on a map of these rows (`X` a tile, `.` none).
fn on_map(rows: &[&str]) -> Value {
    let mut ruleset = pack_ruleset();
    let mut tiles = Vec::new();
    for (r, row) in rows.iter().enumerate() {
        for (c, ch) in row.chars().enumerate() {
            if ch == 'X' {
                tiles.push((c, r));
            }
        }
    }
    let mut spaces = Vec::new();
    for &(c, r) in &tiles {
        for next in [(c + 1, r), (c, r + 1)] {
            if tiles.contains(&next) {
                spaces.push(json!([[c, r], [next.0, next.1]]));
            }
        }
    }
    let layout = json!({ "card": "test", "tiles": tiles.iter().map(|&(c, r)| json!([c, r])).collect::<Vec<_>>(), "photo_spaces": spaces });
    ruleset["rules"]["map_layouts"]
        .as_array_mut()
        .unwrap()
        .push(layout);
    ruleset["rules"]["map"] = json!("test");
    ruleset
}

fn game(ruleset: &Value, variants: &[&str]) -> Game {
    let variants: Vec<String> = variants.iter().map(|v| v.to_string()).collect();
    Game::read(ruleset.to_string().as_bytes(), &variants).unwrap()
}

/// The table at its first decision with every tile of terrain 0 and the dice as given: each
/// entry a terrain index (or `None` for a face of no terrain on the map).
fn table_with(game: &Game, dice: &[u8], bonus: Option<u32>) -> Table {
    let mut table = game.start(2, 1).unwrap();
    for tile in 0..table.map().cells.len() {
        table.set_terrain(tile, 0);
    }
    let faces: Vec<u8> = dice
        .iter()
        .map(|&terrain| {
            game.rules
                .dice_faces
                .iter()
                .position(|(_, t)| *t == Some(terrain))
                .unwrap() as u8
        })
        .collect();
    table.set_dice(&faces, bonus);
    table
}

/// A tile's index by its cell name.
fn tile(table: &Table, name: &str) -> u32 {
    let map = table.map();
    (0..map.cells.len() as u8)
        .find(|&t| map.cell_name(t) == name)
        .unwrap_or_else(|| panic!("no tile {name}")) as u32
}

fn tiles(table: &Table, names: &[&str]) -> Tiles {
    Tiles(names.iter().fold(0, |m, n| m | (1 << tile(table, n))))
}

fn legal(table: &Table) -> Vec<Action> {
    let mut out = Vec::new();
    table.legal(&mut out);
    out
}

fn claims(table: &Table) -> BTreeSet<u64> {
    legal(table)
        .into_iter()
        .filter_map(|a| match a {
            Action::Claim { tiles } => Some(tiles.0),
            _ => None,
        })
        .collect()
}

#[test]
fn a_turn_claims_tiles_of_one_route_a_line_or_a_square_that_hang_together() {
    let game = game(&on_map(&["XXXX", "XXXX", "XXXX", "XXXX"]), &[]);
    let table = table_with(&game, &[0, 0, 0, 0], None);
    let legal = claims(&table);
    let yes: &[&[&str]] = &[
        &["a1", "b1", "c1", "d1"],
        &["b1", "b2", "b3", "b4"],
        &["b2", "c2", "b3", "c3"],
        &["a1", "b1"],
        &["a1", "a2"],
        &["b2", "c2", "d2"],
        &["a1", "b1", "a2"],
        &["c3"],
    ];
    let no: &[&[&str]] = &[
        // diagonal, a gap, a T, an S, an L of four, five in a row is no route
        &["a1", "b2"],
        &["a1", "c1"],
        &["a1", "b1", "c1", "b2"],
        &["b1", "c1", "a2", "b2"],
        &["a1", "a2", "a3", "b3"],
        &["a1", "d1"],
    ];
    for names in yes {
        assert!(
            legal.contains(&tiles(&table, names).0),
            "{names:?} should be claimable"
        );
    }
    for names in no {
        assert!(
            !legal.contains(&tiles(&table, names).0),
            "{names:?} is no route"
        );
    }
    // 16 single tiles, 24 pairs, 16 lines of three, 36 threes of a square, 8 lines of four,
    // 9 squares.
    let by_size = |n: u32| legal.iter().filter(|c| c.count_ones() == n).count();
    assert_eq!(
        [by_size(1), by_size(2), by_size(3), by_size(4)],
        [16, 24, 16 + 36, 8 + 9]
    );
}

#[test]
fn each_tile_takes_a_die_of_its_terrain_and_a_turn_needs_two() {
    let game = game(&on_map(&["XXXX"]), &[]);
    // Two dice show the tiles' terrain: pairs, and single tiles, may be claimed.
    let table = table_with(&game, &[0, 0, 1, 2], None);
    let offered = claims(&table);
    assert!(offered.iter().all(|c| c.count_ones() <= 2));
    assert!(offered.contains(&tiles(&table, &["a1", "b1"]).0));
    assert!(offered.contains(&tiles(&table, &["c1"]).0));
    // One die only: no two tiles can be claimed, so none is, and the dice are rolled again.
    let table = table_with(&game, &[0, 1, 1, 2], None);
    assert!(claims(&table).is_empty());
    let actions = legal(&table);
    assert!(!actions.is_empty() && actions.iter().all(|a| matches!(a, Action::Reroll { .. })));
    // Re-rolls: dice showing one face are alike, so 4 dice of faces 0, 1, 1, 2 offer
    // 2 * 3 * 2 - 1 = 11 choices, not 15.
    assert_eq!(actions.len(), 11);
}

#[test]
fn the_bonus_is_earned_by_claiming_exactly_its_number_and_takes_a_tile_never_claimed() {
    let game = game(&on_map(&["XXXX", "XXXX", ".X.."]), &[]);
    let mut table = table_with(&game, &[0, 0, 0, 0], Some(2));
    let seat = table.to_move().unwrap();
    let other = 1 - seat;
    table.set_owner(tile(&table, "d2") as usize, Some(other));
    table.apply(Action::Claim {
        tiles: tiles(&table, &["a1", "b1"]),
    });
    let bonus: Vec<u8> = legal(&table)
        .into_iter()
        .map(|a| match a {
            Action::Bonus { tile } => tile,
            other => panic!("{other:?} offered when the Bonus is to be claimed"),
        })
        .collect();
    // Any tile without a token, on a route or not (b3 is on none); never d2, never a1.
    assert_eq!(bonus.len(), 9 - 3);
    assert!(bonus.contains(&(tile(&table, "b3") as u8)));
    assert!(!bonus.contains(&(tile(&table, "d2") as u8)));
    table.apply(Action::Bonus {
        tile: tile(&table, "b3") as u8,
    });
    assert_eq!(table.owners()[tile(&table, "b3") as usize], Some(seat));
    // Three tiles with the Bonus Die at 2 earn nothing.
    let mut table = table_with(&game, &[0, 0, 0, 0], Some(2));
    table.apply(Action::Claim {
        tiles: tiles(&table, &["a1", "b1", "c1"]),
    });
    assert!(
        legal(&table)
            .iter()
            .all(|a| !matches!(a, Action::Bonus { .. }))
    );
}

#[test]
fn reclaiming_replaces_another_players_token_and_keeps_ones_own_which_counts_for_the_bonus() {
    let game = game(&on_map(&["XXXX", "XXXX"]), &[]);
    let mut table = table_with(&game, &[0, 0, 0, 0], Some(3));
    let seat = table.to_move().unwrap();
    let other = 1 - seat;
    table.set_owner(tile(&table, "a1") as usize, Some(seat));
    table.set_owner(tile(&table, "b1") as usize, Some(other));
    let supply = |t: &Table, s: usize| t.view(None)["seats"][s]["supply"].as_u64().unwrap();
    let (mine, theirs) = (supply(&table, seat), supply(&table, other));
    table.apply(Action::Claim {
        tiles: tiles(&table, &["a1", "b1", "c1"]),
    });
    let owners = table.owners();
    for name in ["a1", "b1", "c1"] {
        assert_eq!(owners[tile(&table, name) as usize], Some(seat), "{name}");
    }
    // b1 and c1 took two of the claimer's tokens; b1's came back to its owner.
    assert_eq!(supply(&table, seat), mine - 2);
    assert_eq!(supply(&table, other), theirs + 1);
    // Three tiles, one of them already its own, meet the Bonus Die's 3.
    assert!(
        legal(&table)
            .iter()
            .all(|a| matches!(a, Action::Bonus { .. }))
    );
}

#[test]
fn a_photo_between_two_of_ones_tokens_may_be_taken_at_the_end_of_the_turn() {
    let game = game(&on_map(&["XXX", "XXX"]), &[]);
    let mut table = table_with(&game, &[0, 0, 0, 0], None);
    let seat = table.to_move().unwrap();
    table.apply(Action::Claim {
        tiles: tiles(&table, &["a1", "b1"]),
    });
    let map = table.map().clone();
    let between = |a: &str, b: &str| {
        let (a, b) = (tile(&table, a) as u8, tile(&table, b) as u8);
        map.spaces
            .iter()
            .position(|&s| s == (a.min(b), a.max(b)))
            .unwrap() as u8
    };
    assert_eq!(
        legal(&table),
        vec![
            Action::Photo {
                space: between("a1", "b1")
            },
            Action::NoPhoto
        ]
    );
    let space = between("a1", "b1");
    let animal = table.view(None)["spaces"][space as usize]["photo"].clone();
    table.apply(Action::Photo { space });
    assert_eq!(table.view(None)["seats"][seat]["photos"], json!([animal]));
    assert_eq!(
        table.view(None)["spaces"][space as usize]["photo"],
        Value::Null
    );
    assert_ne!(
        table.to_move(),
        Some(seat),
        "one photo a turn, then the turn ends"
    );
}

#[test]
fn photos_group_into_the_sets_that_score_most() {
    let game = game(&pack_ruleset(), &[]);
    let points = |counts: [u32; 4]| game.rules.photo_points(&counts);
    assert_eq!(points([1, 1, 1, 1]), 10, "a Tourist Set");
    assert_eq!(points([3, 0, 0, 0]), 5, "a Researcher Set");
    assert_eq!(
        points([5, 0, 0, 0]),
        5 + 3 + 3,
        "a Researcher Set and two more"
    );
    assert_eq!(points([2, 1, 0, 0]), 3, "singles");
    // Four lions and one of each other animal: a Tourist Set and a Researcher Set (15)
    // score more than a Researcher Set with an extra and three singles (11).
    assert_eq!(points([4, 1, 1, 1]), 15);
    assert_eq!(points([2, 2, 2, 2]), 20, "two Tourist Sets");
    assert_eq!(points([0, 0, 0, 0]), 0);
}

#[test]
fn at_the_end_photos_owed_are_collected_tokens_score_and_the_optional_rules_add_theirs() {
    // Two tiles side by side, a route of two: a photo between them.
    let mut ruleset = on_map(&["XX"]);
    ruleset["rules"]["turn"]["route"]["tiles"] = json!(2);
    let plain = game(&ruleset, &[]);
    let mut table = plain.start(2, 1).unwrap();
    table.set_owner(0, Some(0));
    table.set_owner(1, Some(0));
    // One photo owed (1 point as a single) and two tokens on the map.
    assert_eq!(table.scores(), vec![1 + 2, 0]);
    let terrain =
        |id: &str, game: &Game| game.rules.terrains.iter().position(|t| t == id).unwrap() as u8;
    // Wetlands: the holder of the wetter tile takes the photo; equally wet, nobody does.
    let wet = game(&ruleset, &["wetlands"]);
    let mut table = wet.start(2, 1).unwrap();
    table.set_terrain(0, terrain("desert", &wet));
    table.set_terrain(1, terrain("marsh", &wet));
    table.set_owner(0, Some(0));
    table.set_owner(1, Some(1));
    assert_eq!(table.scores(), vec![1, 1 + 1]);
    table.set_terrain(0, terrain("marsh", &wet));
    assert_eq!(table.scores(), vec![1, 1]);
    let mut table = plain.start(2, 1).unwrap();
    table.set_terrain(0, terrain("desert", &plain));
    table.set_terrain(1, terrain("marsh", &plain));
    table.set_owner(0, Some(0));
    table.set_owner(1, Some(1));
    assert_eq!(
        table.scores(),
        vec![1, 1],
        "no Wetlands: the photo is nobody's"
    );
    // Exclusive Coverage: every tile of a terrain on the map.
    let exclusive = game(&ruleset, &["exclusive-coverage"]);
    let mut table = exclusive.start(2, 1).unwrap();
    table.set_terrain(0, terrain("desert", &exclusive));
    table.set_terrain(1, terrain("marsh", &exclusive));
    table.set_owner(0, Some(0));
    table.set_owner(1, Some(1));
    assert_eq!(table.scores(), vec![1 + 5, 1 + 5]);
    table.set_terrain(0, terrain("marsh", &exclusive));
    assert_eq!(
        table.scores(),
        vec![1, 1],
        "the marsh is shared: nobody has it all"
    );
}

/// Plays a game to its end with `bot` at every seat.
fn play_out(game: &Game, players: usize, seed: u64, bot: Bot) -> (Table, Vec<Value>) {
    let mut table = game.start(players, seed).unwrap();
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut views = vec![table.view(None)];
    while table.to_move().is_some() {
        let action = bot.choose(&table, &mut rng);
        table.apply(action);
        views.push(table.view(None));
        assert!(views.len() < 100_000, "a game ran past 100,000 actions");
    }
    (table, views)
}

#[test]
fn the_game_ends_when_every_tile_is_claimed_and_everyone_has_had_three_turns() {
    let game = game(&pack_ruleset(), &[]);
    for players in 2..=4 {
        for seed in 0..40 {
            let (table, views) = play_out(&game, players, seed, Bot::Random);
            let outcome = table.outcome().unwrap();
            assert_eq!(outcome.reason, "every_tile_claimed");
            let end = views.last().unwrap();
            assert!(
                end["tiles"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .all(|t| !t["owner"].is_null())
            );
            for seat in end["seats"].as_array().unwrap() {
                assert!(seat["turns"].as_u64().unwrap() >= 3, "{seat}");
            }
            // Once every tile is claimed no Bonus Die is rolled (overtime).
            for view in &views {
                if view["overtime"] == json!(true) && view["phase"] == json!("rolling") {
                    assert_eq!(view["bonus"], Value::Null);
                }
            }
            // A tie goes to the seat whose last turn was least recent.
            let turns = end["turn"].as_u64().unwrap() as usize;
            let first = end["first"].as_u64().unwrap() as usize;
            let last_turn = |seat: usize| (0..turns).rev().find(|i| (first + i) % players == seat);
            let best = *outcome.scores.iter().max().unwrap();
            let tied: Vec<usize> = (0..players)
                .filter(|&s| outcome.scores[s] == best)
                .collect();
            let expected = tied.iter().copied().min_by_key(|&s| last_turn(s)).unwrap();
            assert_eq!(
                outcome.winners,
                vec![expected],
                "seed {seed}: {:?}",
                outcome.scores
            );
        }
    }
}

#[test]
fn with_photo_surprise_a_photo_is_seen_by_its_taker_alone() {
    let game = game(&on_map(&["XXX", "XXX"]), &["photo-surprise"]);
    let mut table = table_with(&game, &[0, 0, 0, 0], None);
    let seat = table.to_move().unwrap();
    let other = 1 - seat;
    for space in table.view(Some(other))["spaces"].as_array().unwrap() {
        assert_eq!(space["photo"], json!("down"));
    }
    table.apply(Action::Claim {
        tiles: tiles(&table, &["a1", "b1"]),
    });
    let photo = legal(&table)[0];
    let says = table.describe(photo);
    assert!(says.contains("face-down"), "{says}");
    table.apply(photo);
    assert_eq!(
        table.view(Some(other))["seats"][seat]["photos"],
        json!([null])
    );
    assert!(table.view(Some(seat))["seats"][seat]["photos"][0].is_string());
    assert_eq!(table.view(Some(other))["seats"][seat]["score"], Value::Null);
    // The search bot plays on tables redrawn from what its seat has seen.
    let mut rng = Pcg64Mcg::seed_from_u64(3);
    let redrawn = table.determinise(other, &mut rng);
    assert_eq!(redrawn.view(Some(other)), table.view(Some(other)));
}

#[test]
fn a_seed_and_its_actions_give_the_same_game_and_a_log_replays_it() {
    let bytes = pack_ruleset().to_string();
    for variants in [
        vec![],
        vec!["photo-surprise".to_string(), "wetlands".to_string()],
    ] {
        let rules = any::open(bytes.as_bytes(), &variants).unwrap();
        for seed in 0..20 {
            let bots = vec![Some("random".to_string()), Some("greedy".to_string())];
            let mut game = rules.session(bots.clone(), seed, &json!([])).unwrap();
            while game.bot_step().is_some() {}
            let log = game.log();
            let again = rules.session(bots, seed, &log).unwrap();
            assert_eq!(again.view(None), game.view(None));
            assert!(game.outcome().is_some());
        }
    }
    // The first player is drawn by the dice, and every seat starts some games.
    let game = game(&pack_ruleset(), &[]);
    let firsts: BTreeSet<u64> = (0..60)
        .map(|seed| {
            game.start(3, seed).unwrap().view(None)["first"]
                .as_u64()
                .unwrap()
        })
        .collect();
    assert_eq!(firsts.len(), 3);
}

#[test]
fn each_map_card_can_be_chosen_and_every_map_plays_to_an_end() {
    let ruleset = pack_ruleset();
    let cards: Vec<String> = ruleset["decks"][0]["cards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["id"].as_str().unwrap().to_string())
        .collect();
    for card in &cards {
        let game = game(&ruleset, &[&format!("map:{card}")]);
        for seed in 0..5 {
            let (table, _) = play_out(&game, 3, seed, Bot::Greedy);
            assert_eq!(table.map().card, *card);
            assert_eq!(table.outcome().unwrap().reason, "every_tile_claimed");
        }
    }
}

#[test]
fn greedy_beats_random_and_search_holds_its_own_against_greedy() {
    let game = game(&pack_ruleset(), &[]);
    let greedy = crate::common::win_share(&game, "greedy", "random", 100);
    assert!(greedy >= 0.8, "greedy won {greedy} against random");
    let search = crate::common::win_share(&game, "search", "greedy", 30);
    assert!(search >= 0.4, "search won {search} against greedy");
}

/// The cells a checker message lists after its last colon.
fn listed_cells(message: &str) -> BTreeSet<String> {
    message
        .rsplit(": ")
        .next()
        .unwrap()
        .split(", ")
        .map(str::to_string)
        .collect()
}

/// Over generated maps the checker's tiles on no route (SZ1102, SZ1108) are the engine's, the
/// dice claim no other tile, and every tile on a route is claimed by the dice in some game; a
/// map the checker finds too big for the tiles or tokens (SZ1101) the engine refuses to lay,
/// and one with a tile nothing claims (SZ1108), whose games never end, it refuses to read.
#[test]
fn the_checker_and_the_engine_agree_on_which_tiles_the_dice_claim() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(PACK);
    let manifest = std::fs::read_to_string(dir.join("game.toml")).unwrap();
    let components = std::fs::read_to_string(dir.join("components.toml")).unwrap();
    // The maps without their template, which the checks do not need.
    let maps_text = std::fs::read_to_string(dir.join("maps.toml"))
        .unwrap()
        .replace("front = \"map-front.typ\"\n", "");
    let cards_at = maps_text.find("[[deck.card]]").unwrap();
    let mut rng = Pcg64Mcg::seed_from_u64(5);
    let (mut stranded_maps, mut oversize, mut never_ends, mut faults) = (0, 0, 0, Vec::new());
    for variant in 0..40 {
        let (columns, rows) = (rng.random_range(2..7usize), rng.random_range(2..6usize));
        let density = [0.55, 0.75, 0.9][variant % 3];
        let layout: Vec<String> = (0..rows)
            .map(|_| {
                (0..columns)
                    .map(|_| if rng.random_bool(density) { 'X' } else { '.' })
                    .collect()
            })
            .collect();
        if !layout.iter().any(|r| r.contains('X')) {
            continue;
        }
        let card = format!(
            "[[deck.card]]\nid = \"generated\"\ntitle = \"Generated\"\nlayout = [{}]\n",
            layout
                .iter()
                .map(|r| format!("\"{r}\""))
                .collect::<Vec<_>>()
                .join(", ")
        );
        let mut folder = GameFolder::in_memory();
        folder.add_source("game.toml".to_string(), manifest.clone());
        folder.add_source("components.toml".to_string(), components.clone());
        folder.add_source(
            "maps.toml".to_string(),
            format!("{}{card}", &maps_text[..cards_at]),
        );
        let checked = safari::check(&mut folder);
        let codes: Vec<String> = checked
            .diagnostics
            .iter()
            .map(|d| d.code.to_string())
            .collect();
        assert!(
            codes
                .iter()
                .all(|c| ["SZ1102", "SZ1101", "SZ1108"].contains(&c.as_str())),
            "variant {variant} {layout:?}: {:?}",
            checked
                .diagnostics
                .iter()
                .map(|d| d.message.clone())
                .collect::<Vec<_>>()
        );
        let table = checked.table.as_ref().unwrap();
        let module = safari::rules::module(&table.manifest.rules.value).unwrap();
        let ruleset = safari::backends::table::ruleset::text(table, module);
        let read = Game::read(ruleset.as_bytes(), &["map:generated".to_string()]);
        if codes.iter().any(|c| c == "SZ1108") {
            // A tile nothing claims: the engine refuses the map, whose games never end.
            match read {
                Err(e) if e.path.starts_with("rules.map_layouts[") => never_ends += 1,
                other => faults.push(format!(
                    "variant {variant} {layout:?}: SZ1108, yet the engine says {:?}",
                    other.err()
                )),
            }
            continue;
        }
        let game = match read {
            Ok(game) => game,
            Err(e) => {
                faults.push(format!("variant {variant} {layout:?}: the checker passes the map, the engine refuses it: {e}"));
                continue;
            }
        };
        let checker_stranded: BTreeSet<String> = checked
            .diagnostics
            .iter()
            .filter(|d| ["SZ1102", "SZ1108"].contains(&d.code.to_string().as_str()))
            .flat_map(|d| listed_cells(&d.message))
            .collect();
        let started = game.start(2, 1);
        let too_big = codes.iter().any(|c| c == "SZ1101");
        if too_big != started.is_err() {
            faults.push(format!(
                "variant {variant}: the checker says {codes:?}, the engine {:?}",
                started.as_ref().err()
            ));
        }
        let Ok(first) = started else {
            oversize += 1;
            continue;
        };
        let map = first.map().clone();
        let engine_stranded: BTreeSet<String> = (0..map.cells.len() as u8)
            .filter(|&t| map.on_route & (1 << t) == 0)
            .map(|t| map.cell_name(t))
            .collect();
        if engine_stranded != checker_stranded {
            faults.push(format!("variant {variant} {layout:?}: tiles on no route, checker {checker_stranded:?}, engine {engine_stranded:?}"));
        }
        stranded_maps += usize::from(!engine_stranded.is_empty());
        // Which tiles the dice claim, over games.
        let mut by_dice = 0u64;
        for seed in 0..20 {
            let mut table = game.start(2, seed).unwrap();
            let mut rng = Pcg64Mcg::seed_from_u64(seed);
            while table.to_move().is_some() {
                let action = Bot::Random.choose(&table, &mut rng);
                if let Action::Claim { tiles } = action {
                    by_dice |= tiles.0;
                }
                table.apply(action);
            }
        }
        if by_dice & !map.on_route != 0 {
            faults.push(format!(
                "variant {variant}: the dice claimed a tile on no route"
            ));
        }
        if by_dice != map.on_route {
            faults.push(format!("variant {variant} {layout:?}: some tile on a route was never claimed by the dice in 20 games"));
        }
    }
    assert!(faults.is_empty(), "{}", faults.join("\n"));
    assert!(
        stranded_maps > 0 && oversize > 0 && never_ends > 0,
        "{stranded_maps} maps with stranded tiles, {oversize} too big, {never_ends} never ending: the corpus lacks a case"
    );
}

/// The checker's Bonus Die faces never earned (SZ1106, SZ1105) are never earned in play, over
/// generated dice and routes, and those it passes are earned in some game.
#[test]
fn the_checker_and_the_engine_agree_on_which_bonus_faces_are_earned() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(PACK);
    let manifest = std::fs::read_to_string(dir.join("game.toml")).unwrap();
    let components = std::fs::read_to_string(dir.join("components.toml")).unwrap();
    let maps = std::fs::read_to_string(dir.join("maps.toml"))
        .unwrap()
        .replace("front = \"map-front.typ\"\n", "");
    let mut rng = Pcg64Mcg::seed_from_u64(9);
    let (mut unearned_faces, mut earned_faces, mut faults) = (0, 0, Vec::new());
    for variant in 0..16 {
        let dice = rng.random_range(2..=5u32);
        let route = [3u32, 4][variant % 2];
        let faces: Vec<u32> = (0..6).map(|_| rng.random_range(1..=6)).collect();
        let text = components
            .replace(
                "count = 4\nfaces = [\"scrubland\"",
                &format!("count = {dice}\nfaces = [\"scrubland\""),
            )
            .replace("faces = [1, 2, 2, 3, 3, 4]", &format!("faces = {faces:?}"));
        let mut folder = GameFolder::in_memory();
        folder.add_source(
            "game.toml".to_string(),
            manifest.replace("[play]\n", &format!("[play]\nroute = {route}\n")),
        );
        folder.add_source("components.toml".to_string(), text);
        folder.add_source("maps.toml".to_string(), maps.clone());
        let checked = safari::check(&mut folder);
        let Some(table) = checked
            .table
            .as_ref()
            .filter(|_| !checked.diagnostics.has_errors())
        else {
            // A route beyond every map is refused; so is a stranded tile no Bonus claims.
            continue;
        };
        // Faces never earned: above the most a turn claims. The checker warns of them (SZ1106
        // beyond a route, SZ1105 beyond the dice), and of none when there are none.
        let never: BTreeSet<u32> = faces
            .iter()
            .copied()
            .filter(|&n| n > dice.min(route))
            .collect();
        let warned = |code: &str| {
            checked
                .diagnostics
                .iter()
                .any(|d| d.code.to_string() == code)
        };
        let beyond_route = faces.iter().any(|&n| n > route);
        let beyond_dice = faces.iter().any(|&n| n > dice && n <= route);
        if warned("SZ1106") != beyond_route || (beyond_dice && !warned("SZ1105")) {
            faults.push(format!("variant {variant}: {dice} dice, route {route}, faces {faces:?}: the checker warns {:?}", checked.diagnostics.iter().map(|d| d.code.to_string()).collect::<Vec<_>>()));
        }
        let module = safari::rules::module(&table.manifest.rules.value).unwrap();
        let ruleset = safari::backends::table::ruleset::text(table, module);
        let game = Game::read(ruleset.as_bytes(), &[]).unwrap();
        // Players who meet the Bonus Die's number whenever a claim of that size is offered.
        let mut earned = BTreeSet::new();
        for seed in 0..40 {
            let mut table = game.start(2, seed).unwrap();
            let mut rng = Pcg64Mcg::seed_from_u64(seed);
            while table.to_move().is_some() {
                let bonus = table.dice().1;
                let meets = legal(&table).into_iter().find(
                    |a| matches!(a, Action::Claim { tiles } if Some(tiles.0.count_ones()) == bonus),
                );
                let action = meets.unwrap_or_else(|| Bot::Random.choose(&table, &mut rng));
                table.apply(action);
            }
            earned.extend(
                table
                    .used()
                    .into_iter()
                    .filter_map(|u| u.strip_prefix("bonus:").map(|n| n.parse::<u32>().unwrap())),
            );
        }
        for n in faces.iter().copied().collect::<BTreeSet<_>>() {
            match (never.contains(&n), earned.contains(&n)) {
                (true, true) => faults.push(format!("variant {variant}: the Bonus Die's {n} was earned, which the checker calls impossible")),
                (true, false) => unearned_faces += 1,
                (false, true) => earned_faces += 1,
                (false, false) => faults.push(format!("variant {variant}: {dice} dice, route {route}: the {n} the checker passes was never earned in 40 games")),
            }
        }
    }
    assert!(faults.is_empty(), "{}", faults.join("\n"));
    assert!(
        unearned_faces > 0 && earned_faces > 0,
        "{unearned_faces} unearned, {earned_faces} earned"
    );
}

/// The pack's ruleset with its Safari Dice's and Bonus Die's faces replaced.
fn with_faces(mut ruleset: Value, safari: Option<Value>, bonus: Option<Value>) -> Value {
    for die in ruleset["dice"].as_array_mut().unwrap() {
        let faces = match die["id"].as_str().unwrap() {
            "safari-dice" => &safari,
            _ => &bonus,
        };
        if let Some(faces) = faces {
            die["faces"] = faces.clone();
        }
    }
    ruleset
}

/// Rules under which no game can end by the rules, each refused at the field that makes it
/// so; the same rules are played when the game does not wait for every tile to be claimed.
#[test]
fn rules_under_which_no_game_can_end_are_refused_at_their_field() {
    let pack = pack_ruleset;
    let set = |mut ruleset: Value, path: &[&str], value: Value| {
        let mut at = &mut ruleset["rules"];
        for key in path {
            at = &mut at[*key];
        }
        *at = value;
        ruleset
    };
    let no_bonus = || Some(json!([6, 6, 6, 6, 6, 6]));
    let square = on_map(&["XXXX", "XXXX", "XXXX", "XXXX"]);
    let cases: Vec<(&str, Value, &str)> = vec![
        (
            "a route of no tiles",
            set(pack(), &["turn", "route", "tiles"], json!(0)),
            "rules.turn.route.tiles",
        ),
        (
            "a route shorter than a claim",
            set(pack(), &["turn", "route", "tiles"], json!(1)),
            "rules.turn.route.tiles",
        ),
        (
            "a claim needs 41 tiles",
            set(pack(), &["turn", "claim", "needs_claimable"], json!(41)),
            "rules.turn.claim.needs_claimable",
        ),
        (
            "no route shape",
            set(pack(), &["turn", "route", "shapes"], json!([])),
            "rules.turn.route.shapes",
        ),
        (
            "only squares, of 3 tiles",
            set(
                set(pack(), &["turn", "route", "shapes"], json!(["square"])),
                &["turn", "route", "tiles"],
                json!(3),
            ),
            "rules.turn.route.shapes",
        ),
        (
            "one Safari Die",
            {
                let mut r = pack();
                r["dice"][0]["count"] = json!(1);
                r
            },
            "rules.dice",
        ),
        (
            "no face shows a terrain",
            with_faces(pack(), Some(json!(["a", "b", "c", "d", "e", "f"])), None),
            "rules.dice",
        ),
        (
            "every turn",
            set(pack(), &["end", "min_turns"], json!(5000)),
            "rules.end.min_turns",
        ),
        (
            "a map with no route",
            on_map(&["XXX"]),
            "rules.map_layouts[5]",
        ),
        (
            "a tile on no route, no Bonus",
            with_faces(on_map(&["XXXX", "X..."]), None, no_bonus()),
            "rules.map_layouts[5]",
        ),
        (
            "a terrain no die shows, laid every game, no Bonus",
            with_faces(
                square.clone(),
                Some(json!([
                    "scrubland",
                    "jungle",
                    "desert",
                    "mountain",
                    "savanna",
                    "desert"
                ])),
                no_bonus(),
            ),
            "rules.dice",
        ),
        (
            "fewer Travel Tokens than tiles",
            {
                let mut r = pack();
                for kind in r["tokens"][1]["kinds"].as_array_mut().unwrap() {
                    kind["count"] = json!(5);
                }
                r
            },
            "rules.travel",
        ),
    ];
    assert_eq!(pack()["tokens"][1]["id"], "travel-tokens");
    assert_eq!(pack()["dice"][0]["id"], "safari-dice");
    for (case, ruleset, path) in cases {
        let error = match Game::read(ruleset.to_string().as_bytes(), &[]) {
            Err(error) => error,
            Ok(_) => panic!("{case}: read"),
        };
        assert_eq!(error.path, path, "{case}: {error}");
        assert!(
            error.message.contains("could end by its rules")
                || error.message.contains("past the engine's limit"),
            "{case}: {error}"
        );
        // A game that does not wait for every tile ends after its turns, claims or not.
        if path != "rules.end.min_turns" {
            let ends_by_turns = set(ruleset, &["end", "every_tile_claimed"], json!(false));
            let game = game(&ends_by_turns, &[]);
            let (table, _) = play_out(&game, 2, 1, Bot::Random);
            assert_eq!(
                table.outcome().unwrap().reason,
                "every_tile_claimed",
                "{case}"
            );
        }
    }
    // What can still end is read: a terrain no die shows but a Bonus may claim; one only
    // some games lay on the map; the most turns that fit the limit (4 players, 2,500 each).
    for (case, ruleset) in [
        (
            "a Bonus claims what no die shows",
            with_faces(
                square.clone(),
                Some(json!([
                    "scrubland",
                    "jungle",
                    "desert",
                    "mountain",
                    "savanna",
                    "desert"
                ])),
                None,
            ),
        ),
        (
            "some games set every marsh aside",
            with_faces(
                on_map(&["XXXXX", "XXXXX", "XXXXX"]),
                Some(json!([
                    "scrubland",
                    "jungle",
                    "desert",
                    "mountain",
                    "savanna",
                    "desert"
                ])),
                no_bonus(),
            ),
        ),
        (
            "2,500 turns each",
            set(pack(), &["end", "min_turns"], json!(2500)),
        ),
    ] {
        assert!(
            Game::read(ruleset.to_string().as_bytes(), &[]).is_ok(),
            "{case}"
        );
    }
}

/// Over generated dice, routes, Bonus Dice and Travel Tokens, the rules the engine refuses as
/// never ending are content the checker refuses (SZ1103, SZ1104, SZ1107, SZ1108), and content
/// it refuses because no turn claims (SZ1104) or a tile is never claimed (SZ1108) the engine
/// refuses too: checker and engine agree on which games can end.
#[test]
fn the_checker_and_the_engine_agree_on_which_games_can_end() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(PACK);
    let manifest = std::fs::read_to_string(dir.join("game.toml")).unwrap();
    let components = std::fs::read_to_string(dir.join("components.toml")).unwrap();
    let maps = std::fs::read_to_string(dir.join("maps.toml"))
        .unwrap()
        .replace("front = \"map-front.typ\"\n", "");
    let mut rng = Pcg64Mcg::seed_from_u64(11);
    let (mut refused, mut played, mut faults) = (0, 0, Vec::new());
    for variant in 0..48 {
        let dice = rng.random_range(1..=4u32);
        let route = rng.random_range(1..=6u32);
        let bonus: Vec<u32> = (0..6).map(|_| rng.random_range(1..=9)).collect();
        let tokens = [6u32, 10, 18][variant % 3];
        let terrains = if rng.random_bool(0.3) {
            "faces = [\"scrubland\", \"jungle\", \"desert\", \"mountain\", \"savanna\", \"desert\"]"
        } else {
            "faces = [\"scrubland\", \"jungle\", \"desert\", \"mountain\", \"savanna\", \"marsh\"]"
        };
        let text = components
            .replace(
                "count = 4\nfaces = [\"scrubland\", \"jungle\", \"desert\", \"mountain\", \"savanna\", \"marsh\"]",
                &format!("count = {dice}\n{terrains}"),
            )
            .replace("faces = [1, 2, 2, 3, 3, 4]", &format!("faces = {bonus:?}"))
            .replace("count = 18 }", &format!("count = {tokens} }}"));
        let mut folder = GameFolder::in_memory();
        folder.add_source(
            "game.toml".to_string(),
            manifest.replace("[play]\n", &format!("[play]\nroute = {route}\n")),
        );
        folder.add_source("components.toml".to_string(), text);
        folder.add_source("maps.toml".to_string(), maps.clone());
        let checked = safari::check(&mut folder);
        let errors: BTreeSet<String> = checked
            .diagnostics
            .iter()
            .filter(|d| d.severity == safari::diag::Severity::Error)
            .map(|d| d.code.to_string())
            .collect();
        let table = checked.table.as_ref().unwrap();
        let module = safari::rules::module(&table.manifest.rules.value).unwrap();
        let ruleset = safari::backends::table::ruleset::text(table, module);
        let read = Game::read(ruleset.as_bytes(), &[]);
        let engine_refuses = read
            .as_ref()
            .err()
            .is_some_and(|e| e.message.contains("could end by its rules"));
        let content_refused = ["SZ1103", "SZ1104", "SZ1107", "SZ1108"]
            .iter()
            .any(|c| errors.contains(*c));
        let never_claims = errors.contains("SZ1104") || errors.contains("SZ1108");
        let case = format!(
            "variant {variant}: {dice} dice, route {route}, Bonus Die {bonus:?}, {tokens} tokens, {terrains}"
        );
        if engine_refuses && !content_refused {
            faults.push(format!(
                "{case}: the engine refuses what the checker passes: {:?}",
                read.as_ref().err()
            ));
        }
        if never_claims && !engine_refuses {
            faults.push(format!(
                "{case}: the checker says {errors:?}, the engine {:?}",
                read.as_ref().err()
            ));
        }
        if engine_refuses {
            refused += 1;
        } else if read.is_ok() {
            played += 1;
        }
    }
    assert!(faults.is_empty(), "{}", faults.join("\n"));
    assert!(
        refused > 0 && played > 0,
        "{refused} refused, {played} read"
    );
}

/// Content past what the engine plays (a route of more than 9 tiles; a map with more ways for
/// a turn to claim than it tries a roll against) is refused by the checker (SZ0005) as the
/// engine refuses its ruleset, in the engine's words.
#[test]
fn the_checker_refuses_maps_and_routes_the_engine_does_not_play() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(PACK);
    let manifest = std::fs::read_to_string(dir.join("game.toml")).unwrap();
    let components = std::fs::read_to_string(dir.join("components.toml")).unwrap();
    let maps = std::fs::read_to_string(dir.join("maps.toml"))
        .unwrap()
        .replace("front = \"map-front.typ\"\n", "");
    let cards_at = maps.find("[[deck.card]]").unwrap();
    let big = format!(
        "{}[[deck.card]]\nid = \"big\"\ntitle = \"Big\"\nlayout = [{}]\n",
        &maps[..cards_at],
        ["\"XXXXXXXX\""; 8].join(", ")
    );
    for (case, route, dice, maps, says) in [
        (
            "a route of 10 tiles",
            10,
            4,
            maps.clone(),
            "routes of at most 9 tiles",
        ),
        (
            "squares of 9 tiles on 8 by 8",
            9,
            8,
            big,
            "maps of at most 2,000",
        ),
    ] {
        let mut folder = GameFolder::in_memory();
        folder.add_source(
            "game.toml".to_string(),
            manifest.replace("[play]\n", &format!("[play]\nroute = {route}\n")),
        );
        folder.add_source(
            "components.toml".to_string(),
            components.replace(
                "count = 4\nfaces = [\"scrubland\"",
                &format!("count = {dice}\nfaces = [\"scrubland\""),
            ),
        );
        folder.add_source("maps.toml".to_string(), maps);
        let checked = safari::check(&mut folder);
        let limit: Vec<&safari::diag::Diagnostic> = checked
            .diagnostics
            .iter()
            .filter(|d| d.code.to_string() == "SZ0005")
            .collect();
        assert_eq!(
            limit.len(),
            1,
            "{case}: {:?}",
            checked
                .diagnostics
                .iter()
                .map(|d| &d.message)
                .collect::<Vec<_>>()
        );
        assert!(
            limit[0].message.contains(says),
            "{case}: {}",
            limit[0].message
        );
        let table = checked.table.as_ref().unwrap();
        let module = safari::rules::module(&table.manifest.rules.value).unwrap();
        let ruleset = safari::backends::table::ruleset::text(table, module);
        let refused = Game::read(ruleset.as_bytes(), &[]).err().unwrap();
        assert!(refused.message.contains(says), "{case}: {refused}");
    }
}

/// `safari sim` on DiceAFARI with its optional rules, and `safari diff` of two versions, as a
/// designer runs them.
#[test]
fn sim_plays_the_game_with_its_optional_rules_and_diff_compares_two_versions() {
    let out = std::env::temp_dir().join(format!("safari-diceafari-sim-{}", std::process::id()));
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_safari"))
        .args([
            "sim",
            PACK,
            "--games",
            "100",
            "--policy",
            "random,greedy",
            "--players",
            "3",
        ])
        .args([
            "--variant",
            "wetlands",
            "--variant",
            "exclusive-coverage",
            "--variant",
            "map:lion",
            "--out",
        ])
        .arg(&out)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{text}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    for line in [
        "DiceAFARI (wetlands, exclusive-coverage, map:lion), 3 players",
        "greedy, greedy, greedy: 100 games",
        "every tile claimed",
    ] {
        assert!(text.contains(line), "no `{line}` in:\n{text}");
    }
    // Only the lion map was played: the others are named as never used.
    assert!(text.contains("map:elephant"), "{text}");
    // diff: a copy whose Tourist Set scores twice as much moves the scores.
    let copy = out.join("copy");
    std::fs::create_dir_all(copy.join("templates")).unwrap();
    for file in [
        "game.toml",
        "components.toml",
        "maps.toml",
        "templates/map-front.typ",
    ] {
        std::fs::copy(
            Path::new(env!("CARGO_MANIFEST_DIR")).join(PACK).join(file),
            copy.join(file),
        )
        .unwrap();
    }
    let manifest = std::fs::read_to_string(copy.join("game.toml")).unwrap();
    assert!(manifest.contains("tourist-set = 10"));
    std::fs::write(
        copy.join("game.toml"),
        manifest.replace("tourist-set = 10", "tourist-set = 20"),
    )
    .unwrap();
    let diff = std::process::Command::new(env!("CARGO_BIN_EXE_safari"))
        .args(["diff", PACK])
        .arg(&copy)
        .args(["--games", "100", "--policy", "greedy"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    crate::common::assert_diff_compares_two_versions(&diff);
    let _ = std::fs::remove_dir_all(&out);
}

/// A die the designer added that no rule rolls is named by `sim`, which never says that every
/// component played a part; the pack as it is names none.
#[test]
fn sim_names_a_die_no_rule_rolls() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("diceafari-unread");
    let _ = std::fs::remove_dir_all(&out);
    let sim = |folder: &str| {
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_safari"))
            .arg("sim")
            .arg(root.join(folder))
            .args(["--games", "20", "--policy", "greedy", "--out"])
            .arg(&out)
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&output.stdout).into_owned();
        assert_eq!(
            output.status.code(),
            Some(0),
            "{said}{}",
            String::from_utf8_lossy(&output.stderr)
        );
        said.split_whitespace().collect::<Vec<_>>().join(" ")
    };
    let said = sim("tests/fixtures/sz0319-weather-die-never-rolled");
    assert!(
        said.contains("The Weather Die is in the game but no rule reads it"),
        "{said}"
    );
    assert!(!said.contains("Every component played a part"), "{said}");
    let report: Value = serde_json::from_slice(
        &std::fs::read(out.join("diceafari/sim/report.json")).expect("sim writes its report"),
    )
    .unwrap();
    assert_eq!(report["unread"], json!(["Weather Die"]));
    let said = sim("content/diceafari");
    assert!(!said.contains("no rule reads"), "{said}");
    let _ = std::fs::remove_dir_all(&out);
}
