//! Loading a game made of components: the manifest, its component files, names resolved.
//!
//! As for every game's files, loading never stops at the first fault: every fault is a
//! diagnostic and the rest still loads. Symbols load first, then the components that show
//! them, then setups and the module's `[play]` keys, which name components.

use std::collections::{BTreeMap, HashSet};

use toml::Spanned;
use unicode_segmentation::UnicodeSegmentation;

use super::format::*;
use super::*;
use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::rules::Rules;
use crate::world::{FileId, GameFolder, Origin};
use safari_core::load::formats::Players;
use safari_core::load::limits;
use safari_core::load::names::Names;
use safari_core::load::toml_read;

/// Component files one manifest may list.
pub(crate) const MAX_COMPONENT_FILES: usize = 64;
/// Dice in one set.
pub(crate) const MAX_DICE: u32 = 100;
/// Roll-and-write sheets in one game: each is laid out by `check`, as every sheet is.
pub(crate) const MAX_SHEETS: usize = 16;
/// Cells along one side of a board (columns are named by letters a to z).
pub(crate) const MAX_BOARD_COLUMNS: usize = 26;
pub(crate) const MAX_BOARD_ROWS: usize = 99;
/// A board's longest side, in millimetres (a print shop's largest sheets are about a metre).
pub(crate) const MAX_BOARD_MM: f64 = 1500.0;
/// Bytes of one card as the ruleset and its template receive it: its id, title, text and
/// fields, with `for-each` values and braces filled in.
pub(crate) const MAX_CARD_BYTES: usize = 16 << 10;
/// Bytes of every card of a game together. `for-each` and braces multiply what a file says, so
/// what they make is bounded, not only what is written: a game's cards stay well inside the
/// ruleset `sim` reads (`limits::MAX_RULESET_BYTES`).
pub(crate) const MAX_CARDS_BYTES: usize = 4 << 20;
/// Card designs in one game. Each design is typeset on its own (for print shops, previews and
/// Tabletop Simulator); copies cost next to nothing. With the die faces below and the things
/// of `MAX_THINGS`, the largest game typesets well inside the worker's default bounds, whose
/// memory its documents share (docs/performance.md).
pub(crate) const MAX_CARD_DESIGNS: usize = 1_000;
/// Faces of all the dice of a game (each die's sides, counting every die of a set): each is a
/// sticker and a face of a paper net.
pub(crate) const MAX_DIE_FACES: u64 = 10_000;

/// A component file, each entry of each list on its own: a fault in one card or tile set is
/// reported and that entry skipped, and the rest still load (a fault inside a deck's card
/// list loses that deck).
fn read_components(file: FileId, text: &str, diagnostics: &mut Diagnostics) -> ComponentsFile {
    const LISTS: [&str; 9] = [
        "symbol", "deck", "dice", "tiles", "tokens", "board", "pieces", "sheet", "setup",
    ];
    let mut parsed = ComponentsFile::default();
    toml_read::read_lists(
        file,
        text,
        &LISTS,
        diagnostics,
        &mut |key, entry| {
            use toml_read::entry as read;
            match key {
                "symbol" => parsed.symbol.push(read(entry)?),
                "deck" => parsed.deck.push(read(entry)?),
                "dice" => parsed.dice.push(read(entry)?),
                "tiles" => parsed.tiles.push(read(entry)?),
                "tokens" => parsed.tokens.push(read(entry)?),
                "board" => parsed.board.push(read(entry)?),
                "pieces" => parsed.pieces.push(read(entry)?),
                "sheet" => parsed.sheet.push(read(entry)?),
                _ => parsed.setup.push(read(entry)?),
            }
            Ok(())
        },
        &mut |key, span, diagnostics| {
            diagnostics.push(
                Diagnostic::error(Code::InvalidValue, format!("a component file has no `{key}`"))
                    .with_primary(Origin::new(file, span), "unknown key")
                    .with_help(match crate::diag::similar_name(key, LISTS) {
                        Some(name) => format!(
                            "a name with a similar spelling exists: `{name}` (a component file holds lists of: {})",
                            LISTS.join(", ")
                        ),
                        None => format!("a component file holds lists of: {}", LISTS.join(", ")),
                    }),
            );
        },
    );
    parsed
}

/// Cards (counting copies), tiles, tokens, dice and pieces in one game: every one is a
/// picture to print and an object to export.
pub(crate) const MAX_THINGS: u64 = 20_000;

/// Each list of a component file, and each list inside an entry, holds at most
/// `MAX_ENTRIES`; the rest is reported and not read.
fn limit_entries(file: FileId, parsed: &mut ComponentsFile, diagnostics: &mut Diagnostics) {
    fn cut<T>(
        file: FileId,
        list: &mut Vec<T>,
        what: &str,
        at: impl Fn(&T) -> std::ops::Range<usize>,
        diagnostics: &mut Diagnostics,
    ) {
        if list.len() > limits::MAX_ENTRIES {
            diagnostics.push(
                Diagnostic::error(
                    Code::LimitExceeded,
                    format!(
                        "{} {what}: a list holds at most {}",
                        list.len(),
                        limits::MAX_ENTRIES
                    ),
                )
                .with_primary(
                    Origin::new(file, at(&list[limits::MAX_ENTRIES])),
                    "the first one past the limit",
                )
                .with_help("entries past the limit are not read"),
            );
            list.truncate(limits::MAX_ENTRIES);
        }
    }
    cut(
        file,
        &mut parsed.symbol,
        "symbols",
        |e| e.id.span(),
        diagnostics,
    );
    cut(
        file,
        &mut parsed.deck,
        "decks",
        |e| e.id.span(),
        diagnostics,
    );
    cut(
        file,
        &mut parsed.dice,
        "dice sets",
        |e| e.id.span(),
        diagnostics,
    );
    cut(
        file,
        &mut parsed.tiles,
        "tile sets",
        |e| e.id.span(),
        diagnostics,
    );
    cut(
        file,
        &mut parsed.tokens,
        "token sets",
        |e| e.id.span(),
        diagnostics,
    );
    cut(
        file,
        &mut parsed.board,
        "boards",
        |e| e.id.span(),
        diagnostics,
    );
    cut(
        file,
        &mut parsed.pieces,
        "piece sets",
        |e| e.id.span(),
        diagnostics,
    );
    cut(
        file,
        &mut parsed.sheet,
        "sheets",
        |e| e.id.span(),
        diagnostics,
    );
    cut(
        file,
        &mut parsed.setup,
        "setups",
        |e| e.players.span(),
        diagnostics,
    );
    for deck in &mut parsed.deck {
        cut(file, &mut deck.card, "cards", |e| e.id.span(), diagnostics);
    }
    for set in &mut parsed.tiles {
        cut(
            file,
            &mut set.kind,
            "kinds",
            |e| e.symbol.span(),
            diagnostics,
        );
    }
    for set in &mut parsed.tokens {
        cut(
            file,
            &mut set.kind,
            "kinds",
            |e| e.symbol.span(),
            diagnostics,
        );
    }
    for set in &mut parsed.pieces {
        cut(file, &mut set.piece, "pieces", |e| e.id.span(), diagnostics);
    }
}

/// How a picture the content names is read: its bytes, or why it cannot be drawn (the layer
/// that knows how the templates draw pictures hands this over).
pub type Pictures = fn(&crate::world::FolderReader, &str) -> Result<Vec<u8>, Diagnostic>;

