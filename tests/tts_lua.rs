//! The Tabletop Simulator saves' scripts, run. Tabletop Simulator runs MoonSharp, a Lua 5.2;
//! these tests run every script a save carries in Lua 5.2 (mlua's vendored interpreter) with
//! what the game leaves out left out (`io`, `debug`, `load`, `require` and the like, and all
//! of `os` but its clock and dates), against a stand-in of the part of the game's API the
//! scripts use, which records what they do (the chat among it).

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::rc::Rc;

use mlua::{Function, Lua, LuaOptions, LuaSerdeExt, StdLib, Table, Value as LuaValue};
use serde_json::Value;

use crate::common;

#[path = "tts/convention.rs"]
pub(crate) mod convention;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The default game, a small fixture and the three packs: every kind of save safari writes.
fn games() -> Vec<PathBuf> {
    vec![
        root().join("content/safari-zone"),
        root().join("tests/fixtures-print/mini-odd-deck"),
        root().join("content/gamewright-safari"),
        root().join("content/diceafari"),
        root().join("content/tricky-safari"),
    ]
}

/// The save's objects (contained ones too) and the ruleset.json beside it.
fn save(dir: &Path) -> (Vec<Value>, Value) {
    let outputs = common::tts_export(dir, "https://example.org/t");
    let file = |test: &dyn Fn(&str) -> bool| {
        let (_, bytes) = outputs.iter().find(|(path, _)| test(path)).unwrap();
        serde_json::from_slice::<Value>(bytes).unwrap()
    };
    let saved = file(&|p| p.starts_with("tts/") && p.ends_with(".json"));
    let ruleset = file(&|p| p == "ruleset.json");
    let mut objects = Vec::new();
    let mut stack: Vec<Value> = saved["ObjectStates"].as_array().unwrap().clone();
    while let Some(object) = stack.pop() {
        if let Some(contained) = object["ContainedObjects"].as_array() {
            stack.extend(contained.iter().cloned());
        }
        objects.push(object);
    }
    (objects, ruleset)
}

/// A Lua 5.2 as Tabletop Simulator gives scripts one, and what the scripts said in the chat.
pub(crate) struct Stand {
    pub lua: Lua,
    chat: Rc<RefCell<Vec<String>>>,
}

fn table() -> Stand {
    let lua = Lua::new_with(
        StdLib::TABLE
            | StdLib::STRING
            | StdLib::MATH
            | StdLib::BIT
            | StdLib::COROUTINE
            | StdLib::OS,
        LuaOptions::default(),
    )
    .unwrap();
    let globals = lua.globals();
    for missing in ["load", "loadfile", "loadstring", "dofile", "require"] {
        globals.set(missing, LuaValue::Nil).unwrap();
    }
    let os: Table = globals.get("os").unwrap();
    for missing in [
        "execute",
        "exit",
        "getenv",
        "remove",
        "rename",
        "tmpname",
        "setlocale",
    ] {
        os.set(missing, LuaValue::Nil).unwrap();
    }
    let chat = Rc::new(RefCell::new(Vec::new()));
    let said = |chat: &Rc<RefCell<Vec<String>>>| {
        let chat = Rc::clone(chat);
        move |_: &Lua, (message, color): (String, LuaValue)| {
            // A colour is a player's colour by name, or red, green and blue from 0 to 1.
            let colour_ok = match &color {
                LuaValue::Nil | LuaValue::String(_) => true,
                LuaValue::Table(rgb) => (1..=3).all(|i| {
                    rgb.get::<f64>(i)
                        .or_else(|_| rgb.get::<f64>(["r", "g", "b"][i - 1]))
                        .is_ok_and(|c| (0.0..=1.0).contains(&c))
                }),
                _ => false,
            };
            if !colour_ok {
                return Err(mlua::Error::external(format!("not a colour: {color:?}")));
            }
            chat.borrow_mut().push(message);
            Ok(())
        }
    };
    for name in ["broadcastToAll", "printToAll", "print"] {
        globals
            .set(name, lua.create_function(said(&chat)).unwrap())
            .unwrap();
    }
    let json = lua.create_table().unwrap();
    json.set(
        "decode",
        lua.create_function(|lua, text: String| {
            let value: Value = serde_json::from_str(&text).map_err(mlua::Error::external)?;
            lua.to_value_with(
                &value,
                mlua::SerializeOptions::new()
                    .serialize_none_to_null(false)
                    .serialize_unit_to_null(false),
            )
        })
        .unwrap(),
    )
    .unwrap();
    json.set(
        "encode",
        lua.create_function(|lua, value: LuaValue| {
            let value: Value = lua.from_value(value)?;
            Ok(value.to_string())
        })
        .unwrap(),
    )
    .unwrap();
    globals.set("JSON", json).unwrap();
    Stand { lua, chat }
}

impl Stand {
    /// Loads `object`'s script in an environment of its own, with `self` the object, and runs
    /// its `onLoad` with the saved state.
    fn load(&self, object: &Value) -> Result<Table, mlua::Error> {
        let lua = &self.lua;
        let this = lua.create_table()?;
        let name = object["Nickname"].as_str().unwrap_or_default().to_string();
        let guid = object["GUID"].as_str().unwrap_or_default().to_string();
        this.set(
            "getName",
            lua.create_function(move |_, ()| Ok(name.clone()))?,
        )?;
        this.set(
            "getGUID",
            lua.create_function(move |_, ()| Ok(guid.clone()))?,
        )?;
        let env = lua.create_table()?;
        let meta = lua.create_table()?;
        meta.set("__index", lua.globals())?;
        env.set_metatable(Some(meta))?;
        env.set("self", this)?;
        lua.load(object["LuaScript"].as_str().unwrap())
            .set_name(object["Nickname"].as_str().unwrap_or("script"))
            .set_environment(env.clone())
            .exec()?;
        if let Ok(on_load) = env.get::<Function>("onLoad") {
            let state = object["LuaScriptState"].as_str().unwrap_or_default();
            on_load.call::<()>(state)?;
        }
        Ok(env)
    }

    pub fn chat(&self) -> Vec<String> {
        self.chat.borrow().clone()
    }
}

/// JSON as a Lua 5.2 table holds it: every number a double, no `null` (a key set to nil is
/// no key), and an empty list and an empty object the same empty table.
fn as_lua_holds_it(value: Value) -> Value {
    match value {
        Value::Object(fields) => {
            let fields: serde_json::Map<String, Value> = fields
                .into_iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| (k, as_lua_holds_it(v)))
                .collect();
            Value::Object(fields)
        }
        Value::Array(items) if items.is_empty() => Value::Object(Default::default()),
        Value::Array(items) => Value::Array(items.into_iter().map(as_lua_holds_it).collect()),
        Value::Number(n) => Value::from(n.as_f64().expect("a JSON number")),
        other => other,
    }
}

