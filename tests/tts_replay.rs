//! The Field Guide's Lua rules (the Tabletop Simulator table's) hold to the engine: seeded
//! games of the native engine, played by its bots, are replayed through the Lua in Lua 5.2,
//! each seat's sheet on its own, with the engine's dice, draws and choices as the answers to
//! the Lua's requests. After every turn the Lua has filled the same boxes in the same order,
//! and has the same VP; at the end, the same species and the same reason to be out.

use std::collections::{HashMap, VecDeque};
use std::path::Path;

use mlua::{Function, Lua, LuaSerdeExt, Table, Value as LuaValue};
use safari::rules::safari_zone::engine::policy::{self, Builtin, Policy};
use safari::rules::safari_zone::engine::{
    self, Choice, Choices, Decision, Event, Game, Rerolls, Rules, View,
};
use safari::rules::safari_zone::ruleset;
use safari::world::GameFolder;

fn ruleset_json(game: &str) -> serde_json::Value {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(game);
    let mut folder = GameFolder::open(&dir).unwrap();
    let checked = safari::check(&mut folder);
    assert!(!checked.diagnostics.has_errors(), "{game} checks clean");
    serde_json::to_value(ruleset::build(
        &checked.game.unwrap(),
        &ruleset::content_hash(&folder),
    ))
    .unwrap()
}

/// A bot that keeps every choice it makes, with the decision it answered.
struct Recording {
    bot: Builtin,
    taken: Vec<(Decision, Choice)>,
}

impl Policy for Recording {
    fn name(&self) -> &'static str {
        self.bot.name()
    }
    fn prepare(&mut self, rules: &Rules) {
        self.bot.prepare(rules)
    }
    fn begin_turn(&mut self) {
        self.bot.begin_turn()
    }
    fn choose(
        &mut self,
        view: &View,
        decision: Decision,
        choices: Choices,
        rng: &mut rand_pcg::Pcg64Mcg,
    ) -> usize {
        let index = self.bot.choose(view, decision, choices, rng);
        self.taken.push((decision, choices.answer(index)));
        index
    }
    fn choose_reroll(
        &mut self,
        view: &View,
        rerolls: Rerolls,
        rng: &mut rand_pcg::Pcg64Mcg,
    ) -> Choice {
        let choice = self.bot.choose_reroll(view, rerolls, rng);
        self.taken.push((Decision::Reroll, choice));
        choice
    }
}

fn seat_of(event: &Event) -> Option<usize> {
    Some(match event {
        Event::Turn { player, .. }
        | Event::Roll { player, .. }
        | Event::Bust { player }
        | Event::Fill { player, .. }
        | Event::Draw { player, .. }
        | Event::Encounter { player, .. }
        | Event::Throw { player, .. }
        | Event::Collect { player, .. }
        | Event::Use { player, .. }
        | Event::Out { player, .. } => *player,
        Event::End { .. } => return None,
    })
}

