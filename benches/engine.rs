//! Engine speed: one game, and simulation throughput, for the default game's ruleset.

use std::path::Path;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use safari::backends::ruleset;
use safari::engine::{self, Game, policy};
use safari::world::GameFolder;

fn rules() -> engine::Rules {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("content/safari-zone");
    let mut folder = GameFolder::open(&dir).unwrap();
    let game = safari::check(&mut folder).game.unwrap();
    engine::load(&serde_json::to_vec(&ruleset::build(&game, "sha256:bench")).unwrap()).unwrap()
}

fn games(c: &mut Criterion) {
    let rules = rules();
    let mut group = c.benchmark_group("one game, one player");
    for name in policy::NAMES {
        let mut seed = 0;
        group.bench_function(*name, |b| {
            b.iter(|| {
                seed += 1;
                let mut policies = vec![policy::by_name(name).unwrap()];
                let mut game = Game::new(&rules, 1, seed);
                game.play(&mut policies);
                game.players[0].vp
            })
        });
    }
    group.finish();

    let mut group = c.benchmark_group("sim throughput (all cores)");
    group.sample_size(10);
    group.throughput(Throughput::Elements(10_000));
    group.bench_function("10,000 greedy games", |b| {
        b.iter(|| {
            safari::sim::simulate(&rules, "greedy", 10_000, 1, 1, &|_| {})
                .vp
                .mean
        })
    });
    group.finish();
}

criterion_group!(benches, games);
criterion_main!(benches);
