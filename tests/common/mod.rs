//! What more than one test file reads PDFs with.

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
