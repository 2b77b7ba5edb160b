//! The engine's bounds on what any ruleset of the family costs (docs/ruleset.md, "What the
//! engine refuses and bounds"): rules are refused at the field that makes them so, or every
//! game under them ends within the engine's limit of turns and every bot's move within its
//! bound of work. Held over generated rulesets (each number of each game's `rules` pushed to
//! extremes), and on rules whose games run to the limit, where `sim` says so rather than
//! playing for hours.

use std::path::Path;

use safari::world::GameFolder;
use safari_engine::family::bots::{self, Bot};
use safari_engine::family::{
    MOST_TURNS, Play, Start, any, diceafari, gamewright, ruleset, sim, tricky_safari,
};
use serde_json::{Value, json};

const PACKS: &[&str] = &["diceafari", "gamewright-safari", "tricky-safari"];

fn pack_ruleset(pack: &str) -> Value {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("content")
        .join(pack);
    let mut folder = GameFolder::open(&dir).unwrap();
    let checked = safari::check(&mut folder);
    assert!(!checked.diagnostics.has_errors(), "{pack}");
    let table = checked.table.unwrap();
    let module = safari::rules::module(&table.manifest.rules.value).unwrap();
    serde_json::from_str(&safari::backends::table::ruleset::text(&table, module)).unwrap()
}

/// The paths of every number in `value`, the first element of each list standing for the
/// others (a map's first tile for its tiles), the variants and rulings left out.
fn numbers(value: &Value, path: String, out: &mut Vec<String>) {
    match value {
        Value::Number(_) => out.push(path),
        Value::Array(items) => {
            if let Some(first) = items.first() {
                numbers(first, format!("{path}[0]"), out);
            }
        }
        Value::Object(fields) => {
            for (key, field) in fields {
                if key != "variants" && key != "rulings" {
                    numbers(field, format!("{path}.{key}"), out);
                }
            }
        }
        _ => {}
    }
}

/// `ruleset` with the number at `path` (`rules.turn.route.tiles`, `rules.map_layouts[0].tiles[0][1]`)
/// set to `to`.
fn with_number(ruleset: &Value, path: &str, to: &Value) -> Value {
    let mut changed = ruleset.clone();
    let mut at = &mut changed;
    for part in path.split('.') {
        let (key, indexes) = part.split_once('[').unwrap_or((part, ""));
        at = &mut at[key];
        for index in indexes.split('[').filter(|s| !s.is_empty()) {
            at = &mut at[index.trim_end_matches(']').parse::<usize>().unwrap()];
        }
    }
    *at = to.clone();
    changed
}

/// Extremes of a number, as far as JSON and the engine's types go.
fn extremes() -> Vec<Value> {
    vec![
        json!(-1),
        json!(0),
        json!(1),
        json!(2),
        json!(1000),
        json!(u32::MAX),
        json!(i64::MAX),
        json!(-1e300),
    ]
}

/// What playing a ruleset did: the games played to their end, and the most work of a move.
#[derive(Default)]
struct Played {
    games: usize,
    at_limit: usize,
    moves: usize,
    most_work_over_bound: f64,
}

/// The bots a generated ruleset is played by: each plays every seat of a game.
fn bots() -> [Bot; 3] {
    [Bot::Random, Bot::Greedy, Bot::Search { iterations: 20 }]
}

/// The bound of a bot's move.
fn bound(bot: Bot) -> u64 {
    match bot {
        Bot::Random => u64::MAX,
        Bot::Greedy => bots::MOST_WORK,
        Bot::Search { iterations } => u64::from(iterations) * bots::WORK_PER_ITERATION,
    }
}

/// Plays a game of `bot` at every seat from `seed`, `moves` moves at most of a bot other than
/// `random` (a game of those that runs to the limit of turns is tens of thousands of moves,
/// each bounded; `random`'s are played to the end), counting the work of each move against
/// its bound.
fn play<S: Start>(
    start: &S,
    players: usize,
    seed: u64,
    bot: Bot,
    moves: usize,
    played: &mut Played,
) {
    use rand::SeedableRng;
    let Ok(mut table) = start.start(players, seed) else {
        return;
    };
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
    let mut taken = 0;
    let most_actions = 200 * MOST_TURNS as usize;
    while table.to_move().is_some() && (bot == Bot::Random || taken < moves) {
        let decision = bot.decide(&table, &mut rng);
        if bot != Bot::Random {
            let over = decision.work as f64 / bound(bot) as f64;
            played.most_work_over_bound = played.most_work_over_bound.max(over);
        }
        table.apply(decision.action);
        taken += 1;
        played.moves += 1;
        assert!(
            taken <= most_actions,
            "a game ran past {most_actions} actions"
        );
    }
    if let Some(outcome) = table.outcome() {
        played.games += 1;
        played.at_limit += usize::from(!outcome.by_the_rules());
    }
}

