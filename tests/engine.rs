//! The rules engine on its own: seeded games repeat, throws catch as often as the capture
//! dice say, and a bad ruleset is refused with the place in the JSON that is wrong.

use std::path::Path;

use safari::rules::safari_zone::engine::policy::{self, Policy};
use safari::rules::safari_zone::engine::{self, Game, catch_chance};
use safari::rules::safari_zone::ruleset;
use safari::world::GameFolder;

fn ruleset_json(game: &str) -> Vec<u8> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(game);
    let mut folder = GameFolder::open(&dir).unwrap();
    let checked = safari::check(&mut folder);
    assert!(!checked.diagnostics.has_errors());
    serde_json::to_vec(&ruleset::build(
        &checked.game.unwrap(),
        &ruleset::content_hash(&folder),
    ))
    .unwrap()
}

/// A built-in policy by name, `search` at a small budget: these tests hold every policy to the
/// rules, which a search obeys at any budget, and a search's full budget takes time.
fn policy_named(name: &str) -> policy::Builtin {
    policy::by_name(if name == "search" { "search:2" } else { name }).unwrap()
}

fn play(
    rules: &engine::Rules,
    policy: &str,
    players: usize,
    seed: u64,
) -> (Vec<u32>, Vec<engine::Event>) {
    let mut policies: Vec<_> = (0..players).map(|_| policy_named(policy)).collect();
    let mut game = Game::new(rules, players, seed);
    game.log = Some(Vec::new());
    game.play(&mut policies);
    (
        game.players.iter().map(|p| p.vp).collect(),
        game.log.unwrap(),
    )
}

#[test]
fn the_same_seed_plays_the_same_game() {
    let rules = engine::load(&ruleset_json("content/safari-zone")).unwrap();
    for policy in policy::NAMES {
        let (scores_a, log_a) = play(&rules, policy, 3, 7);
        let (scores_b, log_b) = play(&rules, policy, 3, 7);
        assert_eq!(scores_a, scores_b);
        assert_eq!(
            serde_json::to_string(&log_a).unwrap(),
            serde_json::to_string(&log_b).unwrap()
        );
        let (_, log_c) = play(&rules, policy, 3, 8);
        assert_ne!(
            serde_json::to_string(&log_a).unwrap(),
            serde_json::to_string(&log_c).unwrap(),
            "another seed plays another game"
        );
    }
}

/// `sim` plays each thread's games in one restarted `Game`: a restart must be a new game.
#[test]
fn a_restarted_game_plays_as_a_new_one() {
    let rules = engine::load(&ruleset_json("content/safari-zone")).unwrap();
    for policy in policy::NAMES {
        let (scores, log) = play(&rules, policy, 2, 11);
        let mut policies: Vec<_> = (0..3).map(|_| policy_named(policy)).collect();
        let mut game = Game::new(&rules, 3, 5);
        game.log = Some(Vec::new());
        game.play(&mut policies);
        game.restart(2, 11);
        game.play(&mut policies);
        assert_eq!(
            game.players.iter().map(|p| p.vp).collect::<Vec<_>>(),
            scores
        );
        assert_eq!(
            serde_json::to_string(&game.log.unwrap()).unwrap(),
            serde_json::to_string(&log).unwrap(),
            "{policy}"
        );
    }
}

#[test]
fn every_game_ends_with_every_player_out_and_the_turn_tracker_respected() {
    let rules = engine::load(&ruleset_json("content/safari-zone")).unwrap();
    for seed in 0..200 {
        for policy in policy::NAMES {
            let mut policies = vec![policy_named(policy), policy_named(policy)];
            let mut game = Game::new(&rules, 2, seed);
            game.play(&mut policies);
            for player in &game.players {
                assert!(player.out.is_some());
                assert!(player.turns_taken <= rules.turns);
                assert!(player.balls_thrown <= rules.balls);
                let vp: u32 = player
                    .filled
                    .iter()
                    .enumerate()
                    .filter(|(_, f)| **f)
                    .map(|(b, _)| rules.boxes[b].vp)
                    .sum();
                assert_eq!(vp, player.vp, "the score is the VP of filled boxes");
                for (b, filled) in player.filled.iter().enumerate() {
                    if *filled && let Some(previous) = rules.boxes[b].previous {
                        assert!(
                            player.filled[previous as usize],
                            "{} filled out of order",
                            rules.box_id(b)
                        );
                    }
                }
            }
        }
    }
}

