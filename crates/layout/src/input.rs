//! A roll-and-write sheet as the layout reads it: sections of tracks of boxes, with the
//! words printed beside each box already chosen. A rules module decides those words (Safari
//! Zone RNW's from what its terms mean, a game made of components as the designer wrote
//! them); the layout only measures and places them.

use serde::Serialize;

use crate::model::{BoxId, Flow, Section, Shape, SheetDef, Style, Track};

#[derive(Debug, Clone, Serialize)]
pub struct SheetData {
    pub title: String,
    pub columns: u32,
    pub rows: u32,
    pub sections: Vec<SectionData>,
    /// The words a tag sets as icons, not text.
    pub icons: Vec<Icon>,
    /// Each icon's index by its word, made once for the many layouts a fit tries.
    #[serde(skip)]
    icon_index: std::sync::OnceLock<std::collections::HashMap<String, usize>>,
}

impl SheetData {
    /// The sheet of `guide`, its sections, tracks and places as written, under `title`. What
    /// is printed is the caller's: `section` gives a section's `fill` and what its boxes are
    /// told of it (`C`), `boxes` each box's data, and `icons` the words set as icons.
    pub fn of_guide<T, C>(
        guide: &SheetDef<T>,
        title: String,
        icons: Vec<Icon>,
        section: impl Fn(&Section) -> (Option<String>, C),
        boxes: impl Fn(&C, &Track, BoxId) -> BoxData,
    ) -> SheetData {
        let sections: Vec<SectionData> = guide
            .sections
            .iter()
            .map(|s| {
                let (fill, context) = section(s);
                SectionData {
                    id: s.id.clone(),
                    title: one_line(&s.title),
                    texts: s.texts.iter().map(|t| one_line(t)).collect(),
                    column: s.placement.column,
                    row: s.placement.row,
                    width: s.placement.width,
                    height: s.placement.height,
                    auto: s.placement.auto,
                    width_given: s.placement.width_given,
                    fill,
                    tracks: s
                        .tracks
                        .iter()
                        .map(|&t| {
                            let track = guide.track(t);
                            TrackData {
                                id: track.id.clone(),
                                title: track.title.as_deref().map(one_line),
                                flow: track.flow,
                                loose: track.loose,
                                boxes: track
                                    .boxes
                                    .iter()
                                    .map(|&b| boxes(&context, track, b))
                                    .collect(),
                            }
                        })
                        .collect(),
                }
            })
            .collect();
        let rows = sections
            .iter()
            .map(|s| s.row + s.height.max(1) - 1)
            .max()
            .unwrap_or(0);
        SheetData {
            title,
            columns: guide.columns,
            rows,
            sections,
            icons,
            icon_index: Default::default(),
        }
    }

    pub(crate) fn icon_index(&self) -> &std::collections::HashMap<String, usize> {
        self.icon_index.get_or_init(|| {
            self.icons
                .iter()
                .enumerate()
                .map(|(i, icon)| (icon.word.clone(), i))
                .collect()
        })
    }
}

/// A word of a tag drawn as an icon: `[G]`, a terrain icon; `[fish]`, the symbol `fish` of a
/// game made of components. The template draws the icon by its `id`.
#[derive(Debug, Clone, Serialize)]
pub struct Icon {
    pub word: String,
    pub id: String,
    /// Its width, in icon heights (an icon is a little less tall than a line of the tag).
    pub width: f64,
}

#[derive(Debug, Clone, Serialize)]
pub struct SectionData {
    pub id: String,
    pub title: String,
    pub texts: Vec<String>,
    pub column: u32,
    pub row: u32,
    pub width: u32,
    pub height: u32,
    /// Neither column nor row was written: the layout chose the place.
    pub auto: bool,
    /// Whether `width` was written (else an automatically placed section's width is chosen).
    pub width_given: bool,
    /// What fills most of the section's boxes, when it goes without saying: `"turn"`,
    /// `"ball"` or `"dice:<face>"` (a game's rules page may name sections by it).
    pub fill: Option<String>,
    pub tracks: Vec<TrackData>,
}

#[derive(Debug, Clone, Serialize)]
pub struct TrackData {
    pub id: String,
    pub title: Option<String>,
    /// `"row"` or `"column"`.
    pub flow: Flow,
    /// A loose track is a single box written directly in a section: filled in any order.
    pub loose: bool,
    pub boxes: Vec<BoxData>,
}

#[derive(Debug, Clone, Serialize)]
pub struct BoxData {
    pub id: String,
    pub shape: Shape,
    pub style: Style,
    pub vp: u32,
    /// Words printed on the box's left: what it needs (and what fills it, when that is not
    /// the section's own die face or counter).
    pub needs: Vec<String>,
    /// Words printed on the box's right: what filling it gives.
    pub gives: Vec<String>,
    /// The box's own name (a guest, an entry in a collection grid), printed beside it.
    pub label: Option<String>,
}

/// Words as one line: a sheet's text is set where the layout measured it, so a line break
/// or tab written in the content becomes a space.
pub fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}
