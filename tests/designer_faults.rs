//! The small faults a day of a designer's edits trips on (issue 45, items 13 and 14): where a
//! card too large for its paper is blamed, `--out` naming a file, what `fix` says is left, one
//! reader of paper sizes, a progress line's first estimate, plurals, preview names, and the
//! charts' key.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use safari::diag::{Code, Diagnostic};
use safari::model::Paper;
use safari::world::GameFolder;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn safari(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_safari"))
        .args(args)
        .current_dir(root())
        .env("NO_COLOR", "1")
        .env("COLUMNS", "100")
        .output()
        .expect("the binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn scratch(name: &str) -> PathBuf {
    crate::common::scratch(&format!("faults-{name}"))
}

fn game_with(name: &str, from: &Path, edits: &[(&str, &str, &str)]) -> PathBuf {
    crate::common::game_with(&format!("faults-{name}"), from, edits)
}

fn tiny() -> PathBuf {
    root().join("tests/fixtures/clean-tiny")
}

fn check(dir: &Path, paper: Option<Paper>) -> (GameFolder, Vec<Diagnostic>) {
    let mut folder = GameFolder::open(dir).expect("the folder opens");
    let options = safari::CheckOptions {
        paper,
        ..Default::default()
    };
    let checked = safari::check_with(&mut folder, &options);
    (folder, checked.diagnostics.into_vec())
}

#[test]
fn paper_is_read_one_way_in_game_toml_and_on_the_command_line() {
    for (written, paper) in [
        ("a5", Paper::A5),
        ("A5", Paper::A5),
        ("A4", Paper::A4),
        ("Letter", Paper::Letter),
        ("TABLOID", Paper::Tabloid),
    ] {
        assert_eq!(Paper::parse(written), Ok(paper), "{written}");
    }
    assert!(Paper::parse("legal").is_err());
    // game.toml reads what `--paper` reads.
    let game = game_with(
        "paper-a4",
        &root().join("content/safari-zone"),
        &[("game.toml", "paper = \"a4\"", "paper = \"A4\"")],
    );
    let (_, diagnostics) = check(&game, None);
    assert!(
        diagnostics.is_empty(),
        "`paper = \"A4\"`: {:?}",
        diagnostics.iter().map(|d| &d.message).collect::<Vec<_>>()
    );
    let game = game_with(
        "paper-a5",
        &tiny(),
        &[("game.toml", "[play]", "[print]\npaper = \"A5\"\n\n[play]")],
    );
    let (_, diagnostics) = check(&game, None);
    assert!(
        !diagnostics.iter().any(|d| d.code == Code::InvalidValue),
        "`paper = \"A5\"`: {:?}",
        diagnostics.iter().map(|d| &d.message).collect::<Vec<_>>()
    );
    // And the command line takes a5 as the manifest does: never a usage error.
    let out = safari(&["check", tiny().to_str().unwrap(), "--paper", "a5"]);
    assert_ne!(out.status.code(), Some(2), "{}", text(&out.stderr));
    let _ = std::fs::remove_dir_all(game);
}

#[test]
fn a_card_too_large_for_the_paper_is_blamed_on_its_card_size_or_on_the_flag() {
    let small = Some(Paper::Custom {
        width: 100.0,
        height: 100.0,
    });
    // The card size is written: the fault is pointed at it, not at the manifest's first line.
    let (folder, diagnostics) = check(&root().join("content/safari-zone"), small);
    let fit = diagnostics
        .iter()
        .find(|d| d.code == Code::TooLargeForPaper)
        .expect("SZ0313");
    let label = fit.primary().expect("a label");
    let source = folder.source(label.origin.file);
    assert_eq!(source.name, "game.toml");
    assert_eq!(&source.text[label.origin.range()], "\"poker\"");
    assert!(fit.message.contains("`--paper`"), "{}", fit.message);
    // Nothing in the game says what does not fit: no label, and the message says where the
    // paper came from.
    let (_, diagnostics) = check(&tiny(), small);
    let fit = diagnostics
        .iter()
        .find(|d| d.code == Code::TooLargeForPaper)
        .expect("SZ0313");
    assert!(fit.labels.is_empty(), "{:?}", fit.labels);
    assert!(
        fit.message.contains("`--paper`") && fit.message.contains("mm cards"),
        "{}",
        fit.message
    );
}

#[test]
fn out_naming_a_file_is_refused_before_any_work() {
    let dir = scratch("out-file");
    let file = dir.join("results.txt");
    std::fs::write(&file, "my notes").expect("a file");
    let tiny = tiny();
    let (tiny, file) = (tiny.to_str().unwrap(), file.to_str().unwrap());
    for args in [
        vec!["build", tiny, "--out", file],
        // Ten thousand games and a diff's two simulations would take a while.
        vec!["sim", tiny, "--games", "100000", "--out", file],
        vec!["diff", tiny, tiny, "--games", "100000", "--out", file],
    ] {
        let started = Instant::now();
        let out = safari(&args);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains("SZ0808") && stderr.contains("give a folder"),
            "{args:?}: {stderr}"
        );
        assert!(!stderr.contains("os error"), "{args:?}: {stderr}");
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "{args:?} took {:?}",
            started.elapsed()
        );
    }
    assert_eq!(std::fs::read_to_string(file).unwrap(), "my notes");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn fix_counts_only_the_suggestions_a_person_still_has_to_choose() {
    // `Key` breaks the id rule (a sure fix renames it `key`), and the two boxes naming `key`
    // get guesses ("was `key` renamed to `Key`?") that the rename makes moot.
    let game = game_with(
        "fix-counts",
        &tiny(),
        &[("items.toml", "id = \"key\"", "id = \"Key\"")],
    );
    let before = safari(&["check", game.to_str().unwrap()]);
    assert_eq!(before.status.code(), Some(1), "{}", text(&before.stderr));
    let out = safari(&["fix", game.to_str().unwrap()]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("applied 1 fix in 1 file"), "{stderr}");
    assert!(!stderr.contains("suggestion"), "{stderr}");
    assert!(
        !stderr.contains("(s)") && !stderr.contains("(es)"),
        "{stderr}"
    );
    let after = safari(&["check", game.to_str().unwrap()]);
    assert_eq!(after.status.code(), Some(0), "{}", text(&after.stderr));
    let _ = std::fs::remove_dir_all(game);
}

