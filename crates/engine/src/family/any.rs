//! A game of the family whichever it is, its actions and tables as JSON: what the playtest
//! page and the command line hold when the ruleset, not the code, says which game it is.

use serde_json::{Value, json};

use super::bots::{Bot, Decision};
use super::ruleset::{self, Components};
use super::session::{Session, Taken};
use super::{Outcome, Play, Start, diceafari, gamewright, tricky_safari};
use crate::LoadError;

/// A game's rules, read from a ruleset, ready to start sessions.
pub trait Rules {
    fn name(&self) -> &str;
    fn players(&self) -> (usize, usize);
    /// The rules in play in a few sentences ([`Start::summary`]).
    fn summary(&self) -> Vec<String>;
    /// A game from its seats (a bot's name, or `None` for a person), seed and log (`[]` for a
    /// new game).
    fn session(
        &self,
        bots: Vec<Option<String>>,
        seed: u64,
        log: &Value,
    ) -> Result<Box<dyn Game>, String>;
    /// Many games by bots at each table (bot names per seat, and whether they rotate).
    fn simulate(
        &self,
        tables: &[(Vec<String>, bool)],
        games: u64,
        seed: u64,
        progress: &dyn Fn(u64),
    ) -> Result<super::sim::Report, String>;
}

/// A game in progress, whichever game it is.
pub trait Game {
    fn to_move(&self) -> Option<usize>;
    fn is_bot(&self, seat: usize) -> bool;
    fn seats(&self) -> usize;
    /// The table as `seat` may see it (`None`: all of it, as after the game).
    fn view(&self, seat: Option<usize>) -> Value;
    /// The legal actions, each as `{"action": ..., "says": words}`.
    fn legal(&self) -> Vec<Value>;
    /// The seat to move takes this action (JSON as `legal` gives it).
    fn take(&mut self, action: &Value) -> Result<(), String>;
    /// Why the seat to move may not take this action now (`None`: it may), or what is wrong
    /// with it if it is no action of this game.
    fn why_not(&self, action: &Value) -> Result<Option<String>, String>;
    /// The bot to move takes its action; what it did, in words, or `None` if no bot is to move.
    /// A decision its bound of work cut short says so in brackets.
    fn bot_step(&mut self) -> Option<String>;
    /// What a bot would do for the seat to move, in words (a hint).
    fn hint(&self, bot: &str) -> Result<Value, String>;
    /// Takes back the last person's action and what followed it, unless that showed a hidden
    /// card or a roll; false when nothing can be taken back.
    fn undo(&mut self) -> bool;
    /// Whether `undo` would take anything back.
    fn undoable(&self) -> bool;
    /// The log: each action with its seat, in words too, and what the rules did after it
    /// (`then`: [`super::Note`]s).
    fn log(&self) -> Value;
    fn outcome(&self) -> Option<Outcome>;
    /// The components that played a part in the game so far ([`Play::used`]), as `sim`
    /// counts them: a report compares people's games with the bots' by them.
    fn used(&self) -> Vec<String>;
}

/// The rules of a components ruleset, with `variants` applied.
pub fn open(bytes: &[u8], variants: &[String]) -> Result<Box<dyn Rules>, LoadError> {
    let components: Components = ruleset::read(bytes)?;
    match components.game.rules.as_str() {
        gamewright::ID => Ok(Box::new(gamewright::Game {
            rules: std::sync::Arc::new(gamewright::Rules::read(&components, variants)?),
        })),
        diceafari::ID => Ok(Box::new(diceafari::Game {
            rules: std::sync::Arc::new(diceafari::Rules::read(&components, variants)?),
        })),
        tricky_safari::ID => Ok(Box::new(tricky_safari::Game {
            rules: std::sync::Arc::new(tricky_safari::Rules::read(&components, variants)?),
        })),
        other => Err(LoadError {
            path: "game.rules".to_string(),
            message: format!(
                "`{other}` rules have no engine; engines: {}",
                super::ENGINES.join(", ")
            ),
        }),
    }
}

