//! The family games' playtest page's engine (`safari_engine_wasm::family::FamilySession`),
//! sent what a page, a careless player or an attacker could send it: the three family games'
//! real rulesets (built from `seeds/components/`) opened with their variants, games started
//! with people and bots, the actions the page lists and others, each seat's view, hints,
//! undo, saves handed back cut and altered, and raw requests.
//!
//! Whatever is sent: every answer is `{"ok"}` or `{"error": {"message"}}`; a request that
//! fails leaves the game as it was; and a saved game handed back unchanged loads to the same
//! state.
#![no_main]

#[path = "common/protocol.rs"]
mod protocol;

use std::sync::OnceLock;

use libfuzzer_sys::arbitrary::{self, Arbitrary};
use libfuzzer_sys::fuzz_target;
use safari::world::GameFolder;
use safari_engine_wasm::family::FamilySession;
use serde_json::{Value, json};

const PACKS: [&[u8]; 4] = [
    include_bytes!("../seeds/components/diceafari"),
    include_bytes!("../seeds/components/gamewright-safari"),
    include_bytes!("../seeds/components/tricky-safari"),
    include_bytes!("../seeds/components/roll-and-write"),
];
const FILES: [&str; 4] = ["game.toml", "components.toml", "maps.toml", "sheet.kdl"];

/// Bots a seat is given: the menu's quick ones, a small search, and names no engine knows.
/// (A search of many iterations is the engine's to play as slowly as asked; the page offers
/// none past its menu, and refuses a log that seats one: tests/family_page.rs.)
const BOTS: [&str; 5] = ["random", "greedy", "search:8", "search:x", "nobody"];

/// Each pack's ruleset.json and the names of its variants, as `safari build` writes them.
fn rulesets() -> &'static [(String, Vec<String>)] {
    static RULESETS: OnceLock<Vec<(String, Vec<String>)>> = OnceLock::new();
    RULESETS.get_or_init(|| {
        PACKS
            .iter()
            .map(|pack| {
                let mut folder = GameFolder::in_memory();
                for (name, bytes) in FILES.iter().zip(pack.split(|b| *b == 0)) {
                    folder
                        .add_bytes(name, bytes.to_vec())
                        .expect("a seed file is added");
                }
                let checked = safari::check(&mut folder);
                let table = checked.table.as_ref().expect("a seed pack checks");
                let module = safari::rules::module(&table.manifest.rules.value)
                    .expect("a seed pack's rules module");
                let text = safari::backends::table::ruleset::text(table, module);
                let value: Value = serde_json::from_str(&text).expect("a ruleset is JSON");
                let variants = value["rules"]["variants"]
                    .as_object()
                    .map(|v| v.keys().cloned().collect())
                    .unwrap_or_default();
                (text, variants)
            })
            .collect()
    })
}

#[derive(Arbitrary, Debug)]
enum Step {
    Open {
        pack: u8,
        variants: u8,
        unknown: bool,
    },
    Start {
        seats: u8,
        bots: u8,
        bot: u8,
        seed: u64,
    },
    /// The n-th action the page lists for the seat to move.
    Act {
        n: u8,
        seat: Option<u8>,
    },
    /// An action the page does not list: the listed one with a field changed.
    Forged {
        n: u8,
        key: u8,
        value: i64,
    },
    Bot {
        seat: Option<u8>,
    },
    Undo {
        seat: Option<u8>,
    },
    State {
        seat: Option<u8>,
    },
    Hint(u8),
    /// The game in progress again from its log, as after a reload.
    Resume,
    /// The game saved and handed back, cut and altered.
    Reload {
        cut: u16,
        flips: Vec<(u16, u8)>,
    },
    Raw(String),
}

struct Page {
    session: FamilySession,
    state: Option<Value>,
    seats: Value,
    seed: u64,
}

impl Page {
    fn send(&mut self, request: &Value) -> Result<Value, Value> {
        self.send_text(&request.to_string())
    }

    fn send_text(&mut self, request: &str) -> Result<Value, Value> {
        let before = self.state_now();
        let answer = protocol::read(&self.session.handle(request.as_bytes()));
        match &answer {
            Err(_) => assert_eq!(
                before,
                self.state_now(),
                "a refused request changed the game: {request:.300}"
            ),
            Ok(ok) if ok.get("legal").is_some() => self.state = Some(ok.clone()),
            Ok(_) => {}
        }
        answer
    }

