//! What more than one test file uses: reading PDFs, and scratch copies of games.

use std::path::{Path, PathBuf};

/// An empty scratch folder `safari-{name}-{pid}` in the system's temporary folder.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("safari-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    dir
}

/// A scratch copy of the game in `from` (its files, not its snapshots) with each
/// `(file, old, new)` edit made once: a designer's edit, as a test makes it.
pub fn game_with(name: &str, from: &Path, edits: &[(&str, &str, &str)]) -> PathBuf {
    let dir = scratch(name);
    for entry in std::fs::read_dir(from).expect("the game exists") {
        let path = entry.expect("a readable entry").path();
        if path.is_file() && path.extension().is_none_or(|e| e != "snap") {
            std::fs::copy(&path, dir.join(path.file_name().unwrap())).expect("copied");
        }
    }
    for (file, old, new) in edits {
        let path = dir.join(file);
        let text = std::fs::read_to_string(&path).expect("the file exists");
        assert!(text.contains(old), "{file} has no {old:?}");
        std::fs::write(&path, text.replacen(old, new, 1)).expect("written");
    }
    dir
}

/// The text of a PDF's pages, read from its glyphs' ToUnicode maps by hayro (lopdf's own
/// extraction cannot parse the CMaps Typst writes).
pub fn pdf_text(bytes: &[u8]) -> String {
    use hayro::hayro_interpret::font::Glyph;
    use hayro::hayro_interpret::{
        BlendMode, ClipPath, Context, Device, GlyphDrawMode, Image, InterpreterCache,
        InterpreterSettings, Paint, PathDrawMode, SoftMask, interpret_page,
    };
    use hayro::hayro_syntax::Pdf;
    use hayro::vello_cpu::kurbo::{Affine, BezPath, Rect};

    struct Text(String);
    impl<'a> Device<'a> for Text {
        fn set_soft_mask(&mut self, _: Option<SoftMask<'a>>) {}
        fn set_blend_mode(&mut self, _: BlendMode) {}
        fn draw_path(&mut self, _: &BezPath, _: Affine, _: &Paint<'a>, _: &PathDrawMode) {}
        fn push_clip_path(&mut self, _: &ClipPath) {}
        fn push_transparency_group(&mut self, _: f32, _: Option<SoftMask<'a>>, _: BlendMode) {}
        fn draw_glyph(
            &mut self,
            glyph: &Glyph<'a>,
            _: Affine,
            _: Affine,
            _: &Paint<'a>,
            _: &GlyphDrawMode,
        ) {
            match glyph.as_unicode() {
                Some(hayro::hayro_interpret::hayro_cmap::BfString::Char(c)) => self.0.push(c),
                Some(hayro::hayro_interpret::hayro_cmap::BfString::String(s)) => {
                    self.0.push_str(&s)
                }
                None => {}
            }
        }
        fn draw_image(&mut self, _: Image<'a, '_>, _: Affine) {}
        fn pop_clip_path(&mut self) {}
        fn pop_transparency_group(&mut self) {}
    }

    let pdf = Pdf::new(bytes.to_vec()).expect("hayro reads the PDF");
    let cache = InterpreterCache::new();
    let mut text = Text(String::new());
    for page in pdf.pages().iter() {
        let mut context = Context::new(
            Affine::IDENTITY,
            Rect::new(0.0, 0.0, 1e5, 1e5),
            &cache,
            page.xref(),
            InterpreterSettings::default(),
        );
        interpret_page(page, &mut context, &mut text);
        text.0.push('\n');
    }
    text.0
}

const MM: f64 = 72.0 / 25.4;

pub fn number(object: &lopdf::Object) -> f64 {
    match object {
        lopdf::Object::Integer(i) => *i as f64,
        lopdf::Object::Real(r) => *r as f64,
        other => panic!("not a number: {other:?}"),
    }
}

/// A page box ([x0, y0, x1, y1] in points), looked up through the page tree.
pub fn page_box(doc: &lopdf::Document, page: lopdf::ObjectId, name: &[u8]) -> Option<[f64; 4]> {
    let mut dict = doc.get_dictionary(page).ok()?;
    loop {
        if let Ok(value) = dict.get(name) {
            let array = match value {
                lopdf::Object::Reference(id) => doc.get_object(*id).ok()?.as_array().ok()?,
                other => other.as_array().ok()?,
            };
            let v: Vec<f64> = array.iter().map(number).collect();
            return Some([v[0], v[1], v[2], v[3]]);
        }
        let parent = dict.get(b"Parent").ok()?.as_reference().ok()?;
        dict = doc.get_dictionary(parent).ok()?;
    }
}

/// Each page's MediaBox, width by height in millimetres.
pub fn page_sizes_mm(doc: &lopdf::Document) -> Vec<(f64, f64)> {
    doc.get_pages()
        .values()
        .map(|&id| {
            let b = page_box(doc, id, b"MediaBox").expect("every page has a MediaBox");
            ((b[2] - b[0]) / MM, (b[3] - b[1]) / MM)
        })
        .collect()
}

/// The Tabletop Simulator export and the ruleset of the game in `dir`, by path, with image
/// addresses under `asset_base` (not every test file reads the export).
#[allow(dead_code)]
pub fn tts_export(
    dir: &std::path::Path,
    asset_base: &str,
) -> std::collections::HashMap<String, Vec<u8>> {
    use safari::backends::{BuildOptions, Target};
    let options = BuildOptions {
        targets: vec![Target::Tts, Target::Ruleset],
        asset_base: safari::backends::tts::AssetBase::Url(asset_base.to_string()),
        ..BuildOptions::default()
    };
    let mut folder = safari::world::GameFolder::open(dir).unwrap();
    safari::build(&mut folder, &options)
        .outputs
        .unwrap_or_else(|| panic!("{} builds", dir.display()))
        .into_iter()
        .map(|o| (o.path, o.bytes))
        .collect()
}

/// The share of `games` seeded games (seed 1, seats rotating) that the bot `a` wins against
/// the bot `b` at a table of two of a game of the family, as `safari sim --seats a,b --rotate`
/// plays them.
pub fn win_share<S: safari_engine::family::Start>(game: &S, a: &str, b: &str, games: u64) -> f64 {
    let seats = [a.to_string(), b.to_string()];
    let table = safari_engine::family::sim::play_table(
        game,
        &seats,
        true,
        games,
        1,
        &mut Default::default(),
        &|_| {},
    )
    .unwrap();
    table.wins_by_bot[a]
}

/// What `safari diff` of a family game against an edited copy must print, greedy bots at
/// both seats: the table, each seat's mean score, and the change between the two versions.
pub fn assert_diff_compares_two_versions(diff: &std::process::Output) {
    let text = String::from_utf8_lossy(&diff.stdout);
    assert_eq!(
        diff.status.code(),
        Some(0),
        "{text}{}",
        String::from_utf8_lossy(&diff.stderr)
    );
    assert!(
        text.contains("greedy, greedy:")
            && text.contains("mean score by seat:")
            && text.contains(" → "),
        "{text}"
    );
}
