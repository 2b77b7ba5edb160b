//! The rulebook's worked examples, played through the step API as a person plays them
//! (tests/fixtures/clean-rulebook-turns: three Item faces, two Trainer faces and two Grass
//! faces every turn, so the first turn holds the Repel, the Poké Doll and the Moon Stone):
//!
//! - "Items can be used anytime during your turn after the Expedition phase": a Moon Stone
//!   after the encounter that collected what it evolves;
//! - the Repel: "choose a species among the cards you drew", not the engine's pick;
//! - the Poké Doll: "lock a Capture Die that has been rolled already this encounter", spent
//!   only when the player keeps a die;
//! - trigger boxes: "only one trigger box can be filled in each section per trigger instance",
//!   the box named for the species caught counting as its section's one (the rulebook's
//!   Nidoran example), and the variant that fills a trigger box beside it.

use std::path::Path;

use safari::rules::safari_zone::engine::{
    self, Rules,
    game::Event,
    moment::Moment,
    policy::{Choice, Decision, Stage},
    step::{Match, Seat},
};
use safari::rules::safari_zone::ruleset;
use safari::world::GameFolder;

fn ruleset_json() -> serde_json::Value {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/clean-rulebook-turns");
    let mut folder = GameFolder::open(&dir).unwrap();
    let checked = safari::check(&mut folder);
    assert!(!checked.diagnostics.has_errors());
    serde_json::to_value(ruleset::build(
        &checked.game.unwrap(),
        &ruleset::content_hash(&folder),
    ))
    .unwrap()
}

fn rules_with(event_fills: Option<&str>) -> Rules {
    let mut json = ruleset_json();
    if let Some(fills) = event_fills {
        json["parameters"]["event_fills"] = fills.into();
    }
    engine::load(json.to_string().as_bytes()).unwrap()
}

fn item(rules: &Rules, id: &str) -> u32 {
    rules.items.iter().position(|i| i.id == id).unwrap() as u32
}

fn card_species<'r>(rules: &'r Rules, moment: &Moment, i: usize) -> &'r str {
    &rules.species[rules.cards[moment.drawn[i]].species]
}

/// A one-person game on `seed`, each decision answered by `answer` (`None`: the first choice
/// offered), to the end of the first `turns` turns; its events.
fn play(
    rules: &Rules,
    seed: u64,
    turns: u32,
    mut answer: impl FnMut(&Moment) -> Option<Choice>,
) -> Match {
    let mut game = Match::new(rules.clone(), vec![Seat { bot: None }], seed).unwrap();
    while let Some(moment) = game.moment().cloned() {
        if moment.players[0].turns_taken > turns {
            break;
        }
        let choice = answer(&moment).unwrap_or(moment.choices[0]);
        game.apply(choice)
            .unwrap_or_else(|why| panic!("seed {seed}: {choice:?} refused: {why}"));
    }
    game
}

/// The events of the player's turn `turn`.
fn turn_events(game: &Match, turn: u32) -> Vec<Event> {
    let mut in_turn = false;
    let mut out = Vec::new();
    for event in game.events() {
        if let Event::Turn { turn: t, .. } = event {
            in_turn = *t == turn;
        }
        if in_turn {
            out.push(event.clone());
        }
    }
    out
}

fn filled_in(events: &[Event]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Fill { r#box, .. } => Some(r#box.clone()),
            _ => None,
        })
        .collect()
}

/// Encounters the first Nidoran ♀ drawn, keeps every card, throws until a catch.
fn nidoran_first(rules: &Rules) -> impl FnMut(&Moment) -> Option<Choice> + '_ {
    move |moment| match moment.decision {
        Decision::Card => (0..moment.drawn.len())
            .find(|i| card_species(rules, moment, *i) == "nidoran-f")
            .map(|i| Choice::Card(i as u32))
            .or(Some(Choice::Stop)),
        Decision::Repel => Some(Choice::Stop),
        Decision::Throw => Some(Choice::Throw),
        Decision::Use => Some(Choice::Stop),
        _ => None,
    }
}

