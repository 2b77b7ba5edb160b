//! The print files, read back as a printer and a player would see them: page counts and
//! sizes, trim boxes, cards where the grid puts them with crop marks outside them, backs
//! mirrored for duplex, every card's name in the text, fonts embedded, identical bytes from
//! build to build, and pages that look like the checked-in references.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use safari::backends::print::geometry::DeckLayout;
use safari::backends::{BuildOptions, Target};
use safari::model::Paper;
use safari::world::GameFolder;

use crate::common;

use common::{page_box, page_sizes_mm, pdf_text};

const MM: f64 = 72.0 / 25.4;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn default_game() -> PathBuf {
    root().join("content/safari-zone")
}

fn print_fixture(name: &str) -> PathBuf {
    root().join("tests/fixtures-print").join(name)
}

/// Builds a game's print files (no page previews unless asked) and returns them by path.
fn build(dir: &Path, configure: impl FnOnce(&mut BuildOptions)) -> HashMap<String, Vec<u8>> {
    let mut options = BuildOptions::default();
    options.print.page_previews = false;
    configure(&mut options);
    let mut folder = GameFolder::open(dir).unwrap();
    let built = safari::build(&mut folder, &options);
    let errors: Vec<String> = built
        .checked
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| d.message.clone())
        .collect();
    assert!(errors.is_empty(), "{}: {errors:?}", dir.display());
    built
        .outputs
        .expect("a clean build has outputs")
        .into_iter()
        .map(|o| (o.path, o.bytes))
        .collect()
}

fn pdf(bytes: &[u8]) -> lopdf::Document {
    lopdf::Document::load_mem(bytes).expect("the PDF parses")
}

fn assert_size(actual: (f64, f64), expected: (f64, f64)) {
    assert!(
        (actual.0 - expected.0).abs() < 0.1 && (actual.1 - expected.1).abs() < 0.1,
        "page is {actual:?} mm, expected {expected:?} mm"
    );
}

/// A page rendered from the PDF itself (hayro), as rows of RGB pixels.
struct Raster {
    width: usize,
    height: usize,
    dpi: f64,
    rgb: Vec<[u8; 3]>,
}

impl Raster {
    fn of(bytes: &[u8], page: usize, dpi: f64) -> Raster {
        use hayro::hayro_syntax::Pdf;
        let pdf = Pdf::new(bytes.to_vec()).expect("hayro reads the PDF");
        let scale = (dpi / 72.0) as f32;
        let pixmap = hayro::render(
            &pdf.pages()[page],
            &hayro::RenderCache::new(),
            &hayro::hayro_interpret::InterpreterSettings::default(),
            &hayro::RenderSettings {
                x_scale: scale,
                y_scale: scale,
                bg_color: hayro::vello_cpu::color::palette::css::WHITE,
                ..Default::default()
            },
        );
        let (width, height) = (pixmap.width() as usize, pixmap.height() as usize);
        let rgb = pixmap
            .take_unpremultiplied()
            .into_iter()
            .map(|p| [p.r, p.g, p.b])
            .collect();
        Raster {
            width,
            height,
            dpi,
            rgb,
        }
    }

    fn at_mm(&self, x: f64, y: f64) -> [u8; 3] {
        let px = ((x / 25.4 * self.dpi) as usize).min(self.width - 1);
        let py = ((y / 25.4 * self.dpi) as usize).min(self.height - 1);
        self.rgb[py * self.width + px]
    }

    fn is_white_mm(&self, x: f64, y: f64) -> bool {
        self.at_mm(x, y).iter().all(|&c| c > 245)
    }

    /// Whether anything is printed within `margin` mm of the paper's edge.
    fn ink_within(&self, margin: f64) -> Option<(usize, usize)> {
        let band = (margin / 25.4 * self.dpi).floor() as usize;
        (0..self.height)
            .flat_map(|y| (0..self.width).map(move |x| (x, y)))
            .filter(|&(x, y)| {
                x < band || y < band || x >= self.width - band || y >= self.height - band
            })
            .find(|&(x, y)| self.rgb[y * self.width + x].iter().any(|&c| c < 235))
    }

    fn to_png(&self) -> Vec<u8> {
        let mut bytes = Vec::new();
        let mut encoder = png::Encoder::new(&mut bytes, self.width as u32, self.height as u32);
        encoder.set_color(png::ColorType::Rgb);
        let mut writer = encoder.write_header().unwrap();
        writer
            .write_image_data(&self.rgb.concat())
            .expect("PNG encodes");
        writer.finish().unwrap();
        bytes
    }
}

