//! Charts for simulation reports: SVG drawn by plotters, PNG rasterised by resvg.
//!
//! Text uses DejaVu Sans Mono from typst-assets, registered with plotters for layout and
//! loaded into resvg's font database, so charts look the same on every machine and never
//! depend on system fonts. Every text from content (a game's name, a run's label) is drawn
//! as [`printable`] shows it: a control character would make the SVG unreadable XML, and a
//! bidirectional override would reorder what the chart says.

use std::borrow::Cow;
use std::sync::{Arc, OnceLock};

use plotters::prelude::*;
use resvg::usvg::{self, fontdb};

use crate::diag::printable;

const FAMILY: &str = "DejaVu Sans Mono";
const SIZE: (u32, u32) = (900, 500);
const PALETTE: [RGBColor; 4] = [
    RGBColor(0xc0, 0x39, 0x2b),
    RGBColor(0x1f, 0x5f, 0x8b),
    RGBColor(0x2e, 0x8b, 0x57),
    RGBColor(0xd4, 0x8c, 0x1a),
];

/// The bundled fonts, once per process.
fn fonts() -> &'static Arc<fontdb::Database> {
    static FONTS: OnceLock<Arc<fontdb::Database>> = OnceLock::new();
    FONTS.get_or_init(|| {
        let mut db = fontdb::Database::new();
        for font in typst_assets::fonts() {
            db.load_font_data(font.to_vec());
        }
        db.set_sans_serif_family(FAMILY);
        db.set_monospace_family(FAMILY);
        let regular = typst_assets::fonts().find(|bytes| {
            let mut one = fontdb::Database::new();
            one.load_font_data(bytes.to_vec());
            one.faces().next().is_some_and(|face| {
                face.families.iter().any(|(name, _)| name == FAMILY)
                    && face.weight == fontdb::Weight::NORMAL
                    && face.style == fontdb::Style::Normal
            })
        });
        if let Some(bytes) = regular {
            let _ = plotters::style::register_font("sans-serif", FontStyle::Normal, bytes);
        }
        Arc::new(db)
    })
}

/// One series: a name and its values.
pub struct Series<'a> {
    pub name: &'a str,
    pub values: &'a [u32],
}

/// Bars a histogram draws at most: wider bins beyond, whatever the values' range.
const MAX_BINS: u32 = 60;

/// A histogram of integer values (share of values per bin), one colour per series. Bins are
/// `bin` wide, or wider (1, 2 or 5 times a power of ten) when the values span more than
/// [`MAX_BINS`] of them.
pub fn histogram(title: &str, x_label: &str, series: &[Series], bin: u32) -> String {
    fonts();
    let (title, x_label) = (&*printable(title), &*printable(x_label));
    let max = series
        .iter()
        .flat_map(|s| s.values)
        .copied()
        .max()
        .unwrap_or(0);
    let wide_enough = (max / MAX_BINS).saturating_add(1);
    let bin = std::iter::successors(Some(1u32), |n| n.checked_mul(10))
        .flat_map(|n| [n, n.saturating_mul(2), n.saturating_mul(5)])
        .find(|width| *width >= bin.max(1) && *width >= wide_enough)
        .unwrap_or(u32::MAX);
    let bins = (max / bin + 1) as usize;
    let shares: Vec<Vec<f64>> = series
        .iter()
        .map(|s| {
            let mut counts = vec![0u64; bins];
            for v in s.values {
                counts[(*v / bin) as usize] += 1;
            }
            let n = s.values.len().max(1) as f64;
            counts.iter().map(|c| *c as f64 / n).collect()
        })
        .collect();
    let top = shares.iter().flatten().copied().fold(0.0, f64::max) * 1.1 + 1e-9;
    let keys: Vec<Key> = series
        .iter()
        .enumerate()
        .map(|(i, s)| Key {
            name: printable(s.name).into_owned(),
            color: PALETTE[i % PALETTE.len()],
            swatch: Swatch::Bar,
        })
        .collect();
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        let _ = root.fill(&WHITE);
        let plot = framed(&root, title, &keys);
        let mut chart = ChartBuilder::on(&plot)
            .x_label_area_size(44)
            .y_label_area_size(64)
            .build_cartesian_2d(0f64..bins as f64 * bin as f64, 0f64..top)
            .expect("a valid chart");
        let _ = chart
            .configure_mesh()
            .x_desc(x_label)
            .x_label_formatter(&|x| format!("{x:.0}"))
            .y_desc("share of players")
            .y_label_formatter(&|y| format!("{:.0}%", y * 100.0))
            .label_style(("sans-serif", 14))
            .draw();
        for (i, share) in shares.iter().enumerate() {
            let color = PALETTE[i % PALETTE.len()];
            let width = bin as f64 / series.len() as f64;
            let bars = share.iter().enumerate().map(|(b, y)| {
                let x0 = b as f64 * bin as f64 + i as f64 * width;
                Rectangle::new([(x0, 0.0), (x0 + width * 0.9, *y)], color.mix(0.8).filled())
            });
            let _ = chart.draw_series(bars);
        }
        let _ = root.present();
    }
    svg
}