/// The rules objects (the Field Guides and the setup object are tested below).
fn scripted(objects: &[Value]) -> Vec<&Value> {
    objects
        .iter()
        .filter(|o| o["LuaScript"].as_str().is_some_and(|s| !s.is_empty()))
        .filter(|o| {
            o["Nickname"]
                .as_str()
                .is_some_and(|n| n.ends_with(" ruleset"))
        })
        .collect()
}

/// Every script of every save loads and runs in Lua 5.2 without a word in the chat; the rules
/// object hands other scripts the ruleset the save carries, whole, and saves it as it was.
#[test]
fn every_saves_scripts_run_in_lua_5_2_and_hand_out_the_ruleset() {
    for dir in games() {
        let (objects, ruleset) = save(&dir);
        let scripts = scripted(&objects);
        assert!(!scripts.is_empty(), "{}: no script", dir.display());
        for object in scripts {
            let table = table();
            let env = table
                .load(object)
                .unwrap_or_else(|e| panic!("{}: {}: {e}", dir.display(), object["Nickname"]));
            assert_eq!(table.chat(), Vec::<String>::new(), "{}", dir.display());
            let get: Function = env.get("getRuleset").unwrap();
            let handed: LuaValue = get.call(()).unwrap();
            let handed: Value = table.lua.from_value(handed).unwrap();
            assert_eq!(
                as_lua_holds_it(handed),
                as_lua_holds_it(ruleset.clone()),
                "{}: the ruleset, whole",
                dir.display()
            );
            let saved: String = env.get::<Function>("onSave").unwrap().call(()).unwrap();
            assert_eq!(saved, object["LuaScriptState"].as_str().unwrap());
        }
    }
}

/// A save whose ruleset the scripts cannot read says so in the chat, in words that say what
/// is wrong and what to do, and hands other scripts no rules (rather than stopping with a Lua
/// error, or playing by rules it misread).
#[test]
fn a_ruleset_the_scripts_cannot_read_is_refused_in_the_chat() {
    for dir in [
        root().join("content/safari-zone"),
        root().join("content/gamewright-safari"),
    ] {
        let (objects, ruleset) = save(&dir);
        let rules = scripted(&objects)
            .into_iter()
            .find(|o| o["Nickname"].as_str().unwrap().ends_with("ruleset"))
            .expect("a rules object");
        let version_key = if ruleset.get("format_version").is_some() {
            "format_version"
        } else {
            "version"
        };
        let version = ruleset[version_key].as_u64().unwrap();
        let format = ruleset["format"].as_str().unwrap();
        let with = |edit: &dyn Fn(&mut Value)| {
            let mut ruleset = ruleset.clone();
            edit(&mut ruleset);
            ruleset.to_string()
        };
        let words = |list: &[&str]| list.iter().map(|w| w.to_string()).collect::<Vec<_>>();
        let cases = [
            (
                String::new(),
                words(&["carries no ruleset", "safari build"]),
            ),
            (
                "{\"format\": ".to_string(),
                words(&["not JSON", "safari build"]),
            ),
            (
                "ruleset.json".to_string(),
                words(&["not JSON", "safari build"]),
            ),
            ("[1, 2]".to_string(), words(&["not JSON", "safari build"])),
            (
                with(&|r| r["format"] = "safari-log".into()),
                words(&["another kind", "safari-log", format]),
            ),
            (
                with(&|r| r[version_key] = (version + 1).into()),
                vec![
                    format!("format version {}", version + 1),
                    format!("read version {version}"),
                    "Build the save again".to_string(),
                ],
            ),
        ];
        for (state, words) in cases {
            let mut object = rules.clone();
            object["LuaScriptState"] = Value::String(state.clone());
            let table = table();
            let env = table.load(&object).expect("no Lua error");
            let chat = table.chat();
            assert_eq!(chat.len(), 1, "{state:.40}: {chat:?}");
            for word in &words {
                assert!(
                    chat[0].contains(word),
                    "{state:.40}: `{word}` in {:?}",
                    chat[0]
                );
            }
            let handed: LuaValue = env.get::<Function>("getRuleset").unwrap().call(()).unwrap();
            assert!(handed.is_nil(), "{state:.40}: no rules handed out");
        }
    }
}

/// The stand-in's objects and the scripts' own code, in Lua (tests/tts/stand_in.lua).
const STAND_IN: &str = include_str!("tts/stand_in.lua");

/// A save set out in the stand-in: every object made, then every script loaded and its
/// `onLoad` run, as the game does. `edit` changes the save first.
pub(crate) struct Tabletop {
    pub stand: Stand,
    /// Each scripted object's script environment and object, by GUID.
    pub scripts: Vec<(String, Table, Table)>,
    pub ruleset: Value,
    /// Every object of the save (contained ones too) by GUID.
    pub saved: HashMap<String, Value>,
    /// The images the save names, by URL.
    pub images: HashMap<String, Vec<u8>>,
}

/// An image's width over its height, from its PNG header.
pub(crate) fn aspect_of(png: &[u8]) -> Option<f64> {
    let decoder = png::Decoder::new(std::io::Cursor::new(png));
    let reader = decoder.read_info().ok()?;
    let info = reader.info();
    Some(info.width as f64 / info.height as f64)
}

pub(crate) fn set_out(dir: &Path, edit: &dyn Fn(&mut Vec<Value>)) -> Tabletop {
    set_out_in_order(dir, edit, &|_| false)
}