/// The card grid a sheet should have, from the print rules (6.35 mm margins, 3 mm bleed on
/// every card, 3 mm crop marks outside the bleed), worked out here independently of the code.
struct ExpectedGrid {
    columns: usize,
    rows: usize,
    trim: (f64, f64),
    origin: (f64, f64),
}

impl ExpectedGrid {
    fn new(paper: (f64, f64), card: (f64, f64)) -> ExpectedGrid {
        let reserve = 6.35 + 3.0;
        let fit = |w: f64, h: f64| {
            let c = ((paper.0 - 2.0 * reserve) / (w + 6.0) + 1e-9).floor() as usize;
            let r = ((paper.1 - 2.0 * reserve) / (h + 6.0) + 1e-9).floor() as usize;
            (c, r)
        };
        let upright = fit(card.0, card.1);
        let turned = fit(card.1, card.0);
        let ((columns, rows), trim) = if turned.0 * turned.1 > upright.0 * upright.1 {
            (turned, (card.1, card.0))
        } else {
            (upright, card)
        };
        let grid_w = columns as f64 * (trim.0 + 6.0);
        let grid_h = rows as f64 * (trim.1 + 6.0);
        ExpectedGrid {
            columns,
            rows,
            trim,
            origin: (
                (paper.0 - grid_w) / 2.0 + 3.0,
                (paper.1 - grid_h) / 2.0 + 3.0,
            ),
        }
    }

    fn trim(&self, column: usize, row: usize) -> (f64, f64, f64, f64) {
        let x = self.origin.0 + column as f64 * (self.trim.0 + 6.0);
        let y = self.origin.1 + row as f64 * (self.trim.1 + 6.0);
        (x, y, x + self.trim.0, y + self.trim.1)
    }

    fn per_page(&self) -> usize {
        self.columns * self.rows
    }
}

fn occupied(raster: &Raster, trim: (f64, f64, f64, f64)) -> bool {
    let (x0, y0, x1, y1) = trim;
    !raster.is_white_mm((x0 + x1) / 2.0, (y0 + y1) / 2.0)
}

#[test]
fn the_field_guide_is_one_sheet_front_and_back_on_a4_and_letter() {
    let a4 = build(&default_game(), |_| {});
    let doc = pdf(&a4["field-guide.pdf"]);
    let sizes = page_sizes_mm(&doc);
    assert_eq!(sizes.len(), 2, "Field Guide and Park Rules");
    for size in sizes {
        assert_size(size, (210.0, 297.0));
    }
    let letter = build(&default_game(), |o| o.print.paper = Some(Paper::Letter));
    for name in ["field-guide.pdf", "encounter-deck.pdf", "dice.pdf"] {
        for size in page_sizes_mm(&pdf(&letter[name])) {
            assert_size(size, (215.9, 279.4));
        }
    }
    let text = pdf_text(&a4["field-guide.pdf"]);
    for words in ["TURN TRACKER", "Nidoran", "Rare Sightings", "PARK RULES"] {
        assert!(
            text.to_lowercase().contains(&words.to_lowercase()),
            "{words:?} not in the sheet's text"
        );
    }
}

#[test]
fn every_font_is_embedded() {
    let built = build(&default_game(), |_| {});
    for name in [
        "field-guide.pdf",
        "encounter-deck.pdf",
        "encounter-deck-cards.pdf",
        "dice.pdf",
    ] {
        let doc = pdf(&built[name]);
        let descriptors: Vec<&lopdf::Dictionary> = doc
            .objects
            .values()
            .filter_map(|o| o.as_dict().ok())
            .filter(|d| d.get(b"Type").and_then(|t| t.as_name()).ok() == Some(b"FontDescriptor"))
            .collect();
        assert!(!descriptors.is_empty(), "{name} has no fonts");
        for descriptor in descriptors {
            assert!(
                [b"FontFile".as_slice(), b"FontFile2", b"FontFile3"]
                    .iter()
                    .any(|key| descriptor.has(key)),
                "{name}: a font is not embedded: {descriptor:?}"
            );
        }
    }
}

