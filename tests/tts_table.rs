//! The table as Tabletop Simulator would draw it, from the save alone: every save set out in the
//! Lua stand-in (its scripts' `onLoad` run, so their buttons made), then each object's image
//! placed by its transform and every button's rectangle and label where the conventions
//! (tests/tts/convention.rs, docs/tabletop-simulator.md) put them, seen from above from each
//! seat. The pictures are written to `target/tmp/tts-table/<game>-<colour>.png` to be looked
//! at; the tests check what a player would notice: a box's button off its printed box, a label
//! wider than its button, a line of text wider than its sheet, one seat's things on another's
//! sheet.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use mlua::{LuaSerdeExt, Table};
use resvg::tiny_skia;
use resvg::usvg;

use crate::tts_lua::convention::{self, Seat, Transform, Vec3};
use crate::tts_lua::{Tabletop, set_out};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A button as the script made it, in its object's button frame (local units before scale).
#[derive(Debug, Clone)]
struct Button {
    label: String,
    tooltip: String,
    centre: (f64, f64),
    /// Half its width and depth; zero for a line of text.
    half: (f64, f64),
    /// The height of a line of its label.
    line: f64,
    fill: [f64; 4],
}

/// An object on the table, as drawn.
struct Thing {
    /// Its object as the save (or the script that put it out) gives it.
    data: serde_json::Value,
    guid: String,
    name: String,
    kind: String,
    transform: Transform,
    half: Vec3,
    image: Option<String>,
    back: Option<String>,
    buttons: Vec<Button>,
}

impl Thing {
    /// The world point over the point (`x`, `z`) of its face's button frame: the face that
    /// looks up (the back's x runs the other way).
    fn world(&self, (x, z): (f64, f64)) -> Vec3 {
        if self.transform.face_down() {
            self.transform.to_world([x, -self.half[1], z])
        } else {
            self.transform
                .to_world(convention::button_to_local([x, self.half[1], z]))
        }
    }

