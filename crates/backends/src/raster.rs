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
        if x >= self.width || y >= self.height {
            return;
        }
        let columns = other.width.min(self.width - x) as usize;
        let rows = other.height.min(self.height - y);
        for oy in 0..rows {
            let to = ((y + oy) as usize * self.width as usize + x as usize) * 3;
            let target = &mut self.rgb[to..to + columns * 3];
            if flip {
                // Row `oy` of the turned image is row `height - 1 - oy` read backwards.
                let sy = (other.height - 1 - oy) as usize;
                let row = &other.rgb[sy * other.width as usize * 3..][..other.width as usize * 3];
                for (pixel, source) in target.chunks_exact_mut(3).zip(row.chunks_exact(3).rev()) {
                    pixel.copy_from_slice(source);
                }
            } else {
                let from = oy as usize * other.width as usize * 3;
                target.copy_from_slice(&other.rgb[from..from + columns * 3]);
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
