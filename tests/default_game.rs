//! The default game holds the rulebook's worked examples (seeds/000, shared reference).

use safari::rules::safari_zone::model::*;
use safari::world::GameFolder;

fn game() -> Game {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("content/safari-zone");
    let mut folder = GameFolder::open(&dir).unwrap();
    let checked = safari::check(&mut folder);
    assert!(checked.diagnostics.is_empty());
    checked.game.unwrap()
}

fn species(game: &Game, id: &str) -> SpeciesId {
    game.species_ids()
        .find(|s| game.species(*s).id == id)
        .unwrap()
}

fn item(game: &Game, id: &str) -> ItemId {
    game.item_ids().find(|i| game.item(*i).id == id).unwrap()
}

fn cards_of<'g>(game: &'g Game, id: &str) -> Vec<&'g Card> {
    let s = species(game, id);
    game.deck
        .cards
        .iter()
        .filter(|c| c.species.value == Some(s))
        .collect()
}

fn track<'g>(game: &'g Game, id: &str) -> Vec<&'g BoxDef> {
    let t = game
        .guide
        .track_ids()
        .find(|t| game.guide.track(*t).id == id)
        .unwrap();
    game.guide
        .track(t)
        .boxes
        .iter()
        .map(|b| game.guide.get(*b))
        .collect()
}

fn gives_item(b: &BoxDef, id: ItemId) -> bool {
    b.terms.rewards.iter().any(|r| r.value == Reward::Item(id))
}

#[test]
fn the_components_are_the_published_ones() {
    let game = game();
    assert_eq!(game.manifest.name, "Safari Zone RNW");
    let versions: Vec<(&str, &str)> = game
        .manifest
        .versions
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    assert!(versions.contains(&("field-guide", "v20240524")));
    assert!(versions.contains(&("deck", "v20240517")));
    assert!(versions.contains(&("dice", "v20240517")));
    assert_eq!(game.deck.physical_cards(), 52);
    assert_eq!(game.expedition_dice().count(), 5);
    for die in game.expedition_dice() {
        for action in Action::ALL {
            assert!(
                die.has(action),
                "every expedition die has a {action:?} face"
            );
        }
    }
    assert_eq!(game.capture_dice().count(), 3);
    for card in &game.deck.cards {
        assert!((3..=18).contains(&card.capture_rate.value), "{}", card.id);
    }
}

#[test]
fn nidoran_m_has_capture_rate_11() {
    let game = game();
    for card in cards_of(&game, "nidoran-m") {
        assert_eq!(card.capture_rate.value, 11);
    }
}

#[test]
fn dragonair_needs_three_water_habitats_and_area_2() {
    let game = game();
    let area_2 = game
        .guide
        .track_ids()
        .find(|t| game.guide.track(*t).id == "area-2");
    for card in cards_of(&game, "dragonair") {
        assert_eq!((card.grass, card.water), (0, 3));
        assert_eq!(card.area.as_ref().map(|a| a.value), Some(area_2));
    }
}

#[test]
fn slowpoke_needs_the_super_rod() {
    let game = game();
    let rod = item(&game, "super-rod");
    for card in cards_of(&game, "slowpoke") {
        assert_eq!(card.item.as_ref().and_then(|i| i.value), Some(rod));
    }
}

#[test]
fn the_area_1_key_is_the_last_box_of_center_entrance_and_opens_area_1() {
    let game = game();
    let key = item(&game, "area-1-key");
    let center = track(&game, "center-entrance");
    assert!(gives_item(center.last().unwrap(), key));
    assert!(
        center[..center.len() - 1]
            .iter()
            .all(|b| !gives_item(b, key))
    );
    let area_1 = track(&game, "area-1");
    assert!(
        area_1[0]
            .terms
            .requires
            .iter()
            .any(|r| r.value == Requirement::Item(key))
    );
}

#[test]
fn area_3_needs_100_vp() {
    let game = game();
    let area_3 = track(&game, "area-3");
    assert!(
        area_3[0]
            .terms
            .requires
            .iter()
            .any(|r| r.value == Requirement::Vp(100))
    );
}

#[test]
fn the_old_rod_comes_first_and_the_good_rod_two_boxes_later() {
    let game = game();
    let rods = track(&game, "rods");
    assert!(gives_item(rods[0], item(&game, "old-rod")));
    assert!(gives_item(rods[2], item(&game, "good-rod")));
}

#[test]
fn repel_comes_from_completing_a_bag_track() {
    let game = game();
    let repel = item(&game, "repel");
    let bag = game.guide.sections.iter().find(|s| s.id == "bag").unwrap();
    assert!(bag.tracks.iter().any(|t| {
        let boxes = &game.guide.track(*t).boxes;
        gives_item(game.guide.get(*boxes.last().unwrap()), repel)
    }));
}

#[test]
fn a_moon_stone_evolves_nidorina_into_nidoqueen() {
    let game = game();
    let line = track(&game, "nidoran-f-line");
    let (nidorina, nidoqueen) = (species(&game, "nidorina"), species(&game, "nidoqueen"));
    assert!(
        line[0]
            .terms
            .rewards
            .iter()
            .any(|r| r.value == Reward::Species(nidorina))
    );
    assert_eq!(
        line[1].terms.cause.value,
        Cause::Use(item(&game, "moon-stone"))
    );
    assert!(
        line[1]
            .terms
            .rewards
            .iter()
            .any(|r| r.value == Reward::Species(nidoqueen))
    );
}

#[test]
fn collecting_a_psyduck_evolves_golduck() {
    let game = game();
    let (psyduck, golduck) = (species(&game, "psyduck"), species(&game, "golduck"));
    assert!(game.guide.boxes.iter().any(|b| {
        b.terms.cause.value == Cause::Collect(vec![psyduck])
            && b.terms
                .rewards
                .iter()
                .any(|r| r.value == Reward::Species(golduck))
    }));
}

#[test]
fn a_psyduck_or_slowpoke_guest_box_is_in_the_areas() {
    let game = game();
    let both = Cause::Collect(vec![species(&game, "psyduck"), species(&game, "slowpoke")]);
    let guest = game
        .guide
        .boxes
        .iter()
        .find(|b| b.terms.cause.value == both)
        .expect("a guest box");
    assert_eq!(game.guide.section(guest.section).id, "areas");
    assert_eq!(guest.label.as_deref(), Some("Psyduck / Slowpoke"));
}