#[test]
fn a_die_face_written_with_a_capital_is_fixed_to_the_name_the_help_gives() {
    let game = game_with(
        "face-capitals",
        &root().join("tests/fixtures/sz0201-face-in-capitals"),
        &[],
    );
    let (_, diagnostics) = check(&game, None);
    // A face in dice.toml, a habitat in the Field Guide.
    let faces: Vec<&Diagnostic> = diagnostics
        .iter()
        .filter(|d| d.code == Code::UnknownName)
        .collect();
    assert_eq!(faces.len(), 2, "{faces:?}");
    for d in &faces {
        assert!(d.fixes.iter().any(|f| f.is_machine_applicable()), "{d:?}");
    }
    let out = safari(&["fix", game.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let dice = std::fs::read_to_string(game.join("dice.toml")).unwrap();
    assert!(dice.contains("\"water\", \"hazard\"]"), "{dice}");
    let guide = std::fs::read_to_string(game.join("field-guide.kdl")).unwrap();
    assert!(guide.contains("gives=\"habitat:water\""), "{guide}");
    let after = safari(&["check", game.to_str().unwrap()]);
    assert_eq!(after.status.code(), Some(0), "{}", text(&after.stderr));
    let _ = std::fs::remove_dir_all(game);
}

#[test]
fn a_progress_line_shows_no_pace_until_it_means_something() {
    use safari::words::{duration, pace, rate};
    // One game done, or a few in a blink: no estimate yet.
    assert_eq!(pace(Duration::from_secs(2), 0, 1999), None);
    assert_eq!(pace(Duration::from_millis(200), 40, 1959), None);
    assert_eq!(pace(Duration::from_secs(5), 2, 1997), None);
    assert_eq!(
        pace(Duration::from_secs(2), 300, 1700).as_deref(),
        Some("150/s, 11 s left")
    );
    assert_eq!(rate(0.5283), "one every 2 s");
    assert_eq!(rate(2.54), "2.5/s");
    assert_eq!(rate(143.2), "143/s");
    assert_eq!(rate(12_345.0), "12,345/s");
    assert_eq!(duration(Duration::from_secs(63 * 60)), "1 h 3 min");
    assert_eq!(duration(Duration::from_secs(200)), "3 min 20 s");
}

#[test]
fn counts_are_said_with_their_noun_in_the_right_number() {
    use safari::words::{plural, plural_of};
    assert_eq!(plural(1usize, "item"), "1 item");
    assert_eq!(plural(0u32, "item"), "0 items");
    assert_eq!(plural(2u64, "box"), "2 boxes");
    assert_eq!(plural(3usize, "copy"), "3 copies");
    assert_eq!(plural(2usize, "day"), "2 days");
    assert_eq!(plural_of(2usize, "species", "species"), "2 species");
    assert_eq!(plural(1usize, "card"), "1 card");
    assert_eq!(plural_of(1usize, "fix", "fixes"), "1 fix");
    // The sources say no count with "(s)".
    let mut faults = Vec::new();
    for dir in [
        "src",
        "crates/rules/src",
        "crates/core/src",
        "crates/components/src",
    ] {
        for (path, text) in rust_files(&root().join(dir)) {
            for (n, line) in text.lines().enumerate() {
                // "(s)" inside a string literal: after an odd number of quotes.
                let in_a_string = ["(s)", "(es)"].iter().any(|mark| {
                    line.match_indices(mark)
                        .any(|(at, _)| !line[..at].matches('"').count().is_multiple_of(2))
                });
                if in_a_string {
                    faults.push(format!("{}:{}: {}", path.display(), n + 1, line.trim()));
                }
            }
        }
    }
    assert!(faults.is_empty(), "counts with (s):\n{}", faults.join("\n"));
}

fn rust_files(dir: &Path) -> Vec<(PathBuf, String)> {
    let mut files = Vec::new();
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).expect("a folder") {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).expect("a file");
                files.push((path, text));
            }
        }
    }
    files
}

