//! The source snippets of human reports show the lines that matter, with their true numbers.
//!
//! Every report of every fixture, and of games edited here to put faults far apart, on lines
//! wider than the terminal and under labels spanning many lines, is read back and held to:
//!
//! - each source line shown is within two lines of a label (a label spanning more than four
//!   lines counts as on its first line), so nothing between distant labels is printed;
//! - each line shown is the file's line of that number (or pieces of it, around `…`);
//! - no line shown is wider than the render width;
//! - each snippet header names the file, line and column of one of the labels, as the JSON
//!   output gives them.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use safari::diag::{RenderOptions, printable, render_human, render_json};
use safari::world::GameFolder;

const WIDTH: usize = 100;
/// Lines a label may span and still be shown whole.
const WHOLE_SPAN: usize = 4;
/// How far from a label a shown line may be: one line of context, and the lines between two
/// snippets when there are at most two.
const NEAR: usize = 2;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// An edit of a game: in a file, a text and its replacement.
type Edit<'a> = (&'a str, &'a str, String);

/// A copy of a game with `edits` applied.
fn edited(name: &str, from: &Path, edits: &[Edit]) -> PathBuf {
    let edits: Vec<(&str, &str, &str)> =
        edits.iter().map(|(f, o, n)| (*f, *o, n.as_str())).collect();
    crate::common::game_with(&format!("snippets-{name}"), from, &edits)
}

struct Rendered {
    human: String,
    /// Each file's text, by the name reports give it.
    texts: HashMap<String, String>,
    /// Per file: the lines each label may show around, and the (line, column) of each label.
    labels: HashMap<String, Vec<(usize, usize, usize)>>,
}

fn render(dir: &Path) -> Rendered {
    let mut folder = GameFolder::open(dir).expect("the game opens");
    let diagnostics = safari::check(&mut folder).diagnostics.into_vec();
    let human = render_human(
        &diagnostics,
        &folder,
        RenderOptions {
            width: WIDTH,
            color: false,
        },
    );
    let json: serde_json::Value =
        serde_json::from_str(&render_json(&diagnostics, &folder)).expect("JSON");
    let texts: HashMap<String, String> = folder
        .sources()
        .map(|(_, s)| (s.name.clone(), s.text.clone()))
        .collect();
    let mut labels: HashMap<String, Vec<(usize, usize, usize)>> = HashMap::new();
    for label in json
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|d| d["labels"].as_array().unwrap().iter())
    {
        let file = label["file"].as_str().unwrap().to_string();
        let line = label["line"].as_u64().unwrap() as usize;
        let column = label["column"].as_u64().unwrap() as usize;
        let text = &texts[&file];
        let end = (label["span"]["end"].as_u64().unwrap() as usize).min(text.len());
        let mut end_line = text.as_bytes()[..end]
            .iter()
            .filter(|b| **b == b'\n')
            .count()
            + 1;
        if end_line > line && text.as_bytes()[end - 1] == b'\n' {
            end_line -= 1;
        }
        let last = if end_line - line < WHOLE_SPAN {
            end_line
        } else {
            line
        };
        labels.entry(file).or_default().push((line, last, column));
    }
    Rendered {
        human,
        texts,
        labels,
    }
}

/// Holds one game's human report to the rules above.
fn assert_snippets_are_true(what: &str, rendered: &Rendered) {
    let report = &rendered.human;
    let mut file: Option<&str> = None;
    for line in report.lines() {
        if let Some(header) = line.split("╭─[").nth(1) {
            let header = header.trim_end_matches(']');
            let mut parts = header.rsplitn(3, ':');
            let (column, number, name) = (
                parts.next().unwrap().parse::<usize>().unwrap(),
                parts.next().unwrap().parse::<usize>().unwrap(),
                parts.next().unwrap(),
            );
            assert!(
                rendered.labels[name]
                    .iter()
                    .any(|&(l, _, c)| (l, c) == (number, column)),
                "{what}: the header {header} is not where a label is\n{report}"
            );
            file = Some(name);
            continue;
        }
        let Some((number, shown)) = line.split_once(" │ ") else {
            continue;
        };
        let Ok(number) = number.trim().parse::<usize>() else {
            continue;
        };
        let name = file.expect("a snippet line follows a header");
        assert!(
            line.chars().count() <= WIDTH,
            "{what}: a line wider than {WIDTH}:\n{line}"
        );
        assert!(
            rendered.labels[name]
                .iter()
                .any(|&(first, last, _)| number + NEAR >= first && number <= last + NEAR),
            "{what}: line {number} of {name} is far from every label\n{report}"
        );
        let source = rendered.texts[name]
            .lines()
            .nth(number - 1)
            .unwrap_or("")
            .trim_end_matches('\r');
        let source = printable(source);
        // A label spanning lines draws its gutter before the text.
        let shown = shown.trim_start_matches(['│', '╭', '├', '─', '▶', ' ']);
        let pieces: Vec<&str> = shown.split('…').filter(|p| !p.is_empty()).collect();
        assert!(
            pieces.iter().all(|piece| source.contains(piece))
                && (shown.contains('…') || source.ends_with(shown)),
            "{what}: line {number} of {name} is not what the file holds there:\n{line}\n{source}"
        );
    }
}

