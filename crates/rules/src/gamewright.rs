//! Gamewright's Safari (David Parlett): a card game of animal suits valued 1 to 7.
//!
//! Each animal is a suit with one card of every value; the hyena suit counts against its
//! holder. Players hold a hand and swap cards with a face-down "jungle" grid whose size
//! depends on the player count. The checks hold the deck to that composition and each
//! player count's setup to dealing every card in play.

use std::collections::BTreeMap;

use serde_json::json;

use super::Rules;
use crate::components::params::ANY_COUNT;
use crate::components::{Key, KeyKind, Table};
use crate::diag::{Code, Diagnostic, Diagnostics};

pub struct Gamewright;

/// Turns in all after which a game of Swappin' Safari ends: taking face-up cards never turns
/// a card up, so without a limit players could play on for ever.
const SWAPPING_TURN_LIMIT: u32 = 150;

/// Where the rulebook is silent or unclear, what the engine does, and why.
const RULINGS: &[(&str, &str)] = &[
    (
        "Who plays first?",
        "Seat 1 (`turn.first_seat` 0), then in seat order: the rulebook's player to the left of the dealer, the dealer being the last seat.",
    ),
    (
        "Which cards does \"different from all other face-up animals in its row and column\" count?",
        "Face-up animal cards only: face-down cards are unknown and Safari Charlie cards are no animal.",
    ),
    (
        "May the card just taken be put straight back?",
        "Yes: it is in the hand, and any card of the hand that fits may be put down.",
    ),
    (
        "Is trading for a Safari Charlie a turn of its own?",
        "Yes: instead of taking a card, a player puts an animal from the hand where a Safari Charlie lies, and the Safari Charlie returns to the stack.",
    ),
    (
        "Are hands seen by the other players?",
        "No (`hands`: hidden); a card taken face up in Swappin' Safari is known to all, as everyone saw it taken.",
    ),
    (
        "What if no card fits and no Safari Charlie is left?",
        "The card taken goes back where it was and the game ends there (`no_card_fits`); with the rulebook's ends this only happens to a jungle dealt with no Safari Charlie cards.",
    ),
    (
        "When does Swappin' Safari end?",
        "When every jungle card is face up or the last Safari Charlie is played, as in the standard game, or after 150 turns in all (`end.turn_limit`): taking face-up cards never turns one up.",
    ),
    (
        "Which \"7\" cards break a tie?",
        "Every card of that value in the hand, whatever its animal, hyenas included: the rulebook counts \"number 7 cards\".",
    ),
];

const KEYS: &[Key] = &[
    Key {
        name: "animals",
        kind: KeyKind::Deck,
        default: Some("animals"),
        doc: "the deck of animal cards: each card's symbol is its suit",
        range: ANY_COUNT,
    },
    Key {
        name: "charlie",
        kind: KeyKind::Deck,
        default: Some("safari-charlie"),
        doc: "the Safari Charlie cards, played into the jungle in place of an animal",
        range: ANY_COUNT,
    },
    Key {
        name: "value",
        kind: KeyKind::Field,
        default: Some("value"),
        doc: "the card field holding an animal card's value",
        range: ANY_COUNT,
    },
    Key {
        name: "high",
        kind: KeyKind::Count,
        default: Some("7"),
        doc: "the highest value of a suit: each suit holds one card of every value from 1 to it",
        range: (1, 100),
    },
    Key {
        name: "penalty",
        kind: KeyKind::Symbol,
        default: Some("hyena"),
        doc: "the suit whose every card subtracts its value",
        range: ANY_COUNT,
    },
];

