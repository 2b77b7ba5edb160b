//! `safari check` on fixture games: each folder in tests/fixtures is a game, and its expected
//! diagnostics sit beside it as snapshots (rendered at a fixed width without colour, and as
//! JSON). A fixture named `szNNNN-...` must raise that code and no other.

use std::path::{Path, PathBuf};

use safari::diag::{Code, RenderOptions, render_human};
use safari::world::GameFolder;

mod trials;

use trials::{Trial, folders, name, per_folder, single};

fn fixtures() -> Vec<PathBuf> {
    folders("tests/fixtures")
}

fn main() {
    let fixtures = fixtures();
    let mut tests: Vec<Trial> = Vec::new();
    tests.extend(per_folder(
        "matches_its_snapshots",
        &fixtures,
        matches_its_snapshots,
    ));
    tests.extend(per_folder(
        "raises_its_own_code_and_nothing_else",
        &fixtures,
        raises_its_own_code_and_nothing_else,
    ));
    tests.push(single("every_code_has_a_fixture", every_code_has_a_fixture));
    tests.push(single(
        "the_default_game_checks_clean",
        the_default_game_checks_clean,
    ));
    trials::run(tests)
}

fn check(dir: &Path) -> (GameFolder, Vec<safari::diag::Diagnostic>) {
    let mut folder = GameFolder::open(dir).expect("fixture folder opens");
    let checked = safari::check(&mut folder);
    (folder, checked.diagnostics.into_vec())
}

fn matches_its_snapshots(dir: &Path) {
    let (folder, diagnostics) = check(dir);
    trials::assert_diagnostics_match(dir, &folder, &diagnostics);
}

fn raises_its_own_code_and_nothing_else(dir: &Path) {
    let name = name(dir);
    let (_, diagnostics) = check(dir);
    let codes: Vec<&str> = diagnostics.iter().map(|d| d.code.as_str()).collect();
    match name.split('-').next().filter(|p| p.starts_with("sz")) {
        Some(code) => {
            let code = code.to_ascii_uppercase();
            assert!(!codes.is_empty(), "{name}: expected {code}, got nothing");
            assert!(
                codes.iter().all(|c| *c == code),
                "{name}: expected only {code}, got {codes:?}"
            );
        }
        None => assert!(
            codes.is_empty(),
            "{name}: expected no diagnostics, got {codes:?}"
        ),
    }
}

fn every_code_has_a_fixture() {
    // Typesetting faults (SZ07xx) only show in a build: their fixtures are in
    // tests/fixtures-print, run by tests/print_fixtures.rs.
    let print_fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures-print");
    let names: Vec<String> = fixtures()
        .into_iter()
        .chain(
            std::fs::read_dir(print_fixtures)
                .expect("tests/fixtures-print exists")
                .map(|e| e.expect("readable entry").path()),
        )
        .map(|d| {
            d.file_name()
                .unwrap()
                .to_string_lossy()
                .to_ascii_uppercase()
        })
        .collect();
    // SZ0003 (not a game folder) has no folder to be a fixture of: tests/cli.rs covers it.
    // SZ0801 (outputs not written) is a fault of the output folder: tests/hostile.rs has it.
    // SZ0802 (another game's output folder) is one of two folders: tests/cli.rs has it.
    // SZ0803 (an --asset-base the table cannot load from) is an option: tests/tts.rs has it.
    // SZ0804 (a save naming an image the build does not write) is a fault of safari's, which
    // no content raises: tests/tts.rs holds the check that finds one.
    // SZ0805, SZ0806 and SZ0807 (an output folder safari may not write) are faults of where
    // outputs go: tests/output_folders.rs has them; SZ0808 (an output folder that is a file)
    // too: tests/designer_faults.rs has it.
    let not_content = [
        Code::NotAGame,
        Code::OutputUnwritable,
        Code::OutputOfAnotherGame,
        Code::AssetBaseUnusable,
        Code::ImageNotWritten,
        Code::OutputFolderNotSafaris,
        Code::OutputAmongSources,
        Code::OutputThroughLink,
        Code::OutputRootIsAFile,
    ];
    for code in Code::ALL.iter().filter(|c| !not_content.contains(c)) {
        assert!(
            names.iter().any(|n| n.starts_with(code.as_str())),
            "no fixture for {code}"
        );
    }
}

fn the_default_game_checks_clean() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("content/safari-zone");
    let (folder, diagnostics) = check(&dir);
    assert!(
        diagnostics.is_empty(),
        "{}",
        render_human(&diagnostics, &folder, RenderOptions::default())
    );
}
