//! Symbol tables: ids to indices, duplicates, the id rule, and help for names that refer to
//! nothing.
//!
//! Lookups are recorded as they happen and judged only once every file has loaded
//! ([`Names::report`]). By then a table knows which of its names nothing refers to, and a name
//! defined but never used, spelled like one used but never defined, is most likely a rename:
//! that beats a merely similar spelling (after `nidoran-m` is renamed `nidoran-male`, the cards
//! still naming `nidoran-m` did not mean `nidoran-f`, however alike the two are spelled). A
//! name defined with what the unknown one reads as (the id `fishing-rod` called "Old Rod", for
//! an unknown `old-rod`) beats both: its id was changed and its name kept, and it may already
//! be used where the rename reached.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};

use crate::diag::{Applicability, Code, Diagnostic, Diagnostics, Edit, Fix, similar_name};
use crate::world::{GameFolder, Origin};

pub use safari_engine::ids::check_id;
pub use safari_engine::limits::MAX_ID_LEN;

/// The id a name or phrase reads as: lower-cased, accents dropped, every run of other
/// characters a single dash (`Lucky Chansey` is `lucky-chansey`). May be empty.
pub fn dashed_id(text: &str) -> String {
    let mut id = String::new();
    for c in text.chars().flat_map(char::to_lowercase) {
        match plain_letter(c) {
            Some(letter) => id.push(letter),
            None if !id.is_empty() && !id.ends_with('-') => id.push('-'),
            None => {}
        }
    }
    while id.len() > MAX_ID_LEN || id.ends_with('-') {
        id.pop();
    }
    id
}

/// A lower-case letter or digit as ASCII, with the accents of Latin letters dropped.
fn plain_letter(c: char) -> Option<char> {
    if c.is_ascii_lowercase() || c.is_ascii_digit() {
        return Some(c);
    }
    let plain = match c {
        'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' => 'a',
        'ç' => 'c',
        'è' | 'é' | 'ê' | 'ë' => 'e',
        'ì' | 'í' | 'î' | 'ï' => 'i',
        'ñ' => 'n',
        'ò' | 'ó' | 'ô' | 'õ' | 'ö' | 'ø' => 'o',
        'ù' | 'ú' | 'û' | 'ü' => 'u',
        'ý' | 'ÿ' => 'y',
        _ => return None,
    };
    Some(plain)
}

#[derive(Debug)]
pub struct Names<T> {
    kind: &'static str,
    /// False when the file defining these names did not load whole: an unknown name may then
    /// be one that was lost, so it is not reported.
    pub complete: bool,
    map: HashMap<String, (T, Origin)>,
    order: Vec<String>,
    /// Ids as the content writes them (not generated ones), held to the id rule.
    written: Vec<String>,
    /// What the content calls each id that has a name for people ("Old Rod").
    called: HashMap<String, String>,
    /// Where and how a name of this kind is defined, with `{id}` for the name: the help of an
    /// unknown name nothing is spelled like.
    definition: Option<String>,
    /// Every lookup: the name and where it was written. Kept behind a `RefCell` so that lookups
    /// stay `&self`: the sheet, the other files and the decks all read the same tables.
    lookups: RefCell<Vec<(String, Origin)>>,
}

impl<T: Copy> Names<T> {
    pub fn new(kind: &'static str) -> Self {
        Names {
            kind,
            complete: true,
            map: HashMap::new(),
            order: Vec::new(),
            written: Vec::new(),
            called: HashMap::new(),
            definition: None,
            lookups: RefCell::new(Vec::new()),
        }
    }

    /// Says where and how a name of this kind is defined (`{id}` stands for the name).
    pub fn defined_by(mut self, how: impl Into<String>) -> Self {
        self.definition = Some(how.into());
        self
    }

    /// Defines `id`; on a duplicate returns the diagnostic and keeps the first definition.
    pub fn define(&mut self, id: &str, value: T, origin: Origin) -> Result<(), Diagnostic> {
        if let Some((_, first)) = self.map.get(id) {
            return Err(Diagnostic::error(
                Code::DuplicateId,
                format!("the {} id `{id}` is defined twice", self.kind),
            )
            .with_primary(origin, "defined again here")
            .with_secondary(*first, "first defined here")
            .with_help(format!("give each {} its own id", self.kind)));
        }
        self.map.insert(id.to_string(), (value, origin));
        self.order.push(id.to_string());
        Ok(())
    }

    /// Defines an id the content writes, which [`Names::report`] holds to the id rule.
    pub fn define_written(&mut self, id: &str, value: T, origin: Origin) -> Result<(), Diagnostic> {
        self.define(id, value, origin)?;
        self.written.push(id.to_string());
        Ok(())
    }

    /// Records what the content calls `id` for people: an unknown name that reads as it is
    /// most likely `id` before a rename.
    pub fn call(&mut self, id: &str, name: &str) {
        self.called.insert(id.to_string(), name.to_string());
    }

