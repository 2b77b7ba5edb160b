//! A flood of diagnostics: 100,000 unknown properties on one line of the Field Guide. The
//! human report stays small (at most 20 reports of a code, then a count), and the JSON report
//! lists every one. Their speed is measured in docs/performance.md, not asserted here.

use std::path::Path;

use safari::diag::{Code, RenderOptions, render_human, render_json};
use safari::world::GameFolder;

const PROPERTIES: usize = 100_000;

#[test]
fn a_hundred_thousand_faults_on_one_line_print_a_bounded_report_and_a_complete_list() {
    let dir = std::env::temp_dir().join(format!("safari-flood-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    let tiny = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/clean-tiny");
    for entry in std::fs::read_dir(&tiny).expect("the fixture exists") {
        let path = entry.expect("a readable entry").path();
        if path.extension().is_none_or(|e| e != "snap") {
            std::fs::copy(&path, dir.join(path.file_name().unwrap())).expect("copied");
        }
    }
    let guide = dir.join("field-guide.kdl");
    let text = std::fs::read_to_string(&guide).expect("the Field Guide");
    let properties: String = (0..PROPERTIES).map(|i| format!(" p{i}=1")).collect();
    let flooded = text.replacen("box vp=1\n", &format!("box vp=1{properties}\n"), 1);
    assert!(flooded.len() > 850_000, "one line of nearly a megabyte");
    std::fs::write(&guide, flooded).expect("written");

    let mut folder = GameFolder::open(&dir).expect("the game opens");
    let diagnostics = safari::check(&mut folder).diagnostics.into_vec();
    let unknown = diagnostics
        .iter()
        .filter(|d| d.code == Code::UnknownNode)
        .count();
    assert_eq!(unknown, PROPERTIES);

    let human = render_human(
        &diagnostics,
        &folder,
        RenderOptions {
            width: 100,
            color: false,
        },
    );
    assert!(human.len() < 100_000, "{} bytes", human.len());
    assert_eq!(human.matches("unknown property").count(), 20);
    assert!(
        human.contains(&format!("… and {} more SZ0104 not shown", PROPERTIES - 20)),
        "{}",
        &human[human.len().saturating_sub(2000)..]
    );

    let json: serde_json::Value =
        serde_json::from_str(&render_json(&diagnostics, &folder)).expect("JSON");
    let list = json.as_array().expect("a list");
    assert_eq!(list.len(), diagnostics.len());
    // The last one's column, counted without counting the line again for each.
    let last = list.last().expect("diagnostics");
    assert_eq!(
        last["message"],
        format!("unknown property `p{}` on `box`", PROPERTIES - 1)
    );
    let column = text.lines().nth(16).expect("line 17").len() + properties.len() - 7;
    assert_eq!(last["line"], 17);
    assert_eq!(last["column"], column);
    std::fs::remove_dir_all(&dir).expect("cleaned up");
}
