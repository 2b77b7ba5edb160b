//! The step API (`safari_engine::step`): a game played one decision at a time is the engine's
//! game, a log replays it, undo takes back a person's choice, and a refused choice says why.

use std::path::Path;

use safari::rules::safari_zone::engine::{
    self, Game,
    game::Event,
    policy::{self, Choice, Decision},
    step::{Log, Match, Now, Seat},
};
use safari::rules::safari_zone::ruleset;
use safari::world::GameFolder;

fn ruleset_json() -> String {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("content/safari-zone");
    let mut folder = GameFolder::open(&dir).unwrap();
    let game = safari::check(&mut folder).game.unwrap();
    serde_json::to_string(&ruleset::build(&game, &ruleset::content_hash(&folder))).unwrap()
}

fn rules() -> engine::Rules {
    engine::load(ruleset_json().as_bytes()).unwrap()
}

fn bots(policy: &str, players: usize) -> Vec<Seat> {
    vec![
        Seat {
            bot: Some(policy.to_string())
        };
        players
    ]
}

fn events_json(events: &[Event]) -> Vec<String> {
    events
        .iter()
        .map(|e| serde_json::to_string(e).unwrap())
        .collect()
}

/// A match of bots, stepped one decision at a time to its end.
fn stepped(rules: &engine::Rules, policy: &str, players: usize, seed: u64) -> Match {
    let mut game = Match::new(rules.clone(), bots(policy, players), seed).unwrap();
    while game.play_bot().is_some() {}
    assert!(
        matches!(game.now(), Now::Over { .. }),
        "the bots stopped short"
    );
    game
}

#[test]
fn bots_stepping_play_the_engines_own_game() {
    // Greedy and expected draw no random numbers of their own, so stepping them through the
    // API plays exactly the game `Game::play` plays with them: the same events, one by one.
    let rules = rules();
    let mut differ = Vec::new();
    for policy in ["greedy", "expected"] {
        for (players, seed) in [(1, 1), (2, 7), (4, 42), (3, 1000)] {
            let game = stepped(&rules, policy, players, seed);
            let mut direct = Game::new(&rules, players, seed);
            direct.log = Some(Vec::new());
            let mut policies: Vec<policy::Builtin> = (0..players)
                .map(|_| policy::by_name(policy).unwrap())
                .collect();
            direct.play(&mut policies);
            if events_json(game.events()) != events_json(direct.log.as_ref().unwrap()) {
                differ.push((policy, players, seed));
            }
        }
    }
    assert!(
        differ.is_empty(),
        "stepped games differ from the engine's: {differ:?}"
    );
}

#[test]
fn a_log_replays_to_the_same_game_at_every_step() {
    let rules = rules();
    let seats = vec![
        Seat { bot: None },
        Seat {
            bot: Some("random".to_string()),
        },
    ];
    // A person who always takes the first choice offered, against a random bot.
    let mut game = Match::new(rules.clone(), seats.clone(), 99).unwrap();
    let mut states = Vec::new();
    loop {
        states.push(events_json(game.events()));
        if game.play_bot().is_some() {
            continue;
        }
        let Some(moment) = game.moment() else { break };
        let choice = match moment.rerolls {
            Some(_) => Choice::Stop,
            None => moment.choices[0],
        };
        game.apply(choice).unwrap();
    }
    let log = Log::of(&game, serde_json::from_str(&ruleset_json()).unwrap());
    let bytes = serde_json::to_vec(&log).unwrap();
    let (_, replayed) = Log::read(&bytes).unwrap();
    assert_eq!(events_json(replayed.events()), events_json(game.events()));
    // Stepped back to each choice, the replay shows the game as it was then.
    let mut back = replayed;
    for count in (0..game.taken().len()).rev() {
        back.back_to(count);
        assert_eq!(
            events_json(back.events()),
            states[count],
            "after {count} choices"
        );
    }
}

