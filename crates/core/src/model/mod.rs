//! The model every game shares: a value and where it was written, paper and card sizes, and
//! the structure of a roll-and-write sheet (sections, tracks, boxes) with each box's terms left
//! to the game (`sheet::SheetDef<T>`). What the terms mean is a rules module's: its own model
//! (under `crates/rules/src/`) resolves them; a game of components keeps them as written. Loading
//! never fails outright: a fault is reported and the model holds the rest, so every check
//! still runs.

mod sheet;

pub use sheet::*;

use crate::world::Origin;

/// Typed indices: `ids!(ItemId, CardId)` makes a `u32` newtype of each, with `index()`.
#[macro_export]
macro_rules! ids {
    ($($name:ident),*) => {$(
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $name(pub u32);
        impl $name {
            pub fn index(self) -> usize { self.0 as usize }
        }
    )*};
}

pub use crate::ids;

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

/// A sheet of paper by its size in millimetres: what the layout fits a sheet on and the
/// print backend lays pages out on.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct PaperSize {
    pub name: &'static str,
    pub width: f64,
    pub height: f64,
}

impl PaperSize {
    pub const A5: PaperSize = PaperSize {
        name: "a5",
        width: 148.0,
        height: 210.0,
    };
    pub const A4: PaperSize = PaperSize {
        name: "a4",
        width: 210.0,
        height: 297.0,
    };
    pub const LETTER: PaperSize = PaperSize {
        name: "letter",
        width: 215.9,
        height: 279.4,
    };
    pub const A3: PaperSize = PaperSize {
        name: "a3",
        width: 297.0,
        height: 420.0,
    };
    pub const TABLOID: PaperSize = PaperSize {
        name: "tabloid",
        width: 279.4,
        height: 431.8,
    };
    /// The named papers, smallest first.
    pub const STANDARD: &'static [PaperSize] = &[
        PaperSize::LETTER,
        PaperSize::A4,
        PaperSize::TABLOID,
        PaperSize::A3,
    ];

    pub fn of(paper: Paper) -> PaperSize {
        match paper {
            Paper::A5 => PaperSize::A5,
            Paper::A4 => PaperSize::A4,
            Paper::Letter => PaperSize::LETTER,
            Paper::A3 => PaperSize::A3,
            Paper::Tabloid => PaperSize::TABLOID,
            Paper::Custom { width, height } => PaperSize {
                name: "custom",
                width,
                height,
            },
        }
    }

    /// The paper's name as a person writes it: "A4", "Letter", "250 × 300 mm".
    pub fn label(&self) -> String {
        match self.name {
            "a5" => "A5".to_string(),
            "a4" => "A4".to_string(),
            "a3" => "A3".to_string(),
            "letter" => "Letter".to_string(),
            "tabloid" => "Tabloid".to_string(),
            _ => format!("{} × {} mm", self.width, self.height),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Paper {
    A5,
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

    /// The papers [`Paper::parse`] reads, in words.
    pub const NAMES: &'static str =
        "a5, a4, letter, a3, tabloid (in any case), or WIDTHxHEIGHT in mm (`300x420`)";

    /// The one reader of a paper, wherever one is written (`--paper`, game.toml, a sheet's
    /// `paper`): `a5`, `a4`, `letter`, `a3`, `tabloid` (or `ledger`), in any case, or
    /// `WIDTHxHEIGHT` in millimetres (`300x420`, `300 × 420 mm`).
    pub fn parse(text: &str) -> Result<Paper, String> {
        let lower = text.trim().to_lowercase();
        match lower.as_str() {
            "a5" => return Ok(Paper::A5),
            "a4" => return Ok(Paper::A4),
            "letter" => return Ok(Paper::Letter),
            "a3" => return Ok(Paper::A3),
            "tabloid" | "ledger" => return Ok(Paper::Tabloid),
            _ => {}
        }
        let dims = lower.strip_suffix("mm").unwrap_or(&lower);
        let (w, h) = dims
            .split_once(['x', '×'])
            .ok_or_else(|| format!("`{text}` is not a paper: {}", Paper::NAMES))?;
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