/// As [`set_out`], the objects `late` picks coming onto the table after the others loaded.
pub(crate) fn set_out_in_order(
    dir: &Path,
    edit: &dyn Fn(&mut Vec<Value>),
    late: &dyn Fn(&Value) -> bool,
) -> Tabletop {
    let outputs = common::tts_export(dir, "https://example.org/t");
    let images: HashMap<String, Vec<u8>> = outputs
        .iter()
        .filter_map(|(path, bytes)| {
            let file = path.strip_prefix("tts/images/")?;
            Some((format!("https://example.org/t/{file}"), bytes.clone()))
        })
        .collect();
    let aspects: HashMap<String, f64> = images
        .iter()
        .filter_map(|(url, bytes)| Some((url.clone(), aspect_of(bytes)?)))
        .collect();
    let aspects = Rc::new(aspects);
    let saved: Value = serde_json::from_slice(
        outputs
            .iter()
            .find(|(p, _)| p.starts_with("tts/") && p.ends_with(".json"))
            .unwrap()
            .1,
    )
    .unwrap();
    let ruleset: Value = serde_json::from_slice(&outputs["ruleset.json"]).unwrap();
    let mut objects = saved["ObjectStates"].as_array().unwrap().clone();
    edit(&mut objects);
    let stand = table();
    let lua = &stand.lua;
    lua.load(STAND_IN).set_name("stand_in.lua").exec().unwrap();
    let stand_table: Table = lua.globals().get("Stand").unwrap();
    // The conventions (tests/tts/convention.rs): where a local point of an object lies, and
    // how large an object spawned from its data is.
    let vec3 = |t: &Table| -> [f64; 3] { ["x", "y", "z"].map(|k| t.get::<f64>(k).unwrap_or(0.0)) };
    lua.globals()
        .set(
            "stand_world",
            lua.create_function(
                move |lua, (position, rotation, scale, point): (Table, Table, Table, Table)| {
                    let t = convention::Transform {
                        position: vec3(&position),
                        rotation: vec3(&rotation),
                        scale: vec3(&scale),
                    };
                    let [x, y, z] = t.to_world(vec3(&point));
                    let out = lua.create_table()?;
                    out.set("x", x)?;
                    out.set("y", y)?;
                    out.set("z", z)?;
                    Ok(out)
                },
            )
            .unwrap(),
        )
        .unwrap();
    let half_aspects = Rc::clone(&aspects);
    stand_table
        .set(
            "half_of",
            lua.create_function(move |lua, data: LuaValue| {
                let data: Value = lua.from_value(data)?;
                let half = convention::half_extent(&data, &|url| half_aspects.get(url).copied());
                lua.create_sequence_from(half)
            })
            .unwrap(),
        )
        .unwrap();
    let make: Function = stand_table.get("object").unwrap();
    let add: Function = stand_table.get("add").unwrap();
    let fields = |object: &Value| -> Table {
        let t = lua.create_table().unwrap();
        t.set("guid", object["GUID"].as_str().unwrap_or_default())
            .unwrap();
        t.set("name", object["Nickname"].as_str().unwrap_or_default())
            .unwrap();
        t.set(
            "description",
            object["Description"].as_str().unwrap_or_default(),
        )
        .unwrap();
        let kind = match object["Name"].as_str().unwrap_or_default() {
            "DeckCustom" | "Deck" => "Deck",
            "Card" | "CardCustom" => "Card",
            other => other,
        };
        t.set("type", kind).unwrap();
        t.set("memo", object["Memo"].as_str()).unwrap();
        t.set("script_state", object["LuaScriptState"].as_str())
            .unwrap();
        let at = &object["Transform"];
        let transform = convention::Transform::of(object);
        t.set("scale", lua.create_sequence_from(transform.scale).unwrap())
            .unwrap();
        t.set(
            "rotation",
            lua.create_sequence_from(transform.rotation).unwrap(),
        )
        .unwrap();
        let half = convention::half_extent(object, &|url| aspects.get(url).copied());
        t.set("half", lua.create_sequence_from(half).unwrap())
            .unwrap();
        t.set(
            "position",
            lua.create_sequence_from(
                ["posX", "posY", "posZ"].map(|k| at[k].as_f64().unwrap_or(0.0)),
            )
            .unwrap(),
        )
        .unwrap();
        t
    };
    // The objects come onto the table in the save's order, the `late` ones after the others
    // have loaded (the game documents no order: every script must wait for what it needs).
    let (early, late_ones): (Vec<&Value>, Vec<&Value>) = objects.iter().partition(|o| !late(o));
    let mut scripts = Vec::new();
    let run: Function = stand_table.get("run").unwrap();
    for (batch, settle) in [(early, 0.5), (late_ones, 12.0)] {
        let mut made = Vec::new();
        for object in batch {
            let t = fields(object);
            if let Some(cards) = object["ContainedObjects"].as_array() {
                let contained = lua.create_table().unwrap();
                for card in cards {
                    let card: Table = make.call(fields(card)).unwrap();
                    contained.push(card).unwrap();
                }
                t.set("contained", contained).unwrap();
            }
            let o: Table = make.call(t).unwrap();
            add.call::<()>(o.clone()).unwrap();
            made.push((object.clone(), o));
        }
        let mut loaded = Vec::new();
        for (object, o) in &made {
            let Some(script) = object["LuaScript"].as_str().filter(|s| !s.is_empty()) else {
                continue;
            };
            let env = lua.create_table().unwrap();
            let meta = lua.create_table().unwrap();
            meta.set("__index", lua.globals()).unwrap();
            env.set_metatable(Some(meta)).unwrap();
            env.set("self", o.clone()).unwrap();
            env.set("_G", env.clone()).unwrap();
            o.set("script_env", env.clone()).unwrap();
            lua.load(script)
                .set_name(object["Nickname"].as_str().unwrap_or("script"))
                .set_environment(env.clone())
                .exec()
                .unwrap_or_else(|e| panic!("{}: {e}", object["Nickname"]));
            loaded.push((object, env));
        }
        for (object, env) in loaded {
            let on_load: Function = env.get("onLoad").unwrap();
            on_load
                .call::<()>(object["LuaScriptState"].as_str().unwrap_or_default())
                .unwrap_or_else(|e| panic!("{}: onLoad: {e}", object["Nickname"]));
            let o: Table = env.get("self").unwrap();
            scripts.push((object["Nickname"].as_str().unwrap().to_string(), env, o));
        }
        run.call::<()>(settle)
            .unwrap_or_else(|e| panic!("a script waiting: {e}"));
    }
    let mut saved = HashMap::new();
    let mut stack = objects.clone();
    while let Some(object) = stack.pop() {
        if let Some(contained) = object["ContainedObjects"].as_array() {
            stack.extend(contained.iter().cloned());
        }
        saved.insert(
            object["GUID"].as_str().unwrap_or_default().to_string(),
            object,
        );
    }
    Tabletop {
        stand,
        scripts,
        ruleset,
        saved,
        images,
    }
}

impl Tabletop {
    /// How many Field Guides are on the table.
    pub fn sheets(&self) -> usize {
        self.scripts
            .iter()
            .filter(|(name, _, _)| name.starts_with("Field Guide"))
            .count()
    }

    pub fn sheet(&self, n: usize) -> (Table, Table) {
        let (_, env, o) = self
            .scripts
            .iter()
            .filter(|(name, _, _)| name.starts_with("Field Guide"))
            .nth(n)
            .expect("a Field Guide");
        (env.clone(), o.clone())
    }

    pub fn buttons(&self, o: &Table) -> Vec<Table> {
        let buttons: Table = o.get("buttons").unwrap();
        buttons.sequence_values().map(Result::unwrap).collect()
    }

    pub fn labels(&self, o: &Table) -> Vec<String> {
        self.buttons(o)
            .iter()
            .map(|b| {
                // A label broken over two lines reads as one.
                b.get::<Option<String>>("label")
                    .unwrap()
                    .unwrap_or_default()
                    .replace('\n', " ")
            })
            .collect()
    }

