//! The documentation keeps up with the code: every diagnostic code is listed for designers, and
//! every link and every Markdown file named in the docs leads somewhere that exists.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use safari::diag::Code;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The Markdown pages of the repository that people read.
fn pages() -> Vec<PathBuf> {
    let mut pages: Vec<PathBuf> = ["README.md", "ARCHITECTURE.md", "templates/README.md"]
        .iter()
        .map(|p| root().join(p))
        .collect();
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .expect("docs/ exists")
        .map(|e| e.expect("a readable entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    pages.extend(docs);
    pages
}

/// A page's text outside fenced code blocks and inline code.
fn prose(text: &str) -> String {
    let mut out = String::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if !fenced {
            let outside_code: String = line.split('`').step_by(2).collect::<Vec<_>>().join(" ");
            out.push_str(&outside_code);
            out.push('\n');
        }
    }
    out
}

/// The anchors of a page's headings, as GitHub makes them.
fn anchors(text: &str) -> Vec<String> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut fenced = false;
    let mut anchors = Vec::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        }
        let Some(heading) = line.strip_prefix('#').filter(|_| !fenced) else {
            continue;
        };
        let slug: String = heading
            .trim_start_matches('#')
            .trim()
            .to_lowercase()
            .chars()
            .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
            .map(|c| if c == ' ' { '-' } else { c })
            .collect();
        let count = seen.entry(slug.clone()).or_default();
        anchors.push(match *count {
            0 => slug,
            n => format!("{slug}-{n}"),
        });
        *count += 1;
    }
    anchors
}

/// The targets of a page's Markdown links.
fn links(text: &str) -> Vec<String> {
    let prose = prose(text);
    prose
        .split("](")
        .skip(1)
        .filter_map(|rest| rest.split_once(')').map(|(target, _)| target.to_string()))
        .collect()
}

#[test]
fn every_code_is_listed_in_the_content_language() {
    let text = std::fs::read_to_string(root().join("docs/content.md")).expect("docs/content.md");
    for code in Code::ALL {
        let row = format!("| {} |", code.as_str());
        assert!(
            text.contains(&row),
            "docs/content.md has no row for {code}: {}",
            code.title()
        );
    }
}

#[test]
fn every_relative_link_leads_to_a_file_and_heading_that_exist() {
    let mut broken = Vec::new();
    for page in pages() {
        let text = std::fs::read_to_string(&page).expect("a readable page");
        let dir = page.parent().expect("a page is in a folder");
        for target in links(&text) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (path, anchor) = match target.split_once('#') {
                Some((path, anchor)) => (path, Some(anchor)),
                None => (target.as_str(), None),
            };
            let file = if path.is_empty() {
                page.clone()
            } else {
                dir.join(path)
            };
            if !file.exists() {
                broken.push(format!("{}: {target} (no such file)", page.display()));
                continue;
            }
            if let Some(anchor) = anchor.filter(|_| file.extension().is_some_and(|e| e == "md")) {
                let linked = std::fs::read_to_string(&file).expect("a readable page");
                if !anchors(&linked).iter().any(|a| a == anchor) {
                    broken.push(format!("{}: {target} (no such heading)", page.display()));
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn every_markdown_file_a_page_names_exists() {
    let mut missing = Vec::new();
    for page in pages() {
        let text = std::fs::read_to_string(&page).expect("a readable page");
        let dir = page.parent().expect("a page is in a folder");
        let names = text
            .split(|c: char| !(c.is_alphanumeric() || matches!(c, '.' | '/' | '_' | '-')))
            .filter(|word| word.ends_with(".md") && word.len() > 3);
        for name in names {
            if !dir.join(name).exists() && !root().join(name).exists() {
                missing.push(format!("{}: {name}", page.display()));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "Markdown files named but not in the repository:\n{}",
        missing.join("\n")
    );
}