    pub fn get(&self, id: &str) -> Option<T> {
        self.map.get(id).map(|(v, _)| *v)
    }

    /// Looks `id` up where the content names it at `origin`. An unknown name is reported by
    /// [`Names::report`], once everything that may refer to this kind has loaded.
    pub fn resolve(&self, id: &str, origin: Origin) -> Option<T> {
        self.lookups.borrow_mut().push((id.to_string(), origin));
        self.get(id)
    }

    /// Reports the names looked up that nothing defines, and the ids written against the id
    /// rule. Call it after the last file that may refer to this kind has loaded.
    pub fn report(&self, folder: &GameFolder, diagnostics: &mut Diagnostics) {
        let lookups = self.lookups.borrow();
        let used: HashSet<&str> = lookups.iter().map(|(name, _)| name.as_str()).collect();
        let unused: Vec<&str> = self
            .order
            .iter()
            .map(String::as_str)
            .filter(|name| !used.contains(name))
            .collect();
        if self.complete {
            // One report per unknown name, at every place that writes it, in order of first use.
            let mut places: Vec<(&str, Vec<Origin>)> = Vec::new();
            let mut index: HashMap<&str, usize> = HashMap::new();
            for (name, origin) in lookups.iter().filter(|(n, _)| !self.map.contains_key(n)) {
                let at = *index.entry(name).or_insert_with(|| {
                    places.push((name, Vec::new()));
                    places.len() - 1
                });
                if !places[at].1.contains(origin) {
                    places[at].1.push(*origin);
                }
            }
            for (name, origins) in &places {
                diagnostics.push(self.unknown(name, origins, &unused, folder));
            }
        }
        for id in &self.written {
            if let Err(reason) = check_id(id) {
                diagnostics.push(self.bad_id(id, &reason, &lookups, folder));
            }
        }
    }

    /// The report of an unknown name written at `places` (at least one): labelled at the first
    /// few, with the edit that replaces it everywhere.
    fn unknown(
        &self,
        name: &str,
        places: &[Origin],
        unused: &[&str],
        folder: &GameFolder,
    ) -> Diagnostic {
        /// Places labelled; the rest are counted in the message.
        const LABELLED: usize = 6;
        let kind = self.kind;
        let message = match places.len() {
            1 => format!("unknown {kind} `{name}`"),
            n => format!("unknown {kind} `{name}`, written in {n} places"),
        };
        let mut diagnostic = Diagnostic::error(Code::UnknownName, message)
            .with_primary(places[0], format!("no {kind} has this id"));
        for at in places.iter().skip(1).take(LABELLED - 1) {
            diagnostic = diagnostic.with_secondary(*at, "and here");
        }
        let replace = |with: &str, message: String| {
            let edits: Option<Vec<Edit>> = places
                .iter()
                .map(|at| reference_edit(folder, *at, name, with))
                .collect();
            let diagnostic = diagnostic.clone().with_help(message);
            let everywhere = if places.len() > 1 { " everywhere" } else { "" };
            match edits {
                Some(edits) => diagnostic.with_fix(Fix::new(
                    format!("write `{with}`{everywhere}"),
                    edits,
                    Applicability::MaybeIncorrect,
                )),
                None => diagnostic,
            }
        };
        if let Some((renamed, called)) = self.called_as(name) {
            return replace(
                renamed,
                format!(
                    "the {kind} `{renamed}` is called \"{called}\", which reads as `{name}`: \
                     was `{name}` renamed to `{renamed}`?"
                ),
            );
        }
        if let Some(renamed) = likely_rename(name, unused) {
            return replace(
                renamed,
                format!(
                    "the {kind} `{renamed}` is defined and nothing refers to it: \
                     was `{name}` renamed to `{renamed}`?"
                ),
            );
        }
        if let Some(similar) = similar_name(name, self.order.iter().map(String::as_str)) {
            return replace(
                similar,
                format!("a name with a similar spelling exists: `{similar}`"),
            );
        }
        match &self.definition {
            Some(how) => diagnostic.with_help(format!(
                "no {kind} is called `{name}`: {}",
                how.replace("{id}", name)
            )),
            None => diagnostic,
        }
    }

    /// The one id (and what it is called) whose name reads as the unknown `name`; none when no
    /// id's or several ids' do.
    fn called_as(&self, name: &str) -> Option<(&str, &str)> {
        let mut reading = self
            .order
            .iter()
            .filter_map(|id| Some((id.as_str(), self.called.get(id)?.as_str())))
            .filter(|(id, called)| *id != name && dashed_id(called) == name);
        let first = reading.next()?;
        reading.next().is_none().then_some(first)
    }