/// Loads a component game whose manifest is `manifest_file` (already read) and whose rules
/// module is `module`. `None` when the manifest cannot be read at all.
pub fn load(
    folder: &mut GameFolder,
    manifest_file: FileId,
    module: &'static dyn Rules,
    pictures: Pictures,
    diagnostics: &mut Diagnostics,
) -> Option<Table> {
    let text = folder.source(manifest_file).text.clone();
    let raw = toml_read::read_whole::<TableManifestFile>(manifest_file, &text, diagnostics)?;
    let at = |span: std::ops::Range<usize>| Origin::new(manifest_file, span);
    let manifest = lower_manifest(&raw, manifest_file, &text, diagnostics);

    let mut files = Vec::new();
    let reading = diagnostics.len();
    if raw.components.len() > MAX_COMPONENT_FILES {
        diagnostics.push(
            Diagnostic::error(
                Code::LimitExceeded,
                format!("a game lists at most {MAX_COMPONENT_FILES} component files"),
            )
            .with_primary(
                at(raw.components[MAX_COMPONENT_FILES].span()),
                "the first one past the limit",
            ),
        );
    }
    let mut seen = HashSet::new();
    for path in raw.components.iter().take(MAX_COMPONENT_FILES) {
        if !seen.insert(path.get_ref().clone()) {
            continue;
        }
        let named = (path.span() != (0..0)).then(|| at(path.span()));
        match folder.read(path.get_ref(), named) {
            Ok(file) => {
                let text = folder.source(file).text.clone();
                files.push((file, read_components(file, &text, diagnostics)));
            }
            Err(diagnostic) => diagnostics.push(diagnostic),
        }
    }

    for (file, parsed) in &mut files {
        limit_entries(*file, parsed, diagnostics);
    }
    let lost = diagnostics.lost_content_since(reading);
    let mut lower = Lower::default();
    for (file, parsed) in &files {
        lower.symbols(*file, &parsed.symbol, diagnostics);
    }
    for (file, parsed) in &files {
        lower.decks(*file, &parsed.deck, manifest.card_size, diagnostics);
        lower.dice(*file, &parsed.dice, diagnostics);
        lower.tiles(*file, &parsed.tiles, diagnostics);
        lower.tokens(*file, &parsed.tokens, diagnostics);
        lower.boards(*file, &parsed.board, diagnostics);
        lower.pieces(*file, &parsed.pieces, diagnostics);
        lower.sheets(folder, *file, &parsed.sheet, diagnostics);
    }
    for (file, parsed) in &files {
        lower.setups(*file, &parsed.setup, manifest.players, diagnostics);
    }
    // A symbol's picture must be there, inside the folder and a picture Typst can draw, for
    // `check` as for `build`.
    let reader = folder.reader();
    for symbol in &lower.symbols {
        if let Some(art) = &symbol.art
            && let Err(diagnostic) = pictures(&reader, &art.value)
        {
            diagnostics.push(diagnostic.with_primary(art.origin, "named here"));
        }
    }
    // A deck's own templates must be there for `check`, as for `build`; read now, a fault in
    // one is reported with a label in it.
    for deck in &lower.decks {
        for template in deck.front.iter().chain(&deck.back) {
            if let Err(diagnostic) = folder.read(
                &format!("templates/{}", template.value),
                Some(template.origin),
            ) {
                diagnostics.push(diagnostic);
            }
        }
    }
    let things = lower.things();
    if things > MAX_THINGS {
        diagnostics.push(
            Diagnostic::error(
                Code::LimitExceeded,
                format!("the game has {things} cards, tiles, tokens, dice and pieces: a game holds at most {MAX_THINGS}"),
            )
            .with_primary(manifest.origin, "this game")
            .with_help("a printed game holds far fewer: look for a count or copies written too large"),
        );
    }
    let params = lower.params(
        module,
        manifest.rules.origin,
        &raw.play,
        manifest_file,
        diagnostics,
    );
    if lost {
        // A name defined in what was lost would be reported as unknown wherever it is used.
        lower.incomplete();
    }
    lower.report(folder, diagnostics);
    let Lower {
        symbols,
        decks,
        dice,
        tiles,
        tokens,
        boards,
        pieces,
        sheets,
        setups,
        ..
    } = lower;
    Some(Table {
        manifest: TableManifest { params, ..manifest },
        symbols,
        decks,
        dice,
        tiles,
        tokens,
        boards,
        pieces,
        sheets,
        setups,
    })
}

fn lower_manifest(
    raw: &TableManifestFile,
    file: FileId,
    text: &str,
    diagnostics: &mut Diagnostics,
) -> TableManifest {
    let origin = Origin::new(file, 0..text.len().min(1));
    safari_core::load::check_identity(&raw.id, &raw.name, file, text, diagnostics);
    let Players { min, max } = raw.players;
    if min > max || min == 0 || max > limits::MAX_PLAYERS {
        diagnostics.push(
            Diagnostic::error(
                Code::InvalidValue,
                format!(
                    "players: min {min} and max {max} do not make a range of 1 to {}",
                    limits::MAX_PLAYERS
                ),
            )
            .with_primary(
                Origin::new(file, safari_core::load::find_key(text, "players")),
                "here",
            ),
        );
    }
    let (card_size, paper) = safari_core::load::lower_print(&raw.print, file, text, diagnostics);
    TableManifest {
        id: raw.id.get_ref().clone(),
        name: raw.name.clone(),
        rules: Located::new(
            raw.rules.get_ref().clone(),
            Origin::new(file, raw.rules.span()),
        ),
        versions: raw
            .versions
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect(),
        players: {
            let lo = min.clamp(1, limits::MAX_PLAYERS);
            (lo, max.clamp(lo, limits::MAX_PLAYERS))
        },
        players_origin: match safari_core::load::find_key(text, "[players]") {
            span if span != (0..0) => Origin::new(file, span),
            _ => origin,
        },
        card_size,
        paper,
        params: BTreeMap::new(),
        origin,
    }
}

/// The tables of names, and the components as they are lowered.
struct Lower {
    symbols: Vec<Symbol>,
    decks: Vec<Deck>,
    dice: Vec<DiceSet>,
    tiles: Vec<TileSet>,
    tokens: Vec<TokenSet>,
    boards: Vec<Board>,
    pieces: Vec<PieceSet>,
    sheets: Vec<Sheet>,
    setups: Vec<Setup>,
    symbol_names: Names<usize>,
    deck_names: Names<usize>,
    dice_names: Names<usize>,
    tile_names: Names<usize>,
    token_names: Names<usize>,
    board_names: Names<usize>,
    piece_set_names: Names<usize>,
    sheet_names: Names<usize>,
    /// Whether sheets past a limit (their count, their boxes) were met and reported already.
    sheets_over_limit: bool,
    /// Card designs and their bytes made so far ([`MAX_CARD_DESIGNS`], [`MAX_CARDS_BYTES`]),
    /// and whether they went past either (reported once; no card is made after).
    designs: usize,
    card_bytes: usize,
    cards_over_limit: bool,
    /// Die faces so far ([`MAX_DIE_FACES`]).
    die_faces: u64,
}

impl Default for Lower {
    fn default() -> Self {
        let names = |kind: &'static str, how: &str| Names::new(kind).defined_by(how.to_string());
        Lower {
            symbols: Vec::new(),
            decks: Vec::new(),
            dice: Vec::new(),
            tiles: Vec::new(),
            tokens: Vec::new(),
            boards: Vec::new(),
            pieces: Vec::new(),
            sheets: Vec::new(),
            setups: Vec::new(),
            symbol_names: names(
                "symbol",
                "define it in a component file as `[[symbol]]` with `id = \"{id}\"` and a `label`",
            ),
            deck_names: names(
                "deck",
                "define it in a component file as `[[deck]]` with `id = \"{id}\"`",
            ),
            dice_names: names(
                "dice set",
                "define it in a component file as `[[dice]]` with `id = \"{id}\"`",
            ),
            tile_names: names(
                "tile set",
                "define it in a component file as `[[tiles]]` with `id = \"{id}\"`",
            ),
            token_names: names(
                "token set",
                "define it in a component file as `[[tokens]]` with `id = \"{id}\"`",
            ),
            board_names: names(
                "board",
                "define it in a component file as `[[board]]` with `id = \"{id}\"`",
            ),
            piece_set_names: names(
                "piece set",
                "define it in a component file as `[[pieces]]` with `id = \"{id}\"`",
            ),
            sheets_over_limit: false,
            designs: 0,
            card_bytes: 0,
            cards_over_limit: false,
            die_faces: 0,
            sheet_names: names(
                "sheet",
                "define it in a component file as `[[sheet]]` with `id = \"{id}\"`",
            ),
        }
    }
}

