//! `safari diff` on the shipped earlier Field Guide and on fixture pairs.

use std::process::Command;

fn diff(args: &[&str]) -> (i32, serde_json::Value) {
    let out = Command::new(env!("CARGO_BIN_EXE_safari"))
        .arg("diff")
        .args(args)
        .args(["--format", "json"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    let value = serde_json::from_slice(&out.stdout).unwrap_or_else(|_| {
        panic!(
            "not JSON: {}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out.status.code().unwrap(), value)
}

fn has_change(value: &serde_json::Value, kind: &str, id: &str, change: &str) -> bool {
    value["content"]
        .as_array()
        .unwrap()
        .iter()
        .any(|c| c["kind"] == kind && c["id"] == id && c["change"] == change)
}

#[test]
fn the_earlier_field_guide_differs_in_content_and_balance() {
    let (code, value) = diff(&[
        "content/safari-zone-v20240517",
        "content/safari-zone",
        "--games",
        "1500",
        "--seed",
        "3",
    ]);
    assert_eq!(code, 0);
    assert!(has_change(&value, "track", "rare-sightings", "added"));
    assert!(has_change(&value, "box", "areas.area-3#1", "changed"));
    let area_3 = value["content"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == "areas.area-3#1")
        .unwrap();
    assert!(
        area_3["details"][0].as_str().unwrap().contains("120"),
        "{area_3}"
    );
    assert_eq!(
        value["reachability"]["became_unreachable"]
            .as_array()
            .unwrap()
            .len(),
        0
    );
    // Opening Area 3 at 100 VP instead of 120 makes it filled far more often.
    let boxes = value["balance"]["boxes"].as_array().unwrap();
    let first = boxes
        .iter()
        .find(|b| b["what"] == "areas.area-3#1")
        .expect("a significant shift");
    assert!(first["new"].as_f64().unwrap() > first["old"].as_f64().unwrap());
    assert_eq!(first["significant"], true);
}

#[test]
fn a_version_that_breaks_a_box_shows_it_as_unreachable_and_its_new_diagnostic() {
    let (code, value) = diff(&[
        "tests/fixtures/clean-tiny",
        "tests/fixtures/sz0401-vp-threshold",
        "--games",
        "0",
    ]);
    assert_eq!(code, 0);
    let became: Vec<&str> = value["reachability"]["became_unreachable"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert_eq!(became, ["areas.far#1", "areas.far#2"]);
    let new = value["reachability"]["new_diagnostics"].as_array().unwrap();
    assert!(
        new.iter()
            .any(|d| d.as_str().unwrap().starts_with("SZ0401"))
    );
    assert!(value["balance"].is_null());
    // And back again: the same change, resolved.
    let (_, back) = diff(&[
        "tests/fixtures/sz0401-vp-threshold",
        "tests/fixtures/clean-tiny",
        "--games",
        "0",
    ]);
    assert_eq!(
        back["reachability"]["became_reachable"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
    assert_eq!(
        back["reachability"]["resolved_diagnostics"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
}

#[test]
fn a_version_compared_with_itself_has_no_changes() {
    let (_, value) = diff(&[
        "content/safari-zone",
        "content/safari-zone",
        "--games",
        "300",
    ]);
    assert!(value["content"].as_array().unwrap().is_empty());
    assert_eq!(value["balance"]["mean_vp"]["significant"], false);
    assert!(value["balance"]["boxes"].as_array().unwrap().is_empty());
}
