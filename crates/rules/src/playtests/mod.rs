//! Logs fed back (`safari playtests`, docs/playtest-logs.md): the games people played on the
//! playtest pages, each log replayed and checked against the ruleset it carries, grouped by
//! ruleset and reported beside the bots' games on the same ruleset.
//!
//! What every game's logs share lives here: the files read and refused, the report's head,
//! the people's decisions put to the strongest bot and counted by kind ([`Tally`]), and the
//! text and page around each game's part. Safari Zone RNW's logs (`safari-log`) are read by
//! `safari_zone::playtests`; the family's (`safari-family-log`: the games made of components
//! that have an engine) by [`family`].
//!
//! Reads no file: the command hands each log's bytes in ([`Reading::read`]), one at a time,
//! so that a folder of thousands of logs holds one in memory.

pub mod family;

use serde::Serialize;

use crate::html::{self, Column, Markup, html};
use crate::safari_zone::playtests as safari_zone;
pub use crate::safari_zone::playtests::RulesetReport;

/// The most bytes a log file may have: a log holds its ruleset whole, and a ruleset
/// `sim` reads may have 16 MiB.
pub const MAX_LOG_BYTES: u64 = crate::load::limits::MAX_RULESET_BYTES;
/// Patterns of disagreement listed in the text report (the HTML lists every one).
pub const LISTED_PATTERNS: usize = 8;
/// Examples kept of each pattern of disagreement (the text shows the first).
const EXAMPLES: usize = 3;

/// How the bots play each ruleset: Safari Zone RNW's bots (`sim`'s policies) and the
/// family's (`random`, `greedy`, `search`), each with its own count of games.
#[derive(Debug, Clone)]
pub struct Options {
    /// Policies `policy::by_name` knows (no `target:BOX`).
    pub bots: Vec<String>,
    pub games: u64,
    /// The family's bots (`family::bots::Bot::by_name`).
    pub family_bots: Vec<String>,
    pub family_games: u64,
    pub seed: u64,
}

/// Whether the bots named can play any ruleset of their games: Safari Zone RNW's `bots`, the
/// family's `family_bots`.
pub fn check_bots(bots: &[String], family_bots: &[String]) -> Result<(), String> {
    safari_zone::check_bots(bots)?;
    family::check_bots(family_bots)
}

/// `out/<game>/playtests/report.json`.
#[derive(Debug, Clone, Serialize)]
pub struct PlaytestReport {
    /// The folder (or file) of logs read, as it was named.
    pub folder: String,
    /// The seed of the bots' games.
    pub seed: u64,
    /// Games each of Safari Zone RNW's bots played per ruleset.
    pub games: u64,
    /// Safari Zone RNW's bots that played, the first the one the boxes are compared with.
    pub bots: Vec<String>,
    /// The bot asked at each of the people's decisions of Safari Zone RNW (the strongest).
    pub advisor: String,
    /// Games each of the family's bots played per ruleset and table size.
    pub family_games: u64,
    /// The family's bots that played.
    pub family_bots: Vec<String>,
    /// The family's bot asked at each of the people's decisions of the family's games.
    pub family_advisor: String,
    /// JSON files looked at, and how many of them were logs read.
    pub files: usize,
    pub read: usize,
    /// The files not read, each with why.
    pub refused: Vec<Refused>,
    /// Safari Zone RNW's: one per ruleset the logs were played with, in the order their
    /// first log was read.
    pub rulesets: Vec<RulesetReport>,
    /// The family's: one per ruleset and variants, in the order their first log was read.
    pub families: Vec<family::FamilyReport>,
}

impl PlaytestReport {
    /// The games the logs are of, each once, by id: each gets the whole report.
    pub fn game_ids(&self) -> Vec<&str> {
        let mut games: Vec<&str> = self
            .rulesets
            .iter()
            .map(|r| r.game_id.as_str())
            .chain(self.families.iter().map(|f| f.game_id.as_str()))
            .collect();
        games.sort_unstable();
        games.dedup();
        games
    }
}

/// A file not read, and why.
#[derive(Debug, Clone, Serialize)]
pub struct Refused {
    pub file: String,
    pub reason: String,
}

/// The logs read so far, and the files refused.
#[derive(Default)]
pub struct Reading {
    safari_zone: safari_zone::Groups,
    family: family::Groups,
    refused: Vec<Refused>,
    files: usize,
}