    /// The sheet's line of counts: "Turn 3 of 20 · 27 Safari Balls · 14 VP · 5 species".
    fn status(&self, o: &Table) -> String {
        self.labels(o)
            .into_iter()
            .find(|l| l.starts_with("Turn "))
            .expect("a status line")
    }

    pub fn click(&self, env: &Table, o: &Table, label: impl mlua::IntoLua, colour: &str) -> bool {
        let stand: Table = self.stand.lua.globals().get("Stand").unwrap();
        let click: Function = stand.get("click").unwrap();
        click.call((env.clone(), o.clone(), label, colour)).unwrap()
    }

    pub fn auto(&self, env: &Table, o: &Table) -> Option<String> {
        let stand: Table = self.stand.lua.globals().get("Stand").unwrap();
        let auto: Function = stand.get("auto").unwrap();
        auto.call((env.clone(), o.clone())).unwrap()
    }

    /// The box buttons: the first one per placed box, in the ruleset's box order.
    fn marks(&self, o: &Table) -> Vec<String> {
        let boxes = self.ruleset["sheet"]["boxes"].as_array().unwrap().len();
        self.labels(o).into_iter().take(boxes).collect()
    }

    /// The VP of the boxes marked, from the ruleset.
    fn marked_vp(&self, o: &Table) -> u64 {
        let vp: HashMap<&str, u64> = self.ruleset["field_guide"]["sections"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|s| s["tracks"].as_array().unwrap())
            .flat_map(|t| t["boxes"].as_array().unwrap())
            .map(|b| (b["id"].as_str().unwrap(), b["vp"].as_u64().unwrap()))
            .collect();
        let places = self.ruleset["sheet"]["boxes"].as_array().unwrap();
        self.marks(o)
            .iter()
            .zip(places)
            .filter(|(mark, _)| *mark == "X")
            .map(|(_, place)| vp[place["id"].as_str().unwrap()])
            .sum()
    }
}

fn default_game() -> PathBuf {
    root().join("content/safari-zone")
}

/// Every seat's Field Guide loads without a word in the chat and makes a button for every box,
/// in the ruleset's order, each saying which box it is (where the buttons land is
/// `tts_table::every_table_looks_right_from_every_seat`'s).
#[test]
fn each_field_guide_makes_a_button_for_every_box() {
    let table = set_out(&default_game(), &|_| {});
    assert_eq!(table.stand.chat(), Vec::<String>::new());
    let sheet = &table.ruleset["sheet"];
    let sheets = table.sheets();
    assert_eq!(
        sheets as u64,
        table.ruleset["parameters"]["players_max"].as_u64().unwrap()
    );
    for n in 0..sheets {
        let (_, o) = table.sheet(n);
        let buttons = table.buttons(&o);
        let places = sheet["boxes"].as_array().unwrap();
        assert!(buttons.len() > places.len());
        for (place, button) in places.iter().zip(&buttons) {
            assert!(
                !button.get::<String>("tooltip").unwrap().is_empty(),
                "{}: a box says what it is",
                place["id"]
            );
        }
        assert!(table.status(&o).starts_with("Turn 0 of 20"));
        assert!(
            table
                .labels(&o)
                .contains(&"Roll the Expedition Dice".to_string())
        );
    }
}

/// A whole game played on one Field Guide by its buttons alone: each turn fills its Turn
/// Tracker box, the VP shown is the VP of the boxes marked, and the game ends with the
/// player out; the cards drawn leave the deck.
#[test]
fn a_whole_game_is_played_on_a_field_guide_by_its_buttons() {
    let table = set_out(&default_game(), &|_| {});
    let (env, o) = table.sheet(0);
    let deck_size = |table: &Tabletop| -> usize {
        let deck: Table = table
            .stand
            .lua
            .load("for _, o in ipairs(getObjects()) do if o.type == 'Deck' then return o end end")
            .eval()
            .unwrap();
        deck.get::<Table>("contained").unwrap().raw_len()
    };
    let full = deck_size(&table);
    let mut clicks = 0;
    let mut turns = 0;
    let created = |o: &Table| o.get::<usize>("created").unwrap();
    let made_on_load = created(&o);
    let mut most_made = 0;
    while let Some(clicked) = {
        let before = created(&o);
        let clicked = table.auto(&env, &o);
        most_made = most_made.max(created(&o) - before);
        clicked
    } {
        clicks += 1;
        assert!(clicks < 5000, "the game goes on and on");
        if clicked == "Roll the Expedition Dice" {
            turns += 1;
            let status = table.status(&o);
            assert!(
                status.starts_with(&format!("Turn {turns} of 20")),
                "{status}"
            );
        }
        if let Some(prompt) = table
            .labels(&o)
            .into_iter()
            .find(|l| l.starts_with("Click dice to re-roll"))
        {
            // The dice showing, and how many Hazards of the limit they show.
            let hazards = table
                .labels(&o)
                .iter()
                .filter(|l| l.starts_with("Hazard"))
                .count();
            assert!(
                prompt.contains(&format!("{hazards} of the 3 Hazards")),
                "{prompt}"
            );
        }
        let status = table.status(&o);
        assert!(
            status.contains(&format!(" {} VP", table.marked_vp(&o))),
            "after `{clicked}`: {status}, while the marked boxes are worth {}",
            table.marked_vp(&o)
        );
    }
    assert!(
        turns >= 5,
        "{turns} turns: {:?} {:?}",
        &table.labels(&o)[table.marks(&o).len()..],
        table.stand.chat()
    );
    // The box buttons are made once; a click makes only the controls again.
    let boxes = table.ruleset["sheet"]["boxes"].as_array().unwrap().len();
    assert!(made_on_load >= boxes, "{made_on_load} buttons on load");
    assert!(most_made <= 12, "a click made {most_made} buttons");
    let labels = table.labels(&o);
    assert!(
        labels.iter().any(|l| l.starts_with("Out: ")),
        "the sheet says the player is out: {labels:?}"
    );
    let chat = table.stand.chat();
    assert!(chat.iter().any(|l| l.contains("rolled")), "{chat:?}");
    assert!(chat.iter().any(|l| l.contains("is out")), "{chat:?}");
    assert!(
        !chat.iter().any(|l| l.contains("stopped")),
        "no rule stopped: {chat:?}"
    );
    assert!(deck_size(&table) < full, "cards were drawn");
}

