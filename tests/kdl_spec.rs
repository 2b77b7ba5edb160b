//! The Field Guide's KDL reader (`load::kdl_fast`) against the KDL 2.0 specification's own
//! test cases (kdl-org/kdl `tests/test_cases`, vendored in `tests/kdl-spec/`) and against the
//! `kdl` crate's parser, the reference:
//!
//! - wherever the fast reader accepts a text, its document equals the crate's: the same nodes,
//!   names, types, entries, values and children, and the same span on every node, name, type,
//!   entry and block (the crate's `==` leaves spans out, so they are compared here);
//! - it refuses every case the specification says must fail;
//! - a document read (fast, or by the crate when the fast reader gives up) prints as the
//!   specification expects.

use std::fs;
use std::path::{Path, PathBuf};

use kdl::{KdlDocument, KdlEntry, KdlIdentifier, KdlNode, KdlValue};
use safari::load::kdl_fast;

fn same_span(what: &str, a: miette::SourceSpan, b: miette::SourceSpan) -> Result<(), String> {
    if a == b {
        Ok(())
    } else {
        Err(format!(
            "{what}: span {}..{} (fast) but {}..{} (kdl crate)",
            a.offset(),
            a.offset() + a.len(),
            b.offset(),
            b.offset() + b.len()
        ))
    }
}

fn same_identifier(what: &str, a: &KdlIdentifier, b: &KdlIdentifier) -> Result<(), String> {
    if a.value() != b.value() {
        return Err(format!(
            "{what}: `{}` (fast) but `{}`",
            a.value(),
            b.value()
        ));
    }
    same_span(what, a.span(), b.span())
}

fn same_ty(what: &str, a: Option<&KdlIdentifier>, b: Option<&KdlIdentifier>) -> Result<(), String> {
    match (a, b) {
        (None, None) => Ok(()),
        (Some(a), Some(b)) => same_identifier(&format!("{what} type"), a, b),
        _ => Err(format!("{what}: type {a:?} (fast) but {b:?}")),
    }
}

fn same_value(a: &KdlValue, b: &KdlValue) -> bool {
    match (a, b) {
        (KdlValue::Float(x), KdlValue::Float(y)) => x.to_bits() == y.to_bits(),
        _ => a == b,
    }
}

fn same_entry(what: &str, a: &KdlEntry, b: &KdlEntry) -> Result<(), String> {
    match (a.name(), b.name()) {
        (None, None) => {}
        (Some(x), Some(y)) => same_identifier(&format!("{what} name"), x, y)?,
        _ => return Err(format!("{what}: argument and property")),
    }
    same_ty(what, a.ty(), b.ty())?;
    if !same_value(a.value(), b.value()) {
        return Err(format!(
            "{what}: {:?} (fast) but {:?}",
            a.value(),
            b.value()
        ));
    }
    same_span(what, a.span(), b.span())
}

fn same_node(what: &str, a: &KdlNode, b: &KdlNode) -> Result<(), String> {
    let what = format!("{what}/{}", b.name().value());
    same_identifier(&format!("{what} name"), a.name(), b.name())?;
    same_ty(&what, a.ty(), b.ty())?;
    same_span(&what, a.span(), b.span())?;
    if a.entries().len() != b.entries().len() {
        return Err(format!(
            "{what}: {} entries (fast) but {}",
            a.entries().len(),
            b.entries().len()
        ));
    }
    for (i, (x, y)) in a.entries().iter().zip(b.entries()).enumerate() {
        same_entry(&format!("{what} entry {i}"), x, y)?;
    }
    match (a.children(), b.children()) {
        (None, None) => Ok(()),
        (Some(x), Some(y)) => same_document(&format!("{what} children"), x, y),
        _ => Err(format!("{what}: children in one only")),
    }
}

