//! Fixes: every fix a diagnostic offers, applied to a copy of its fixture, removes that
//! diagnostic and brings no new error; `safari fix` applies the machine-applicable ones, lists
//! what it changed, writes nothing with `--dry-run`, and writes only the game's own files.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

use safari::diag::{Diagnostic, Fix, fix};
use safari::world::GameFolder;

#[allow(dead_code)]
mod trials;

use trials::{Trial, folders, name, per_folder, single};

fn fixtures() -> Vec<PathBuf> {
    folders("tests/fixtures")
}

/// The fixtures that offer fixes: only they get a test of applying them.
fn offering(sure_only: bool) -> Vec<PathBuf> {
    fixtures()
        .into_iter()
        .filter(|dir| {
            check(dir).1.iter().any(|d| {
                d.fixes
                    .iter()
                    .any(|f| !sure_only || f.is_machine_applicable())
            })
        })
        .collect()
}

fn main() {
    let any_fix = offering(false);
    let sure_fix = offering(true);
    let mut tests: Vec<Trial> = Vec::new();
    // So that the tests below cannot pass by having nothing to try.
    tests.push(Trial::test("the_fixtures_offer_fixes_to_try", {
        let (any, sure) = (any_fix.len(), sure_fix.len());
        move || {
            assert!(any >= 10, "only {any} fixtures offer fixes");
            assert!(sure >= 4, "only {sure} fixtures offer fixes that are sure");
            Ok(())
        }
    }));
    tests.extend(per_folder(
        "each_fix_removes_its_diagnostic_and_brings_no_new_error",
        &any_fix,
        each_fix_removes_its_diagnostic_and_brings_no_new_error,
    ));
    tests.extend(per_folder(
        "safari_fix_removes_every_diagnostic_it_is_sure_of",
        &sure_fix,
        safari_fix_removes_every_diagnostic_it_is_sure_of,
    ));
    tests.push(single(
        "a_dry_run_lists_the_edits_and_writes_nothing_then_a_fix_writes_them",
        a_dry_run_lists_the_edits_and_writes_nothing_then_a_fix_writes_them,
    ));
    #[cfg(unix)]
    tests.push(single(
        "fix_does_not_write_through_a_symbolic_link",
        fix_does_not_write_through_a_symbolic_link,
    ));
    tests.push(single(
        "a_game_with_nothing_certain_to_fix_is_left_alone",
        a_game_with_nothing_certain_to_fix_is_left_alone,
    ));
    trials::run(tests)
}

