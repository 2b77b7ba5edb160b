//! The family's games for their playtest page: one JSON request in, one JSON answer out, as
//! for Safari Zone RNW ([`crate::Session`]), over `safari_engine::family::any`.
//!
//! The page never sees what the seat it shows may not: every state answer is the table as one
//! seat sees it (`seat` in the request), and only the whole table once the game is over or
//! when the request asks for `null` (a table of bots alone, watched).

use serde::Deserialize;
use serde_json::{Value, json};

use safari_engine::family::any::{self, Game, Rules};
use safari_engine::family::{bots, ruleset};

use crate::{answered, bounded, error};

/// The format of a saved game.
pub const LOG_FORMAT: &str = "safari-family-log";

#[derive(Deserialize)]
#[serde(tag = "op", rename_all = "snake_case", deny_unknown_fields)]
enum Request {
    /// Reads a components ruleset with the variants to play.
    Open {
        ruleset: String,
        #[serde(default)]
        variants: Vec<String>,
    },
    Start {
        seats: Vec<Option<String>>,
        seed: u64,
    },
    /// A game from its log (kept across a reload).
    Resume {
        seats: Vec<Option<String>>,
        seed: u64,
        log: Value,
    },
    /// Reads a saved game: its ruleset and variants become the open ones, once the whole log
    /// replays (the answer's `opened` is what `Open` answers).
    Load {
        log: String,
    },
    Act {
        action: Value,
        #[serde(default)]
        seat: Option<usize>,
    },
    Bot {
        #[serde(default)]
        seat: Option<usize>,
    },
    Undo {
        #[serde(default)]
        seat: Option<usize>,
    },
    State {
        #[serde(default)]
        seat: Option<usize>,
    },
    Hint {
        bot: String,
    },
    /// Why the seat to move may not take each of these actions now: a page asks of the
    /// things it draws that a click cannot take.
    Why {
        actions: Vec<Value>,
    },
    Save,
    /// A whole game of bots, for the tests that hold this build to the native one.
    Selfplay {
        seats: Vec<String>,
        seed: u64,
    },
}

/// The rules of a components ruleset's text with these variants, or what is wrong with them
/// and where.
fn rules_of(text: &str, variants: &[String]) -> Result<Box<dyn Rules>, Value> {
    any::open(text.as_bytes(), variants)
        .map_err(|e| json!({ "message": e.message, "path": e.path }))
}

/// What the page learns of rules it opens: their name, players and bots, the variants in
/// play, the rules in a few sentences, and each variant the ruleset offers with those it
/// cannot be played with.
fn opened(rules: &dyn Rules, text: &str, variants: &[String]) -> Value {
    let (fewest, most) = rules.players();
    let offered = serde_json::from_str::<Value>(text)
        .map(|ruleset| ruleset::exclusive(&ruleset["rules"]))
        .unwrap_or_default();
    json!({
        "name": rules.name(),
        "players": [fewest, most],
        "bots": bots::NAMES,
        "variants": variants,
        "summary": rules.summary(),
        "excludes": offered,
    })
}

#[derive(Default)]
pub struct FamilySession {
    open: Option<Open>,
    game: Option<Box<dyn Game>>,
    seats: Vec<Option<String>>,
    seed: u64,
}

struct Open {
    text: String,
    variants: Vec<String>,
    rules: Box<dyn Rules>,
}

impl FamilySession {
    pub fn handle(&mut self, request: &[u8]) -> String {
        answered(bounded(request).and_then(|request| {
            match serde_json::from_slice::<Request>(request) {
                Ok(request) => self.answer(request),
                Err(e) => Err(error(format!(
                    "the page sent a request this engine does not read: {e}"
                ))),
            }
        }))
    }

    fn open(&mut self, text: String, variants: Vec<String>) -> Result<Value, Value> {
        let rules = rules_of(&text, &variants)?;
        let opened = opened(rules.as_ref(), &text, &variants);
        self.open = Some(Open {
            text,
            variants,
            rules,
        });
        self.game = None;
        Ok(opened)
    }

    fn rules(&self) -> Result<&dyn Rules, Value> {
        self.open
            .as_ref()
            .map(|o| o.rules.as_ref())
            .ok_or_else(|| error("no ruleset is open"))
    }

    fn game(&mut self) -> Result<&mut Box<dyn Game>, Value> {
        self.game
            .as_mut()
            .ok_or_else(|| error("no game is in progress"))
    }

    fn begin(&mut self, seats: Vec<Option<String>>, seed: u64, log: &Value) -> Result<(), Value> {
        let game = self
            .rules()?
            .session(seats.clone(), seed, log)
            .map_err(error)?;
        self.game = Some(game);
        self.seats = seats;
        self.seed = seed;
        Ok(())
    }