/// The marks survive a save and a load: the sheet saved mid-game loads to the same marks and
/// counts, and loading draws no card and rolls nothing again.
#[test]
fn marks_survive_a_save_and_a_load() {
    let table = set_out(&default_game(), &|_| {});
    let (env, o) = table.sheet(0);
    let mut rolls = 0;
    while rolls < 6 {
        match table.auto(&env, &o) {
            Some(clicked) => rolls += (clicked == "Roll the Expedition Dice") as u32,
            None => break,
        }
    }
    let marks = table.marks(&o);
    assert!(marks.iter().filter(|m| *m == "X").count() >= 6);
    let status = table.status(&o);
    let labels = table.labels(&o);
    let saved: String = env.get::<Function>("onSave").unwrap().call(()).unwrap();
    let guid: String = o.get::<Function>("getGUID").unwrap().call(()).unwrap();
    let reloaded = set_out(&default_game(), &|objects| {
        for object in objects.iter_mut() {
            if object["GUID"] == guid.as_str() {
                object["LuaScriptState"] = Value::String(saved.clone());
            }
        }
    });
    let (_, again) = reloaded.sheet(0);
    assert_eq!(reloaded.marks(&again), marks);
    assert_eq!(reloaded.status(&again), status);
    assert_eq!(reloaded.labels(&again), labels);
    assert_eq!(reloaded.stand.chat(), Vec::<String>::new());
    let deck: Table = reloaded
        .stand
        .lua
        .load("for _, o in ipairs(getObjects()) do if o.type == 'Deck' then return o end end")
        .eval()
        .unwrap();
    let fresh = set_out(&default_game(), &|_| {});
    let fresh_deck: Table = fresh
        .stand
        .lua
        .load("for _, o in ipairs(getObjects()) do if o.type == 'Deck' then return o end end")
        .eval()
        .unwrap();
    assert_eq!(
        deck.get::<Table>("contained").unwrap().raw_len(),
        fresh_deck.get::<Table>("contained").unwrap().raw_len(),
        "loading draws no card"
    );
}

/// A box the rules forbid now is refused, to the player who clicked, with the reason: the
/// track's order, a box that fills itself, a need unmet; another seated player's sheet is
/// not theirs to mark.
#[test]
fn a_box_the_rules_forbid_is_refused_with_the_reason() {
    let table = set_out(&default_game(), &|_| {});
    let (env, o) = table.sheet(0);
    let boxes: Vec<&Value> = table.ruleset["field_guide"]["sections"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s["tracks"].as_array().unwrap())
        .flat_map(|t| t["boxes"].as_array().unwrap())
        .collect();
    let index = |test: &dyn Fn(&Value) -> bool| boxes.iter().position(|b| test(b)).unwrap() + 1;
    // The second box of a track of dice boxes.
    let second = {
        let tracks = table.ruleset["field_guide"]["sections"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|s| s["tracks"].as_array().unwrap());
        let mut found = None;
        for track in tracks {
            let list = track["boxes"].as_array().unwrap();
            if list.len() > 1 && list[1]["fill"]["kind"] == "dice" {
                found = Some(list[1]["id"].as_str().unwrap().to_string());
                break;
            }
        }
        found.unwrap()
    };
    let cases: Vec<(usize, Vec<&str>)> = vec![
        (
            index(&|b| b["id"] == second.as_str()),
            vec!["in order", "first"],
        ),
        (
            index(&|b| b["fill"]["kind"] == "turn"),
            vec!["cannot be filled by a click now", "each turn begins"],
        ),
        (
            index(&|b| {
                b["requires"]
                    .as_array()
                    .is_some_and(|r| r.iter().any(|r| r["kind"] == "item"))
                    && b["fill"]["kind"] == "dice"
            }),
            vec!["needs the"],
        ),
    ];
    for (n, words) in cases {
        let before = table.stand.chat().len();
        assert!(table.click(&env, &o, n, "White"));
        let chat = table.stand.chat();
        assert_eq!(chat.len(), before + 1, "box {n}: {chat:?}");
        let said = chat.last().unwrap();
        assert!(said.starts_with("[to White]"), "{said}");
        for word in words {
            assert!(said.contains(word), "box {n}: `{word}` in {said}");
        }
    }
    assert_eq!(table.marks(&o).iter().filter(|m| *m == "X").count(), 0);
    // Red is seated and clicks White's sheet; White is seated too.
    table
        .stand
        .lua
        .load("Stand.seated.White = true")
        .exec()
        .unwrap();
    let before = table.status(&o);
    assert!(table.click(&env, &o, "Roll the Expedition Dice", "Red"));
    let chat = table.stand.chat();
    assert!(
        chat.last().unwrap().contains("White's Field Guide"),
        "{chat:?}"
    );
    assert_eq!(table.status(&o), before);
}

/// A Field Guide whose rules object carries a ruleset it cannot read says so in the chat, in
/// words that say what to do, and marks nothing.
#[test]
fn a_field_guide_refuses_a_ruleset_it_cannot_read() {
    type Edit = Box<dyn Fn(&mut Value)>;
    let cases: Vec<(&str, Edit, Vec<&str>)> = vec![
        (
            "older",
            Box::new(|r: &mut Value| r["format_version"] = 2.into()),
            vec!["format version 2", "safari build"],
        ),
        (
            "other",
            Box::new(|r: &mut Value| r["format"] = "safari-log".into()),
            vec!["another kind", "safari-log"],
        ),
        (
            "broken",
            Box::new(|r: &mut Value| {
                r["deck"]["cards"][0]["species"] = "missingno".into();
            }),
            vec!["does not hold together", "missingno"],
        ),
        (
            "no places",
            Box::new(|r: &mut Value| {
                r.as_object_mut().unwrap().remove("sheet");
            }),
            vec!["where the Field Guide's boxes are printed"],
        ),
    ];
    for (name, edit, words) in cases {
        let table = set_out(&default_game(), &|objects| {
            for object in objects.iter_mut() {
                if object["Nickname"]
                    .as_str()
                    .is_some_and(|n| n.ends_with("ruleset"))
                {
                    let mut ruleset: Value =
                        serde_json::from_str(object["LuaScriptState"].as_str().unwrap()).unwrap();
                    edit(&mut ruleset);
                    object["LuaScriptState"] = Value::String(ruleset.to_string());
                }
            }
        });
        let (_, o) = table.sheet(0);
        let chat = table.stand.chat();
        let sheet_said: Vec<&String> = chat
            .iter()
            .filter(|l| l.starts_with("Field Guide"))
            .collect();
        assert!(!sheet_said.is_empty(), "{name}: {chat:?}");
        for word in words {
            assert!(
                sheet_said[0].contains(word),
                "{name}: `{word}` in {}",
                sheet_said[0]
            );
        }
        assert!(table.buttons(&o).len() <= 1, "{name}: no marks");
    }
}

impl Tabletop {
    /// The objects on the table now: name, kind, and how many objects each holds.
    fn census(&self) -> Vec<(String, String, usize)> {
        let census: Table = self.stand.lua.load("return Stand.census()").eval().unwrap();
        census
            .sequence_values::<Table>()
            .map(Result::unwrap)
            .map(|t| (t.get(1).unwrap(), t.get(2).unwrap(), t.get(3).unwrap()))
            .collect()
    }