    /// The corners of a rectangle of its face, centred at `centre`, of half extents `half`.
    fn corners(&self, centre: (f64, f64), half: (f64, f64)) -> [Vec3; 4] {
        [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
            .map(|(sx, sz)| self.world((centre.0 + sx * half.0, centre.1 + sz * half.1)))
    }

    fn face(&self) -> (f64, f64) {
        (self.half[0], self.half[2])
    }

    /// The seat a hand zone makes, where it lies now.
    fn seat(&self) -> Seat {
        let mut zone = self.data.clone();
        let [x, y, z] = self.transform.position;
        let [rx, ry, rz] = self.transform.rotation;
        zone["Transform"] = serde_json::json!({
            "posX": x, "posY": y, "posZ": z, "rotX": rx, "rotY": ry, "rotZ": rz,
        });
        Seat::of_hand_zone(&zone)
    }
}

fn vector(t: &Table, key: &str) -> Vec3 {
    match t.get::<Option<Table>>(key).ok().flatten() {
        None => [0.0; 3],
        Some(v) => [("x", 1), ("y", 2), ("z", 3)].map(|(name, index)| {
            v.get::<Option<f64>>(name)
                .ok()
                .flatten()
                .or_else(|| v.get::<Option<f64>>(index).ok().flatten())
                .unwrap_or(0.0)
        }),
    }
}

fn button_of(spec: &Table) -> Button {
    let scale = match spec.get::<Option<Table>>("scale").ok().flatten() {
        Some(_) => vector(spec, "scale"),
        None => [1.0; 3],
    };
    let position = vector(spec, "position");
    let colour = spec
        .get::<Option<Vec<f64>>>("color")
        .ok()
        .flatten()
        .unwrap_or(vec![1.0, 1.0, 1.0, 1.0]);
    let width = spec
        .get::<Option<f64>>("width")
        .ok()
        .flatten()
        .unwrap_or(100.0);
    let height = spec
        .get::<Option<f64>>("height")
        .ok()
        .flatten()
        .unwrap_or(100.0);
    let font = spec
        .get::<Option<f64>>("font_size")
        .ok()
        .flatten()
        .unwrap_or(100.0);
    let units = convention::BUTTON_UNITS;
    Button {
        label: spec
            .get::<Option<String>>("label")
            .ok()
            .flatten()
            .unwrap_or_default(),
        tooltip: spec
            .get::<Option<String>>("tooltip")
            .ok()
            .flatten()
            .unwrap_or_default(),
        centre: (position[0], position[2]),
        half: (
            width / units / 2.0 * scale[0],
            height / units / 2.0 * scale[2],
        ),
        line: font.min(1000.0) / units * scale[2],
        fill: [
            colour.first().copied().unwrap_or(1.0),
            colour.get(1).copied().unwrap_or(1.0),
            colour.get(2).copied().unwrap_or(1.0),
            colour.get(3).copied().unwrap_or(1.0),
        ],
    }
}

/// What lies on the table once every script has loaded.
fn things(table: &Tabletop) -> Vec<Thing> {
    let lua = &table.stand.lua;
    let objects: Table = lua
        .load("return getObjects()")
        .eval()
        .expect("the stand-in lists its objects");
    let mut things = Vec::new();
    for o in objects.sequence_values::<Table>().map(Result::unwrap) {
        // A card in a hand is not drawn on the table.
        if o.get::<Option<String>>("in_hand").unwrap().is_some() {
            continue;
        }
        let guid: String = o
            .get::<mlua::Function>("getGUID")
            .unwrap()
            .call(())
            .unwrap();
        let Some(data) = table.saved.get(&guid).cloned().or_else(|| {
            o.get::<Option<mlua::Value>>("data")
                .ok()
                .flatten()
                .and_then(|d| lua.from_value(d).ok())
        }) else {
            continue;
        };
        let mut transform = Transform::of(&data);
        transform.position = vector(&o, "position");
        transform.rotation = vector(&o, "rotation");
        let half = convention::half_extent(&data, &|url| {
            table
                .images
                .get(url)
                .and_then(|png| crate::tts_lua::aspect_of(png))
        });
        let url = |key: &str| {
            data["CustomImage"][key]
                .as_str()
                .filter(|u| !u.is_empty())
                .map(str::to_string)
        };
        let buttons: Table = o.get("buttons").unwrap();
        things.push(Thing {
            data: data.clone(),
            guid,
            name: data["Nickname"].as_str().unwrap_or_default().to_string(),
            kind: data["Name"].as_str().unwrap_or_default().to_string(),
            transform,
            half,
            image: url("ImageURL"),
            back: url("ImageSecondaryURL"),
            buttons: buttons
                .sequence_values::<Table>()
                .map(|b| button_of(&b.unwrap()))
                .collect(),
        });
    }
    things
}

/// Text as the picture sets it (Cabin, the sheets' own face, standing in for the game's).
struct Fonts {
    options: usvg::Options<'static>,
    widths: std::cell::RefCell<HashMap<String, f64>>,
}

impl Fonts {
    fn new() -> Fonts {
        let mut options = usvg::Options::default();
        options
            .fontdb_mut()
            .load_font_file(root().join("fonts/Cabin-Regular.otf"))
            .expect("the font loads");
        options.font_family = "Cabin".to_string();
        Fonts {
            options,
            widths: Default::default(),
        }
    }

