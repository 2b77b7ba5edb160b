//! Symbol tables: ids to indices, duplicate detection and "did you mean" suggestions.

use std::collections::HashMap;

use crate::diag::{Code, Diagnostic, similar_name};
use crate::world::Origin;

#[derive(Debug)]
pub struct Names<T> {
    kind: &'static str,
    /// False when the file defining these names did not load whole: an unknown name may then
    /// be one that was lost, so it is not reported.
    pub complete: bool,
    map: HashMap<String, (T, Origin)>,
    order: Vec<String>,
}

impl<T: Copy> Names<T> {
    pub fn new(kind: &'static str) -> Self {
        Names {
            kind,
            complete: true,
            map: HashMap::new(),
            order: Vec::new(),
        }
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

    pub fn get(&self, id: &str) -> Option<T> {
        self.map.get(id).map(|(v, _)| *v)
    }

    /// Resolves `id`, or returns the unknown-name diagnostic with a suggestion.
    pub fn resolve(&self, id: &str, origin: Origin) -> Result<T, Diagnostic> {
        self.get(id).ok_or_else(|| self.unknown(id, origin))
    }

    pub fn unknown(&self, id: &str, origin: Origin) -> Diagnostic {
        let suggestion = similar_name(id, self.order.iter().map(String::as_str));
        Diagnostic::error(Code::UnknownName, format!("unknown {} `{id}`", self.kind))
            .with_primary(origin, format!("no {} has this id", self.kind))
            .with_suggestion(suggestion)
    }
}
