//! The few lines of a file that one report shows, cut to the terminal's width.
//!
//! miette shows every line between two labels of a file, and every line a label spans: two
//! sections that overlap printed the whole first section, and a label on a line of a megabyte
//! printed (and copied, per diagnostic) the megabyte. A report is therefore handed an
//! [`Excerpt`] instead of the file: only the lines it labels, each with one line of context,
//! a label spanning many lines narrowed to its first line (its message then names the lines it
//! spans), and a line wider than the terminal cut around its labels with `…` at each cut.
//! Control characters are escaped on the way ([`super::printable`]), so a source line cannot
//! drive the terminal.
//!
//! The excerpt implements miette's `SourceCode` with the file's real line numbers and columns.
//! Its runs of consecutive lines are blocks, and each block is one snippet: a label's context is
//! its whole block, and a span that would join two blocks is refused, so miette draws them as
//! separate snippets instead of filling the gap.

use miette::{LabeledSpan, MietteError, MietteSpanContents, SourceCode, SourceSpan, SpanContents};

use super::Label;
use super::lines::LineIndex;
use super::printable::{printable, push_printable, shown_width};

/// Room a snippet line needs besides its text: " 12 │ " is the line number and four more.
const GUTTER: usize = 4;
/// The fewest characters of a line shown, however narrow the terminal.
const MIN_TEXT: usize = 20;
const ELLIPSIS: char = '…';
/// The most lines a label's span is shown over; a longer span is shown on its first line.
const MAX_SPAN_LINES: usize = 4;
/// The most lines between two snippets of one file that are shown to join them into one.
const MAX_GAP: usize = 2;

/// The lines of one file that one report shows, as miette reads them.
#[derive(Debug)]
pub(crate) struct Excerpt {
    name: String,
    /// The kept lines, each cut, escaped and ended by a line feed.
    text: String,
    lines: Vec<KeptLine>,
    /// The column (0-based, in characters, in the file) of each label's start, by where that
    /// start is in `text`; sorted.
    columns: Vec<(usize, usize)>,
}

#[derive(Debug)]
struct KeptLine {
    /// 0-based line number in the file.
    number: usize,
    /// Where the line starts in the excerpt's text.
    start: usize,
    /// Lines with consecutive numbers share a block.
    block: usize,
}

impl Excerpt {
    /// The excerpt of the file `index` covers that shows `labels`, and the labels pointing
    /// into it, for a terminal `width` columns wide.
    pub fn new(
        name: &str,
        index: &LineIndex,
        labels: &[&Label],
        width: usize,
    ) -> (Excerpt, Vec<LabeledSpan>) {
        let text = index.text();
        let spans: Vec<ShownSpan> = labels
            .iter()
            .map(|label| ShownSpan::new(index, label))
            .collect();
        let shown = shown_lines(index, spans.iter().map(|span| span.first..=span.last));
        let mut points: Vec<(usize, usize)> = spans
            .iter()
            .flat_map(|span| [(span.first, span.start), (span.last, span.end)])
            .collect();
        points.sort_unstable();
        points.dedup();

        let digits = shown.last().map_or(1, |n| (n + 1).to_string().len());
        let budget = width.saturating_sub(digits + GUTTER).max(MIN_TEXT);
        let mut excerpt = Excerpt {
            name: printable(name).into_owned(),
            text: String::new(),
            lines: Vec::with_capacity(shown.len()),
            columns: Vec::with_capacity(spans.len()),
        };
        // Where each labelled offset of the file lands in the excerpt, sorted by offset.
        let mut moved: Vec<(usize, usize)> = Vec::with_capacity(points.len());
        let mut block = 0;
        for &number in &shown {
            if excerpt
                .lines
                .last()
                .is_some_and(|previous| previous.number + 1 != number)
            {
                block += 1;
            }
            excerpt.lines.push(KeptLine {
                number,
                start: excerpt.text.len(),
                block,
            });
            let first = points.partition_point(|&(line, _)| line < number);
            let last = points.partition_point(|&(line, _)| line <= number);
            let offsets: Vec<usize> = points[first..last].iter().map(|&(_, o)| o).collect();
            let (start, end) = (index.line_start(number), index.line_end(number));
            // The first label on the line (the primary comes first) is kept in view.
            let focus = spans.iter().find_map(|span| {
                let from = if span.first == number {
                    span.start
                } else {
                    start
                };
                let to = if span.last == number { span.end } else { end };
                (span.first..=span.last)
                    .contains(&number)
                    .then_some((from, to))
            });
            let (cut_start, cut_end) = window(text, start..end, &offsets, focus, budget);
            excerpt.push_line(text, cut_start..cut_end, start..end, &offsets, &mut moved);
        }

        let at = |offset: usize| moved[moved.partition_point(|&(o, _)| o < offset)].1;
        let spans = labels
            .iter()
            .zip(&spans)
            .map(|(label, span)| {
                let (from, to) = (at(span.start), at(span.end));
                excerpt
                    .columns
                    .push((from, index.line_column(span.start).1));
                let message = match span.narrowed_from {
                    Some(last) => Some(format!(
                        "{}{}(lines {}-{})",
                        printable(&label.message),
                        if label.message.is_empty() { "" } else { " " },
                        span.first + 1,
                        last + 1
                    )),
                    None => {
                        (!label.message.is_empty()).then(|| printable(&label.message).into_owned())
                    }
                };
                let span = SourceSpan::new(from.into(), to - from);
                if label.primary {
                    LabeledSpan::new_primary_with_span(message, span)
                } else {
                    LabeledSpan::new_with_span(message, span)
                }
            })
            .collect();
        excerpt.columns.sort_unstable();
        (excerpt, spans)
    }

