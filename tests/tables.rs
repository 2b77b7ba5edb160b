//! Multiplayer rules held by games worked out by hand (tests/fixtures-tables/README.md): the
//! shared deck, turn order, players out of balls, the end when all are out, the tie-break on
//! species and shared victories; and `sim`'s seats, rotation and win rates over them.

use std::path::Path;

use safari::rules::safari_zone::engine::{self, Game, OutReason, policy};
use safari::rules::safari_zone::ruleset;
use safari::rules::safari_zone::sim::{self, Table};
use safari::world::GameFolder;

fn rules(fixture: &str) -> engine::Rules {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures-tables")
        .join(fixture);
    let mut folder = GameFolder::open(&dir).unwrap();
    let checked = safari::check(&mut folder);
    assert!(!checked.diagnostics.has_errors(), "{fixture} checks clean");
    let ruleset = ruleset::build(&checked.game.unwrap(), &ruleset::content_hash(&folder));
    engine::load(&serde_json::to_vec(&ruleset).unwrap()).unwrap()
}

/// Plays one game of two `policy` players: the scores, species counts and winners.
fn play<'r>(rules: &'r engine::Rules, policy: &str, seed: u64) -> (Game<'r>, Vec<usize>) {
    let mut policies: Vec<_> = (0..2).map(|_| policy::by_name(policy).unwrap()).collect();
    let mut game = Game::new(rules, 2, seed);
    let winners = game.play(&mut policies);
    (game, winners)
}

#[test]
fn the_deck_is_shared_and_the_tie_break_counts_species() {
    let rules = rules("tie-break");
    let mut ties = 0;
    for seed in 0..300 {
        // Policies that always meet the card they draw (random may pass it up).
        for policy in ["greedy", "expected"] {
            let (game, winners) = play(&rules, policy, seed);
            let [first, second] = [&game.players[0], &game.players[1]];
            // Three cards for four draws: the first player's two, the second player's one.
            assert_eq!((first.unique_species, second.unique_species), (2, 1));
            assert_eq!(
                first.vp + second.vp,
                4,
                "every card caught once, by one player"
            );
            assert!(
                (0..3).all(|s| !(first.species[s] && second.species[s])),
                "no card is drawn twice"
            );
            assert_eq!(
                winners,
                vec![0],
                "seed {seed}: the first player always wins"
            );
            if first.vp == second.vp {
                ties += 1;
            }
        }
    }
    // The second player draws Alpha in a third of the games: then 2 VP each.
    assert!((160..240).contains(&ties), "{ties} ties in 600 games");
}

#[test]
fn players_tied_on_points_and_species_share_the_win() {
    let rules = rules("shared-victory");
    for seed in 0..50 {
        let (game, winners) = play(&rules, "greedy", seed);
        assert_eq!(
            game.players.iter().map(|p| p.vp).collect::<Vec<_>>(),
            [2, 2]
        );
        assert_eq!(winners, vec![0, 1]);
    }
    let report = sim::play(&rules, &Table::same("greedy", 2), 100, 1, &|_| {});
    for seat in &report.seats {
        assert_eq!(seat.win_rate, 0.5, "a shared victory counts as a share");
    }
}

#[test]
fn a_player_out_of_balls_stops_and_the_game_ends_when_all_are_out() {
    let rules = rules("out-of-balls");
    for seed in 0..50 {
        let (game, _) = play(&rules, "expected", seed);
        assert_eq!(game.rounds, 1, "both are out after the first round");
        for player in &game.players {
            assert_eq!(player.out, Some(OutReason::Balls));
            assert_eq!((player.turns_taken, player.balls_thrown), (1, 1));
        }
    }
    let report = sim::play(&rules, &Table::same("expected", 2), 100, 1, &|_| {});
    assert_eq!(report.ended_by_balls, 1.0);
    assert_eq!(report.balls_out_turn, Some(1.0));
}

#[test]
fn seats_report_who_wins_and_rotation_separates_turn_order_from_seats() {
    let rules = rules("tie-break");
    let fixed = sim::play(&rules, &Table::same("greedy", 2), 200, 3, &|_| {});
    assert_eq!(fixed.seats[0].win_rate, 1.0, "the first player always wins");
    assert_eq!(fixed.seats[1].win_rate, 0.0);
    assert!((fixed.seats[0].advantage - 0.5).abs() < 1e-12);
    assert!(
        fixed.positions.is_empty(),
        "without rotation seats are places"
    );

    let rotating = Table {
        seats: vec!["greedy".into(), "expected".into()],
        rotate: true,
    };
    let report = sim::play(&rules, &rotating, 200, 3, &|_| {});
    // Turn order decides every game; rotation gives each seat the first place half the time.
    assert_eq!(report.positions[0].win_rate, 1.0);
    assert_eq!(report.positions[1].win_rate, 0.0);
    for seat in &report.seats {
        assert_eq!(seat.win_rate, 0.5, "seat {} of a rotating table", seat.seat);
    }
    assert_eq!(report.policy, "greedy,expected");
    assert_eq!(report.policies.len(), 2);
}

#[test]
fn a_mixed_table_plays_each_seat_with_its_own_policy() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("content/safari-zone");
    let mut folder = GameFolder::open(&dir).unwrap();
    let game = safari::check(&mut folder).game.unwrap();
    let rules = engine::load(
        &serde_json::to_vec(&ruleset::build(&game, &ruleset::content_hash(&folder))).unwrap(),
    )
    .unwrap();
    let table = Table {
        seats: vec!["random".into(), "expected".into()],
        rotate: true,
    };
    let report = sim::play(&rules, &table, 400, 1, &|_| {});
    let (random, expected) = (&report.seats[0], &report.seats[1]);
    assert!(
        expected.win_rate_ci95[0] > 0.9 && random.win_rate_ci95[1] < 0.1,
        "expected beats random: {} vs {}",
        expected.win_rate,
        random.win_rate
    );
    assert!((random.win_rate + expected.win_rate - 1.0).abs() < 1e-9);
    assert!(random.vp.mean < expected.vp.mean);
}
