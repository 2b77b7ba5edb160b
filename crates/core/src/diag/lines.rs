//! Lines and columns of byte offsets, in time independent of how long the lines are.
//!
//! A flood of diagnostics can point at thousands of places on one line of a megabyte. Counting
//! from the start of the file (or the line) for each of them is quadratic; this index is built
//! once per file (one pass) and then answers a line in O(log lines) and a column by counting
//! at most one block of bytes.

use crate::world::{FileId, GameFolder};

/// Bytes between two checkpoints of the character count.
const BLOCK: usize = 1024;

/// Where each line of one text starts, and how many characters precede each block.
pub struct LineIndex<'a> {
    text: &'a str,
    /// Byte offset of each line's start; the first is 0.
    starts: Vec<usize>,
    /// Characters before byte `i * BLOCK`.
    chars_before_block: Vec<usize>,
}

impl<'a> LineIndex<'a> {
    pub fn new(text: &'a str) -> LineIndex<'a> {
        let bytes = text.as_bytes();
        let mut starts = vec![0];
        starts.extend(
            bytes
                .iter()
                .enumerate()
                .filter(|(_, b)| **b == b'\n')
                .map(|(i, _)| i + 1),
        );
        let mut chars_before_block = Vec::with_capacity(bytes.len() / BLOCK + 1);
        let mut chars = 0;
        for block in bytes.chunks(BLOCK) {
            chars_before_block.push(chars);
            chars += count_chars(block);
        }
        chars_before_block.push(chars);
        LineIndex {
            text,
            starts,
            chars_before_block,
        }
    }

    pub fn text(&self) -> &'a str {
        self.text
    }

    /// The number of lines; a final line feed starts one more, empty line.
    pub(crate) fn line_count(&self) -> usize {
        self.starts.len()
    }

    /// The 0-based line holding a byte offset (offsets past the end are on the last line).
    pub fn line(&self, offset: usize) -> usize {
        self.starts.partition_point(|&start| start <= offset) - 1
    }

    /// The byte offset where a line starts.
    pub fn line_start(&self, line: usize) -> usize {
        self.starts[line]
    }

    /// The byte offset where a line's text ends: before its line feed (and a carriage return
    /// before that), or at the end of the text.
    pub(crate) fn line_end(&self, line: usize) -> usize {
        let end = match self.starts.get(line + 1) {
            Some(next) => next - 1,
            None => self.text.len(),
        };
        if end > self.starts[line] && self.text.as_bytes()[end - 1] == b'\r' {
            end - 1
        } else {
            end
        }
    }

    /// A byte offset moved into the text and back onto a character boundary.
    pub fn clamp(&self, offset: usize) -> usize {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        offset
    }

    /// The 0-based line and 0-based column (in characters) of a byte offset.
    pub fn line_column(&self, offset: usize) -> (usize, usize) {
        let offset = self.clamp(offset);
        let line = self.line(offset);
        (
            line,
            self.chars_before(offset) - self.chars_before(self.starts[line]),
        )
    }

    fn chars_before(&self, offset: usize) -> usize {
        let block = offset / BLOCK;
        self.chars_before_block[block] + count_chars(&self.text.as_bytes()[block * BLOCK..offset])
    }
}

/// Characters in UTF-8 bytes: every byte that does not continue a character starts one.
fn count_chars(bytes: &[u8]) -> usize {
    bytes.iter().filter(|b| (**b & 0xc0) != 0x80).count()
}

/// The line indexes of a folder's files, each built the first time it is asked for.
pub struct LineIndexes<'a> {
    folder: &'a GameFolder,
    built: Vec<Option<LineIndex<'a>>>,
}

impl<'a> LineIndexes<'a> {
    pub fn new(folder: &'a GameFolder) -> LineIndexes<'a> {
        LineIndexes {
            folder,
            built: Vec::new(),
        }
    }

    pub fn get(&mut self, file: FileId) -> &LineIndex<'a> {
        let slot = file.0 as usize;
        if self.built.len() <= slot {
            self.built.resize_with(slot + 1, || None);
        }
        let folder = self.folder;
        self.built[slot].get_or_insert_with(|| LineIndex::new(&folder.source(file).text))
    }
}

#[cfg(test)]
mod tests {
    use super::LineIndex;

    #[test]
    fn agrees_with_counting_from_the_start() {
        let long = "é".repeat(3000);
        let text = format!("ab\r\n{long}x\n\nlast é\n");
        let index = LineIndex::new(&text);
        for offset in 0..=text.len() + 2 {
            let clamped = index.clamp(offset);
            let before = &text[..clamped];
            let line = before.matches('\n').count();
            let line_start = before.rfind('\n').map_or(0, |i| i + 1);
            let column = before[line_start..].chars().count();
            assert_eq!(index.line_column(offset), (line, column), "offset {offset}");
        }
        assert_eq!(index.line_count(), 5);
        assert_eq!(index.line_end(0), 2);
        assert_eq!(&text[index.line_start(3)..index.line_end(3)], "last é");
        assert_eq!(index.line_end(4), text.len());
    }
}