/// Per seat, turn (from 1) and whether the turn's encounter is over, whether the discard pile
/// was empty as the turn began and as its encounter ended: the one thing of the shared table a
/// sheet's rules ask (whether the Poké Flute is of use), worked out from the log as the engine
/// moves cards.
fn discard_empty_at_turns(rules: &Rules, log: &[Event]) -> HashMap<(usize, u32, bool), bool> {
    let mut at = HashMap::new();
    // The seat and turn in play, whether it has drawn, and whether its discard pile was empty
    // as its encounter ended (known once an item reshuffles it after the encounter).
    let mut turn_in_play: Option<(usize, u32)> = None;
    let mut drew = false;
    let mut after: Option<bool> = None;
    let (mut deck, mut discard) = (rules.deck.len(), 0usize);
    let mut drawn: Vec<usize> = Vec::new();
    let mut meeting = false;
    let card = |id: &str| rules.cards.iter().position(|c| c.id == id).unwrap();
    let flush = |drawn: &mut Vec<usize>, meeting: &mut bool, discard: &mut usize| {
        *discard += drawn.len() + *meeting as usize;
        drawn.clear();
        *meeting = false;
    };
    for event in log {
        if matches!(event, Event::Turn { .. } | Event::End { .. })
            && let Some((player, turn)) = turn_in_play.take()
        {
            let empty = discard + drawn.len() + meeting as usize == 0;
            at.insert((player, turn, true), after.take().unwrap_or(empty));
        }
        match event {
            Event::Turn { player, turn } => {
                flush(&mut drawn, &mut meeting, &mut discard);
                at.insert((*player, *turn, false), discard == 0);
                turn_in_play = Some((*player, *turn));
                drew = false;
            }
            Event::End { .. } => flush(&mut drawn, &mut meeting, &mut discard),
            Event::Draw { cards, .. } => {
                drew = true;
                for id in cards {
                    if deck == 0 {
                        deck = discard;
                        discard = 0;
                    }
                    deck -= 1;
                    drawn.push(card(id));
                }
            }
            Event::Use { item, species, .. } => {
                let i = rules.items.iter().position(|x| &x.id == item).unwrap();
                if rules.item_steps.reshuffle_discard.contains(&i) {
                    if drew && after.is_none() {
                        after = Some(discard + drawn.len() + meeting as usize == 0);
                    }
                    // Used outside the encounter: the cards of one over are discarded by then.
                    flush(&mut drawn, &mut meeting, &mut discard);
                    deck += discard;
                    discard = 0;
                }
                // The Repel, between a draw and the encounter: the species it names goes.
                if let Some(species) = species {
                    let s = rules.species.iter().position(|x| x == species).unwrap();
                    let before = drawn.len();
                    drawn.retain(|c| rules.cards[*c].species != s);
                    discard += before - drawn.len();
                }
            }
            Event::Encounter { card: id, .. } => {
                let c = card(id);
                let at = drawn.iter().position(|d| *d == c).unwrap();
                drawn.remove(at);
                discard += drawn.len();
                drawn.clear();
                meeting = true;
            }
            Event::Throw { caught: true, .. } => meeting = false,
            _ => {}
        }
    }
    at
}

/// What one seat's sheet did in the engine's game.
#[derive(Default)]
struct Seat {
    rolls: Vec<Vec<String>>,
    throws: Vec<Vec<u32>>,
    draws: Vec<Vec<String>>,
    /// The boxes filled on each turn, in order (turn 1 first).
    fills: Vec<Vec<String>>,
    vp_after: Vec<u32>,
    out: Option<String>,
}

