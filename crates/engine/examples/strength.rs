//! How well, and how fast, the built-in policies play: one-player games of a ruleset, their
//! mean final VP with its 95% interval, turns played and the share of games that ended out of
//! Safari Balls, and games per second.
//!
//! ```text
//! cargo run --release --example strength -p safari-engine [--features threads] -- \
//!     RULESET.json [POLICY[=GAMES]]... [--threads N] [--seed S]
//! ```
//!
//! Each policy (a name `policy::by_name` knows; by default `expected`, `planner` and
//! `search`) plays GAMES games (by default 20,000, 2,000 for a search) from seeds `S..S+GAMES`
//! on N threads (by default 1), each thread playing its share in one restarted game as `sim`
//! does. The one-time work a policy does per ruleset (`Policy::prepare`: the fit of the value
//! model that `search` and `planner` use; on every core with `--features threads`) is timed
//! apart, before the games (`fit s`), and not counted in their speed: `games/s` by the clock,
//! and `per CPU-s` games per second of the threads' own CPU time (Linux), which other work on
//! the machine does not slow.

use std::time::Instant;

use safari_engine::policy::{self, Builtin, Policy};
use safari_engine::{Game, OutReason, Rules};

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().unwrap_or_else(|| {
        eprintln!("usage: strength RULESET.json [POLICY[=GAMES]]... [--threads N] [--seed S]");
        std::process::exit(2)
    });
    let mut threads = 1usize;
    let mut seed = 0u64;
    let mut runs: Vec<(String, u64)> = Vec::new();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--threads" => threads = args.next().and_then(|n| n.parse().ok()).unwrap_or(1),
            "--seed" => seed = args.next().and_then(|n| n.parse().ok()).unwrap_or(0),
            _ => {
                let (name, games) = match arg.split_once('=') {
                    Some((name, games)) => (name.to_string(), games.parse().expect("games")),
                    None => (arg.clone(), default_games(&arg)),
                };
                runs.push((name, games));
            }
        }
    }
    if runs.is_empty() {
        runs = ["expected", "planner", "search"]
            .iter()
            .map(|n| (n.to_string(), default_games(n)))
            .collect();
    }
    let bytes = std::fs::read(&path).expect("a readable ruleset");
    let rules = safari_engine::load(&bytes).expect("a valid ruleset");
    println!(
        "{} ({path}): {} turns, {} balls; {threads} thread(s), seeds from {seed}",
        rules.name, rules.turns, rules.balls
    );
    println!(
        "{:<14} {:>7} {:>8} {:>17} {:>7} {:>9} {:>10} {:>13} {:>6} {:>8}",
        "policy",
        "games",
        "mean VP",
        "95% interval",
        "sd",
        "fit s",
        "games/s",
        "per CPU-s",
        "turns",
        "no balls"
    );
    for (name, games) in runs {
        let Some(mut first) = policy::by_name(&name) else {
            eprintln!(
                "unknown policy `{name}`; known: {}",
                policy::NAMES.join(", ")
            );
            std::process::exit(2)
        };
        let fit = Instant::now();
        first.prepare(&rules);
        let fit = fit.elapsed().as_secs_f64();
        let start = Instant::now();
        let (results, cpu) = play(&rules, &name, games, seed, threads);
        let scores: Vec<u32> = results.iter().map(|r| r.vp).collect();
        let n = results.len().max(1) as f64;
        let turns = results.iter().map(|r| f64::from(r.turns)).sum::<f64>() / n;
        let out_of_balls = results.iter().filter(|r| r.out_of_balls).count() as f64 / n;
        let elapsed = start.elapsed().as_secs_f64();
        let (mean, sd) = moments(&scores);
        let half = 1.96 * sd / (scores.len() as f64).sqrt();
        let per_cpu = match cpu {
            Some(cpu) => format!("{:.0}", games as f64 / cpu),
            None => "-".to_string(),
        };
        println!(
            "{:<14} {:>7} {:>8.2} {:>8.2} .. {:<6.2} {:>7.2} {:>9.2} {:>10.0} {:>13} {:>6.1} {:>7.0}%",
            name,
            games,
            mean,
            mean - half,
            mean + half,
            sd,
            fit,
            games as f64 / elapsed,
            per_cpu,
            turns,
            100.0 * out_of_balls
        );
    }
}

/// How one game ended for its player.
struct Score {
    vp: u32,
    turns: u32,
    out_of_balls: bool,
}

fn default_games(name: &str) -> u64 {
    if name.starts_with("search") {
        2_000
    } else {
        20_000
    }
}

/// Final VP of one-player games from seeds `seed..seed + games`, shared out among threads,
/// and the CPU time the threads took (where the system tells it). A built-in policy plays
/// with its own type, as `sim` plays it, so that no decision dispatches on the policy.
fn play(
    rules: &Rules,
    name: &str,
    games: u64,
    seed: u64,
    threads: usize,
) -> (Vec<Score>, Option<f64>) {
    match policy::by_name(name).expect("a known policy") {
        Builtin::Random(p) => play_with(rules, p, games, seed, threads),
        Builtin::Greedy(p) => play_with(rules, p, games, seed, threads),
        Builtin::Expected(p) => play_with(rules, p, games, seed, threads),
        Builtin::Planner(p) => play_with(rules, p, games, seed, threads),
        Builtin::Search(p) => play_with(rules, p, games, seed, threads),
        Builtin::Target(p) => play_with(rules, p, games, seed, threads),
    }
}

fn play_with<P: Policy + Clone>(
    rules: &Rules,
    policy: P,
    games: u64,
    seed: u64,
    threads: usize,
) -> (Vec<Score>, Option<f64>) {
    let threads = threads.max(1) as u64;
    let per_thread = games.div_ceil(threads);
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let start = (seed + t * per_thread).min(seed + games);
                let end = (start + per_thread).min(seed + games);
                let mut policies = [policy.clone()];
                scope.spawn(move || {
                    policies[0].prepare(rules);
                    let mut game = Game::new(rules, 1, start);
                    let cpu = thread_cpu();
                    let scores = (start..end)
                        .map(|s| {
                            game.restart(1, s);
                            game.play(&mut policies);
                            let player = &game.players[0];
                            Score {
                                vp: player.vp,
                                turns: player.turns_taken,
                                out_of_balls: player.out == Some(OutReason::Balls),
                            }
                        })
                        .collect::<Vec<_>>();
                    (
                        scores,
                        thread_cpu().zip(cpu).map(|(end, start)| end - start),
                    )
                })
            })
            .collect();
        let mut scores = Vec::new();
        let mut cpu = Some(0.0);
        for handle in handles {
            let (part, part_cpu) = handle.join().expect("games do not panic");
            scores.extend(part);
            cpu = cpu.zip(part_cpu).map(|(a, b)| a + b);
        }
        (scores, cpu)
    })
}

/// The CPU time this thread has run, in seconds (Linux only: `/proc/thread-self/schedstat`).
fn thread_cpu() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: f64 = stat.split_whitespace().next()?.parse().ok()?;
    Some(ns / 1e9)
}

fn moments(scores: &[u32]) -> (f64, f64) {
    let n = scores.len().max(2) as f64;
    let mean = scores.iter().map(|s| f64::from(*s)).sum::<f64>() / scores.len().max(1) as f64;
    let variance = scores
        .iter()
        .map(|s| (f64::from(*s) - mean).powi(2))
        .sum::<f64>()
        / (n - 1.0);
    (mean, variance.sqrt())
}
