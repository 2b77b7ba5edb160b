//! Every playtest page on a laptop's screen (1280x720) and on a phone's (390x844), in Chromium:
//! nothing drawn past the screen's width (no sideways scrolling), the sheet, the jungle, the
//! board or the map drawn large enough to read and to click, what the turn asks reachable at
//! once (on a phone before the sheet, not after it; on a laptop beside the sheet, in view as the
//! page scrolls down it), controls a finger can tap, moves played by taps, the New game dialog
//! and the game's end within the screen.
//!
//! `tests/browser/screens.mjs` drives the pages with Node and playwright-core. Where Node,
//! playwright-core or Chromium is missing the tests are skipped with a printed reason, unless
//! `SAFARI_REQUIRE_BROWSER` is set (CI sets it), when they fail. Screenshots of each page at
//! each size are left in the target folder to look at.

use crate::browser;

use std::path::{Path, PathBuf};
use std::process::Command;

use safari::backends::{BuildOptions, Target};
use safari::world::GameFolder;
use serde_json::Value;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The laptop's screen and the phone's, as `screens.mjs` names them.
const LAPTOP: (&str, f64, f64) = ("laptop", 1280.0, 720.0);
const PHONE: (&str, f64, f64) = ("phone", 390.0, 844.0);

/// The Field Guide as the page drew it at 1280x720 before it took the column's width.
const OLD_SHEET: (f64, f64) = (378.0, 535.0);

/// The playtest page of the game in `content/<game>`, built as `safari build` builds it.
fn build(game: &str) -> PathBuf {
    let mut folder = GameFolder::open(&Path::new(ROOT).join("content").join(game)).unwrap();
    let options = BuildOptions {
        targets: vec![Target::Ruleset, Target::Play],
        ..BuildOptions::default()
    };
    let outputs = safari::build(&mut folder, &options)
        .outputs
        .expect("the game builds");
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("screens-build-{game}"));
    let _ = std::fs::remove_dir_all(&dir);
    for output in &outputs {
        let path = dir.join(&output.path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, &output.bytes).unwrap();
    }
    dir.join("play/index.html")
}

/// Runs `screens.mjs` on the game's page: what it measured at each size, after checking that
/// the page logged nothing and loaded nothing from outside.
fn screens(game: &str) -> Option<Value> {
    let node = browser::node()?;
    let chromium = browser::chromium()?;
    let page = build(game);
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("screens-{game}"));
    let _ = std::fs::remove_dir_all(&dir);
    let output = Command::new(node)
        .arg(Path::new(ROOT).join("tests/browser/screens.mjs"))
        .arg(&dir)
        .arg(format!("{game}={}", page.display()))
        .env("CHROMIUM", chromium)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "screens.mjs failed on {game}:\n{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    let report: Value =
        serde_json::from_slice(&std::fs::read(dir.join("result.json")).unwrap()).unwrap();
    println!("screenshots of {game}: {}", dir.display());
    assert_eq!(
        report["problems"],
        serde_json::json!([]),
        "the {game} page complained"
    );
    Some(report["result"][game].clone())
}

fn num(value: &Value, what: &str) -> f64 {
    value
        .as_f64()
        .unwrap_or_else(|| panic!("{what} was not measured: {value}"))
}

/// What a page does wrong, every fault of it, told at once.
#[derive(Default)]
struct Faults(Vec<String>);

impl Faults {
    fn hold(&mut self, ok: bool, fault: impl FnOnce() -> String) {
        if !ok {
            self.0.push(fault());
        }
    }
}

/// What holds of a page at any size, at each moment measured: nothing wider than the screen,
/// and the drawing within it, whole.
fn fits(faults: &mut Faults, at: &str, width: f64, seen: &Value) {
    faults.hold(
        num(&seen["scroll_width"], "the page's width") <= width,
        || {
            format!(
                "{at}: the page is wider than the screen ({} px for {width}), drawn past it: {}",
                seen["scroll_width"], seen["past"]
            )
        },
    );
    faults.hold(seen["past"] == serde_json::json!([]), || {
        format!("{at}: drawn past the screen's edge: {}", seen["past"])
    });
    let drawing = &seen["drawing"];
    faults.hold(
        num(&drawing["left"], "the drawing's left") >= 0.0
            && num(&drawing["right"], "the drawing's right") <= width,
        || format!("{at}: the drawing lies outside the screen: {drawing}"),
    );
    faults.hold(seen["drawing_clipped"] == Value::Bool(false), || {
        format!("{at}: the drawing holds more than it shows (it scrolls sideways)")
    });
}

/// The least a piece of the drawing (a card, a cell, a tile; the sheet itself) measures at
/// each size, and the least width of the drawing on a phone.
struct Least {
    piece_laptop: f64,
    piece_phone: f64,
    drawing_phone: f64,
}

