//! What a game puts on the table, as values: a tile, a board, a die, a standee, cards, a bag,
//! a scripted block. The exporter ([`super::table`]) places them and saves each as the object
//! Tabletop Simulator loads, one function per kind; a game never writes an object's fields.
//!
//! Sizes are table units (an inch): a tile, board or standee is given by the height of its
//! image, and saved at the scale that makes it that tall (a tile at scale 1 is [`TILE_UNITS`]
//! units on its short side; docs/tabletop-simulator.md).

use serde_json::{Value, json};

use super::{Guids, object};

/// A tile, board or standee at scale 1 is this many units on the side its scale is set by.
pub const TILE_UNITS: f64 = 2.0;

/// One thing on the table.
#[derive(Debug, Clone)]
pub struct Thing {
    /// What the thing is in its game ("deck", "die/red/0"): its GUID is made from this,
    /// and scripts name it by it ([`Script`]).
    pub role: String,
    pub name: String,
    pub description: String,
    pub kind: Kind,
    /// Fixed to the table (a board, a rules block).
    pub locked: bool,
    pub script: Option<Script>,
    /// What a script reads of the thing to know what it is (its set and kind, as JSON), or
    /// empty; saved as its `Memo`.
    pub memo: String,
}

/// A thing's script: its Lua and its saved state. In the state, `{"$guid": role}` stands for
/// the GUID of the thing of that role, and `{"$seat": "colour"}` for the colour of the seat
/// the thing is at; the exporter puts them in.
#[derive(Debug, Clone)]
pub struct Script {
    pub lua: String,
    pub state: Value,
}

#[derive(Debug, Clone)]
pub enum Kind {
    Tile(Tile),
    Board {
        image: String,
        height: f64,
    },
    Die(Die),
    /// A standee: `front` faces the way the piece does.
    Figure {
        front: String,
        back: String,
        height: f64,
    },
    Cards(Cards),
    /// A bag of pieces (a bag in it is saved empty).
    Bag(Vec<Thing>),
    /// A block that holds a script (a rules object, the setup, a rules module's helper).
    Block,
}

#[derive(Debug, Clone)]
pub struct Tile {
    pub front: String,
    /// The other side's image, or empty for the front's.
    pub back: String,
    pub shape: Shape,
    pub height: f64,
    /// Whether tiles alike stack into one pile (pieces do; a sheet does not).
    pub stackable: bool,
    /// Whether a player may hold it in a hand, as a card (a token taken and kept hidden); so
    /// held, face down it hides its name as a card does.
    pub held: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    Square,
    Hex,
    Round,
}

#[derive(Debug, Clone)]
pub enum Die {
    /// A `Custom_Dice` d6: its texture (`super::die_texture`) and its faces' names in the
    /// texture's order.
    D6 { texture: String, faces: Vec<String> },
    /// Tabletop Simulator's own die of `sides` sides, the game's faces listed in its
    /// description (there is no verified texture layout for other dice).
    Builtin { sides: u32, faces: Vec<String> },
}

/// Cards of one deck, top first: saved as a deck, or as a card when there is one.
#[derive(Debug, Clone)]
pub struct Cards {
    pub cards: Vec<Card>,
    /// Every sheet of the deck (`super::custom_deck`), by sheet id.
    pub sheets: serde_json::Map<String, Value>,
}

#[derive(Debug, Clone)]
pub struct Card {
    pub role: String,
    pub name: String,
    pub description: String,
    /// The sheet's id times 100, plus the face's place on it.
    pub id: u32,
    /// What a script reads of the card (its data, as the ruleset has it).
    pub memo: String,
}

/// Where and how a thing lies: its place (x, height, z), its turn about the vertical (rotY)
/// and whether it lies face down.
#[derive(Debug, Clone, Copy)]
pub struct Pose {
    pub x: f64,
    pub y: f64,
    pub z: f64,
    pub turn: f64,
    pub face_down: bool,
}

