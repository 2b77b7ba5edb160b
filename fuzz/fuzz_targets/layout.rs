//! Lay out generated Field Guides. The input is a structured description of a guide (sheet
//! columns, sections with or without a written place, notes, tracks and loose boxes of every
//! shape and style with tags, badges, labels and repeats, titles in any script, and a paper),
//! written out as KDL and checked, with the sheet, beside the default game's other files.
//!
//! Whatever the guide, checking must not panic. When the check lays the sheet out (no
//! SZ0309), the layout must keep what `crates/layout/` promises:
//! - every line of text is set at 7 pt or more, and every box is at least 5 mm a side;
//! - the title band, the sections and the foot all lie within the page's 8 mm margin;
//! - sections lie between the title band's rule and the foot, and no two overlap (unless
//!   the check reports written places that do, SZ0308);
//! - every item of a section lies inside the section's panel (see `common/invariants.rs` for
//!   the faults found and reported, whose assertions are relaxed unless asked for);
//! - no two boxes overlap, and a VP badge is clear of every box and every tag;
//! - a section with a written place keeps it (when the places can be drawn: no SZ0308);
//! - laying the same game out again gives the same layout (checked on some inputs).
#![no_main]

use std::fmt::Write as _;

use libfuzzer_sys::arbitrary::{self, Arbitrary};
use libfuzzer_sys::fuzz_target;
use safari::world::GameFolder;

#[path = "common/invariants.rs"]
mod invariants;

const GAME: &str = include_str!("../../content/safari-zone/game.toml");
const ITEMS: &str = include_str!("../../content/safari-zone/items.toml");
const SPECIES: &str = include_str!("../../content/safari-zone/species.toml");
const DICE: &str = include_str!("../../content/safari-zone/dice.toml");
const DECK: &str = include_str!("../../content/safari-zone/deck.toml");

/// Names the default game's files define, so generated terms usually resolve.
const ITEM_IDS: &[&str] = &[
    "area-1-key",
    "area-2-key",
    "old-rod",
    "good-rod",
    "super-rod",
    "bicycle",
    "repel",
    "moon-stone",
    "water-stone",
    "poke-doll",
    "poke-flute",
];
const SPECIES_IDS: &[&str] = &[
    "nidoran-f",
    "nidorina",
    "paras",
    "parasect",
    "psyduck",
    "slowpoke",
    "magikarp",
    "gyarados",
    "dratini",
    "dragonair",
    "dragonite",
    "scyther",
    "chansey",
    "tauros",
];
const FACES: &[&str] = &["area", "trainer", "item", "grass", "water", "hazard"];
const SHAPES: &[&str] = &["square", "circle", "diamond", "hexagon", "star", "ball"];
const STYLES: &[&str] = &["plain", "bonus", "trigger", "free"];
/// Words that stress the text measure: accents, combining marks, other scripts, emoji, wide
/// and narrow letters, characters the bundled fonts lack, long words, spaces of every kind.
const WORDS: &[&str] = &[
    "Pokédex",
    "Safari",
    "Area",
    "Zone",
    "Ünïcödé",
    "e\u{301}\u{302}\u{303}",
    "日本語のテキスト",
    "한국어",
    "עברית",
    "العربية",
    "🐉🔥💧",
    "👨‍👩‍👧‍👦",
    "WWWWWWWWWW",
    "iiiiiiiiii",
    "Supercalifragilisticexpialidocious",
    "a\u{200b}b",
    "tab\there",
    "line\nbreak",
    "\u{a0}",
    "Ω≈ç√∫",
    "\"quoted\"",
    "back\\slash",
    "x",
    "",
];

#[derive(Arbitrary, Debug)]
enum Text {
    /// Any string, cut short.
    Raw(String),
    /// Words from the list, joined by spaces.
    Words(Vec<u8>),
    /// One word many times: long titles and notes.
    Long(u8, u8),
}