/// Plays a ruleset: `random` to the end at the fewest and the most seats (the game ends), the
/// other bots the first 8 moves of a game at the fewest (each move within its bound: the first
/// are the costliest, a search's playouts running longest).
fn play_every_bot<S: Start>(start: &S, played: &mut Played) {
    let (fewest, most) = start.players();
    for players in [fewest.max(1), most.min(6)] {
        play(start, players, 1, Bot::Random, 0, played);
    }
    for bot in &bots()[1..] {
        play(start, fewest.max(1), 1, *bot, 8, played);
    }
}

/// Every number of each game's `rules` at each extreme: the engine refuses the ruleset at a
/// field's path, or plays it, every game ending (by the rules or at the engine's limit of
/// turns) and every bot's move within its bound of work (a move stops within one step of it,
/// and no step under these rules costs as much).
#[test]
fn rules_pushed_to_extremes_are_refused_at_a_field_or_played_within_bounds() {
    let mut faults = Vec::new();
    let (mut refused, mut accepted, mut at_limit) = (0, 0, 0);
    let mut worst: f64 = 0.0;
    let started = std::time::Instant::now();
    for pack in PACKS {
        let base = pack_ruleset(pack);
        let mut paths = Vec::new();
        numbers(&base["rules"], "rules".to_string(), &mut paths);
        assert!(!paths.is_empty(), "{pack}");
        for path in &paths {
            for value in extremes() {
                let text = with_number(&base, path, &value).to_string();
                let mut played = Played::default();
                let read = match base["game"]["rules"].as_str().unwrap() {
                    diceafari::ID => diceafari::Game::read(text.as_bytes(), &[])
                        .map(|g| play_every_bot(&g, &mut played)),
                    gamewright::ID => gamewright::Game::read(text.as_bytes(), &[])
                        .map(|g| play_every_bot(&g, &mut played)),
                    _ => tricky_safari::Game::read(text.as_bytes(), &[])
                        .map(|g| play_every_bot(&g, &mut played)),
                };
                match read {
                    Err(e) if e.path.is_empty() => faults.push(format!(
                        "{pack} {path} = {value}: refused with no path: {e}"
                    )),
                    Err(_) => refused += 1,
                    Ok(()) => {
                        accepted += 1;
                        at_limit += played.at_limit;
                        worst = worst.max(played.most_work_over_bound);
                        if played.most_work_over_bound > 2.0 {
                            faults.push(format!(
                                "{pack} {path} = {value}: a move did {:.1} times its bound of work",
                                played.most_work_over_bound
                            ));
                        }
                    }
                }
            }
        }
    }
    assert!(faults.is_empty(), "{}", faults.join("\n"));
    // One number pushed to an extreme never leaves a game the rules cannot end unrefused:
    // each such case is decided as the ruleset is read.
    assert_eq!(at_limit, 0, "games of rules read ran to the engine's limit");
    assert!(
        refused > 0 && accepted > 0,
        "{refused} refused, {accepted} played: the extremes lack a case"
    );
    eprintln!(
        "{refused} refused, {accepted} played ({at_limit} games at the limit); the most work of a move {worst:.2} times its bound; {:.1?}",
        started.elapsed()
    );
}

/// A DiceAFARI whose games seldom end: one face in a hundred of the Safari Dice shows a
/// terrain, and a turn has one roll, so a game claims its tiles over thousands of turns.
fn seldom_ending_diceafari() -> Value {
    let mut ruleset = pack_ruleset("diceafari");
    let dice = ruleset["dice"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|d| d["id"] == "safari-dice")
        .unwrap();
    let faces = dice["faces"].as_array_mut().unwrap();
    faces.extend(std::iter::repeat_n(json!("blank"), 600));
    ruleset["rules"]["turn"]["rolls"] = json!(1);
    ruleset
}

