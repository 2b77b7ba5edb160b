//! Reading a game of the family from its ruleset (`"format": "safari-components"`).
//!
//! Only what the engines need is read here; the compiler writes the whole format
//! (`schema/components-ruleset.schema.json`, docs/ruleset.md). A variant is a JSON Merge Patch
//! (RFC 7396) over the `rules` object, listed in `rules.variants`: what the rulebook's
//! "other ways to play" change is visible as data, and an engine reads the patched rules as
//! it reads the standard ones.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::MOST_TURNS;
use crate::LoadError;

/// The format's name and the version read.
pub const FORMAT: &str = "safari-components";
pub const VERSION: u64 = 3;

/// The names of the components a ruleset says no rule reads (its `unread`): in the game,
/// never played. Read apart from [`Components`], which the engines read, as only reports
/// name them.
pub fn unread(bytes: &[u8]) -> Vec<String> {
    let ruleset: serde_json::Value = serde_json::from_slice(bytes).unwrap_or_default();
    ruleset["unread"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|c| c["name"].as_str().map(str::to_string))
        .collect()
}

/// The parts of a components ruleset an engine reads.
#[derive(Debug, Clone, Deserialize)]
pub struct Components {
    pub game: Game,
    #[serde(default)]
    pub symbols: Vec<Symbol>,
    #[serde(default)]
    pub decks: Vec<Deck>,
    #[serde(default)]
    pub dice: Vec<DiceSet>,
    #[serde(default)]
    pub tiles: Vec<KindSet>,
    #[serde(default)]
    pub tokens: Vec<KindSet>,
    #[serde(default)]
    pub boards: Vec<Board>,
    #[serde(default)]
    pub pieces: Vec<PieceSet>,
    #[serde(default)]
    pub setups: Vec<Setup>,
    pub rules: serde_json::Value,
}

/// A set of identical dice: each face a number or a symbol's id.
#[derive(Debug, Clone, Deserialize)]
pub struct DiceSet {
    pub id: String,
    pub count: u32,
    pub faces: Vec<serde_json::Value>,
}