    fn bad_id(
        &self,
        id: &str,
        reason: &str,
        lookups: &[(String, Origin)],
        folder: &GameFolder,
    ) -> Diagnostic {
        let kind = self.kind;
        let origin = self.map[id].1;
        let diagnostic = Diagnostic::error(
            Code::BadId,
            format!("`{id}` is not a valid {kind} id: it {reason}"),
        )
        .with_primary(origin, "ids are lower-case words joined by dashes");
        let canonical = dashed_id(id);
        let unique = self
            .written
            .iter()
            .filter(|other| dashed_id(other) == canonical)
            .count()
            == 1;
        if check_id(&canonical).is_err() || self.map.contains_key(&canonical) || !unique {
            return diagnostic.with_help(
                "use lower-case letters and digits in words joined by single dashes, \
                 like `super-rod` or `area-1`",
            );
        }
        let places: Vec<Origin> = std::iter::once(origin)
            .chain(
                lookups
                    .iter()
                    .filter(|(name, _)| name == id)
                    .map(|(_, at)| *at),
            )
            .collect();
        let edits: Option<Vec<Edit>> = places
            .iter()
            .map(|at| reference_edit(folder, *at, id, &canonical))
            .collect();
        let named = match places.len() - 1 {
            0 => String::new(),
            1 => " here and where it is named".to_string(),
            n => format!(" here and in the {n} places that name it"),
        };
        let diagnostic = diagnostic.with_help(format!("write it `{canonical}`{named}"));
        match edits {
            Some(edits) => diagnostic.with_fix(Fix::new(
                format!("rename `{id}` to `{canonical}`{named}"),
                edits,
                Applicability::MachineApplicable,
            )),
            None => diagnostic,
        }
    }
}

/// The defined name nothing refers to that `unknown` most likely was before a rename: spelled
/// at least half alike, or one the other with words added or cut.
fn likely_rename<'a>(unknown: &str, unused: &[&'a str]) -> Option<&'a str> {
    unused
        .iter()
        .map(|name| (strsim::normalized_damerau_levenshtein(unknown, name), *name))
        .filter(|(score, name)| {
            *score >= 0.5 || name.starts_with(unknown) || unknown.starts_with(name)
        })
        .max_by(|a, b| a.0.total_cmp(&b.0).then_with(|| b.1.cmp(a.1)))
        .map(|(_, name)| name)
}

/// The edit that writes `to` where the source writes the name `from` at `origin`: the name
/// itself, or the name in quotes (a TOML string's span includes them). `None` when the source
/// spells it otherwise (an escape), so no edit could be sure of its text.
fn reference_edit(folder: &GameFolder, origin: Origin, from: &str, to: &str) -> Option<Edit> {
    let written = folder.source(origin.file).text.get(origin.range())?;
    if written == from {
        return Some(Edit::new(origin, to));
    }
    ['"', '\''].into_iter().find_map(|quote| {
        let inner = written.strip_prefix(quote)?.strip_suffix(quote)?;
        (inner == from).then(|| Edit::new(origin, format!("{quote}{to}{quote}")))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_lower_case_words_joined_by_single_dashes() {
        assert_eq!(check_id("super-rod"), Ok(()));
        assert_eq!(check_id("area-1"), Ok(()));
        assert!(check_id("'guest-chansey'").unwrap_err().contains("quote"));
        assert_eq!(check_id("Rod").unwrap_err(), "has capital letters");
        assert!(check_id("a--b").is_err());
        assert!(check_id("-a").is_err());
        assert!(check_id("").is_err());
        assert!(check_id(&"a".repeat(65)).is_err());
        assert!(check_id("../escaped").is_err());
    }

    #[test]
    fn a_name_reads_as_its_dashed_id() {
        assert_eq!(dashed_id("Lucky Chansey"), "lucky-chansey");
        assert_eq!(dashed_id("my_safari"), "my-safari");
        assert_eq!(dashed_id("Café Safari!"), "cafe-safari");
        assert_eq!(dashed_id("  --  "), "");
    }

    #[test]
    fn a_rename_is_preferred_to_a_similar_spelling() {
        assert_eq!(
            likely_rename("nidoran-m", &["nidoran-male", "pikachu"]),
            Some("nidoran-male")
        );
        assert_eq!(likely_rename("nidoran-m", &["pikachu"]), None);
    }

    #[test]
    fn an_id_called_what_the_unknown_name_reads_as_is_its_rename() {
        let mut names: Names<u32> = Names::new("item");
        let at = Origin::file_start(crate::world::FileId(0));
        for (i, (id, called)) in [("fishing-rod", "Old Rod"), ("good-rod", "Good Rod")]
            .into_iter()
            .enumerate()
        {
            names.define(id, i as u32, at).unwrap();
            names.call(id, called);
        }
        assert_eq!(names.called_as("old-rod"), Some(("fishing-rod", "Old Rod")));
        assert_eq!(names.called_as("good-rod"), None);
        names.define("old-fishing-rod", 2, at).unwrap();
        names.call("old-fishing-rod", "Old Rod");
        assert_eq!(
            names.called_as("old-rod"),
            None,
            "two ids read as it: no guess"
        );
    }
}
