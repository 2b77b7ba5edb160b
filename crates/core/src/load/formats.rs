//! The TOML formats every game's manifest shares (`[players]`, `[print]`), as written by
//! designers. A game's own files have their own formats: a rules module's own (under
//! `crates/rules/src/`) or the component layer's (`components::format`).
//!
//! These types are the single definition of each format: serde reads them and schemars turns
//! them into the JSON Schemas in `schema/` (see `safari schema`), so docs, editors and the
//! loader cannot drift apart. Values the checker may blame are `Spanned`.

use schemars::JsonSchema;
use serde::Deserialize;
use toml::Spanned;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields, rename_all = "kebab-case")]
pub struct Players {
    #[schemars(range(min = 1))]
    pub min: u32,
    #[schemars(range(min = 1))]
    pub max: u32,
}

impl Default for Players {
    fn default() -> Self {
        Players { min: 1, max: 4 }
    }
}

#[derive(Debug, Deserialize, JsonSchema, Default)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Print {
    /// A named card size (poker, standard, bridge, mini, tarot) or
    /// `{ width-mm = ..., height-mm = ... }`.
    #[schemars(with = "Option<CardSizeValue>")]
    pub card_size: Option<Spanned<toml::Value>>,
    /// Default paper for print outputs: a5, a4, letter, a3, tabloid (in any case),
    /// `"WIDTHxHEIGHT"` in millimetres, or `{ width-mm = ..., height-mm = ... }`.
    pub paper: Option<PaperValue>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum CardSizeValue {
    Named(CardSizeName),
    Custom(CustomCardSize),
}

#[derive(Debug, Deserialize, JsonSchema, Clone, Copy)]
#[serde(rename_all = "kebab-case")]
pub enum CardSizeName {
    Poker,
    Standard,
    Bridge,
    Mini,
    Tarot,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct CustomCardSize {
    pub width_mm: f64,
    pub height_mm: f64,
}

#[derive(Debug, Deserialize, JsonSchema, Clone)]
#[serde(untagged)]
pub enum PaperValue {
    /// A named paper (a5, a4, letter, a3, tabloid, in any case) or `"300x420"`: width by
    /// height in millimetres. Read as `--paper` is (`Paper::parse`).
    Named(String),
    Custom(CustomPaper),
}

#[derive(Debug, Deserialize, JsonSchema, Clone, Copy)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct CustomPaper {
    pub width_mm: f64,
    pub height_mm: f64,
}