    /// Appends the part `cut` of the line `line` of `text`, escaped, with `…` where it was
    /// cut, and records where each of `offsets` (on this line) lands.
    fn push_line(
        &mut self,
        text: &str,
        cut: std::ops::Range<usize>,
        line: std::ops::Range<usize>,
        offsets: &[usize],
        moved: &mut Vec<(usize, usize)>,
    ) {
        let line_start = self.text.len();
        if cut.start > line.start {
            self.text.push(ELLIPSIS);
        }
        let mut pending = offsets.iter().copied().peekable();
        // Offsets before the cut point at the `…` that stands for them.
        while let Some(offset) = pending.next_if(|&o| o < cut.start) {
            moved.push((offset, line_start));
        }
        for (i, c) in text[cut.clone()].char_indices() {
            while let Some(offset) = pending.next_if(|&o| o <= cut.start + i) {
                moved.push((offset, self.text.len()));
            }
            push_printable(&mut self.text, c);
        }
        while let Some(offset) = pending.next_if(|&o| o <= cut.end) {
            moved.push((offset, self.text.len()));
        }
        if cut.end < line.end {
            self.text.push(ELLIPSIS);
        }
        // Offsets after the cut point past the `…` that stands for them.
        moved.extend(pending.map(|offset| (offset, self.text.len())));
        self.text.push('\n');
    }

    /// The kept line an offset of the excerpt is on.
    fn line_of(&self, offset: usize) -> usize {
        self.lines.partition_point(|line| line.start <= offset) - 1
    }

    fn line_text_end(&self, line: usize) -> usize {
        self.lines
            .get(line + 1)
            .map_or(self.text.len(), |next| next.start)
    }
}

/// Where a label is shown: its span moved onto characters and lines of the text, and narrowed
/// to its first line when it spans more than [`MAX_SPAN_LINES`].
struct ShownSpan {
    /// The 0-based lines the shown span starts and ends on.
    first: usize,
    last: usize,
    /// Its byte offsets in the file.
    start: usize,
    end: usize,
    /// The last line of the label's span, when the shown span was narrowed to its first.
    narrowed_from: Option<usize>,
}

impl ShownSpan {
    fn new(index: &LineIndex, label: &Label) -> ShownSpan {
        let start = index.clamp(label.origin.start);
        let first = index.line(start);
        let start = start.min(index.line_end(first));
        let end = index.clamp(label.origin.end).max(start);
        let mut last = index.line(end);
        if last > first && end == index.line_start(last) {
            // The span ends with a line feed: it ends on the line that feed ends.
            last -= 1;
        }
        let end = end.min(index.line_end(last)).max(start);
        if last - first < MAX_SPAN_LINES {
            return ShownSpan {
                first,
                last,
                start,
                end,
                narrowed_from: None,
            };
        }
        ShownSpan {
            first,
            last: first,
            start,
            end: index.line_end(first),
            narrowed_from: Some(last),
        }
    }
}