/// Undo takes back a person's choice (and the bots' after it), but stops at the last reveal:
/// once dice are rolled, cards drawn or a ball thrown, nothing before can be taken back, so
/// that nobody sees a roll or a card and chooses again. Taken back, the game is where it was.
#[test]
fn undo_takes_back_a_choice_but_never_a_roll_a_draw_or_a_throw() {
    let rules = rules();
    let seats = vec![
        Seat { bot: None },
        Seat {
            bot: Some("expected".to_string()),
        },
    ];
    let mut game = Match::new(rules, seats, 5).unwrap();
    let (mut taken_back, mut refused) = (0, 0);
    for step in 0..600u32 {
        let before_bots = game.events().len();
        let mut bots_played = false;
        while game.play_bot().is_some() {
            bots_played = true;
        }
        if bots_played && game.events()[before_bots..].iter().any(Event::reveals) {
            assert!(!game.undoable(), "a bot's roll or draw can be taken back");
        }
        let Some(moment) = game.moment() else { break };
        // Re-roll a die every other time a re-roll is offered; else the first choice.
        let choice = match moment.rerolls {
            Some(rerolls) if step % 2 == 1 && rerolls.free != 0 => {
                Choice::Reroll(rerolls.free & rerolls.free.wrapping_neg())
            }
            Some(_) => Choice::Stop,
            None => moment.choices.first().copied().unwrap_or(Choice::Stop),
        };
        let before = events_json(game.events());
        game.apply(choice).unwrap();
        let revealed = game.events()[before.len()..].iter().any(Event::reveals);
        if revealed {
            assert!(
                !game.undoable(),
                "{choice:?} rolled, drew or threw: it stands"
            );
            assert_eq!(game.undo(), 0);
            refused += 1;
        } else {
            assert!(game.undoable(), "{choice:?} showed nothing new");
            assert_eq!(game.undo(), 1);
            assert_eq!(events_json(game.events()), before, "back where it was");
            assert_eq!(game.moment().unwrap().seat, 0, "the person decides again");
            game.apply(choice).unwrap();
            taken_back += 1;
        }
    }
    assert!(
        taken_back >= 20 && refused >= 20,
        "{taken_back} taken back, {refused} refused"
    );
}

#[test]
fn a_refused_choice_says_why_in_the_rules_words() {
    let rules = rules();
    let mut game = Match::new(rules.clone(), vec![Seat { bot: None }], 3).unwrap();
    let mut reasons = Vec::new();
    // Walk the game choosing round the choices; at each decision try something it does not
    // offer.
    for step in 0..2000 {
        let Some(moment) = game.moment() else { break };
        let wrong = match moment.decision {
            Decision::Reroll => {
                let hazard = moment
                    .faces
                    .iter()
                    .position(|f| *f == engine::vocabulary::Action::Hazard);
                hazard.map(|die| Choice::Reroll(1 << die))
            }
            Decision::Track => (0..rules.tracks.len() as u32)
                .map(Choice::Track)
                .find(|c| !moment.allows(*c)),
            Decision::Card => (0..moment.drawn.len() as u32)
                .map(Choice::Card)
                .find(|c| !moment.allows(*c)),
            _ => Some(Choice::Box(0)),
        };
        if let Some(wrong) = wrong {
            let reason = game.apply(wrong).unwrap_err();
            assert!(!reason.is_empty());
            reasons.push(reason);
        }
        let moment = game.moment().unwrap();
        let choice = match moment.choices.len() {
            0 => Choice::Stop,
            n => moment.choices[step % n],
        };
        game.apply(choice).unwrap();
    }
    let said = reasons.join("\n");
    println!("{said}");
    for expected in ["a die showing a Hazard cannot be re-rolled", "not now:"] {
        assert!(
            said.contains(expected),
            "no refusal says {expected:?}:\n{said}"
        );
    }
    assert!(
        said.contains("can be encountered only with") || said.contains("is filled by"),
        "{said}"
    );
}

