//! Roll-and-write sheets of a game made of components.
//!
//! A sheet is written in the sheets' shared language (sections, tracks, boxes; KDL) and laid
//! out by the same engine (`crate::layout`), but no rules module reads its `fill`, `needs`
//! and `gives`: the words are printed as the designer wrote them and handed on in the
//! ruleset, for a playable build to give them meaning. Laying it out is part of `check`, so a
//! sheet that cannot fit its paper is reported there (`SZ0309`), never first by `build`.

use super::Symbol;
use crate::diag::Diagnostic;
use crate::layout::{
    BoxData, Icon, KeyWords, SheetData, SheetLayout, Titles, fits_as, lay_out, one_line,
};
use crate::model::PaperSize;
use crate::model::{BoxId, Located, Paper, SheetDef};
use crate::world::Origin;
use safari_core::load::guide::{Term, WrittenTerms};

#[derive(Debug, Clone)]
pub struct Sheet {
    pub id: Located<String>,
    pub name: String,
    /// The KDL file it is laid out in, as the component file names it.
    pub layout: Located<String>,
    /// Its sections, tracks and boxes, each box with its `fill`, `needs` and `gives` as
    /// written.
    pub guide: SheetDef<WrittenTerms>,
    /// Its own page size; the game's paper (or `--paper`) when `None`.
    pub paper: Option<Paper>,
    pub player_label: String,
    pub score_label: String,
    pub key: SheetKey,
    pub origin: Origin,
}

/// What the sheet's key says each mark means; an empty text leaves the mark out.
#[derive(Debug, Clone)]
pub struct SheetKey {
    pub needs: String,
    pub gives: String,
    pub bonus: String,
    pub trigger: String,
    pub free: String,
}

impl Sheet {
    /// The title printed in the sheet's band.
    pub fn title(&self) -> String {
        match self.guide.title.trim() {
            "" => one_line(&self.name),
            title => one_line(title),
        }
    }

    /// A box's terms as written.
    pub fn terms_of(&self, b: BoxId) -> &WrittenTerms {
        &self.guide.get(b).terms
    }

    /// SZ0201 for a word in brackets that names no symbol, a whole term (`[fsh]`) or inside
    /// one (`2x[fsh]`): it would print as plain text.
    pub(crate) fn check_icons(
        &self,
        symbols: &[Symbol],
        diagnostics: &mut crate::diag::Diagnostics,
    ) {
        use crate::diag::{Code, similar_name};
        let ids = || symbols.iter().map(|s| s.id.value.as_str());
        for terms in self.guide.boxes.iter().map(|b| &b.terms) {
            for term in terms.needs.iter().chain(&terms.gives) {
                for (offset, id) in bracketed(&term.written) {
                    if ids().any(|known| known == id) {
                        continue;
                    }
                    // The term's origin is its text's when the string has no escapes.
                    let origin = match term.origin.range().len() == term.written.len() {
                        true => {
                            let start = term.origin.start + offset;
                            Origin::new(term.origin.file, start..start + id.len() + 2)
                        }
                        false => term.origin,
                    };
                    let diagnostic = Diagnostic::error(
                        Code::UnknownName,
                        format!("unknown symbol `{}`", crate::diag::printable(id)),
                    )
                    .with_primary(origin, "no symbol has this id")
                    .with_help(match similar_name(id, ids()) {
                        Some(near) => format!(
                            "a name with a similar spelling exists: `{near}` (`[id]` draws a symbol as an icon)"
                        ),
                        None => "`[id]` draws the symbol `id` as an icon: define it as `[[symbol]]` in a component file, or write the word without brackets".to_string(),
                    });
                    diagnostics.push(diagnostic);
                }
            }
        }
    }

    /// The sheet as the layout reads it: each box's `needs` on its left and `gives` on its
    /// right, word for word, a symbol's id in brackets (`[fish]`) drawn as the symbol's icon.
    pub fn data(&self, symbols: &[Symbol]) -> SheetData {
        let icons = symbols
            .iter()
            .map(|symbol| Icon {
                word: format!("[{}]", symbol.id.value),
                id: symbol.id.value.clone(),
                width: icon_width(symbol),
            })
            .collect();
        let words = |terms: &[Term]| terms.iter().map(|t| one_line(&t.written)).collect();
        SheetData::of_guide(
            &self.guide,
            self.title(),
            icons,
            |_| (None, ()),
            |_, _, b| {
                let def = self.guide.get(b);
                let terms = self.terms_of(b);
                BoxData {
                    id: def.id.clone(),
                    shape: def.shape,
                    style: def.style,
                    vp: def.vp,
                    needs: words(&terms.needs),
                    gives: words(&terms.gives),
                    label: def.label.as_deref().map(one_line),
                }
            },
        )
    }