fn located<T: Clone>(file: FileId, spanned: &Spanned<T>) -> Located<T> {
    Located::new(spanned.get_ref().clone(), Origin::new(file, spanned.span()))
}

fn origin_of<T>(file: FileId, spanned: &Spanned<T>) -> Origin {
    Origin::new(file, spanned.span())
}

/// `#rrggbb`, or the fault.
fn color(
    file: FileId,
    value: &Option<Spanned<String>>,
    diagnostics: &mut Diagnostics,
) -> Option<String> {
    let value = value.as_ref()?;
    let text = value.get_ref();
    let valid = text.len() == 7
        && text.starts_with('#')
        && text[1..].bytes().all(|b| b.is_ascii_hexdigit());
    if valid {
        Some(text.to_ascii_lowercase())
    } else {
        diagnostics.push(
            Diagnostic::error(Code::InvalidValue, format!("`{text}` is not a colour"))
                .with_primary(origin_of(file, value), "here")
                .with_help("write a colour as `#rrggbb`, e.g. `#2e7d32`"),
        );
        None
    }
}

fn in_range(
    file: FileId,
    value: &Spanned<f64>,
    (lo, hi): (f64, f64),
    what: &str,
    diagnostics: &mut Diagnostics,
) -> f64 {
    let v = *value.get_ref();
    if v.is_finite() && (lo..=hi).contains(&v) {
        v
    } else {
        diagnostics.push(
            Diagnostic::error(
                Code::InvalidValue,
                format!("{what} must be between {lo} and {hi} mm"),
            )
            .with_primary(origin_of(file, value), "here"),
        );
        v.clamp(lo, hi)
    }
}

fn count(
    file: FileId,
    value: &Spanned<u32>,
    max: u32,
    what: &str,
    diagnostics: &mut Diagnostics,
) -> u32 {
    let n = *value.get_ref();
    if n == 0 {
        diagnostics.push(
            Diagnostic::error(Code::InvalidValue, format!("{what} must be at least 1"))
                .with_primary(origin_of(file, value), "here"),
        );
        1
    } else if n > max {
        diagnostics.push(
            Diagnostic::error(Code::LimitExceeded, format!("{what} is at most {max}"))
                .with_primary(origin_of(file, value), "too many"),
        );
        max
    } else {
        n
    }
}

fn json_of(value: &toml::Value) -> serde_json::Value {
    match value {
        toml::Value::String(s) => serde_json::Value::String(s.clone()),
        toml::Value::Integer(i) => serde_json::Value::from(*i),
        toml::Value::Float(f) => serde_json::Number::from_f64(*f)
            .map_or(serde_json::Value::Null, serde_json::Value::Number),
        toml::Value::Boolean(b) => serde_json::Value::Bool(*b),
        toml::Value::Datetime(d) => serde_json::Value::String(d.to_string()),
        toml::Value::Array(items) => serde_json::Value::Array(items.iter().map(json_of).collect()),
        toml::Value::Table(table) => {
            serde_json::Value::Object(table.iter().map(|(k, v)| (k.clone(), json_of(v))).collect())
        }
    }
}

/// Why a card's braces could not be filled in.
enum Unfilled {
    /// The text comes to more than `MAX_TEXT_CHARS`: a short template naming a long field
    /// many times must not make a long text.
    TooLong,
    Fault(String),
}

/// `{field}` in `template` replaced by the field's value.
fn fill_in(
    template: &str,
    fields: &BTreeMap<String, serde_json::Value>,
) -> Result<String, Unfilled> {
    let mut out = String::new();
    let mut chars = 0;
    let mut push = |out: &mut String, piece: &str| {
        chars += piece.chars().count();
        if chars > limits::MAX_TEXT_CHARS {
            return Err(Unfilled::TooLong);
        }
        out.push_str(piece);
        Ok(())
    };
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        push(&mut out, &rest[..open])?;
        let after = &rest[open + 1..];
        let close = after
            .find('}')
            .ok_or_else(|| Unfilled::Fault("a `{` is not closed".to_string()))?;
        let name = &after[..close];
        match fields.get(name) {
            Some(serde_json::Value::String(s)) => push(&mut out, s)?,
            Some(serde_json::Value::Number(n)) => push(&mut out, &n.to_string())?,
            Some(serde_json::Value::Bool(b)) => push(&mut out, &b.to_string())?,
            Some(_) => {
                return Err(Unfilled::Fault(format!(
                    "the field `{name}` is not text or a number"
                )));
            }
            None => return Err(Unfilled::Fault(format!("the card has no field `{name}`"))),
        }
        rest = &after[close + 1..];
    }
    push(&mut out, rest)?;
    Ok(out)
}

