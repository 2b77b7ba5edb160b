//! What the Field Guide's layout promises (crates/layout/, ARCHITECTURE.md), asserted on a
//! checked game: shared by the `layout` and `layout_bytes` targets.

use safari::Checked;
use safari::diag::Code;
use safari::layout::{Item, MIN_BOX_MM, MIN_TEXT_PT, PAGE_MARGIN_MM, Rect, SheetLayout};

const TOLERANCE: f64 = 0.01;

fn overlap(a: &Rect, b: &Rect, tolerance: f64) -> bool {
    a.x < b.right() - tolerance
        && b.x < a.right() - tolerance
        && a.y < b.bottom() - tolerance
        && b.y < a.bottom() - tolerance
}

fn finite(r: &Rect) -> bool {
    [r.x, r.y, r.w, r.h].iter().all(|v| v.is_finite()) && r.w >= 0.0 && r.h >= 0.0
}

/// `apart`: the written places are valid (no SZ0308), so sections must not overlap and each
/// item must lie inside its panel. (With places that cannot be drawn the check fails and
/// nothing is printed; the layout then only has to be finite, in the page, and readable.)
pub fn check_layout(layout: &SheetLayout, apart: bool) {
    let m = PAGE_MARGIN_MM;
    let page = Rect::new(m, m, layout.width - 2.0 * m, layout.height - 2.0 * m);
    let h = &layout.header;
    let mut lines = vec![&h.name, &h.title, &h.player, &h.score];
    lines.extend(&layout.footer.versions);
    lines.extend(layout.footer.key.iter().map(|k| &k.line));
    // The key's samples and the score box were found reaching into the margin by this target
    // (fixed since: tests/layout.rs, `the_frame_keeps_to_the_margin`).
    let mut frame: Vec<Rect> = vec![h.player_field, h.rule, h.score_box];
    frame.extend(layout.footer.key.iter().map(|k| k.rect));
    frame.extend(lines.iter().map(|l| l.rect));
    for r in &frame {
        assert!(finite(r), "a rectangle of the title band or foot is {r:?}");
        assert!(
            page.contains(r, TOLERANCE),
            "{r:?} leaves the page's margin {page:?}"
        );
    }
    for l in &lines {
        assert!(
            l.size >= MIN_TEXT_PT - 1e-9,
            "{:?} set at {} pt",
            l.text,
            l.size
        );
    }
    let foot = layout
        .footer
        .versions
        .iter()
        .map(|l| l.rect.y)
        .chain(
            layout
                .footer
                .key
                .iter()
                .map(|k| k.line.rect.y.min(k.rect.y)),
        )
        .fold(layout.height - m, f64::min);
    for (i, s) in layout.sections.iter().enumerate() {
        assert!(finite(&s.rect), "section {} at {:?}", s.id, s.rect);
        assert!(
            page.contains(&s.rect, TOLERANCE),
            "section {} at {:?} leaves the page's margin {page:?}",
            s.id,
            s.rect
        );
        assert!(
            s.rect.y >= h.rule.bottom() - TOLERANCE,
            "section {} at {:?} reaches into the title band",
            s.id,
            s.rect
        );
        assert!(
            s.rect.bottom() <= foot + TOLERANCE,
            "section {} at {:?} reaches into the foot (from {foot})",
            s.id,
            s.rect
        );
        // A section spanning rows that nothing else fills once got less height than it
        // needed (found by this target; fixed since: tests/layout-faults/section-span-gutters).
        let contained = apart;
        assert!(
            !contained || s.rect.contains(&s.tab, TOLERANCE),
            "section {}'s tab {:?} outside its panel {:?}",
            s.id,
            s.tab,
            s.rect
        );
        assert!(
            s.title.size >= MIN_TEXT_PT - 1e-9,
            "section {}'s title at {} pt",
            s.id,
            s.title.size
        );
        for t in layout.sections[i + 1..].iter().filter(|_| apart) {
            assert!(
                !overlap(&s.rect, &t.rect, TOLERANCE),
                "sections {} {:?} and {} {:?} overlap",
                s.id,
                s.rect,
                t.id,
                t.rect
            );
        }
        for item in &s.items {
            let r = item.rect();
            assert!(finite(&r), "section {}: {item:?}", s.id);
            // A badge past a narrow panel was found by this target (fixed since:
            // tests/layout-faults/narrow-badge): badges are held to their panel too.
            assert!(
                !contained || s.rect.contains(&r, TOLERANCE),
                "section {}: {item:?} outside its panel {:?}",
                s.id,
                s.rect
            );
            let line = match item {
                Item::Badge { line, .. }
                | Item::Title { line }
                | Item::Note { line }
                | Item::Label { line } => Some(line),
                _ => None,
            };
            if let Some(line) = line {
                assert!(
                    line.size >= MIN_TEXT_PT - 1e-9,
                    "section {}: {item:?} below {MIN_TEXT_PT} pt",
                    s.id
                );
            }
            if let Item::Tag { parts, .. } = item {
                for part in parts {
                    if let safari::layout::Part::Text { line } = part {
                        assert!(
                            line.size >= MIN_TEXT_PT - 1e-9,
                            "section {}: {item:?} below {MIN_TEXT_PT} pt",
                            s.id
                        );
                    }
                }
            }
            if let Item::Box { rect, .. } = item {
                assert!(
                    rect.w.min(rect.h) >= MIN_BOX_MM - 1e-9,
                    "section {}: {item:?} under {MIN_BOX_MM} mm",
                    s.id
                );
            }
        }
    }
    // Within each section (sections are apart, and their items inside them): boxes apart,
    // badges clear of boxes and tags. A sweep over x keeps it near linear in the items.
    // With written places that cannot be drawn (SZ0308) a section is squeezed into the cells
    // it is clamped to; the check fails and nothing is printed, so these are not asserted.
    for s in layout.sections.iter().filter(|_| apart) {
        let mut marks: Vec<(Rect, &Item)> = s
            .items
            .iter()
            .filter(|i| matches!(i, Item::Box { .. } | Item::Badge { .. } | Item::Tag { .. }))
            .map(|i| (i.rect(), i))
            .collect();
        marks.sort_by(|a, b| a.0.x.total_cmp(&b.0.x));
        for (n, (a, ia)) in marks.iter().enumerate() {
            for (b, ib) in &marks[n + 1..] {
                if b.x >= a.right() - TOLERANCE {
                    break;
                }
                if !overlap(a, b, TOLERANCE) {
                    continue;
                }
                let badge = |i: &Item| matches!(i, Item::Badge { .. });
                let boxed = |i: &Item| matches!(i, Item::Box { .. });
                // Larger shapes overlapping in the loose boxes' grid were found by this target
                // (fixed since: tests/layout-faults/star-lines-overlap, diamond-lines-overlap).
                assert!(
                    !(boxed(ia) && boxed(ib)),
                    "section {}: boxes overlap: {ia:?} and {ib:?}",
                    s.id
                );
                assert!(
                    !(badge(ia) && !badge(ib) || badge(ib) && !badge(ia)),
                    "section {}: a badge is not clear: {ia:?} and {ib:?}",
                    s.id
                );
            }
        }
    }
}