#[test]
fn cards_sit_on_the_grid_with_crop_marks_in_the_margin() {
    let built = build(&default_game(), |_| {});
    let bytes = &built["encounter-deck.pdf"];
    let doc = pdf(bytes);
    let grid = ExpectedGrid::new((210.0, 297.0), (63.5, 88.9));
    assert_eq!(grid.per_page(), 8, "eight poker cards on A4");
    let sheets = 52usize.div_ceil(grid.per_page());
    assert_eq!(
        doc.get_pages().len(),
        2 * sheets + 2,
        "fronts, backs, calibration"
    );

    let ruleset: serde_json::Value = serde_json::from_slice(&built["ruleset.json"]).unwrap();
    let text = pdf_text(bytes).to_lowercase();
    for species in ruleset["species"].as_array().unwrap() {
        let in_deck = ruleset["deck"]["cards"]
            .as_array()
            .unwrap()
            .iter()
            .any(|card| card["species"] == species["id"]);
        let name = species["name"].as_str().unwrap().to_lowercase();
        assert_eq!(
            text.contains(&name),
            in_deck,
            "{name}: printed exactly when in the deck"
        );
    }

    let front = Raster::of(bytes, 0, 100.0);
    assert_eq!(
        front.ink_within(6.35),
        None,
        "ink inside the 6.35 mm margin"
    );
    for row in 0..grid.rows {
        for column in 0..grid.columns {
            assert!(
                occupied(&front, grid.trim(column, row)),
                "no card at {column},{row}"
            );
        }
    }
    // Crop marks: every trim line is marked beyond the bleed, above and left of the grid,
    // and no mark falls inside a card.
    let (left, top, _, _) = grid.trim(0, 0);
    let mark_y = top - 3.0 - 1.5;
    let mark_x = left - 3.0 - 1.5;
    for column in 0..grid.columns {
        let (x0, _, x1, _) = grid.trim(column, 0);
        for x in [x0, x1] {
            assert!(
                !front.is_white_mm(x, mark_y),
                "no crop mark at x = {x:.1} mm"
            );
            assert!(
                front.is_white_mm(x + 1.5, mark_y),
                "mark is not a thin line"
            );
        }
    }
    for row in 0..grid.rows {
        let (_, y0, _, y1) = grid.trim(0, row);
        for y in [y0, y1] {
            assert!(
                !front.is_white_mm(mark_x, y),
                "no crop mark at y = {y:.1} mm"
            );
        }
    }
}

#[test]
fn backs_are_mirrored_for_a_long_edge_flip() {
    // Mini cards and an odd count: the last sheet is part full, so the mirror shows.
    let dir = print_fixture("mini-odd-deck");
    let built = build(&dir, |_| {});
    let bytes = &built["encounter-deck.pdf"];
    let grid = ExpectedGrid::new((210.0, 297.0), (44.45, 63.5));
    assert_eq!((grid.columns, grid.rows), (3, 4), "twelve mini cards on A4");
    let doc = pdf(bytes);
    assert_eq!(doc.get_pages().len(), 2 * 2 + 2, "13 cards: two sheets");
    let text = pdf_text(bytes).to_lowercase();
    for species in ["sprout", "minnow", "boulder", "glimmer"] {
        assert!(text.contains(species), "{species} not printed");
    }
    // Sheet 2 holds card 13 alone: front in the first column, back in the last.
    let front = Raster::of(bytes, 2, 100.0);
    let back = Raster::of(bytes, 3, 100.0);
    assert!(occupied(&front, grid.trim(0, 0)));
    assert!(!occupied(&front, grid.trim(2, 0)));
    assert!(occupied(&back, grid.trim(2, 0)));
    assert!(!occupied(&back, grid.trim(0, 0)));
}

#[test]
fn a_back_offset_moves_the_backs_only() {
    let dir = print_fixture("mini-odd-deck");
    let plain = build(&dir, |_| {});
    let moved = build(&dir, |o| o.print.back_offset = (2.0, 0.0));
    let grid = ExpectedGrid::new((210.0, 297.0), (44.45, 63.5));
    let (x0, y0, _, y1) = grid.trim(2, 0);
    let y = (y0 + y1) / 2.0;
    // Half a millimetre inside the left edge of the back's bleed: printed as built, and
    // white once the back has moved 2 mm to the right.
    let probe = x0 - 3.0 + 0.5;
    let back = |bytes: &Vec<u8>| Raster::of(bytes, 3, 150.0);
    assert!(!back(&plain["encounter-deck.pdf"]).is_white_mm(probe, y));
    assert!(back(&moved["encounter-deck.pdf"]).is_white_mm(probe, y));
    let front = |bytes: &Vec<u8>| Raster::of(bytes, 2, 150.0);
    assert!(!front(&moved["encounter-deck.pdf"]).is_white_mm(grid.trim(0, 0).0 - 2.5, y));
}