    /// Clicks the setup object's button for `players`.
    pub fn choose_players(&self, players: u32) {
        let (_, env, o) = self
            .scripts
            .iter()
            .find(|(name, _, _)| name.ends_with("how many players?"))
            .expect("a setup object");
        assert!(
            self.click(env, o, players.to_string(), "White"),
            "a button for {players} players: {:?}",
            self.labels(o)
        );
        // What it put out finishes spawning, and the decks are dealt.
        self.stand.lua.load("Stand.run(1)").exec().unwrap();
    }

    /// How many cards each colour holds in its hand, in seat order of the colours dealt to.
    fn hands(&self) -> BTreeMap<String, usize> {
        let hands: Table = self.stand.lua.load("return Stand.hands").eval().unwrap();
        hands
            .pairs::<String, Table>()
            .map(Result::unwrap)
            .map(|(colour, cards)| (colour, cards.raw_len()))
            .collect()
    }
}

/// The setup object asks how many play and sets the table for that many: Safari Zone RNW's
/// table keeps that many Field Guides and hand zones; Gamewright's Safari's shuffles its deck
/// then, deals a hand into each seat's hand zone and lays its jungle as the rulebook says for
/// that count (five players: six cards each, a 5 x 5 jungle, the Hyena 4 set aside). Then the
/// setup object leaves.
#[test]
fn the_table_is_set_for_the_number_of_players_chosen() {
    for players in 1..=4u32 {
        let table = set_out(&default_game(), &|_| {});
        table.choose_players(players);
        let census = table.census();
        let count = |test: &dyn Fn(&(String, String, usize)) -> bool| {
            census.iter().filter(|o| test(o)).count()
        };
        assert_eq!(
            count(&|o| o.0.starts_with("Field Guide")),
            players as usize,
            "{players}: {census:?}"
        );
        assert_eq!(count(&|o| o.1 == "HandTrigger"), players as usize);
        assert_eq!(count(&|o| o.0.ends_with("how many players?")), 0);
        assert!(
            table
                .stand
                .chat()
                .last()
                .unwrap()
                .contains(&format!("set for {players} player"))
        );
    }

    let gamewright = root().join("content/gamewright-safari");
    for (players, each, jungle) in [(2u32, 7, 42), (3, 7, 35), (4, 7, 28), (5, 6, 25)] {
        let seats = players as usize;
        let table = set_out(&gamewright, &|_| {});
        table.choose_players(players);
        let census = table.census();
        let hands = table.hands();
        let colours = ["White", "Red", "Yellow", "Green", "Blue"];
        let expected: BTreeMap<String, usize> = colours[..seats]
            .iter()
            .map(|c| (c.to_string(), each))
            .collect();
        assert_eq!(hands, expected, "{players} players: {census:?}");
        // Shuffled when dealt, not when built: every load deals anew.
        let shuffled: usize = table
            .stand
            .lua
            .load("return Stand.shuffles or 0")
            .eval()
            .unwrap();
        assert!(shuffled >= 1, "{players} players: the deck is shuffled");
        let zones = census.iter().filter(|o| o.1 == "HandTrigger").count();
        assert_eq!(zones, seats, "{players} players");
        let aside: Vec<&(String, String, usize)> = census
            .iter()
            .filter(|o| o.0.contains("set aside"))
            .collect();
        assert_eq!(aside.len(), (players == 5) as usize, "{players}: {aside:?}");
        // The jungle: the cards laid one by one (each a lone card on the table).
        let lone_animals = census
            .iter()
            .filter(|o| o.1 == "Card" && !o.0.contains("set aside"))
            .count();
        assert_eq!(lone_animals, jungle, "{players} players");
    }
}

/// Every save's scripts load in the stand-in without a word in the chat, and its setup object
/// (where the game has more than one number of players) sets every number it offers.
#[test]
fn every_save_loads_and_sets_every_number_of_players() {
    let mut chosen = 0;
    for dir in games() {
        let table = set_out(&dir, &|_| {});
        assert_eq!(
            table.stand.chat(),
            Vec::<String>::new(),
            "{}",
            dir.display()
        );
        let Some((_, _, setup)) = table
            .scripts
            .iter()
            .find(|(name, _, _)| name.ends_with("how many players?"))
        else {
            continue;
        };
        let counts: Vec<u32> = table
            .labels(setup)
            .iter()
            .filter_map(|l| l.parse().ok())
            .collect();
        assert!(!counts.is_empty(), "{}: {counts:?}", dir.display());
        for players in counts {
            let table = set_out(&dir, &|_| {});
            table.choose_players(players);
            let chat = table.stand.chat();
            assert_eq!(chat.len(), 1, "{}: {chat:?}", dir.display());
            assert!(chat[0].contains(&format!("set for {players} player")));
            let zones = table
                .census()
                .iter()
                .filter(|o| o.1 == "HandTrigger")
                .count();
            assert_eq!(zones, players as usize, "{}", dir.display());
        }
        chosen += 1;
    }
    assert!(chosen >= 2, "the default game and Gamewright's Safari ask");
}

/// When the table fails a sheet (the deck's `takeObject` raising, as when a player holds the
/// deck), the sheet says so, keeps its marks and offers to go on; going on, the game goes on.
#[test]
fn a_sheet_goes_on_when_the_table_fails_it() {
    let table = set_out(&default_game(), &|_| {});
    let (env, o) = table.sheet(0);
    let lua = &table.stand.lua;
    lua.load(
        "for _, o in ipairs(getObjects()) do if o.type == 'Deck' then
           Stand.take = o.takeObject
           o.takeObject = function() error('the deck is held') end
         end end",
    )
    .exec()
    .unwrap();
    let mut clicks = 0;
    while !table
        .stand
        .chat()
        .iter()
        .any(|l| l.contains("could not follow"))
    {
        table.auto(&env, &o).expect("the game goes on until a draw");
        clicks += 1;
        assert!(clicks < 500, "no draw");
    }
    let marks = table.marks(&o);
    assert!(table.labels(&o).contains(&"Go on".to_string()));
    lua.load(
        "for _, o in ipairs(getObjects()) do if o.type == 'Deck' then o.takeObject = Stand.take end end",
    )
    .exec()
    .unwrap();
    assert!(table.click(&env, &o, "Go on", "White"));
    assert!(
        !table
            .labels(&o)
            .contains(&"The table could not follow".to_string())
    );
    assert_eq!(
        table.marks(&o).iter().filter(|m| *m == "X").count(),
        marks.iter().filter(|m| *m == "X").count(),
        "no mark lost"
    );
    let mut more = 0;
    while table.auto(&env, &o).is_some() {
        more += 1;
        assert!(more < 5000);
    }
    assert!(table.labels(&o).iter().any(|l| l.starts_with("Out: ")));
}

