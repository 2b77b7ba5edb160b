//! Pages as pictures: a Typst page rasterised onto white, as RGB, and encoded as PNG.
//!
//! Previews and the Tabletop Simulator images are opaque pages, so they are stored as RGB
//! (what Tabletop Simulator asks for, and a quarter smaller than RGBA) and compressed with the
//! png crate's fast mode: at default settings, deflate was the largest cost of a print build.

use typst_layout::Page;

/// An RGB image, 8 bits a channel, rows top to bottom.
pub struct Image {
    pub width: u32,
    pub height: u32,
    pub rgb: Vec<u8>,
}

impl Image {
    pub fn blank(width: u32, height: u32) -> Image {
        Image {
            width,
            height,
            rgb: vec![255; (width * height * 3) as usize],
        }
    }

    /// A page rasterised at `pixel_per_pt`, flattened onto white; with `bleed`, the page's
    /// bleed area is included.
    pub fn of_page(page: &Page, pixel_per_pt: f64, bleed: bool) -> Image {
        let pixmap = typst_render::render(
            page,
            &typst_render::RenderOptions {
                pixel_per_pt: pixel_per_pt.into(),
                render_bleed: bleed,
            },
        );
        let rgb = pixmap
            .pixels()
            .iter()
            .flat_map(|p| {
                // Premultiplied colour over white: c + (255 - alpha).
                let white = 255 - p.alpha();
                [
                    p.red().saturating_add(white),
                    p.green().saturating_add(white),
                    p.blue().saturating_add(white),
                ]
            })
            .collect();
        Image {
            width: pixmap.width(),
            height: pixmap.height(),
            rgb,
        }
    }

    /// Copies `other` in at (x, y), turned half a turn when `flip`; clipped to this image.
    pub fn paste(&mut self, other: &Image, x: u32, y: u32, flip: bool) {
        for oy in 0..other.height {
            let ty = y + oy;
            if ty >= self.height {
                break;
            }
            for ox in 0..other.width {
                let tx = x + ox;
                if tx >= self.width {
                    break;
                }
                let (sx, sy) = if flip {
                    (other.width - 1 - ox, other.height - 1 - oy)
                } else {
                    (ox, oy)
                };
                let from = ((sy * other.width + sx) * 3) as usize;
                let to = ((ty * self.width + tx) * 3) as usize;
                self.rgb[to..to + 3].copy_from_slice(&other.rgb[from..from + 3]);
            }
        }
    }

    pub fn png(&self) -> Vec<u8> {
        let mut bytes = Vec::new();
        let mut encoder = png::Encoder::new(&mut bytes, self.width, self.height);
        encoder.set_color(png::ColorType::Rgb);
        encoder.set_depth(png::BitDepth::Eight);
        encoder.set_compression(png::Compression::Fast);
        let mut writer = encoder.write_header().expect("a PNG header encodes");
        writer
            .write_image_data(&self.rgb)
            .expect("RGB rows of the declared size encode");
        writer.finish().expect("a PNG ends");
        bytes
    }
}