impl Reading {
    pub fn new() -> Reading {
        Reading::default()
    }

    /// Logs read.
    pub fn read_count(&self) -> usize {
        self.safari_zone.read_count() + self.family.read_count()
    }

    /// Notes `file` as not read, and why.
    pub fn refuse(&mut self, file: &str, reason: impl Into<String>) {
        self.files += 1;
        self.refused.push(Refused {
            file: file.to_string(),
            reason: reason.into(),
        });
    }

    /// Reads the log `file` holds, of whichever game its `format` says: replays it against
    /// its ruleset (refused, with why, when it does not replay), adds its seats to its
    /// ruleset's, and puts each of its people's decisions to the strongest bot.
    pub fn read(&mut self, file: &str, bytes: &[u8]) {
        let read = match format_of(bytes).as_deref() {
            Some(family::LOG_FORMAT) => self.family.read(file, bytes),
            Some("safari-log") | None => self.safari_zone.read(file, bytes),
            Some("safari-ruleset" | family::RULESET_FORMAT) => {
                Err("a ruleset, not a game log: the logs carry their rulesets".to_string())
            }
            Some(other) => Err(format!(
                "not a game log (its `format` is `{other}`, not `safari-log` or `{}`)",
                family::LOG_FORMAT
            )),
        };
        match read {
            Ok(()) => self.files += 1,
            Err(reason) => self.refuse(file, reason),
        }
    }

    /// Bot games the report will play: for a progress bar.
    pub fn bot_games(&self, options: &Options) -> u64 {
        self.safari_zone.bot_games(options) + self.family.bot_games(options)
    }

    /// The report: the bots play each ruleset (`progress` is told of every game played).
    pub fn report(
        self,
        folder: &str,
        options: &Options,
        progress: &(dyn Fn(u64) + Sync),
    ) -> PlaytestReport {
        let read = self.read_count();
        PlaytestReport {
            folder: folder.to_string(),
            seed: options.seed,
            games: options.games,
            bots: options.bots.clone(),
            advisor: safari_zone::ADVISOR.to_string(),
            family_games: options.family_games,
            family_bots: options.family_bots.clone(),
            family_advisor: family::ADVISOR.to_string(),
            files: self.files,
            read,
            refused: self.refused,
            rulesets: self.safari_zone.report(options, progress),
            families: self.family.report(options, progress),
        }
    }
}

/// The `format` a JSON file says it has, if it is JSON and says.
fn format_of(bytes: &[u8]) -> Option<String> {
    let value: serde_json::Value = serde_json::from_slice(bytes).ok()?;
    Some(value.get("format")?.as_str()?.to_string())
}

/// The people's decisions of one kind.
#[derive(Debug, Clone, Serialize)]
pub struct KindStat {
    /// The engine's name of the decision: Safari Zone RNW's (`reroll`, `track`, `bonus`,
    /// `use`, `repel`, `card`, `throw`), or a family game's action (`take`, `claim`, `move`).
    pub kind: String,
    pub decisions: u32,
    /// Those at which the advisor would have chosen otherwise.
    pub differ: u32,
}

/// One way people's choices differ from the advisor's.
#[derive(Debug, Clone, Serialize)]
pub struct Pattern {
    pub kind: String,
    /// In words: "let a card go that the planner would have thrown at".
    pub text: String,
    pub count: u32,
    /// The people's decisions of this kind.
    pub of: u32,
    /// The first few, each of another turn, in the order the logs were read.
    pub examples: Vec<Example>,
}

/// One decision where a person and the advisor differ.
#[derive(Debug, Clone, Serialize)]
pub struct Example {
    pub file: String,
    pub seat: usize,
    pub turn: u32,
    /// What the person did, and what the advisor would have done, in words.
    pub person: String,
    pub bot: String,
}

/// The people's decisions put to the advisor, counted by kind and by kind of difference.
#[derive(Default)]
pub(crate) struct Tally {
    kinds: Vec<KindStat>,
    patterns: Vec<Pattern>,
}