/// A DiceAFARI almost every game of which runs to the engine's limit: no Safari Die shows
/// marsh, no Bonus is earned, and a map of 15 of the 18 tiles, so a game ends only when the
/// shuffle sets all three marsh tiles aside (one deal in 816). The engine cannot refuse it:
/// some games end.
fn endless_diceafari() -> Value {
    let mut ruleset = pack_ruleset("diceafari");
    for die in ruleset["dice"].as_array_mut().unwrap() {
        die["faces"] = match die["id"].as_str().unwrap() {
            "safari-dice" => json!([
                "scrubland",
                "jungle",
                "desert",
                "mountain",
                "savanna",
                "desert"
            ]),
            _ => json!([6, 6, 6, 6, 6, 6]),
        };
    }
    let cells: Vec<(u32, u32)> = (0..3).flat_map(|r| (0..5).map(move |c| (c, r))).collect();
    let spaces: Vec<Value> = cells
        .iter()
        .flat_map(|&(c, r)| {
            [(c + 1, r), (c, r + 1)]
                .into_iter()
                .filter(|next| cells.contains(next))
                .map(move |(nc, nr)| json!([[c, r], [nc, nr]]))
        })
        .collect();
    let tiles: Vec<Value> = cells.iter().map(|&(c, r)| json!([c, r])).collect();
    ruleset["rules"]["map_layouts"] =
        json!([{ "card": "wide", "tiles": tiles, "photo_spaces": spaces }]);
    ruleset
}

/// A Gamewright's Safari with no end of its own: face-up cards may be taken, and no rule ends
/// the game, so a game ends only when no card fits or at the engine's limit.
fn endless_gamewright() -> Value {
    let mut ruleset = pack_ruleset("gamewright-safari");
    ruleset["rules"]["end"] =
        json!({ "jungle_face_up": false, "last_charlie_played": false, "turn_limit": null });
    ruleset["rules"]["turn"]["take"] = json!(["face_down", "face_up"]);
    ruleset
}

/// A DiceAFARI of two players whose every game ends by the rules only after 5,000 turns each.
fn long_diceafari() -> Value {
    let mut ruleset = pack_ruleset("diceafari");
    ruleset["game"]["players"] = json!([2, 2]);
    ruleset["rules"]["end"] = json!({ "every_tile_claimed": false, "min_turns": 5000 });
    ruleset
}

/// The first seed whose game offers a choice at its first decision.
fn seed_with_a_choice<S: Start>(start: &S) -> u64 {
    (0..100)
        .find(|&seed| {
            let table = start.start(start.players().0, seed).unwrap();
            let mut legal = Vec::new();
            table.legal(&mut legal);
            legal.len() > 1
        })
        .expect("some game offers a choice")
}

/// The work of `search`'s first move of a game, and why it was cut short.
fn first_search_move<S: Start>(start: &S, seed: u64) -> (u64, Option<String>) {
    use rand::SeedableRng;
    let table = start.start(start.players().0, seed).unwrap();
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
    let decision = Bot::by_name("search").unwrap().decide(&table, &mut rng);
    (decision.work, decision.cut_short)
}

/// Under rules whose games run thousands of turns, a move of `search` stops at its bound of
/// work and says so (on the page too), where it played ten thousand turns a playout, a
/// thousand playouts a move (over a minute).
#[test]
fn a_search_move_under_rules_whose_games_run_to_the_limit_is_bounded_and_says_so() {
    for ruleset in [
        seldom_ending_diceafari(),
        endless_gamewright(),
        long_diceafari(),
    ] {
        let text = ruleset.to_string();
        let name = ruleset["game"]["rules"].as_str().unwrap().to_string();
        let (seed, (work, cut_short)) = match name.as_str() {
            diceafari::ID => {
                let game = diceafari::Game::read(text.as_bytes(), &[]).unwrap();
                let seed = seed_with_a_choice(&game);
                (seed, first_search_move(&game, seed))
            }
            _ => {
                let game = gamewright::Game::read(text.as_bytes(), &[]).unwrap();
                let seed = seed_with_a_choice(&game);
                (seed, first_search_move(&game, seed))
            }
        };
        // A move stops within an iteration of its bound: one playout's step past it at most.
        let bound = u64::from(bots::SEARCH_ITERATIONS) * bots::WORK_PER_ITERATION;
        assert!(
            work >= bound && work <= bound + bound / 10,
            "{name}: {work} of {bound}"
        );
        let why = cut_short.expect("the bound cut the search short");
        assert!(why.contains("playouts"), "{name}: {why}");
        // The page's bot says what the bound did.
        let rules = any::open(text.as_bytes(), &[]).unwrap();
        let (fewest, _) = rules.players();
        let mut session = rules
            .session(vec![Some("search".to_string()); fewest], seed, &json!([]))
            .unwrap();
        let did = session.bot_step().unwrap();
        assert!(did.contains("a move's work is bounded"), "{name}: {did}");
    }
}

