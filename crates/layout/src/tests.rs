//! `check()`-style tests of the layout: a sheet written in KDL, laid out on a paper, and the
//! result as a person would describe it (where each section went, at what density, or why it
//! does not fit), compared with the expectation written beside it. `UPDATE_EXPECT=1 cargo
//! test -p safari-layout` rewrites the expectations after an intended change.

use expect_test::{Expect, expect};
use safari_core::diag::Diagnostics;
use safari_core::load::guide::{Dialect, read};
use safari_core::model::PaperSize;
use safari_core::world::FileId;

use crate::{BoxData, Item, KeyWords, SheetData, Titles, lay_out, one_line};

/// Lays `kdl` out on `paper`.
fn laid_out(kdl: &str, paper: PaperSize) -> Result<crate::SheetLayout, crate::Overflow> {
    let mut diagnostics = Diagnostics::default();
    let dialect = Dialect {
        what: "the sheet",
        one_fill_help: "write one term",
    };
    let written = read(FileId(0), kdl, &dialect, &mut diagnostics);
    assert!(
        !diagnostics.has_errors(),
        "the sheet does not read: {:?}",
        diagnostics.iter().map(|d| &d.message).collect::<Vec<_>>()
    );
    let guide = &written.guide;
    let words = |terms: &[safari_core::load::guide::Term]| {
        terms.iter().map(|t| one_line(&t.written)).collect()
    };
    let data = SheetData::of_guide(
        guide,
        "Test Sheet".to_string(),
        Vec::new(),
        |_| (None, ()),
        |_, _, b| {
            let def = guide.get(b);
            BoxData {
                id: def.id.clone(),
                shape: def.shape,
                style: def.style,
                vp: def.vp,
                needs: words(&def.terms.needs),
                gives: words(&def.terms.gives),
                label: def.label.as_deref().map(one_line),
            }
        },
    );
    let key = KeyWords {
        needs: "needs",
        gives: "gives",
        bonus: "bonus",
        trigger: "trigger",
        free: "free",
    };
    let titles = Titles {
        name: "Test",
        versions: "",
        player: "Player",
        score: "Score",
        key: &key,
        own_paper: false,
    };
    lay_out(&data, &titles, paper)
}

/// Lays `kdl` out on `paper` and describes the result.
fn check_on(kdl: &str, paper: PaperSize, expect: Expect) {
    let actual = match laid_out(kdl, paper) {
        Ok(layout) => {
            let mut lines = vec![format!(
                "fits at level {}: boxes {:.1} mm, text {:.1} pt",
                layout.level, layout.box_size, layout.text_size
            )];
            for section in &layout.sections {
                let boxes = section
                    .items
                    .iter()
                    .filter(|item| matches!(item, Item::Box { .. }))
                    .count();
                let r = section.rect;
                lines.push(format!(
                    "{}: column {} row {} ({}x{}), {:.0},{:.0} {:.0}x{:.0} mm, {boxes} boxes",
                    section.id,
                    section.column,
                    section.row,
                    section.width,
                    section.height,
                    r.x,
                    r.y,
                    r.w,
                    r.h
                ));
            }
            lines.join("\n") + "\n"
        }
        Err(overflow) => {
            let mut lines = vec![format!(
                "does not fit on {}: {} ({:.0} mm over)",
                overflow.paper.label(),
                overflow.what,
                overflow.excess.ceil()
            )];
            lines.extend(overflow.suggestions.iter().map(|s| format!("- {s}")));
            lines.join("\n") + "\n"
        }
    };
    expect.assert_eq(&actual);
}

fn check(kdl: &str, expect: Expect) {
    check_on(kdl, PaperSize::A4, expect);
}