/// Structure, values and every span: `Err` says where they first differ.
pub fn same_document(what: &str, a: &KdlDocument, b: &KdlDocument) -> Result<(), String> {
    same_span(what, a.span(), b.span())?;
    if a.nodes().len() != b.nodes().len() {
        return Err(format!(
            "{what}: {} nodes (fast) but {}",
            a.nodes().len(),
            b.nodes().len()
        ));
    }
    for (x, y) in a.nodes().iter().zip(b.nodes()) {
        same_node(what, x, y)?;
    }
    Ok(())
}

/// Compares the fast reader with the crate on `text`: `Ok(true)` if it read it.
fn fast_agrees(text: &str) -> Result<bool, String> {
    let Some(fast) = kdl_fast::parse_fast(text) else {
        return Ok(false);
    };
    match KdlDocument::parse_v2(text) {
        Ok(reference) => same_document("", &fast, &reference).map(|()| true),
        Err(e) => Err(format!(
            "the fast reader accepts what the kdl crate refuses: {e:?}"
        )),
    }
}

/// A document as the specification's expected files write it, to compare by meaning (they
/// print numbers in their own way): per node its type, name, arguments in order, properties
/// by name (the rightmost of duplicates) and children (none when empty).
#[derive(Debug, PartialEq)]
struct Meaning {
    ty: Option<String>,
    name: String,
    args: Vec<(Option<String>, Value)>,
    props: std::collections::BTreeMap<String, (Option<String>, Value)>,
    children: Vec<Meaning>,
}

/// A value, floats by their bits (so NaN equals NaN).
#[derive(Debug, PartialEq)]
enum Value {
    Float(u64),
    Other(KdlValue),
}

fn meaning(doc: &KdlDocument) -> Vec<Meaning> {
    doc.nodes()
        .iter()
        .map(|node| {
            let value = |e: &KdlEntry| {
                let v = match e.value() {
                    KdlValue::Float(f) if f.is_nan() => Value::Float(f64::NAN.to_bits()),
                    KdlValue::Float(f) => Value::Float(f.to_bits()),
                    v => Value::Other(v.clone()),
                };
                (e.ty().map(|t| t.value().to_string()), v)
            };
            Meaning {
                ty: node.ty().map(|t| t.value().to_string()),
                name: node.name().value().to_string(),
                args: node
                    .entries()
                    .iter()
                    .filter(|e| e.name().is_none())
                    .map(value)
                    .collect(),
                props: node
                    .entries()
                    .iter()
                    .filter_map(|e| Some((e.name()?.value().to_string(), value(e))))
                    .collect(),
                children: node.children().map(meaning).unwrap_or_default(),
            }
        })
        .collect()
}

/// Valid cases the kdl crate refuses, and the fast reader too (it never accepts more than the
/// crate): a slashdash with no space before it.
const CRATE_REFUSES: &[&str] = &[
    "zero_space_before_slashdash_arg.kdl",
    "zero_space_before_slashdash_children.kdl",
    "zero_space_before_slashdash_prop.kdl",
];

/// Invalid cases the kdl crate accepts (the fast reader refuses them and hands them over): a
/// U+007F in a document, and `#"""#` read as a one-line raw string.
const CRATE_ACCEPTS: &[&str] = &[
    "multiline_raw_string_single_line_err_fail.kdl",
    "unicode_delete_fail.kdl",
];

fn spec_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/kdl-spec")
}