/// The rulebooks' games never meet the bounds: `greedy` and `search` play them as they did
/// before the bounds, the first moves of games at every player count never cut short.
#[test]
fn the_rulebooks_games_never_meet_a_bots_bound_of_work() {
    use rand::SeedableRng;
    fn first_moves<S: Start>(start: &S, variant: &str) {
        let (fewest, most) = start.players();
        for players in fewest..=most {
            for bot in [Bot::Greedy, Bot::by_name("search").unwrap()] {
                let mut table = start.start(players, 3).unwrap();
                let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(3);
                for _ in 0..4 {
                    if table.to_move().is_none() {
                        break;
                    }
                    let decision = bot.decide(&table, &mut rng);
                    assert_eq!(
                        decision.cut_short, None,
                        "{variant}, {players} players, {bot:?}: {} work",
                        decision.work
                    );
                    table.apply(decision.action);
                }
            }
        }
    }
    for pack in PACKS {
        let ruleset = pack_ruleset(pack);
        let text = ruleset.to_string();
        let mut variants: Vec<String> = ruleset["rules"]["variants"]
            .as_object()
            .unwrap()
            .keys()
            .filter(|v| !v.starts_with("map:"))
            .cloned()
            .collect();
        variants.push(String::new());
        for variant in variants {
            let chosen: Vec<String> = (!variant.is_empty())
                .then(|| variant.clone())
                .into_iter()
                .collect();
            let name = format!("{pack} {variant}");
            match ruleset["game"]["rules"].as_str().unwrap() {
                diceafari::ID => first_moves(
                    &diceafari::Game::read(text.as_bytes(), &chosen).unwrap(),
                    &name,
                ),
                gamewright::ID => first_moves(
                    &gamewright::Game::read(text.as_bytes(), &chosen).unwrap(),
                    &name,
                ),
                _ => first_moves(
                    &tricky_safari::Game::read(text.as_bytes(), &chosen).unwrap(),
                    &name,
                ),
            }
        }
    }
}

/// `sim` plays a few games of random bots first, and plays no table when the rules ended none
/// of them; a table whose first games all run to the limit stops; the report counts the games
/// the rules did not end.
#[test]
fn sim_says_when_the_rules_end_no_game_rather_than_playing_for_hours() {
    let endless = endless_diceafari().to_string();
    let rules = any::open(endless.as_bytes(), &[]).unwrap();
    let tables = vec![(vec!["search".to_string(), "search".to_string()], false)];
    let refused = rules.simulate(&tables, 2000, 1, &|_| {}).unwrap_err();
    assert!(refused.contains("no table was played"), "{refused}");
    assert!(refused.contains("10,000 turns"), "{refused}");
    // A table played on its own stops after its first games all ran to the limit.
    let game = diceafari::Game::read(endless.as_bytes(), &[]).unwrap();
    let seats = ["random".to_string(), "random".to_string()];
    let table = sim::play_table(
        &game,
        &seats,
        false,
        2000,
        1,
        &mut Default::default(),
        &|_| {},
    )
    .unwrap();
    assert_eq!(table.games, sim::PROBE_GAMES);
    assert_eq!(table.at_turn_limit, sim::PROBE_GAMES);
    assert!(
        table
            .stopped
            .as_deref()
            .unwrap()
            .contains("stopped after 2 games")
    );
    assert_eq!(table.ends["engine_turn_limit"], sim::PROBE_GAMES);
    // Rules whose games end, however seldom a turn claims, are played.
    let seldom = seldom_ending_diceafari().to_string();
    let game = diceafari::Game::read(seldom.as_bytes(), &[]).unwrap();
    let table = sim::play_table(
        &game,
        &seats,
        false,
        20,
        1,
        &mut Default::default(),
        &|_| {},
    )
    .unwrap();
    assert_eq!(
        (table.games, table.at_turn_limit, table.stopped),
        (20, 0, None)
    );
}