#[test]
fn two_sections_side_by_side_share_the_row() {
    check(
        r#"
sheet title="Log" columns=2
section "left" title="Left" column=1 row=1 {
    track "a" { box repeat=6 }
}
section "right" title="Right" column=2 row=1 {
    track "b" { box repeat=6 }
}
"#,
        expect![[r#"
            fits at level 0: boxes 9.0 mm, text 10.0 pt
            left: column 1 row 1 (1x1), 8,25 95x259 mm, 6 boxes
            right: column 2 row 1 (1x1), 107,25 95x259 mm, 6 boxes
        "#]],
    );
}

#[test]
fn a_section_two_columns_wide_spans_the_sheet() {
    check(
        r#"
sheet title="Log" columns=2
section "top" title="Top" column=1 row=1 {
    track "a" { box repeat=4 }
}
section "side" title="Side" column=2 row=1 {
    track "b" { box repeat=4 }
}
section "wide" title="Wide" column=1 row=2 width=2 {
    track "c" { box repeat=20 }
}
"#,
        expect![[r#"
            fits at level 0: boxes 9.0 mm, text 10.0 pt
            top: column 1 row 1 (1x1), 8,25 95x102 mm, 4 boxes
            side: column 2 row 1 (1x1), 107,25 95x102 mm, 4 boxes
            wide: column 1 row 2 (2x1), 8,130 194x154 mm, 20 boxes
        "#]],
    );
}

#[test]
fn sections_without_a_place_go_where_the_sheet_ends_shortest() {
    check(
        r#"
sheet title="Log" columns=2
section "one" title="One" { track "a" { box repeat=12 } }
section "two" title="Two" { track "b" { box repeat=3 } }
section "three" title="Three" { track "c" { box repeat=3 } }
"#,
        expect![[r#"
            fits at level 0: boxes 9.0 mm, text 10.0 pt
            one: column 1 row 1 (2x1), 8,25 194x128 mm, 12 boxes
            two: column 1 row 2 (1x1), 8,156 95x128 mm, 3 boxes
            three: column 2 row 2 (1x1), 107,156 95x128 mm, 3 boxes
        "#]],
    );
}

#[test]
fn a_crowded_sheet_gets_denser_before_it_fails() {
    let boxes = "box repeat=100\n".repeat(10);
    check(
        &format!(
            "sheet title=\"Log\" columns=1\nsection \"s\" title=\"Crowded\" {{\n track \"t\" {{\n{boxes} }}\n}}\n"
        ),
        expect![[r#"
            fits at level 7: boxes 5.3 mm, text 7.0 pt
            s: column 1 row 1 (1x1), 8,22 194x262 mm, 1000 boxes
        "#]],
    );
}

#[test]
fn a_sheet_too_big_for_the_paper_says_why_and_what_would_fit() {
    let boxes = "box repeat=1000\n".repeat(4);
    check_on(
        &format!(
            "sheet title=\"Log\" columns=1\nsection \"s\" title=\"Far too many\" {{\n track \"t\" {{\n{boxes} }}\n}}\n"
        ),
        PaperSize::LETTER,
        expect![[r#"
            does not fit on Letter: the sheet is 540.0 mm taller than the page allows, and section `s` sets its tallest row (540 mm over)
            - split track `t` (4000 boxes) over two sections, or give it at most 1200 boxes
        "#]],
    );
}

#[test]
fn a_small_section_that_adds_a_row_to_a_full_sheet_is_named() {
    let sheet = |boxes: usize, small: bool| {
        let mut repeats = "box repeat=1000\n".repeat(boxes / 1000);
        if !boxes.is_multiple_of(1000) {
            repeats.push_str(&format!("box repeat={}\n", boxes % 1000));
        }
        let mut kdl = format!(
            "sheet title=\"Log\" columns=1\nsection \"journal\" title=\"Journal\" {{\n track \"pages\" {{\n{repeats} }}\n}}\n"
        );
        if small {
            kdl.push_str("section \"notes\" title=\"Notes\" {\n track \"n\" { box repeat=2 }\n}\n");
        }
        kdl
    };
    let fits = |kdl: &str| laid_out(kdl, PaperSize::A4).is_ok();
    // The most boxes the journal holds alone on the page.
    let (mut lo, mut hi) = (1usize, 4000usize);
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        if fits(&sheet(mid, false)) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    check(
        &sheet(lo, true),
        expect![[r#"
            does not fit on A4: the sheet is 9.0 mm taller than the page allows, and fits without section `notes` (9 mm over)
            - print on A3 (297 × 420 mm): `--paper a3` or `paper = "a3"` in game.toml
        "#]],
    );
}
