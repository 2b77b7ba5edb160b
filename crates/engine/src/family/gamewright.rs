//! Gamewright's Safari (David Parlett), played from its ruleset.
//!
//! A turn takes a card from the jungle grid into the hand and puts a card from the hand face
//! up in its place, unlike every face-up animal in the lines the rules name; a Safari Charlie
//! stands in when no card fits, and may be traded back for an animal. Hands and the face-down
//! jungle are hidden; nothing is random after the deal, so the deal is the game's seed.
//!
//! Every rule read here is in the ruleset's `rules` (docs/ruleset.md, "gamewright-safari"):
//! which cards may be taken, the lines a card must be unique in, what a suit scores, the
//! tie-break and the ends. The rulings where the rulebook is silent are listed there too.

use std::collections::BTreeMap;
use std::sync::Arc;

use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_pcg::Pcg64Mcg;
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::ruleset::{self, Components, thousands};
use super::{ENGINE_TURN_LIMIT, MOST_TURNS, Outcome, Play, Start};
use crate::LoadError;

/// The module id in `game.rules`.
pub const ID: &str = "gamewright-safari";

/// The `rules` of the ruleset, as the engine reads them.
#[derive(Debug, Clone, Deserialize)]
struct Written {
    animals: String,
    charlie: String,
    value_field: String,
    penalty: String,
    setups: BTreeMap<String, SetupWritten>,
    turn: Turn,
    scoring: Scoring,
    tie_break: TieBreak,
    end: End,
}

#[derive(Debug, Clone, Deserialize)]
struct SetupWritten {
    hand: u32,
    jungle: Grid,
    #[serde(default)]
    removed: Vec<String>,
}

#[derive(Debug, Clone, Copy, Deserialize)]
struct Grid {
    rows: u32,
    columns: u32,
}

