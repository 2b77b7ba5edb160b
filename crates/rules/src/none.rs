//! No rules: a game that is only its components (a prototype, a print-and-play of parts).
//! The component layer's own checks still run; nothing reads `[play]`.

use super::Rules;
use crate::components::{Key, Table};
use crate::diag::Diagnostics;

pub(crate) struct NoRules;

impl Rules for NoRules {
    fn id(&self) -> &'static str {
        "none"
    }
    fn title(&self) -> &'static str {
        "a game with no rules module"
    }
    fn keys(&self) -> &'static [Key] {
        &[]
    }
    fn check(&self, _table: &Table, _diagnostics: &mut Diagnostics) {}
    fn ruleset(&self, _table: &Table) -> serde_json::Value {
        serde_json::json!({})
    }
}
