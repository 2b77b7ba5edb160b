//! The Field Guide's layout, held to what a player sees on the printed page.
//!
//! A generated corpus of Field Guides (tracks, boxes and sections added and removed, long
//! titles, labels and notes, many species, every paper, sections placed or left to the
//! layout) goes through `check` and `build`. Each either fits, and then its PDF, read back
//! with hayro independently of the layout engine (glyph outlines and drawn paths), has no two
//! ink elements overlapping, no box under 5 mm and no text under 7 pt; or `check` reports
//! SZ0309 and `build` reports exactly that and nothing more.

use std::fmt::Write as _;

use rayon::prelude::*;
use safari::backends::{BuildOptions, Target};
use safari::diag::Diagnostic;
use safari::world::GameFolder;

const MM: f64 = 72.0 / 25.4;

// ---- Reading a page back ------------------------------------------------------------------------

#[derive(Debug, Clone, Copy)]
struct Bounds {
    x0: f64,
    y0: f64,
    x1: f64,
    y1: f64,
}

impl Bounds {
    fn w(&self) -> f64 {
        self.x1 - self.x0
    }
    fn h(&self) -> f64 {
        self.y1 - self.y0
    }
    fn union(&self, o: &Bounds) -> Bounds {
        Bounds {
            x0: self.x0.min(o.x0),
            y0: self.y0.min(o.y0),
            x1: self.x1.max(o.x1),
            y1: self.y1.max(o.y1),
        }
    }
    fn overlaps(&self, o: &Bounds, tolerance: f64) -> bool {
        self.x0 + tolerance < o.x1
            && o.x0 + tolerance < self.x1
            && self.y0 + tolerance < o.y1
            && o.y0 + tolerance < self.y1
    }
    fn contains(&self, o: &Bounds, tolerance: f64) -> bool {
        o.x0 >= self.x0 - tolerance
            && o.y0 >= self.y0 - tolerance
            && o.x1 <= self.x1 + tolerance
            && o.y1 <= self.y1 + tolerance
    }
}

/// One glyph as printed: its ink in mm from the page's top-left, its size in points.
#[derive(Debug, Clone)]
struct Glyph {
    ink: Bounds,
    size: f64,
    text: String,
    /// Glyphs drawn one after another on one baseline belong to one run of text.
    baseline: f64,
    order: usize,
}

#[derive(Debug, Clone)]
struct Path {
    bounds: Bounds,
    stroked: bool,
}

struct Page {
    glyphs: Vec<Glyph>,
    paths: Vec<Path>,
    height_mm: f64,
}

