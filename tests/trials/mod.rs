//! Tests made from data: one test per fixture folder (libtest-mimic), so that a run names
//! every fixture that fails and `cargo test --test check sz0101` runs one. A file that uses
//! this is a `harness = false` test target (Cargo.toml) whose `main` calls [`run`].

use std::path::{Path, PathBuf};

pub use libtest_mimic::Trial;

/// The folders inside `relative` (to the repository root), sorted by name.
pub fn folders(relative: &str) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join(relative);
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap_or_else(|err| panic!("{relative}: {err}"))
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    dirs
}

/// The folder's name, as tests and messages call it.
pub fn name(dir: &Path) -> String {
    dir.file_name().unwrap().to_string_lossy().into_owned()
}

/// A test named `group::<folder>` for each folder; a panic in one fails that one alone.
pub fn per_folder<F>(group: &str, dirs: &[PathBuf], test: F) -> Vec<Trial>
where
    F: Fn(&Path) + Send + Sync + Copy + 'static,
{
    dirs.iter()
        .map(|dir| {
            let dir = dir.clone();
            Trial::test(format!("{group}::{}", name(&dir)), move || {
                test(&dir);
                Ok(())
            })
        })
        .collect()
}

/// A test that is one function, as `#[test]` makes it.
pub fn single(name: &str, test: fn()) -> Trial {
    Trial::test(name, move || {
        test();
        Ok(())
    })
}

/// Runs the tests with the command line's filters and options, and exits as libtest does.
pub fn run(trials: Vec<Trial>) -> ! {
    let args = libtest_mimic::Arguments::from_args();
    libtest_mimic::run(&args, trials).exit()
}

/// Holds a fixture's diagnostics to the snapshots beside it: rendered at a fixed width without
/// colour (`diagnostics.snap`), and as JSON (`diagnostics-json.snap`).
pub fn assert_diagnostics_match(
    dir: &Path,
    folder: &safari::world::GameFolder,
    diagnostics: &[safari::diag::Diagnostic],
) {
    use safari::diag::{RenderOptions, render_human, render_json, summary};
    let options = RenderOptions {
        width: 100,
        color: false,
    };
    let text = format!(
        "{}{}\n",
        render_human(diagnostics, folder, options),
        summary(diagnostics)
    );
    let json = render_json(diagnostics, folder);
    insta::with_settings!({
        snapshot_path => dir,
        prepend_module_to_snapshot => false,
        omit_expression => true,
        input_file => dir.join("game.toml"),
    }, {
        insta::assert_snapshot!("diagnostics", text);
        insta::assert_snapshot!("diagnostics-json", json);
    });
}