#[test]
fn gutter_fold_puts_each_back_beside_its_front() {
    let built = build(&default_game(), |o| o.print.layout = DeckLayout::GutterFold);
    let bytes = &built["encounter-deck.pdf"];
    let raster = Raster::of(bytes, 0, 100.0);
    assert_eq!(raster.ink_within(6.35), None);
    // Each half holds cards: one left of the fold, its mirror right of it.
    let rows: Vec<f64> = (0..4).map(|r| 20.0 + r as f64 * 60.0).collect();
    let left = rows
        .iter()
        .filter(|&&y| !raster.is_white_mm(52.5, y))
        .count();
    let right = rows
        .iter()
        .filter(|&&y| !raster.is_white_mm(157.5, y))
        .count();
    assert!(left > 0 && left == right, "left {left}, right {right}");
    let pages = pdf(bytes).get_pages().len();
    assert!(
        pages > 2 * 52 / 8,
        "gutter-fold fits half as many cards a page: {pages}"
    );
}

#[test]
fn the_print_shop_file_has_one_card_a_page_with_its_trim_box() {
    let built = build(&default_game(), |_| {});
    let doc = pdf(&built["encounter-deck-cards.pdf"]);
    let pages = doc.get_pages();
    assert_eq!(pages.len(), 23 + 1, "every design, then the back");
    for &id in pages.values() {
        let media = page_box(&doc, id, b"MediaBox").unwrap();
        let trim = page_box(&doc, id, b"TrimBox").expect("a TrimBox");
        let bleed = 3.0 * MM;
        assert!(
            (trim[0] - media[0] - bleed).abs() < 0.01,
            "{trim:?} in {media:?}"
        );
        assert!(((trim[2] - trim[0]) / MM - 63.5).abs() < 0.05);
        assert!(((trim[3] - trim[1]) / MM - 88.9).abs() < 0.05);
        if let Some(bleed_box) = page_box(&doc, id, b"BleedBox") {
            assert_eq!(bleed_box, media, "the bleed is the whole page");
        }
    }
}

#[test]
fn the_dice_file_has_stickers_and_paper_dice() {
    let built = build(&default_game(), |_| {});
    let text = pdf_text(&built["dice.pdf"]).to_uppercase();
    for words in [
        "EXPEDITION DICE: STICKERS FOR 5 BLANK D6",
        "CAPTURE DICE: PAPER D6 TO CUT OUT",
        "AREA",
        "TRAINER",
        "HAZARD",
        "CAPTURE DICE",
    ] {
        assert!(text.contains(words), "{words} not in dice.pdf");
    }
}

#[test]
fn two_builds_give_identical_bytes() {
    let first = build(&default_game(), |o| o.print.page_previews = true);
    let second = build(&default_game(), |o| o.print.page_previews = true);
    assert_eq!(first.len(), second.len());
    for (path, bytes) in &first {
        assert!(&second[path] == bytes, "{path} differs between builds");
    }
}

#[test]
fn only_builds_the_outputs_asked_for() {
    let built = build(&default_game(), |o| o.targets = vec![Target::Dice]);
    let paths: Vec<&str> = built.keys().map(String::as_str).collect();
    assert_eq!(paths, vec!["dice.pdf"]);
}

/// Page 1 of each PDF, rendered at a low resolution, against a checked-in reference: a change
/// to a template or the content shows here. Set SAFARI_UPDATE_REFERENCES=1 to accept one.
#[test]
fn pages_look_like_their_references() {
    let built = build(&default_game(), |_| {});
    let update = std::env::var_os("SAFARI_UPDATE_REFERENCES").is_some();
    for name in ["field-guide", "encounter-deck", "dice"] {
        let raster = Raster::of(&built[&format!("{name}.pdf")], 0, 40.0);
        let path = root().join(format!("tests/print-references/{name}-1.png"));
        if update {
            std::fs::write(&path, raster.to_png()).unwrap();
            continue;
        }
        let reference = std::fs::read(&path).unwrap_or_else(|_| {
            panic!(
                "{} missing: run with SAFARI_UPDATE_REFERENCES=1",
                path.display()
            )
        });
        let decoder = png::Decoder::new(std::io::Cursor::new(reference));
        let mut reader = decoder.read_info().unwrap();
        let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut pixels).unwrap();
        assert_eq!(
            (info.width as usize, info.height as usize),
            (raster.width, raster.height),
            "{name}: size"
        );
        let ours = raster.rgb.concat();
        let differing = ours
            .chunks(3)
            .zip(pixels.chunks(3))
            .filter(|(a, b)| a.iter().zip(b.iter()).any(|(x, y)| x.abs_diff(*y) > 48))
            .count();
        let share = differing as f64 / (raster.width * raster.height) as f64;
        assert!(
            share < 0.002,
            "{name}: {:.2}% of pixels differ from {}",
            share * 100.0,
            path.display()
        );
    }
}