#[test]
fn spec_test_cases() {
    let mut inputs: Vec<PathBuf> = fs::read_dir(spec_dir().join("input"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    inputs.sort();
    let mut failures = Vec::new();
    let (mut valid, mut valid_passed, mut invalid, mut invalid_refused) = (0, 0, 0, 0);
    let mut fast_read = 0;
    let mut left = Vec::new();
    for path in &inputs {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let text = fs::read_to_string(path).unwrap().replace("\r\n", "\n");
        let expected_path = spec_dir().join("expected_kdl").join(&name);
        let read_fast = match fast_agrees(&text) {
            Ok(read) => read,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        if name.ends_with("_fail.kdl") {
            invalid += 1;
            if read_fast {
                failures.push(format!(
                    "{name}: the fast reader accepts an invalid document"
                ));
            }
            if kdl_fast::parse(&text).is_err() {
                invalid_refused += 1;
            } else if !CRATE_ACCEPTS.contains(&name.as_str()) {
                failures.push(format!("{name}: accepted (by the kdl crate)"));
            }
            continue;
        }
        valid += 1;
        if read_fast {
            fast_read += 1;
        } else if text.contains("\"\"\"") || CRATE_REFUSES.contains(&name.as_str()) {
            // Multi-line strings (which no Field Guide needs) are left to the crate.
            left.push(name.clone());
        } else {
            failures.push(format!("{name}: valid, but left to the kdl crate"));
        }
        let expected = fs::read_to_string(&expected_path)
            .map(|s| s.replace("\r\n", "\n"))
            .ok();
        match (kdl_fast::parse(&text), expected) {
            (Ok(doc), Some(expected)) => {
                let expected = KdlDocument::parse_v2(&expected).expect("expected output parses");
                let (actual, expected) = (meaning(&doc), meaning(&expected));
                if actual == expected {
                    valid_passed += 1;
                } else {
                    failures.push(format!(
                        "{name}: read as\n{actual:#?}\nbut the specification expects\n{expected:#?}"
                    ));
                }
            }
            (Ok(_), None) => failures.push(format!("{name}: no expected output")),
            (Err(_), _) if CRATE_REFUSES.contains(&name.as_str()) => {}
            (Err(e), _) => failures.push(format!("{name}: refused: {e:?}")),
        }
    }
    eprintln!(
        "KDL spec: {valid_passed} of {valid} valid cases pass ({fast_read} read by the fast reader), \
         {invalid_refused} of {invalid} invalid cases refused"
    );
    eprintln!("left to the kdl crate: {left:?}");
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n\n")
    );
    assert_eq!(valid_passed + CRATE_REFUSES.len(), valid);
    assert_eq!(invalid_refused + CRATE_ACCEPTS.len(), invalid);
}

/// Every Field Guide in the repository: the fast reader reads it, exactly as the crate does.
#[test]
fn field_guides_read_fast_and_alike() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut guides = vec![root.join("content/safari-zone/field-guide.kdl")];
    for dir in [
        "tests/fixtures",
        "tests/fixtures-print",
        "tests/fixtures-tables",
    ] {
        let Ok(entries) = fs::read_dir(root.join(dir)) else {
            continue;
        };
        for entry in entries {
            let path = entry.unwrap().path().join("field-guide.kdl");
            if path.is_file() {
                guides.push(path);
            }
        }
    }
    guides.sort();
    let mut failures = Vec::new();
    let mut read = 0;
    for path in &guides {
        let Ok(text) = fs::read_to_string(path) else {
            continue; // a fixture that is not UTF-8 on purpose
        };
        match fast_agrees(&text) {
            Ok(true) => read += 1,
            Ok(false) => {
                // Left to the crate: then the crate must refuse it (fixtures of broken KDL).
                if KdlDocument::parse_v2(&text).is_ok() {
                    failures.push(format!("{}: valid, but not read fast", path.display()));
                }
            }
            Err(e) => failures.push(format!("{}: {e}", path.display())),
        }
    }
    eprintln!("{read} of {} Field Guides read fast", guides.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(read > 40);
}

/// Small texts that exercise each rule, valid and not.
#[test]
fn corners_agree_with_the_crate() {
    let texts = [
        "",
        "\n\n",
        "// only a comment",
        "node",
        "node;",
        "a; b;c",
        "node 1 2.5 -3 +4 0x1F -0o17 0b101 1_000 1e3 1.5E-2 #true #false #null #inf #-inf #nan",
        "node \"quoted \\n\\t\\\" \\u{1F600} \\s\" #\"raw \\n\"# ##\"a\"#b\"##",
        "node key=value \"quoted key\"=1 k = 2 (ty)typed=(u8)5",
        "(ty)node (t)\"x\" ( t )y",
        "node /-1 2 /-k=v k2=v2 /- {\n  gone\n} {\n  kept\n} /-{ also gone }",
        "/- gone node\nnode\n/-gone { a; b }\nnode2",
        "node \\\n  continued \\ // comment\n  more",
        "node /* inline */ a /* nested /* deeper */ */ b\n",
        "parent {\n    child 1 {\n        grandchild\n    }\n    child 2\n}\n",
        "a { b }",
        "a {b;}",
        "a {\n}\n",
        "a {}\n",
        "node\t\u{3000}arg\u{2028}next\r\nthird\u{85}fourth",
        "- + . -a .b +.c",
        "node \"\" #\"\"#",
        "\u{FEFF}node",
        "node    \n",
        "node { a }  // c\nb",
        "node \"a\\   \n   b\"",
        // Invalid:
        "node {",
        "node }",
        "node a=",
        "node true",
        "node 1a",
        "node a\"b\"",
        "node{}",
        "node 1.",
        "node .5",
        "node 0x",
        "node #maybe",
        "node 'single'",
        "node \"unclosed",
        "node /* unclosed",
        "node { a } b",
        "node /-{ a } b",
        "/-",
        "a=1",
        "node 99999999999999999999999999999999999999999",
        "node \"\"\"\nmulti\n\"\"\"",
    ];
    let mut failures = Vec::new();
    for text in texts {
        if let Err(e) = fast_agrees(text) {
            failures.push(format!("{text:?}: {e}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Mutated documents (the default guide's slices and the specification's cases, with KDL's
/// punctuation inserted, deleted or swapped in): wherever the fast reader reads one, it
/// reads it as the crate does, and it never panics. (200,000 such cases agreed when the
/// reader was written; a few thousand run here.)
#[test]
fn mutated_documents_agree_with_the_crate() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut seeds =
        vec![fs::read_to_string(root.join("content/safari-zone/field-guide.kdl")).unwrap()];
    let mut inputs: Vec<PathBuf> = fs::read_dir(spec_dir().join("input"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    inputs.sort();
    seeds.extend(inputs.iter().map(|p| fs::read_to_string(p).unwrap()));
    let pieces = [
        "{", "}", ";", "\n", " ", "\t", "\"", "#", "/-", "/*", "*/", "//", "\\", "=", "(", ")",
        "1", "-", "+", ".", "e", "0x", "_", "a", "'", "\r", "\u{a0}", "é", "\u{2028}", "#\"",
        "\"#", "\\u{41}", "\\n", "inf", "true", "#true", "null",
    ];
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut random = |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    let boundary = |t: &str, mut i: usize| {
        while !t.is_char_boundary(i) {
            i += 1;
        }
        i
    };
    let mut failures = Vec::new();
    let mut read = 0;
    for _ in 0..4000 {
        let mut text = seeds[random(seeds.len())].clone();
        if text.len() > 1200 {
            let start = boundary(&text, random(text.len() - 1000));
            let end = boundary(&text, start + 800);
            text = text[start..end].to_string();
        }
        for _ in 0..1 + random(3) {
            let at = boundary(&text, random(text.len() + 1).min(text.len()));
            let piece = pieces[random(pieces.len())];
            match random(3) {
                0 => text.insert_str(at, piece),
                n => {
                    let end = boundary(&text, (at + 1 + random(3)).min(text.len()));
                    text.replace_range(at..end, if n == 1 { "" } else { piece });
                }
            }
        }
        match fast_agrees(&text) {
            Ok(fast) => read += usize::from(fast),
            Err(e) => failures.push(format!("{text:?}: {e}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(read > 500, "only {read} read fast");
}