impl Rules for Gamewright {
    fn id(&self) -> &'static str {
        "gamewright-safari"
    }
    fn title(&self) -> &'static str {
        "Gamewright's Safari"
    }
    fn keys(&self) -> &'static [Key] {
        KEYS
    }

    fn check(&self, table: &Table, diagnostics: &mut Diagnostics) {
        let Some(params) = Params::of(table) else {
            return;
        };
        if let Some(charlie) = table.param("charlie")
            && charlie.index() == Some(params.animals)
        {
            diagnostics.push(
                Diagnostic::error(Code::InvalidValue, "`charlie` names the animal cards' deck")
                    .with_primary(charlie.origin, "the same deck as `animals`")
                    .with_help("the Safari Charlie cards are a deck of their own"),
            );
        }
        composition(table, &params, diagnostics);
        jungle(table, &params, diagnostics);
    }

    fn ruleset(&self, table: &Table) -> serde_json::Value {
        let written = |key: &str| table.param(key).map(|p| p.written.clone());
        let Some(params) = Params::of(table) else {
            return json!({});
        };
        let deck = &table.decks[params.animals];
        let mut suits: Vec<&str> = deck
            .cards
            .iter()
            .filter_map(|c| c.symbol.map(|s| table.symbol(s).id.value.as_str()))
            .collect();
        suits.dedup();
        let (min, max) = table.manifest.players;
        let setups: BTreeMap<String, serde_json::Value> = (min..=max)
            .filter_map(|n| {
                let setup = table.setup_for(n)?;
                let hand: u32 = setup.deals.iter().filter(|d| d.deck == params.animals).map(|d| d.each).sum();
                let grid = setup.grids.iter().find(|g| g.deck == params.animals)?;
                let removed: Vec<&str> = setup
                    .removes
                    .iter()
                    .map(|r| table.decks[r.deck].cards[r.card].id.value.as_str())
                    .collect();
                Some((n.to_string(), json!({ "hand": hand, "jungle": { "rows": grid.rows, "columns": grid.columns }, "removed": removed })))
            })
            .collect();
        json!({
            "animals": written("animals"),
            "charlie": written("charlie"),
            "value_field": written("value"),
            "high": params.high,
            "penalty": written("penalty"),
            "suits": suits,
            "setups": setups,
            "turn": {
                "first_seat": 0,
                "take": ["face_down"],
                "distinct_in": ["row", "column"],
                "charlie_when_none_fits": true,
                "trade_for_charlie": true,
            },
            "hands": "hidden",
            "scoring": { "best_of_suit": 1, "rest_of_suit": -1, "penalty_suit": -1 },
            "tie_break": "most_of_each_value_from_highest",
            "end": { "jungle_face_up": true, "last_charlie_played": true, "turn_limit": null },
            "variants": {
                "diagonal": { "turn": { "distinct_in": ["row", "column", "diagonal"] } },
                "swapping": {
                    "turn": { "take": ["face_down", "face_up"] },
                    "end": { "turn_limit": SWAPPING_TURN_LIMIT },
                },
            },
            "rulings": RULINGS
                .iter()
                .map(|(question, ruling)| json!({ "question": question, "ruling": ruling }))
                .collect::<Vec<_>>(),
        })
    }

    fn table_scripts(&self, table: &Table) -> Vec<super::TableScript> {
        if Params::of(table).is_none() {
            return Vec::new();
        }
        vec![super::TableScript {
            id: "score",
            name: format!("{}: count the score", table.manifest.name),
            description: "At the end (or to see where everyone stands): each hand scored as the rulebook scores it, and who wins, said in the chat.".to_string(),
            lua: include_str!("gamewright/score.lua"),
            room: None,
        }]
    }

    fn card_caption(&self, table: &Table, deck: usize, card: usize) -> Option<String> {
        let params = Params::of(table)?;
        let card = &table.decks[deck].cards[card];
        if deck != params.animals || card.symbol != Some(params.penalty) {
            return None;
        }
        let value = card.number(&params.value)?;
        Some(format!(
            "−{value} {} in your hand",
            if value == 1 { "point" } else { "points" }
        ))
    }
}

struct Params {
    animals: usize,
    value: String,
    high: u32,
    penalty: usize,
}

impl Params {
    fn of(table: &Table) -> Option<Params> {
        Some(Params {
            animals: table.param("animals")?.index()?,
            value: table.param("value")?.field()?.to_string(),
            high: table.param("high")?.count()?,
            penalty: table.param("penalty")?.index()?,
        })
    }
}

