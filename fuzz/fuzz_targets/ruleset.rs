//! Load arbitrary bytes as a ruleset.json; when one loads, play a seeded game with it.
//! Whatever the bytes, loading must not panic, and a ruleset the loader accepts must play
//! to the end (every player out, or the engine's own round limit) without panicking, hanging
//! or running out of memory, with the fewest players the rules allow.
#![no_main]

use libfuzzer_sys::fuzz_target;
use safari::rules::safari_zone::engine::{self, Game, policy};

fuzz_target!(|data: &[u8]| {
    let Ok(rules) = engine::load(data) else {
        return;
    };
    let (fewest, most) = rules.players;
    assert!(
        (1..=most).contains(&fewest),
        "the loader accepted players {fewest} to {most}"
    );
    let players = fewest as usize;
    // The seed comes from the input, so the fuzzer can vary the game with the bytes.
    let seed = data.iter().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x100_0000_01b3)
    });
    let mut policies: Vec<policy::Builtin> = (0..players)
        .map(|_| policy::by_name("random").expect("a built-in policy"))
        .collect();
    let mut game = Game::new(&rules, players, seed);
    let winners = game.play(&mut policies);
    assert!(!winners.is_empty(), "no winner");
    assert!(
        winners.iter().all(|w| *w < players),
        "a winner out of range: {winners:?}"
    );
});