fn check(game: &str, least: Least) {
    let Some(result) = screens(game) else {
        return;
    };
    let mut faults = Faults::default();
    for (size, width, height) in [LAPTOP, PHONE] {
        let seen = &result[size];
        let at = format!("{game} at {size}");
        // The New game dialog within the screen, nothing in it scrolled sideways.
        let dialog = &seen["dialog"];
        assert!(!dialog.is_null(), "{at}: no New game dialog: {seen}");
        faults.hold(
            num(&dialog["left"], "the dialog's left") >= 0.0
                && num(&dialog["right"], "the dialog's right") <= width
                && num(&dialog["start"]["right"], "Start's right") <= width,
            || format!("{at}: the New game dialog lies outside the screen: {dialog}"),
        );
        faults.hold(
            num(&dialog["scroll_width"], "the dialog's width")
                <= num(&dialog["client_width"], "the dialog's width")
                && num(&dialog["page_scroll_width"], "the page's width") <= width,
            || format!("{at}: the New game dialog is wider than the screen: {dialog}"),
        );
        if !seen["error"].is_null() {
            faults.0.push(format!(
                "{at}: the page could not be played: {}",
                seen["error"]
            ));
            continue;
        }
        for moment in ["playing", "moved", "over"] {
            fits(
                &mut faults,
                &format!("{at}, {moment}"),
                width,
                &seen[moment],
            );
        }
        if let Some(maps) = seen["maps"].as_object() {
            for (map, drawn) in maps {
                fits(&mut faults, &format!("{at}, {map}"), width, drawn);
            }
        }
        // Moves made by taps (clicks on the laptop), each doing something.
        let moves = &seen["moves"];
        faults.hold(
            num(&moves["made"], "the moves made") >= 3.0 && moves["idle"] == 0,
            || format!("{at}: the moves tapped did not all play: {moves}"),
        );
        let playing = &seen["playing"];
        let piece = num(&playing["piece"]["width"], "a piece's width")
            .min(num(&playing["piece"]["height"], "a piece's height"));
        let choice = &playing["choice"];
        faults.hold(
            num(&choice["top"], "the first choice's top") < height,
            || format!("{at}: the first choice lies below the first screen: {choice}"),
        );
        if size == "laptop" {
            faults.hold(piece >= least.piece_laptop, || {
                format!(
                    "{at}: the drawing's pieces are {piece} px, less than {}",
                    least.piece_laptop
                )
            });
            // What the turn asks is in view as the page scrolls to the drawing's foot.
            let foot = &seen["at_foot"]["choice"];
            faults.hold(
                num(&foot["top"], "the choice's top at the foot") >= 0.0
                    && num(&foot["bottom"], "the choice's bottom at the foot") <= height,
                || {
                    format!(
                        "{at}: scrolled to the drawing's foot, the choices are out of view: {}",
                        seen["at_foot"]
                    )
                },
            );
        } else {
            faults.hold(piece >= least.piece_phone, || {
                format!(
                    "{at}: the drawing's pieces are {piece} px, less than {}",
                    least.piece_phone
                )
            });
            let drawn = num(&playing["drawing"]["width"], "the drawing's width");
            faults.hold(drawn >= least.drawing_phone, || {
                format!(
                    "{at}: the drawing is {drawn} px wide, less than {}",
                    least.drawing_phone
                )
            });
            // What the turn asks comes before the sheet: wholly on the first screen.
            faults.hold(
                num(&choice["bottom"], "the first choice's bottom") <= height,
                || format!("{at}: the first choice runs below the first screen: {choice}"),
            );
            // Controls a finger can tap.
            faults.hold(
                num(&playing["smallest_control"], "the smallest control") >= 40.0,
                || {
                    format!(
                        "{at}: controls smaller than a finger: {}",
                        playing["small_controls"]
                    )
                },
            );
            // The game's end on the first screen.
            let over = &seen["over"]["panel"];
            faults.hold(num(&over["top"], "the game's end") < height, || {
                format!("{at}: the game's end lies below the first screen: {over}")
            });
        }
    }
    if game == "safari-zone" {
        // The Field Guide readable on a laptop: the column's width, at least twice the area
        // it had when it was fitted whole into the screen's height.
        let sheet = &result["laptop"]["playing"]["drawing"];
        let width = num(&sheet["width"], "the sheet's width");
        let height = num(&sheet["height"], "the sheet's height");
        faults.hold(
            width >= 700.0 && width * height >= 2.0 * OLD_SHEET.0 * OLD_SHEET.1,
            || format!("{game} at laptop: the Field Guide is drawn at {width}x{height}"),
        );
    } else {
        // The table wholly on a laptop's first screen.
        let drawing = &result["laptop"]["playing"]["drawing"];
        faults.hold(
            num(&drawing["bottom"], "the drawing's foot") <= LAPTOP.2,
            || format!("{game} at laptop: the table runs below the first screen: {drawing}"),
        );
    }
    assert!(
        faults.0.is_empty(),
        "{game} does not fit the screens:\n{}",
        faults.0.join("\n")
    );
}
#[test]
fn safari_zone_fits_a_laptop_and_a_phone() {
    check(
        "safari-zone",
        Least {
            piece_laptop: 700.0,
            piece_phone: 340.0,
            drawing_phone: 340.0,
        },
    );
}

#[test]
fn gamewright_safari_fits_a_laptop_and_a_phone() {
    check(
        "gamewright-safari",
        Least {
            piece_laptop: 56.0,
            piece_phone: 40.0,
            drawing_phone: 340.0,
        },
    );
}

#[test]
fn diceafari_fits_a_laptop_and_a_phone() {
    check(
        "diceafari",
        Least {
            piece_laptop: 50.0,
            piece_phone: 30.0,
            drawing_phone: 200.0,
        },
    );
}

#[test]
fn tricky_safari_fits_a_laptop_and_a_phone() {
    check(
        "tricky-safari",
        Least {
            piece_laptop: 40.0,
            piece_phone: 28.0,
            drawing_phone: 340.0,
        },
    );
}