#[test]
fn a_game_folder_overrides_a_template_by_name() {
    let built = build(&print_fixture("template-override"), |_| {});
    let doc = pdf(&built["dice.pdf"]);
    assert_size(page_sizes_mm(&doc)[0], (100.0, 60.0));
    let text = pdf_text(&built["dice.pdf"]);
    assert!(text.contains("HOUSE DICE"), "{text}");
    // The other templates are still the built-in ones.
    assert_eq!(page_sizes_mm(&pdf(&built["field-guide.pdf"])).len(), 2);
}

/// A game folder's own templates and Park Rules written against the data's old names
/// (`game.deck`, `game.layout`: templates/README.md, "Changed in this release") still build,
/// and draw what the new names draw: the deck byte for byte, the Park Rules' words.
#[test]
fn templates_written_against_the_old_names_still_build() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("print-old-names");
    let _ = std::fs::remove_dir_all(&dir);
    copy_dir(&default_game(), &dir);
    std::fs::create_dir_all(dir.join("templates")).unwrap();
    let old_deck = std::fs::read_to_string(root().join("templates/encounter-deck.typ"))
        .unwrap()
        .replace("#let deck = this-deck(game)\n", "")
        .replace(", this-deck", "")
        .replace("deck-info(game, deck: deck)", "deck-info(game)")
        .replace("deck.card_size", "game.deck.card_size")
        .replace("deck.designs", "game.deck.designs");
    assert!(!old_deck.contains("this-deck") && old_deck.contains("game.deck.designs"));
    std::fs::write(dir.join("templates/encounter-deck.typ"), old_deck).unwrap();
    let old_guide = std::fs::read_to_string(root().join("templates/field-guide.typ"))
        .unwrap()
        .replace("game.sheets.first().layout", "game.layout");
    assert!(old_guide.contains("#let plan = game.layout"));
    std::fs::write(dir.join("templates/field-guide.typ"), old_guide).unwrap();
    let park_rules = std::fs::read_to_string(dir.join("park-rules.typ"))
        .unwrap()
        .replace("game.decks.first()", "game.deck");
    assert!(park_rules.contains("game.deck.physical.len()"));
    std::fs::write(dir.join("park-rules.typ"), park_rules).unwrap();

    let old = build(&dir, |_| {});
    let new = build(&default_game(), |_| {});
    assert!(old["encounter-deck.pdf"] == new["encounter-deck.pdf"]);
    let (old_text, new_text) = (
        pdf_text(&old["field-guide.pdf"]),
        pdf_text(&new["field-guide.pdf"]),
    );
    // The same text, but for the content id at the foot (the folder's files differ).
    let without_content_id = |text: &str| -> String {
        let mut parts = text.split("content ");
        let first = parts.next().unwrap_or_default().to_string();
        parts.fold(first, |kept, part| {
            let id = part.chars().take_while(char::is_ascii_hexdigit).count();
            kept + "content " + &part[id..]
        })
    };
    assert!(old_text.contains("content "));
    assert!(without_content_id(&old_text) == without_content_id(&new_text));
}

/// `build --emit-typst` writes each print document as a Typst project for the benchmark
/// against Typst alone (benches/typst_side_by_side.sh). Compiled by Typst with nothing but the
/// project folder and the fonts beside it, each gives the very PDF `build` writes, byte for
/// byte: the benchmark compares like with like. So for every game: Safari Zone RNW's documents
/// and a game of components' (several documents of one template, a deck drawn by the game's
/// own templates, sheets, boards and cut sheets).
#[test]
fn the_emitted_typst_projects_compile_to_the_pdfs_build_writes() {
    let pack = |name: &str| {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("content")
            .join(name)
    };
    let every_print = "sheet,deck,dice,tiles,board";
    let games = [
        (default_game(), "safari-zone"),
        (pack("gamewright-safari"), "gamewright-safari"),
        (pack("diceafari"), "diceafari"),
        (pack("tricky-safari"), "tricky-safari"),
    ];
    for (game, id) in games {
        let compared = emitted_projects_compile_to_the_pdfs_of(&game, id, every_print);
        if id == "safari-zone" {
            assert_eq!(
                compared,
                [
                    "dice.pdf",
                    "encounter-deck-cards.pdf",
                    "encounter-deck.pdf",
                    "field-guide.pdf"
                ]
            );
        }
    }
}