/// What `safari check` of the fixture `name` prints on standard error.
fn checked(name: &str) -> String {
    let fixture = root().join("tests/fixtures").join(name);
    text(&safari(&["check", fixture.to_str().unwrap()]).stderr)
}

#[test]
fn diagnostics_have_no_empty_heading_and_never_wrap_inside_an_id() {
    // An excerpt of another file follows its diagnostic without an empty "Advice:" line.
    let stderr = checked("sz0304-passive-use");
    assert!(stderr.contains("related, in items.toml"), "{stderr}");
    assert!(!stderr.contains("Advice:"), "{stderr}");
    // A long help wraps between words, never after the dash of an id.
    let stderr = checked("sz0103-bad-effect");
    assert!(stderr.contains("\"redraw-species\""), "{stderr}");
    assert!(stderr.contains("`{ capture-bonus = 1 }`"), "{stderr}");
    for line in stderr.lines() {
        assert!(
            !line.trim_end().ends_with('-'),
            "wrapped inside a word: {line:?}"
        );
    }
}

#[test]
fn sections_overlapping_on_one_row_say_row_not_rows() {
    let (_, diagnostics) = check(&root().join("tests/fixtures/sz0308-layout-overlap"), None);
    let labels: Vec<&str> = diagnostics
        .iter()
        .flat_map(|d| &d.labels)
        .map(|l| l.message.as_str())
        .filter(|m| m.starts_with("covers"))
        .collect();
    assert!(!labels.is_empty());
    for label in labels {
        assert!(!label.contains("rows 3-3"), "{label}");
        assert!(
            !label
                .split(", ")
                .any(|part| part.split_once(' ').is_some_and(|(what, span)| {
                    what.ends_with('s') && span.split_once('-').is_some_and(|(a, b)| a == b)
                })),
            "{label}"
        );
    }
}

#[test]
fn preview_files_sort_in_page_order() {
    use safari::backends::print::plan::preview_name;
    assert_eq!(preview_name("dice", 3, 9), "preview/dice-3.png");
    assert_eq!(preview_name("deck", 3, 12), "preview/deck-03.png");
    assert_eq!(preview_name("deck", 12, 12), "preview/deck-12.png");
    let mut names: Vec<String> = (1..=12).map(|p| preview_name("deck", p, 12)).collect();
    let in_order = names.clone();
    names.sort();
    assert_eq!(names, in_order);
    // The build still owns what it names so.
    for name in &in_order {
        assert!(
            safari::backends::Target::Deck.owns(name, &|_| vec!["deck"]),
            "{name}"
        );
    }
}

/// The value of `name="..."` in one SVG element's text.
fn attribute<'a>(element: &'a str, name: &str) -> Option<&'a str> {
    let start = element.find(&format!(" {name}=\""))? + name.len() + 3;
    let len = element[start..].find('"')?;
    Some(&element[start..start + len])
}