/// Exact P(3d6 >= t), out of 216 (shared reference).
const AT_LEAST: [u32; 16] = [
    216, 215, 212, 206, 196, 181, 160, 135, 108, 81, 56, 35, 20, 10, 4, 1,
];

#[test]
fn the_exact_catch_chance_matches_the_reference_table() {
    let rules = engine::load(&ruleset_json("content/safari-zone")).unwrap();
    for (i, count) in AT_LEAST.iter().enumerate() {
        let t = i as u32 + 3;
        let p = catch_chance(&rules, t);
        assert!((p - *count as f64 / 216.0).abs() < 1e-12, "t = {t}: {p}");
    }
}

#[test]
fn simulated_catch_rates_match_three_dice() {
    // The tiny fixture has no Poké Doll, so every throw is a plain 3d6.
    let rules = engine::load(&ruleset_json("tests/fixtures/clean-tiny")).unwrap();
    let mut throws = vec![0u64; rules.cards.len()];
    let mut catches = vec![0u64; rules.cards.len()];
    for seed in 0..4000 {
        let mut policies = vec![policy::by_name("random").unwrap()];
        let mut game = Game::new(&rules, 1, seed);
        game.play(&mut policies);
        for c in 0..rules.cards.len() {
            throws[c] += game.tally.throws[c] as u64;
            catches[c] += game.tally.catches[c] as u64;
        }
    }
    for (c, card) in rules.cards.iter().enumerate() {
        let p = AT_LEAST[card.capture_rate as usize - 3] as f64 / 216.0;
        let n = throws[c] as f64;
        assert!(n > 200.0, "{}: only {n} throws", card.id);
        let observed = catches[c] as f64 / n;
        let sigma = (p * (1.0 - p) / n).sqrt();
        assert!(
            (observed - p).abs() < 4.0 * sigma,
            "{}: capture rate {} caught {observed:.4} of {n} throws, expected {p:.4}",
            card.id,
            card.capture_rate
        );
    }
}

#[test]
fn a_bad_ruleset_is_refused_with_the_place_that_is_wrong() {
    let good = ruleset_json("tests/fixtures/clean-tiny");
    let mut value: serde_json::Value = serde_json::from_slice(&good).unwrap();

    let err = engine::load(b"{ not json").unwrap_err();
    assert!(err.message.starts_with("not JSON"), "{err}");

    value["format_version"] = serde_json::json!(99);
    let err = engine::load(&serde_json::to_vec(&value).unwrap()).unwrap_err();
    assert_eq!(err.path, "format_version");
    assert!(err.to_string().contains("99"), "{err}");

    value["format_version"] = serde_json::json!(ruleset::FORMAT_VERSION);
    value["deck"]["cards"][1]["capture_rate"] = serde_json::json!("twelve");
    let err = engine::load(&serde_json::to_vec(&value).unwrap()).unwrap_err();
    assert_eq!(err.path, "deck.cards[1].capture_rate", "{err}");

    value["deck"]["cards"][1]["capture_rate"] = serde_json::json!(12);
    value["deck"]["cards"][1]["species"] = serde_json::json!("nobody");
    let err = engine::load(&serde_json::to_vec(&value).unwrap()).unwrap_err();
    assert!(err.message.contains("unknown species `nobody`"), "{err}");

    value["deck"]["cards"][1]["species"] = serde_json::json!("fish");
    value["items"][2]["effects"] = serde_json::json!([{ "capture-bonus": 5000 }]);
    let err = engine::load(&serde_json::to_vec(&value).unwrap()).unwrap_err();
    assert_eq!(err.path, "items[2].effects[0]", "{err}");

    value["format"] = serde_json::json!("something-else");
    let err = engine::load(&serde_json::to_vec(&value).unwrap()).unwrap_err();
    assert_eq!(err.path, "format");
}

