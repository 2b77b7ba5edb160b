//! The `planner` policy on a small ruleset (`tiny.json`: 8 turns, 6 balls, 3 expedition dice,
//! keys, rods, a usable stone and Poké Doll, a Bicycle, evolutions, bonus, trigger and free
//! boxes): a game's seed decides its play, its games are legal to the end, a game stepped
//! through the step API is the engine's own, and its model is the same however often it is
//! fitted.

use safari_engine::game::Event;
use safari_engine::policy::{self, Builtin, Policy};
use safari_engine::step::{Match, Now, Seat};
use safari_engine::{Game, Rules};

fn tiny() -> Rules {
    safari_engine::load(include_bytes!("tiny.json")).expect("the tiny ruleset loads")
}

fn planner() -> Builtin {
    policy::by_name("planner").expect("the planner is a built-in policy")
}

/// A game of `players` planners from `seed`: the final scores and the log.
fn play(rules: &Rules, players: usize, seed: u64) -> (Vec<u32>, Vec<String>) {
    let mut policies: Vec<Builtin> = (0..players).map(|_| planner()).collect();
    let mut game = Game::new(rules, players, seed);
    game.log = Some(Vec::new());
    game.play(&mut policies);
    let scores = game.players.iter().map(|p| p.vp).collect();
    (scores, events(game.log.as_deref().unwrap_or_default()))
}

fn events(log: &[Event]) -> Vec<String> {
    log.iter()
        .map(|e| serde_json::to_string(e).expect("an event serialises"))
        .collect()
}

#[test]
fn it_is_a_built_in_policy_between_expected_and_search() {
    let names = policy::NAMES;
    let at = |name: &str| names.iter().position(|n| *n == name);
    assert!(at("expected") < at("planner") && at("planner") < at("search"));
    assert_eq!(names.last(), Some(&"search"));
    assert_eq!(planner().name(), "planner");
}

#[test]
fn the_same_seed_plays_the_same_game() {
    let rules = tiny();
    for players in [1, 2, 4] {
        let (scores_a, log_a) = play(&rules, players, 7);
        let (scores_b, log_b) = play(&rules, players, 7);
        assert_eq!(scores_a, scores_b);
        assert_eq!(log_a, log_b, "{players} players");
        let (_, log_c) = play(&rules, players, 8);
        assert_ne!(log_a, log_c, "another seed plays another game");
    }
}

#[test]
fn a_restarted_game_and_a_reused_planner_play_as_new_ones() {
    // `sim` plays each thread's games in one restarted game with one policy: what the planner
    // worked out in one game must not change another.
    let rules = tiny();
    let mut policies = vec![planner()];
    let mut game = Game::new(&rules, 1, 0);
    for seed in 0..40 {
        game.restart(1, seed);
        game.play(&mut policies);
        assert_eq!(
            vec![game.players[0].vp],
            play(&rules, 1, seed).0,
            "seed {seed}"
        );
    }
}

#[test]
fn its_games_are_legal_to_the_end() {
    let rules = tiny();
    let mut policies: Vec<Builtin> = (0..3).map(|_| planner()).collect();
    for seed in 0..300 {
        let players = 1 + (seed % 3) as usize;
        let mut game = Game::new(&rules, players, seed);
        game.play(&mut policies[..players]);
        for player in &game.players {
            assert!(player.out.is_some(), "seed {seed}: every player is out");
            assert!(player.turns_taken <= rules.turns);
            assert!(player.balls_thrown <= rules.balls);
            let vp: u32 = (0..rules.boxes.len())
                .filter(|b| player.filled[*b])
                .map(|b| rules.boxes[b].vp)
                .sum();
            assert_eq!(
                vp, player.vp,
                "seed {seed}: the score is the VP of filled boxes"
            );
            for (b, filled) in player.filled.iter().enumerate() {
                if *filled && let Some(previous) = rules.boxes[b].previous {
                    assert!(
                        player.filled[previous as usize],
                        "seed {seed}: {} filled before the box ahead of it",
                        rules.box_ids[b]
                    );
                }
            }
        }
    }
}

#[test]
fn stepping_it_plays_the_engines_own_game() {
    // The step API asks a bot for one decision at a time, after replaying the choices before
    // it: the planner's choice must not depend on what it worked out for earlier ones.
    let rules = tiny();
    for (players, seed) in [(1, 1), (1, 2), (2, 7), (3, 40)] {
        let seats = vec![
            Seat {
                bot: Some("planner".to_string())
            };
            players
        ];
        let mut stepped = Match::new(rules.clone(), seats, seed).expect("a match");
        while stepped.play_bot().is_some() {}
        assert!(matches!(stepped.now(), Now::Over { .. }), "the bots finish");
        let (_, log) = play(&rules, players, seed);
        assert_eq!(
            events(stepped.events()),
            log,
            "{players} players, seed {seed}"
        );
    }
}

#[test]
fn its_model_is_the_same_however_often_it_is_fitted() {
    // Two loads of one ruleset are two compilations: each fits its own model.
    let (first, second) = (tiny(), tiny());
    assert_ne!(first.compilation, second.compilation);
    for seed in 0..20 {
        assert_eq!(play(&first, 1, seed), play(&second, 1, seed), "seed {seed}");
    }
}

#[test]
fn it_outscores_expected() {
    let rules = tiny();
    let mean = |name: &str| {
        let mut policies = vec![policy::by_name(name).expect("a built-in policy")];
        let mut game = Game::new(&rules, 1, 0);
        let games = 2000;
        let total: u32 = (0..games)
            .map(|seed| {
                game.restart(1, seed);
                game.play(&mut policies);
                game.players[0].vp
            })
            .sum();
        f64::from(total) / games as f64
    };
    let (expected, planner) = (mean("expected"), mean("planner"));
    assert!(
        planner > expected,
        "planner {planner:.2} VP, expected {expected:.2}"
    );
}