#[test]
fn a_moon_stone_evolves_after_the_encounter_that_collected_nidorina() {
    let rules = rules_with(None);
    let moon_stone = item(&rules, "moon-stone");
    let mut examples = 0;
    for seed in 0..40 {
        let mut offered_after = false;
        let mut nidoran = nidoran_first(&rules);
        let game = play(&rules, seed, 1, |moment| {
            if moment.decision == Decision::Use
                && matches!(moment.stage, Stage::AfterEncounter { .. })
                && moment.choices.contains(&Choice::Use(moon_stone))
            {
                offered_after = true;
                return Some(Choice::Use(moon_stone));
            }
            nidoran(moment)
        });
        let events = turn_events(&game, 1);
        let caught = events
            .iter()
            .any(|e| matches!(e, Event::Collect { species, .. } if species == "nidoran-f"));
        if !caught {
            continue;
        }
        examples += 1;
        // Before the encounter the Moon Stone had nothing to evolve; after it, Nidorina.
        assert!(
            offered_after,
            "seed {seed}: the Moon Stone was not offered after the catch"
        );
        let filled = filled_in(&events);
        for b in [
            "evolutions.nidoran-f-line#2",
            "dex-nidoqueen",
            "dex-nidorina",
        ] {
            assert!(
                filled.iter().any(|f| f == b),
                "seed {seed}: {b} is not filled in the turn: {filled:?}"
            );
        }
    }
    assert!(examples >= 10, "only {examples} turns caught a Nidoran ♀");
}

#[test]
fn the_repel_sends_away_the_species_the_player_chooses_even_beside_one_that_can_be_met() {
    let rules = rules_with(None);
    let repel = item(&rules, "repel");
    let mut examples = 0;
    for seed in 0..40 {
        let mut asked: Option<Vec<Choice>> = None;
        let mut drawn_first: Vec<String> = Vec::new();
        let mut kept_after: Option<Vec<String>> = None;
        let game = play(&rules, seed, 1, |moment| match moment.decision {
            Decision::Repel if asked.is_none() => {
                asked = Some(moment.choices.clone());
                drawn_first = (0..moment.drawn.len())
                    .map(|i| card_species(&rules, moment, i).to_string())
                    .collect();
                // The Rattata, when one shows beside a Nidoran ♀ the player could meet.
                (0..moment.drawn.len())
                    .find(|i| card_species(&rules, moment, *i) == "rattata")
                    .map(|i| Choice::Card(i as u32))
                    .or(Some(Choice::Stop))
            }
            Decision::Repel => Some(Choice::Stop),
            Decision::Card => {
                kept_after.get_or_insert_with(|| {
                    (0..moment.drawn.len())
                        .map(|i| card_species(&rules, moment, i).to_string())
                        .collect()
                });
                Some(Choice::Stop)
            }
            _ => Some(Choice::Stop),
        });
        let asked = asked.unwrap_or_else(|| panic!("seed {seed}: no Repel was offered"));
        // One choice per species drawn, by its first card, and keeping them.
        let mut species = drawn_first.clone();
        species.dedup();
        assert_eq!(asked.len(), 1 + species.len(), "seed {seed}: {asked:?}");
        if drawn_first != ["nidoran-f", "rattata"] {
            continue;
        }
        examples += 1;
        let events = turn_events(&game, 1);
        assert!(
            events
                .iter()
                .any(|e| matches!(e, Event::Use { item, species: Some(s), .. }
                if *item == rules.items[repel as usize].id && s == "rattata")),
            "seed {seed}: the log does not say the Repel went on Rattata: {events:?}"
        );
        let kept = kept_after.expect("a card decision after the Repel");
        assert_eq!(
            kept[0], "nidoran-f",
            "seed {seed}: the Nidoran ♀ was not kept"
        );
        assert_eq!(
            kept.len(),
            2,
            "seed {seed}: one card is drawn for the one sent away"
        );
    }
    assert!(
        examples >= 3,
        "only {examples} turns drew a Nidoran ♀ then a Rattata"
    );
}

/// Encounters a Rattata (12+ on two dice: a miss, nearly always), then after the miss
/// `after_miss` answers the throw decision.
fn at_a_rattata<'a>(
    rules: &'a Rules,
    mut after_miss: impl FnMut(&Moment) -> Choice + 'a,
) -> impl FnMut(&Moment) -> Option<Choice> + 'a {
    let mut throws = 0;
    move |moment| match moment.decision {
        Decision::Card => (0..moment.drawn.len())
            .find(|i| card_species(rules, moment, *i) == "rattata")
            .map(|i| Choice::Card(i as u32))
            .or(Some(Choice::Stop)),
        Decision::Throw => {
            throws += 1;
            Some(if throws == 1 {
                after_miss(moment)
            } else {
                Choice::Stop
            })
        }
        _ => Some(Choice::Stop),
    }
}