/// Rules of each game whose games end by the rules, but only after thousands of turns: each
/// game of `greedy` a minute or more, days at `sim`'s default count.
fn long_rules() -> Vec<(&'static str, Value)> {
    let mut diceafari = pack_ruleset("diceafari");
    diceafari["rules"]["end"]["min_turns"] = json!(MOST_TURNS / 4);
    let mut gamewright = pack_ruleset("gamewright-safari");
    gamewright["rules"]["end"] =
        json!({ "jungle_face_up": false, "last_charlie_played": false, "turn_limit": MOST_TURNS });
    gamewright["rules"]["turn"]["take"] = json!(["face_down", "face_up"]);
    let mut tricky = pack_ruleset("tricky-safari");
    tricky["rules"]["moves_per_player"] = json!(MOST_TURNS / 2);
    tricky["rules"]["photograph"]["sides"] = json!([]);
    vec![
        ("diceafari, 2,500 turns each", diceafari),
        ("gamewright-safari, 10,000 turns", gamewright),
        ("tricky-safari, 5,000 moves each, no photograph", tricky),
    ]
}

/// A table of `sim` does at most its bound of work, whatever the rules: under rules whose
/// games run thousands of turns it stops in or after its first game, saying how many games
/// would fit, where it played every game out (a minute or more of `greedy` each); the
/// rulebooks' games at `sim`'s default tables stay far within the bound.
#[test]
fn a_sim_table_stops_before_its_games_pass_its_bound_of_work_and_says_how_many_fit() {
    let seats = ["greedy".to_string(), "greedy".to_string()];
    for (name, ruleset) in long_rules() {
        let text = ruleset.to_string();
        let table = match ruleset["game"]["rules"].as_str().unwrap() {
            diceafari::ID => sim::play_table(
                &diceafari::Game::read(text.as_bytes(), &[]).unwrap(),
                &seats,
                false,
                2000,
                1,
                &mut Default::default(),
                &|_| {},
            ),
            gamewright::ID => sim::play_table(
                &gamewright::Game::read(text.as_bytes(), &[]).unwrap(),
                &seats,
                false,
                2000,
                1,
                &mut Default::default(),
                &|_| {},
            ),
            _ => sim::play_table(
                &tricky_safari::Game::read(text.as_bytes(), &[]).unwrap(),
                &seats,
                false,
                2000,
                1,
                &mut Default::default(),
                &|_| {},
            ),
        }
        .unwrap();
        let why = table
            .stopped
            .as_deref()
            .unwrap_or_else(|| panic!("{name}: played out"));
        // During its first game, once that passed four times its share of the bound, or
        // after it, when it had looked at less.
        assert!(
            (why.starts_with("stopped during game 1 of 2,000") && table.games == 0
                || why.starts_with("stopped after 1 of 2,000 games") && table.games == 1)
                && why.contains("games fit"),
            "{name}: {why}"
        );
        assert!(
            table.work <= 4 * sim::table_work(2000) / 2000 + bots::MOST_WORK,
            "{name}: {} work",
            table.work
        );
    }
    // The rulebooks' games, at the fewest and the most players, with every variant: each
    // default table's games look at a third of a game's share or less.
    fn default_tables<S: Start>(start: &S, name: &str) {
        let (fewest, most) = start.players();
        for players in [fewest, most] {
            let mut mixed = vec!["greedy".to_string()];
            mixed.resize(players, "random".to_string());
            for (seats, rotate) in [
                (vec!["random".to_string(); players], false),
                (vec!["greedy".to_string(); players], false),
                (mixed, true),
            ] {
                let table = sim::play_table(
                    start,
                    &seats,
                    rotate,
                    10,
                    7,
                    &mut Default::default(),
                    &|_| {},
                )
                .unwrap();
                assert_eq!(table.stopped, None, "{name}");
                assert!(
                    table.work / table.games <= sim::WORK_PER_GAME / 3,
                    "{name}, {seats:?}: {} a game",
                    table.work / table.games
                );
            }
        }
    }
    for pack in PACKS {
        let ruleset = pack_ruleset(pack);
        let text = ruleset.to_string();
        let mut variants: Vec<Vec<String>> = ruleset["rules"]["variants"]
            .as_object()
            .unwrap()
            .keys()
            .filter(|v| !v.starts_with("map:"))
            .map(|v| vec![v.clone()])
            .collect();
        variants.push(Vec::new());
        for chosen in variants {
            let name = format!("{pack} {chosen:?}");
            match ruleset["game"]["rules"].as_str().unwrap() {
                diceafari::ID => default_tables(
                    &diceafari::Game::read(text.as_bytes(), &chosen).unwrap(),
                    &name,
                ),
                gamewright::ID => default_tables(
                    &gamewright::Game::read(text.as_bytes(), &chosen).unwrap(),
                    &name,
                ),
                _ => default_tables(
                    &tricky_safari::Game::read(text.as_bytes(), &chosen).unwrap(),
                    &name,
                ),
            }
        }
    }
}