impl Text {
    fn render(&self) -> String {
        match self {
            Text::Raw(s) => s.chars().take(80).collect(),
            Text::Words(picks) => picks
                .iter()
                .take(12)
                .map(|p| WORDS[*p as usize % WORDS.len()])
                .collect::<Vec<_>>()
                .join(" "),
            Text::Long(word, times) => {
                vec![WORDS[*word as usize % WORDS.len()]; 1 + *times as usize % 60].join(" ")
            }
        }
    }
}

#[derive(Arbitrary, Debug)]
enum Paper {
    Default,
    A4,
    Letter,
    A3,
    Tabloid,
    Custom {
        width: u16,
        height: u16,
    },
    /// `"WIDTHxHEIGHT"`, in tenths of a millimetre.
    Written {
        width: u16,
        height: u16,
    },
}

#[derive(Arbitrary, Debug)]
enum Fill {
    Dice(u8),
    Turn,
    Ball,
    Collect(Vec<u8>),
    Use(u8),
    Obtain(Vec<u8>),
    Free,
    Bonus,
}

#[derive(Arbitrary, Debug)]
enum Need {
    Item(u8),
    Species(u8),
    /// A track of the guide, by index.
    Area(u8),
    /// A named box of the guide, by index.
    Box(u8),
    Vp(u16),
}

#[derive(Arbitrary, Debug)]
enum Give {
    Item(u8),
    Species(u8),
    Habitat(u8),
}

#[derive(Arbitrary, Debug)]
struct BoxSpec {
    named: bool,
    fill: Option<Fill>,
    needs: Vec<Need>,
    gives: Vec<Give>,
    vp: Option<u16>,
    shape: Option<u8>,
    style: Option<u8>,
    label: Option<Text>,
    repeat: Option<u8>,
}

#[derive(Arbitrary, Debug)]
struct Track {
    title: Option<Text>,
    column: bool,
    fill: Option<Fill>,
    boxes: Vec<BoxSpec>,
}

#[derive(Arbitrary, Debug)]
enum Entry {
    Note(Text),
    Track(Track),
    Loose(BoxSpec),
}

#[derive(Arbitrary, Debug)]
struct Section {
    title: Option<Text>,
    column: Option<u8>,
    row: Option<u8>,
    width: Option<u8>,
    height: Option<u8>,
    fill: Option<Fill>,
    entries: Vec<Entry>,
}

#[derive(Arbitrary, Debug)]
struct Guide {
    title: Option<Text>,
    columns: Option<u8>,
    paper: Paper,
    sections: Vec<Section>,
}

/// A KDL 2 quoted string: `"` and `\` escaped, and every control, direction-changing,
/// line-breaking or byte-order character written as `\u{..}` (KDL forbids them literally).
fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if c.is_control()
                || matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}'
                    | '\u{2066}'..='\u{2069}' | '\u{2028}' | '\u{2029}' | '\u{feff}') =>
            {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn pick<'a>(list: &[&'a str], i: u8) -> &'a str {
    list[i as usize % list.len()]
}

fn alternatives(list: &[&str], picks: &[u8]) -> String {
    let names: Vec<&str> = picks.iter().take(3).map(|p| pick(list, *p)).collect();
    if names.is_empty() {
        list[0].to_string()
    } else {
        names.join("/")
    }
}

impl Fill {
    fn render(&self) -> String {
        match self {
            Fill::Dice(f) => format!("dice:{}", pick(FACES, *f)),
            Fill::Turn => "turn".into(),
            Fill::Ball => "ball".into(),
            Fill::Collect(s) => format!("collect:{}", alternatives(SPECIES_IDS, s)),
            Fill::Use(i) => format!(
                "use:{}",
                pick(
                    &[
                        "moon-stone",
                        "water-stone",
                        "poke-doll",
                        "poke-flute",
                        "repel"
                    ],
                    *i
                )
            ),
            Fill::Obtain(i) => format!("obtain:{}", alternatives(ITEM_IDS, i)),
            Fill::Free => "free".into(),
            Fill::Bonus => "bonus".into(),
        }
    }
}