    fn answer(&mut self, request: Request) -> Result<Value, Value> {
        match request {
            Request::Open { ruleset, variants } => self.open(ruleset, variants),
            Request::Start { seats, seed } => {
                self.begin(seats, seed, &json!([]))?;
                self.state(None)
            }
            Request::Resume { seats, seed, log } => {
                self.begin(seats, seed, &log)?;
                self.state(None)
            }
            Request::Load { log } => {
                let saved: Value = serde_json::from_str(&log)
                    .map_err(|e| error(format!("the file is not JSON: {e}")))?;
                if saved["format"] != LOG_FORMAT {
                    return Err(error(format!(
                        "this is not a saved game (`format` should be \"{LOG_FORMAT}\")"
                    )));
                }
                let ruleset = serde_json::to_string(&saved["ruleset"]).expect("JSON serialises");
                let variants: Vec<String> = serde_json::from_value(saved["variants"].clone())
                    .map_err(|e| error(format!("`variants`: {e}")))?;
                let seats: Vec<Option<String>> = serde_json::from_value(saved["seats"].clone())
                    .map_err(|e| error(format!("`seats`: {e}")))?;
                let seed = saved["seed"]
                    .as_u64()
                    .ok_or_else(|| error("`seed` is not a whole number"))?;
                // The whole log is read and replayed before anything changes: a log that
                // does not replay leaves the ruleset and the game in progress as they were.
                let rules = rules_of(&ruleset, &variants)?;
                let game = rules
                    .session(seats.clone(), seed, &saved["actions"])
                    .map_err(error)?;
                let opened = opened(rules.as_ref(), &ruleset, &variants);
                self.open = Some(Open {
                    text: ruleset,
                    variants,
                    rules,
                });
                self.game = Some(game);
                self.seats = seats;
                self.seed = seed;
                let mut state = self.state(None)?;
                state["opened"] = opened;
                Ok(state)
            }
            Request::Act { action, seat } => {
                self.game()?
                    .take(&action)
                    .map_err(|reason| json!({ "message": reason, "refused": true }))?;
                self.state(seat)
            }
            Request::Bot { seat } => {
                let did = self
                    .game()?
                    .bot_step()
                    .ok_or_else(|| error("no bot is to move"))?;
                let mut state = self.state(seat)?;
                state["did"] = json!(did);
                Ok(state)
            }
            Request::Undo { seat } => {
                let undone = self.game()?.undo();
                let mut state = self.state(seat)?;
                state["undone"] = json!(undone);
                Ok(state)
            }
            Request::State { seat } => self.state(seat),
            Request::Hint { bot } => self.game()?.hint(&bot).map_err(error),
            Request::Why { actions } => {
                let game = self.game()?;
                let reasons: Vec<Value> = actions
                    .iter()
                    .map(|action| match game.why_not(action) {
                        Ok(why) => json!(why),
                        Err(fault) => json!(fault),
                    })
                    .collect();
                Ok(json!({ "reasons": reasons }))
            }
            Request::Save => {
                let open = self
                    .open
                    .as_ref()
                    .ok_or_else(|| error("no ruleset is open"))?;
                let ruleset: Value =
                    serde_json::from_str(&open.text).map_err(|e| error(e.to_string()))?;
                let game = self
                    .game
                    .as_ref()
                    .ok_or_else(|| error("no game is in progress"))?;
                Ok(json!({
                    "format": LOG_FORMAT,
                    "version": 1,
                    "ruleset": ruleset,
                    "variants": open.variants,
                    "seats": self.seats,
                    "seed": self.seed,
                    "actions": game.log(),
                }))
            }
            Request::Selfplay { seats, seed } => {
                let bots: Vec<Option<String>> = seats.into_iter().map(Some).collect();
                let mut game = self
                    .rules()?
                    .session(bots, seed, &json!([]))
                    .map_err(error)?;
                while game.bot_step().is_some() {}
                Ok(json!({ "log": game.log(), "outcome": game.outcome() }))
            }
        }
    }

    /// The game as `seat` sees it (`None`: the seat to move if a person plays it, else the
    /// whole table), with the actions it may take when it is to move.
    fn state(&mut self, seat: Option<usize>) -> Result<Value, Value> {
        let game = self
            .game
            .as_ref()
            .ok_or_else(|| error("no game is in progress"))?;
        let to_move = game.to_move();
        let viewer = match (seat, to_move) {
            (_, None) => None,
            (Some(seat), _) if seat < game.seats() => Some(seat),
            (Some(seat), _) => return Err(error(format!("there is no seat {}", seat + 1))),
            (None, Some(mover)) if !game.is_bot(mover) => Some(mover),
            (None, Some(_)) => (0..game.seats()).find(|&s| !game.is_bot(s)),
        };
        let legal = if to_move.is_some() && to_move == viewer && !game.is_bot(to_move.unwrap_or(0))
        {
            game.legal()
        } else {
            Vec::new()
        };
        Ok(json!({
            "to_move": to_move,
            "viewer": viewer,
            "bots": (0..game.seats()).map(|s| game.is_bot(s)).collect::<Vec<_>>(),
            "view": game.view(viewer),
            "legal": legal,
            "log": game.log(),
            // Undo stops at the last card or roll shown.
            "undoable": game.undoable(),
            "outcome": game.outcome(),
        }))
    }
}