/// A fresh copy of a game folder (its content files, not its snapshots) in a temporary folder.
fn copy_of(dir: &Path) -> PathBuf {
    static COUNT: AtomicUsize = AtomicUsize::new(0);
    let n = COUNT.fetch_add(1, Ordering::Relaxed);
    let copy = std::env::temp_dir().join(format!("safari-fix-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&copy);
    copy_tree(dir, &copy);
    copy
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let target = to.join(path.file_name().unwrap());
        if path.is_dir() {
            copy_tree(&path, &target);
        } else if path.extension().is_none_or(|e| e != "snap") {
            std::fs::copy(&path, &target).unwrap();
        }
    }
}

fn check(dir: &Path) -> (GameFolder, Vec<Diagnostic>) {
    let mut folder = GameFolder::open(dir).expect("the folder opens");
    let checked = safari::check(&mut folder);
    (folder, checked.diagnostics.into_vec())
}

/// How many diagnostics say each thing: a fix of one of three alike removes one.
fn said(diagnostics: &[Diagnostic]) -> BTreeMap<(String, String), usize> {
    let mut counts = BTreeMap::new();
    for d in diagnostics {
        *counts
            .entry((d.code.to_string(), d.message.clone()))
            .or_insert(0) += 1;
    }
    counts
}

fn key(d: &Diagnostic) -> (String, String) {
    (d.code.to_string(), d.message.clone())
}

/// Writes a fix's edits into the copy of the folder they were made against.
fn apply(folder: &GameFolder, copy: &Path, fix: &Fix) {
    for (file, edits) in fix::by_file(&fix.edits) {
        let source = folder.source(file);
        let text = fix::apply(&source.text, &edits)
            .unwrap_or_else(|| panic!("{}: the edits of `{}` overlap", source.name, fix.message));
        std::fs::write(copy.join(&source.name), text).unwrap();
    }
}

fn each_fix_removes_its_diagnostic_and_brings_no_new_error(dir: &Path) {
    let name = name(dir);
    let (folder, before) = check(dir);
    let counts = said(&before);
    for diagnostic in &before {
        for fix in &diagnostic.fixes {
            let copy = copy_of(dir);
            apply(&folder, &copy, fix);
            let (_, after) = check(&copy);
            let now = said(&after);
            let key = key(diagnostic);
            assert!(
                now.get(&key).copied().unwrap_or(0) < counts[&key],
                "{name}: `{}` left {key:?}",
                fix.message
            );
            for d in after.iter().filter(|d| d.is_error()) {
                assert!(
                    counts.contains_key(&self::key(d)),
                    "{name}: `{}` brought a new error: {}: {}",
                    fix.message,
                    d.code,
                    d.message
                );
            }
            let _ = std::fs::remove_dir_all(&copy);
        }
    }
}

fn safari(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_safari"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("the binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn safari_fix_removes_every_diagnostic_it_is_sure_of(dir: &Path) {
    let name = name(dir);
    let (_, before) = check(dir);
    let sure: Vec<&Diagnostic> = before
        .iter()
        .filter(|d| d.fixes.iter().any(Fix::is_machine_applicable))
        .collect();
    let copy = copy_of(dir);
    let out = safari(&["fix", copy.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{name}: {}", text(&out.stderr));
    let (_, after) = check(&copy);
    let counts = said(&before);
    for d in &sure {
        assert!(
            !after.iter().any(|a| key(a) == key(d)),
            "{name}: still {}: {}",
            d.code,
            d.message
        );
    }
    for d in after.iter().filter(|d| d.is_error()) {
        assert!(
            counts.contains_key(&key(d)),
            "{name}: a new error: {}: {}",
            d.code,
            d.message
        );
    }
    let _ = std::fs::remove_dir_all(&copy);
}

fn a_dry_run_lists_the_edits_and_writes_nothing_then_a_fix_writes_them() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/sz0101-single-quotes");
    let copy = copy_of(&dir);
    let guide = copy.join("field-guide.kdl");
    let original = std::fs::read_to_string(&guide).unwrap();

    let out = safari(&["fix", copy.to_str().unwrap(), "--dry-run"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let listing = text(&out.stdout);
    assert!(
        listing.contains("field-guide.kdl:34:53: write `\"Lucky Alpha\"` (SZ0101)"),
        "{listing}"
    );
    assert!(
        listing.contains("  - ") && listing.contains("label='Lucky Alpha'"),
        "{listing}"
    );
    assert!(listing.contains("label=\"Lucky Alpha\""), "{listing}");
    assert!(text(&out.stderr).contains("nothing written"));
    assert_eq!(std::fs::read_to_string(&guide).unwrap(), original);

    let out = safari(&["fix", copy.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), listing);
    let fixed = std::fs::read_to_string(&guide).unwrap();
    assert!(fixed.contains("label=\"Lucky Alpha\""));
    assert!(fixed.contains("box \"dex-beta\""));
    assert!(check(&copy).1.is_empty());
    // No temporary file is left beside the one written.
    let left: Vec<String> = std::fs::read_dir(&copy)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect();
    assert!(left.is_empty(), "{left:?}");
    let _ = std::fs::remove_dir_all(&copy);
}

#[cfg(unix)]
fn fix_does_not_write_through_a_symbolic_link() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/sz0101-single-quotes");
    let copy = copy_of(&dir);
    // The guide the loader reads is a link to a file elsewhere in the folder.
    std::fs::create_dir(copy.join("real")).unwrap();
    std::fs::rename(copy.join("field-guide.kdl"), copy.join("real/guide.kdl")).unwrap();
    std::os::unix::fs::symlink(copy.join("real/guide.kdl"), copy.join("field-guide.kdl")).unwrap();
    let original = std::fs::read_to_string(copy.join("real/guide.kdl")).unwrap();
    let out = safari(&["fix", copy.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("nothing was written"));
    assert_eq!(
        std::fs::read_to_string(copy.join("real/guide.kdl")).unwrap(),
        original
    );
    assert!(copy.join("field-guide.kdl").is_symlink());
    let _ = std::fs::remove_dir_all(&copy);
}

fn a_game_with_nothing_certain_to_fix_is_left_alone() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/sz0201-renamed-species");
    let copy = copy_of(&dir);
    let out = safari(&["fix", copy.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).is_empty());
    let said = text(&out.stderr);
    assert!(said.contains("nothing to fix with certainty"), "{said}");
    // The three places that name the renamed species are one suggestion, made everywhere.
    assert!(said.contains("1 suggestion needs a person"), "{said}");
    let _ = std::fs::remove_dir_all(&copy);
}