/// The ids the guide will define, so `needs` can name them.
struct Names {
    tracks: Vec<String>,
    boxes: Vec<String>,
}

fn write_box(out: &mut String, b: &BoxSpec, id: &str, names: &Names, indent: &str) {
    out.push_str(indent);
    out.push_str("box");
    let repeat = b.repeat.map(|r| 1 + r as u32 % 40).filter(|r| *r > 1);
    if b.named && repeat.is_none() {
        let _ = write!(out, " {}", quote(id));
    }
    if let Some(fill) = &b.fill {
        let _ = write!(out, " fill={}", quote(&fill.render()));
    }
    let needs: Vec<String> = b
        .needs
        .iter()
        .take(3)
        .filter_map(|n| {
            Some(match n {
                Need::Item(i) => format!("item:{}", pick(ITEM_IDS, *i)),
                Need::Species(i) => format!("species:{}", pick(SPECIES_IDS, *i)),
                Need::Area(i) if !names.tracks.is_empty() => {
                    format!("area:{}", names.tracks[*i as usize % names.tracks.len()])
                }
                Need::Box(i) if !names.boxes.is_empty() => {
                    format!("box:{}", names.boxes[*i as usize % names.boxes.len()])
                }
                Need::Vp(v) => format!("vp:{}", v % 500),
                _ => return None,
            })
        })
        .collect();
    if !needs.is_empty() {
        let _ = write!(out, " needs={}", quote(&needs.join(", ")));
    }
    let gives: Vec<String> = b
        .gives
        .iter()
        .take(3)
        .map(|g| match g {
            Give::Item(i) => format!("item:{}", pick(ITEM_IDS, *i)),
            Give::Species(i) => format!("species:{}", pick(SPECIES_IDS, *i)),
            Give::Habitat(h) => format!("habitat:{}", pick(&["grass", "water", "any"], *h)),
        })
        .collect();
    if !gives.is_empty() {
        let _ = write!(out, " gives={}", quote(&gives.join(", ")));
    }
    if let Some(vp) = b.vp {
        // Mostly small, sometimes the most a box may give.
        let vp = if vp >= 0xff00 { 10_000 } else { vp % 100 };
        let _ = write!(out, " vp={vp}");
    }
    if let Some(s) = b.shape {
        let _ = write!(out, " shape={}", quote(pick(SHAPES, s)));
    }
    if let Some(s) = b.style {
        let _ = write!(out, " style={}", quote(pick(STYLES, s)));
    }
    if let Some(label) = &b.label {
        let _ = write!(out, " label={}", quote(&label.render()));
    }
    if let Some(r) = repeat {
        let _ = write!(out, " repeat={r}");
    }
    out.push('\n');
}