/// Lines of values over turns (1-based), one colour per series.
pub fn lines(title: &str, y_label: &str, series: &[(&str, &[f64])]) -> String {
    fonts();
    let (title, y_label) = (&*printable(title), &*printable(y_label));
    let turns = series
        .iter()
        .map(|(_, v)| v.len())
        .max()
        .unwrap_or(1)
        .max(1);
    let top = series
        .iter()
        .flat_map(|(_, v)| v.iter())
        .copied()
        .fold(0.0, f64::max)
        * 1.1
        + 1e-9;
    let keys: Vec<Key> = series
        .iter()
        .enumerate()
        .map(|(i, (name, _))| Key {
            name: printable(name).into_owned(),
            color: PALETTE[i % PALETTE.len()],
            swatch: Swatch::Line,
        })
        .collect();
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        let _ = root.fill(&WHITE);
        let plot = framed(&root, title, &keys);
        let mut chart = ChartBuilder::on(&plot)
            .x_label_area_size(44)
            .y_label_area_size(64)
            .build_cartesian_2d(1f64..turns as f64, 0f64..top)
            .expect("a valid chart");
        let _ = chart
            .configure_mesh()
            .x_desc("turn")
            .x_label_formatter(&|x| format!("{x:.0}"))
            .y_label_formatter(&|y| format!("{y:.0}"))
            .y_desc(y_label)
            .label_style(("sans-serif", 14))
            .draw();
        for (i, (_, values)) in series.iter().enumerate() {
            let color = PALETTE[i % PALETTE.len()];
            let points = values.iter().enumerate().map(|(t, v)| (t as f64 + 1.0, *v));
            let _ = chart.draw_series(LineSeries::new(points, color.stroke_width(3)));
        }
        let _ = root.present();
    }
    svg
}

/// How a series is shown in the key: a bar's colour or a line's.
#[derive(Clone, Copy)]
enum Swatch {
    Bar,
    Line,
}

/// One series in a chart's key.
struct Key {
    name: String,
    color: RGBColor,
    swatch: Swatch,
}

/// Space around a chart, in pixels.
const MARGIN: i32 = 16;
/// The height of one row of the key, in pixels.
const KEY_ROW: i32 = 22;
/// The space between two series in a row of the key, in pixels.
const KEY_GAP: i32 = 28;

/// Draws a chart's title and its key in bands of their own above the plot, and returns the
/// area left for the plot: the key is never drawn over a bar or a line, however tall the data
/// runs where a key inside the plot would sit. The key's entries are centred in rows, as many
/// rows as their names need.
fn framed<'a>(
    root: &DrawingArea<SVGBackend<'a>, plotters::coord::Shift>,
    title: &str,
    keys: &[Key],
) -> DrawingArea<SVGBackend<'a>, plotters::coord::Shift> {
    let area = root.margin(MARGIN, MARGIN, MARGIN, MARGIN);
    let area = area.titled(title, ("sans-serif", 22)).unwrap_or(area);
    if keys.is_empty() {
        return area;
    }
    let font = TextStyle::from(("sans-serif", 14).into_font());
    let width = area.dim_in_pixel().0 as i32;
    // Each entry: its swatch, a space, its name; entries laid out in rows that fit the width.
    let entries: Vec<(&Key, i32)> = keys
        .iter()
        .map(|key| {
            let text = area
                .estimate_text_size(&key.name, &font)
                .map_or(key.name.chars().count() as i32 * 9, |(w, _)| w as i32);
            (key, 22 + text)
        })
        .collect();
    let mut rows: Vec<Vec<(&Key, i32)>> = vec![Vec::new()];
    for entry in entries {
        let row = rows.last_mut().expect("a row");
        let used: i32 = row.iter().map(|(_, w)| w + KEY_GAP).sum();
        if !row.is_empty() && used + entry.1 > width {
            rows.push(vec![entry]);
        } else {
            row.push(entry);
        }
    }
    let (band, plot) = area.split_vertically(KEY_ROW * rows.len() as i32 + 6);
    for (r, row) in rows.iter().enumerate() {
        let total: i32 = row.iter().map(|(_, w)| w).sum::<i32>() + KEY_GAP * (row.len() as i32 - 1);
        let mut x = ((width - total) / 2).max(0);
        let y = KEY_ROW * r as i32 + KEY_ROW / 2;
        for (key, entry_width) in row {
            let _ = match key.swatch {
                Swatch::Bar => band.draw(&Rectangle::new(
                    [(x + 3, y - 5), (x + 13, y + 5)],
                    key.color.filled(),
                )),
                Swatch::Line => band.draw(&PathElement::new(
                    vec![(x, y), (x + 16, y)],
                    key.color.stroke_width(3),
                )),
            };
            let _ = band.draw(&Text::new(
                key.name.clone(),
                (x + 22, y),
                font.clone().pos(plotters::style::text_anchor::Pos::new(
                    plotters::style::text_anchor::HPos::Left,
                    plotters::style::text_anchor::VPos::Center,
                )),
            ));
            x += entry_width + KEY_GAP;
        }
    }
    plot
}