impl Tally {
    /// One decision of `kind`; `pattern` is the kind of difference, `None` when the person
    /// and the advisor chose alike.
    pub(crate) fn count(&mut self, kind: &str, pattern: Option<String>, example: Example) {
        let stat = match self.kinds.iter().position(|s| s.kind == kind) {
            Some(at) => &mut self.kinds[at],
            None => {
                self.kinds.push(KindStat {
                    kind: kind.to_string(),
                    decisions: 0,
                    differ: 0,
                });
                self.kinds.last_mut().expect("just pushed")
            }
        };
        stat.decisions += 1;
        let Some(text) = pattern else {
            return;
        };
        stat.differ += 1;
        match self
            .patterns
            .iter_mut()
            .find(|p| p.kind == kind && p.text == text)
        {
            Some(pattern) => {
                pattern.count += 1;
                // Examples from different turns: a card thrown at three times is one.
                let seen = pattern.examples.iter().any(|e| {
                    (&e.file, e.seat, e.turn) == (&example.file, example.seat, example.turn)
                });
                if pattern.examples.len() < EXAMPLES && !seen {
                    pattern.examples.push(example);
                }
            }
            None => self.patterns.push(Pattern {
                kind: kind.to_string(),
                text,
                count: 1,
                of: 0,
                examples: vec![example],
            }),
        }
    }

    /// The kinds in `order` (kinds it does not name after those, as they were met), and the
    /// patterns the most frequent first.
    pub(crate) fn finish(self, order: &[&str]) -> (Vec<KindStat>, Vec<Pattern>) {
        let mut patterns = self.patterns;
        for pattern in &mut patterns {
            pattern.of = self
                .kinds
                .iter()
                .find(|k| k.kind == pattern.kind)
                .map_or(0, |k| k.decisions);
        }
        // The most frequent first; a stable sort keeps the order they were met in.
        patterns.sort_by_key(|p| std::cmp::Reverse(p.count));
        let mut kinds = self.kinds;
        kinds.sort_by_key(|k| {
            order
                .iter()
                .position(|n| *n == k.kind)
                .unwrap_or(order.len())
        });
        (kinds, patterns)
    }
}

pub(crate) fn percent(share: f64) -> String {
    format!("{:.0}%", share * 100.0)
}

/// `n thing` or `n things`.
pub(crate) use crate::words::plural as count;

/// A run's name with its table: "planner (1 player)".
pub(crate) fn run_name(policy: &str, players: usize) -> String {
    format!("{policy} ({})", count(players, "player"))
}

/// The first line: what was read.
pub(crate) fn headline(report: &PlaytestReport) -> String {
    let mut games = Vec::new();
    if !report.rulesets.is_empty() {
        games.push(format!(
            "{} games each per ruleset of Safari Zone RNW",
            report.games
        ));
    }
    if !report.families.is_empty() {
        games.push(format!(
            "{} each per ruleset and table size of the family's games",
            report.family_games
        ));
    }
    let played = if games.is_empty() {
        String::new()
    } else {
        format!("; the bots played {}", games.join(", "))
    };
    format!(
        "Logs in {}: {} of {} read, {}{played} (seed {}).",
        report.folder,
        report.read,
        count(report.files, "file"),
        count(report.rulesets.len() + report.families.len(), "ruleset"),
        report.seed
    )
}

/// The report as terminal text: what was read, then each ruleset.
pub fn render(report: &PlaytestReport) -> String {
    let mut out = headline(report);
    out.push('\n');
    if !report.refused.is_empty() {
        out.push_str("Not read:\n");
        for refused in &report.refused {
            out.push_str(&format!("  {}: {}\n", refused.file, refused.reason));
        }
    }
    for ruleset in &report.rulesets {
        out.push('\n');
        safari_zone::render_ruleset(&mut out, ruleset, &report.advisor);
    }
    for ruleset in &report.families {
        out.push('\n');
        family::render(&mut out, ruleset, &report.family_advisor);
    }
    out
}