    /// The width of `label`'s longest line, set a unit tall.
    fn width(&self, label: &str) -> f64 {
        if let Some(width) = self.widths.borrow().get(label) {
            return *width;
        }
        let widest = label
            .lines()
            .map(|line| {
                let svg = format!(
                    r#"<svg xmlns="http://www.w3.org/2000/svg" width="100000" height="200"><text id="t" x="10" y="100" font-family="Cabin" font-size="100">{}</text></svg>"#,
                    escape(line)
                );
                let tree = usvg::Tree::from_str(&svg, &self.options).expect("an SVG");
                tree.node_by_id("t")
                    .map_or(0.0, |n| n.abs_bounding_box().width() as f64 / 100.0)
            })
            .fold(0.0, f64::max);
        self.widths.borrow_mut().insert(label.to_string(), widest);
        widest
    }
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// A view from above, from `seat`: its right to the right, the table's far side up.
struct View {
    right: Vec3,
    forward: Vec3,
    origin: (f64, f64),
    pixels_per_unit: f64,
    size: (u32, u32),
}

impl View {
    fn of(seat: &Seat, things: &[Thing]) -> View {
        let (mut low, mut high) = ((f64::MAX, f64::MAX), (f64::MIN, f64::MIN));
        for thing in things {
            for corner in thing.corners((0.0, 0.0), thing.face()) {
                let p = (
                    convention::dot(corner, seat.right),
                    -convention::dot(corner, seat.forward),
                );
                low = (low.0.min(p.0), low.1.min(p.1));
                high = (high.0.max(p.0), high.1.max(p.1));
            }
        }
        let margin = 3.0;
        let (width, height) = (high.0 - low.0 + 2.0 * margin, high.1 - low.1 + 2.0 * margin);
        let pixels_per_unit = (2400.0 / width).min(2400.0 / height).min(100.0);
        View {
            right: seat.right,
            forward: seat.forward,
            origin: (low.0 - margin, low.1 - margin),
            pixels_per_unit,
            size: (
                (width * pixels_per_unit).ceil() as u32,
                (height * pixels_per_unit).ceil() as u32,
            ),
        }
    }

    fn pixel(&self, p: Vec3) -> (f64, f64) {
        (
            (convention::dot(p, self.right) - self.origin.0) * self.pixels_per_unit,
            (-convention::dot(p, self.forward) - self.origin.1) * self.pixels_per_unit,
        )
    }