/// Bytes `value` takes as JSON, without writing it anywhere.
fn json_bytes(value: &impl serde::Serialize) -> usize {
    struct Count(usize);
    impl std::io::Write for Count {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0 += bytes.len();
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut count = Count(0);
    // Writing JSON values to a sink that never fails cannot fail.
    let _ = serde_json::to_writer(&mut count, value);
    count.0
}

impl Lower {
    fn define(
        names: &mut Names<usize>,
        id: &Spanned<String>,
        index: usize,
        file: FileId,
        diagnostics: &mut Diagnostics,
    ) {
        if let Err(d) = names.define_written(id.get_ref(), index, origin_of(file, id)) {
            diagnostics.push(d);
        }
    }

    /// Cards (counting copies), tiles, tokens, dice and pieces.
    fn things(&self) -> u64 {
        let decks: u64 = self.decks.iter().map(|d| u64::from(d.physical())).sum();
        let tiles: u64 = self.tiles.iter().map(|t| u64::from(t.count())).sum();
        let tokens: u64 = self.tokens.iter().map(|t| u64::from(t.count())).sum();
        let dice: u64 = self.dice.iter().map(|d| u64::from(d.count)).sum();
        let pieces: u64 = self.pieces.iter().map(|p| p.pieces.len() as u64).sum();
        decks + tiles + tokens + dice + pieces
    }

    fn symbol(&self, file: FileId, id: &Spanned<String>) -> Option<usize> {
        self.symbol_names.resolve(id.get_ref(), origin_of(file, id))
    }

    fn symbols(&mut self, file: FileId, entries: &[SymbolEntry], diagnostics: &mut Diagnostics) {
        for entry in entries {
            Self::define(
                &mut self.symbol_names,
                &entry.id,
                self.symbols.len(),
                file,
                diagnostics,
            );
            if entry
                .glyph
                .as_ref()
                .is_some_and(|g| g.trim().is_empty() || g.graphemes(true).count() > 3)
            {
                diagnostics.push(
                    Diagnostic::error(Code::InvalidValue, "a glyph is one to three characters")
                        .with_primary(origin_of(file, &entry.id), "this symbol's glyph")
                        .with_help("a glyph is a short mark; for a picture, give `art`"),
                );
            }
            if let (Some(_), Some(art)) = (&entry.glyph, &entry.art) {
                diagnostics.push(
                    Diagnostic::error(
                        Code::InvalidValue,
                        format!(
                            "symbol `{}` has both `art` and a `glyph`",
                            crate::diag::printable(entry.id.get_ref())
                        ),
                    )
                    .with_primary(
                        origin_of(file, art),
                        "the art is drawn, so the glyph never shows",
                    )
                    .with_help("give the symbol its `art` or its `glyph`, not both"),
                );
            }
            self.symbols.push(Symbol {
                id: located(file, &entry.id),
                label: entry.label.clone(),
                color: color(file, &entry.color, diagnostics),
                glyph: entry.glyph.clone(),
                art: entry.art.as_ref().map(|a| located(file, a)),
            });
        }
    }

    fn decks(
        &mut self,
        file: FileId,
        entries: &[DeckEntry],
        card_size: CardSize,
        diagnostics: &mut Diagnostics,
    ) {
        for entry in entries {
            let deck_ix = self.decks.len();
            Self::define(&mut self.deck_names, &entry.id, deck_ix, file, diagnostics);
            let mut cards: Vec<Card> = Vec::new();
            for card in &entry.card {
                self.cards(file, card, &mut cards, diagnostics);
            }
            let physical: u32 = cards.iter().map(|c| c.copies).sum();
            if physical > limits::MAX_DECK_SIZE {
                diagnostics.push(
                    Diagnostic::error(
                        Code::LimitExceeded,
                        format!(
                            "the deck `{}` has {physical} cards: a deck holds at most {}",
                            entry.id.get_ref(),
                            limits::MAX_DECK_SIZE
                        ),
                    )
                    .with_primary(origin_of(file, &entry.id), "this deck"),
                );
                cards.clear();
            }
            let size = match &entry.card_size {
                Some(value) => safari_core::load::card_size(value, file, diagnostics),
                None => card_size,
            };
            let template = |name: &Option<Spanned<String>>, diagnostics: &mut Diagnostics| {
                let name = name.as_ref()?;
                let valid = name.get_ref().ends_with(".typ")
                    && !name.get_ref().contains(['/', '\\'])
                    && !name.get_ref().starts_with('.');
                if !valid {
                    diagnostics.push(
                        Diagnostic::error(Code::InvalidValue, format!("`{}` is not a template name", name.get_ref()))
                            .with_primary(origin_of(file, name), "here")
                            .with_help("name a file of the game's templates/ folder, e.g. `front = \"card-front.typ\"`"),
                    );
                    return None;
                }
                Some(located(file, name))
            };
            self.decks.push(Deck {
                id: located(file, &entry.id),
                name: entry.name.clone(),
                card_size: size,
                front: template(&entry.front, diagnostics),
                back: template(&entry.back, diagnostics),
                color: color(file, &entry.color, diagnostics),
                corner: entry.corner.as_ref().map(|c| located(file, c)),
                size: entry.size.as_ref().map(|s| located(file, s)),
                cards,
                origin: origin_of(file, &entry.id),
            });
        }
    }

    /// One `[[deck.card]]`: a card, or one per combination of its `for-each` values.
    fn cards(
        &mut self,
        file: FileId,
        entry: &CardEntry,
        cards: &mut Vec<Card>,
        diagnostics: &mut Diagnostics,
    ) {
        let at = origin_of(file, &entry.id);
        if self.cards_over_limit {
            return;
        }
        let base: BTreeMap<String, serde_json::Value> = entry
            .fields
            .iter()
            .map(|(k, v)| (k.clone(), json_of(v)))
            .collect();
        let largest = json_bytes(&base)
            + entry
                .for_each
                .iter()
                .map(|(key, values)| {
                    let value = values.get_ref().iter().map(|v| json_bytes(&json_of(v)));
                    key.len() + 4 + value.max().unwrap_or(0)
                })
                .sum::<usize>();
        if largest > MAX_CARD_BYTES {
            diagnostics.push(
                Diagnostic::error(
                    Code::LimitExceeded,
                    format!(
                        "a card this entry makes holds {} of fields: a card holds at most {}",
                        limits::bytes(largest as u64),
                        limits::bytes(MAX_CARD_BYTES as u64)
                    ),
                )
                .with_primary(at, "this card")
                .with_help("keep long lists and texts out of a card's fields; a template can hold what every card shares"),
            );
            return;
        }
        let mut combos = vec![base];
        for (field, values) in &entry.for_each {
            if entry.fields.contains_key(field) {
                diagnostics.push(
                    Diagnostic::error(
                        Code::InvalidValue,
                        format!(
                            "`{}` is both a field of the card and a `for-each` key",
                            crate::diag::printable(field)
                        ),
                    )
                    .with_primary(
                        origin_of(file, values),
                        "these values would replace the field's",
                    )
                    .with_help(format!(
                        "remove the field `{}`, or name the `for-each` key differently",
                        crate::diag::printable(field)
                    )),
                );
                return;
            }
            if values.get_ref().is_empty() {
                diagnostics.push(
                    Diagnostic::error(
                        Code::InvalidValue,
                        format!("`for-each.{field}` lists no values"),
                    )
                    .with_primary(origin_of(file, values), "an empty list makes no card"),
                );
                return;
            }
            if combos.len() * values.get_ref().len() > limits::MAX_ENTRIES {
                diagnostics.push(
                    Diagnostic::error(
                        Code::LimitExceeded,
                        format!("`for-each` makes more than {} cards", limits::MAX_ENTRIES),
                    )
                    .with_primary(origin_of(file, values), "here"),
                );
                return;
            }
            combos = combos
                .into_iter()
                .flat_map(|fields| {
                    values.get_ref().iter().map(move |value| {
                        let mut fields = fields.clone();
                        fields.insert(field.clone(), json_of(value));
                        fields
                    })
                })
                .collect();
        }
        let copies = entry.copies.as_ref().map_or(1, |c| {
            count(file, c, limits::MAX_COPIES, "copies", diagnostics)
        });
        let symbol = entry.symbol.as_ref().and_then(|s| self.symbol(file, s));
        if self.designs + combos.len() > MAX_CARD_DESIGNS {
            self.cards_over_limit = true;
            diagnostics.push(
                Diagnostic::error(
                    Code::LimitExceeded,
                    format!("the game has more than {MAX_CARD_DESIGNS} card designs"),
                )
                .with_primary(at, "the designs past the limit start here")
                .with_help(
                    "designs past the limit are not read; each design is typeset on its own, \
                     copies of one (`copies`) cost next to nothing",
                ),
            );
            return;
        }
        for fields in combos {
            let filled = |template: &str, what: &str, diagnostics: &mut Diagnostics| {
                let unfilled = match fill_in(template, &fields) {
                    Ok(text) => return Some(text),
                    Err(unfilled) => unfilled,
                };
                diagnostics.push(match unfilled {
                    Unfilled::TooLong => Diagnostic::error(
                        Code::LimitExceeded,
                        format!(
                            "a card's {what}, its braces filled in, is longer than {} characters",
                            limits::MAX_TEXT_CHARS
                        ),
                    )
                    .with_primary(at, "in this card")
                    .with_help("a field named in braces is copied in whole each time it is named: name long fields once, or shorten them"),
                    Unfilled::Fault(reason) => Diagnostic::error(
                        Code::InvalidValue,
                        format!(
                            "cannot fill in `{}`: {reason}",
                            crate::diag::printable(template)
                        ),
                    )
                    .with_primary(at, "in this card")
                    .with_help("braces name the card's fields: `id = \"{suit}-{value}\"`"),
                });
                None
            };
            let (Some(id), Some(title), Some(text)) = (
                filled(entry.id.get_ref(), "id", diagnostics),
                filled(&entry.title, "title", diagnostics),
                filled(&entry.text, "text", diagnostics),
            ) else {
                return;
            };
            if let Err(reason) = safari_core::load::check_id(&id) {
                diagnostics.push(
                    Diagnostic::error(
                        Code::BadId,
                        format!("the card id `{id}` is not a valid id: it {reason}"),
                    )
                    .with_primary(at, "this card")
                    .with_help("card ids are lower-case words joined by dashes: `blue-7`"),
                );
            }
            if cards.iter().any(|c| c.id.value == id && c.origin == at) {
                diagnostics.push(
                    Diagnostic::error(
                        Code::DuplicateId,
                        format!("this card makes the id `{id}` more than once"),
                    )
                    .with_primary(at, "every card it makes needs its own id")
                    .with_help("name the `for-each` fields in the id: `id = \"{suit}-{value}\"`"),
                );
                continue;
            }
            if let Some(first) = cards.iter().find(|c| c.id.value == id) {
                diagnostics.push(
                    Diagnostic::error(
                        Code::DuplicateId,
                        format!("the card id `{id}` is defined twice in its deck"),
                    )
                    .with_primary(at, "defined again here")
                    .with_secondary(first.origin, "first defined here")
                    .with_help(
                        "give each card its own id (braces fill in fields: `\"{suit}-{value}\"`)",
                    ),
                );
                continue;
            }
            self.card_bytes += id.len() + title.len() + text.len() + json_bytes(&fields);
            if self.card_bytes > MAX_CARDS_BYTES {
                self.cards_over_limit = true;
                diagnostics.push(
                    Diagnostic::error(
                        Code::LimitExceeded,
                        format!(
                            "the game's cards come to more than {} (ids, titles, texts and fields, with `for-each` and braces filled in)",
                            limits::bytes(MAX_CARDS_BYTES as u64)
                        ),
                    )
                    .with_primary(at, "the cards past the limit start here")
                    .with_help("cards past the limit are not read; a long field named in braces many times, or `for-each` over long values, multiplies what the file says"),
                );
                return;
            }
            self.designs += 1;
            cards.push(Card {
                id: Located::new(id, at),
                title,
                text,
                symbol,
                copies,
                fields,
                origin: at,
            });
        }
    }

    fn dice(&mut self, file: FileId, entries: &[DiceEntry], diagnostics: &mut Diagnostics) {
        for entry in entries {
            Self::define(
                &mut self.dice_names,
                &entry.id,
                self.dice.len(),
                file,
                diagnostics,
            );
            let die = entry.die;
            let faces: Vec<Located<DieFace>> = entry
                .faces
                .get_ref()
                .iter()
                .filter_map(|face| {
                    let at = origin_of(file, face);
                    let value = match face.get_ref() {
                        toml::Value::Integer(n)
                            if n.unsigned_abs() <= u64::from(limits::MAX_FACE_VALUE) =>
                        {
                            DieFace::Number(*n)
                        }
                        toml::Value::Integer(_) => {
                            diagnostics.push(
                                Diagnostic::error(
                                    Code::InvalidValue,
                                    format!(
                                        "a number face is at most {} either side of 0",
                                        limits::MAX_FACE_VALUE
                                    ),
                                )
                                .with_primary(at, "here"),
                            );
                            return None;
                        }
                        toml::Value::String(name) => {
                            DieFace::Symbol(self.symbol_names.resolve(name, at)?)
                        }
                        other => {
                            diagnostics.push(
                                Diagnostic::error(
                                    Code::InvalidValue,
                                    format!(
                                        "a die face is a whole number or a symbol's id, not {}",
                                        other.type_str()
                                    ),
                                )
                                .with_primary(at, "this face"),
                            );
                            return None;
                        }
                    };
                    Some(Located::new(value, at))
                })
                .collect();
            if entry.faces.get_ref().len() != die.sides() {
                diagnostics.push(
                    Diagnostic::error(
                        Code::DiceShape,
                        format!(
                            "a {} has {} faces, and `{}` lists {}",
                            die.name(),
                            die.sides(),
                            entry.id.get_ref(),
                            entry.faces.get_ref().len()
                        ),
                    )
                    .with_primary(
                        origin_of(file, &entry.faces),
                        format!("{} faces", entry.faces.get_ref().len()),
                    )
                    .with_help(format!(
                        "list one face for each of the {} sides, or change `type`",
                        die.sides()
                    )),
                );
            }
            let dice = count(file, &entry.count, MAX_DICE, "count", diagnostics);
            let before = self.die_faces;
            self.die_faces += u64::from(dice) * die.sides() as u64;
            if before <= MAX_DIE_FACES && self.die_faces > MAX_DIE_FACES {
                diagnostics.push(
                    Diagnostic::error(
                        Code::LimitExceeded,
                        format!(
                            "the game's dice have {} faces with these: dice hold at most {MAX_DIE_FACES} faces in a game",
                            self.die_faces
                        ),
                    )
                    .with_primary(origin_of(file, &entry.count), "these dice go past it")
                    .with_help("every face of every die is printed as a sticker and on a paper net: a set of dice a player rolls together rarely needs more than a dozen"),
                );
            }
            self.dice.push(DiceSet {
                id: located(file, &entry.id),
                name: entry.name.clone(),
                die,
                count: dice,
                count_origin: origin_of(file, &entry.count),
                faces,
                origin: origin_of(file, &entry.id),
            });
        }
    }

    fn kinds(
        &self,
        file: FileId,
        entries: &[KindEntry],
        diagnostics: &mut Diagnostics,
    ) -> Vec<Kind> {
        entries
            .iter()
            .filter_map(|kind| {
                let symbol = self.symbol(file, &kind.symbol)?;
                Some(Kind {
                    symbol,
                    count: count(file, &kind.count, limits::MAX_COPIES, "count", diagnostics),
                    count_origin: origin_of(file, &kind.count),
                    back: kind.back.as_ref().and_then(|b| self.symbol(file, b)),
                    origin: origin_of(file, &kind.symbol),
                })
            })
            .collect()
    }

    fn empty(file: FileId, id: &Spanned<String>, what: &str, diagnostics: &mut Diagnostics) {
        diagnostics.push(
            Diagnostic::error(
                Code::EmptyGroup,
                format!("the {what} `{}` has nothing in it", id.get_ref()),
            )
            .with_primary(origin_of(file, id), "empty")
            .with_help(format!("give the {what} at least one `kind`, or remove it")),
        );
    }

    fn tiles(&mut self, file: FileId, entries: &[TilesEntry], diagnostics: &mut Diagnostics) {
        for entry in entries {
            Self::define(
                &mut self.tile_names,
                &entry.id,
                self.tiles.len(),
                file,
                diagnostics,
            );
            if entry.kind.is_empty() {
                Self::empty(file, &entry.id, "tile set", diagnostics);
            }
            self.tiles.push(TileSet {
                id: located(file, &entry.id),
                name: entry.name.clone(),
                shape: entry.shape,
                size_mm: in_range(
                    file,
                    &entry.size_mm,
                    (10.0, 250.0),
                    "a tile's size",
                    diagnostics,
                ),
                back: entry.back.as_ref().and_then(|b| self.symbol(file, b)),
                kinds: self.kinds(file, &entry.kind, diagnostics),
                origin: origin_of(file, &entry.id),
            });
        }
    }

    fn tokens(&mut self, file: FileId, entries: &[TokensEntry], diagnostics: &mut Diagnostics) {
        for entry in entries {
            Self::define(
                &mut self.token_names,
                &entry.id,
                self.tokens.len(),
                file,
                diagnostics,
            );
            if entry.kind.is_empty() {
                Self::empty(file, &entry.id, "token set", diagnostics);
            }
            self.tokens.push(TokenSet {
                id: located(file, &entry.id),
                name: entry.name.clone(),
                shape: entry.shape,
                size_mm: in_range(
                    file,
                    &entry.size_mm,
                    (8.0, 150.0),
                    "a token's size",
                    diagnostics,
                ),
                back: entry.back.as_ref().and_then(|b| self.symbol(file, b)),
                keep: entry.keep,
                kinds: self.kinds(file, &entry.kind, diagnostics),
                origin: origin_of(file, &entry.id),
            });
        }
    }

    fn boards(&mut self, file: FileId, entries: &[BoardEntry], diagnostics: &mut Diagnostics) {
        for entry in entries {
            Self::define(
                &mut self.board_names,
                &entry.id,
                self.boards.len(),
                file,
                diagnostics,
            );
            // A cell is one grapheme: what a person sees as one character.
            let mut legend: BTreeMap<&str, usize> = BTreeMap::new();
            for (key, symbol) in &entry.legend {
                let mut graphemes = key.get_ref().graphemes(true);
                match (graphemes.next(), graphemes.next()) {
                    (Some(c), None) if !c.trim().is_empty() => {
                        if let Some(ix) = self.symbol(file, symbol) {
                            legend.insert(c, ix);
                        }
                    }
                    _ => diagnostics.push(
                        Diagnostic::error(
                            Code::InvalidValue,
                            format!("a legend key is one character, not `{}`", key.get_ref()),
                        )
                        .with_primary(origin_of(file, key), "here"),
                    ),
                }
            }
            let rows = entry.cells.get_ref();
            let columns = rows
                .first()
                .map_or(0, |r| r.get_ref().graphemes(true).count());
            let mut cells = Vec::new();
            let mut whole = !rows.is_empty() && columns > 0;
            if rows.len() > MAX_BOARD_ROWS || columns > MAX_BOARD_COLUMNS {
                diagnostics.push(
                    Diagnostic::error(Code::LimitExceeded, format!("a board is at most {MAX_BOARD_COLUMNS} columns by {MAX_BOARD_ROWS} rows"))
                        .with_primary(origin_of(file, &entry.cells), format!("{columns} by {}", rows.len())),
                );
                whole = false;
            }
            if whole {
                for row in rows {
                    let text = row.get_ref();
                    if text.graphemes(true).count() != columns {
                        diagnostics.push(
                            Diagnostic::error(
                                Code::InvalidValue,
                                format!(
                                    "every row of a board has {columns} cells, as the first does"
                                ),
                            )
                            .with_primary(
                                origin_of(file, row),
                                crate::check::plural(text.graphemes(true).count() as u64, "cell"),
                            ),
                        );
                        whole = false;
                        break;
                    }
                    for (at, c) in text.grapheme_indices(true) {
                        match legend.get(c) {
                            Some(&ix) => cells.push(ix),
                            None => {
                                let span = row.span();
                                let offset = span.start + 1 + at;
                                diagnostics.push(
                                    Diagnostic::error(
                                        Code::UnknownName,
                                        format!("the board's legend has no `{c}`"),
                                    )
                                    .with_primary(
                                        Origin::new(file, offset..offset + c.len()),
                                        "this cell",
                                    )
                                    .with_help(format!("add `\"{c}\" = \"<symbol>\"` to `legend`")),
                                );
                                whole = false;
                            }
                        }
                    }
                }
            } else if rows.is_empty() || columns == 0 {
                diagnostics.push(
                    Diagnostic::error(
                        Code::EmptyGroup,
                        format!("the board `{}` has no cells", entry.id.get_ref()),
                    )
                    .with_primary(origin_of(file, &entry.cells), "empty"),
                );
            }
            let cell = entry.cell_mm.get_ref();
            let longest = columns.max(rows.len()) as f64 * cell;
            if whole && longest > MAX_BOARD_MM {
                diagnostics.push(
                    Diagnostic::error(
                        Code::LimitExceeded,
                        format!("the board `{}` is {longest:.0} mm long: a board is at most {MAX_BOARD_MM:.0} mm a side", entry.id.get_ref()),
                    )
                    .with_primary(origin_of(file, &entry.cell_mm), "this cell size")
                    .with_help("use smaller cells or fewer of them; a board that large is printed in parts, as boards of their own"),
                );
                whole = false;
            }
            if !whole {
                cells.clear();
            }
            self.boards.push(Board {
                id: located(file, &entry.id),
                name: entry.name.clone(),
                columns: if whole { columns } else { 0 },
                rows: if whole { rows.len() } else { 0 },
                cell_mm: in_range(
                    file,
                    &entry.cell_mm,
                    (5.0, 100.0),
                    "a board's cell",
                    diagnostics,
                ),
                cells,
                origin: origin_of(file, &entry.id),
            });
        }
    }

    /// Each sheet's layout is read through the folder, in the sheets' shared language with its
    /// terms as written, and its names reported as any sheet's are.
    fn sheets(
        &mut self,
        folder: &mut GameFolder,
        file: FileId,
        entries: &[SheetEntry],
        diagnostics: &mut Diagnostics,
    ) {
        for entry in entries {
            let at = origin_of(file, &entry.id);
            if self.sheets.len() >= MAX_SHEETS {
                let message = format!("a game has at most {MAX_SHEETS} sheets");
                return self.sheets_past_limit(message, at, diagnostics);
            }
            let layout =
                match folder.read(entry.layout.get_ref(), Some(origin_of(file, &entry.layout))) {
                    Ok(layout) => layout,
                    Err(diagnostic) => {
                        diagnostics.push(diagnostic);
                        continue;
                    }
                };
            let text = folder.source(layout).text.clone();
            // As for any sheet: nesting past the limit is refused before the parser
            // recurses into it.
            if let Some(at) = limits::kdl_nesting_past(&text, limits::MAX_KDL_DEPTH) {
                diagnostics.push(limits::too_deep(layout, at));
                continue;
            }
            let what = format!("the sheet `{}`", entry.id.get_ref());
            let dialect = safari_core::load::guide::Dialect {
                what: &what,
                one_fill_help: "write one term, without `,` (`a/b` for alternatives)",
            };
            let written = safari_core::load::guide::read(layout, &text, &dialect, diagnostics);
            written.names.report(folder, diagnostics);
            // All sheets together are laid out by `check` as one big sheet would be: they
            // hold at most as many boxes.
            let boxes: usize = self.sheets.iter().map(|s| s.guide.boxes.len()).sum();
            if boxes + written.guide.boxes.len() > limits::MAX_BOXES {
                let message = format!(
                    "the game's sheets hold more than {} boxes",
                    limits::MAX_BOXES
                );
                return self.sheets_past_limit(message, at, diagnostics);
            }
            let paper = entry.paper.as_ref().and_then(|paper| {
                crate::model::Paper::parse(paper.get_ref())
                    .map_err(|message| {
                        diagnostics.push(
                            Diagnostic::error(Code::InvalidValue, message)
                                .with_primary(origin_of(file, paper), "here"),
                        )
                    })
                    .ok()
            });
            // Defined once read, so that a sheet's index is its place in `sheets`.
            Self::define(
                &mut self.sheet_names,
                &entry.id,
                self.sheets.len(),
                file,
                diagnostics,
            );
            let key = &entry.key;
            self.sheets.push(Sheet {
                paper,
                id: located(file, &entry.id),
                name: entry.name.clone(),
                layout: located(file, &entry.layout),
                guide: written.guide,
                player_label: entry.player_label.clone(),
                score_label: entry.score_label.clone(),
                key: SheetKey {
                    needs: key.needs.clone(),
                    gives: key.gives.clone(),
                    bonus: key.bonus.clone(),
                    trigger: key.trigger.clone(),
                    free: key.free.clone(),
                },
                origin: at,
            });
        }
    }

    /// Reports, once, that the sheet at `at` and those after it pass a limit (`message`).
    fn sheets_past_limit(&mut self, message: String, at: Origin, diagnostics: &mut Diagnostics) {
        if !std::mem::replace(&mut self.sheets_over_limit, true) {
            diagnostics.push(
                Diagnostic::error(Code::LimitExceeded, message)
                    .with_primary(at, "the first sheet past the limit")
                    .with_help("sheets past the limit are not read"),
            );
        }
    }

    fn pieces(&mut self, file: FileId, entries: &[PiecesEntry], diagnostics: &mut Diagnostics) {
        for entry in entries {
            let set_ix = self.pieces.len();
            Self::define(
                &mut self.piece_set_names,
                &entry.id,
                set_ix,
                file,
                diagnostics,
            );
            if entry.piece.is_empty() {
                Self::empty(file, &entry.id, "piece set", diagnostics);
            }
            let mut pieces = Vec::new();
            for piece in &entry.piece {
                let Some(symbol) = self.symbol(file, &piece.symbol) else {
                    continue;
                };
                let at = origin_of(file, &piece.id);
                if let Err(reason) = safari_core::load::check_id(piece.id.get_ref()) {
                    diagnostics.push(
                        Diagnostic::error(
                            Code::BadId,
                            format!(
                                "the piece id `{}` is not a valid id: it {reason}",
                                piece.id.get_ref()
                            ),
                        )
                        .with_primary(at, "this piece"),
                    );
                }
                if let Some(first) = pieces
                    .iter()
                    .find(|p: &&Piece| p.id.value == *piece.id.get_ref())
                {
                    diagnostics.push(
                        Diagnostic::error(
                            Code::DuplicateId,
                            format!(
                                "the piece id `{}` is defined twice in its set",
                                piece.id.get_ref()
                            ),
                        )
                        .with_primary(at, "defined again here")
                        .with_secondary(first.id.origin, "first defined here"),
                    );
                    continue;
                }
                pieces.push(Piece {
                    id: located(file, &piece.id),
                    symbol,
                    fields: piece
                        .fields
                        .iter()
                        .map(|(k, v)| (k.clone(), json_of(v)))
                        .collect(),
                });
            }
            let size = &entry.size_mm;
            self.pieces.push(PieceSet {
                id: located(file, &entry.id),
                name: entry.name.clone(),
                kind: entry.kind,
                size_mm: in_range(file, size, (5.0, 200.0), "a piece's size", diagnostics),
                pieces,
                origin: origin_of(file, &entry.id),
            });
        }
    }

    fn setups(
        &mut self,
        file: FileId,
        entries: &[SetupEntry],
        (min, max): (u32, u32),
        diagnostics: &mut Diagnostics,
    ) {
        for entry in entries {
            let at = origin_of(file, &entry.players);
            let player_count = |value: &toml::Value| {
                value
                    .as_integer()
                    .filter(|n| (1..=i64::from(limits::MAX_PLAYERS)).contains(n))
                    .map(|n| n as u32)
            };
            let players: Option<Vec<u32>> = match entry.players.get_ref() {
                toml::Value::Array(list) if !list.is_empty() => {
                    list.iter().map(player_count).collect()
                }
                toml::Value::Array(_) => None,
                one => player_count(one).map(|n| vec![n]),
            };
            let Some(mut players) = players else {
                diagnostics.push(
                    Diagnostic::error(
                        Code::InvalidValue,
                        format!(
                            "a setup's `players` is a player count from 1 to {}, or a list of them",
                            limits::MAX_PLAYERS
                        ),
                    )
                    .with_primary(at, "here"),
                );
                continue;
            };
            players.sort_unstable();
            players.dedup();
            for &n in &players {
                if !(min..=max).contains(&n) {
                    diagnostics.push(
                        Diagnostic::error(
                            Code::InvalidValue,
                            format!("a setup for {n} players, and the game is for {min} to {max}"),
                        )
                        .with_primary(at, "here")
                        .with_help("change the setup's `players`, or `[players]` in game.toml"),
                    );
                }
            }
            let deck = |this: &Self, name: &Spanned<String>| {
                this.deck_names
                    .resolve(name.get_ref(), origin_of(file, name))
            };
            let mut setup = Setup {
                players,
                origin: at,
                deals: Vec::new(),
                grids: Vec::new(),
                stacks: Vec::new(),
                removes: Vec::new(),
                places: Vec::new(),
                gives: Vec::new(),
            };
            for deal in &entry.deal {
                if let Some(d) = deck(self, &deal.deck) {
                    setup.deals.push(Deal {
                        deck: d,
                        each: *deal.each.get_ref(),
                        origin: origin_of(file, &deal.each),
                    });
                }
            }
            for grid in &entry.grid {
                if let Some(d) = deck(self, &grid.deck) {
                    let rows = count(file, &grid.rows, 100, "rows", diagnostics);
                    let columns = count(file, &grid.columns, 100, "columns", diagnostics);
                    setup.grids.push(Grid {
                        deck: d,
                        rows,
                        columns,
                        face_up: grid.face == FaceSide::Up,
                        origin: origin_of(file, &grid.deck),
                    });
                }
            }
            for stack in &entry.stack {
                if let Some(d) = deck(self, &stack.deck) {
                    setup.stacks.push(Stack {
                        deck: d,
                        face_up: stack.face == FaceSide::Up,
                        origin: origin_of(file, &stack.deck),
                    });
                }
            }
            for remove in &entry.remove {
                let Some(d) = deck(self, &remove.deck) else {
                    continue;
                };
                let name = format!("{}/{}", remove.deck.get_ref(), remove.card.get_ref());
                let found = self.decks[d]
                    .cards
                    .iter()
                    .position(|c| c.id.value == *remove.card.get_ref());
                match found {
                    Some(card) => setup.removes.push(Remove {
                        deck: d,
                        card,
                        origin: origin_of(file, &remove.card),
                    }),
                    None => {
                        let known = self.decks[d].cards.iter().map(|c| c.id.value.as_str());
                        diagnostics.push(
                            Diagnostic::error(Code::UnknownName, format!("unknown card `{name}`"))
                                .with_primary(
                                    origin_of(file, &remove.card),
                                    format!(
                                        "the deck `{}` has no card with this id",
                                        remove.deck.get_ref()
                                    ),
                                )
                                .with_suggestion(crate::diag::similar_name(
                                    remove.card.get_ref(),
                                    known,
                                )),
                        );
                    }
                }
            }
            for place in &entry.place {
                let piece = match place.piece.get_ref().split_once('/') {
                    Some((set, piece)) => self
                        .piece_set_names
                        .resolve(set, origin_of(file, &place.piece))
                        .and_then(|s| {
                            let found = self.pieces[s]
                                .pieces
                                .iter()
                                .position(|p| p.id.value == piece);
                            if found.is_none() {
                                let known =
                                    self.pieces[s].pieces.iter().map(|p| p.id.value.as_str());
                                diagnostics.push(
                                    Diagnostic::error(
                                        Code::UnknownName,
                                        format!("unknown piece `{}`", place.piece.get_ref()),
                                    )
                                    .with_primary(
                                        origin_of(file, &place.piece),
                                        format!("the set `{set}` has no piece `{piece}`"),
                                    )
                                    .with_suggestion(crate::diag::similar_name(piece, known)),
                                );
                            }
                            found.map(|p| (s, p))
                        }),
                    None => {
                        diagnostics.push(
                            Diagnostic::error(
                                Code::InvalidValue,
                                format!("`{}` does not name a piece", place.piece.get_ref()),
                            )
                            .with_primary(origin_of(file, &place.piece), "here")
                            .with_help(
                                "name a piece by its set and its id: `piece = \"pawns/red\"`",
                            ),
                        );
                        None
                    }
                };
                let board = self
                    .board_names
                    .resolve(place.board.get_ref(), origin_of(file, &place.board));
                let cell = match (Cell::parse(place.at.get_ref()), board) {
                    (Some(cell), Some(b))
                        if self.boards[b].contains(cell.column as i64, cell.row as i64) =>
                    {
                        Some(cell)
                    }
                    (_, Some(b)) if self.boards[b].cells.is_empty() => None,
                    (_, Some(b)) => {
                        let board = &self.boards[b];
                        diagnostics.push(
                            Diagnostic::error(
                                Code::InvalidValue,
                                format!(
                                    "`{}` is not a cell of the board `{}`",
                                    place.at.get_ref(),
                                    board.id.value
                                ),
                            )
                            .with_primary(origin_of(file, &place.at), "here")
                            .with_help(format!(
                                "cells are a column letter and a row number, from a1 to {}",
                                Cell {
                                    column: board.columns - 1,
                                    row: board.rows - 1
                                }
                                .name()
                            )),
                        );
                        None
                    }
                    (_, None) => None,
                };
                let facing = match &place.facing {
                    None => None,
                    Some(f) => match Facing::ALL.iter().find(|x| x.name() == f.get_ref()) {
                        Some(x) => Some(*x),
                        None => {
                            diagnostics.push(
                                Diagnostic::error(
                                    Code::InvalidValue,
                                    format!("`{}` is not a direction", f.get_ref()),
                                )
                                .with_primary(origin_of(file, f), "north, east, south or west"),
                            );
                            None
                        }
                    },
                };
                if let (Some(piece), Some(board), Some(at)) = (piece, board, cell) {
                    setup.places.push(Place {
                        piece,
                        board,
                        at,
                        facing,
                        origin: origin_of(file, &place.piece),
                    });
                }
            }
            for give in &entry.give {
                if let Some(t) = self
                    .token_names
                    .resolve(give.tokens.get_ref(), origin_of(file, &give.tokens))
                {
                    setup.gives.push(Give {
                        tokens: t,
                        each_kind: give.to == GiveTo::EachKind,
                        origin: origin_of(file, &give.tokens),
                    });
                }
            }
            self.setups.push(setup);
        }
    }

    /// The module's `[play]` keys: unknown keys refused, values resolved, defaults filled in.
    fn params(
        &self,
        module: &dyn Rules,
        rules_at: Origin,
        play: &BTreeMap<Spanned<String>, Spanned<toml::Value>>,
        file: FileId,
        diagnostics: &mut Diagnostics,
    ) -> BTreeMap<String, Param> {
        let keys = module.keys();
        let mut params = BTreeMap::new();
        for name in play.keys() {
            if !keys.iter().any(|k| k.name == name.get_ref()) {
                let known: Vec<&str> = keys.iter().map(|k| k.name).collect();
                diagnostics.push(
                    Diagnostic::error(
                        Code::InvalidValue,
                        format!(
                            "`[play]` has no key `{}` in {}",
                            name.get_ref(),
                            module.title()
                        ),
                    )
                    .with_primary(origin_of(file, name), "unknown key")
                    .with_help(
                        match crate::diag::similar_name(name.get_ref(), known.iter().copied()) {
                            Some(similar) => format!(
                                "a name with a similar spelling exists: `{similar}` (the keys are: {})",
                                known.join(", ")
                            ),
                            None if known.is_empty() => format!("{} reads no `[play]` keys", module.title()),
                            None => format!("the keys are: {}", known.join(", ")),
                        },
                    ),
                );
            }
        }
        // A default is the rules' own: a fault in one points at `rules`.
        let manifest = rules_at;
        for key in keys {
            let given = play.iter().find(|(k, _)| k.get_ref() == key.name);
            let (value, origin) = match (given, key.default) {
                (Some((_, value)), _) => (value.get_ref().clone(), origin_of(file, value)),
                (None, Some(default)) => (
                    match key.kind {
                        KeyKind::Count => toml::Value::Integer(default.parse().unwrap_or(0)),
                        KeyKind::Symbols => toml::Value::Array(
                            default
                                .split_whitespace()
                                .map(|id| toml::Value::String(id.to_string()))
                                .collect(),
                        ),
                        _ => toml::Value::String(default.to_string()),
                    },
                    manifest,
                ),
                // A key without a default may be left out.
                (None, None) => continue,
            };
            let wrong = |diagnostics: &mut Diagnostics| {
                diagnostics.push(
                    Diagnostic::error(
                        Code::InvalidValue,
                        match key.kind {
                            KeyKind::Count => format!(
                                "`{}` must be a whole number from {} to {}",
                                key.name, key.range.0, key.range.1
                            ),
                            kind => format!("`{}` must be {}", key.name, kind.describe()),
                        },
                    )
                    .with_primary(origin, "here")
                    .with_help(key.doc),
                );
            };
            let resolved = match (key.kind, &value) {
                (KeyKind::Count, toml::Value::Integer(n))
                    if (i64::from(key.range.0)..=i64::from(key.range.1)).contains(n) =>
                {
                    Some(ParamValue::Count(*n as u32))
                }
                (KeyKind::Field, toml::Value::String(s)) => Some(ParamValue::Field(s.clone())),
                (KeyKind::Symbols, toml::Value::Array(items))
                    if items.iter().all(toml::Value::is_str) =>
                {
                    let resolved: Vec<Option<usize>> = items
                        .iter()
                        .filter_map(toml::Value::as_str)
                        .map(|s| self.symbol_names.resolve(s, origin))
                        .collect();
                    resolved
                        .into_iter()
                        .collect::<Option<Vec<usize>>>()
                        .map(ParamValue::Symbols)
                }
                (kind, toml::Value::String(s)) if kind != KeyKind::Count => {
                    let (names, make): (&Names<usize>, fn(usize) -> ParamValue) = match kind {
                        KeyKind::Deck => (&self.deck_names, ParamValue::Deck),
                        KeyKind::Dice => (&self.dice_names, ParamValue::Dice),
                        KeyKind::Tiles => (&self.tile_names, ParamValue::Tiles),
                        KeyKind::Tokens => (&self.token_names, ParamValue::Tokens),
                        KeyKind::Board => (&self.board_names, ParamValue::Board),
                        KeyKind::Pieces => (&self.piece_set_names, ParamValue::Pieces),
                        KeyKind::Sheet => (&self.sheet_names, ParamValue::Sheet),
                        KeyKind::Symbol | KeyKind::Symbols | KeyKind::Count | KeyKind::Field => {
                            (&self.symbol_names, ParamValue::Symbol)
                        }
                    };
                    names.resolve(s, origin).map(make)
                }
                _ => {
                    wrong(diagnostics);
                    None
                }
            };
            if let Some(value_resolved) = resolved {
                params.insert(
                    key.name.to_string(),
                    Param {
                        value: value_resolved,
                        origin,
                        written: json_of(&value),
                    },
                );
            }
        }
        params
    }

    fn incomplete(&mut self) {
        for names in [
            &mut self.symbol_names,
            &mut self.deck_names,
            &mut self.dice_names,
            &mut self.tile_names,
            &mut self.token_names,
            &mut self.board_names,
            &mut self.piece_set_names,
            &mut self.sheet_names,
        ] {
            names.complete = false;
        }
    }

    fn report(&self, folder: &GameFolder, diagnostics: &mut Diagnostics) {
        self.symbol_names.report(folder, diagnostics);
        self.deck_names.report(folder, diagnostics);
        self.dice_names.report(folder, diagnostics);
        self.tile_names.report(folder, diagnostics);
        self.token_names.report(folder, diagnostics);
        self.board_names.report(folder, diagnostics);
        self.piece_set_names.report(folder, diagnostics);
        self.sheet_names.report(folder, diagnostics);
    }
}
