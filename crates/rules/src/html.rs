//! HTML reports: the page shell, the stylesheet, tables and figures that every report shares
//! (`diff`'s now; `sim`'s is meant to follow).
//!
//! A report is one self-contained file a designer can open, keep or mail: CSS and SVG charts
//! are inline, and there are no scripts and no links to fetch. The page says so itself with a
//! Content-Security-Policy that forbids loading anything, so a report that ever tried would
//! fail visibly (the browser test fails on any console message). Markup is written with maud,
//! which escapes every string it is given; content's control characters and bidirectional
//! overrides are made visible first with `diag::printable`, as in the terminal.
//!
//! Like the backends, this module only makes bytes: the command writes them, through
//! `src/output/`.

pub use maud::{Markup, PreEscaped, html};

use crate::diag::printable;

/// Nothing may load: no scripts, no fonts, no images but inline ones, no network.
pub const CONTENT_SECURITY_POLICY: &str =
    "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

const STYLE: &str = include_str!("html.css");

/// Content text for a page: escaped by maud when written, control characters shown as escapes.
pub fn text(s: &str) -> String {
    printable(s).into_owned()
}

/// A whole page: `title` in the tab and as its heading, `subtitle` under it, then `body`.
pub fn page(title: &str, subtitle: &str, body: Markup) -> String {
    let page = html! {
        (maud::DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                meta http-equiv="Content-Security-Policy" content=(CONTENT_SECURITY_POLICY);
                meta name="generator" content=(concat!("safari ", env!("CARGO_PKG_VERSION")));
                title { (text(title)) }
                style { (PreEscaped(STYLE)) }
            }
            body {
                header.page {
                    h1 { (text(title)) }
                    p.subtitle { (text(subtitle)) }
                }
                main { (body) }
                footer { "Made by safari " (env!("CARGO_PKG_VERSION")) "." }
            }
        }
    };
    page.into_string()
}

/// A section of a page with a heading, and an anchor for links within the page.
pub fn section(id: &str, heading: &str, body: Markup) -> Markup {
    html! {
        section id=(id) {
            h2 { (text(heading)) }
            (body)
        }
    }
}

/// How a column's cells are aligned and drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Align {
    /// Words, left-aligned.
    Text,
    /// Figures, right-aligned in tabular digits.
    Number,
}

/// A table column: its heading, alignment, and width (a share of the table's, in percent),
/// so that tables of the same columns line up one under another.
pub struct Column<'a> {
    pub heading: &'a str,
    pub align: Align,
    pub width: Option<u32>,
}

impl<'a> Column<'a> {
    pub fn text(heading: &'a str) -> Column<'a> {
        Column {
            heading,
            align: Align::Text,
            width: None,
        }
    }

    pub fn number(heading: &'a str) -> Column<'a> {
        Column {
            heading,
            align: Align::Number,
            width: None,
        }
    }

    /// The same column, `percent` of the table wide.
    pub fn wide(self, percent: u32) -> Column<'a> {
        Column {
            width: Some(percent),
            ..self
        }
    }
}

/// A table: one row per item, each row one cell per column (as markup, so a cell can hold a
/// badge or a bar). When the columns have widths, the table is laid out by them.
pub fn table(columns: &[Column], rows: impl IntoIterator<Item = Vec<Markup>>) -> Markup {
    let class = |c: &Column| match c.align {
        Align::Text => "text",
        Align::Number => "num",
    };
    let fixed = columns.iter().all(|c| c.width.is_some());
    html! {
        div.table-wrap {
            table.fixed[fixed] {
                @if fixed {
                    colgroup {
                        @for c in columns { col style={ "width:" (c.width.unwrap_or(0)) "%" }; }
                    }
                }
                thead { tr { @for c in columns { th.(class(c)) { (c.heading) } } } }
                tbody {
                    @for row in rows {
                        tr {
                            @for (cell, c) in row.into_iter().zip(columns) {
                                td.(class(c)) { (cell) }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// A small coloured label; `tone` is one of the stylesheet's: up, down, new, gone, neutral,
/// large, medium, small, negligible.
pub fn badge(tone: &str, label: &str) -> Markup {
    html! { span class={ "badge " (tone) } { (text(label)) } }
}

/// An SVG chart drawn by `crate::charts`, inline, with a caption. The SVG is trusted markup:
/// plotters escapes the text it draws, and the charts hold nothing else from content.
pub(crate) fn figure(svg: &str, caption: &str) -> Markup {
    html! {
        figure.chart {
            (PreEscaped(svg))
            figcaption { (text(caption)) }
        }
    }
}

/// A list of lines of content text.
pub fn lines<'a>(class: &str, items: impl IntoIterator<Item = &'a str>) -> Markup {
    html! {
        ul class=(class) {
            @for item in items { li { (text(item)) } }
        }
    }
}