    /// The whole table as it stands (every seat's view would tell no more of a change).
    fn state_now(&mut self) -> String {
        let mut state: Value =
            serde_json::from_str(&self.session.handle(br#"{"op":"state"}"#)).expect("JSON");
        if let Some(ok) = state.get_mut("ok").and_then(Value::as_object_mut) {
            ok.remove("legal");
        }
        state.to_string()
    }

    fn step(&mut self, step: Step) {
        match step {
            Step::Open {
                pack,
                variants,
                unknown,
            } => {
                let (text, names) = &rulesets()[usize::from(pack) % PACKS.len()];
                let mut chosen: Vec<&str> = names
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| variants & (1 << (i % 8)) != 0)
                    .map(|(_, n)| n.as_str())
                    .collect();
                if unknown {
                    chosen.push("no-such-variant");
                }
                let _ = self.send(&json!({"op": "open", "ruleset": text, "variants": chosen}));
            }
            Step::Start {
                seats,
                bots,
                bot,
                seed,
            } => {
                let seats: Vec<Value> = (0..seats % 8)
                    .map(|s| match bots & (1 << s) {
                        0 => Value::Null,
                        _ => json!(BOTS[usize::from(bot) % BOTS.len()]),
                    })
                    .collect();
                let seed = protocol::spread(seed);
                if self
                    .send(&json!({"op": "start", "seats": seats, "seed": seed}))
                    .is_ok()
                {
                    self.seats = json!(seats);
                    self.seed = seed;
                }
            }
            Step::Act { n, seat } => {
                let action = self.listed(n).unwrap_or(json!({}));
                let _ = self.send(&json!({"op": "act", "action": action, "seat": seat}));
            }
            Step::Forged { n, key, value } => {
                let Some(mut action) = self.listed(n) else {
                    return;
                };
                if let Some(object) = action.as_object_mut() {
                    let keys: Vec<String> = object.keys().cloned().collect();
                    if !keys.is_empty() {
                        object.insert(keys[usize::from(key) % keys.len()].clone(), json!(value));
                    }
                }
                let _ = self.send(&json!({"op": "act", "action": action}));
            }
            Step::Bot { seat } => {
                let _ = self.send(&json!({"op": "bot", "seat": seat}));
            }
            Step::Undo { seat } => {
                let _ = self.send(&json!({"op": "undo", "seat": seat}));
            }
            Step::State { seat } => {
                let _ = self.send(&json!({"op": "state", "seat": seat}));
            }
            Step::Hint(bot) => {
                let _ =
                    self.send(&json!({"op": "hint", "bot": BOTS[usize::from(bot) % BOTS.len()]}));
            }
            Step::Resume => {
                if let Some(state) = self.state.clone() {
                    let _ = self.send(&json!({
                        "op": "resume", "seats": self.seats, "seed": self.seed, "log": state["log"],
                    }));
                }
            }
            Step::Reload { cut, flips } => {
                let Ok(saved) = self.send(&json!({"op": "save"})) else {
                    return;
                };
                let text = saved.to_string();
                if flips.is_empty() && cut == 0 {
                    let before = self.state_now();
                    let loaded = self.send(&json!({"op": "load", "log": text}));
                    assert!(loaded.is_ok(), "a saved game did not load back: {loaded:?}");
                    assert_eq!(
                        before,
                        self.state_now(),
                        "a saved game loaded back to another state"
                    );
                } else {
                    let log = protocol::tampered(&text, cut, &flips);
                    let _ = self.send(&json!({"op": "load", "log": log}));
                }
            }
            Step::Raw(text) => {
                let _ = self.send_text(&text);
            }
        }
    }

    /// The n-th action the last state listed.
    fn listed(&self, n: u8) -> Option<Value> {
        let legal = self.state.as_ref()?["legal"].as_array()?;
        (!legal.is_empty()).then(|| legal[usize::from(n) % legal.len()].clone())
    }
}

fuzz_target!(|steps: Vec<Step>| {
    let mut page = Page {
        session: FamilySession::default(),
        state: None,
        seats: json!([]),
        seed: 0,
    };
    for step in steps.into_iter().take(200) {
        page.step(step);
    }
});