impl Pose {
    /// Where a card in a deck or a piece in a bag is saved: at the origin, turned as its
    /// container.
    fn inside(turn: f64) -> Pose {
        Pose {
            x: 0.0,
            y: 1.0,
            z: 0.0,
            turn,
            face_down: false,
        }
    }

    /// The `Transform` of a thing at this pose and `scale`.
    pub fn transform(&self, scale: f64) -> Value {
        json!({
            "posX": self.x, "posY": self.y, "posZ": self.z,
            "rotX": 0.0, "rotY": self.turn, "rotZ": if self.face_down { 180.0 } else { 0.0 },
            "scaleX": scale, "scaleY": 1.0, "scaleZ": scale,
        })
    }
}

impl Thing {
    /// The thing as Tabletop Simulator saves it, at `pose`, its GUID from `guids`. Its
    /// script's state is left a value, for [`resolve`] to finish.
    pub fn saved(&self, pose: Pose, guids: &mut Guids) -> Value {
        match &self.kind {
            Kind::Bag(contents) => {
                let mut saved = self.unbagged(pose, guids);
                saved["ContainedObjects"] = bagged(contents, pose.turn, guids);
                saved
            }
            _ => self.unbagged(pose, guids),
        }
    }

    /// The thing saved with nothing in it.
    fn unbagged(&self, pose: Pose, guids: &mut Guids) -> Value {
        // A lone card is the card, known by its own role.
        let role = match &self.kind {
            Kind::Cards(Cards { cards, .. }) if cards.len() == 1 => &cards[0].role,
            _ => &self.role,
        };
        let guid = guids.next(role);
        let scale = match &self.kind {
            Kind::Tile(Tile { height, .. })
            | Kind::Board { height, .. }
            | Kind::Figure { height, .. } => height / TILE_UNITS,
            _ => 1.0,
        };
        let at = pose.transform(scale);
        let mut saved = match &self.kind {
            Kind::Tile(tile) => tile_object(self, guid, tile, at),
            Kind::Board { image, .. } => board(self, guid, image, at),
            Kind::Die(die) => self::die(self, guid, die, at),
            Kind::Figure { front, back, .. } => figure(self, guid, front, back, at),
            Kind::Cards(cards) => self::cards(self, guid, cards, at, guids),
            Kind::Bag(_) => object("Bag", guid, &self.name, &self.description, at),
            Kind::Block => object("BlockSquare", guid, &self.name, &self.description, at),
        };
        if self.locked {
            saved["Locked"] = json!(true);
        }
        if !self.memo.is_empty() {
            saved["Memo"] = json!(self.memo);
        }
        if let Some(script) = &self.script {
            saved["LuaScript"] = json!(script.lua);
            saved["LuaScriptState"] = script.state.clone();
        }
        saved
    }
}

fn tile_object(thing: &Thing, guid: String, tile: &Tile, at: Value) -> Value {
    let mut saved = object("Custom_Tile", guid, &thing.name, &thing.description, at);
    let kind = match tile.shape {
        Shape::Square => 0,
        Shape::Hex => 1,
        Shape::Round => 2,
    };
    saved["CustomImage"] = json!({
        "ImageURL": tile.front,
        "ImageSecondaryURL": tile.back,
        "ImageScalar": 1.0,
        "WidthScale": 0.0,
        "CustomTile": { "Type": kind, "Thickness": 0.1, "Stackable": tile.stackable, "Stretch": true },
    });
    if tile.held {
        super::held_in_hands(&mut saved);
    }
    saved
}

fn board(thing: &Thing, guid: String, image: &str, at: Value) -> Value {
    let mut saved = object("Custom_Board", guid, &thing.name, &thing.description, at);
    saved["CustomImage"] = json!({
        "ImageURL": image, "ImageSecondaryURL": "", "ImageScalar": 1.0, "WidthScale": 0.0,
    });
    saved
}

