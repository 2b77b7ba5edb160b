//! What reaches the terminal: content may hold control characters (an escape sequence that
//! retitles the window, clears the screen or hides a line), and `safari` must print them as
//! visible escapes, never as the bytes a terminal obeys. Each case writes such content into a
//! copy of a fixture game and runs the binary as a user would, with colour off.

use std::path::{Path, PathBuf};
use std::process::Command;

/// A terminal command hidden in content: set the window title, then ring the bell.
const TITLE: &str = "\u{1b}]0;PWNED\u{7}";

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

fn scratch(name: &str) -> PathBuf {
    crate::common::scratch(&format!("terminal-{name}"))
}

/// An edit of a game: in a file, a text and its replacement.
type Edit<'a> = (&'a str, &'a str, &'a str);

/// A copy of a fixture game with `edits` applied.
fn game_with(name: &str, from: &str, edits: &[Edit]) -> PathBuf {
    crate::common::game_with(&format!("terminal-{name}"), &fixture(from), edits)
}

/// Runs the binary; returns stdout and stderr together.
fn run(args: &[&str]) -> Vec<u8> {
    let out = Command::new(env!("CARGO_BIN_EXE_safari"))
        .args(["--color", "never"])
        .args(args)
        .env("COLUMNS", "100")
        .output()
        .expect("the binary runs");
    [out.stdout, out.stderr].concat()
}

/// Fails unless the output shows the content at fault, and shows it inert.
fn assert_printable(what: &str, output: &[u8]) {
    assert_no_controls(what, output);
    let text = String::from_utf8_lossy(output);
    assert!(
        text.contains("PWNED"),
        "{what}: the content at fault is not shown:\n{text}"
    );
}

/// Fails on any byte a terminal would take as a command: C0 controls but line feed (and tab),
/// DEL, and the C1 controls (U+0080 to U+009F, two bytes in UTF-8). The JSON output is held to
/// it too: it may be read on a terminal.
fn assert_no_controls(what: &str, output: &[u8]) {
    let text = String::from_utf8_lossy(output);
    if let Some(c) = text
        .chars()
        .find(|&c| c.is_control() && c != '\n' && c != '\t')
    {
        panic!("{what}: {c:?} reached the terminal:\n{text}");
    }
}

#[test]
fn check_escapes_control_characters_in_content() {
    let toml_title = "\\u001b]0;PWNED\\u0007";
    let cases: &[(&str, &[Edit])] = &[
        // In a name: the message, the label's line and the help.
        (
            "species-name",
            &[(
                "deck.toml",
                "species = \"alpha\"",
                &format!("species = \"{toml_title}alpha\"")[..],
            )],
        ),
        // A C1 control (CSI) and a direction override in a name.
        (
            "c1",
            &[(
                "deck.toml",
                "species = \"alpha\"",
                "species = \"\\u009b2JPWNED\\u202ealpha\"",
            )],
        ),
        // Raw in a source line: the snippet shows it.
        (
            "source-line",
            &[(
                "field-guide.kdl",
                "box vp=1\n",
                &format!("box vp=1 bogus=1 // {TITLE}\n")[..],
            )],
        ),
        // In a file name.
        (
            "file-name",
            &[(
                "game.toml",
                "[play]",
                &format!("[files]\ndeck = \"deck{toml_title}.toml\"\n\n[play]")[..],
            )],
        ),
    ];
    for (name, edits) in cases {
        let dir = game_with(name, "clean-tiny", edits);
        let dir = dir.to_str().unwrap();
        assert_printable(name, &run(&["check", dir]));
        assert_no_controls(name, &run(&["check", dir, "--format", "json"]));
        assert_printable(name, &run(&["build", dir, "--out", dir]));
        std::fs::remove_dir_all(dir).expect("cleaned up");
    }
}

#[test]
fn sim_escapes_control_characters_in_box_ids() {
    let dir = game_with("sim", "clean-tiny", &[]);
    let out = dir.join("out");
    let (dir, out) = (dir.to_str().unwrap(), out.to_str().unwrap());
    run(&["build", dir, "--only", "ruleset", "--out", out]);
    let path = Path::new(out).join("tiny/ruleset.json");
    let ruleset = std::fs::read_to_string(&path).expect("the ruleset was built");
    // Every box id of the tiny game starts with its section's id or `dex-`.
    let mut renamed = ruleset.clone();
    for prefix in ["dex-", "turns.", "areas.", "bag.", "balls.", "evolutions."] {
        renamed = renamed.replace(
            &format!("\"{prefix}"),
            &format!("\"\\u001b]0;PWNED\\u0007{prefix}"),
        );
    }
    assert_ne!(renamed, ruleset);
    std::fs::write(&path, renamed).expect("written");
    let path = path.to_str().unwrap();
    assert_printable("sim", &run(&["sim", path, "--games", "400", "--out", out]));
    std::fs::remove_dir_all(dir).expect("cleaned up");
}

/// The commands that name a folder the user gave print it inert too: `init` the folder it
/// makes (and the game's name it derives from it), `diff` the two versions it compares.
#[test]
fn init_and_diff_escape_control_characters_in_folder_names() {
    let dir = scratch("folders");
    let named = dir.join(format!("game{TITLE}"));
    let named = named.to_str().unwrap();
    assert_printable("init", &run(&["init", named]));
    assert!(
        Path::new(named).join("game.toml").is_file(),
        "init made the game"
    );
    assert_printable("diff", &run(&["diff", named, named, "--games", "10"]));
    std::fs::remove_dir_all(&dir).expect("cleaned up");
}
