//! Engine speed for the default game's ruleset: one turn, whole games (counted both in games
//! and in turns), and `safari sim` throughput on every core.
//!
//! Targets (issue 4, release, greedy): 1,000,000 turns and 50,000 games per second per core.
//! `search` at its default budget: a game in under a second on one core.

use std::path::Path;

use criterion::measurement::WallTime;
use criterion::{
    BatchSize, BenchmarkGroup, Criterion, Throughput, criterion_group, criterion_main,
};
use safari::rules::safari_zone::engine::policy::{self, Policy};
use safari::rules::safari_zone::engine::{self, Game};
use safari::rules::safari_zone::ruleset;
use safari::world::GameFolder;

fn rules() -> engine::Rules {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("content/safari-zone");
    let mut folder = GameFolder::open(&dir).unwrap();
    let game = safari::check(&mut folder).game.unwrap();
    engine::load(
        &serde_json::to_vec(&ruleset::build(&game, &ruleset::content_hash(&folder))).unwrap(),
    )
    .unwrap()
}

/// Plays `games` one-player games from consecutive seeds in one restarted game, as `sim`
/// does on each thread (with the policy's own type, as `sim` plays); returns the turns taken.
fn play<P: Policy>(rules: &engine::Rules, policy: &mut [P], games: u64) -> u64 {
    let mut game = Game::new(rules, 1, 0);
    (0..games)
        .map(|seed| {
            game.restart(1, seed);
            game.play(policy);
            game.players[0].turns_taken as u64
        })
        .sum()
}

fn one_turn(c: &mut Criterion) {
    let rules = rules();
    // Positions from early, middle and late in games: turn k of the game seeded k.
    let positions: Vec<Game> = (0..48u64)
        .map(|seed| {
            let mut game = Game::new(&rules, 1, seed);
            let mut greedy = policy::by_name("greedy").unwrap();
            greedy.prepare(&rules);
            for _ in 0..seed % 12 {
                game.turn(0, &mut greedy);
            }
            game
        })
        .collect();
    let mut group = c.benchmark_group("one turn");
    for name in policy::NAMES {
        let mut policy = policy::by_name(name).unwrap();
        policy.prepare(&rules);
        let mut next = 0;
        group.bench_function(*name, |b| {
            b.iter_batched(
                || {
                    next = (next + 1) % positions.len();
                    positions[next].clone()
                },
                |mut game| {
                    game.turn(0, &mut policy);
                    game
                },
                BatchSize::SmallInput,
            )
        });
    }
    group.finish();
}

fn games(c: &mut Criterion) {
    let rules = rules();
    let mut group = c.benchmark_group("100 one-player games, one core");
    games_of(&mut group, &rules, "random", || policy::Random);
    games_of(&mut group, &rules, "greedy", policy::Greedy::default);
    games_of(&mut group, &rules, "expected", policy::Expected::default);
    // The default of `sim`: its model is fitted in the first game, before the timing.
    games_of(&mut group, &rules, "planner", policy::Planner::default);
    group.finish();

    // A search game takes thousands of times a greedy one: ten games a sample, ten samples.
    let mut group = c.benchmark_group("10 one-player games, one core");
    group.sample_size(10);
    for name in ["search:10", "search"] {
        let mut policies = vec![policy::Search::from_name(name).unwrap()];
        policies[0].prepare(&rules);
        group.throughput(Throughput::Elements(10));
        group.bench_function(name, |b| b.iter(|| play(&rules, &mut policies, 10)));
    }
    group.finish();

    let mut group = c.benchmark_group("sim throughput (all cores)");
    group.sample_size(10);
    group.throughput(Throughput::Elements(100_000));
    group.bench_function("100,000 greedy games", |b| {
        b.iter(|| {
            safari::rules::safari_zone::sim::simulate(&rules, "greedy", 100_000, 1, 1, &|_| {})
                .vp
                .mean
        })
    });
    // `sim`'s default, its model fitted once a process (the first run), as `sim` does: the
    // target is 10,000 games a second on two cores.
    group.bench_function("100,000 planner games", |b| {
        b.iter(|| {
            safari::rules::safari_zone::sim::simulate(&rules, "planner", 100_000, 1, 1, &|_| {})
                .vp
                .mean
        })
    });
    group.finish();
}

/// A hundred games with one policy, counted in games and in turns.
fn games_of<P: Policy>(
    group: &mut BenchmarkGroup<WallTime>,
    rules: &engine::Rules,
    name: &str,
    policy: impl Fn() -> P,
) {
    const GAMES: u64 = 100;
    let mut policies = vec![policy()];
    let turns = play(rules, &mut policies, GAMES);
    group.throughput(Throughput::Elements(GAMES));
    group.bench_function(format!("{name}, in games"), |b| {
        b.iter(|| play(rules, &mut policies, GAMES))
    });
    group.throughput(Throughput::Elements(turns));
    group.bench_function(format!("{name}, in turns"), |b| {
        b.iter(|| play(rules, &mut policies, GAMES))
    });
}

criterion_group!(benches, one_turn, games);
criterion_main!(benches);