fn seat_record(log: &[Event], seat: usize) -> Seat {
    let mut record = Seat::default();
    let mut vp = 0;
    for event in log.iter().filter(|e| seat_of(e) == Some(seat)) {
        match event {
            Event::Turn { .. } => {
                record.fills.push(Vec::new());
                record.vp_after.push(vp);
            }
            Event::Roll { faces, .. } => record
                .rolls
                .push(faces.iter().map(|f| f.name().to_string()).collect()),
            Event::Throw { dice, .. } => record.throws.push(dice.clone()),
            Event::Draw { cards, .. } => record.draws.push(cards.clone()),
            Event::Fill { r#box, vp: v, .. } => {
                vp += v;
                record
                    .fills
                    .last_mut()
                    .expect("a fill in a turn")
                    .push(r#box.clone());
                *record.vp_after.last_mut().unwrap() = vp;
            }
            Event::Out { reason, .. } => {
                record.out = Some(
                    serde_json::to_value(reason)
                        .unwrap()
                        .as_str()
                        .unwrap()
                        .into(),
                )
            }
            _ => {}
        }
    }
    record
}

fn lua() -> (Lua, Table) {
    let lua = Lua::new();
    lua.load(safari::rules::safari_zone::tts::FIELD_GUIDE_RULES_LUA)
        .set_name("field_guide_rules.lua")
        .exec()
        .unwrap();
    let module: Table = lua.globals().get("SafariRules").unwrap();
    (lua, module)
}

fn to_lua(lua: &Lua, value: &serde_json::Value) -> LuaValue {
    lua.to_value_with(
        value,
        mlua::SerializeOptions::new()
            .serialize_none_to_null(false)
            .serialize_unit_to_null(false),
    )
    .unwrap()
}

/// The engine's choice as the Lua takes it: indices from 1, a re-roll as a flag per die.
fn answer(lua: &Lua, choice: Choice, dice: usize) -> LuaValue {
    let pair = |name: &str, n: u32| {
        LuaValue::Table(
            lua.create_sequence_from([
                LuaValue::String(lua.create_string(name).unwrap()),
                LuaValue::Integer(i64::from(n) + 1),
            ])
            .unwrap(),
        )
    };
    let word = |name: &str| {
        LuaValue::Table(
            lua.create_sequence_from([lua.create_string(name).unwrap()])
                .unwrap(),
        )
    };
    match choice {
        Choice::Stop => word("stop"),
        Choice::Throw => word("throw"),
        Choice::Track(t) => pair("track", t),
        Choice::Box(b) => pair("box", b),
        Choice::Use(i) => pair("use", i),
        Choice::Card(i) => pair("card", i),
        Choice::Lock(die, value) => LuaValue::Table(
            lua.create_sequence_from([
                LuaValue::String(lua.create_string("lock").unwrap()),
                LuaValue::Integer(i64::from(die) + 1),
                LuaValue::Integer(i64::from(value)),
            ])
            .unwrap(),
        ),
        Choice::Reroll(mask) => {
            let flags = lua
                .create_sequence_from((0..dice).map(|i| mask & (1 << i) != 0))
                .unwrap();
            let table = lua.create_table().unwrap();
            table.set(1, "reroll").unwrap();
            table.set(2, flags).unwrap();
            LuaValue::Table(table)
        }
    }
}

/// The Lua's events of one kind so far.
fn lua_events(game: &Table, kind: &str) -> Vec<Table> {
    let events: Table = game.get("events").unwrap();
    events
        .sequence_values::<Table>()
        .map(Result::unwrap)
        .filter(|e| e.get::<String>("event").unwrap() == kind)
        .collect()
}

/// Replays one seat of an engine game through the Lua; the first difference, if any.
fn replay_seat(
    lua: &Lua,
    module: &Table,
    compiled: &Table,
    rules: &Rules,
    record: &Seat,
    mut taken: VecDeque<(Decision, Choice)>,
    discard_empty: &dyn Fn(u32, bool) -> bool,
) -> Result<(), String> {
    let start: Function = module.get("start").unwrap();
    let game: Table = start.call(compiled.clone()).unwrap();
    let answer_fn: Function = game.get("answer").unwrap();
    let mut turn = 0u32;
    let mut draws_before_turn = 0;
    let compare = |turn: u32, game: &Table| -> Result<(), String> {
        let index = turn as usize - 1;
        let events: Table = game.get("events").unwrap();
        let mut fills: Vec<Vec<String>> = Vec::new();
        for event in events.sequence_values::<Table>().map(Result::unwrap) {
            match event.get::<String>("event").unwrap().as_str() {
                "turn" => fills.push(Vec::new()),
                "fill" => fills
                    .last_mut()
                    .ok_or("the Lua filled a box before its first turn")?
                    .push(event.get("box").unwrap()),
                _ => {}
            }
        }
        let lua_fills = fills.get(index).cloned().unwrap_or_default();
        if lua_fills != record.fills[index] {
            return Err(format!(
                "turn {turn}: the engine filled {:?}, the Lua {:?}",
                record.fills[index], lua_fills
            ));
        }
        let vp: u32 = game.get("vp").unwrap();
        if vp != record.vp_after[index] {
            return Err(format!(
                "turn {turn}: the engine has {} VP, the Lua {vp}",
                record.vp_after[index]
            ));
        }
        Ok(())
    };
    loop {
        if let Ok(broken) = game.get::<String>("broken") {
            return Err(format!("turn {turn}: the Lua stopped: {broken}"));
        }
        let request: Option<Table> = game.get("request").unwrap();
        let Some(request) = request else {
            break;
        };
        let kind: String = request.get("kind").unwrap();
        let value: LuaValue = match kind.as_str() {
            "begin" => {
                if turn > 0 {
                    compare(turn, &game)?;
                }
                turn += 1;
                draws_before_turn = lua_events(&game, "draw").len();
                if turn as usize > record.fills.len() {
                    return Err(format!(
                        "the Lua plays turn {turn}; the engine's player was out after {}",
                        record.fills.len()
                    ));
                }
                LuaValue::Nil
            }
            "die" => {
                let set: String = request.get("set").unwrap();
                let die: usize = request.get("die").unwrap();
                if set == "expedition" {
                    let roll = lua_events(&game, "roll").len();
                    let faces = record
                        .rolls
                        .get(roll)
                        .ok_or(format!("turn {turn}: the Lua rolls more often"))?;
                    to_lua(lua, &serde_json::json!(faces[die - 1]))
                } else {
                    let throw = lua_events(&game, "throw").len();
                    let dice = record
                        .throws
                        .get(throw)
                        .ok_or(format!("turn {turn}: the Lua throws more often"))?;
                    LuaValue::Integer(i64::from(dice[die - 1]))
                }
            }
            "draw" => {
                let draw = lua_events(&game, "draw").len();
                let cards = record
                    .draws
                    .get(draw)
                    .ok_or(format!("turn {turn}: the Lua draws more often"))?;
                to_lua(lua, &serde_json::json!(cards))
            }
            "discard_empty" => {
                // After the encounter once the turn has drawn.
                let drew = lua_events(&game, "draw").len() > draws_before_turn;
                LuaValue::Boolean(discard_empty(turn, drew))
            }
            "decide" => {
                let decision: String = request.get("decision").unwrap();
                let (engine_decision, choice) = taken.pop_front().ok_or(format!(
                    "turn {turn}: the Lua asks for a {decision} decision the engine never made"
                ))?;
                if engine_decision.name() != decision {
                    return Err(format!(
                        "turn {turn}: the Lua asks for a {decision} decision where the engine made a {} one",
                        engine_decision.name()
                    ));
                }
                answer(lua, choice, rules.expedition.len())
            }
            other => return Err(format!("an unknown request `{other}`")),
        };
        answer_fn.call::<()>((game.clone(), value)).unwrap();
    }
    if turn > 0 {
        compare(turn, &game)?;
    }
    if turn as usize != record.fills.len() {
        return Err(format!(
            "the Lua's player is out after {turn} turns, the engine's after {}",
            record.fills.len()
        ));
    }
    if !taken.is_empty() {
        return Err(format!(
            "the engine made {} decisions the Lua never asked for",
            taken.len()
        ));
    }
    let out: Option<String> = game.get("out").unwrap();
    if out != record.out {
        return Err(format!(
            "out: the engine's player for {:?}, the Lua's for {out:?}",
            record.out
        ));
    }
    Ok(())
}

fn replay_games(game: &str, games: u64) {
    let json = ruleset_json(game);
    let rules = engine::load(json.to_string().as_bytes()).unwrap();
    let (lua, module) = lua();
    let compile: Function = module.get("compile").unwrap();
    let (compiled, why): (Option<Table>, Option<String>) =
        compile.call(to_lua(&lua, &json)).unwrap();
    let compiled = compiled.unwrap_or_else(|| panic!("{game}: the Lua refuses it: {why:?}"));
    let bots = ["random", "greedy", "expected", "planner"];
    let mut failures = Vec::new();
    let mut turns = 0usize;
    for seed in 0..games {
        let players = (seed % rules.players.1 as u64) as usize + 1;
        let players = players.max(rules.players.0 as usize);
        let mut policies: Vec<Recording> = (0..players)
            .map(|p| Recording {
                bot: policy::by_name(bots[(seed as usize + p) % bots.len()]).unwrap(),
                taken: Vec::new(),
            })
            .collect();
        let mut played = Game::new(&rules, players, seed);
        played.log = Some(Vec::new());
        played.play(&mut policies);
        let log = played.log.take().unwrap();
        let discard = discard_empty_at_turns(&rules, &log);
        for (seat, policy) in policies.into_iter().enumerate() {
            let record = seat_record(&log, seat);
            turns += record.fills.len();
            let empty = |turn: u32, after: bool| discard[&(seat, turn, after)];
            if let Err(why) = replay_seat(
                &lua,
                &module,
                &compiled,
                &rules,
                &record,
                policy.taken.into(),
                &empty,
            ) {
                failures.push(format!("seed {seed}, seat {}: {why}", seat + 1));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{game}: {} seats of the {games} games differ:\n{}",
        failures.len(),
        failures[..failures.len().min(20)].join("\n")
    );
    assert!(turns > games as usize * 5, "{game}: only {turns} turns");
}

#[test]
fn the_lua_rules_play_a_thousand_engine_games_of_the_default_game_the_same() {
    replay_games("content/safari-zone", 1000);
}

#[test]
fn the_lua_rules_play_every_item_effect_as_the_engine_does() {
    replay_games("tests/fixtures/clean-item-effects", 300);
}

#[test]
fn the_lua_rules_play_the_earlier_version_as_the_engine_does() {
    replay_games("content/safari-zone-v20240517", 300);
}