/// The lines to show for labels on the `labelled` ranges of lines: each with the line before
/// and after it (a file's final line feed does not start a line of its own here), and the lines
/// between two of those when there are at most [`MAX_GAP`]: showing them takes no more room
/// than the frame of another snippet.
fn shown_lines(
    index: &LineIndex,
    labelled: impl Iterator<Item = std::ops::RangeInclusive<usize>>,
) -> Vec<usize> {
    let text = index.text();
    let last = index.line_count() - 1;
    let last_with_text = if last > 0 && text.ends_with('\n') {
        last - 1
    } else {
        last
    };
    let mut lines: Vec<usize> = labelled
        .flat_map(|lines| {
            let after = (lines.end() + 1).min(last_with_text.max(*lines.end()));
            lines.start().saturating_sub(1)..=after
        })
        .collect();
    lines.sort_unstable();
    lines.dedup();
    let mut shown = Vec::with_capacity(lines.len());
    for line in lines {
        if let Some(&previous) = shown.last()
            && line - previous - 1 <= MAX_GAP
        {
            shown.extend(previous + 1..line);
        }
        shown.push(line);
    }
    shown
}

/// The part of the `line` of `text` to show within `budget` columns: all of it when it fits,
/// else a window around the labelled `offsets` when they fit together, else around `focus`;
/// centred, and leaving room for a `…` at each end that is cut. Widths are as shown: an
/// escaped control character takes its escape's width, a tab up to four columns.
fn window(
    text: &str,
    line: std::ops::Range<usize>,
    offsets: &[usize],
    focus: Option<(usize, usize)>,
    budget: usize,
) -> (usize, usize) {
    let (start, end) = (line.start, line.end);
    if forward(text, start, end, budget) == end {
        return (start, end);
    }
    let room = budget.saturating_sub(2).max(1);
    let fits = |(from, to): (usize, usize)| forward(text, from, to, room) == to;
    let all = match (offsets.first(), offsets.last()) {
        (Some(&first), Some(&last)) => (first, last),
        _ => (start, start),
    };
    let (first, last) = match focus {
        Some(focus) if !fits(all) => focus,
        _ => all,
    };
    let shown = width(&text[first..forward(text, first, last, room)]);
    // What comes before the labels: half the room left, or an eighth when they fill it.
    let lead = if shown < room {
        (room - shown) / 2
    } else {
        room / 8
    };
    let mut cut_start = backward(text, first, start, lead);
    let mut cut_end = forward(text, cut_start, end, room);
    if cut_end == end {
        // Near the end of the line: no `…` there, so the room goes to what comes before.
        cut_start = cut_start.min(backward(text, end, start, room + 1));
    } else if cut_start == start {
        cut_end = forward(text, start, end, room + 1);
    }
    (cut_start, cut_end)
}

/// The furthest offset up to `limit` with at most `columns` columns of text after `from`.
fn forward(text: &str, from: usize, limit: usize, columns: usize) -> usize {
    let mut used = 0;
    for (i, c) in text[from..limit].char_indices() {
        used += shown_width(c);
        if used > columns {
            return from + i;
        }
    }
    limit
}

/// The earliest offset down to `limit` with at most `columns` columns of text before `from`.
fn backward(text: &str, from: usize, limit: usize, columns: usize) -> usize {
    let mut used = 0;
    for (i, c) in text[limit..from].char_indices().rev() {
        used += shown_width(c);
        if used > columns {
            return limit + i + c.len_utf8();
        }
    }
    limit
}

fn width(text: &str) -> usize {
    text.chars().map(shown_width).sum()
}

impl SourceCode for Excerpt {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let (from, to) = (span.offset(), span.offset() + span.len());
        if self.lines.is_empty() || to > self.text.len() {
            return Err(MietteError::OutOfBounds);
        }
        let first = self.line_of(from);
        let last = self.line_of(to.saturating_sub(1).max(from));
        let block = self.lines[first].block;
        if self.lines[last].block != block {
            return Err(MietteError::OutOfBounds);
        }
        // The blocks are the snippets: context is the rest of the block, whatever miette asks.
        let (shown_first, shown_last) = if context_lines_before + context_lines_after == 0 {
            (first, last)
        } else {
            (
                self.lines.partition_point(|line| line.block < block),
                self.lines.partition_point(|line| line.block <= block) - 1,
            )
        };
        let data_start = self.lines[shown_first].start;
        let data_end = self.line_text_end(shown_last);
        let column = if context_lines_before == 0 {
            match self.columns.binary_search_by_key(&from, |&(at, _)| at) {
                Ok(found) => self.columns[found].1,
                Err(_) => self.text[self.lines[first].start..from].chars().count(),
            }
        } else {
            0
        };
        Ok(Box::new(MietteSpanContents::new_named(
            self.name.clone(),
            &self.text.as_bytes()[data_start..data_end],
            SourceSpan::new(data_start.into(), data_end - data_start),
            self.lines[shown_first].number,
            column,
            shown_last - shown_first + 1,
        )))
    }
}
