//! The checks every game of components gets, whatever its rules: decks hold what they
//! declare, and every setup can be carried out with the components there are.

use std::collections::HashMap;

use super::*;
use crate::diag::{Code, Diagnostic, Diagnostics};

pub fn check(table: &Table, diagnostics: &mut Diagnostics) {
    for deck in &table.decks {
        deck_size(deck, diagnostics);
    }
    coverage(table, diagnostics);
    for deck in &table.decks {
        corner(deck, diagnostics);
    }
    for set in table
        .tiles
        .iter()
        .map(|t| (&t.id, &t.kinds))
        .chain(table.tokens.iter().map(|t| (&t.id, &t.kinds)))
    {
        kinds_once(table, set, diagnostics);
    }
    for setup in &table.setups {
        removals(table, setup, diagnostics);
        for &players in &setup.players {
            supply(table, setup, players, diagnostics);
        }
        collisions(table, setup, diagnostics);
    }
}

fn deck_size(deck: &Deck, diagnostics: &mut Diagnostics) {
    if deck.cards.is_empty() {
        diagnostics.push(
            Diagnostic::error(
                Code::EmptyGroup,
                format!("the deck `{}` has no cards", deck.id.value),
            )
            .with_primary(deck.id.origin, "empty")
            .with_help("add cards with `[[deck.card]]`, or remove the deck"),
        );
        return;
    }
    if let Some(size) = &deck.size
        && deck.physical() != size.value
    {
        diagnostics.push(
            Diagnostic::error(
                Code::DeckSize,
                format!(
                    "the deck `{}` declares {} cards and holds {}",
                    deck.id.value,
                    size.value,
                    deck.physical()
                ),
            )
            .with_primary(size.origin, format!("{} declared", size.value))
            .with_secondary(
                deck.id.origin,
                format!("{} cards counting copies", deck.physical()),
            )
            .with_help("change a card's copies, add or remove a card, or correct `size`"),
        );
    }
}

/// When a game gives setups, each player count has one.
fn coverage(table: &Table, diagnostics: &mut Diagnostics) {
    if table.setups.is_empty() {
        return;
    }
    let (min, max) = table.manifest.players;
    for players in min..=max {
        let covering: Vec<&Setup> = table
            .setups
            .iter()
            .filter(|s| s.players.contains(&players))
            .collect();
        match covering.as_slice() {
            [] => diagnostics.push(
                Diagnostic::error(
                    Code::SetupCoverage,
                    format!("no setup for {players} players"),
                )
                .with_primary(
                    table.manifest.players_origin,
                    format!("the game is for {min} to {max} players"),
                )
                .with_help(format!(
                    "add {players} to a setup's `players`, or narrow `[players]`"
                )),
            ),
            [_] => {}
            [first, second, ..] => diagnostics.push(
                Diagnostic::error(
                    Code::SetupCoverage,
                    format!("two setups for {players} players"),
                )
                .with_primary(second.origin, "this one")
                .with_secondary(first.origin, "and this one")
                .with_help(format!("keep {players} in one setup's `players`")),
            ),
        }
    }
}

/// Cards a setup deals and lays out against each deck's cards in play, and token colours
/// against players.
fn supply(table: &Table, setup: &Setup, players: u32, diagnostics: &mut Diagnostics) {
    for (ix, deck) in table.decks.iter().enumerate() {
        let removed = setup.removes.iter().filter(|r| r.deck == ix).count() as u64;
        let in_play = u64::from(deck.physical()).saturating_sub(removed);
        let deals: Vec<&Deal> = setup.deals.iter().filter(|d| d.deck == ix).collect();
        let grids: Vec<&Grid> = setup.grids.iter().filter(|g| g.deck == ix).collect();
        let dealt: u64 = deals
            .iter()
            .map(|d| u64::from(d.each) * u64::from(players))
            .sum();
        let laid: u64 = grids
            .iter()
            .map(|g| u64::from(g.rows) * u64::from(g.columns))
            .sum();
        if dealt + laid > in_play {
            let mut diagnostic = Diagnostic::error(
                Code::SetupShort,
                format!(
                    "with {} the setup takes {} of the deck `{}`, which has {in_play} in play",
                    plural(u64::from(players), "player"),
                    plural(dealt + laid, "card"),
                    deck.id.value
                ),
            )
            .with_primary(
                setup.origin,
                format!(
                    "{}: {} short",
                    plural(u64::from(players), "player"),
                    plural(dealt + laid - in_play, "card")
                ),
            );
            for deal in deals {
                diagnostic = diagnostic.with_secondary(
                    deal.origin,
                    format!(
                        "{} each: {} cards",
                        deal.each,
                        u64::from(deal.each) * u64::from(players)
                    ),
                );
            }
            for grid in grids {
                diagnostic = diagnostic.with_secondary(
                    grid.origin,
                    format!(
                        "{} by {}: {} cards",
                        grid.rows,
                        grid.columns,
                        grid.rows * grid.columns
                    ),
                );
            }
            diagnostics.push(
                diagnostic.with_help("deal fewer cards, shrink the grid, or add cards to the deck"),
            );
        }
    }
    for give in &setup.gives {
        let tokens = &table.tokens[give.tokens];
        if give.each_kind && (tokens.kinds.len() as u32) < players {
            diagnostics.push(
                Diagnostic::error(
                    Code::SetupShort,
                    format!(
                        "with {} the setup hands a kind of `{}` to each, and there are {}",
                        plural(u64::from(players), "player"),
                        tokens.id.value,
                        tokens.kinds.len()
                    ),
                )
                .with_primary(give.origin, plural(u64::from(players), "player"))
                .with_secondary(tokens.id.origin, format!("{} kinds", tokens.kinds.len()))
                .with_help("add a kind (a colour) for each player, or lower `[players] max`"),
            );
        }
    }
}