/// Emits `game`'s documents of `only`, compiles each project with Typst alone and holds its
/// PDF to `build`'s; gives the PDFs compared, which are all that `build` writes.
fn emitted_projects_compile_to_the_pdfs_of(game: &Path, id: &str, only: &str) -> Vec<String> {
    let out = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("emit-typst-{id}-{}", std::process::id()));
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_safari"))
        .args(["build", "--only", only, "-q", "--emit-typst", "--out"])
        .arg(&out)
        .arg(game)
        .status()
        .unwrap();
    assert!(status.success(), "{id}");
    let dir = out.join(id).join("typst");
    let built = build(game, |options| {
        options.targets = vec![
            Target::Sheet,
            Target::Deck,
            Target::Dice,
            Target::Tiles,
            Target::Board,
        ];
    });
    let read_json = |path: PathBuf| -> serde_json::Value {
        serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
    };
    let documents = read_json(dir.join("documents.json"));
    let game = documents["game"].as_str().unwrap();
    let mut font_files: Vec<PathBuf> = std::fs::read_dir(dir.join("fonts"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .collect();
    font_files.sort();
    let fonts: Vec<Vec<u8>> = font_files
        .iter()
        .map(|f| std::fs::read(f).unwrap())
        .collect();
    let mut compared = Vec::new();
    for step in documents["steps"].as_array().unwrap() {
        let project = dir.join(step["root"].as_str().unwrap());
        let main = step["main"].as_str().unwrap();
        for entry in std::fs::read_dir(project.join("templates")).unwrap() {
            let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
            assert!(!text.contains("sys.inputs"), "{main}: sys.inputs left in");
        }
        let engine = typst_as_lib::TypstEngine::builder()
            .fonts(fonts.iter().map(Vec::as_slice))
            .with_file_system_resolver(&project)
            .build();
        let document: typst_layout::PagedDocument = engine
            .compile(format!("/{main}").as_str())
            .output
            .unwrap_or_else(|err| panic!("{id}: {main} does not compile: {err:?}"));
        let target = step["pdf"].as_str().unwrap();
        let written = target.strip_prefix("out/");
        let ident = written.unwrap_or_else(|| main.rsplit('/').next().unwrap());
        let options = typst_pdf::PdfOptions {
            ident: typst::foundations::Smart::Custom(format!("{game}/{ident}")),
            timestamp: None,
            tagged: false,
            ..Default::default()
        };
        let bytes = typst_pdf::pdf(&document, &options).unwrap();
        let path = dir.join(target);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &bytes).unwrap();
        if let Some(name) = written {
            assert!(
                bytes == built[name],
                "{id}: {name} from Typst alone differs from build's"
            );
            compared.push(name.to_string());
        }
    }
    compared.sort();
    let mut pdfs: Vec<&String> = built.keys().filter(|path| path.ends_with(".pdf")).collect();
    pdfs.sort();
    assert_eq!(compared.iter().collect::<Vec<_>>(), pdfs, "{id}");
    std::fs::remove_dir_all(&out).unwrap();
    compared
}

/// `[files] park-rules` names the Park Rules' file: its text is the back of the Field Guide,
/// wherever in the game folder it is.
#[test]
fn the_park_rules_come_from_the_file_game_toml_names() {
    let built = build(&print_fixture("park-rules-elsewhere"), |options| {
        options.targets = vec![Target::Sheet];
    });
    let guide = &built["field-guide.pdf"];
    assert_eq!(page_sizes_mm(&pdf(guide)).len(), 2);
    let text = pdf_text(guide);
    assert!(text.contains("Rules from elsewhere"), "{text}");
}

