//! The JSON Schemas in schema/ are generated from the format types; they must be current.

use std::path::Path;

#[test]
fn checked_in_schemas_are_up_to_date() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("schema");
    for (name, expected) in safari::schemas() {
        let actual = std::fs::read_to_string(dir.join(name)).unwrap_or_default();
        assert!(
            actual == expected,
            "schema/{name} is out of date: run `cargo run -- schema schema`"
        );
    }
}

#[test]
fn the_default_game_validates_against_the_schemas() {
    let game = Path::new(env!("CARGO_MANIFEST_DIR")).join("content/safari-zone");
    for (file, schema) in [
        ("game.toml", "game.schema.json"),
        ("deck.toml", "deck.schema.json"),
        ("dice.toml", "dice.schema.json"),
        ("species.toml", "species.schema.json"),
        ("items.toml", "items.schema.json"),
    ] {
        let text = std::fs::read_to_string(game.join(file)).unwrap();
        let value: toml::Value = toml::from_str(&text).unwrap();
        let instance = serde_json::to_value(value).unwrap();
        let schema: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(
                Path::new(env!("CARGO_MANIFEST_DIR"))
                    .join("schema")
                    .join(schema),
            )
            .unwrap(),
        )
        .unwrap();
        let validator = jsonschema::validator_for(&schema).expect("a valid schema");
        let errors: Vec<String> = validator
            .iter_errors(&instance)
            .map(|e| e.to_string())
            .collect();
        assert!(errors.is_empty(), "{file}: {errors:?}");
    }
}