fn collisions(table: &Table, setup: &Setup, diagnostics: &mut Diagnostics) {
    let mut pieces: HashMap<(usize, usize), &Place> = HashMap::new();
    let mut cells: HashMap<(usize, Cell), &Place> = HashMap::new();
    for place in &setup.places {
        let name = |p: (usize, usize)| {
            let set = &table.pieces[p.0];
            format!("{}/{}", set.id.value, set.pieces[p.1].id.value)
        };
        if let Some(first) = pieces.insert(place.piece, place) {
            diagnostics.push(
                Diagnostic::error(
                    Code::SetupCollision,
                    format!("`{}` is placed twice", name(place.piece)),
                )
                .with_primary(place.origin, "placed again here")
                .with_secondary(first.origin, "first placed here"),
            );
        } else if let Some(first) = cells.insert((place.board, place.at), place) {
            diagnostics.push(
                Diagnostic::error(
                    Code::SetupCollision,
                    format!(
                        "`{}` and `{}` both start on {}",
                        name(first.piece),
                        name(place.piece),
                        place.at.name()
                    ),
                )
                .with_primary(place.origin, "placed here")
                .with_secondary(first.origin, "on the same cell as this"),
            );
        }
    }
}

pub use safari_core::words::plural;

/// The corner field is one the deck's cards have.
fn corner(deck: &Deck, diagnostics: &mut Diagnostics) {
    if let Some(corner) = &deck.corner
        && !deck.cards.is_empty()
        && !deck
            .cards
            .iter()
            .any(|c| c.fields.contains_key(&corner.value))
    {
        diagnostics.push(
            Diagnostic::error(
                Code::UnknownName,
                format!(
                    "no card of the deck `{}` has the field `{}`",
                    deck.id.value, corner.value
                ),
            )
            .with_primary(corner.origin, "printed in the corners")
            .with_help("name a field the cards have, or give the cards this field"),
        );
    }
}

/// A set lists each kind (symbol) once: two entries of one symbol are one kind written twice.
fn kinds_once(
    table: &Table,
    (id, kinds): (&crate::model::Located<String>, &Vec<Kind>),
    diagnostics: &mut Diagnostics,
) {
    for (i, kind) in kinds.iter().enumerate() {
        if let Some(first) = kinds[..i].iter().find(|k| k.symbol == kind.symbol) {
            diagnostics.push(
                Diagnostic::error(
                    Code::DuplicateId,
                    format!(
                        "the set `{}` lists the kind `{}` twice",
                        id.value,
                        table.symbol(kind.symbol).id.value
                    ),
                )
                .with_primary(kind.origin, "listed again here")
                .with_secondary(first.origin, "first listed here")
                .with_help("give the kind one entry, with the sum of the counts"),
            );
        }
    }
}

/// A setup removes no more copies of a card than the deck prints.
fn removals(table: &Table, setup: &Setup, diagnostics: &mut Diagnostics) {
    let mut counted: HashMap<(usize, usize), u32> = HashMap::new();
    for remove in &setup.removes {
        let n = counted.entry((remove.deck, remove.card)).or_default();
        *n += 1;
        let card = &table.decks[remove.deck].cards[remove.card];
        if *n > card.copies {
            diagnostics.push(
                Diagnostic::error(
                    Code::SetupShort,
                    format!(
                        "the setup removes `{}` {} times, and the deck prints {}",
                        card.id.value,
                        n,
                        plural(u64::from(card.copies), "copy")
                    ),
                )
                .with_primary(remove.origin, "removed again here")
                .with_help("remove each copy once"),
            );
        }
    }
}
