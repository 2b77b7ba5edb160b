//! The default game, built into the binary: `safari init` copies it, and `safari check`,
//! `build` and `sim` use it when run outside a repository with no game folder.

use crate::world::GameFolder;

/// The default game's files, by name in the game folder.
pub const DEFAULT_GAME: &[(&str, &str)] = &[
    (
        "game.toml",
        include_str!("../content/safari-zone/game.toml"),
    ),
    (
        "items.toml",
        include_str!("../content/safari-zone/items.toml"),
    ),
    (
        "species.toml",
        include_str!("../content/safari-zone/species.toml"),
    ),
    (
        "dice.toml",
        include_str!("../content/safari-zone/dice.toml"),
    ),
    (
        "deck.toml",
        include_str!("../content/safari-zone/deck.toml"),
    ),
    (
        "field-guide.kdl",
        include_str!("../content/safari-zone/field-guide.kdl"),
    ),
    (
        "park-rules.typ",
        include_str!("../content/safari-zone/park-rules.typ"),
    ),
];

/// The packs of games made of components, built in too, so that `safari init --from PACK`
/// works anywhere: (pack, its files by name).
pub const PACKS: &[(&str, &[(&str, &str)])] = &[
    (
        "gamewright-safari",
        &[
            (
                "game.toml",
                include_str!("../content/gamewright-safari/game.toml"),
            ),
            (
                "components.toml",
                include_str!("../content/gamewright-safari/components.toml"),
            ),
        ],
    ),
    (
        "diceafari",
        &[
            ("game.toml", include_str!("../content/diceafari/game.toml")),
            (
                "components.toml",
                include_str!("../content/diceafari/components.toml"),
            ),
            ("maps.toml", include_str!("../content/diceafari/maps.toml")),
            (
                "templates/map-front.typ",
                include_str!("../content/diceafari/templates/map-front.typ"),
            ),
        ],
    ),
    (
        "tricky-safari",
        &[
            (
                "game.toml",
                include_str!("../content/tricky-safari/game.toml"),
            ),
            (
                "components.toml",
                include_str!("../content/tricky-safari/components.toml"),
            ),
            (
                "photo-log.kdl",
                include_str!("../content/tricky-safari/photo-log.kdl"),
            ),
        ],
    ),
];

/// A folder holding the built-in default game.
pub fn default_game() -> GameFolder {
    let mut folder = GameFolder::in_memory().with_label("the built-in Safari Zone RNW");
    for (name, text) in DEFAULT_GAME {
        folder.add_source(*name, *text);
    }
    folder
}

/// A manifest with its `id` and `name` set, everything else (comments, order, tables) as
/// written; an error when the text is not TOML.
pub fn renamed(manifest: &str, id: &str, name: &str) -> Result<String, toml_edit::TomlError> {
    let mut document: toml_edit::DocumentMut = manifest.parse()?;
    document["id"] = toml_edit::value(id);
    document["name"] = toml_edit::value(name);
    Ok(document.to_string())
}

/// The README `safari init` puts in a new game folder made of components, started from the
/// game `source`.
pub fn components_readme(name: &str, source: &str) -> String {
    format!(
        "# {name}\n\n\
         A game folder for `safari`, started from {source}. Edit the files, then:\n\n\
         ```sh\n\
         safari check {name}            # every problem, with where and why\n\
         safari build {name}            # the outputs, into out/<id>/\n\
         safari explain SZ0310          # what a diagnostic code means\n\
         ```\n\n\
         | file | holds |\n\
         | --- | --- |\n\
         | `game.toml` | the game's id and name, players, its rules module and their `[play]` keys, print settings |\n\
         | the files game.toml's `components` lists | symbols, decks, dice, tiles, tokens, boards, pieces and setups |\n\n\
         game.toml's `id` names the output folder, `out/<id>/`.\n\
         The component files and each rules module's keys and checks are described in\n\
         docs/components.md in the safari repository.\n"
    )
}

/// The README `safari init` puts in a new game folder.
pub fn readme(name: &str) -> String {
    format!(
        "# {name}\n\n\
         A game folder for `safari`, started from Safari Zone RNW. Edit the files, then:\n\n\
         ```sh\n\
         safari check {name}            # every problem, with where and why\n\
         safari build {name}            # the outputs, into out/<id>/\n\
         safari sim {name} --policy random,greedy,expected   # how it plays\n\
         safari explain SZ0401          # what a diagnostic code means\n\
         ```\n\n\
         | file | holds |\n\
         | --- | --- |\n\
         | `game.toml` | the game's id and name, players, turns, Safari Balls, print settings |\n\
         | `field-guide.kdl` | the game sheet: sections, tracks and boxes (KDL) |\n\
         | `deck.toml` | the Encounter Deck |\n\
         | `dice.toml` | the expedition and capture dice |\n\
         | `species.toml`, `items.toml` | the species and items the rest names |\n\n\
         game.toml's `id` names the output folder, `out/<id>/`.\n\
         Every key, node and value is described in the content language reference\n\
         (docs/content.md in the safari repository).\n"
    )
}