/// DiceAFARI's map object lays the Safari Tiles out in the chosen Map Card's shape, from the
/// ruleset the table carries, and a Photo Token face down on each space between two tiles.
#[test]
fn diceafari_lays_its_map_out_from_a_map_card() {
    let dir = root().join("content/diceafari");
    let table = set_out(&dir, &|_| {});
    assert_eq!(table.stand.chat(), Vec::<String>::new());
    let (_, env, map) = table
        .scripts
        .iter()
        .find(|(name, _, _)| name.contains("lay out the map"))
        .expect("a map object");
    let layouts = table.ruleset["rules"]["map_layouts"].as_array().unwrap();
    let labels = table.labels(map);
    for layout in layouts {
        let card = layout["card"].as_str().unwrap();
        assert!(
            labels.iter().any(|l| l.to_lowercase() == card),
            "{card} in {labels:?}"
        );
    }
    let elephant = layouts.iter().find(|l| l["card"] == "elephant").unwrap();
    let (tiles, spaces) = (
        elephant["tiles"].as_array().unwrap().len(),
        elephant["photo_spaces"].as_array().unwrap().len(),
    );
    let bag = |name: &str| -> Table {
        table
            .stand
            .lua
            .load(format!(
                "for _, o in ipairs(getObjects()) do if o.type == 'Bag' and o.getName() == '{name}' then return o end end"
            ))
            .eval()
            .unwrap()
    };
    let held = |name: &str| bag(name).get::<Table>("contained").unwrap().raw_len();
    let (tiles_before, photos_before) = (held("Safari Tiles"), held("Photo Tokens"));
    assert!(table.click(env, map, "Elephant", "White"));
    assert_eq!(held("Safari Tiles"), tiles_before - tiles);
    assert_eq!(held("Photo Tokens"), photos_before - spaces);
    let chat = table.stand.chat();
    assert!(
        chat.last().unwrap().contains(&format!(
            "Elephant map, {tiles} tiles and {spaces} Photo Tokens"
        )),
        "{chat:?}"
    );
    // Where the pieces went: the tiles on a grid, each token between two of them, face down.
    let placed: Table = table
        .stand
        .lua
        .load(
            "local out = {}
             for _, o in ipairs(getObjects()) do
               if o.getName() ~= nil and o.taken then
                 table.insert(out, { o.getName(), o.position.x, o.position.z, o.rotation.z })
               end
             end
             return out",
        )
        .eval()
        .unwrap();
    let placed: Vec<(String, f64, f64, f64)> = placed
        .sequence_values::<Table>()
        .map(Result::unwrap)
        .map(|t| {
            (
                t.get(1).unwrap(),
                t.get(2).unwrap(),
                t.get(3).unwrap(),
                t.get(4).unwrap(),
            )
        })
        .collect();
    assert_eq!(placed.len(), tiles + spaces);
    let face_down = placed.iter().filter(|p| p.3 == 180.0).count();
    assert_eq!(face_down, spaces, "the Photo Tokens lie face down");
    let mut spots: Vec<(i64, i64)> = placed
        .iter()
        .map(|p| ((p.1 * 100.0).round() as i64, (p.2 * 100.0).round() as i64))
        .collect();
    spots.sort();
    spots.dedup();
    assert_eq!(
        spots.len(),
        tiles + spaces,
        "every piece on a spot of its own"
    );
    let gone: bool = table
        .stand
        .lua
        .load("return Stand.objects[...] == nil")
        .call(
            map.get::<Function>("getGUID")
                .unwrap()
                .call::<String>(())
                .unwrap(),
        )
        .unwrap();
    assert!(gone, "the map object leaves the table");
}

/// A setup that hands a kind of tokens to each player (DiceAFARI's travel tokens, a colour
/// each) puts that many sets in front of the seats, whatever the number chosen, and the kinds
/// left over aside.
#[test]
fn each_seat_gets_the_tokens_its_setup_hands_it() {
    let dir = root().join("content/diceafari");
    for players in [2u32, 3, 4] {
        let table = set_out(&dir, &|_| {});
        if players != 2 {
            table.choose_players(players);
        }
        let counts: Table = table
            .stand
            .lua
            .load("return Stand.descriptions()")
            .eval()
            .unwrap();
        let mut handed: Vec<(String, usize)> = counts
            .pairs::<String, usize>()
            .map(Result::unwrap)
            .filter(|(d, _)| d.starts_with("Travel Tokens: "))
            .collect();
        handed.sort();
        let colours: Vec<String> = (0..players as usize)
            .map(|seat| ["White", "Red", "Yellow", "Green"][seat].to_string())
            .collect();
        let mut expected: Vec<(String, usize)> = colours
            .iter()
            .map(|c| (format!("Travel Tokens: {c}'s"), 18))
            .collect();
        expected.sort();
        assert_eq!(handed, expected, "{players} players");
        let supply = counts
            .pairs::<String, usize>()
            .map(Result::unwrap)
            .find(|(d, _)| d == "Travel Tokens")
            .map_or(0, |(_, n)| n);
        assert_eq!(
            supply,
            18 * (4 - players as usize),
            "{players} players: the rest aside"
        );
    }
}

/// Every save's scripts wait for the rules object: with it coming onto the table after every
/// other object has loaded (the game documents no order), each sheet and map comes up as it
/// does when the rules object is first, and nothing is said in the chat.
#[test]
fn every_script_waits_for_the_rules_object() {
    for game in games() {
        let rules_last = |o: &Value| {
            o["Nickname"]
                .as_str()
                .is_some_and(|n| n.ends_with(" ruleset"))
        };
        let first = set_out(&game, &|_| {});
        let last = set_out_in_order(&game, &|_| {}, &rules_last);
        assert_eq!(
            last.stand.chat(),
            Vec::<String>::new(),
            "{}",
            game.display()
        );
        let buttons = |table: &Tabletop| -> Vec<(String, Vec<String>)> {
            let mut all: Vec<(String, Vec<String>)> = table
                .scripts
                .iter()
                .map(|(name, _, o)| (name.clone(), table.labels(o)))
                .collect();
            all.sort();
            all
        };
        assert_eq!(buttons(&last), buttons(&first), "{}", game.display());
    }
}