/// What a turn may do.
#[derive(Debug, Clone, Deserialize)]
pub struct Turn {
    /// The seat that plays first.
    pub first_seat: usize,
    /// Which jungle cards may be taken: `face_down`, and `face_up` in Swappin' Safari.
    pub take: Vec<Face>,
    /// The lines a card put down must be the only one of its animal in.
    pub distinct_in: Vec<Line>,
    /// With no card that fits, a Safari Charlie from the stack is put down instead.
    pub charlie_when_none_fits: bool,
    /// An animal may be traded for a Safari Charlie in the jungle, which returns to the stack.
    pub trade_for_charlie: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Face {
    FaceDown,
    FaceUp,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Line {
    Row,
    Column,
    Diagonal,
}

/// Points per card at the end: the best card of a suit, the others of its suit, and every
/// card of the penalty suit, each times its value.
#[derive(Debug, Clone, Copy, Deserialize)]
pub struct Scoring {
    pub best_of_suit: i64,
    pub rest_of_suit: i64,
    pub penalty_suit: i64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TieBreak {
    /// Most cards of the highest value in hand, then of the next value down, and so on.
    MostOfEachValueFromHighest,
}

/// When the game ends, checked after every turn.
#[derive(Debug, Clone, Copy, Deserialize)]
pub struct End {
    pub jungle_face_up: bool,
    pub last_charlie_played: bool,
    /// Turns in all after which the game ends, or none.
    pub turn_limit: Option<u32>,
}

/// A card of the game: its id, suit (an index into `suits`) and value.
#[derive(Debug, Clone)]
pub struct CardInfo {
    pub id: String,
    pub title: String,
    pub suit: u8,
    pub value: i64,
}

/// The rules of one game, ready to deal.
#[derive(Debug)]
pub struct Rules {
    pub name: String,
    pub players: (usize, usize),
    pub cards: Vec<CardInfo>,
    /// Suit ids, in deck order; `penalty` is one of them.
    pub suits: Vec<String>,
    pub suit_labels: Vec<String>,
    pub penalty: u8,
    pub charlies: u32,
    pub turn: Turn,
    pub scoring: Scoring,
    pub tie_break: TieBreak,
    pub end: End,
    setups: BTreeMap<usize, Setup>,
    /// The steps along the lines of `turn.distinct_in`, both ways.
    directions: Vec<(i32, i32)>,
}

#[derive(Debug, Clone)]
struct Setup {
    hand: usize,
    rows: usize,
    columns: usize,
    removed: Vec<u8>,
}

/// The most cards a game deals: card indexes are bytes.
const MOST_CARDS: usize = 250;
/// The most suits a game has.
const MOST_SUITS: usize = 64;
/// The largest jungle side read.
const MOST_SIDE: u32 = 40;

impl Rules {
    /// The rules of a components ruleset whose module is this game's, with `variants` applied.
    pub fn read(components: &Components, variants: &[String]) -> Result<Rules, LoadError> {
        let written: Written = ruleset::rules_for(components, ID, variants)?;
        let deck = components.deck(&written.animals).ok_or_else(|| {
            ruleset::fault(
                "rules.animals",
                format!("no deck `{}` in `decks`", written.animals),
            )
        })?;
        let mut suits: Vec<String> = Vec::new();
        let mut cards = Vec::new();
        for (i, card) in deck.cards.iter().enumerate() {
            let path = format!("decks[{}].cards[{i}]", written.animals);
            let suit = card
                .symbol
                .clone()
                .ok_or_else(|| ruleset::fault(&path, "an animal card has no suit (`symbol`)"))?;
            let value = card
                .fields
                .get(&written.value_field)
                .and_then(|v| v.as_i64())
                .ok_or_else(|| {
                    ruleset::fault(
                        &path,
                        format!("no whole-number field `{}`", written.value_field),
                    )
                })?;
            let index = match suits.iter().position(|s| *s == suit) {
                Some(index) => index,
                None => {
                    suits.push(suit.clone());
                    suits.len() - 1
                }
            };
            for _ in 0..card.copies {
                cards.push(CardInfo {
                    id: card.id.clone(),
                    title: card.title.clone(),
                    suit: index as u8,
                    value,
                });
            }
            if cards.len() > MOST_CARDS || suits.len() > MOST_SUITS {
                return Err(ruleset::fault(
                    &path,
                    format!(
                        "the engine plays at most {MOST_CARDS} animal cards of {MOST_SUITS} suits"
                    ),
                ));
            }
        }
        let penalty = suits
            .iter()
            .position(|s| *s == written.penalty)
            .unwrap_or(usize::MAX);
        let charlies = components
            .deck(&written.charlie)
            .ok_or_else(|| {
                ruleset::fault(
                    "rules.charlie",
                    format!("no deck `{}` in `decks`", written.charlie),
                )
            })?
            .cards
            .iter()
            .map(|c| c.copies)
            .sum::<u32>();
        let mut setups = BTreeMap::new();
        for (players, setup) in &written.setups {
            let path = format!("rules.setups.{players}");
            let count: usize = players
                .parse()
                .map_err(|_| ruleset::fault(&path, "a player count is a whole number"))?;
            if setup.jungle.rows > MOST_SIDE || setup.jungle.columns > MOST_SIDE {
                return Err(ruleset::fault(
                    &path,
                    format!("a jungle side is at most {MOST_SIDE} cards"),
                ));
            }
            let removed = setup
                .removed
                .iter()
                .map(|id| {
                    cards
                        .iter()
                        .position(|c| c.id == *id)
                        .map(|i| i as u8)
                        .ok_or_else(|| {
                            ruleset::fault(&path, format!("`{id}` is not an animal card"))
                        })
                })
                .collect::<Result<Vec<_>, _>>()?;
            setups.insert(
                count,
                Setup {
                    hand: setup.hand as usize,
                    rows: setup.jungle.rows as usize,
                    columns: setup.jungle.columns as usize,
                    removed,
                },
            );
        }
        let (min, max) = (
            components.game.players[0] as usize,
            components.game.players[1] as usize,
        );
        if let Some(limit) = written.end.turn_limit
            && limit > MOST_TURNS
        {
            return Err(ruleset::past_most_turns(
                "rules.end.turn_limit",
                format!("{} turns have been played", thousands(limit.into())),
                limit.into(),
            ));
        }
        if written.turn.take.is_empty() {
            return Err(ruleset::fault(
                "rules.turn.take",
                "a turn must be able to take some card",
            ));
        }
        let mut directions = Vec::new();
        for line in &written.turn.distinct_in {
            match line {
                Line::Row => directions.extend([(0, 1), (0, -1)]),
                Line::Column => directions.extend([(1, 0), (-1, 0)]),
                Line::Diagonal => directions.extend([(1, 1), (-1, -1), (1, -1), (-1, 1)]),
            }
        }
        directions.sort_unstable();
        directions.dedup();
        Ok(Rules {
            directions,
            name: components.game.name.clone(),
            players: (min, max),
            suit_labels: suits.iter().map(|s| components.label(s)).collect(),
            cards,
            suits,
            penalty: penalty.min(255) as u8,
            charlies,
            turn: written.turn,
            scoring: written.scoring,
            tie_break: written.tie_break,
            end: written.end,
            setups,
        })
    }

    /// What a hand of cards scores (card indexes).
    pub fn score(&self, hand: &[u8]) -> i64 {
        self.score_of(hand.iter().copied())
    }

    fn score_of(&self, hand: impl Iterator<Item = u8>) -> i64 {
        let mut best = [i64::MIN; MOST_SUITS];
        let mut total = 0;
        for card in hand {
            let info = &self.cards[card as usize];
            if info.suit == self.penalty {
                total += self.scoring.penalty_suit * info.value;
                continue;
            }
            total += self.scoring.rest_of_suit * info.value;
            let best = &mut best[info.suit as usize];
            *best = (*best).max(info.value);
        }
        // Each suit's best card was counted as one of the rest: count it as the best instead.
        for value in best.iter().filter(|v| **v != i64::MIN) {
            total += (self.scoring.best_of_suit - self.scoring.rest_of_suit) * value;
        }
        total
    }

    /// The tie-break key of a hand: how many cards of each value, from the highest down.
    fn tie_key(&self, hand: &[u8]) -> Vec<usize> {
        match self.tie_break {
            TieBreak::MostOfEachValueFromHighest => {
                let mut values: Vec<i64> = self.cards.iter().map(|c| c.value).collect();
                values.sort_unstable_by(|a, b| b.cmp(a));
                values.dedup();
                values
                    .iter()
                    .map(|v| {
                        hand.iter()
                            .filter(|&&c| self.cards[c as usize].value == *v)
                            .count()
                    })
                    .collect()
            }
        }
    }

    /// The rules in a few sentences, as read.
    pub fn summary(&self) -> Vec<String> {
        let turn = &self.turn;
        let faces: Vec<&str> = turn
            .take
            .iter()
            .map(|face| match face {
                Face::FaceDown => "face-down",
                Face::FaceUp => "face-up",
            })
            .collect();
        let lines: Vec<&str> = turn
            .distinct_in
            .iter()
            .map(|line| match line {
                Line::Row => "row",
                Line::Column => "column",
                Line::Diagonal => "diagonal",
            })
            .collect();
        let mut summary = vec![format!(
            "On your turn take a {} card from the jungle into your hand, then put a card of your hand face up where it lay: no other face-up card of its animal may lie in its {}.",
            faces.join(" or "),
            lines.join(" or ")
        )];
        if turn.charlie_when_none_fits && self.charlies > 0 {
            summary.push(
                "When no card of your hand fits there, put a Safari Charlie from the stack down instead."
                    .to_string(),
            );
        }
        if turn.trade_for_charlie {
            summary.push("Instead of taking a card, you may put a card of your hand where a Safari Charlie lies, if it fits there; the Charlie goes back to the stack.".to_string());
        }
        // A penalty suit no card has (a ruleset's `penalty` may name none) scores nothing.
        let penalty = match self.suit_labels.get(self.penalty as usize) {
            Some(penalty) => format!(
                ", and each {penalty} its value × {}",
                self.scoring.penalty_suit
            ),
            None => String::new(),
        };
        summary.push(format!(
            "Scoring: the best card of each animal in your hand adds its value × {}, each other card of that animal its value × {}{penalty}. Ties go to the most cards of the highest value, then the next.",
            self.scoring.best_of_suit, self.scoring.rest_of_suit
        ));
        let mut ends = Vec::new();
        if self.end.jungle_face_up {
            ends.push("when no face-down card is left in the jungle".to_string());
        }
        if self.end.last_charlie_played {
            ends.push("when the last Safari Charlie is put down".to_string());
        }
        if let Some(limit) = self.end.turn_limit {
            ends.push(format!("after {limit} turns in all"));
        }
        if !ends.is_empty() {
            summary.push(format!("The game ends {}.", ends.join(", or ")));
        }
        summary
    }

    pub fn card_name(&self, card: u8) -> String {
        let info = &self.cards[card as usize];
        format!("{} {}", self.suit_labels[info.suit as usize], info.value)
    }
}

/// The rules with the variants a table chose, as a game to start.
#[derive(Clone)]
pub struct Game {
    pub rules: Arc<Rules>,
}

impl Game {
    pub fn read(bytes: &[u8], variants: &[String]) -> Result<Game, LoadError> {
        let components = ruleset::read(bytes)?;
        Ok(Game {
            rules: Arc::new(Rules::read(&components, variants)?),
        })
    }
}

impl Start for Game {
    type Game = Table;

    fn start(&self, players: usize, seed: u64) -> Result<Table, String> {
        let rules = &self.rules;
        if players == 0 {
            return Err("a game has at least one player".to_string());
        }
        let setup = rules
            .setups
            .get(&players)
            .ok_or_else(|| format!("{} has no setup for {players} players", rules.name))?;
        let mut deck: Vec<u8> = (0..rules.cards.len() as u8)
            .filter(|c| !setup.removed.contains(c))
            .collect();
        let cells = setup.rows * setup.columns;
        let needed = setup.hand * players + cells;
        if needed != deck.len() {
            return Err(format!(
                "with {players} players the hands and the jungle take {needed} cards, but {} animal cards are in play: every card not in a hand lies in the jungle",
                deck.len()
            ));
        }
        deck.shuffle(&mut Pcg64Mcg::seed_from_u64(seed));
        let mut cards = deck.into_iter();
        let hands = (0..players)
            .map(|_| {
                cards
                    .by_ref()
                    .take(setup.hand)
                    .map(|card| Held {
                        card,
                        public: false,
                    })
                    .collect()
            })
            .collect();
        let jungle = cards.map(Cell::Down).collect();
        let mut table = Table {
            rules: rules.clone(),
            rows: setup.rows,
            columns: setup.columns,
            hands,
            jungle,
            stack: rules.charlies,
            seat: rules.turn.first_seat % players,
            turns: 0,
            holding: None,
            over: None,
            charlies_played: 0,
            work: 0,
        };
        if table.no_turn_possible() {
            table.over = Some("no_turn_possible");
        }
        Ok(table)
    }

    fn players(&self) -> (usize, usize) {
        self.rules.players
    }

    fn name(&self) -> &str {
        &self.rules.name
    }

    fn summary(&self) -> Vec<String> {
        self.rules.summary()
    }
}

/// A card in a hand, and whether every seat knows it is there (it was taken face up).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Held {
    card: u8,
    public: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cell {
    Down(u8),
    Up(u8),
    Charlie,
    /// Taken from, its replacement not yet put down.
    Empty,
}

/// One decision. A turn is `take` then `put` (or `charlie`), or a single `trade`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "do", rename_all = "snake_case")]
pub enum Action {
    /// Take the jungle card at `cell` (row by row from the top left) into the hand.
    Take { cell: u8 },
    /// Put this card from the hand face up where the card was taken.
    Put { card: u8 },
    /// Put a Safari Charlie from the stack there instead: no card in the hand fits.
    Charlie,
    /// Put this card from the hand where the Safari Charlie at `cell` lies; it returns to the stack.
    Trade { card: u8, cell: u8 },
}

/// The table between two decisions.
#[derive(Debug, Clone)]
pub struct Table {
    rules: Arc<Rules>,
    rows: usize,
    columns: usize,
    hands: Vec<Vec<Held>>,
    jungle: Vec<Cell>,
    /// Safari Charlie cards in the stack.
    stack: u32,
    seat: usize,
    turns: u32,
    /// The cell taken from this turn and the card taken.
    holding: Option<(u8, u8)>,
    over: Option<&'static str>,
    charlies_played: u32,
    /// Cards tried in cells so far ([`Play::work`]).
    work: u64,
}

impl Table {
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Whether `card` may lie face up at `cell`: no other face-up card of its suit in the
    /// lines the rules name (Safari Charlie cards block nothing).
    fn fits(&self, card: u8, cell: usize) -> bool {
        let suit = self.rules.cards[card as usize].suit;
        let (row, column) = ((cell / self.columns) as i32, (cell % self.columns) as i32);
        for &(dr, dc) in &self.rules.directions {
            let (mut r, mut c) = (row + dr, column + dc);
            while r >= 0 && c >= 0 && (r as usize) < self.rows && (c as usize) < self.columns {
                if let Cell::Up(other) = self.jungle[r as usize * self.columns + c as usize]
                    && self.rules.cards[other as usize].suit == suit
                {
                    return false;
                }
                r += dr;
                c += dc;
            }
        }
        true
    }

    /// The cards listing the actions tries in cells besides those it offers: each card of the
    /// hand where the card was taken, or where each Safari Charlie lies when trades are played.
    fn listing_work(&self) -> u64 {
        let hand = self.hands[self.seat].len() as u64;
        let cells = if self.holding.is_some() {
            1
        } else if self.rules.turn.trade_for_charlie {
            self.jungle.iter().filter(|c| **c == Cell::Charlie).count() as u64
        } else {
            0
        };
        hand * cells
    }

    /// Why `card` may not lie face up at `cell`: the face-up card of its animal in one of the
    /// lines the rules name, and which line.
    fn clash(&self, card: u8, cell: usize) -> Option<String> {
        let suit = self.rules.cards[card as usize].suit;
        let (row, column) = ((cell / self.columns) as i32, (cell % self.columns) as i32);
        for &(dr, dc) in &self.rules.directions {
            let (mut r, mut c) = (row + dr, column + dc);
            while r >= 0 && c >= 0 && (r as usize) < self.rows && (c as usize) < self.columns {
                let at = r as usize * self.columns + c as usize;
                if let Cell::Up(other) = self.jungle[at]
                    && self.rules.cards[other as usize].suit == suit
                {
                    let line = match (dr, dc) {
                        (0, _) => "row",
                        (_, 0) => "column",
                        _ => "diagonal",
                    };
                    return Some(format!(
                        "the face-up {} at {} is in the same {line}",
                        self.rules.card_name(other),
                        self.cell_name(at as u8)
                    ));
                }
                r += dr;
                c += dc;
            }
        }
        None
    }

    fn hand_cards(&self, seat: usize) -> Vec<u8> {
        self.hands[seat].iter().map(|h| h.card).collect()
    }

    fn end_turn(&mut self) {
        self.turns += 1;
        let end = self.rules.end;
        self.over = if end.jungle_face_up && !self.jungle.iter().any(|c| matches!(c, Cell::Down(_)))
        {
            Some("jungle_face_up")
        } else if end.last_charlie_played && self.stack == 0 && self.charlies_played > 0 {
            Some("last_charlie_played")
        } else if end.turn_limit.is_some_and(|limit| self.turns >= limit) {
            Some("turn_limit")
        } else if self.turns >= MOST_TURNS {
            // Rules that let players take face-up cards with no limit of their own, and no
            // other end, would otherwise go on for ever.
            Some(ENGINE_TURN_LIMIT)
        } else {
            None
        };
        self.seat = (self.seat + 1) % self.hands.len();
        if self.over.is_none() && self.no_turn_possible() {
            self.over = Some("no_turn_possible");
        }
    }

    /// Nothing to take and nothing to trade: the rules' ends did not stop a game that cannot go on.
    fn no_turn_possible(&self) -> bool {
        let take = &self.rules.turn.take;
        let takeable = self.jungle.iter().any(|cell| match cell {
            Cell::Down(_) => take.contains(&Face::FaceDown),
            Cell::Up(_) => take.contains(&Face::FaceUp),
            _ => false,
        });
        if takeable {
            return false;
        }
        let mut actions = Vec::new();
        self.legal(&mut actions);
        actions.is_empty()
    }

    fn cell_name(&self, cell: u8) -> String {
        let cell = cell as usize;
        format!(
            "row {}, column {}",
            cell / self.columns + 1,
            cell % self.columns + 1
        )
    }

    fn card_json(&self, card: u8) -> serde_json::Value {
        let info = &self.rules.cards[card as usize];
        json!({ "index": card, "id": info.id, "suit": self.rules.suits[info.suit as usize], "value": info.value })
    }
}

impl Play for Table {
    type Action = Action;

    fn seats(&self) -> usize {
        self.hands.len()
    }

    fn to_move(&self) -> Option<usize> {
        self.over.is_none().then_some(self.seat)
    }

    fn legal(&self, out: &mut Vec<Action>) {
        if self.over.is_some() {
            return;
        }
        if let Some((cell, _)) = self.holding {
            let before = out.len();
            // Card indexes are the physical cards: a hand holds each at most once.
            for held in &self.hands[self.seat] {
                if self.fits(held.card, cell as usize) {
                    out.push(Action::Put { card: held.card });
                }
            }
            if out.len() == before && self.rules.turn.charlie_when_none_fits && self.stack > 0 {
                out.push(Action::Charlie);
            }
            return;
        }
        let take_down = self.rules.turn.take.contains(&Face::FaceDown);
        let take_up = self.rules.turn.take.contains(&Face::FaceUp);
        for (cell, state) in self.jungle.iter().enumerate() {
            let takeable = match state {
                Cell::Down(_) => take_down,
                Cell::Up(_) => take_up,
                _ => false,
            };
            if takeable {
                out.push(Action::Take { cell: cell as u8 });
            }
        }
        if self.rules.turn.trade_for_charlie {
            for (cell, state) in self.jungle.iter().enumerate() {
                if *state == Cell::Charlie {
                    for held in &self.hands[self.seat] {
                        if self.fits(held.card, cell) {
                            out.push(Action::Trade {
                                card: held.card,
                                cell: cell as u8,
                            });
                        }
                    }
                }
            }
        }
    }

    fn apply(&mut self, action: Action) {
        self.work += self.listing_work();
        let seat = self.seat;
        match action {
            Action::Take { cell } => {
                let (card, public) = match self.jungle[cell as usize] {
                    Cell::Down(card) => (card, false),
                    Cell::Up(card) => (card, true),
                    _ => unreachable!("only a card is taken"),
                };
                let before = self.jungle[cell as usize];
                self.jungle[cell as usize] = Cell::Empty;
                self.hands[seat].push(Held { card, public });
                self.holding = Some((cell, card));
                let charlie = self.rules.turn.charlie_when_none_fits && self.stack > 0;
                let fits = charlie
                    || self.hands[seat]
                        .iter()
                        .any(|h| self.fits(h.card, cell as usize));
                if !fits {
                    // No card fits and no Safari Charlie is left: the card goes back and the
                    // game cannot go on (a ruling: the rulebook's ends come first).
                    self.hands[seat].pop();
                    self.jungle[cell as usize] = before;
                    self.holding = None;
                    self.over = Some("no_card_fits");
                }
            }
            Action::Put { card } => {
                let (cell, _) = self.holding.take().expect("a card was taken");
                let at = self.hands[seat]
                    .iter()
                    .position(|h| h.card == card)
                    .expect("the card is held");
                self.hands[seat].remove(at);
                self.jungle[cell as usize] = Cell::Up(card);
                self.end_turn();
            }
            Action::Charlie => {
                let (cell, _) = self.holding.take().expect("a card was taken");
                self.stack -= 1;
                self.charlies_played += 1;
                self.jungle[cell as usize] = Cell::Charlie;
                self.end_turn();
            }
            Action::Trade { card, cell } => {
                let at = self.hands[seat]
                    .iter()
                    .position(|h| h.card == card)
                    .expect("the card is held");
                self.hands[seat].remove(at);
                self.jungle[cell as usize] = Cell::Up(card);
                self.stack += 1;
                self.end_turn();
            }
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        let reason = self.over?;
        let hands: Vec<Vec<u8>> = (0..self.seats()).map(|s| self.hand_cards(s)).collect();
        let scores: Vec<i64> = hands.iter().map(|h| self.rules.score(h)).collect();
        let keys: Vec<(i64, Vec<usize>)> = hands
            .iter()
            .zip(&scores)
            .map(|(h, s)| (*s, self.rules.tie_key(h)))
            .collect();
        let best = keys.iter().max().expect("a game has players");
        let winners = (0..keys.len()).filter(|&s| keys[s] == *best).collect();
        Some(Outcome {
            scores,
            winners,
            reason,
        })
    }

    fn standing(&self, seat: usize) -> f64 {
        self.rules.score(&self.hand_cards(seat)) as f64
    }

    fn determinise(&self, seat: usize, rng: &mut Pcg64Mcg) -> Table {
        let mut copy = self.clone();
        let mut unseen = Vec::new();
        for cell in &copy.jungle {
            if let Cell::Down(card) = cell {
                unseen.push(*card);
            }
        }
        for (other, hand) in copy.hands.iter().enumerate() {
            if other != seat {
                unseen.extend(hand.iter().filter(|h| !h.public).map(|h| h.card));
            }
        }
        unseen.shuffle(rng);
        let mut redrawn = unseen.into_iter();
        for cell in &mut copy.jungle {
            if let Cell::Down(card) = cell {
                *card = redrawn.next().expect("as many as were drawn");
            }
        }
        for (other, hand) in copy.hands.iter_mut().enumerate() {
            if other != seat {
                for held in hand.iter_mut().filter(|h| !h.public) {
                    held.card = redrawn.next().expect("as many as were drawn");
                }
            }
        }
        copy
    }

    fn view(&self, seat: Option<usize>) -> serde_json::Value {
        let sees_all = seat.is_none();
        let jungle: Vec<serde_json::Value> = self
            .jungle
            .iter()
            .map(|cell| match *cell {
                Cell::Down(card) if sees_all => {
                    json!({ "face": "down", "card": self.card_json(card) })
                }
                Cell::Down(_) => json!({ "face": "down" }),
                Cell::Up(card) => json!({ "face": "up", "card": self.card_json(card) }),
                Cell::Charlie => json!({ "face": "charlie" }),
                Cell::Empty => json!({ "face": "empty" }),
            })
            .collect();
        let hands: Vec<serde_json::Value> = self
            .hands
            .iter()
            .enumerate()
            .map(|(s, hand)| {
                let mine = sees_all || seat == Some(s);
                let shown: Vec<serde_json::Value> = hand
                    .iter()
                    .filter(|h| mine || h.public)
                    .map(|h| self.card_json(h.card))
                    .collect();
                json!({
                    "count": hand.len(),
                    "cards": shown,
                    "score": mine.then(|| self.rules.score(&self.hand_cards(s))),
                })
            })
            .collect();
        let holding = self.holding.and_then(|(cell, card)| {
            (sees_all || seat == Some(self.seat))
                .then(|| json!({ "cell": cell, "card": self.card_json(card) }))
        });
        json!({
            "rows": self.rows,
            "columns": self.columns,
            "jungle": jungle,
            "hands": hands,
            "stack": self.stack,
            "seat": self.seat,
            "turns": self.turns,
            "taken_from": self.holding.map(|(cell, _)| cell),
            "holding": holding,
            "outcome": self.outcome(),
        })
    }

    fn describe(&self, action: Action) -> String {
        match action {
            Action::Take { cell } => match self.jungle.get(cell as usize) {
                Some(Cell::Up(card)) => format!(
                    "takes the face-up {} at {}",
                    self.rules.card_name(*card),
                    self.cell_name(cell)
                ),
                _ => format!("takes the face-down card at {}", self.cell_name(cell)),
            },
            Action::Put { card } => format!("puts {} face up", self.rules.card_name(card)),
            Action::Charlie => "puts a Safari Charlie down: no card fits".to_string(),
            Action::Trade { card, cell } => format!(
                "trades {} for the Safari Charlie at {}",
                self.rules.card_name(card),
                self.cell_name(cell)
            ),
        }
    }

    fn why_not(&self, action: Action) -> String {
        let turn = &self.rules.turn;
        let hand = &self.hands[self.seat];
        let held = |card: u8| hand.iter().any(|h| h.card == card);
        let cell_of = |cell: u8| self.jungle.get(cell as usize).copied();
        let taken = "you have taken a card this turn: put a card of your hand face up where it lay";
        match action {
            Action::Take { cell } => {
                if self.holding.is_some() {
                    return taken.to_string();
                }
                match cell_of(cell) {
                    None => "that is no place in the jungle".to_string(),
                    Some(Cell::Empty) => "no card lies there".to_string(),
                    Some(Cell::Charlie) if turn.trade_for_charlie => "a Safari Charlie is not taken: pick a card of your hand first to trade it for the Charlie, if it fits there".to_string(),
                    Some(Cell::Charlie) => "a Safari Charlie is not taken".to_string(),
                    Some(Cell::Up(_)) => "face-up cards stay in the jungle: take a face-down card (Swappin' Safari lets a player take face-up ones)".to_string(),
                    Some(Cell::Down(_)) => "face-down cards are not taken in these rules".to_string(),
                }
            }
            Action::Put { card } => {
                if !held(card) {
                    return "that card is not in your hand".to_string();
                }
                let Some((cell, _)) = self.holding else {
                    return "take a card from the jungle first: then a card of your hand goes face up where it lay".to_string();
                };
                match self.clash(card, cell as usize) {
                    Some(clash) => {
                        format!("{} cannot lie there: {clash}", self.rules.card_name(card))
                    }
                    None => format!("{} cannot lie there now", self.rules.card_name(card)),
                }
            }
            Action::Charlie => {
                let Some((cell, _)) = self.holding else {
                    return "take a card from the jungle first".to_string();
                };
                if !turn.charlie_when_none_fits {
                    "no Safari Charlie is put down in these rules".to_string()
                } else if self.stack == 0 {
                    "the Safari Charlie stack is empty".to_string()
                } else if hand.iter().any(|h| self.fits(h.card, cell as usize)) {
                    "a card of your hand fits there: a Safari Charlie goes down only when none does"
                        .to_string()
                } else {
                    "a Safari Charlie cannot go down now".to_string()
                }
            }
            Action::Trade { card, cell } => {
                if !turn.trade_for_charlie {
                    return "no card is traded for a Safari Charlie in these rules".to_string();
                }
                if self.holding.is_some() {
                    return taken.to_string();
                }
                if !held(card) {
                    return "that card is not in your hand".to_string();
                }
                if cell_of(cell) != Some(Cell::Charlie) {
                    return "no Safari Charlie lies there to trade for".to_string();
                }
                match self.clash(card, cell as usize) {
                    Some(clash) => format!(
                        "{} cannot take that Safari Charlie's place: {clash}",
                        self.rules.card_name(card)
                    ),
                    None => format!("{} cannot be traded now", self.rules.card_name(card)),
                }
            }
        }
    }

    /// Puts down the card whose loss costs the hand least, trades a card away when that
    /// raises the hand's score, and otherwise takes a card at random.
    fn playout(&self, legal: &[Action], rng: &mut Pcg64Mcg) -> Action {
        let hand = &self.hands[self.seat];
        let without = |card: u8| {
            self.rules
                .score_of(hand.iter().map(|h| h.card).filter(|&c| c != card))
        };
        let now = self.rules.score_of(hand.iter().map(|h| h.card));
        let best = legal
            .iter()
            .filter_map(|&action| match action {
                Action::Put { card } => Some((without(card), action)),
                Action::Trade { card, .. } if without(card) > now => Some((without(card), action)),
                _ => None,
            })
            .max_by_key(|(score, _)| *score);
        if let Some((_, action)) = best {
            return action;
        }
        let takes: Vec<Action> = legal
            .iter()
            .copied()
            .filter(|a| matches!(a, Action::Take { .. }))
            .collect();
        let from = if takes.is_empty() { legal } else { &takes };
        from[rand::RngExt::random_range(rng, 0..from.len())]
    }

    fn work(&self) -> u64 {
        self.work
    }

    fn used(&self) -> Vec<String> {
        let mut used: Vec<String> = self
            .hands
            .iter()
            .flatten()
            .map(|h| self.rules.cards[h.card as usize].id.clone())
            .collect();
        if self.charlies_played > 0 {
            used.push("charlie".to_string());
        }
        used
    }

    fn components(&self) -> Vec<String> {
        let mut all: Vec<String> = self.rules.cards.iter().map(|c| c.id.clone()).collect();
        if self.rules.charlies > 0 {
            all.push("charlie".to_string());
        }
        all
    }
}