/// `build --printer`: one picture per card design and one for the back, at the pixel size the
/// service takes for the game's card size (its bleed in place of the game's, at 300 dpi), and
/// the copies of each to order.
#[test]
fn printer_presets_give_each_service_its_card_pictures() {
    use safari::backends::print::printer::Printer;
    let png_size = |bytes: &[u8]| {
        assert_eq!(&bytes[1..4], b"PNG");
        let word = |at: usize| u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap());
        (word(16), word(20))
    };
    // The default game's poker cards, the fixture's mini cards, and a game of components'
    // decks, each in a folder of its own.
    let pack = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("content/gamewright-safari");
    let cases = [
        (default_game(), Printer::Tgc, (825, 1125), ""),
        (default_game(), Printer::Mpc, (822, 1122), ""),
        (print_fixture("mini-odd-deck"), Printer::Tgc, (600, 825), ""),
        (pack.clone(), Printer::Tgc, (825, 1125), "animals/"),
        (pack, Printer::Mpc, (822, 1122), "safari-charlie/"),
    ];
    for (game, printer, size, deck) in cases {
        let built = build(&game, |options| {
            options.targets = vec![Target::Deck];
            options.print.printer = Some(printer);
        });
        let folder = format!("printer/{}/{deck}", printer.name());
        let mut pictures: Vec<&String> = built
            .keys()
            .filter(|path| path.starts_with(&folder) && path.ends_with(".png"))
            .collect();
        pictures.sort();
        let csv = String::from_utf8(built[&format!("{folder}copies.csv")].clone()).unwrap();
        let rows: Vec<Vec<&str>> = csv
            .lines()
            .skip(1)
            .map(|l| l.split(',').collect())
            .collect();
        assert_eq!(pictures.len(), rows.len(), "{csv}");
        for row in &rows {
            let path = format!("{folder}{}", row[0]);
            assert_eq!(png_size(&built[&path]), size, "{path}");
        }
        // Fronts count every physical card once; the back, all of them.
        let (back, fronts) = rows.split_last().unwrap();
        let copies: u32 = fronts
            .iter()
            .map(|row| row[2].parse::<u32>().unwrap())
            .sum();
        assert_eq!(back[0], "back.png");
        assert_eq!(back[2].parse::<u32>().unwrap(), copies);
    }
}

/// `--color cmyk`: the templates' colours are written as DeviceCMYK (`k`, `K`) and none in RGB
/// (`rg`, `RG`, or a three-component ICC space, as Typst writes sRGB), on the sheet and on the
/// cards (a see-through white stays grey: CMYK has no transparency); a default build writes
/// none in CMYK.
#[test]
fn a_cmyk_build_writes_its_colours_as_cmyk() {
    use lopdf::Object;
    use safari::backends::print::ColorSpace;
    // Colour operators by name, and the components of the ICC spaces the pages name.
    let colours = |bytes: &[u8]| {
        let doc = pdf(bytes);
        let mut operators = std::collections::BTreeSet::<String>::new();
        let mut icc_components = std::collections::BTreeSet::<i64>::new();
        for page in doc.get_pages().values() {
            let content = doc.get_and_decode_page_content(*page).unwrap();
            for op in content.operations {
                if ["k", "K", "rg", "RG"].contains(&op.operator.as_str()) {
                    operators.insert(op.operator);
                }
            }
            let (resources, ids) = doc.get_page_resources(*page).unwrap();
            let dicts = resources.into_iter().cloned().chain(
                ids.into_iter()
                    .filter_map(|id| doc.get_dictionary(id).ok().cloned()),
            );
            for dict in dicts {
                let Ok(spaces) = dict.get(b"ColorSpace") else {
                    continue;
                };
                let Ok(spaces) = doc
                    .dereference(spaces)
                    .and_then(|(_, o)| o.as_dict().cloned())
                else {
                    continue;
                };
                for (_, space) in spaces.iter() {
                    let Ok((_, Object::Array(space))) = doc.dereference(space) else {
                        continue;
                    };
                    if let [Object::Name(kind), stream] = &space[..]
                        && kind == b"ICCBased"
                        && let Ok((_, Object::Stream(stream))) = doc.dereference(stream)
                    {
                        icc_components.insert(stream.dict.get(b"N").unwrap().as_i64().unwrap());
                    }
                }
            }
        }
        (operators, icc_components)
    };
    for space in [ColorSpace::Cmyk, ColorSpace::Rgb] {
        let built = build(&default_game(), |options| {
            options.targets = vec![Target::Sheet, Target::Deck];
            options.print.color_space = space;
        });
        for name in ["field-guide.pdf", "encounter-deck-cards.pdf"] {
            let (operators, icc) = colours(&built[name]);
            let cmyk = operators.contains("k") && operators.contains("K");
            let rgb = operators.contains("rg") || operators.contains("RG") || icc.contains(&3);
            assert_eq!(
                (cmyk, rgb),
                (space == ColorSpace::Cmyk, space == ColorSpace::Rgb),
                "{space:?} {name}: {operators:?}, ICC spaces of {icc:?} components"
            );
        }
    }
}

