//! Print-on-demand services: one PNG per card face and one for the back, at the size and
//! bleed each service takes, for `build --printer`.
//!
//! The services print from pictures, not PDFs: The Game Crafter takes a poker card as 825 x
//! 1125 px (a 1/8 inch bleed a side at 300 dpi), MakePlayingCards as 822 x 1122 px (36 px a
//! side). So the designs are typeset again with the service's bleed in place of the game's
//! (3 mm) and rendered at 300 dpi (`CARD_DPI`, as every card picture is), which gives exactly
//! those sizes, and those of the other card sizes the services print (a MakePlayingCards
//! tarot card comes to its 897 x 1497 px by the same arithmetic).

/// A print-on-demand service.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Printer {
    /// The Game Crafter: 1/8 inch (3.175 mm) of bleed a side.
    Tgc,
    /// MakePlayingCards (and PrinterStudio): 36 px at 300 dpi (3.048 mm) a side.
    Mpc,
}

impl Printer {
    /// Its folder in the output: `printer/<name>/`.
    pub fn name(self) -> &'static str {
        match self {
            Printer::Tgc => "tgc",
            Printer::Mpc => "mpc",
        }
    }

    /// The bleed around the trim, each side, in millimetres.
    pub(crate) fn bleed_mm(self) -> f64 {
        match self {
            Printer::Tgc => 25.4 / 8.0,
            Printer::Mpc => 36.0 * 25.4 / 300.0,
        }
    }

    /// The folder its card pictures are written to.
    pub fn folder(self) -> String {
        format!("printer/{}", self.name())
    }
}