impl<S: Start + Clone + 'static> Rules for S {
    fn name(&self) -> &str {
        Start::name(self)
    }
    fn players(&self) -> (usize, usize) {
        Start::players(self)
    }
    fn summary(&self) -> Vec<String> {
        Start::summary(self)
    }
    fn session(
        &self,
        bots: Vec<Option<String>>,
        seed: u64,
        log: &Value,
    ) -> Result<Box<dyn Game>, String> {
        let log: Vec<Taken<<S::Game as Play>::Action>> = serde_json::from_value(log.clone())
            .map_err(|e| format!("the log is not a log of this game: {e}"))?;
        Ok(Box::new(Session::replay(self.clone(), bots, seed, &log)?))
    }
    fn simulate(
        &self,
        tables: &[(Vec<String>, bool)],
        games: u64,
        seed: u64,
        progress: &dyn Fn(u64),
    ) -> Result<super::sim::Report, String> {
        super::sim::run(self, tables, games, seed, progress)
    }
}

/// A bot's action in words, and why it decided on less than it would have, if it did.
fn said<A>(action: String, decision: &Decision<A>) -> String {
    match &decision.cut_short {
        None => action,
        Some(why) => format!("{action} ({why})"),
    }
}

impl<S: Start + 'static> Game for Session<S> {
    fn to_move(&self) -> Option<usize> {
        self.table().to_move()
    }
    fn is_bot(&self, seat: usize) -> bool {
        Session::is_bot(self, seat)
    }
    fn seats(&self) -> usize {
        self.table().seats()
    }
    fn view(&self, seat: Option<usize>) -> Value {
        self.table().view(seat)
    }
    fn legal(&self) -> Vec<Value> {
        Session::legal(self)
            .into_iter()
            .map(|a| json!({ "action": a, "says": self.table().describe(a) }))
            .collect()
    }
    fn take(&mut self, action: &Value) -> Result<(), String> {
        let seat = self.table().to_move().ok_or("the game is over")?;
        let action = serde_json::from_value(action.clone())
            .map_err(|e| format!("not an action of this game: {e}"))?;
        Session::take(self, seat, action)
    }
    fn why_not(&self, action: &Value) -> Result<Option<String>, String> {
        let action = serde_json::from_value(action.clone())
            .map_err(|e| format!("not an action of this game: {e}"))?;
        Ok(Session::why_not(self, action))
    }
    fn bot_step(&mut self) -> Option<String> {
        let before = self.table().clone();
        let decision = self.play_bot_decision()?;
        Some(said(before.describe(decision.action), &decision))
    }
    fn hint(&self, bot: &str) -> Result<Value, String> {
        let bot = Bot::by_name(bot).ok_or_else(|| format!("unknown bot `{bot}`"))?;
        if self.table().to_move().is_none() {
            return Err("the game is over".to_string());
        }
        let decision = self.bot_decision(bot);
        let says = said(self.table().describe(decision.action), &decision);
        Ok(json!({ "action": decision.action, "says": says }))
    }
    fn undo(&mut self) -> bool {
        Session::undo(self)
    }
    fn undoable(&self) -> bool {
        Session::undoable(self)
    }
    fn log(&self) -> Value {
        let mut replay = self.first_table();
        let entries: Vec<Value> = Session::log(self)
            .iter()
            .map(|taken| {
                let says = replay.describe(taken.action);
                let before = replay.clone();
                replay.apply(taken.action);
                let then = replay.aftermath(&before, taken.action);
                json!({ "seat": taken.seat, "action": taken.action, "by_bot": taken.by_bot, "says": says, "then": then })
            })
            .collect();
        Value::Array(entries)
    }
    fn outcome(&self) -> Option<Outcome> {
        self.table().outcome()
    }
    fn used(&self) -> Vec<String> {
        self.table().used()
    }
}