    /// The affine map from a thing's face frame to the picture: (a, b, c, d, e, f) as SVG's
    /// `matrix`.
    fn matrix(&self, thing: &Thing) -> [f64; 6] {
        let o = self.pixel(thing.world((0.0, 0.0)));
        let x = self.pixel(thing.world((1.0, 0.0)));
        let z = self.pixel(thing.world((0.0, 1.0)));
        [x.0 - o.0, x.1 - o.1, z.0 - o.0, z.1 - o.1, o.0, o.1]
    }
}

fn decode(png: &[u8]) -> Option<tiny_skia::Pixmap> {
    let decoder = png::Decoder::new(std::io::Cursor::new(png));
    let mut reader = decoder.read_info().ok()?;
    let mut buffer = vec![0; reader.output_buffer_size()?];
    let info = reader.next_frame(&mut buffer).ok()?;
    let mut pixmap = tiny_skia::Pixmap::new(info.width, info.height)?;
    let channels = info.color_type.samples();
    for (pixel, out) in buffer
        .chunks(channels)
        .zip(pixmap.pixels_mut())
        .take((info.width * info.height) as usize)
    {
        let (r, g, b, a) = match channels {
            3 => (pixel[0], pixel[1], pixel[2], 255),
            4 => (pixel[0], pixel[1], pixel[2], pixel[3]),
            _ => (pixel[0], pixel[0], pixel[0], 255),
        };
        *out = tiny_skia::ColorU8::from_rgba(r, g, b, a).premultiply();
    }
    Some(pixmap)
}

/// The picture of the table from `seat`, as PNG.
fn picture(table: &Tabletop, things: &[Thing], seat: &Seat, fonts: &Fonts) -> Vec<u8> {
    draw(table, things, &View::of(seat, things), fonts)
}

/// A close-up of `thing` (and what lies near it) from `seat`.
fn close_up(
    table: &Tabletop,
    things: &[Thing],
    thing: &Thing,
    seat: &Seat,
    fonts: &Fonts,
) -> Vec<u8> {
    draw(
        table,
        things,
        &View::of(seat, std::slice::from_ref(thing)),
        fonts,
    )
}

fn draw(table: &Tabletop, things: &[Thing], view: &View, fonts: &Fonts) -> Vec<u8> {
    let mut canvas = tiny_skia::Pixmap::new(view.size.0, view.size.1).expect("a picture");
    canvas.fill(tiny_skia::Color::from_rgba8(92, 110, 96, 255));
    let mut svg = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{}" height="{}">"#,
        view.size.0, view.size.1
    );
    for thing in things {
        let [a, b, c, d, e, f] = view.matrix(thing);
        let (hx, hz) = thing.face();
        let shown = if thing.transform.face_down() {
            &thing.back
        } else {
            &thing.image
        };
        let image = shown
            .as_ref()
            .and_then(|url| table.images.get(url))
            .and_then(|png| decode(png));
        match image {
            Some(image) => {
                // Image pixels to the face frame, then to the picture.
                let (w, h) = (image.width() as f32, image.height() as f32);
                let to_face = tiny_skia::Transform::from_row(
                    (2.0 * hx) as f32 / w,
                    0.0,
                    0.0,
                    (2.0 * hz) as f32 / h,
                    -hx as f32,
                    -hz as f32,
                );
                let to_picture = tiny_skia::Transform::from_row(
                    a as f32, b as f32, c as f32, d as f32, e as f32, f as f32,
                );
                canvas.draw_pixmap(
                    0,
                    0,
                    image.as_ref(),
                    &tiny_skia::PixmapPaint {
                        quality: tiny_skia::FilterQuality::Bilinear,
                        ..Default::default()
                    },
                    to_picture.pre_concat(to_face),
                    None,
                );
            }
            None => {
                let (fill, stroke) = match thing.kind.as_str() {
                    "HandTrigger" => ("none", "white"),
                    "DeckCustom" | "Card" if thing.transform.face_down() => {
                        ("rgb(90,74,138)", "black")
                    }
                    _ => ("rgb(244,240,230)", "black"),
                };
                svg += &format!(
                    r#"<g transform="matrix({a} {b} {c} {d} {e} {f})"><rect x="{}" y="{}" width="{}" height="{}" fill="{fill}" stroke="{stroke}" stroke-width="{}"/></g>"#,
                    -hx,
                    -hz,
                    2.0 * hx,
                    2.0 * hz,
                    0.05 / thing.transform.scale[0].max(0.01),
                );
                // What it is, written for the one looking at the picture.
                let (x, y) = view.pixel(thing.world((0.0, 0.0)));
                let face_down = if thing.transform.face_down() {
                    " (face down)"
                } else {
                    ""
                };
                svg += &format!(
                    r#"<text x="{x}" y="{y}" font-family="Cabin" font-size="12" text-anchor="middle" fill="{}">{}{face_down}</text>"#,
                    if thing.kind == "HandTrigger" {
                        "white"
                    } else {
                        "rgb(200,30,30)"
                    },
                    escape(&thing.name),
                );
            }
        }
        svg += &format!(r#"<g transform="matrix({a} {b} {c} {d} {e} {f})">"#);
        for button in &thing.buttons {
            let (cx, cz) = button.centre;
            let (w, h) = button.half;
            if w > 0.0 && h > 0.0 {
                let [r, g, bl, alpha] = button.fill;
                svg += &format!(
                    r#"<rect x="{}" y="{}" width="{}" height="{}" fill="rgb({},{},{})" fill-opacity="{}" stroke="rgb(220,20,60)" stroke-width="{}"/>"#,
                    cx - w,
                    cz - h,
                    2.0 * w,
                    2.0 * h,
                    (r * 255.0) as u8,
                    (g * 255.0) as u8,
                    (bl * 255.0) as u8,
                    alpha.max(0.15),
                    (w.min(h) * 0.15).min(0.02)
                );
            }
            let lines: Vec<&str> = button.label.lines().collect();
            for (n, line) in lines.iter().enumerate() {
                let y = cz
                    + (n as f64 - (lines.len() as f64 - 1.0) / 2.0) * button.line
                    + button.line * 0.35;
                svg += &format!(
                    r#"<text x="{cx}" y="{y}" font-family="Cabin" font-size="{}" text-anchor="middle" fill="{}">{}</text>"#,
                    button.line,
                    if w > 0.0 { "rgb(16,16,64)" } else { "white" },
                    escape(line)
                );
            }
        }
        svg += "</g>";
    }
    svg += "</svg>";
    let tree = usvg::Tree::from_str(&svg, &fonts.options).expect("the picture's SVG");
    resvg::render(
        &tree,
        tiny_skia::Transform::identity(),
        &mut canvas.as_mut(),
    );
    canvas.encode_png().expect("a PNG")
}

/// The seats: every hand zone's (the first of a colour), or a seat at the table's −z side.
fn seats(things: &[Thing]) -> Vec<Seat> {
    let mut seats: Vec<Seat> = Vec::new();
    for thing in things.iter().filter(|t| t.kind == "HandTrigger") {
        let seat = thing.seat();
        if !seats.iter().any(|s| s.colour == seat.colour) {
            seats.push(seat);
        }
    }
    if seats.is_empty() {
        seats.push(Seat::of_hand_zone(
            &serde_json::json!({ "FogColor": "White" }),
        ));
    }
    seats
}

/// A rectangle of the table, x then z.
#[derive(Debug, Clone, Copy)]
struct Area {
    low: (f64, f64),
    high: (f64, f64),
}

impl Area {
    fn around(points: &[Vec3]) -> Area {
        let mut area = Area {
            low: (f64::MAX, f64::MAX),
            high: (f64::MIN, f64::MIN),
        };
        for p in points {
            area.low = (area.low.0.min(p[0]), area.low.1.min(p[2]));
            area.high = (area.high.0.max(p[0]), area.high.1.max(p[2]));
        }
        area
    }

