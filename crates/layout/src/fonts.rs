//! The bundled fonts, and text measured with them.
//!
//! Every print file is set in these faces only, so a build gives the same pages on every
//! machine; and because the layout is computed in Rust before Typst draws it, text is
//! measured here with the same faces and the same shaper Typst uses (rustybuzz, kerning and
//! ligatures on), so a line the layout gives 30 mm is 30 mm on the page.

use std::sync::LazyLock;

/// The faces the templates use, as files: bundled, never the machine's.
pub const FILES: &[&[u8]] = &[
    include_bytes!("../../../fonts/BebasNeue-Bold.otf"),
    include_bytes!("../../../fonts/BebasNeue-Regular.otf"),
    include_bytes!("../../../fonts/Cabin-Regular.otf"),
    include_bytes!("../../../fonts/Cabin-Bold.otf"),
    include_bytes!("../../../fonts/Cabin-SemiBold.otf"),
    include_bytes!("../../../fonts/Cabin-Italic.otf"),
];

/// DejaVu Sans Mono (from typst-assets) is the only fallback, for the signs the two bundled
/// families lack (♀, ♂, arrows): with all of Typst's faces as fallbacks, those signs were set
/// in Libertinus Serif, out of keeping with the rest. Picked out once per process.
pub static FALLBACK: LazyLock<Vec<&'static [u8]>> = LazyLock::new(|| {
    typst_assets::fonts()
        .filter(|data| family_is(data, "DejaVu Sans Mono"))
        .collect()
});

/// Whether a font file's family is `family`, read from its name table alone. Typst's font
/// info, which maps every character a face covers, cost each `check` about 1.6 ms of CPU (a
/// quarter of it) for the twenty faces of typst-assets.
fn family_is(data: &[u8], family: &str) -> bool {
    use rustybuzz::ttf_parser::{Face, name_id};
    Face::parse(data, 0).is_ok_and(|face| {
        face.names().into_iter().any(|name| {
            matches!(name.name_id, name_id::FAMILY | name_id::TYPOGRAPHIC_FAMILY)
                && name.to_string().as_deref() == Some(family)
        })
    })
}

/// A face and weight the layout sets text in (the templates' `headline`, captions, notes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Style {
    /// Bebas Neue Bold, tracked 0.04 em: titles.
    Display,
    /// Cabin Regular: captions, labels, tags.
    Body,
    /// Cabin Bold: victory points.
    Bold,
    /// Cabin Italic: a section's notes.
    Italic,
}

impl Style {
    /// Extra space after every character, in em (the templates' `headline` tracking).
    pub(crate) fn tracking(self) -> f64 {
        match self {
            Style::Display => 0.04,
            _ => 0.0,
        }
    }
    fn file(self) -> &'static [u8] {
        match self {
            Style::Display => FILES[0],
            Style::Body => FILES[2],
            Style::Bold => FILES[3],
            Style::Italic => FILES[5],
        }
    }
}

struct Faces {
    display: rustybuzz::Face<'static>,
    body: rustybuzz::Face<'static>,
    bold: rustybuzz::Face<'static>,
    italic: rustybuzz::Face<'static>,
    fallback: Option<rustybuzz::Face<'static>>,
}

static FACES: LazyLock<Faces> = LazyLock::new(|| {
    let face = |style: Style| {
        rustybuzz::Face::from_slice(style.file(), 0).expect("the bundled fonts parse")
    };
    Faces {
        display: face(Style::Display),
        body: face(Style::Body),
        bold: face(Style::Bold),
        italic: face(Style::Italic),
        fallback: FALLBACK
            .first()
            .and_then(|data| rustybuzz::Face::from_slice(data, 0)),
    }
});

impl Faces {
    fn get(&self, style: Style) -> &rustybuzz::Face<'static> {
        match style {
            Style::Display => &self.display,
            Style::Body => &self.body,
            Style::Bold => &self.bold,
            Style::Italic => &self.italic,
        }
    }
}

const MM_PER_PT: f64 = 25.4 / 72.0;

/// The advance width of `text` set on one line in `style` at `size` points, in millimetres.
/// Characters the face lacks are measured in the fallback face, as Typst sets them.
pub fn width(style: Style, size: f64, text: &str) -> f64 {
    let faces = &*FACES;
    let primary = faces.get(style);
    let mut total_em = 0.0;
    let mut run_start = 0;
    let mut run_primary = true;
    let mut chars = 0usize;
    for (at, c) in text.char_indices() {
        chars += 1;
        let in_primary = primary.glyph_index(c).is_some() || c.is_whitespace();
        if in_primary != run_primary && at > run_start {
            total_em += shaped_em(faces, primary, run_primary, &text[run_start..at]);
            run_start = at;
        }
        run_primary = in_primary;
    }
    if run_start < text.len() {
        total_em += shaped_em(faces, primary, run_primary, &text[run_start..]);
    }
    (total_em + style.tracking() * chars as f64) * size * MM_PER_PT
}

fn shaped_em(
    faces: &Faces,
    primary: &rustybuzz::Face<'static>,
    in_primary: bool,
    text: &str,
) -> f64 {
    let face = if in_primary {
        primary
    } else {
        faces.fallback.as_ref().unwrap_or(primary)
    };
    let mut buffer = rustybuzz::UnicodeBuffer::new();
    buffer.push_str(text);
    let shaped = rustybuzz::shape(face, &[], buffer);
    let advance: i64 = shaped
        .glyph_positions()
        .iter()
        .map(|p| i64::from(p.x_advance))
        .sum();
    advance as f64 / f64::from(face.units_per_em())
}

/// The height of one line of text, ascender to descender, in millimetres: the room the
/// layout gives it and the box the templates set it in.
pub(crate) fn line_height(style: Style, size: f64) -> f64 {
    let face = FACES.get(style);
    let span = f64::from(face.ascender()) - f64::from(face.descender());
    span / f64::from(face.units_per_em()) * size * MM_PER_PT
}
