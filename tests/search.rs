//! The `search` policy: it beats `expected` by a clear margin on the default game, its budget
//! comes from its name within bounds, and a game's seed decides its play on any number of
//! threads.

use std::path::Path;

use safari::rules::safari_zone::engine::policy::{self, Builtin};
use safari::rules::safari_zone::engine::{self, Game};
use safari::rules::safari_zone::ruleset;
use safari::world::GameFolder;
use statrs::distribution::{ContinuousCDF, StudentsT};

fn rules() -> engine::Rules {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("content/safari-zone");
    let mut folder = GameFolder::open(&dir).unwrap();
    let game = safari::check(&mut folder).game.unwrap();
    engine::load(
        &serde_json::to_vec(&ruleset::build(&game, &ruleset::content_hash(&folder))).unwrap(),
    )
    .unwrap()
}

/// Mean and variance of a sample.
fn moments(scores: &[u32]) -> (f64, f64) {
    let n = scores.len() as f64;
    let mean = scores.iter().map(|s| f64::from(*s)).sum::<f64>() / n;
    let variance = scores
        .iter()
        .map(|s| (f64::from(*s) - mean).powi(2))
        .sum::<f64>()
        / (n - 1.0);
    (mean, variance)
}

/// Welch's t-test: the difference of the means (b - a) and its two-sided p-value.
fn welch(a: &[u32], b: &[u32]) -> (f64, f64) {
    let ((mean_a, var_a), (mean_b, var_b)) = (moments(a), moments(b));
    let (na, nb) = (a.len() as f64, b.len() as f64);
    let se2 = var_a / na + var_b / nb;
    let t = (mean_b - mean_a) / se2.sqrt();
    let df = se2.powi(2) / ((var_a / na).powi(2) / (na - 1.0) + (var_b / nb).powi(2) / (nb - 1.0));
    let p = 2.0 * (1.0 - StudentsT::new(0.0, 1.0, df).unwrap().cdf(t.abs()));
    (mean_b - mean_a, p)
}

#[test]
fn search_beats_expected_on_the_default_game() {
    let rules = rules();
    let games = 300;
    let scores = |name: &str| {
        safari::rules::safari_zone::sim::simulate(&rules, name, games, 1, 17, &|_| {}).scores
    };
    let expected = scores("expected");
    let search = scores("search:8");
    let (gain, p) = welch(&expected, &search);
    assert!(
        gain > 15.0 && p < 1e-6,
        "search:8 against expected over {games} games: {gain:+.1} VP, p = {p:.2e}"
    );
}

#[test]
fn a_budget_is_a_number_of_rollouts_within_bounds() {
    let budget = |name: &str| match policy::by_name(name) {
        Some(Builtin::Search(search)) => Some(search.budget()),
        Some(_) => panic!("{name} names another policy"),
        None => None,
    };
    assert_eq!(budget("search"), Some(policy::Search::DEFAULT_BUDGET));
    assert_eq!(budget("search:1"), Some(1));
    assert_eq!(budget("search:250"), Some(250));
    assert_eq!(budget("search:10000"), Some(policy::Search::MOST_BUDGET));
    for malformed in [
        "search:0",
        "search:10001",
        "search:99999999999999999999",
        "search:x",
        "search:",
        "search:-5",
        "search:+5",
        "search: 5",
        "search:5 ",
        "search:5.0",
        "search5",
        "searcher",
        "Search",
        ":5",
    ] {
        assert_eq!(budget(malformed), None, "{malformed}");
    }
}

#[test]
fn a_seed_decides_a_search_game() {
    let rules = rules();
    let play = |seed: u64| {
        let mut policies = vec![
            policy::by_name("search:3").unwrap(),
            policy::by_name("search:3").unwrap(),
        ];
        let mut game = Game::new(&rules, 2, seed);
        game.log = Some(Vec::new());
        game.play(&mut policies);
        serde_json::to_string(&game.log.unwrap()).unwrap()
    };
    assert_eq!(play(3), play(3));
    assert_ne!(play(3), play(4));
    let report = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let report = pool.install(|| {
            safari::rules::safari_zone::sim::simulate(&rules, "search:2", 40, 2, 9, &|_| {})
        });
        (serde_json::to_string(&report).unwrap(), report.scores)
    };
    assert_eq!(report(1), report(2));
}