proptest::proptest! {
    /// A re-roll offers every set of dice the rules allow exactly once, after `Stop`, so the
    /// random policy is uniform over them; and each choice is found again by its position.
    #[test]
    fn a_reroll_offers_every_legal_set_of_dice_once(
        dice in 1u32..=8,
        free_bits in 0u32..256,
        hazard_at in proptest::option::of(0u32..8),
    ) {
        use std::collections::BTreeSet;
        use engine::{Choice, Rerolls};
        let all = (1u32 << dice) - 1;
        let hazard = hazard_at.filter(|h| *h < dice).map(|h| 1 << h);
        let free = free_bits & all & !hazard.unwrap_or(0);
        let rerolls = Rerolls { free, hazard };
        let offered: Vec<Choice> = (0..rerolls.len()).map(|i| rerolls.get(i)).collect();
        proptest::prop_assert_eq!(offered[0], Choice::Stop);
        let rerollable = free | hazard.unwrap_or(0);
        let legal: BTreeSet<u32> = (1..=rerollable)
            .filter(|mask| mask & !rerollable == 0)
            .collect();
        let masks: Vec<u32> = offered[1..]
            .iter()
            .map(|c| match c {
                Choice::Reroll(mask) => *mask,
                other => panic!("{other:?} among re-rolls"),
            })
            .collect();
        proptest::prop_assert_eq!(masks.len(), legal.len(), "no set offered twice");
        proptest::prop_assert_eq!(masks.iter().copied().collect::<BTreeSet<u32>>(), legal.clone());
        for (i, choice) in offered.iter().enumerate() {
            proptest::prop_assert_eq!(rerolls.position(*choice), Some(i));
        }
        proptest::prop_assert_eq!(rerolls.position(Choice::Reroll(!rerollable & 0xff)), None);
        // A policy may name its dice instead of an index: the engine takes exactly these.
        proptest::prop_assert!(rerolls.allows(Choice::Stop));
        for mask in 0u32..256 {
            proptest::prop_assert_eq!(rerolls.allows(Choice::Reroll(mask)), legal.contains(&mask));
        }
    }
}

/// Greedy names the dice it re-rolls directly; they are the dice it picks by index.
#[test]
fn greedy_names_the_dice_it_would_pick_by_index() {
    use engine::policy::View;
    use engine::{Choice, Choices, Decision, Rerolls};
    use rand_pcg::Pcg64Mcg;

    struct BothWays {
        greedy: policy::Greedy,
        rerolls: u32,
    }
    impl Policy for BothWays {
        fn name(&self) -> &'static str {
            "both ways"
        }
        fn prepare(&mut self, rules: &engine::Rules) {
            self.greedy.prepare(rules);
        }
        fn begin_turn(&mut self) {
            self.greedy.begin_turn();
        }
        fn choose(&mut self, view: &View, d: Decision, c: Choices, rng: &mut Pcg64Mcg) -> usize {
            self.greedy.choose(view, d, c, rng)
        }
        fn choose_reroll(&mut self, view: &View, r: Rerolls, rng: &mut Pcg64Mcg) -> Choice {
            let named = self.greedy.choose_reroll(view, r, rng);
            let choices = Choices::Reroll(r);
            let by_index = choices.get(self.greedy.choose(view, Decision::Reroll, choices, rng));
            assert_eq!(named, by_index, "faces {:?}", view.faces);
            self.rerolls += matches!(named, Choice::Reroll(_)) as u32;
            named
        }
    }

    let rules = engine::load(&ruleset_json("content/safari-zone")).unwrap();
    let mut policies = vec![BothWays {
        greedy: policy::Greedy::default(),
        rerolls: 0,
    }];
    let mut game = Game::new(&rules, 1, 0);
    for seed in 0..200 {
        game.restart(1, seed);
        game.play(&mut policies);
    }
    assert!(
        policies[0].rerolls > 1000,
        "{} re-rolls",
        policies[0].rerolls
    );
}