/// A load or a rewind in the middle of an encounter keeps the cards it drew: the sheet's script
/// loaded again from its save (as the game does on a rewind) still lets them go to the discard
/// pile, rather than leaving them in front of the sheet.
#[test]
fn a_load_mid_encounter_keeps_the_cards_drawn() {
    let table = set_out(&default_game(), &|_| {});
    let (env, o) = table.sheet(0);
    let mut steps = 0;
    while !table.labels(&o).iter().any(|l| l == "Let them go") {
        assert!(
            table.auto(&env, &o).is_some() && steps < 400,
            "no encounter"
        );
        steps += 1;
    }
    let saved: String = env.get::<Function>("onSave").unwrap().call(()).unwrap();
    let drawn: Vec<Table> = table
        .stand
        .lua
        .load("local out = {} for _, o in ipairs(getObjects()) do if o.type == 'Card' then table.insert(out, o) end end return out")
        .eval::<Table>()
        .unwrap()
        .sequence_values()
        .map(Result::unwrap)
        .collect();
    assert!(!drawn.is_empty());
    // The script loaded again, from its save, on the same object.
    let lua = &table.stand.lua;
    let again = lua.create_table().unwrap();
    let meta = lua.create_table().unwrap();
    meta.set("__index", lua.globals()).unwrap();
    again.set_metatable(Some(meta)).unwrap();
    again.set("self", o.clone()).unwrap();
    again.set("_G", again.clone()).unwrap();
    let script = safari::rules::safari_zone::tts::field_guide_lua();
    lua.load(script.as_str())
        .set_environment(again.clone())
        .exec()
        .unwrap();
    again
        .get::<Function>("onLoad")
        .unwrap()
        .call::<()>(saved)
        .unwrap();
    let run: Function = lua
        .globals()
        .get::<Table>("Stand")
        .unwrap()
        .get("run")
        .unwrap();
    run.call::<()>(1.0).unwrap();
    let moves = |cards: &[Table]| -> Vec<i64> {
        cards
            .iter()
            .map(|c| c.get::<i64>("moves").unwrap())
            .collect()
    };
    // The cards of this encounter: those not moved since they were drawn (a card caught on
    // an earlier turn lies by the sheet, moved once).
    let drawn: Vec<Table> = drawn
        .into_iter()
        .filter(|c| c.get::<i64>("moves").unwrap() == 0)
        .collect();
    assert!(!drawn.is_empty());
    let before = moves(&drawn);
    assert!(table.click(&again, &o, "Let them go", "White"));
    let after = moves(&drawn);
    assert!(
        before.iter().zip(&after).all(|(b, a)| a > b),
        "every card drawn goes to the discard pile after the load: {before:?} then {after:?}"
    );
}

/// Once every Field Guide on the table is out, the chat names the winner: the most VP, ties
/// broken by unique species (the Park Rules), as each sheet's own line says it ended.
#[test]
fn the_winner_is_announced_when_every_sheet_is_out() {
    let table = set_out(&default_game(), &|_| {});
    let sheets = table.sheets();
    let mut finals = Vec::new();
    for n in 0..sheets {
        let (env, o) = table.sheet(n);
        let mut steps = 0;
        while table.auto(&env, &o).is_some() {
            steps += 1;
            assert!(steps < 5000, "a game that does not end");
        }
        let prompt = table
            .labels(&o)
            .into_iter()
            .find(|l| l.starts_with("Out: "))
            .expect("out");
        let numbers: Vec<u64> = prompt
            .split(|c: char| !c.is_ascii_digit())
            .filter_map(|w| w.parse().ok())
            .collect();
        let colour = table
            .scripts
            .iter()
            .filter(|(n, _, _)| n.starts_with("Field Guide"))
            .nth(n)
            .unwrap()
            .0
            .clone();
        finals.push((numbers[0], numbers[1], colour));
        let announced = table
            .stand
            .chat()
            .iter()
            .any(|l| l.contains("every Field Guide is out"));
        assert_eq!(
            announced,
            n + 1 == sheets,
            "announced only once every sheet is out"
        );
    }
    let best = finals
        .iter()
        .map(|(vp, species, _)| (*vp, *species))
        .max()
        .unwrap();
    let winners: Vec<String> = finals
        .iter()
        .filter(|(vp, species, _)| (*vp, *species) == best)
        .map(|(_, _, name)| {
            name.trim_start_matches("Field Guide (")
                .trim_end_matches(')')
                .to_string()
        })
        .collect();
    let line = table
        .stand
        .chat()
        .into_iter()
        .rev()
        .find(|l| l.contains("every Field Guide is out"))
        .unwrap();
    assert!(
        line.contains(&winners.join(" and ")),
        "{line} for {finals:?}"
    );
    assert!(
        line.contains(&format!("with {} VP and {} species", best.0, best.1)),
        "{line}"
    );
}

/// A person at the table chooses what the Repel sends away and which capture die the Poké
/// Doll keeps, by the sheet's own buttons: each click is taken (the sheet asks something else
/// next), and the game plays on to its end. The player fills the Repel's and the Poké Doll's
/// tracks first where it can, so that both items come to hand.
#[test]
fn the_sheets_repel_and_poke_doll_buttons_are_a_persons_choice() {
    let table = set_out(&default_game(), &|_| {});
    let sheets = table.sheets();
    let (mut repelled, mut kept, mut offered) = (0, 0, 0);
    for n in 0..sheets {
        let (env, o) = table.sheet(n);
        let mut steps = 0;
        loop {
            steps += 1;
            assert!(steps < 5000, "a game that does not end");
            let buttons = table.buttons(&o);
            let labels = table.labels(&o);
            let tooltip = |b: &Table| {
                b.get::<Option<String>>("tooltip")
                    .unwrap()
                    .unwrap_or_default()
            };
            let gold = |b: &Table| {
                b.get::<Option<Vec<f64>>>("color")
                    .unwrap()
                    .is_some_and(|c| c.len() >= 2 && c[0] == 1.0 && c[1] == 0.8)
            };
            // A die kept, else every other Repel's species offered (not the prompt that asks
            // for one: each Repel spends a Trainer face a Doll needs), else the Repel's or the
            // Doll's track.
            let keep_die = labels.iter().position(|l| l.starts_with("Keep die "));
            let repel = labels
                .iter()
                .position(|l| l.starts_with("Repel ") && !l.starts_with("Repel a species"));
            if repel.is_some() {
                offered += 1;
            }
            let chosen = keep_die.or(repel.filter(|_| offered % 2 == 1));
            let item_track = buttons.iter().position(|b| {
                gold(b) && (tooltip(b).contains("Repel") || tooltip(b).contains("Poké Doll"))
            });
            if let Some(i) = chosen {
                let l = &labels[i];
                if l.starts_with("Repel ") {
                    repelled += 1;
                } else {
                    kept += 1;
                }
                assert!(table.click(&env, &o, (i + 1) as i64, "White"), "{l}");
                assert_ne!(table.labels(&o), labels, "{l} was not taken");
            } else if let Some(i) = item_track {
                assert!(table.click(&env, &o, (i + 1) as i64, "White"));
            } else if table.auto(&env, &o).is_none() {
                break;
            }
        }
        assert!(
            table.labels(&o).iter().any(|l| l.starts_with("Out: ")),
            "sheet {n} did not end"
        );
    }
    assert!(
        repelled > 0 && kept > 0,
        "{repelled} Repels, {kept} dice kept"
    );
}
