//! Pictures a game names (a card's art, a symbol's art). The print templates draw them with
//! Typst's `image()`, so `check` decodes each one as that call will: a file that is no
//! picture is refused by `check`, labelled where the content names it, and not first by a
//! build's typesetting, labelled in a template.

use typst::foundations::{Bytes, Smart};
use typst::visualize::{ExchangeFormat, ImageFormat, RasterImage, VectorFormat};

use crate::diag::{Code, Diagnostic};
use crate::world::FolderReader;

/// The bytes of a picture inside the folder: [`FolderReader::read`], and an error too when
/// the templates' Typst `image()` could not draw it.
pub(crate) fn read_picture(reader: &FolderReader, relative: &str) -> Result<Vec<u8>, Diagnostic> {
    let bytes = reader.read(relative)?;
    match picture_fault(relative, &bytes) {
        None => Ok(bytes),
        Some(why) => Err(Diagnostic::error(
            Code::FileUnreadable,
            format!("file `{relative}` cannot be drawn: {why}"),
        )
        .with_help("name a PNG, JPEG, GIF, WebP or SVG picture in the game folder")),
    }
}

/// Why Typst's `image()` cannot draw `bytes` read from `path`, or `None` when it can. The
/// format comes from the file's extension, else from its first bytes, as Typst decides it.
pub(crate) fn picture_fault(path: &str, bytes: &[u8]) -> Option<String> {
    let extension = path
        .rsplit_once('.')
        .map(|(_, extension)| extension.to_ascii_lowercase());
    let format = match extension.as_deref() {
        Some("png") => ExchangeFormat::Png.into(),
        Some("jpg" | "jpeg") => ExchangeFormat::Jpg.into(),
        Some("gif") => ExchangeFormat::Gif.into(),
        Some("webp") => ExchangeFormat::Webp.into(),
        Some("svg" | "svgz") => VectorFormat::Svg.into(),
        Some("pdf") => VectorFormat::Pdf.into(),
        _ => match ImageFormat::detect(bytes) {
            Some(format) => format,
            None => {
                return Some(
                    "it is not a picture (PNG, JPEG, GIF, WebP or SVG) by its name or its bytes"
                        .to_string(),
                );
            }
        },
    };
    match format {
        ImageFormat::Raster(raster) => {
            RasterImage::new(Bytes::new(bytes.to_vec()), raster, Smart::Auto)
                .err()
                .map(|err| err.to_string())
        }
        ImageFormat::Vector(VectorFormat::Svg) => {
            resvg::usvg::Tree::from_data(bytes, &resvg::usvg::Options::default())
                .err()
                .map(|err| format!("it is not a readable SVG picture ({err})"))
        }
        // Typst reads a PDF's pages only as it draws them; its header is what can be told.
        ImageFormat::Vector(VectorFormat::Pdf) => (!bytes.starts_with(b"%PDF-"))
            .then(|| "it is named .pdf but is not a PDF file".to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::picture_fault;

    #[test]
    fn pictures_are_told_from_other_files() {
        let svg = br#"<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>"#;
        assert_eq!(picture_fault("a.svg", svg), None);
        assert_eq!(picture_fault("a", svg), None, "an SVG known by its bytes");
        assert!(picture_fault("a.png", b"hello").is_some());
        assert!(picture_fault("a.svg", b"<svg").is_some());
        assert!(picture_fault("notes.txt", b"hello").is_some());
        assert!(
            picture_fault("a.png", svg).is_some(),
            "a PNG by name must be one"
        );
    }
}