/// Every suit holds each value from 1 to `high` once.
fn composition(table: &Table, params: &Params, diagnostics: &mut Diagnostics) {
    let deck = &table.decks[params.animals];
    // suit -> value -> copies, with the first card of the suit for the label.
    let mut suits: BTreeMap<usize, (BTreeMap<i64, u32>, &crate::components::Card)> =
        BTreeMap::new();
    for card in &deck.cards {
        let Some(suit) = card.symbol else {
            diagnostics.push(
                Diagnostic::error(
                    Code::SuitComposition,
                    format!("the animal card `{}` has no suit", card.id.value),
                )
                .with_primary(card.origin, "no `symbol`")
                .with_help("give the card its animal: `symbol = \"lion\"`"),
            );
            continue;
        };
        let value = card
            .number(&params.value)
            .filter(|v| (1..=i64::from(params.high)).contains(v));
        let Some(value) = value else {
            diagnostics.push(
                Diagnostic::error(
                    Code::SuitComposition,
                    format!(
                        "the animal card `{}` has no value from 1 to {}",
                        card.id.value, params.high
                    ),
                )
                .with_primary(
                    card.origin,
                    format!("`{}` is missing or out of range", params.value),
                )
                .with_help(format!(
                    "give it `{} = N` with N from 1 to {} (`[play] high`)",
                    params.value, params.high
                )),
            );
            continue;
        };
        let entry = suits.entry(suit).or_insert_with(|| (BTreeMap::new(), card));
        *entry.0.entry(value).or_default() += card.copies;
    }
    for (suit, (values, first)) in suits {
        let missing: Vec<String> = (1..=i64::from(params.high))
            .filter(|v| !values.contains_key(v))
            .map(|v| v.to_string())
            .collect();
        let repeated: Vec<String> = values
            .iter()
            .filter(|(_, n)| **n > 1)
            .map(|(v, n)| format!("{v} ({n} cards)"))
            .collect();
        if missing.is_empty() && repeated.is_empty() {
            continue;
        }
        let name = &table.symbol(suit).label;
        let mut what = Vec::new();
        if !missing.is_empty() {
            what.push(format!("no {}", missing.join(", ")));
        }
        if !repeated.is_empty() {
            what.push(format!("{} more than once", repeated.join(", ")));
        }
        diagnostics.push(
            Diagnostic::error(
                Code::SuitComposition,
                format!(
                    "the {name} suit does not hold each value from 1 to {} once: {}",
                    params.high,
                    what.join("; ")
                ),
            )
            .with_primary(first.origin, format!("the {name} cards start here"))
            .with_help(format!(
                "each suit has one card of every value from 1 to {} (`[play] high`)",
                params.high
            )),
        );
    }
}

/// For each player count, the hands and the jungle deal exactly the animal cards in play.
fn jungle(table: &Table, params: &Params, diagnostics: &mut Diagnostics) {
    let deck = &table.decks[params.animals];
    let (min, max) = table.manifest.players;
    for players in min..=max {
        // A missing setup is the component layer's report (SZ0311).
        let Some(setup) = table.setup_for(players) else {
            continue;
        };
        let removed = setup
            .removes
            .iter()
            .filter(|r| r.deck == params.animals)
            .count() as u64;
        let in_play = u64::from(deck.physical()).saturating_sub(removed);
        let hands: u64 = setup
            .deals
            .iter()
            .filter(|d| d.deck == params.animals)
            .map(|d| u64::from(d.each) * u64::from(players))
            .sum();
        let grids: Vec<_> = setup
            .grids
            .iter()
            .filter(|g| g.deck == params.animals)
            .collect();
        let Some(grid) = grids.first() else {
            diagnostics.push(
                Diagnostic::error(
                    Code::JungleDeal,
                    format!("the setup for {players} players lays out no jungle"),
                )
                .with_primary(setup.origin, "no `grid` of the animal cards")
                .with_help(format!(
                    "add `grid = [{{ deck = \"{}\", rows = R, columns = C }}]`",
                    deck.id.value
                )),
            );
            continue;
        };
        let cells: u64 = grids
            .iter()
            .map(|g| u64::from(g.rows) * u64::from(g.columns))
            .sum();
        // Dealing more than the deck holds is the component layer's report (SZ0310).
        if hands + cells < in_play {
            let left = in_play - hands - cells;
            let mut diagnostic = Diagnostic::error(
                Code::JungleDeal,
                format!("with {players} players the hands and the jungle deal {} of the {in_play} animal cards in play: {left} left over", hands + cells),
            )
            .with_primary(grid.origin, format!("{} by {}: {} cards", grid.rows, grid.columns, cells))
            .with_secondary(setup.origin, format!("{players} players: {hands} cards in hands"));
            for remove in setup.removes.iter().filter(|r| r.deck == params.animals) {
                diagnostic = diagnostic.with_secondary(remove.origin, "out of play");
            }
            diagnostics.push(diagnostic.with_help(
                "every animal card not in a hand lies in the jungle: enlarge the grid, deal more, or remove the cards left over from play",
            ));
        }
    }
}