fn die(thing: &Thing, guid: String, die: &Die, at: Value) -> Value {
    match die {
        Die::D6 { texture, faces } => super::custom_d6(guid, &thing.name, texture, faces, at),
        Die::Builtin { sides, faces } => {
            let listed: Vec<String> = faces
                .iter()
                .enumerate()
                .map(|(i, f)| format!("{}: {f}", i + 1))
                .collect();
            object(
                &format!("Die_{sides}"),
                guid,
                &thing.name,
                &format!("Faces: {}", listed.join(", ")),
                at,
            )
        }
    }
}

fn figure(thing: &Thing, guid: String, front: &str, back: &str, at: Value) -> Value {
    let mut saved = object("Figurine_Custom", guid, &thing.name, &thing.description, at);
    saved["CustomImage"] =
        json!({ "ImageURL": front, "ImageSecondaryURL": back, "ImageScalar": 1.0 });
    saved
}

/// A lone card keeps its sheet with it, as it does once drawn from a deck.
fn cards(thing: &Thing, guid: String, cards: &Cards, at: Value, guids: &mut Guids) -> Value {
    let inside = Pose::inside(at["rotY"].as_f64().unwrap_or(0.0)).transform(1.0);
    let card = |card: &Card, guid: String, at: Value| {
        let mut saved = super::card(guid, &card.name, &card.description, card.id, at);
        saved["Memo"] = json!(card.memo);
        super::with_its_sheet(&mut saved, &cards.sheets);
        saved
    };
    if let [one] = cards.cards.as_slice() {
        return card(one, guid, at);
    }
    let saved = cards
        .cards
        .iter()
        .map(|one| card(one, guids.next(&one.role), inside.clone()))
        .collect();
    super::deck(
        guid,
        &thing.name,
        &thing.description,
        saved,
        cards.sheets.clone(),
        at,
    )
}

/// A bag's pieces, turned as the bag is.
fn bagged(contents: &[Thing], turn: f64, guids: &mut Guids) -> Value {
    contents
        .iter()
        .map(|thing| thing.unbagged(Pose::inside(turn), guids))
        .collect()
}

/// `value` with every `{"$seat": …}` in it the colour of the seat it is at.
pub fn at_seat(value: &mut Value, colour: &str) {
    walk(value, &mut |value| {
        let placeholder =
            matches!(value, Value::Object(f) if f.len() == 1 && f.contains_key("$seat"));
        if placeholder {
            *value = json!(colour);
        }
        !placeholder
    });
}

/// `value` with every `{"$guid": role}` in it the GUID `named` gives that role (`null` for a
/// role no thing has), and every object's script state (left a value by [`Thing::saved`])
/// written as the text Tabletop Simulator keeps.
pub fn resolve(value: &mut Value, named: &dyn Fn(&str) -> Option<String>) {
    walk(value, &mut |value| {
        let role = match &*value {
            Value::Object(f) if f.len() == 1 => f.get("$guid").and_then(Value::as_str),
            _ => None,
        };
        if let Some(role) = role {
            *value = named(role).map_or(Value::Null, Value::String);
            return false;
        }
        true
    });
    walk(value, &mut |value| {
        if let Some(state) = value.get_mut("LuaScriptState")
            && !state.is_string()
        {
            *state = json!(state.to_string());
        }
        true
    });
}

/// Calls `visit` on `value` and on what it holds, depth first, going into a value only when
/// `visit` returns true.
fn walk(value: &mut Value, visit: &mut dyn FnMut(&mut Value) -> bool) {
    let mut stack = vec![value];
    while let Some(value) = stack.pop() {
        if !visit(value) {
            continue;
        }
        match value {
            Value::Object(fields) => stack.extend(fields.values_mut()),
            Value::Array(items) => stack.extend(items.iter_mut()),
            _ => {}
        }
    }
}
