//! The `safari` binary as a user runs it: exit codes, output streams, help text.

use std::path::Path;
use std::process::{Command, Output};

use crate::common;

fn safari(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_safari"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .env("COLUMNS", "100")
        .output()
        .expect("the binary runs")
}

fn fixture(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn check_of_the_default_game_succeeds() {
    let out = safari(&["check"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("no problems found"));
}

#[test]
fn check_with_errors_exits_1_and_shows_the_code() {
    let out = safari(&["check", &fixture("sz0402-key-behind-door")]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("SZ0402"), "{stderr}");
    assert!(stderr.contains("1 error"), "{stderr}");
}

#[test]
fn check_with_only_warnings_exits_0() {
    let out = safari(&["check", &fixture("sz0601-turn-budget")]);
    assert_eq!(out.status.code(), Some(0));
    assert!(text(&out.stderr).contains("1 warning"));
}

#[test]
fn json_output_is_one_object_per_diagnostic() {
    let out = safari(&["check", &fixture("sz0201-unknown-name"), "--format", "json"]);
    assert_eq!(out.status.code(), Some(1));
    let value: serde_json::Value = serde_json::from_slice(&out.stdout).expect("stdout is JSON");
    let list = value.as_array().expect("an array");
    assert_eq!(list.len(), 2);
    for d in list {
        for key in [
            "code", "severity", "message", "file", "line", "column", "span", "labels", "help",
        ] {
            assert!(d.get(key).is_some(), "missing {key} in {d}");
        }
        assert_eq!(d["code"], "SZ0201");
    }
    assert_eq!(
        list[0]["help"],
        "a name with a similar spelling exists: `key`"
    );
}

#[test]
fn a_folder_that_is_not_a_game_exits_2() {
    let out = safari(&["check", "tests"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("SZ0003"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn a_missing_folder_exits_2() {
    let out = safari(&["check", "no/such/game"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("cannot open game folder"));
}

#[test]
fn usage_errors_exit_2() {
    let out = safari(&["check", "--format", "xml"]);
    assert_eq!(out.status.code(), Some(2));
    let out = safari(&["frobnicate"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn explain_prints_the_explanation_and_an_example() {
    let out = safari(&["explain", "sz0401"]);
    assert_eq!(out.status.code(), Some(0));
    let stdout = text(&out.stdout);
    assert!(
        stdout.starts_with("SZ0401: a box can never be filled"),
        "{stdout}"
    );
    assert!(stdout.contains("Example:"));
    let flowing = stdout.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flowing.contains("least fixpoint"), "{stdout}");
}

#[test]
fn explain_without_a_code_lists_every_code() {
    let out = safari(&["explain"]);
    assert_eq!(out.status.code(), Some(0));
    let stdout = text(&out.stdout);
    for code in safari::diag::Code::ALL {
        assert!(stdout.contains(code.as_str()), "{code} missing");
    }
}

/// Every code's page has a title, an explanation of some length and an example of the fault,
/// and `explain` prints them.
#[test]
fn every_code_is_explained_with_an_example() {
    let mut faults = Vec::new();
    for code in safari::diag::Code::ALL {
        if code.title().trim().is_empty()
            || code.explanation().split_whitespace().count() < 12
            || code.example().trim().is_empty()
        {
            faults.push(format!(
                "{code}: a title, an explanation or an example is missing"
            ));
            continue;
        }
        let out = safari(&["explain", code.as_str()]);
        let stdout = text(&out.stdout);
        let example_line = code
            .example()
            .lines()
            .find(|l| !l.trim().is_empty())
            .unwrap();
        if out.status.code() != Some(0) || !stdout.contains(example_line.trim()) {
            faults.push(format!(
                "{code}: `safari explain` does not show its example"
            ));
        }
    }
    assert!(faults.is_empty(), "{}", faults.join("\n"));
}

#[test]
fn explain_of_an_unknown_code_exits_2() {
    let out = safari(&["explain", "SZ9999"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn build_with_errors_exits_1() {
    let out = safari(&["build", &fixture("sz0301-deck-size")]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("build stopped"));
}

#[test]
fn help_shows_examples() {
    let out = safari(&["--help"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(text(&out.stdout).contains("Examples:"));
    let out = safari(&["check", "--help"]);
    assert!(text(&out.stdout).contains("--format"));
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("safari-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn safari_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_safari"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .expect("the binary runs")
}

#[test]
fn completions_are_printed_for_each_shell() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let out = safari(&["completions", shell]);
        assert_eq!(out.status.code(), Some(0), "{shell}");
        let script = text(&out.stdout);
        assert!(
            script.contains("safari") && script.contains("explain"),
            "{shell}: {script}"
        );
    }
}

#[test]
fn init_scaffolds_a_game_that_checks_clean_and_refuses_to_overwrite() {
    let dir = temp_dir("init");
    let game = dir.join("my-safari");
    let out = safari_in(&dir, &["init", "my-safari"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    for file in [
        "game.toml",
        "field-guide.kdl",
        "deck.toml",
        "dice.toml",
        "species.toml",
        "items.toml",
        "park-rules.typ",
        "README.md",
        "schema/deck.schema.json",
    ] {
        assert!(game.join(file).is_file(), "{file}");
    }
    let deck = std::fs::read_to_string(game.join("deck.toml")).unwrap();
    assert!(deck.starts_with("#:schema schema/deck.schema.json"));
    let out = safari_in(&dir, &["check", "my-safari"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let again = safari_in(&dir, &["init", "my-safari"]);
    assert_eq!(again.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn outside_a_checkout_the_built_in_game_is_checked_and_built() {
    let dir = temp_dir("outside");
    let out = safari_in(&dir, &["check"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("the built-in Safari Zone RNW: no problems found"));
    let out = safari_in(&dir, &["build"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(dir.join("out/safari-zone/ruleset.json").is_file());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn quiet_keeps_errors_only_and_verbose_says_more() {
    let out = safari(&["check", "--quiet", &fixture("sz0601-turn-budget")]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(text(&out.stderr), "", "warnings are dropped with --quiet");
    let out = safari(&["check", "-q", &fixture("sz0301-deck-size")]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("SZ0301"));
    let dir = temp_dir("verbose");
    let out = safari(&["build", "--verbose", "--out", &dir.to_string_lossy()]);
    assert_eq!(out.status.code(), Some(0));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("built in") && stderr.contains("field-guide.pdf: Typst"),
        "{stderr}"
    );
    let conflict = safari(&["check", "--quiet", "--verbose"]);
    assert_eq!(conflict.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

fn print_fixture(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures-print")
        .join(name)
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

#[test]
fn build_writes_the_print_files_their_previews_and_the_ruleset() {
    let dir = temp_dir("build-all");
    let out = safari(&["build", "--out", &dir.to_string_lossy()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let game = dir.join("safari-zone");
    for file in [
        "field-guide.pdf",
        "encounter-deck.pdf",
        "encounter-deck-cards.pdf",
        "dice.pdf",
        "ruleset.json",
        "preview/field-guide-1.png",
        "preview/field-guide-2.png",
        // Ten pages and more: numbered to sort in page order.
        "preview/encounter-deck-01.png",
        "preview/dice-1.png",
    ] {
        assert!(game.join(file).is_file(), "{file} not written");
    }
    assert!(
        !game.join("preview/cards").exists(),
        "card previews only with --preview"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn build_only_builds_a_subset_and_preview_adds_card_images() {
    let dir = temp_dir("build-only");
    let out = safari(&[
        "build",
        "--only",
        "deck",
        "--preview",
        "--out",
        &dir.to_string_lossy(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let game = dir.join("safari-zone");
    assert!(game.join("encounter-deck.pdf").is_file());
    assert!(!game.join("field-guide.pdf").exists());
    assert!(!game.join("ruleset.json").exists());
    let cards = std::fs::read_dir(game.join("preview/cards"))
        .unwrap()
        .count();
    assert_eq!(cards, 23 + 1, "one image per design, and the back");
    assert!(game.join("preview/cards/12-scyther.png").is_file());
    let bad = safari(&["build", "--only", "tablecloth"]);
    assert_eq!(bad.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_template_error_writes_nothing_and_keeps_the_last_good_build() {
    let dir = temp_dir("build-keep");
    let good = safari(&[
        "build",
        &print_fixture("mini-odd-deck").to_string_lossy(),
        "--out",
        &dir.to_string_lossy(),
    ]);
    assert_eq!(good.status.code(), Some(0), "{}", text(&good.stderr));
    let sheet = dir.join("mini-odd/field-guide.pdf");
    let before = std::fs::read(&sheet).unwrap();
    // The same game, with an error in its Park Rules.
    let bad = safari(&[
        "build",
        &print_fixture("sz0701-park-rules-error").to_string_lossy(),
        "--out",
        &dir.to_string_lossy(),
    ]);
    assert_eq!(bad.status.code(), Some(1));
    let stderr = text(&bad.stderr);
    assert!(
        stderr.contains("SZ0701") && stderr.contains("park-rules.typ:2"),
        "{stderr}"
    );
    assert!(stderr.contains("nothing was written"), "{stderr}");
    assert_eq!(std::fs::read(&sheet).unwrap(), before);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_bad_back_offset_is_a_usage_error() {
    for offset in ["1", "a,b", "50,0"] {
        let out = safari(&["build", "--back-offset", offset]);
        assert_eq!(out.status.code(), Some(2), "{offset}");
    }
}

/// Waits until `done` holds, polling; fails after `seconds`.
fn wait_for(seconds: u64, what: &str, mut done: impl FnMut() -> bool) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(seconds);
    while !done() {
        assert!(
            std::time::Instant::now() < deadline,
            "timed out waiting for {what}"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

#[test]
fn watch_rebuilds_what_a_save_affects_and_keeps_good_outputs_on_errors() {
    let dir = temp_dir("watch");
    let game = dir.join("game");
    copy_dir(&print_fixture("mini-odd-deck"), &game);
    let out_dir = dir.join("out");
    let mut child = Command::new(env!("CARGO_BIN_EXE_safari"))
        .args([
            "watch",
            &game.to_string_lossy(),
            "--out",
            &out_dir.to_string_lossy(),
        ])
        .env("NO_COLOR", "1")
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("watch starts");
    let mut stderr = child.stderr.take().unwrap();
    let said = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = std::io::Read::read_to_string(&mut stderr, &mut text);
        text
    });
    // Stop the watcher even when an assertion fails.
    struct Stop(std::process::Child);
    impl Drop for Stop {
        fn drop(&mut self) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
    let child = Stop(child);
    let deck = out_dir.join("mini-odd/encounter-deck.pdf");
    let sheet = out_dir.join("mini-odd/field-guide.pdf");
    let export = out_dir.join("mini-odd/tts/MiniSafari.json");
    wait_for(180, "the first build", || {
        deck.is_file() && sheet.is_file() && export.is_file()
    });
    // Let the watcher settle before the first edit.
    std::thread::sleep(std::time::Duration::from_millis(500));
    let deck_before = std::fs::read(&deck).unwrap();
    let sheet_modified = std::fs::metadata(&sheet).unwrap().modified().unwrap();

    let deck_toml = game.join("deck.toml");
    let text_before = std::fs::read_to_string(&deck_toml).unwrap();
    std::fs::write(
        &deck_toml,
        text_before.replace("leaves spread wide", "leaves folded tight"),
    )
    .unwrap();
    wait_for(60, "the deck to be rebuilt", || {
        std::fs::read(&deck).is_ok_and(|bytes| bytes != deck_before)
    });
    assert_eq!(
        std::fs::metadata(&sheet).unwrap().modified().unwrap(),
        sheet_modified,
        "a card edit does not rebuild the Field Guide"
    );

    // An error: nothing is written, the last good deck stays.
    let good_deck = std::fs::read(&deck).unwrap();
    std::fs::write(
        &deck_toml,
        text_before.replace("capture-rate = 10", "capture-rate = \"ten\""),
    )
    .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    assert_eq!(std::fs::read(&deck).unwrap(), good_deck);

    drop(child);
    // What it says it rebuilt is what the game has: no tiles or board in Safari Zone RNW.
    let said = said.join().unwrap();
    let rebuilt: Vec<&str> = said.lines().filter(|l| l.starts_with("rebuilt ")).collect();
    assert!(!rebuilt.is_empty(), "{said}");
    for line in rebuilt {
        assert!(line.contains("deck"), "{line}");
        assert!(!line.contains("tiles") && !line.contains("board"), "{line}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn install_copies_the_export_into_tabletop_simulator_without_touching_other_files() {
    let dir = temp_dir("install");
    let tts = dir.join("Tabletop Simulator");
    let saved = tts.join("Saves/Saved Objects");
    std::fs::create_dir_all(&saved).unwrap();
    std::fs::write(saved.join("Someone Else.json"), "{}").unwrap();
    let out = safari(&[
        "build",
        "--only",
        "tts",
        "--out",
        &dir.join("out").to_string_lossy(),
        "--install",
        "--tts-dir",
        &tts.to_string_lossy(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        std::fs::read_to_string(saved.join("Someone Else.json")).unwrap(),
        "{}"
    );
    let json = std::fs::read_to_string(saved.join("SafariZoneRNW.json")).unwrap();
    assert!(saved.join("SafariZoneRNW.png").is_file(), "the thumbnail");
    let images = saved.join("SafariZoneRNW images");
    let urls: Vec<&str> = json
        .split("\"ImageURL\": \"")
        .skip(1)
        .map(|rest| rest.split('"').next().unwrap())
        .collect();
    assert!(!urls.is_empty());
    for url in urls {
        assert!(url.starts_with("file:///"), "{url}");
        let file = url.rsplit('/').next().unwrap();
        assert!(
            images.join(file).is_file(),
            "{url} points at a copied image"
        );
    }
    // The copy in out/ points at out/.
    let exported =
        std::fs::read_to_string(dir.join("out/safari-zone/tts/SafariZoneRNW.json")).unwrap();
    assert!(
        exported.contains("/out/safari-zone/tts/images/"),
        "file URLs into out/"
    );
    // The person is told that only this computer shows those images, and how to share them.
    let said = text(&out.stderr);
    assert!(
        said.contains("only this computer shows them") && said.contains("--asset-base"),
        "{said}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A save whose images are hosted is installed as it is: every address stays the host's, so
/// that every player at the table sees the images, and nothing says they are local.
#[test]
fn install_keeps_a_hosted_asset_base() {
    let dir = temp_dir("install-hosted");
    let tts = dir.join("Tabletop Simulator");
    std::fs::create_dir_all(tts.join("Saves/Saved Objects")).unwrap();
    let out = safari(&[
        "build",
        "--only",
        "tts",
        "--out",
        &dir.join("out").to_string_lossy(),
        "--asset-base",
        "https://example.org/my-images",
        "--install",
        "--tts-dir",
        &tts.to_string_lossy(),
    ]);
    let said = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{said}");
    let json = std::fs::read_to_string(tts.join("Saves/Saved Objects/SafariZoneRNW.json")).unwrap();
    let urls: Vec<&str> = json
        .split("URL\": \"")
        .skip(1)
        .map(|rest| rest.split('"').next().unwrap())
        .filter(|url| !url.is_empty())
        .collect();
    assert!(!urls.is_empty());
    for url in urls {
        assert!(url.starts_with("https://example.org/my-images/"), "{url}");
    }
    assert!(!said.contains("only this computer"), "{said}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn inside_a_game_folder_a_command_uses_that_game_and_says_so() {
    let dir = temp_dir("inside");
    let game = dir.join("my-game");
    copy_dir(Path::new(&fixture("sz0201-unknown-name")), &game);
    let below = game.join("notes");
    std::fs::create_dir_all(&below).unwrap();
    for at in [&game, &below] {
        let out = safari_in(at, &["check"]);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{stderr}");
        assert!(stderr.contains("SZ0201"), "{stderr}");
        assert!(stderr.contains("using the game in"), "{stderr}");
        let out = safari_in(at, &["build"]);
        assert_eq!(out.status.code(), Some(1), "build used another game");
    }
    // Outside any game, in a checkout: the default game, named.
    let out = safari(&["check"]);
    assert!(text(&out.stderr).contains("using the default game in content/safari-zone"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A fault in a manifest is a fault in the content, whatever the game's rules: `check` and
/// `build` exit 1, and `--format json` puts it on standard output as JSON, pointing into
/// game.toml.
#[test]
fn a_manifest_fault_is_content_for_every_game() {
    let dir = temp_dir("manifest-fault");
    for game in [
        "safari-zone",
        "tricky-safari",
        "diceafari",
        "gamewright-safari",
    ] {
        let folder = dir.join(game);
        copy_dir(
            &Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("content")
                .join(game),
            &folder,
        );
        let manifest = folder.join("game.toml");
        let original = std::fs::read_to_string(&manifest).unwrap();
        std::fs::write(&manifest, format!("bogus_key = 3\n{original}")).unwrap();
        let folder = folder.to_str().unwrap();
        let checked = safari_in(&dir, &["check", folder, "--format", "json"]);
        assert_eq!(
            checked.status.code(),
            Some(1),
            "{game}: {}",
            text(&checked.stderr)
        );
        let value: serde_json::Value = serde_json::from_slice(&checked.stdout)
            .unwrap_or_else(|_| panic!("{game}: stdout is not JSON: {}", text(&checked.stdout)));
        let found = value.as_array().unwrap().iter().any(|d| {
            d["message"].as_str().unwrap_or("").contains("bogus_key")
                && d.to_string().contains("game.toml")
        });
        assert!(found, "{game}: {value}");
        let built = safari_in(&dir, &["build", folder, "--out", "out"]);
        assert_eq!(
            built.status.code(),
            Some(1),
            "{game}: {}",
            text(&built.stderr)
        );
        assert!(text(&built.stderr).contains("bogus_key"), "{game}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--install` copies into Tabletop Simulator's folder only once `out/` holds the same export,
/// and replaces the images an earlier install left there.
#[test]
fn install_follows_a_replaced_out_and_leaves_no_old_images() {
    let dir = temp_dir("install-after");
    let tts = dir.join("Tabletop Simulator");
    let saved = tts.join("Saves/Saved Objects");
    let images = saved.join("SafariZoneRNW images");
    std::fs::create_dir_all(&images).unwrap();
    std::fs::write(images.join("from-an-older-install.png"), "old").unwrap();
    // An earlier install marked the folder as safari's (tests/output_folders.rs: one that is
    // not is never replaced).
    std::fs::write(images.join(safari::output::OWNER_MARK), "").unwrap();
    let out = dir.join("out");
    std::fs::create_dir_all(&out).unwrap();
    // A file where the game's output folder goes: the swap into out/ fails.
    std::fs::write(out.join("safari-zone"), "not a folder").unwrap();
    let install = || {
        safari(&[
            "build",
            "--only",
            "tts",
            "--out",
            &out.to_string_lossy(),
            "--install",
            "--tts-dir",
            &tts.to_string_lossy(),
        ])
    };
    let failed = install();
    assert_ne!(failed.status.code(), Some(0), "{}", text(&failed.stderr));
    assert!(
        !saved.join("SafariZoneRNW.json").exists(),
        "nothing is installed when out/ was not replaced"
    );
    assert!(images.join("from-an-older-install.png").exists());
    std::fs::remove_file(out.join("safari-zone")).unwrap();
    let done = install();
    assert_eq!(done.status.code(), Some(0), "{}", text(&done.stderr));
    assert!(saved.join("SafariZoneRNW.json").is_file());
    let left: Vec<_> = std::fs::read_dir(&images)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(!left.is_empty());
    assert!(
        !left.iter().any(|name| name == "from-an-older-install.png"),
        "{left:?}"
    );
    assert!(
        left.iter().any(|name| name == safari::output::OWNER_MARK),
        "{left:?}"
    );
    let beside: Vec<_> = std::fs::read_dir(&saved)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with('.'))
        .collect();
    assert!(beside.is_empty(), "staging left: {beside:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every policy the engine has is offered where a policy is chosen.
#[test]
fn sim_and_diff_help_name_every_policy() {
    for command in ["sim", "diff"] {
        let help = text(&safari(&[command, "--help"]).stdout);
        for name in safari::rules::safari_zone::engine::policy::NAMES {
            assert!(
                help.contains(name),
                "`{command} --help` omits {name}:\n{help}"
            );
        }
    }
}

/// `--color rgb` and `--color cmyk` choose the print files' colours: only `build` and `watch`
/// say so; elsewhere they are not offered.
#[test]
fn print_colours_are_offered_only_where_they_mean_something() {
    for command in ["check", "sim", "explain", "diff"] {
        let help = text(&safari(&[command, "--help"]).stdout);
        assert!(
            !help.contains("cmyk") && !help.contains("rgb"),
            "{command}:\n{help}"
        );
    }
    for command in ["build", "watch"] {
        let help = text(&safari(&[command, "--help"]).stdout);
        assert!(help.contains("--color cmyk"), "{command}:\n{help}");
    }
    let refused = safari(&["check", "--color", "cmyk"]);
    assert_eq!(refused.status.code(), Some(2));
}

/// Two copies of a game keep one id, so one output folder: a build of the copy does not
/// silently replace the original's outputs (SZ0802), unless asked to with `--replace`.
#[test]
fn two_folders_with_one_id_do_not_replace_each_others_outputs() {
    let dir = temp_dir("one-id");
    let init = safari_in(&dir, &["init", "my-game", "--quiet"]);
    assert_eq!(init.status.code(), Some(0), "{}", text(&init.stderr));
    copy_dir(&dir.join("my-game"), &dir.join("my-game-orig"));
    let build = |game: &str, more: &[&str]| {
        let mut args = vec!["build", game, "--only", "ruleset", "--out", "out"];
        args.extend_from_slice(more);
        safari_in(&dir, &args)
    };
    let first = build("my-game", &[]);
    assert_eq!(first.status.code(), Some(0), "{}", text(&first.stderr));
    let ruleset = dir.join("out/my-game/ruleset.json");
    let before = std::fs::read(&ruleset).unwrap();
    // The copy differs, so that a replaced ruleset would show.
    let guide = dir.join("my-game-orig/game.toml");
    let text_before = std::fs::read_to_string(&guide).unwrap();
    std::fs::write(
        &guide,
        text_before.replacen("name = \"", "name = \"Copy of ", 1),
    )
    .unwrap();
    let refused = build("my-game-orig", &[]);
    assert_eq!(refused.status.code(), Some(2), "{}", text(&refused.stderr));
    let said = text(&refused.stderr);
    assert!(
        said.contains("SZ0802") && said.contains("--replace"),
        "{said}"
    );
    assert_eq!(
        std::fs::read(&ruleset).unwrap(),
        before,
        "the outputs are as they were"
    );
    // The same folder builds again; the copy replaces them when asked.
    assert_eq!(build("my-game", &[]).status.code(), Some(0));
    let replaced = build("my-game-orig", &["--replace"]);
    assert_eq!(
        replaced.status.code(),
        Some(0),
        "{}",
        text(&replaced.stderr)
    );
    assert_ne!(std::fs::read(&ruleset).unwrap(), before);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A sheet too big for its paper stops the build, and says which outputs still build.
#[test]
fn a_sheet_that_does_not_fit_says_what_still_builds() {
    let dir = temp_dir("no-fit");
    assert_eq!(
        safari_in(&dir, &["init", "g", "--quiet"]).status.code(),
        Some(0)
    );
    let stopped = safari_in(&dir, &["build", "g", "--paper", "100x120", "--out", "out"]);
    assert_eq!(stopped.status.code(), Some(1));
    let said = text(&stopped.stderr);
    assert!(said.contains("SZ0309"), "{said}");
    let hint = said
        .lines()
        .find_map(|l| l.split("`safari build --only ").nth(1))
        .unwrap_or_else(|| panic!("no hint: {said}"));
    let only = hint.split('`').next().unwrap();
    assert_eq!(only, "deck,dice");
    let rest = safari_in(
        &dir,
        &[
            "build", "g", "--paper", "100x120", "--out", "out", "--only", only,
        ],
    );
    assert_eq!(rest.status.code(), Some(0), "{}", text(&rest.stderr));
    assert!(dir.join("out/g/encounter-deck.pdf").is_file());
    let _ = std::fs::remove_dir_all(&dir);
}

/// `watch` takes `--only`, `--paper` and `--preview` as `build` does.
#[test]
fn watch_builds_only_what_it_is_asked_for() {
    let dir = temp_dir("watch-only");
    let game = dir.join("game");
    copy_dir(&print_fixture("mini-odd-deck"), &game);
    let out_dir = dir.join("out");
    let child = Command::new(env!("CARGO_BIN_EXE_safari"))
        .args([
            "watch",
            &game.to_string_lossy(),
            "--out",
            &out_dir.to_string_lossy(),
            "--only",
            "deck",
            "--preview",
            "--paper",
            "letter",
        ])
        .env("NO_COLOR", "1")
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("watch starts");
    struct Stop(std::process::Child);
    impl Drop for Stop {
        fn drop(&mut self) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
    let child = Stop(child);
    let cards = out_dir.join("mini-odd/preview/cards");
    wait_for(180, "the card previews", || {
        std::fs::read_dir(&cards).is_ok_and(|mut entries| entries.next().is_some())
    });
    let deck = lopdf::Document::load(out_dir.join("mini-odd/encounter-deck.pdf")).unwrap();
    let (width, height) = common::page_sizes_mm(&deck)[0];
    assert!(
        (width - 215.9).abs() < 0.5 && (height - 279.4).abs() < 0.5,
        "the deck is printed on Letter: {width} x {height} mm"
    );
    assert!(!out_dir.join("mini-odd/field-guide.pdf").exists());
    assert!(!out_dir.join("mini-odd/ruleset.json").exists());
    drop(child);
    let _ = std::fs::remove_dir_all(&dir);
}