fn read_page(pdf_bytes: &[u8], index: usize) -> Page {
    use hayro::hayro_interpret::font::Glyph as HGlyph;
    use hayro::hayro_interpret::{
        BlendMode, ClipPath, Context, Device, GlyphDrawMode, Image, InterpreterCache,
        InterpreterSettings, Paint, PathDrawMode, SoftMask, interpret_page,
    };
    use hayro::hayro_syntax::Pdf;
    use hayro::vello_cpu::kurbo::{Affine, BezPath, Point, Rect, Shape};

    struct Collect {
        glyphs: Vec<(Rect, f64, String, f64)>,
        paths: Vec<(Rect, bool)>,
    }
    impl<'a> Device<'a> for Collect {
        fn set_soft_mask(&mut self, _: Option<SoftMask<'a>>) {}
        fn set_blend_mode(&mut self, _: BlendMode) {}
        fn draw_path(&mut self, path: &BezPath, t: Affine, _: &Paint<'a>, mode: &PathDrawMode) {
            let bbox = (t * path.clone()).bounding_box();
            self.paths
                .push((bbox, matches!(mode, PathDrawMode::Stroke(_))));
        }
        fn push_clip_path(&mut self, _: &ClipPath) {}
        fn push_transparency_group(&mut self, _: f32, _: Option<SoftMask<'a>>, _: BlendMode) {}
        fn draw_glyph(
            &mut self,
            glyph: &HGlyph<'a>,
            t: Affine,
            glyph_t: Affine,
            _: &Paint<'a>,
            _: &GlyphDrawMode,
        ) {
            let HGlyph::Outline(outline) = glyph else {
                return;
            };
            let full = t * glyph_t;
            let bbox = (full * outline.outline()).bounding_box();
            // The outline is in units of 1/1000 em: an em's height on the page is the size.
            let em = full * Point::new(0.0, 1000.0) - full * Point::new(0.0, 0.0);
            let size = em.hypot();
            let baseline = (full * Point::new(0.0, 0.0)).y;
            let text = match glyph.as_unicode() {
                Some(hayro::hayro_interpret::hayro_cmap::BfString::Char(c)) => c.to_string(),
                Some(hayro::hayro_interpret::hayro_cmap::BfString::String(s)) => s,
                None => String::new(),
            };
            if bbox.width() > 0.0 || bbox.height() > 0.0 {
                self.glyphs.push((bbox, size, text, baseline));
            }
        }
        fn draw_image(&mut self, _: Image<'a, '_>, _: Affine) {}
        fn pop_clip_path(&mut self) {}
        fn pop_transparency_group(&mut self) {}
    }

    let pdf = Pdf::new(pdf_bytes.to_vec()).expect("hayro reads the PDF");
    let page = &pdf.pages()[index];
    let (_, height_pt) = page.render_dimensions();
    let cache = InterpreterCache::new();
    let mut collect = Collect {
        glyphs: Vec::new(),
        paths: Vec::new(),
    };
    let mut context = Context::new(
        Affine::IDENTITY,
        Rect::new(0.0, 0.0, 1e5, 1e5),
        &cache,
        page.xref(),
        InterpreterSettings::default(),
    );
    interpret_page(page, &mut context, &mut collect);
    let h = height_pt as f64;
    // PDF space has y up from the bottom; the page is read from its top-left, in mm.
    let mm = |r: &Rect| Bounds {
        x0: r.x0 / MM,
        y0: (h - r.y1) / MM,
        x1: r.x1 / MM,
        y1: (h - r.y0) / MM,
    };
    Page {
        glyphs: collect
            .glyphs
            .iter()
            .enumerate()
            .map(|(order, (r, size, text, baseline))| Glyph {
                ink: mm(r),
                size: *size,
                text: text.clone(),
                baseline: (h - baseline) / MM,
                order,
            })
            .collect(),
        paths: collect
            .paths
            .iter()
            .map(|(r, stroked)| Path {
                bounds: mm(r),
                stroked: *stroked,
            })
            .collect(),
        height_mm: h / MM,
    }
}

/// A run of text: glyphs drawn one after another on one baseline, close together.
#[derive(Debug)]
struct Run {
    ink: Bounds,
    text: String,
    size: f64,
}

fn runs(glyphs: &[Glyph]) -> Vec<Run> {
    let mut runs: Vec<Run> = Vec::new();
    let mut last: Option<&Glyph> = None;
    for g in glyphs {
        let joins = last.is_some_and(|l| {
            l.order + 1 == g.order
                && (l.baseline - g.baseline).abs() < 0.05
                && (l.size - g.size).abs() < 0.05
                && g.ink.x0 >= l.ink.x0
                && g.ink.x0 - l.ink.x1 < g.size * 0.5 / MM
        });
        match runs.last_mut() {
            Some(run) if joins => {
                run.ink = run.ink.union(&g.ink);
                run.text.push_str(&g.text);
            }
            _ => runs.push(Run {
                ink: g.ink,
                text: g.text.clone(),
                size: g.size,
            }),
        }
        last = Some(g);
    }
    runs
}

/// What a player marks: a stroked outline about as wide as tall, 3 to 15 mm across; the
/// paths inside one (a ball's band and button) belong to it.
fn marked_boxes(page: &Page) -> Vec<Bounds> {
    let mut boxes: Vec<Bounds> = Vec::new();
    for p in page.paths.iter().filter(|p| p.stroked) {
        let b = p.bounds;
        let squareish = (b.w() - b.h()).abs() < 0.15 * b.w().max(b.h());
        if squareish && b.w() > 3.0 && b.w() < 15.0 {
            if let Some(outer) = boxes
                .iter_mut()
                .find(|o| o.contains(&b, 0.3) || b.contains(o, 0.3))
            {
                *outer = outer.union(&b);
            } else {
                boxes.push(b);
            }
        }
    }
    boxes
}

/// Section frames: stroked outlines larger than any box.
fn frames(page: &Page) -> Vec<Bounds> {
    page.paths
        .iter()
        .filter(|p| p.stroked && p.bounds.w() > 25.0 && p.bounds.h() > 12.0)
        .map(|p| p.bounds)
        .collect()
}

/// Every fault a player would see on page 1: overlapping ink, boxes too small to mark, text
/// too small to read. The key at the foot of the page (its samples are small on purpose) is
/// read for overlaps only.
fn faults(pdf: &[u8]) -> Vec<String> {
    let page = read_page(pdf, 0);
    let runs = runs(&page.glyphs);
    // An outline with words inside is a requirement tag, not a box to mark.
    let boxes: Vec<Bounds> = marked_boxes(&page)
        .into_iter()
        .filter(|b| !runs.iter().any(|r| b.contains(&r.ink, 0.0)))
        .collect();
    let frames = frames(&page);
    let foot = page.height_mm - 16.0;
    let mut faults = Vec::new();
    for r in &runs {
        if r.size < 7.0 - 0.05 {
            faults.push(format!("text {:?} set at {:.2} pt", r.text, r.size));
        }
    }
    for b in boxes.iter().filter(|b| b.y0 < foot) {
        if b.w().min(b.h()) < 5.0 - 0.05 {
            faults.push(format!(
                "a box {:.2} x {:.2} mm at ({:.1}, {:.1})",
                b.w(),
                b.h(),
                b.x0,
                b.y0
            ));
        }
    }
    for (i, a) in runs.iter().enumerate() {
        for b in &runs[i + 1..] {
            if a.ink.overlaps(&b.ink, 0.05) {
                faults.push(format!(
                    "text {:?} overlaps text {:?} at ({:.1}, {:.1})",
                    a.text, b.text, a.ink.x0, a.ink.y0
                ));
            }
        }
        for b in &boxes {
            if a.ink.overlaps(b, 0.05) {
                faults.push(format!(
                    "text {:?} overlaps a box at ({:.1}, {:.1})",
                    a.text, b.x0, b.y0
                ));
            }
        }
        for f in &frames {
            let crosses = a.ink.overlaps(f, 0.0) && !f.contains(&a.ink, -0.2);
            if crosses {
                faults.push(format!(
                    "text {:?} crosses a section's frame at ({:.1}, {:.1})",
                    a.text, a.ink.x0, a.ink.y0
                ));
            }
        }
    }
    for (i, a) in boxes.iter().enumerate() {
        for b in &boxes[i + 1..] {
            if a.overlaps(b, 0.05) {
                faults.push(format!(
                    "boxes at ({:.1}, {:.1}) and ({:.1}, {:.1}) overlap",
                    a.x0, a.y0, b.x0, b.y0
                ));
            }
        }
        for f in &frames {
            if a.overlaps(f, 0.0) && !f.contains(a, -0.2) {
                faults.push(format!(
                    "a box at ({:.1}, {:.1}) crosses a section's frame",
                    a.x0, a.y0
                ));
            }
        }
    }
    faults
}

// ---- The corpus ----------------------------------------------------------------------------------

/// A small deterministic generator (SplitMix64): the corpus is the same on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }
}

const WORDS: &[&str] = &[
    "Lookout",
    "Marsh",
    "Old",
    "Ranger",
    "Station",
    "Hidden",
    "Waterfall",
    "Grove",
    "Lucky",
    "Tall",
    "Grass",
    "Sunny",
    "Boardwalk",
    "Northern",
    "Cave",
    "Crossing",
    "Picnic",
    "Meadow",
    "Observation",
    "Tower",
    "Berry",
    "Patch",
    "Flute",
    "Silph",
    "Scope",
];
const SPECIES: &[&str] = &[
    "paras",
    "venonat",
    "psyduck",
    "poliwag",
    "slowpoke",
    "doduo",
    "krabby",
    "rhyhorn",
    "goldeen",
    "magikarp",
    "exeggcute",
    "nidoran-f",
    "nidoran-m",
];
const PAPERS: &[&str] = &[
    "a4",
    "letter",
    "a3",
    "tabloid",
    "custom-small",
    "custom-wide",
];

struct Variant {
    name: String,
    guide: String,
    paper: &'static str,
}

fn words(rng: &mut Rng, most: u64) -> String {
    let n = 1 + rng.below(most);
    (0..n)
        .map(|_| *rng.pick(WORDS))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Inserts `text` on the line before the first line containing `anchor`.
fn insert_before(guide: &mut String, anchor: &str, text: &str) {
    let at = guide
        .find(anchor)
        .unwrap_or_else(|| panic!("anchor {anchor:?}"));
    let line_start = guide[..at].rfind('\n').map_or(0, |i| i + 1);
    guide.insert_str(line_start, text);
}

fn variant(index: u64, base: &str) -> Variant {
    let mut rng = Rng(index * 7919 + 17);
    let mut guide = base.to_string();
    let mut name = format!("#{index}");
    // Bag: longer tracks and new ones, with titles of every length.
    for t in 0..rng.below(4) {
        let boxes = 2 + rng.below(9);
        let mut track = format!(
            "    track \"extra-{index}-{t}\" title=\"{}\" {{\n",
            words(&mut rng, 3)
        );
        for b in 0..boxes {
            let vp = if rng.chance(40) {
                format!(" vp={}", 1 + rng.below(12))
            } else {
                String::new()
            };
            let label = if rng.chance(15) {
                format!(" label=\"{}\"", words(&mut rng, 2))
            } else {
                String::new()
            };
            let _ = writeln!(track, "        box{vp}{label} // {b}");
        }
        track.push_str("    }\n");
        insert_before(&mut guide, "track \"bicycle\"", &track);
        let _ = write!(name, " bag+{boxes}");
    }
    // Areas: more trails.
    for t in 0..rng.below(3) {
        let boxes = 2 + rng.below(6);
        let mut track = format!(
            "    track \"trail-{index}-{t}\" title=\"{}\" flow=\"column\" {{\n",
            words(&mut rng, 3)
        );
        for _ in 0..boxes {
            let vp = if rng.chance(50) {
                format!(" vp={}", 1 + rng.below(9))
            } else {
                String::new()
            };
            let gives = if rng.chance(20) {
                " gives=\"habitat:water\""
            } else {
                ""
            };
            let _ = writeln!(track, "        box{vp}{gives}");
        }
        track.push_str("    }\n");
        insert_before(&mut guide, "// Guests:", &track);
        let _ = write!(name, " trail+{boxes}");
    }
    // Pokédex: more species boxes, some with long names.
    let extra = if rng.chance(50) { rng.below(30) } else { 0 };
    for b in 0..extra {
        let species = rng.pick(SPECIES);
        let label = if rng.chance(30) {
            words(&mut rng, 3)
        } else {
            format!("Entry {b}")
        };
        let text = format!(
            "    box \"dex-extra-{index}-{b}\" fill=\"collect:{species}\" vp={} label=\"{label}\"\n",
            1 + rng.below(5)
        );
        // At the end of the Pokédex, the section before Evolutions.
        insert_before(&mut guide, "}\n\nsection \"evolutions\"", &text);
    }
    if extra > 0 {
        let _ = write!(name, " dex+{extra}");
    }
    // Evolutions: more lines.
    for t in 0..rng.below(6) {
        let text = format!(
            "    track \"evo-{index}-{t}\" {{\n        box fill=\"collect:paras\" gives=\"species:parasect\" vp=2\n    }}\n"
        );
        insert_before(&mut guide, "track \"dratini-line\"", &text);
        let _ = write!(name, " evo+1");
    }
    // Removals.
    if rng.chance(20) {
        // The Rare Sightings section, the guide's last.
        let start = guide.find("// Blue trigger boxes").unwrap();
        let end = start + guide[start..].find("\n}\n").unwrap() + 3;
        guide.replace_range(start..end, "");
        name.push_str(" -rare");
    }
    if rng.chance(20) {
        guide = guide
            .lines()
            .filter(|l| !l.trim_start().starts_with("text "))
            .collect::<Vec<_>>()
            .join("\n");
        name.push_str(" -notes");
    }
    // Long titles and notes.
    if rng.chance(25) {
        guide = guide.replacen(
            "title=\"Bag\"",
            &format!("title=\"{}\"", words(&mut rng, 4)),
            1,
        );
        name.push_str(" long-title");
    }
    if rng.chance(20) {
        let note = (0..30)
            .map(|_| *rng.pick(WORDS))
            .collect::<Vec<_>>()
            .join(" ");
        guide = guide.replacen(
            "text \"Fill one box for every",
            &format!("text \"{note}. Fill one box for every"),
            1,
        );
        name.push_str(" long-note");
    }
    // Placement: as written, left to the layout, or on another grid.
    match rng.below(4) {
        0 | 1 => {}
        2 => {
            guide = strip_placements(&guide);
            name.push_str(" auto");
        }
        _ => {
            let columns = 2 + rng.below(3);
            guide =
                strip_placements(&guide).replacen("columns=3", &format!("columns={columns}"), 1);
            let _ = write!(name, " auto columns={columns}");
        }
    }
    let paper = *rng.pick(PAPERS);
    let _ = write!(name, " {paper}");
    Variant { name, guide, paper }
}

fn strip_placements(guide: &str) -> String {
    guide
        .lines()
        .map(|line| {
            if line.starts_with("section ") {
                line.split(' ')
                    .filter(|part| {
                        !["column=", "row=", "width=", "height="]
                            .iter()
                            .any(|p| part.starts_with(p))
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
            } else {
                line.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn folder_for(variant: &Variant) -> GameFolder {
    let mut folder = GameFolder::in_memory();
    for (name, text) in safari::embedded::DEFAULT_GAME {
        let text = match *name {
            "field-guide.kdl" => variant.guide.clone(),
            "game.toml" => {
                let paper = match variant.paper {
                    "custom-small" => "{ width-mm = 160, height-mm = 200 }".to_string(),
                    "custom-wide" => "{ width-mm = 420, height-mm = 297 }".to_string(),
                    named => format!("\"{named}\""),
                };
                text.replace("paper = \"a4\"", &format!("paper = {paper}"))
            }
            _ => text.to_string(),
        };
        folder.add_source(*name, text);
    }
    folder
}

fn errors(diagnostics: &[Diagnostic]) -> Vec<(String, String)> {
    diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| (d.code.to_string(), d.message.clone()))
        .collect()
}

fn sheet_only() -> BuildOptions {
    let mut options = BuildOptions {
        targets: vec![Target::Sheet],
        ..BuildOptions::default()
    };
    options.print.page_previews = false;
    options
}

enum Outcome {
    Fits,
    DoesNotFit,
}

fn run(variant: &Variant) -> Result<Outcome, String> {
    let mut folder = folder_for(variant);
    let checked = safari::check(&mut folder);
    let check_errors = errors(&checked.diagnostics.iter().cloned().collect::<Vec<_>>());
    if check_errors.iter().any(|(code, _)| code != "SZ0309") {
        return Err(format!(
            "{}: the corpus made content with other errors: {check_errors:?}",
            variant.name
        ));
    }
    // A shortfall is a positive width: "-131.5 mm too narrow" would tell the designer nothing.
    for (_, message) in &check_errors {
        if let Some((before, _)) = message.split_once(" mm too narrow") {
            let number = before.rsplit(' ').next().unwrap_or_default();
            if !number.parse::<f64>().is_ok_and(|mm| mm > 0.0) {
                return Err(format!("{}: {message}", variant.name));
            }
        }
    }
    let mut folder = folder_for(variant);
    let built = safari::build(&mut folder, &sheet_only());
    let build_errors = errors(
        &built
            .checked
            .diagnostics
            .iter()
            .cloned()
            .collect::<Vec<_>>(),
    );
    if !check_errors.is_empty() {
        if build_errors != check_errors || built.outputs.is_some() {
            return Err(format!(
                "{}: check said {check_errors:?}, build said {build_errors:?}",
                variant.name
            ));
        }
        return Ok(Outcome::DoesNotFit);
    }
    let outputs = built.outputs.ok_or_else(|| {
        format!(
            "{}: checked clean, build failed: {build_errors:?}",
            variant.name
        )
    })?;
    let pdf = &outputs
        .iter()
        .find(|o| o.path == "field-guide.pdf")
        .expect("the sheet was built")
        .bytes;
    let faults = faults(pdf);
    if faults.is_empty() {
        Ok(Outcome::Fits)
    } else {
        // SAFARI_LAYOUT_DUMP=DIR keeps each failing guide and its PDF, to look at.
        if let Some(dir) = std::env::var_os("SAFARI_LAYOUT_DUMP") {
            let dir = std::path::Path::new(&dir);
            let _ = std::fs::create_dir_all(dir);
            let stem = variant
                .name
                .split(' ')
                .next()
                .unwrap_or("guide")
                .replace('#', "");
            let _ = std::fs::write(dir.join(format!("{stem}.kdl")), &variant.guide);
            let _ = std::fs::write(dir.join(format!("{stem}.pdf")), pdf);
        }
        Err(format!("{}:\n  {}", variant.name, faults.join("\n  ")))
    }
}

#[test]
fn every_generated_guide_fits_cleanly_or_check_says_why() {
    let base = safari::embedded::DEFAULT_GAME
        .iter()
        .find(|(n, _)| *n == "field-guide.kdl")
        .unwrap()
        .1;
    let count: u64 = std::env::var("SAFARI_LAYOUT_CORPUS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(200);
    // Typst, unoptimised in a debug build, recurses deeper than rayon's default 2 MiB stacks.
    let pool = rayon::ThreadPoolBuilder::new()
        .stack_size(64 << 20)
        .build()
        .unwrap();
    let results: Vec<Result<Outcome, String>> = pool.install(|| {
        (0..count)
            .into_par_iter()
            .map(|i| run(&variant(i, base)))
            .collect()
    });
    let failures: Vec<&String> = results.iter().filter_map(|r| r.as_ref().err()).collect();
    let fits = results
        .iter()
        .filter(|r| matches!(r, Ok(Outcome::Fits)))
        .count();
    let misfits = results
        .iter()
        .filter(|r| matches!(r, Ok(Outcome::DoesNotFit)))
        .count();
    assert!(
        failures.is_empty(),
        "{} of {count} guides failed:\n{}",
        failures.len(),
        failures
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
    // The corpus exercises both outcomes.
    eprintln!("{fits} of {count} guides fit; {misfits} do not, and check says so");
    assert!(fits >= count as usize / 3, "{fits} of {count} fit");
    assert!(misfits >= 5, "{misfits} of {count} do not fit");
}

#[test]
fn the_default_game_and_its_earlier_version_print_cleanly_on_every_paper() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    for game in ["content/safari-zone", "content/safari-zone-v20240517"] {
        for paper in ["a4", "letter", "a3", "tabloid"] {
            let mut folder = GameFolder::open(&root.join(game)).unwrap();
            let mut options = sheet_only();
            options.print.paper = Some(safari::model::Paper::parse(paper).unwrap());
            let built = safari::build(&mut folder, &options);
            let outputs = built.outputs.unwrap_or_else(|| {
                panic!(
                    "{game} on {paper}: {:?}",
                    errors(
                        &built
                            .checked
                            .diagnostics
                            .iter()
                            .cloned()
                            .collect::<Vec<_>>()
                    )
                )
            });
            let pdf = &outputs
                .iter()
                .find(|o| o.path == "field-guide.pdf")
                .unwrap()
                .bytes;
            let faults = faults(pdf);
            assert!(
                faults.is_empty(),
                "{game} on {paper}:\n{}",
                faults.join("\n")
            );
        }
    }
}

#[test]
fn the_reader_sees_a_fault_when_there_is_one() {
    // The page reader must not be blind: the same sheet with two words set on top of each
    // other, a small box and small text, drawn by a template override, is caught.
    let mut folder = GameFolder::in_memory();
    for (name, text) in safari::embedded::DEFAULT_GAME {
        folder.add_source(*name, *text);
    }
    let template = safari::rules::safari_zone::print::TEMPLATES
        .iter()
        .find(|(n, _)| *n == "field-guide.typ")
        .unwrap()
        .1;
    let broken = template.replace(
        "#draw-sheet(plan, icon: habitat)",
        "#draw-sheet(plan, icon: habitat)\n#import \"sheet.typ\": at\n#at((x: 60, y: 140), text(size: 9pt)[Overlapping words])\n#at((x: 62, y: 140.5), text(size: 9pt)[Another line])\n#at((x: 100, y: 30), mark-box(\"square\", \"plain\", size: 4mm))\n#at((x: 120, y: 30), text(size: 5pt)[tiny])",
    );
    assert_ne!(broken, template, "the anchor is in the template");
    folder.add_source("templates/field-guide.typ", broken);
    let built = safari::build(&mut folder, &sheet_only());
    let outputs = built.outputs.expect("the broken template still builds");
    let pdf = &outputs
        .iter()
        .find(|o| o.path == "field-guide.pdf")
        .unwrap()
        .bytes;
    let faults = faults(pdf).join("\n");
    assert!(faults.contains("overlaps text"), "{faults}");
    assert!(faults.contains("a box 4.0"), "{faults}");
    assert!(faults.contains("5.00 pt"), "{faults}");
}

#[test]
fn the_same_content_gives_the_same_layout_and_written_places_are_kept() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut folder = GameFolder::open(&root.join("content/safari-zone")).unwrap();
    let checked = safari::check(&mut folder);
    let game = checked.game.unwrap();
    let a =
        safari::rules::safari_zone::sheet::field_guide(&game, safari::model::Paper::A4).unwrap();
    let b =
        safari::rules::safari_zone::sheet::field_guide(&game, safari::model::Paper::A4).unwrap();
    assert_eq!(
        serde_json::to_string(&a).unwrap(),
        serde_json::to_string(&b).unwrap()
    );
    for (section, placed) in game.guide.sections.iter().zip(&a.sections) {
        let p = &section.placement;
        assert!(!p.auto);
        assert_eq!(
            (placed.column, placed.row, placed.width, placed.height),
            (p.column, p.row, p.width, p.height),
            "section {}",
            section.id
        );
    }
    // Every item of a section lies inside its panel, and no two items overlap (a badge sits
    // on its own box's corner, words inside their tag).
    for s in &a.sections {
        for item in &s.items {
            assert!(
                s.rect.contains(&item.rect(), 0.01),
                "{} item {:?} outside its panel",
                s.id,
                item.rect()
            );
        }
    }
}

/// The page's frame keeps to the margin: the score box when a long name is set small, and the
/// key's samples, taller than the foot's line, on the last line. Found by the layout fuzz
/// target (fuzz/README.md).
#[test]
fn the_frame_keeps_to_the_margin() {
    let guide: String = safari::embedded::DEFAULT_GAME
        .iter()
        .find(|(name, _)| *name == "field-guide.kdl")
        .map(|(_, text)| text.to_string())
        .unwrap();
    for paper in ["a4", "letter"] {
        let mut folder = folder_for(&Variant {
            name: "frame".to_string(),
            guide: guide.clone(),
            paper,
        });
        // A name long enough to be set small, and short enough to fit.
        let long = "Safari Zone: The Rules Not Written Down";
        let manifest = folder.find("game.toml").unwrap();
        let text = folder
            .source(manifest)
            .text
            .replace("Safari Zone RNW", long);
        let mut renamed = GameFolder::in_memory();
        for (id, source) in folder.sources() {
            let body = if id == manifest {
                text.clone()
            } else {
                source.text.clone()
            };
            renamed.add_source(source.name.clone(), body);
        }
        folder = renamed;
        let checked = safari::check(&mut folder);
        let layout = checked.layout.expect("the sheet is laid out");
        let m = safari::layout::PAGE_MARGIN_MM - 1e-6;
        let header = &layout.header;
        assert!(
            header.score_box.y >= m,
            "{paper}: score box at {:?}",
            header.score_box
        );
        for entry in &layout.footer.key {
            assert!(
                entry.rect.y + entry.rect.h <= layout.height - m,
                "{paper}: key sample {} at {:?}",
                entry.sample,
                entry.rect
            );
        }
    }
}

/// Loose boxes of the larger shapes (a diamond, a hexagon and a star are drawn up to 1.25
/// times a square box) get rows as tall as they are drawn: none reaches into the one below.
/// The games in tests/layout-faults/ are the layout fuzz target's reproductions.
#[test]
fn loose_boxes_of_larger_shapes_do_not_overlap() {
    for name in ["star-lines-overlap", "diamond-lines-overlap"] {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/layout-faults")
            .join(name);
        let mut folder = GameFolder::open(&dir).unwrap();
        let checked = safari::check(&mut folder);
        // Rows as tall as their boxes may no longer fit: then the check says so.
        let Some(layout) = checked.layout else {
            assert!(
                checked
                    .diagnostics
                    .iter()
                    .any(|d| d.code.as_str() == "SZ0309"),
                "{name}: no layout and no SZ0309"
            );
            continue;
        };
        let boxes: Vec<_> = layout
            .items()
            .filter_map(|(_, item)| match item {
                safari::layout::Item::Box { rect, .. } => Some(*rect),
                _ => None,
            })
            .collect();
        for (i, a) in boxes.iter().enumerate() {
            for b in &boxes[i + 1..] {
                let apart = a.x + a.w <= b.x + 1e-6
                    || b.x + b.w <= a.x + 1e-6
                    || a.y + a.h <= b.y + 1e-6
                    || b.y + b.h <= a.y + 1e-6;
                assert!(apart, "{name}: {a:?} and {b:?} overlap");
            }
        }
    }
}

/// Every item of every section inside its panel, badges included, on the fuzz target's
/// reproductions (tests/layout-faults/): a section spanning rows nothing else fills, and a
/// section narrower than a loose box and its badge.
#[test]
fn sections_hold_their_items_on_the_fuzz_reproductions() {
    for name in ["section-span-gutters", "narrow-badge"] {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/layout-faults")
            .join(name);
        let mut folder = GameFolder::open(&dir).unwrap();
        let checked = safari::check(&mut folder);
        let Some(layout) = checked.layout else {
            assert!(
                checked
                    .diagnostics
                    .iter()
                    .any(|d| d.code.as_str() == "SZ0309"),
                "{name}: no layout and no SZ0309"
            );
            continue;
        };
        for s in &layout.sections {
            for item in &s.items {
                let r = item.rect();
                assert!(
                    s.rect.contains(&r, 0.01),
                    "{name}: section {}: {item:?} outside its panel {:?}",
                    s.id,
                    s.rect
                );
            }
        }
    }
}

/// The fallback face the layout measures with and Typst sets in is picked out of typst-assets
/// by the family in its name table, which is cheap; Typst, which decides what it draws with,
/// must read the same family from the faces picked, and find no other face of that family.
#[test]
fn the_fallback_faces_are_the_ones_typst_calls_dejavu_sans_mono() {
    let family = |data: &[u8]| {
        typst::text::Font::iter(typst::foundations::Bytes::new(data.to_vec()))
            .map(|font| font.info().family.clone())
            .collect::<Vec<_>>()
    };
    let picked = &*safari::fonts::FALLBACK;
    assert_eq!(picked.len(), 4, "DejaVu Sans Mono has four faces");
    for data in picked {
        assert_eq!(family(data), ["DejaVu Sans Mono"]);
    }
    let all = typst_assets::fonts()
        .filter(|data| family(data).iter().any(|f| f == "DejaVu Sans Mono"))
        .count();
    assert_eq!(all, picked.len());
}

/// A box's `needs` of another box prints what a player finds on the sheet, never the box's
/// id: a box in a track by its track's title and place, a Pokédex box by its species.
#[test]
fn a_box_needing_another_box_names_it_as_the_sheet_shows_it() {
    let mut guide: String = safari::embedded::DEFAULT_GAME
        .iter()
        .find(|(name, _)| *name == "field-guide.kdl")
        .map(|(_, text)| text.to_string())
        .unwrap();
    for (from, to) in [
        (
            r#"fill="collect:tauros" needs="area:area-3""#,
            r#"fill="collect:tauros" needs="box:areas.area-3#3""#,
        ),
        (
            r#"fill="collect:dragonair" needs="area:area-2""#,
            r#"fill="collect:dragonair" needs="box:dex-dratini""#,
        ),
    ] {
        assert!(guide.contains(from), "{from}");
        guide = guide.replace(from, to);
    }
    let mut folder = folder_for(&Variant {
        name: "needs-a-box".to_string(),
        guide,
        paper: "a4",
    });
    let checked = safari::check(&mut folder);
    assert!(
        checked.diagnostics.iter().all(|d| !d.is_error()),
        "{:?}",
        errors(&checked.diagnostics.iter().cloned().collect::<Vec<_>>())
    );
    let game = checked.game.unwrap();
    let sheet =
        safari::rules::safari_zone::sheet::field_guide(&game, safari::model::Paper::A4).unwrap();
    let tags: Vec<String> = sheet
        .items()
        .filter_map(|(_, item)| match item {
            safari::layout::Item::Tag { side, parts, .. }
                if *side == safari::layout::Side::Needs =>
            {
                let words: Vec<&str> = parts
                    .iter()
                    .filter_map(|p| match p {
                        safari::layout::Part::Text { line } => Some(line.text.as_str()),
                        safari::layout::Part::Icon { .. } => None,
                    })
                    .collect();
                Some(words.join(" "))
            }
            _ => None,
        })
        .collect();
    for said in ["Area 3 (West) #3", "Pokédex: Dratini"] {
        assert!(
            tags.iter().any(|t| t == said),
            "no tag says {said}: {tags:?}"
        );
    }
    for id in ["dex-dratini", "areas.area-3#3"] {
        assert!(
            tags.iter().all(|t| !t.contains(id)),
            "a tag says {id}: {tags:?}"
        );
    }
}