/// The y of each point of a polyline element's `points`.
fn point_ys(element: &str) -> Vec<f64> {
    attribute(element, "points")
        .unwrap()
        .split_whitespace()
        .map(|p| p.split_once(',').unwrap().1.parse::<f64>().unwrap())
        .collect()
}

fn number(element: &str, name: &str) -> f64 {
    attribute(element, name)
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no {name} in {element}"))
}

/// Every element `<tag ...>` of an SVG, as its text up to `>`, with what follows up to `<`.
fn elements<'a>(svg: &'a str, tag: &str) -> Vec<(&'a str, &'a str)> {
    svg.match_indices(&format!("<{tag} "))
        .map(|(at, _)| {
            let rest = &svg[at..];
            let end = rest.find('>').expect("a closed tag");
            let content = rest[end + 1..].split('<').next().unwrap_or_default();
            (&rest[..end], content)
        })
        .collect()
}

/// The lowest edge of what a chart's key draws (swatches and names), in pixels from the top.
fn key_bottom(svg: &str, names: &[&str]) -> f64 {
    let palette = ["#C0392B", "#1F5F8B"];
    let swatches = elements(svg, "rect")
        .into_iter()
        .filter(|(e, _)| {
            attribute(e, "opacity") == Some("1")
                && attribute(e, "fill")
                    .is_some_and(|f| palette.iter().any(|p| p.eq_ignore_ascii_case(f)))
        })
        .map(|(e, _)| number(e, "y") + number(e, "height"));
    let lines = elements(svg, "polyline")
        .into_iter()
        .filter(|(e, _)| attribute(e, "points").is_some_and(|p| p.split_whitespace().count() == 2))
        .filter(|(e, _)| {
            attribute(e, "stroke")
                .is_some_and(|f| palette.iter().any(|p| p.eq_ignore_ascii_case(f)))
        })
        .flat_map(|(e, _)| point_ys(e));
    let labels = elements(svg, "text")
        .into_iter()
        .filter(|(_, content)| names.contains(content))
        .map(|(e, _)| number(e, "y") + number(e, "font-size"));
    let bottoms: Vec<f64> = swatches.chain(lines).chain(labels).collect();
    assert!(!bottoms.is_empty(), "no key drawn:\n{svg}");
    bottoms.into_iter().fold(f64::MIN, f64::max)
}

#[test]
fn a_charts_key_never_covers_its_bars_or_lines() {
    use safari::charts::{Series, histogram, lines, png};
    // The tallest bars are the last ones, under where a key in the plot's corner would sit.
    let planner: Vec<u32> = (0..200)
        .map(|i| if i < 150 { 95 } else { i % 90 })
        .collect();
    let greedy: Vec<u32> = (0..200)
        .map(|i| if i < 120 { 99 } else { i % 80 })
        .collect();
    let names = ["planner", "greedy"];
    let svg = histogram(
        "Tiny Safari: final VP",
        "victory points",
        &[
            Series {
                name: names[0],
                values: &planner,
            },
            Series {
                name: names[1],
                values: &greedy,
            },
        ],
        5,
    );
    let key = key_bottom(&svg, &names);
    let bars: Vec<f64> = elements(&svg, "rect")
        .into_iter()
        .filter(|(e, _)| attribute(e, "opacity") == Some("0.8"))
        .map(|(e, _)| number(e, "y"))
        .collect();
    assert!(bars.len() >= 10, "{svg}");
    for top in &bars {
        assert!(
            *top >= key,
            "a bar reaches y = {top}, above the key's bottom at {key}"
        );
    }
    assert!(png(&svg).is_ok());
    // Lines that rise to the top right, where the key used to be.
    let rising: Vec<f64> = (0..20).map(|t| f64::from(t) * 5.0).collect();
    let flat: Vec<f64> = (0..20).map(|_| 90.0).collect();
    let svg = lines(
        "Tiny Safari: mean VP after each turn",
        "victory points",
        &[(names[0], &rising), (names[1], &flat)],
    );
    let key = key_bottom(&svg, &names);
    let highest = elements(&svg, "polyline")
        .into_iter()
        .filter(|(e, _)| attribute(e, "points").is_some_and(|p| p.split_whitespace().count() > 2))
        .flat_map(|(e, _)| point_ys(e))
        .fold(f64::MAX, f64::min);
    assert!(
        highest >= key,
        "a line reaches y = {highest}, above the key's bottom at {key}"
    );
    assert!(png(&svg).is_ok());
}