/// Tiles or tokens: how many of each kind.
#[derive(Debug, Clone, Deserialize)]
pub struct KindSet {
    pub id: String,
    pub kinds: Vec<Kind>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Kind {
    pub symbol: String,
    pub count: u32,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Board {
    pub id: String,
    pub columns: usize,
    pub rows: usize,
    /// Rows from the top, each cell's symbol id.
    pub cells: Vec<Vec<String>>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct PieceSet {
    pub id: String,
    pub pieces: Vec<Piece>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Piece {
    pub id: String,
    /// The symbol it shows, whose label names it.
    #[serde(default)]
    pub symbol: Option<String>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Setup {
    pub players: Vec<u32>,
    #[serde(default)]
    pub place: Vec<Place>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Place {
    pub set: String,
    pub piece: String,
    /// A cell: `c4`, the column's letter from the left and the row's number from the top.
    pub at: String,
    pub facing: Option<String>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Game {
    pub id: String,
    pub name: String,
    pub rules: String,
    pub players: [u32; 2],
}

#[derive(Debug, Clone, Deserialize)]
pub struct Symbol {
    pub id: String,
    pub label: String,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Deck {
    pub id: String,
    pub cards: Vec<Card>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Card {
    pub id: String,
    pub title: String,
    pub symbol: Option<String>,
    pub copies: u32,
    #[serde(default)]
    pub fields: BTreeMap<String, serde_json::Value>,
}

impl Components {
    pub fn deck(&self, id: &str) -> Option<&Deck> {
        self.decks.iter().find(|d| d.id == id)
    }

    pub fn label(&self, symbol: &str) -> String {
        self.symbols
            .iter()
            .find(|s| s.id == symbol)
            .map_or_else(|| symbol.to_string(), |s| s.label.clone())
    }
}

/// A fault at `path` of the ruleset.
pub(crate) fn fault(path: impl Into<String>, message: impl Into<String>) -> LoadError {
    LoadError {
        path: path.into(),
        message: message.into(),
    }
}

/// Rules under which some games can never end by the rules, only at the engine's limit of
/// turns, refused at the field that makes it so: `why` says what never happens (`"no turn
/// can claim a tile"`), `games` which games that leaves unending (`"no game"`, `"no game of
/// 2 players"`). Every game's reader says it in these words.
pub(crate) fn never_ends(
    path: impl Into<String>,
    why: impl std::fmt::Display,
    games: &str,
) -> LoadError {
    fault(
        path,
        format!(
            "{why}, so {games} could end by its rules: each would run to the engine's limit of {} turns",
            thousands(MOST_TURNS.into())
        ),
    )
}

/// Rules that end a game only after more turns than the engine's limit, which would end
/// every game first: refused at the field that asks for them. `what` says when the rules end
/// it (`"each of 4 players has had 5,000 turns"`), `turns` what that comes to.
pub(crate) fn past_most_turns(
    path: impl Into<String>,
    what: impl std::fmt::Display,
    turns: u64,
) -> LoadError {
    fault(
        path,
        format!(
            "the rules end a game once {what}: {} turns in all, past the engine's limit of {}, at which it ends every game first",
            thousands(turns),
            thousands(MOST_TURNS.into())
        ),
    )
}

/// A whole number with its thousands set apart, `12,345`, as the messages write it.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

/// Reads a components ruleset, checking its format and version.
pub fn read(bytes: &[u8]) -> Result<Components, LoadError> {
    let value: serde_json::Value = serde_json::from_slice(bytes).map_err(|e| LoadError {
        path: String::new(),
        message: format!("not JSON: {e}"),
    })?;
    if value.get("format").and_then(|v| v.as_str()) != Some(FORMAT) {
        return Err(LoadError {
            path: "format".to_string(),
            message: format!(
                "this is not a ruleset of a game made of components (`format` should be \"{FORMAT}\")"
            ),
        });
    }
    let version = value.get("version").and_then(|v| v.as_u64());
    if version != Some(VERSION) {
        return Err(LoadError {
            path: "version".to_string(),
            message: format!(
                "this build reads version {VERSION} of the format, not {}",
                value
                    .get("version")
                    .map_or("a missing one".to_string(), |v| v.to_string())
            ),
        });
    }
    serde_path_to_error::deserialize(value).map_err(|e| LoadError {
        path: e.path().to_string(),
        message: e.inner().to_string(),
    })
}

/// The rules' leaves a merge patch sets, each by its path of keys, with the value it sets
/// there (an object's own members are its leaves; `null`, an array or a number is a leaf).
fn leaves(patch: &serde_json::Value) -> Vec<(Vec<String>, serde_json::Value)> {
    let mut out = Vec::new();
    let mut stack: Vec<(Vec<String>, &serde_json::Value)> = vec![(Vec::new(), patch)];
    while let Some((path, value)) = stack.pop() {
        match value.as_object() {
            Some(members) if !members.is_empty() || path.is_empty() => {
                for (key, member) in members {
                    let mut deeper = path.clone();
                    deeper.push(key.clone());
                    stack.push((deeper, member));
                }
            }
            _ => out.push((path, value.clone())),
        }
    }
    out
}

/// Whether two variants' patches cannot both be played: one sets a rule the other sets to
/// something else (two maps of DiceAFARI, each setting `map`), or replaces a part of the
/// rules the other patches within. Read from the patches alone, so any ruleset's variants.
fn clash(a: &serde_json::Value, b: &serde_json::Value) -> Option<String> {
    let (of_a, of_b) = (leaves(a), leaves(b));
    for (path_a, value_a) in &of_a {
        for (path_b, value_b) in &of_b {
            let shared = path_a.len().min(path_b.len());
            let nested = path_a[..shared] == path_b[..shared];
            if nested && (path_a.len() != path_b.len() || value_a != value_b) {
                return Some(path_a[..shared].join("."));
            }
        }
    }
    None
}

/// The variants a ruleset offers, each with those it cannot be played with ([`clash`]):
/// what a page's choice of variants keeps apart.
pub fn exclusive(rules: &serde_json::Value) -> BTreeMap<String, Vec<String>> {
    let Some(variants) = rules.get("variants").and_then(|v| v.as_object()) else {
        return BTreeMap::new();
    };
    variants
        .iter()
        .map(|(name, patch)| {
            let others = variants
                .iter()
                .filter(|(other, their)| *other != name && clash(patch, their).is_some())
                .map(|(other, _)| other.clone())
                .collect();
            (name.clone(), others)
        })
        .collect()
}

/// The rules with the named variants applied in order, each a merge patch from
/// `rules.variants`; the result no longer lists the variants. Two variants that set one rule
/// each their own way are refused together ([`clash`]).
pub fn with_variants(
    rules: &serde_json::Value,
    names: &[String],
) -> Result<serde_json::Value, LoadError> {
    let variants = rules.get("variants").cloned().unwrap_or_default();
    let mut patched = rules.clone();
    for (at, name) in names.iter().enumerate() {
        for earlier in &names[..at] {
            let (Some(a), Some(b)) = (variants.get(earlier), variants.get(name)) else {
                continue;
            };
            if let Some(rule) = clash(a, b) {
                return Err(LoadError {
                    path: format!("rules.variants.{name}"),
                    message: format!(
                        "the variants `{earlier}` and `{name}` each set `rules.{rule}` their own way: play one of them"
                    ),
                });
            }
        }
        let Some(patch) = variants.get(name) else {
            let known: Vec<&str> = variants
                .as_object()
                .map(|o| o.keys().map(String::as_str).collect())
                .unwrap_or_default();
            return Err(LoadError {
                path: format!("rules.variants.{name}"),
                message: format!(
                    "this game has no variant `{name}`; it has: {}",
                    if known.is_empty() {
                        "none".to_string()
                    } else {
                        known.join(", ")
                    }
                ),
            });
        };
        json_patch::merge(&mut patched, patch);
    }
    if let Some(object) = patched.as_object_mut() {
        object.remove("variants");
    }
    Ok(patched)
}

/// The `rules` of a ruleset whose module is `id`, with the named variants applied, read into
/// that game's own type.
pub fn rules_for<T: serde::de::DeserializeOwned>(
    components: &Components,
    id: &str,
    variants: &[String],
) -> Result<T, LoadError> {
    if components.game.rules != id {
        return Err(fault(
            "game.rules",
            format!("this is a `{}` ruleset, not `{id}`", components.game.rules),
        ));
    }
    rules_as(with_variants(&components.rules, variants)?)
}

/// A `rules` object read into a game's own type, the path of a fault named.
pub fn rules_as<T: serde::de::DeserializeOwned>(rules: serde_json::Value) -> Result<T, LoadError> {
    serde_path_to_error::deserialize(rules).map_err(|e| LoadError {
        path: format!("rules.{}", e.path()),
        message: e.inner().to_string(),
    })
}
