//! The integration tests, as one test binary: each file of tests/ is a module here (but the
//! three made from fixture folders, `check`, `fix` and `print_fixtures`, which run their own
//! harness, tests/trials). One binary is linked once rather than thirty times, and its tests
//! share one pool of threads, so a long test runs beside the others instead of after them
//! (docs/performance.md). `cargo test --test integration tts::` runs one file's tests.

// The binary's allocator (src/main.rs, without the worker's bound): the library runs here as
// it runs in `safari`, and its allocation-heavy checks and typesetting take the time they take
// there.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[allow(dead_code)]
mod browser;
#[allow(dead_code)]
mod common;

mod agreement;
mod architecture;
mod cli;
mod default_game;
mod designer_faults;
mod diceafari;
mod diff;
mod diff_renames;
mod docs;
mod engine;
mod family_bounds;
mod family_page;
mod flood;
mod gamewright;
mod golden;
mod hostile;
mod incremental;
mod init;
mod kdl_spec;
mod layout;
mod output_folders;
mod output_home;
mod packs;
mod playtest;
mod playtest_logs;
mod print;
mod reachability;
mod reports_by_seed;
mod rulebook_turns;
mod ruleset;
mod schema;
mod screens;
mod search;
mod sim;
mod snippets;
mod step;
mod tables;
mod terminal;
mod tricky_safari;
mod tts;
mod tts_lua;
mod tts_replay;
mod tts_score;
mod tts_table;
mod typeset_bounds;
