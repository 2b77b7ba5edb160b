//! The model every game shares: a value and where it was written, paper and card sizes, and
//! the structure of a roll-and-write sheet (sections, tracks, boxes) with each box's terms left
//! to the game (`sheet::SheetDef<T>`). What the terms mean is a rules module's: Safari Zone
//! RNW's model (`rules::safari_zone::model`) resolves them; a game of components keeps them as
//! written. Loading never fails outright: a fault is reported and the model holds the rest,
//! so every check still runs.

mod sheet;

pub use sheet::*;

use crate::world::Origin;

macro_rules! ids {
    ($($name:ident),*) => {$(
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $name(pub u32);
        impl $name {
            pub fn index(self) -> usize { self.0 as usize }
        }
    )*};
}

pub(crate) use ids;

ids!(SectionId, TrackId, BoxId);

/// A value and where it was written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Located<T> {
    pub value: T,
    pub origin: Origin,
}

impl<T> Located<T> {
    pub fn new(value: T, origin: Origin) -> Self {
        Located { value, origin }
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CardSize {
    pub name: &'static str,
    pub width_mm: f64,
    pub height_mm: f64,
}

impl CardSize {
    pub const NAMED: &'static [CardSize] = &[
        CardSize {
            name: "poker",
            width_mm: 63.5,
            height_mm: 88.9,
        },
        CardSize {
            name: "standard",
            width_mm: 63.0,
            height_mm: 88.0,
        },
        CardSize {
            name: "bridge",
            width_mm: 57.15,
            height_mm: 88.9,
        },
        CardSize {
            name: "mini",
            width_mm: 44.45,
            height_mm: 63.5,
        },
        CardSize {
            name: "tarot",
            width_mm: 69.85,
            height_mm: 120.65,
        },
    ];
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Paper {
    A4,
    Letter,
    A3,
    Tabloid,
    /// Width and height in millimetres.
    Custom {
        width: f64,
        height: f64,
    },
}

impl Paper {
    /// The smallest and largest custom paper, in millimetres a side.
    pub const CUSTOM_RANGE: (f64, f64) = (50.0, 2000.0);

    /// `a4`, `letter`, `a3`, `tabloid`, or `WIDTHxHEIGHT` in millimetres (`300x420`).
    pub fn parse(text: &str) -> Result<Paper, String> {
        let lower = text.trim().to_ascii_lowercase();
        match lower.as_str() {
            "a4" => return Ok(Paper::A4),
            "letter" => return Ok(Paper::Letter),
            "a3" => return Ok(Paper::A3),
            "tabloid" | "ledger" => return Ok(Paper::Tabloid),
            _ => {}
        }
        let dims = lower.strip_suffix("mm").unwrap_or(&lower);
        let (w, h) = dims
            .split_once(['x', '×'])
            .ok_or_else(|| format!("`{text}` is not a paper: a4, letter, a3, tabloid, or WIDTHxHEIGHT in mm (`300x420`)"))?;
        let (lo, hi) = Paper::CUSTOM_RANGE;
        let number = |s: &str| {
            s.trim()
                .parse::<f64>()
                .ok()
                .filter(|n| n.is_finite() && (lo..=hi).contains(n))
                .ok_or_else(|| {
                    format!(
                        "`{}` is not a paper side between {lo} and {hi} mm",
                        s.trim()
                    )
                })
        };
        Ok(Paper::Custom {
            width: number(w)?,
            height: number(h)?,
        })
    }
}