/// Rasterises an SVG chart to PNG with the bundled fonts.
pub fn png(svg: &str) -> Result<Vec<u8>, String> {
    let options = usvg::Options {
        fontdb: fonts().clone(),
        font_family: FAMILY.to_string(),
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_str(svg, &options).map_err(|e| e.to_string())?;
    let size = tree.size().to_int_size();
    let mut pixmap =
        resvg::tiny_skia::Pixmap::new(size.width(), size.height()).ok_or("an empty chart")?;
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::default(),
        &mut pixmap.as_mut(),
    );
    pixmap.encode_png().map_err(|e| e.to_string())
}

/// One row of an interval chart: a name, a value and its 95% interval.
pub(crate) struct Interval<'a> {
    pub name: &'a str,
    pub value: f64,
    pub low: f64,
    pub high: f64,
}

/// Values with their intervals as horizontal bars with error whiskers, one row each, the first
/// at the top; `reference` draws a dashed line (a fair share of wins). `percent` labels the
/// axis in percent of 1.
pub(crate) fn intervals(
    title: &str,
    x_label: &str,
    rows: &[Interval],
    reference: Option<f64>,
    percent: bool,
) -> String {
    fonts();
    let (title, x_label) = (&*printable(title), &*printable(x_label));
    let top = rows
        .iter()
        .map(|r| r.high.max(r.value))
        .chain(reference)
        .fold(0.0, f64::max)
        * 1.1
        + 1e-9;
    let n = rows.len().max(1);
    let height = (120 + 44 * n as u32).min(SIZE.1 * 2);
    let label_width = rows
        .iter()
        .map(|r| printable(r.name).chars().count())
        .max()
        .unwrap_or(4) as u32;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (SIZE.0, height)).into_drawing_area();
        let _ = root.fill(&WHITE);
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 22))
            .margin(16)
            .x_label_area_size(44)
            .y_label_area_size((label_width * 9 + 16).clamp(64, 360))
            .build_cartesian_2d(0f64..top, 0f64..n as f64)
            .expect("a valid chart");
        let names: Vec<Cow<str>> = rows.iter().map(|r| printable(r.name)).collect();
        let _ = chart
            .configure_mesh()
            .disable_y_mesh()
            .x_desc(x_label)
            .x_label_formatter(&|x| {
                if percent {
                    format!("{:.0}%", x * 100.0)
                } else {
                    format!("{x:.0}")
                }
            })
            .y_labels(n * 2 + 1)
            .y_label_formatter(&|y| {
                // Rows sit at half-integers, the first at the top.
                let slot = y - y.floor();
                let row = n as f64 - 1.0 - y.floor();
                if (slot - 0.5).abs() < 1e-6 && row >= 0.0 {
                    names
                        .get(row as usize)
                        .map(|name| name.to_string())
                        .unwrap_or_default()
                } else {
                    String::new()
                }
            })
            .label_style(("sans-serif", 14))
            .draw();
        for (i, row) in rows.iter().enumerate() {
            let color = PALETTE[i % PALETTE.len()];
            let y = (n - 1 - i) as f64;
            let _ = chart.draw_series([Rectangle::new(
                [(0.0, y + 0.25), (row.value, y + 0.75)],
                color.mix(0.8).filled(),
            )]);
            let whisker = BLACK.stroke_width(2);
            let _ = chart.draw_series([
                PathElement::new(vec![(row.low, y + 0.5), (row.high, y + 0.5)], whisker),
                PathElement::new(vec![(row.low, y + 0.35), (row.low, y + 0.65)], whisker),
                PathElement::new(vec![(row.high, y + 0.35), (row.high, y + 0.65)], whisker),
            ]);
        }
        if let Some(x) = reference {
            let _ = chart.draw_series(DashedLineSeries::new(
                [(x, 0.0), (x, n as f64)],
                6,
                4,
                BLACK.mix(0.6).stroke_width(2),
            ));
        }
        let _ = root.present();
    }
    svg
}