/// Where people and the advisor choose differently, as text: the kinds of decision and the
/// kinds of difference, each with an example. `kind_words` says a kind as a person would.
pub(crate) fn render_choices(
    out: &mut String,
    decisions: &[KindStat],
    disagreements: &[Pattern],
    advisor: &str,
    kind_words: fn(&str) -> String,
) {
    let asked: u32 = decisions.iter().map(|k| k.decisions).sum();
    if asked == 0 {
        return;
    }
    let differ: u32 = decisions.iter().map(|k| k.differ).sum();
    out.push_str(&format!(
        "  Where people and the {advisor} choose differently: {differ} of the people's {asked} decisions ({})\n",
        percent(f64::from(differ) / f64::from(asked))
    ));
    out.push_str(&format!(
        "    {:<10} {:>6} {:>6}\n",
        "decision", "asked", "differ"
    ));
    for kind in decisions {
        out.push_str(&format!(
            "    {:<10} {:>6} {:>6} ({})\n",
            kind_words(&kind.kind),
            kind.decisions,
            kind.differ,
            percent(f64::from(kind.differ) / f64::from(kind.decisions.max(1)))
        ));
    }
    for pattern in disagreements.iter().take(LISTED_PATTERNS) {
        out.push_str(&format!(
            "    - {}: {} of {} {} decisions ({})\n",
            pattern.text,
            pattern.count,
            pattern.of,
            kind_words(&pattern.kind),
            percent(f64::from(pattern.count) / f64::from(pattern.of.max(1)))
        ));
        if let Some(e) = pattern.examples.first() {
            out.push_str(&format!(
                "        e.g. {} seat {}, turn {}: {}; the {advisor}: {}\n",
                e.file, e.seat, e.turn, e.person, e.bot
            ));
        }
    }
}

pub(crate) fn cell(s: impl AsRef<str>) -> Markup {
    html! { (html::text(s.as_ref())) }
}

/// `report.html`: the report as one page, on the shared page parts of `crate::html` (inline
/// CSS and SVG, no scripts, nothing to fetch). It says what the terminal says, in the same
/// order.
pub fn page(report: &PlaytestReport) -> String {
    let games: Vec<&str> = report
        .rulesets
        .iter()
        .map(|r| r.game.as_str())
        .chain(report.families.iter().map(|f| f.game.as_str()))
        .collect();
    let title = match games.first() {
        Some(first) if games.iter().all(|g| g == first) => format!("What people did in {first}"),
        _ => "What people did".to_string(),
    };
    let body = html! {
        @if !report.refused.is_empty() {
            (html::section("refused", "Files not read", html::table(
                &[Column::text("file").wide(30), Column::text("why").wide(70)],
                report.refused.iter().map(|r| vec![cell(&r.file), cell(&r.reason)]),
            )))
        }
        @for (i, ruleset) in report.rulesets.iter().enumerate() {
            (safari_zone::ruleset_section(i, ruleset, &report.advisor))
        }
        @for (i, ruleset) in report.families.iter().enumerate() {
            (family::section(report.rulesets.len() + i, ruleset, &report.family_advisor))
        }
    };
    html::page(&title, &headline(report), body)
}

/// Where people and the advisor choose differently, as a part of the page.
pub(crate) fn choices_section(
    decisions: &[KindStat],
    disagreements: &[Pattern],
    advisor: &str,
    kind_words: fn(&str) -> String,
) -> Markup {
    if decisions.is_empty() {
        return html! {};
    }
    let kinds = [
        Column::text("decision").wide(40),
        Column::number("asked").wide(20),
        Column::number("differ").wide(20),
        Column::number("share").wide(20),
    ];
    let patterns = [
        Column::text("difference").wide(40),
        Column::number("times").wide(10),
        Column::text("for example").wide(50),
    ];
    html! {
        h3 { (html::text(&format!("Where people and the {advisor} choose differently"))) }
        p.note { (html::text(&format!("At each of the people's decisions the {advisor} was asked what it would choose there.")))}
        (html::table(&kinds, decisions.iter().map(|k| vec![
            cell(kind_words(&k.kind)),
            cell(k.decisions.to_string()),
            cell(k.differ.to_string()),
            cell(percent(f64::from(k.differ) / f64::from(k.decisions.max(1)))),
        ])))
        @if !disagreements.is_empty() {
            (html::table(&patterns, disagreements.iter().map(|p| vec![
                html! { (html::text(&p.text)) " " span.note { (html::text(&format!("({} decisions)", kind_words(&p.kind)))) } },
                cell(format!("{} of {}", p.count, p.of)),
                html! {
                    @for e in &p.examples {
                        div { (html::text(&format!("{} seat {}, turn {}: {}; the {advisor}: {}", e.file, e.seat, e.turn, e.person, e.bot))) }
                    }
                },
            ])))
        }
    }
}