/// Free boxes are filled as soon as they open (docs/rules.md): after every turn, whatever
/// opened them (the box before, an item, a species, an area, a box, victory points), none is
/// left open, and each is filled in some game.
#[test]
fn no_free_box_is_left_open() {
    let fixture = ruleset_json("tests/fixtures/clean-free-boxes");
    // A box that waits on victory points may open after any fill worth VP, which hides what
    // else opens the others: the fixture is played without it too.
    let mut without_vp: serde_json::Value = serde_json::from_slice(&fixture).unwrap();
    for section in without_vp["field_guide"]["sections"]
        .as_array_mut()
        .unwrap()
    {
        section["tracks"]
            .as_array_mut()
            .unwrap()
            .retain(|track| track["id"] != "ten-points");
    }
    let games = [
        ("clean-free-boxes", fixture.clone()),
        (
            "clean-free-boxes without ten-points",
            serde_json::to_vec(&without_vp).unwrap(),
        ),
        ("safari-zone", ruleset_json("content/safari-zone")),
    ];
    for (game_dir, json) in games {
        let rules = engine::load(&json).unwrap();
        let mut ever_filled = vec![false; rules.boxes.len()];
        for seed in 0..300 {
            for name in policy::NAMES {
                let mut policy = policy_named(name);
                policy.prepare(&rules);
                let mut game = Game::new(&rules, 2, seed);
                for _ in 0..=rules.turns {
                    for p in 0..2 {
                        game.turn(p, &mut policy);
                        let player = &game.players[p];
                        for b in &rules.free_boxes {
                            assert!(
                                !player.can_fill(&rules, *b),
                                "{game_dir}, seed {seed}, {name}: {} left open",
                                rules.box_id(*b)
                            );
                        }
                    }
                }
                for b in &rules.free_boxes {
                    ever_filled[*b] |= game.players.iter().any(|p| p.filled[*b]);
                }
            }
        }
        for b in &rules.free_boxes {
            assert!(
                ever_filled[*b],
                "{game_dir}: {} never filled",
                rules.box_id(*b)
            );
        }
    }
}

/// Items whose effects are composed from steps play as their steps say (the fixture
/// clean-item-effects: the Lure adds 5 to every capture roll while held, the Charm is spent to
/// add 1 to one roll that it turns into a catch, the Boots give one more re-roll a turn).
#[test]
fn composed_item_effects_play_as_their_steps_say() {
    let rules = engine::load(&ruleset_json("tests/fixtures/clean-item-effects")).unwrap();
    let (mut lured_catches, mut boosted_catches, mut fourth_rolls) = (0, 0, 0);
    for seed in 0..300 {
        for policy in ["greedy", "random"] {
            let (_, log) = play(&rules, policy, 1, seed);
            let (mut lure, mut boots, mut rolls) = (false, false, 0);
            let mut card = String::new();
            for (i, event) in log.iter().enumerate() {
                match event {
                    engine::Event::Fill { r#box, .. } if r#box == "get-lure" => lure = true,
                    engine::Event::Fill { r#box, .. } if r#box == "get-boots" => boots = true,
                    engine::Event::Turn { .. } => rolls = 0,
                    engine::Event::Roll { .. } => {
                        rolls += 1;
                        // Three rolls a turn, four with the Boots.
                        assert!(
                            rolls <= if boots { 4 } else { 3 },
                            "seed {seed}: {rolls} rolls"
                        );
                        fourth_rolls += (rolls == 4) as u32;
                    }
                    engine::Event::Encounter { card: c, .. } => card = c.clone(),
                    engine::Event::Throw {
                        total,
                        needed,
                        caught,
                        ..
                    } => {
                        assert_eq!(*caught, total >= needed, "seed {seed}");
                        let rate = rules
                            .cards
                            .iter()
                            .find(|c| c.id == card)
                            .unwrap()
                            .capture_rate;
                        // Held, the Lure lowers the total every throw needs by 5.
                        assert_eq!(*needed, if lure { rate.saturating_sub(5) } else { rate });
                        lured_catches += (*caught && card == "delta") as u32;
                        // A Charm spent just before the throw made a miss a catch.
                        if let Some(engine::Event::Use { item, .. }) = log.get(i - 1)
                            && item == "charm"
                        {
                            assert!(*caught && total - 1 < *needed, "seed {seed}: {event:?}");
                            boosted_catches += 1;
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    assert!(lured_catches > 0, "the Lure never made Delta catchable");
    assert!(boosted_catches > 0, "the Charm was never spent on a roll");
    assert!(fourth_rolls > 0, "the Boots never gave a fourth roll");
}