#[test]
fn fixture_snippets_show_true_lines_near_their_labels() {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(root().join("tests/fixtures"))
        .expect("tests/fixtures exists")
        .map(|e| e.expect("a readable entry").path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    for dir in dirs {
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        assert_snippets_are_true(&name, &render(&dir));
    }
}

#[test]
fn faults_far_apart_long_lines_and_long_spans_show_only_what_matters() {
    let default_game = root().join("content/safari-zone");
    let tiny = root().join("tests/fixtures/clean-tiny");
    let balls = "section \"balls\" title=\"Safari Balls\" column=3 row=3";
    let long = "Lorem ipsum dolor sit amet ".repeat(150);
    let accented = "Évolué à Écarlate ".repeat(200);
    let many_lines: String = (1..=8).map(|n| format!("    {n},\n")).collect();
    let cases: Vec<(&str, &Path, Vec<Edit>)> = vec![
        // Sections far apart in the file overlap on the sheet.
        (
            "overlap",
            &default_game,
            vec![("field-guide.kdl", balls, balls.replace("row=3", "row=2"))],
        ),
        // The same id, forty lines apart.
        (
            "duplicate",
            &default_game,
            vec![(
                "field-guide.kdl",
                balls,
                balls.replace("\"balls\"", "\"bag\""),
            )],
        ),
        // A label over ten lines.
        (
            "long-span",
            &tiny,
            vec![(
                "dice.toml",
                "faces = [1, 2, 3, 4, 5, 6]",
                format!("faces = [\n{many_lines}]"),
            )],
        ),
        // Faults at the start, in the middle and at the end of lines of 4,000 characters.
        (
            "long-lines",
            &tiny,
            vec![
                (
                    "field-guide.kdl",
                    "box vp=1\n",
                    format!("box bogus=1 label=\"{long}\" vp=1\n"),
                ),
                (
                    "field-guide.kdl",
                    "box gives=\"item:key\" vp=2",
                    format!("box label=\"{accented}\" gives=\"item:kye\" label=\"{long}\" vp=2"),
                ),
                (
                    "field-guide.kdl",
                    "box needs=\"item:key\" vp=3",
                    format!("box needs=\"item:key\" label=\"{long}\" vp=3 more=1"),
                ),
                // Escaped, each control character takes six columns.
                (
                    "field-guide.kdl",
                    "box gives=\"habitat:water\" vp=2",
                    format!(
                        "box gives=\"habitat:water\" vp=2 oops=1 // {}",
                        "\u{1b}".repeat(300)
                    ),
                ),
            ],
        ),
    ];
    for (name, game, edits) in cases {
        let dir = edited(name, game, &edits);
        let rendered = render(&dir);
        assert_snippets_are_true(name, &rendered);
        let shown = rendered
            .human
            .lines()
            .filter(|l| {
                l.split_once(" │ ")
                    .is_some_and(|(n, _)| n.trim().parse::<usize>().is_ok())
            })
            .count();
        assert!(shown > 0, "{name}: no source shown\n{}", rendered.human);
        std::fs::remove_dir_all(&dir).expect("cleaned up");
    }
}

#[test]
fn a_label_over_many_lines_says_which_lines_it_spans() {
    let many_lines: String = (1..=8).map(|n| format!("    {n},\n")).collect();
    let dir = edited(
        "span-note",
        &root().join("tests/fixtures/clean-tiny"),
        &[(
            "dice.toml",
            "faces = [1, 2, 3, 4, 5, 6]",
            format!("faces = [\n{many_lines}]"),
        )],
    );
    let human = render(&dir).human;
    assert!(human.contains("8 faces here (lines 15-24)"), "{human}");
    std::fs::remove_dir_all(&dir).expect("cleaned up");
}

#[test]
fn a_diagnostic_with_many_labels_shows_twenty_and_counts_the_rest() {
    let tracks: String = (0..60)
        .map(|i| format!("    track \"t{i}\" {{ box needs=\"vp:999\" }}\n"))
        .collect();
    let dir = edited(
        "many-labels",
        &root().join("tests/fixtures/clean-tiny"),
        &[(
            "field-guide.kdl",
            "section \"pokedex\"",
            format!("section \"far\" fill=\"dice:area\" {{\n{tracks}}}\n\nsection \"pokedex\""),
        )],
    );
    let rendered = render(&dir);
    assert_snippets_are_true("many-labels", &rendered);
    assert_eq!(rendered.human.matches("can never be filled").count(), 19);
    assert!(
        rendered
            .human
            .contains("… and 41 more places not shown (`--format json` lists them all)"),
        "{}",
        rendered.human
    );
    std::fs::remove_dir_all(&dir).expect("cleaned up");
}