#[test]
fn a_log_of_other_rules_or_a_broken_log_is_refused_with_a_reason() {
    let rules = rules();
    let game = stepped(&rules, "greedy", 1, 8);
    let mut log = serde_json::to_value(Log::of(
        &game,
        serde_json::from_str(&ruleset_json()).unwrap(),
    ))
    .unwrap();
    // A choice changed: the game no longer offers it there.
    let actions = log["actions"].as_array_mut().unwrap();
    let last = actions.len() - 1;
    actions[last]["act"] = serde_json::json!({ "track": "no-such-track" });
    let error = Log::read(&serde_json::to_vec(&log).unwrap()).err().unwrap();
    assert!(error.0.contains("no-such-track"), "{error}");
    // Not a log at all.
    for (bytes, says) in [
        (&b"{}"[..], "not a game log"),
        (b"nonsense", "not JSON"),
        (br#"{"format":"safari-log","format_version":99}"#, "version"),
    ] {
        let error = Log::read(bytes).err().unwrap();
        assert!(error.0.contains(says), "{error}");
    }
}

#[test]
fn a_log_with_choices_past_the_end_is_refused() {
    let rules = rules();
    let game = stepped(&rules, "greedy", 1, 8);
    let mut log = serde_json::to_value(Log::of(
        &game,
        serde_json::from_str(&ruleset_json()).unwrap(),
    ))
    .unwrap();
    let last = log["actions"].as_array().unwrap().last().unwrap().clone();
    log["actions"].as_array_mut().unwrap().push(last);
    let error = Log::read(&serde_json::to_vec(&log).unwrap()).err().unwrap();
    assert!(error.0.contains("after the end of the game"), "{error}");
}

#[test]
fn a_person_cannot_take_a_bots_decision_and_bots_alone_have_nothing_to_undo() {
    let rules = rules();
    let mut game = Match::new(rules, bots("expected", 2), 4).unwrap();
    let moment = game.moment().unwrap();
    let choice = moment.choices.first().copied().unwrap_or(Choice::Stop);
    let refused = game.apply(choice).unwrap_err();
    assert!(refused.contains("played by a bot"), "{refused}");
    game.play_bot().unwrap();
    game.play_bot().unwrap();
    assert!(!game.undoable());
    assert_eq!(game.undo(), 0);
    assert_eq!(game.taken().len(), 2);
}

#[test]
fn a_card_refused_names_every_need_unmet_not_only_the_first() {
    // Chansey asks for Area 2 and a Grass habitat: a player at the start, whose dice show no
    // Grass, meets neither, and the refusal says both.
    let rules = rules();
    let mut game = Match::new(rules.clone(), vec![Seat { bot: None }], 3).unwrap();
    let moment = loop {
        let moment = game.moment().unwrap().clone();
        if moment.decision != Decision::Reroll {
            break moment;
        }
        game.apply(Choice::Stop).unwrap();
    };
    let chansey = rules
        .cards
        .iter()
        .position(|c| rules.species[c.species] == "chansey")
        .unwrap();
    let mut at_a_card = moment.clone();
    at_a_card.decision = Decision::Card;
    at_a_card.stage = engine::Stage::Encounter { trainers: 0 };
    at_a_card.drawn = vec![chansey];
    at_a_card.choices = vec![Choice::Stop];
    at_a_card.dice = vec![engine::vocabulary::Action::Water; 2];
    let said = engine::explain::refusal(&rules, &at_a_card, Choice::Card(0));
    for need in ["Area 2", "Grass"] {
        assert!(said.contains(need), "{said}");
    }
}

#[test]
fn a_person_who_takes_every_hint_plays_the_hinting_bots_game() {
    // A hint is the bot's choice at the person's decision, and the game is left as it was:
    // a person taking every hint of `expected` (which draws no random numbers of its own)
    // plays exactly the game that bot plays in the seat.
    let rules = rules();
    for seed in [3, 11, 2024] {
        let mut game = Match::new(rules.clone(), vec![Seat { bot: None }], seed).unwrap();
        while game.moment().is_some() {
            let before = game.taken().len();
            let choice = game
                .hint("expected")
                .unwrap()
                .expect("a hint while deciding");
            assert_eq!(game.taken().len(), before, "a hint took a choice");
            assert!(
                game.moment().unwrap().allows(choice),
                "{choice:?} is not offered"
            );
            game.apply(choice).unwrap();
        }
        assert_eq!(game.hint("expected").unwrap(), None, "no hint once over");
        let bot = stepped(&rules, "expected", 1, seed);
        assert_eq!(
            events_json(game.events()),
            events_json(bot.events()),
            "seed {seed}"
        );
    }
}