    /// The sheet (its [`data`](Self::data)) laid out on its own paper, else on the game's
    /// (`paper`), under the game's name and versions, or the diagnostic saying why it does
    /// not fit.
    pub fn lay_out(
        &self,
        game_name: &str,
        versions: &str,
        data: &SheetData,
        paper: Paper,
    ) -> Result<SheetLayout, Diagnostic> {
        let paper = PaperSize::of(self.paper.unwrap_or(paper));
        self.with_titles(game_name, versions, self.paper.is_some(), |titles| {
            lay_out(data, titles, paper).map_err(|overflow| {
                let sections: Vec<Origin> = self.guide.sections.iter().map(|s| s.origin).collect();
                let what = format!("the sheet `{}`", self.id.value);
                overflow.diagnostic(&what, &sections)
            })
        })
    }

    /// `then` with the title band's and the key's words, for the sheet on its own paper or
    /// on the game's.
    fn with_titles<R>(
        &self,
        game_name: &str,
        versions: &str,
        own_paper: bool,
        then: impl FnOnce(&Titles) -> R,
    ) -> R {
        let words = [
            &self.key.needs,
            &self.key.gives,
            &self.key.bonus,
            &self.key.trigger,
            &self.key.free,
            &self.player_label,
            &self.score_label,
        ]
        .map(|text| one_line(text));
        let [needs, gives, bonus, trigger, free, player, score] = &words;
        let key = KeyWords {
            needs,
            gives,
            bonus,
            trigger,
            free,
        };
        then(&Titles {
            name: game_name,
            versions,
            player,
            score,
            key: &key,
            own_paper,
        })
    }
}

/// An icon's width in icon heights: its glyph (or the first letter of its label) on a square,
/// widened for a glyph of two or three characters.
pub(crate) fn icon_width(symbol: &Symbol) -> f64 {
    match symbol.glyph.as_deref().map_or(1, |g| g.chars().count()) {
        0 | 1 => 1.0,
        2 => 1.4,
        _ => 1.7,
    }
}

/// Each sheet's sections on its grid (SZ0308), its icon words naming symbols (SZ0201), and
/// its fit on `paper` (SZ0309).
pub fn check(table: &super::Table, paper: Paper, diagnostics: &mut crate::diag::Diagnostics) {
    let versions = table.manifest.versions_line();
    for sheet in &table.sheets {
        let before = diagnostics.len();
        sheet.guide.check_placement(diagnostics);
        sheet.check_icons(&table.symbols, diagnostics);
        if diagnostics.len() > before {
            continue;
        }
        let data = sheet.data(&table.symbols);
        match sheet.lay_out(&table.manifest.name, &versions, &data, paper) {
            Err(overflow) => diagnostics.push(overflow),
            // A sheet of its own paper is as its designer chose.
            Ok(laid_out) if sheet.paper.is_none() => {
                if let Some(half) =
                    sheet.half_page(&table.manifest.name, &versions, &data, paper, &laid_out)
                {
                    diagnostics.push(half);
                }
            }
            Ok(_) => {}
        }
    }
}

impl Sheet {
    /// SZ0315 when the sheet, laid out on the game's paper `whole` as `laid_out`, fits as
    /// generously on half of it (the page cut across its long side: a named paper when it is
    /// one, else whole millimetres).
    fn half_page(
        &self,
        game_name: &str,
        versions: &str,
        data: &SheetData,
        whole: Paper,
        laid_out: &SheetLayout,
    ) -> Option<Diagnostic> {
        let size = PaperSize::of(whole);
        let (short, long) = (size.width.min(size.height), size.width.max(size.height));
        // A named paper when the half is one (A3's is A4), else whole millimetres.
        let named = PaperSize::STANDARD.iter().find(|named| {
            (named.width - long / 2.0).abs() < 0.5 && (named.height - short).abs() < 0.5
        });
        let (paper, written) = match named {
            Some(named) => (Paper::parse(named.name).ok()?, named.name.to_string()),
            None => {
                let (width, height) = ((long / 2.0).floor(), short.floor());
                if width < Paper::CUSTOM_RANGE.0 {
                    return None;
                }
                (Paper::Custom { width, height }, format!("{width}x{height}"))
            }
        };
        let fits = self.with_titles(game_name, versions, true, |titles| {
            fits_as(data, titles, PaperSize::of(paper), laid_out)
        });
        if !fits {
            return None;
        }
        Some(
            Diagnostic::warning(
                crate::diag::Code::SheetHalfEmpty,
                format!("the sheet `{}` would fit on half its page", self.id.value),
            )
            .with_primary(self.origin, format!("laid out on {} x {} mm", short.round(), long.round()))
            .with_help(format!(
                "it fits as generously on half the page: give it `paper = \"{written}\"`, or add to it"
            )),
        )
    }
}

/// The words in brackets in `text` (`2x[fish]`: `fish`), each with the offset of its `[`.
fn bracketed(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.match_indices('[').filter_map(move |(open, _)| {
        let inner = &text[open + 1..];
        let close = inner.find([']', '['])?;
        (inner[close..].starts_with(']') && close > 0).then(|| (open, &inner[..close]))
    })
}
