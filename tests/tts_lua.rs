//! The Tabletop Simulator saves' scripts, run. Tabletop Simulator runs MoonSharp, a Lua 5.2;
//! these tests run every script a save carries in Lua 5.2 (mlua's vendored interpreter) with
//! what the game leaves out left out (`io`, `debug`, `load`, `require` and the like, and all
//! of `os` but its clock and dates), against a stand-in of the part of the game's API the
//! scripts use, which records what they do (the chat among it).

use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use mlua::{Function, Lua, LuaOptions, LuaSerdeExt, StdLib, Table, Value as LuaValue};
use serde_json::Value;

#[allow(dead_code)] // the export only, of what more than one test file reads.
mod common;

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
struct Stand {
    lua: Lua,
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

    fn chat(&self) -> Vec<String> {
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

fn scripted(objects: &[Value]) -> Vec<&Value> {
    objects
        .iter()
        .filter(|o| o["LuaScript"].as_str().is_some_and(|s| !s.is_empty()))
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