/// `safari sim` as a designer runs it: on the rules, each refused at its field (no
/// game could end, or not within the engine's limit); on rules whose games run to the limit,
/// it says so and fails rather than playing; on rules whose games end only after thousands of
/// turns, each table stops and says how many games fit. Each answered in seconds, where each
/// took minutes to days.
#[test]
fn the_sim_command_names_the_field_of_rules_refused_and_stops_where_games_run_long() {
    let dir = std::env::temp_dir().join(format!("safari-family-bounds-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let set = |path: &[&str], value: Value| {
        let mut ruleset = pack_ruleset("diceafari");
        let mut at = &mut ruleset["rules"];
        for key in path {
            at = &mut at[*key];
        }
        *at = value;
        ruleset
    };
    let (_, long) = long_rules().swap_remove(0);
    let cases = [
        (
            set(&["end", "min_turns"], json!(10000)),
            2,
            "at `rules.end.min_turns`: the rules end a game once each of 4 players has had 10,000 turns",
        ),
        (
            set(&["turn", "route", "tiles"], json!(0)),
            2,
            "at `rules.turn.route.tiles`: a route of 0 tiles holds none",
        ),
        (
            set(&["turn", "claim", "needs_claimable"], json!(41)),
            2,
            "at `rules.turn.claim.needs_claimable`: a turn may claim only when it could claim 41 tiles",
        ),
        (
            set(&["turn", "route", "shapes"], json!([])),
            2,
            "at `rules.turn.route.shapes`: no shape of route holds 4 tiles",
        ),
        (endless_diceafari(), 2, "no table was played"),
        (long, 0, "stopped during game 1 of 2,000"),
    ];
    for (i, (ruleset, code, says)) in cases.into_iter().enumerate() {
        let path = dir.join(format!("{i}.json"));
        std::fs::write(&path, ruleset.to_string()).unwrap();
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_safari"))
            .arg("sim")
            .arg(&path)
            .args(["--policy", "greedy", "--out"])
            .arg(dir.join("out"))
            .output()
            .unwrap();
        let said = format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        assert_eq!(output.status.code(), Some(code), "{says}: {said}");
        assert!(said.contains(says), "{says}: {said}");
        // No game played, so none is said of the components.
        assert!(!said.contains("Never part of a game"), "{says}: {said}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Every game's reader refuses a number of turns past the engine's limit in the same words.
#[test]
fn every_reader_refuses_turns_past_the_engines_limit_at_the_field() {
    let mut diceafari = pack_ruleset("diceafari");
    diceafari["rules"]["end"]["min_turns"] = json!(10000);
    let mut gamewright = pack_ruleset("gamewright-safari");
    gamewright["rules"]["end"]["turn_limit"] = json!(MOST_TURNS + 1);
    let mut tricky = pack_ruleset("tricky-safari");
    tricky["rules"]["moves_per_player"] = json!(MOST_TURNS / 2 + 1);
    for (ruleset, path) in [
        (diceafari, "rules.end.min_turns"),
        (gamewright, "rules.end.turn_limit"),
        (tricky, "rules.moves_per_player"),
    ] {
        let error = match any::open(ruleset.to_string().as_bytes(), &[]) {
            Err(error) => error,
            Ok(_) => panic!("{path} was read"),
        };
        assert_eq!(error.path, path);
        assert!(
            error.message.contains("past the engine's limit of 10,000"),
            "{}",
            error.message
        );
    }
    // At the limit itself, the rules end the game first.
    let mut gamewright = pack_ruleset("gamewright-safari");
    gamewright["rules"]["end"]["turn_limit"] = json!(MOST_TURNS);
    assert!(any::open(gamewright.to_string().as_bytes(), &[]).is_ok());
    assert_eq!(ruleset::thousands(1_234_567), "1,234,567");
}
