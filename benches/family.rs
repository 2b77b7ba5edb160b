//! The family's engines: random-policy turns per second on one core, and the search bot's
//! decision at its default iterations.
//!
//! Targets (issue 30): each engine at 100,000 or more random-policy turns (a seat's whole
//! turn) per second on one core; a `search` decision under 100 ms.

use std::path::Path;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use safari::world::GameFolder;
use safari_engine::family::bots::Bot;
use safari_engine::family::{Play, Start, diceafari, gamewright, tricky_safari};

fn ruleset(pack: &str) -> Vec<u8> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("content")
        .join(pack);
    let mut folder = GameFolder::open(&dir).unwrap();
    let checked = safari::check(&mut folder);
    let table = checked.table.unwrap();
    let module = safari::rules::module(&table.manifest.rules.value).unwrap();
    safari::backends::table::ruleset::text(&table, module).into_bytes()
}

/// Random games from consecutive seeds; returns the turns played (a turn ends when the seat
/// to move changes or the game ends).
fn random_games<S: Start>(start: &S, players: usize, games: u64) -> u64 {
    let mut rng = Pcg64Mcg::seed_from_u64(7);
    let mut turns = 0;
    for seed in 0..games {
        let mut table = start.start(players, seed).unwrap();
        let mut last = table.to_move();
        while table.to_move().is_some() {
            let action = Bot::Random.choose(&table, &mut rng);
            table.apply(action);
            if table.to_move() != last {
                turns += 1;
                last = table.to_move();
            }
        }
    }
    turns
}

/// A table some turns into a game, for the search bot to decide at.
fn midgame<S: Start>(start: &S, players: usize, actions: usize) -> S::Game {
    let mut table = start.start(players, 3).unwrap();
    let mut rng = Pcg64Mcg::seed_from_u64(3);
    for _ in 0..actions {
        if table.to_move().is_none() {
            break;
        }
        let action = Bot::Random.choose(&table, &mut rng);
        table.apply(action);
    }
    table
}

fn engines(c: &mut Criterion) {
    let gamewright = gamewright::Game::read(&ruleset("gamewright-safari"), &[]).unwrap();
    let turns_per_game = random_games(&gamewright, 2, 100) / 100;
    let mut group = c.benchmark_group("gamewright-safari");
    group.throughput(Throughput::Elements(turns_per_game * 10));
    group.bench_function("random turns (10 games, 2 players)", |b| {
        b.iter(|| random_games(&gamewright, 2, 10))
    });
    group.throughput(Throughput::Elements(1));
    group.sample_size(20);
    let table = midgame(&gamewright, 2, 20);
    group.bench_function("search decision (default iterations)", |b| {
        let mut rng = Pcg64Mcg::seed_from_u64(1);
        b.iter(|| Bot::by_name("search").unwrap().choose(&table, &mut rng))
    });
    group.finish();

    let tricky = tricky_safari::Game::read(&ruleset("tricky-safari"), &[]).unwrap();
    let turns_per_game = random_games(&tricky, 2, 100) / 100;
    let mut group = c.benchmark_group("tricky-safari");
    group.throughput(Throughput::Elements(turns_per_game * 10));
    group.bench_function("random turns (10 games, layout varying)", |b| {
        b.iter(|| random_games(&tricky, 2, 10))
    });
    group.throughput(Throughput::Elements(1));
    group.sample_size(20);
    let table = midgame(&tricky, 2, 10);
    group.bench_function("search decision (default iterations)", |b| {
        let mut rng = Pcg64Mcg::seed_from_u64(1);
        b.iter(|| Bot::by_name("search").unwrap().choose(&table, &mut rng))
    });
    group.finish();

    let diceafari = diceafari::Game::read(&ruleset("diceafari"), &[]).unwrap();
    let turns_per_game = random_games(&diceafari, 2, 100) / 100;
    let mut group = c.benchmark_group("diceafari");
    group.throughput(Throughput::Elements(turns_per_game * 10));
    group.bench_function("random turns (10 games, 2 players)", |b| {
        b.iter(|| random_games(&diceafari, 2, 10))
    });
    group.throughput(Throughput::Elements(1));
    group.sample_size(20);
    let table = midgame(&diceafari, 2, 10);
    group.bench_function("search decision (default iterations)", |b| {
        let mut rng = Pcg64Mcg::seed_from_u64(1);
        b.iter(|| Bot::by_name("search").unwrap().choose(&table, &mut rng))
    });
    group.bench_function("greedy decision", |b| {
        let mut rng = Pcg64Mcg::seed_from_u64(1);
        b.iter(|| Bot::Greedy.choose(&table, &mut rng))
    });
    group.finish();
}

criterion_group!(benches, engines);
criterion_main!(benches);
