//! Fixture games of typesetting faults (tests/fixtures-print): each `szNNNN-*` folder raises
//! that code and no other when built, through the bounded worker as the command line
//! typesets, and its diagnostics match the snapshots beside it. One test per folder.

use std::path::Path;
use std::time::Duration;

use safari::backends::print::Typesetting;
use safari::backends::print::worker::{Bounds, Worker};
use safari::backends::{BuildOptions, Target};
use safari::world::GameFolder;

#[allow(dead_code)]
mod trials;

use trials::{folders, name, per_folder};

fn main() {
    let faults: Vec<_> = folders("tests/fixtures-print")
        .into_iter()
        .filter(|dir| name(dir).starts_with("sz"))
        .collect();
    assert!(faults.len() >= 3, "only {} print fixtures", faults.len());
    trials::run(per_folder(
        "matches_its_snapshots",
        &faults,
        matches_its_snapshots,
    ))
}

fn matches_its_snapshots(dir: &Path) {
    let name = name(dir);
    let code = name.split('-').next().expect("a code first");
    let mut options = BuildOptions::default();
    options.print.page_previews = false;
    let mut folder = GameFolder::open(dir).unwrap();
    // Through the bounded worker, as the command line typesets: SZ0704's fixture never
    // ends otherwise, and the other faults must come through the worker unchanged. That
    // fixture gets a short time bound, and builds only the sheet its bomb is in, so the
    // message names that one document however slow the machine is.
    let mut bounds = Bounds::DEFAULT;
    if code == "sz0704" {
        bounds.time = Duration::from_secs(3);
        options.targets = vec![Target::Sheet];
    }
    let worker = Worker::new(env!("CARGO_BIN_EXE_safari"), bounds);
    let built = safari::build_with(&mut folder, &options, &mut Typesetting::Bounded(worker));
    let diagnostics = built.checked.diagnostics.into_vec();
    let codes: Vec<&str> = diagnostics.iter().map(|d| d.code.as_str()).collect();
    assert!(
        !codes.is_empty() && codes.iter().all(|c| c.eq_ignore_ascii_case(code)),
        "{name}: {codes:?}"
    );
    assert_eq!(
        built.outputs.is_some(),
        !diagnostics.iter().any(|d| d.is_error()),
        "{name}: outputs exactly when there are no errors"
    );
    trials::assert_diagnostics_match(dir, &folder, &diagnostics);
}