    fn overlaps(&self, other: &Area) -> bool {
        let margin = 1e-6;
        self.low.0 < other.high.0 - margin
            && other.low.0 < self.high.0 - margin
            && self.low.1 < other.high.1 - margin
            && other.low.1 < self.high.1 - margin
    }
}

/// What a player would notice on one game's table.
#[derive(Debug, Default)]
struct Findings {
    /// Per sheet: how many boxes' buttons lie on the box printed there, of how many, and the
    /// boxes (as their buttons name them) whose button does not.
    boxes_on_their_place: Vec<(String, usize, usize, Vec<String>)>,
    faults: Vec<String>,
}

/// The area of the label of `button` of `thing`, as set (the width of its longest line,
/// centred; its lines' height).
fn label_area(thing: &Thing, button: &Button, fonts: &Fonts) -> Area {
    let width = fonts.width(&button.label) * button.line;
    let lines = button.label.lines().count().max(1) as f64;
    Area::around(&thing.corners(button.centre, (width / 2.0, lines * button.line / 2.0)))
}

fn look(table: &Tabletop, things: &[Thing], fonts: &Fonts) -> Findings {
    let mut findings = Findings::default();
    let sheet = &table.ruleset["sheet"];
    let sheets: Vec<&Thing> = things
        .iter()
        .filter(|t| t.kind == "Custom_Tile" && t.buttons.len() > 1)
        .collect();
    for thing in &sheets {
        // The boxes and their places: a Field Guide's in the ruleset's order, its first
        // buttons; a marked sheet's (tts/marks.lua) in its saved state, all its buttons.
        let state: serde_json::Value =
            serde_json::from_str(thing.data["LuaScriptState"].as_str().unwrap_or("{}"))
                .unwrap_or_default();
        let (places, (width, height)) = if thing.name.starts_with("Field Guide") {
            let Some(places) = sheet["boxes"].as_array() else {
                continue;
            };
            let page = ("width_mm", "height_mm");
            (
                places.clone(),
                (
                    sheet[page.0].as_f64().unwrap(),
                    sheet[page.1].as_f64().unwrap(),
                ),
            )
        } else if let Some(places) = state["boxes"].as_array() {
            let page = (
                state["page"][0].as_f64().unwrap(),
                state["page"][1].as_f64().unwrap(),
            );
            (places.clone(), page)
        } else {
            continue;
        };
        let off: Vec<String> = places
            .iter()
            .zip(&thing.buttons)
            .filter(|(place, button)| {
                let mm = |k: &str| place[k].as_f64().unwrap();
                let low =
                    convention::image_to_button((mm("x") / width, mm("y") / height), thing.face());
                let high = convention::image_to_button(
                    (
                        (mm("x") + mm("width")) / width,
                        (mm("y") + mm("height")) / height,
                    ),
                    thing.face(),
                );
                let (x, z) = button.centre;
                !((low.0..=high.0).contains(&x) && (low.1..=high.1).contains(&z))
            })
            .map(|(_, button)| button.tooltip.clone())
            .collect();
        findings.boxes_on_their_place.push((
            thing.name.clone(),
            places.len() - off.len(),
            places.len(),
            off,
        ));
    }
    // Labels are measured in their object's face frame, where they are set.
    for thing in things {
        for button in thing.buttons.iter().filter(|b| !b.label.trim().is_empty()) {
            let width = fonts.width(&button.label) * button.line;
            let lines = button.label.lines().count().max(1) as f64;
            if button.half.0 > 0.0 {
                if width > 2.0 * button.half.0 * 1.02
                    || lines * button.line > 2.0 * button.half.1 * 1.3
                {
                    findings.faults.push(format!(
                        "{}: the label {:?} ({width:.2} by {:.2}) does not fit its button ({:.2} by {:.2})",
                        thing.name,
                        button.label,
                        lines * button.line,
                        2.0 * button.half.0,
                        2.0 * button.half.1
                    ));
                }
            } else if thing.kind == "Custom_Tile"
                && (button.centre.0 - width / 2.0 < -thing.half[0] - 1e-9
                    || button.centre.0 + width / 2.0 > thing.half[0] + 1e-9)
            {
                findings.faults.push(format!(
                    "{}: the line {:?} is {:.1} wide, the sheet {:.1}",
                    thing.name,
                    button.label,
                    width * thing.transform.scale[0],
                    2.0 * thing.half[0] * thing.transform.scale[0]
                ));
            }
        }
    }
    // A button lies over nothing but its own object: a card, a deck, a die or a sheet under it
    // would take the click or hide the label.
    for thing in things {
        for button in thing.buttons.iter().filter(|b| b.half.0 > 0.0) {
            let area = Area::around(&thing.corners(button.centre, button.half));
            for other in things
                .iter()
                .filter(|o| o.guid != thing.guid && o.kind != "HandTrigger")
            {
                if area.overlaps(&Area::around(&other.corners((0.0, 0.0), other.face()))) {
                    findings.faults.push(format!(
                        "{}: the button {:?} lies over {}",
                        thing.name, button.label, other.name
                    ));
                }
            }
        }
    }
    // Piles of cards lie apart: a card or a deck partly on another hides both (one on top of
    // another, centred, is a pile).
    let piles: Vec<(&Thing, Area)> = things
        .iter()
        .filter(|t| matches!(t.kind.as_str(), "Card" | "DeckCustom" | "Deck"))
        .map(|t| (t, Area::around(&t.corners((0.0, 0.0), t.face()))))
        .collect();
    for (k, (a, area)) in piles.iter().enumerate() {
        for (b, other) in &piles[k + 1..] {
            let (pa, pb) = (a.transform.position, b.transform.position);
            let stacked = (pa[0] - pb[0]).abs() < 0.05 && (pa[2] - pb[2]).abs() < 0.05;
            if area.overlaps(other) && !stacked {
                findings
                    .faults
                    .push(format!("{} lies partly on {}", a.name, b.name));
            }
        }
    }
    // One sheet's image, buttons and labels never lie on another sheet.
    for a in &sheets {
        let mut areas = vec![Area::around(&a.corners((0.0, 0.0), a.face()))];
        for button in &a.buttons {
            if button.half.0 > 0.0 {
                areas.push(Area::around(&a.corners(button.centre, button.half)));
            }
            if !button.label.trim().is_empty() {
                areas.push(label_area(a, button, fonts));
            }
        }
        for b in sheets.iter().filter(|b| b.guid != a.guid) {
            let other = Area::around(&b.corners((0.0, 0.0), b.face()));
            if areas.iter().any(|area| area.overlaps(&other)) {
                findings
                    .faults
                    .push(format!("{} reaches onto {}", a.name, b.name));
            }
        }
    }
    findings
}

/// White's sheet played (by the stand-in's player who takes what is offered) up to a turn's
/// encounter: the cards drawn lie face up in front of the sheet, and the sheet's controls fit.
fn an_encounter_looks_right(table: &Tabletop, fonts: &Fonts, folder: &Path) -> Vec<String> {
    let (env, sheet) = table.sheet(0);
    let mut steps = 0;
    while !table.labels(&sheet).iter().any(|l| l == "Let them go") {
        if table.auto(&env, &sheet).is_none() || steps > 400 {
            return vec!["no turn of White's drew cards to meet".to_string()];
        }
        steps += 1;
    }
    let things = things(table);
    let white = things
        .iter()
        .find(|t| t.kind == "HandTrigger")
        .map(Thing::seat)
        .expect("a hand zone");
    let png = picture(table, &things, &white, fonts);
    std::fs::write(folder.join("safari-zone-encounter-White.png"), png).unwrap();
    if let Some(sheet) = things.iter().find(|t| t.name.starts_with("Field Guide")) {
        let png = close_up(table, &things, sheet, &white, fonts);
        std::fs::write(folder.join("safari-zone-encounter-White-sheet.png"), png).unwrap();
    }
    let mut faults = look(table, &things, fonts).faults;
    let drawn: Vec<&Thing> = things.iter().filter(|t| t.kind == "Card").collect();
    if drawn.is_empty() {
        faults.push("the encounter drew no card onto the table".to_string());
    }
    for card in drawn {
        if card.transform.face_down() {
            faults.push(format!("the drawn card {} lies face down", card.name));
        }
        if !white.reads_upright(&card.transform) {
            faults.push(format!(
                "the drawn card {} is upside down for White",
                card.name
            ));
        }
    }
    faults
}

/// Each seat's own things (a sheet named for its colour, its hand zone) lie at that seat,
/// nearer its hand zone than any other's, and a sheet reads upright for its player.
fn seats_right(things: &[Thing]) -> Vec<String> {
    let mut faults = Vec::new();
    let zones: Vec<(Seat, Vec3)> = things
        .iter()
        .filter(|t| t.kind == "HandTrigger")
        .map(|t| (t.seat(), t.transform.position))
        .collect();
    for thing in things.iter().filter(|t| t.kind == "Custom_Tile") {
        let Some((seat, _)) = zones.iter().find(|(seat, _)| {
            thing.name.ends_with(&format!("({})", seat.colour))
                || thing.name.ends_with(&format!(": {}", seat.colour))
        }) else {
            continue;
        };
        if !seat.reads_upright(&thing.transform) {
            faults.push(format!("{} is not upright for {}", thing.name, seat.colour));
        }
        let distance = |at: Vec3| {
            let p = thing.transform.position;
            ((p[0] - at[0]).powi(2) + (p[2] - at[2]).powi(2)).sqrt()
        };
        let nearest = zones
            .iter()
            .min_by(|a, b| distance(a.1).total_cmp(&distance(b.1)))
            .map(|(s, _)| s.colour.clone());
        if nearest.as_deref() != Some(seat.colour.as_str()) {
            faults.push(format!(
                "{} lies nearer {}'s seat than {}'s",
                thing.name,
                nearest.unwrap_or_default(),
                seat.colour
            ));
        }
    }
    faults
}

/// Every number of players a game's setup object offers, chosen: the table then looks right
/// as well (pictures of the fewest written beside the others).
fn every_count_looks_right(game: &Path, name: &str, fonts: &Fonts, folder: &Path) -> Vec<String> {
    let first = set_out(game, &|_| {});
    let Some((_, _, setup)) = first
        .scripts
        .iter()
        .find(|(n, _, _)| n.ends_with("how many players?"))
    else {
        return Vec::new();
    };
    let counts: Vec<String> = first
        .labels(setup)
        .into_iter()
        .filter(|l| l.parse::<u32>().is_ok())
        .collect();
    let mut faults = Vec::new();
    for count in counts {
        let table = set_out(game, &|_| {});
        table.choose_players(count.parse().unwrap());
        let things = things(&table);
        let mut found = look(&table, &things, fonts).faults;
        found.extend(seats_right(&things));
        if let Some(seat) = seats(&things).first() {
            let png = picture(&table, &things, seat, fonts);
            std::fs::write(folder.join(format!("{name}-{count}-players.png")), png).unwrap();
        }
        faults.extend(found.into_iter().map(|f| format!("{count} players: {f}")));
    }
    faults
}

fn games() -> Vec<PathBuf> {
    [
        "content/safari-zone",
        "content/gamewright-safari",
        "content/diceafari",
        "content/tricky-safari",
    ]
    .iter()
    .map(|g| root().join(g))
    .collect()
}

/// Each game's table drawn from every seat; what a player would notice, reported for every
/// game at once.
#[test]
fn every_table_looks_right_from_every_seat() {
    let fonts = Fonts::new();
    let folder = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("tts-table");
    std::fs::create_dir_all(&folder).unwrap();
    let mut faults = Vec::new();
    for game in games() {
        let name = game.file_name().unwrap().to_string_lossy().to_string();
        let table = set_out(&game, &|_| {});
        let things = things(&table);
        for seat in seats(&things) {
            let png = picture(&table, &things, &seat, &fonts);
            std::fs::write(folder.join(format!("{name}-{}.png", seat.colour)), png).unwrap();
        }
        let mut findings = look(&table, &things, &fonts);
        // Decks lie face down, but those a setup stacks face up (which their description says).
        for deck in things
            .iter()
            .filter(|t| t.kind == "DeckCustom" && !t.transform.face_down())
        {
            let description = table.saved[&deck.guid]["Description"]
                .as_str()
                .unwrap_or_default();
            if !description.contains("stack face up") {
                findings.faults.push(format!("{} lies face up", deck.name));
            }
        }
        findings.faults.extend(seats_right(&things));
        findings
            .faults
            .extend(every_count_looks_right(&game, &name, &fonts, &folder));
        if name == "safari-zone" {
            findings
                .faults
                .extend(an_encounter_looks_right(&table, &fonts, &folder));
        }
        for (sheet, on, of, off) in &findings.boxes_on_their_place {
            eprintln!("{name}: {sheet}: {on} of {of} boxes' buttons on their printed box");
            if on != of {
                faults.push(format!(
                    "{name}: {sheet}: {} of {of} boxes' buttons off their box ({}, …)",
                    of - on,
                    off.iter().take(3).cloned().collect::<Vec<_>>().join("; ")
                ));
            }
        }
        faults.extend(findings.faults.iter().map(|f| format!("{name}: {f}")));
    }
    assert!(
        faults.is_empty(),
        "{} faults:\n{}",
        faults.len(),
        faults.join("\n")
    );
}