/// A game without Park Rules prints a reference page that says what each item's steps do, and
/// gives a card's odds with each capture bonus that changes them (the fixture's Delta, rate 20,
/// is out of the dice's reach without its Lure's +5).
#[test]
fn the_reference_page_describes_item_effects_and_odds_with_bonuses() {
    let built = build(
        &root().join("tests/fixtures/clean-item-effects"),
        |options| {
            options.targets = vec![Target::Sheet];
        },
    );
    let text = pdf_text(&built["field-guide.pdf"]);
    // Compared without white space: the extracted text runs table cells together.
    let bare = |s: &str| s.split_whitespace().collect::<String>();
    let text = bare(&text);
    for expected in [
        "Lure — adds 5 to every capture roll",
        "Scope — counts as one grass habitat toward card criteria",
        "Charm — adds 1 to one capture roll, spent when that turns a miss into a catch",
        "Boots — one more re-roll each turn",
        "05 Delta W 20+ 0% Lure 9%",
    ] {
        assert!(
            text.contains(&bare(expected)),
            "`{expected}` not in: {text}"
        );
    }
}

/// The Field Guide's pages say which content made them (`content <id>` at their foot), one id
/// for the front and the Park Rules, and another once the content it receives changes, though
/// no version in game.toml was bumped; a card's flavour text, which only the card prints,
/// leaves it as it was. The sheets that are cut up (cards, stickers) say what they are and the
/// game's versions on every page.
#[test]
fn printed_pages_name_the_content_that_made_them() {
    let ids_of = |dir: &Path| {
        let built = build(dir, |_| {});
        for name in ["encounter-deck", "dice"] {
            let text = pdf_text(&built[&format!("{name}.pdf")]);
            let pages = pdf(&built[&format!("{name}.pdf")]).get_pages().len();
            assert_eq!(
                text.matches("print at actual size").count(),
                pages,
                "{name}: a foot line on every page"
            );
        }
        let mut ids = std::collections::BTreeSet::new();
        for name in ["field-guide"] {
            let bytes = &built[&format!("{name}.pdf")];
            let doc = pdf(bytes);
            for page in 1..=doc.get_pages().len() as u32 {
                let mut single = doc.clone();
                let others: Vec<u32> = (1..=doc.get_pages().len() as u32)
                    .filter(|p| *p != page)
                    .collect();
                single.delete_pages(&others);
                let mut one = Vec::new();
                single.save_to(&mut one).unwrap();
                let text = pdf_text(&one);
                let id = text
                    .split("content ")
                    .skip(1)
                    .map(|rest| rest.chars().take(8).collect::<String>())
                    .find(|id| id.len() == 8 && id.chars().all(|c| c.is_ascii_hexdigit()));
                ids.insert(id.unwrap_or_else(|| panic!("{name} page {page}: {text}")));
            }
        }
        ids
    };
    let dir = std::env::temp_dir().join(format!("safari-content-id-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    copy_dir(&print_fixture("mini-odd-deck"), &dir);
    let before = ids_of(&dir);
    assert_eq!(before.len(), 1, "one id on every page: {before:?}");
    let deck = dir.join("deck.toml");
    let text = std::fs::read_to_string(&deck).unwrap();
    let flavour = text.replacen("flavor = \"", "flavor = \"Now ", 1);
    assert_ne!(flavour, text);
    std::fs::write(&deck, &flavour).unwrap();
    assert_eq!(ids_of(&dir), before, "a flavour text is the card's alone");
    let rate = flavour.replacen("capture-rate = 10", "capture-rate = 11", 1);
    assert_ne!(rate, flavour);
    std::fs::write(&deck, rate).unwrap();
    let after = ids_of(&dir);
    assert_eq!(after.len(), 1, "{after:?}");
    assert_ne!(
        before, after,
        "an edit the sheet receives gives its pages another id"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        if entry.path().is_dir() {
            copy_dir(&entry.path(), &to.join(entry.file_name()));
        } else {
            std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
        }
    }
}