impl Guide {
    fn kdl(&self) -> String {
        let sections = &self.sections[..self.sections.len().min(12)];
        // Every id first, so requirements can name boxes and tracks further down.
        let mut names = Names {
            tracks: Vec::new(),
            boxes: Vec::new(),
        };
        for (s, section) in sections.iter().enumerate() {
            for (e, entry) in section.entries.iter().take(12).enumerate() {
                match entry {
                    Entry::Track(t) => {
                        names.tracks.push(format!("t{s}-{e}"));
                        for (b, spec) in t.boxes.iter().take(24).enumerate() {
                            if spec.named {
                                names.boxes.push(format!("b{s}-{e}-{b}"));
                            }
                        }
                    }
                    Entry::Loose(spec) if spec.named => {
                        names.tracks.push(format!("b{s}-{e}"));
                        names.boxes.push(format!("b{s}-{e}"));
                    }
                    _ => {}
                }
            }
        }
        let mut out = String::new();
        out.push_str("sheet");
        if let Some(title) = &self.title {
            let _ = write!(out, " title={}", quote(&title.render()));
        }
        if let Some(c) = self.columns {
            let _ = write!(out, " columns={}", 1 + c % 12);
        }
        out.push('\n');
        for (s, section) in sections.iter().enumerate() {
            let _ = write!(out, "section {}", quote(&format!("s{s}")));
            if let Some(title) = &section.title {
                let _ = write!(out, " title={}", quote(&title.render()));
            }
            if let Some(c) = section.column {
                let _ = write!(out, " column={}", 1 + c % 13);
            }
            if let Some(r) = section.row {
                let _ = write!(out, " row={}", 1 + r % 10);
            }
            if let Some(w) = section.width {
                let _ = write!(out, " width={}", 1 + w % 6);
            }
            if let Some(h) = section.height {
                let _ = write!(out, " height={}", 1 + h % 4);
            }
            if let Some(fill) = &section.fill {
                let _ = write!(out, " fill={}", quote(&fill.render()));
            }
            out.push_str(" {\n");
            for (e, entry) in section.entries.iter().take(12).enumerate() {
                match entry {
                    Entry::Note(text) => {
                        let _ = writeln!(out, "    text {}", quote(&text.render()));
                    }
                    Entry::Track(t) => {
                        let _ = write!(out, "    track {}", quote(&format!("t{s}-{e}")));
                        if let Some(title) = &t.title {
                            let _ = write!(out, " title={}", quote(&title.render()));
                        }
                        if t.column {
                            out.push_str(" flow=\"column\"");
                        }
                        if let Some(fill) = &t.fill {
                            let _ = write!(out, " fill={}", quote(&fill.render()));
                        }
                        out.push_str(" {\n");
                        for (b, spec) in t.boxes.iter().take(24).enumerate() {
                            write_box(&mut out, spec, &format!("b{s}-{e}-{b}"), &names, "        ");
                        }
                        out.push_str("    }\n");
                    }
                    Entry::Loose(spec) => {
                        write_box(&mut out, spec, &format!("b{s}-{e}"), &names, "    ");
                    }
                }
            }
            out.push_str("}\n");
        }
        out
    }

    fn game_toml(&self) -> String {
        let side = |v: u16| 50 + u32::from(v) % 1951;
        let paper = match self.paper {
            Paper::Default => return GAME.to_string(),
            Paper::A4 => "\"a4\"".to_string(),
            Paper::Letter => "\"letter\"".to_string(),
            Paper::A3 => "\"a3\"".to_string(),
            Paper::Tabloid => "\"tabloid\"".to_string(),
            Paper::Custom { width, height } => format!(
                "{{ width-mm = {}, height-mm = {} }}",
                side(width),
                side(height)
            ),
            Paper::Written { width, height } => {
                let tenths = |v: u16| 500 + u32::from(v) % 19_501;
                format!(
                    "\"{}.{}x{}.{}\"",
                    tenths(width) / 10,
                    tenths(width) % 10,
                    tenths(height) / 10,
                    tenths(height) % 10
                )
            }
        };
        GAME.replace("paper = \"a4\"", &format!("paper = {paper}"))
    }
}

fuzz_target!(|guide: Guide| {
    let kdl = guide.kdl();
    // Printed before the check, so that an input that hangs or fills memory shows too.
    if std::env::var_os("SAFARI_FUZZ_PRINT").is_some() {
        let paper = guide
            .game_toml()
            .lines()
            .filter(|l| l.starts_with("paper"))
            .collect::<String>();
        eprintln!("{paper}\n{kdl}");
    }
    let mut folder = GameFolder::in_memory();
    folder.add_source("game.toml", guide.game_toml());
    folder.add_source("items.toml", ITEMS);
    folder.add_source("species.toml", SPECIES);
    folder.add_source("dice.toml", DICE);
    folder.add_source("deck.toml", DECK);
    folder.add_source("field-guide.kdl", kdl.clone());
    let checked = safari::check_with(
        &mut folder,
        &safari::CheckOptions {
            paper: None,
            sheet: true,
        },
    );
    invariants::check(&checked, kdl.len());
});