/// Asserts the layout's promises on a check's result: nothing when the sheet was not laid
/// out or does not fit (SZ0309). `hash` picks the inputs laid out a second time.
pub fn check(checked: &Checked, hash: usize) {
    let overflow = checked
        .diagnostics
        .iter()
        .any(|d| d.code == Code::LayoutOverflow);
    if std::env::var_os("SAFARI_FUZZ_PRINT").is_some() {
        for d in checked.diagnostics.iter() {
            eprintln!("{} {}", d.code.as_str(), d.message);
        }
        eprintln!("layout: {}", checked.layout.is_some());
        for s in checked.layout.iter().flat_map(|l| &l.sections) {
            eprintln!(
                "section {} at column {} row {} width {} height {}: {:?}",
                s.id, s.column, s.row, s.width, s.height, s.rect
            );
        }
    }
    let (Some(layout), Some(game)) = (&checked.layout, &checked.game) else {
        return;
    };
    if overflow {
        return;
    }
    // SZ0308 is the rules module's check: with an unknown `rules` it does not run, and the
    // written places are looked at here too.
    let written: Vec<_> = game
        .guide
        .sections
        .iter()
        .map(|s| &s.placement)
        .filter(|p| !p.auto)
        .collect();
    let columns = game.guide.columns.max(1);
    let cells = |p: &safari::model::Placement| {
        let (w, h) = (p.width.max(1), p.height.max(1));
        (p.column, p.column + w, p.row, p.row + h)
    };
    let drawable = written.iter().all(|p| {
        let (c0, c1, r0, _) = cells(p);
        c0 >= 1 && r0 >= 1 && c1 - 1 <= columns
    }) && written.iter().enumerate().all(|(i, a)| {
        written[i + 1..].iter().all(|b| {
            let (a0, a1, ar0, ar1) = cells(a);
            let (b0, b1, br0, br1) = cells(b);
            !(a0 < b1 && b0 < a1 && ar0 < br1 && br0 < ar1)
        })
    });
    let misplaced = !drawable
        || checked
            .diagnostics
            .iter()
            .any(|d| d.code == Code::LayoutOverlap);
    check_layout(layout, !misplaced);
    // Written places are kept when they can be drawn (no SZ0308): only then does the layout
    // take them as written, rather than clamped to the sheet.
    if !misplaced {
        // The layout keeps the guide's order of sections (ids may repeat in a faulty guide).
        assert_eq!(
            layout.sections.len(),
            game.guide.sections.len(),
            "a section is not on the sheet"
        );
        for (section, placed) in game.guide.sections.iter().zip(&layout.sections) {
            let p = &section.placement;
            if !p.auto {
                assert_eq!(
                    (placed.column, placed.row, placed.width, placed.height),
                    (p.column, p.row, p.width, p.height),
                    "section {} moved from its written place",
                    section.id
                );
            }
        }
    }
    // The same game laid out again gives the same layout (on a sixteenth of the inputs: it
    // doubles the work).
    if hash % 16 == 0 {
        let again = safari::rules::safari_zone::sheet::field_guide(game, game.manifest.paper)
            .unwrap_or_else(|d| panic!("laid out once, then not: {}", d.message));
        assert!(again == *layout, "the same game laid out twice differs");
    }
}