#[test]
fn the_poke_doll_keeps_the_die_the_player_chooses_and_is_not_spent_on_a_card_let_go() {
    let rules = rules_with(None);
    let doll = &rules.items[item(&rules, "poke-doll") as usize].id;
    let (mut let_go, mut kept) = (0, 0);
    for seed in 0..60 {
        // Let the card go after the miss: the Poké Doll stays unused.
        let mut offered = Vec::new();
        let game = play(
            &rules,
            seed,
            1,
            at_a_rattata(&rules, |moment| {
                offered = moment.choices.clone();
                Choice::Stop
            }),
        );
        let events = turn_events(&game, 1);
        if offered.is_empty() {
            continue;
        }
        let_go += 1;
        assert!(
            !events
                .iter()
                .any(|e| matches!(e, Event::Use { item, .. } if item == doll)),
            "seed {seed}: the Poké Doll was spent on a card let go: {events:?}"
        );
        // One lock per value the last throw shows, on the first die showing it.
        let last: Vec<u32> = events
            .iter()
            .rev()
            .find_map(|e| match e {
                Event::Throw { dice, .. } => Some(dice.clone()),
                _ => None,
            })
            .unwrap();
        let locks: Vec<(u32, u32)> = offered
            .iter()
            .filter_map(|c| match c {
                Choice::Lock(d, v) => Some((*d, *v)),
                _ => None,
            })
            .collect();
        let mut expected = vec![(0, last[0])];
        if last[1] != last[0] {
            expected.push((1, last[1]));
        }
        assert_eq!(locks, expected, "seed {seed}: after the throw {last:?}");

        // Keep the higher die and throw: it shows its value on the next throw.
        let choice = Choice::Lock((last[1] > last[0]) as u32, last[0].max(last[1]));
        let game = play(&rules, seed, 1, at_a_rattata(&rules, |_| choice));
        let events = turn_events(&game, 1);
        let Choice::Lock(die, value) = choice else {
            unreachable!()
        };
        assert!(
            events
                .iter()
                .any(|e| matches!(e, Event::Use { item, keeps: Some(k), .. }
                if item == doll && k.die == die as usize && k.value == value)),
            "seed {seed}: the log does not say which die the Poké Doll kept: {events:?}"
        );
        let throws: Vec<&Vec<u32>> = events
            .iter()
            .filter_map(|e| match e {
                Event::Throw { dice, .. } => Some(dice),
                _ => None,
            })
            .collect();
        assert_eq!(throws.len(), 2, "seed {seed}");
        assert_eq!(throws[1][die as usize], value, "seed {seed}: {throws:?}");
        kept += 1;
    }
    assert!(let_go >= 5 && kept >= 5, "{let_go} and {kept} examples");
}

#[test]
fn a_catch_fills_one_box_per_section_and_the_variant_a_trigger_box_beside_it() {
    let (mut first, mut again) = (0, 0);
    for (fills, beside) in [(None, false), (Some("one-plus-trigger-per-section"), true)] {
        let rules = rules_with(fills);
        for seed in 0..40 {
            let game = play(&rules, seed, 2, nidoran_first(&rules));
            let catches: Vec<u32> = (1..=2)
                .filter(|turn| {
                    turn_events(&game, *turn).iter().any(
                        |e| matches!(e, Event::Collect { species, .. } if species == "nidoran-f"),
                    )
                })
                .collect();
            if catches.first() != Some(&1) {
                continue;
            }
            // The first catch: the Pokédex box and the Evolutions box, one per section; in
            // the variant, the Sightings trigger box beside the Pokédex box too.
            let filled = filled_in(&turn_events(&game, 1));
            let has = |b: &str| filled.iter().any(|f| f == b);
            assert!(has("dex-nidoran-f") && has("evolutions.nidoran-f-line#1"));
            assert_eq!(
                has("pokedex.sightings#1"),
                beside,
                "seed {seed}, {fills:?}: {filled:?}"
            );
            first += 1;
            // A second Nidoran ♀: its Pokédex box is filled, so the Sightings box takes it.
            if catches.len() == 2 {
                let filled = filled_in(&turn_events(&game, 2));
                let sightings = if beside {
                    "pokedex.sightings#2"
                } else {
                    "pokedex.sightings#1"
                };
                assert!(
                    filled.iter().any(|f| f == sightings),
                    "seed {seed}, {fills:?}: {filled:?}"
                );
                again += 1;
            }
        }
    }
    assert!(
        first >= 10 && again >= 4,
        "{first} first catches, {again} again"
    );
}
