//! A fast reader for the KDL 2.0 documents roll-and-write sheets are written in.
//!
//! The `kdl` crate's parser is thorough but slow (about 1 MB/s: it builds error context on
//! every call and tries several failing branches per entry). This reader is a single pass over
//! the bytes, strict KDL 2.0, that builds the same `kdl` types (`KdlDocument`, `KdlNode`,
//! `KdlEntry`, `KdlIdentifier`, `KdlValue`) with the same spans as the crate's parser, so the
//! sheet reader and every diagnostic work unchanged. It leaves out only the formatting
//! (whitespace and the literal text of each value), which nothing here reads.
//!
//! It handles the KDL a person writes: nodes, arguments, properties, children, type
//! annotations, comments, slashdash, escaped lines, identifier, quoted and raw strings,
//! numbers and keywords. On anything else (multi-line strings, a doubtful corner) and on any
//! error it gives up, and [`parse`] hands the text to the `kdl` crate: errors, and their
//! messages, are always the crate's. `tests/kdl_spec.rs` holds it to the crate's documents on
//! the KDL specification's test cases and on every sheet in the repository.

use kdl::{KdlDocument, KdlEntry, KdlError, KdlIdentifier, KdlNode, KdlValue};

/// Parses a KDL 2.0 document: the fast reader when it can, else the `kdl` crate.
pub fn parse(text: &str) -> Result<KdlDocument, KdlError> {
    match parse_fast(text) {
        Some(document) => Ok(document),
        None => KdlDocument::parse_v2(text),
    }
}

/// The fast reader alone: `None` when the text is not KDL 2.0 it reads, valid or not.
pub fn parse_fast(text: &str) -> Option<KdlDocument> {
    let mut reader = Reader {
        text,
        bytes: text.as_bytes(),
        pos: 0,
        depth: 0,
    };
    if text.starts_with('\u{FEFF}') {
        reader.pos = 3;
    }
    let document = reader.nodes(false)?;
    (reader.pos == text.len()).then_some(document)
}

/// Blocks nested deeper than this are left to the `kdl` crate (the loader refuses far less).
const MAX_DEPTH: usize = 64;

struct Reader<'a> {
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
    depth: usize,
}

/// What a value token was.
enum Token {
    /// An identifier, quoted or raw string: may also be a property's name.
    Str(String),
    Other(KdlValue),
}

fn is_unicode_space(c: char) -> bool {
    matches!(
        c,
        '\u{0009}' | '\u{0020}' | '\u{00A0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200A}' | '\u{202F}' | '\u{205F}' | '\u{3000}'
    )
}

fn is_newline(c: char) -> bool {
    matches!(
        c,
        '\u{000A}' | '\u{000B}' | '\u{000C}' | '\u{000D}' | '\u{0085}' | '\u{2028}' | '\u{2029}'
    )
}

/// Code points KDL 2.0 allows nowhere in a document (U+FEFF only as its first).
fn is_disallowed(c: char) -> bool {
    matches!(c,
        '\u{0000}'..='\u{0008}'
        | '\u{000E}'..='\u{001F}'
        | '\u{007F}'
        | '\u{200E}'..='\u{200F}'
        | '\u{202A}'..='\u{202E}'
        | '\u{2066}'..='\u{2069}'
        | '\u{FEFF}'
    )
}

fn is_identifier_char(c: char) -> bool {
    !(is_unicode_space(c)
        || is_newline(c)
        || is_disallowed(c)
        || matches!(
            c,
            '\\' | '/' | '(' | ')' | '{' | '}' | '[' | ']' | ';' | '"' | '#' | '='
        ))
}

impl Reader<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn peek_at(&self, n: usize) -> Option<u8> {
        self.bytes.get(self.pos + n).copied()
    }

    fn starts_with(&self, s: &str) -> bool {
        self.bytes[self.pos..].starts_with(s.as_bytes())
    }

    fn char_here(&self) -> Option<char> {
        match self.peek()? {
            b if b < 0x80 => Some(b as char),
            _ => self.text[self.pos..].chars().next(),
        }
    }

    /// The length of a newline at the cursor (CRLF counts as one), or 0.
    fn newline_len(&self) -> usize {
        match self.peek() {
            Some(b'\r') if self.peek_at(1) == Some(b'\n') => 2,
            Some(b'\n' | b'\r' | 0x0B | 0x0C) => 1,
            Some(b) if b >= 0x80 => match self.char_here() {
                Some(c) if is_newline(c) => c.len_utf8(),
                _ => 0,
            },
            _ => 0,
        }
    }

    /// The length of a unicode space at the cursor, or 0.
    fn space_len(&self) -> usize {
        match self.peek() {
            Some(b' ' | b'\t') => 1,
            Some(b) if b >= 0x80 => match self.char_here() {
                Some(c) if is_unicode_space(c) => c.len_utf8(),
                _ => 0,
            },
            _ => 0,
        }
    }

    /// `multi-line-comment` (they nest); `None` if unclosed.
    fn block_comment(&mut self) -> Option<()> {
        debug_assert!(self.starts_with("/*"));
        self.pos += 2;
        let mut depth = 1usize;
        while depth > 0 {
            match self.peek()? {
                b'/' if self.peek_at(1) == Some(b'*') => {
                    depth += 1;
                    self.pos += 2;
                }
                b'*' if self.peek_at(1) == Some(b'/') => {
                    depth -= 1;
                    self.pos += 2;
                }
                b if b < 0x80 => {
                    if is_disallowed(b as char) {
                        return None;
                    }
                    self.pos += 1;
                }
                _ => {
                    let c = self.char_here()?;
                    if is_disallowed(c) {
                        return None;
                    }
                    self.pos += c.len_utf8();
                }
            }
        }
        Some(())
    }

    /// `single-line-comment`, its newline included.
    fn line_comment(&mut self) -> Option<()> {
        debug_assert!(self.starts_with("//"));
        self.pos += 2;
        loop {
            let n = self.newline_len();
            if n > 0 {
                self.pos += n;
                return Some(());
            }
            match self.peek() {
                None => return Some(()),
                Some(b) if b < 0x80 => {
                    if is_disallowed(b as char) {
                        return None;
                    }
                    self.pos += 1;
                }
                Some(_) => {
                    let c = self.char_here()?;
                    if is_disallowed(c) {
                        return None;
                    }
                    self.pos += c.len_utf8();
                }
            }
        }
    }

    /// `ws*`: unicode spaces and multi-line comments.
    fn wss(&mut self) -> Option<()> {
        loop {
            let n = self.space_len();
            if n > 0 {
                self.pos += n;
            } else if self.starts_with("/*") {
                self.block_comment()?;
            } else {
                return Some(());
            }
        }
    }

    /// `node-space*`: whitespace and escaped lines. Whether any was read.
    fn node_space(&mut self) -> Option<bool> {
        let start = self.pos;
        loop {
            self.wss()?;
            if self.peek() == Some(b'\\') {
                // escline := '\' ws* (single-line-comment | newline | eof)
                self.pos += 1;
                self.wss()?;
                let n = self.newline_len();
                if n > 0 {
                    self.pos += n;
                } else if self.starts_with("//") {
                    self.line_comment()?;
                } else if self.peek().is_some() {
                    return None;
                }
            } else {
                return Some(self.pos > start);
            }
        }
    }

    /// `line-space*`: node space, newlines and single-line comments.
    fn line_space(&mut self) -> Option<()> {
        loop {
            self.node_space()?;
            let n = self.newline_len();
            if n > 0 {
                self.pos += n;
            } else if self.starts_with("//") {
                self.line_comment()?;
            } else {
                return Some(());
            }
        }
    }

    /// After a value: what may follow it directly.
    fn at_value_end(&self) -> bool {
        match self.peek() {
            None => true,
            Some(b'=' | b')' | b'{' | b'}' | b';' | b'\\') => true,
            Some(b'/') => matches!(self.peek_at(1), Some(b'*' | b'/')),
            Some(_) => self.space_len() > 0 || self.newline_len() > 0,
        }
    }

    /// `nodes`, up to the end of the text or (in a block) the closing `}`, which is not read.
    fn nodes(&mut self, in_block: bool) -> Option<KdlDocument> {
        let mut document = KdlDocument::new();
        let mut first = None;
        let mut last = 0;
        loop {
            // Leading line space and slashdashed nodes.
            loop {
                self.line_space()?;
                if !self.starts_with("/-") {
                    break;
                }
                self.pos += 2;
                self.line_space()?;
                if self.starts_with("/-") {
                    return None;
                }
                self.base_node()?;
                // The kdl crate reads what ends a slashdashed node as line space, never `;`.
                if self.peek() == Some(b';') {
                    return None;
                }
            }
            match self.peek() {
                None if in_block => return None,
                None => break,
                Some(b'}') if in_block => break,
                Some(b'}') => return None,
                _ => {}
            }
            let start = self.pos;
            let node = self.base_node()?;
            first.get_or_insert(start);
            last = self.pos;
            document.nodes_mut().push(node);
            // node-terminator (a block's last node may end at its `}`).
            let n = self.newline_len();
            if n > 0 {
                self.pos += n;
            } else {
                match self.peek() {
                    Some(b';') => self.pos += 1,
                    Some(b'/') if self.peek_at(1) == Some(b'/') => self.line_comment()?,
                    None => {}
                    Some(b'}') if in_block => {}
                    _ => return None,
                }
            }
        }
        let span = match first {
            Some(start) => start..last,
            None => self.pos..self.pos,
        };
        document.set_span(span);
        Some(document)
    }

    /// `base-node` without a leading slashdash, up to its terminator (not read).
    fn base_node(&mut self) -> Option<KdlNode> {
        let start = self.pos;
        let ty = if self.peek() == Some(b'(') {
            let ty = self.type_annotation()?;
            self.node_space()?;
            Some(ty)
        } else {
            None
        };
        let name = self.identifier()?;
        let mut node = KdlNode::new(name);
        if let Some(ty) = ty {
            node.set_ty(ty);
        }
        // 0: entries may follow; 1: slashdashed children read; 2: children read.
        let mut phase = 0u8;
        loop {
            let spaced = self.node_space()?;
            match self.peek() {
                None | Some(b';' | b'}') => break,
                Some(b'/') if self.peek_at(1) == Some(b'/') => break,
                _ if self.newline_len() > 0 => break,
                // Children may follow with no space (`foo{}`), as the kdl crate reads them.
                Some(b'{') => {
                    if phase == 2 {
                        return None;
                    }
                    let children = self.children()?;
                    node.set_children(children);
                    phase = 2;
                }
                _ if !spaced => return None,
                Some(b'/') if self.peek_at(1) == Some(b'-') => {
                    self.pos += 2;
                    self.line_space()?;
                    match self.peek() {
                        Some(b'{') => {
                            self.children()?;
                            phase = phase.max(1);
                        }
                        Some(b'/') if self.peek_at(1) == Some(b'-') => return None,
                        _ if phase == 0 => {
                            self.entry()?;
                        }
                        _ => return None,
                    }
                }
                _ if phase == 0 => {
                    let entry = self.entry()?;
                    node.entries_mut().push(entry);
                }
                _ => return None,
            }
        }
        node.set_span(start..self.pos);
        Some(node)
    }

    /// `node-children`: `{ nodes }`.
    fn children(&mut self) -> Option<KdlDocument> {
        debug_assert_eq!(self.peek(), Some(b'{'));
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return None;
        }
        self.pos += 1;
        let document = self.nodes(true)?;
        if self.peek() != Some(b'}') {
            return None;
        }
        self.pos += 1;
        self.depth -= 1;
        Some(document)
    }

    /// `prop | value`, with its span.
    fn entry(&mut self) -> Option<KdlEntry> {
        let start = self.pos;
        let mut entry = if self.peek() == Some(b'(') {
            let ty = self.type_annotation()?;
            self.node_space()?;
            let mut entry = KdlEntry::new(self.value()?);
            entry.set_ty(ty);
            entry
        } else {
            let key_start = self.pos;
            match self.token()? {
                Token::Str(s) => {
                    let key_end = self.pos;
                    self.node_space()?;
                    if self.peek() == Some(b'=') {
                        self.pos += 1;
                        self.node_space()?;
                        let mut key = KdlIdentifier::from(s);
                        key.set_span(key_start..key_end);
                        let (ty, value) = if self.peek() == Some(b'(') {
                            let ty = self.type_annotation()?;
                            self.node_space()?;
                            (Some(ty), self.value()?)
                        } else {
                            (None, self.value()?)
                        };
                        let mut entry = KdlEntry::new_prop(key, value);
                        if let Some(ty) = ty {
                            entry.set_ty(ty);
                        }
                        entry
                    } else {
                        self.pos = key_end;
                        KdlEntry::new(KdlValue::String(s))
                    }
                }
                Token::Other(value) => KdlEntry::new(value),
            }
        };
        entry.set_span(start..self.pos);
        Some(entry)
    }

    fn value(&mut self) -> Option<KdlValue> {
        match self.token()? {
            Token::Str(s) => Some(KdlValue::String(s)),
            Token::Other(value) => Some(value),
        }
    }

    /// `type`: `(name)`, its name's span set.
    fn type_annotation(&mut self) -> Option<KdlIdentifier> {
        debug_assert_eq!(self.peek(), Some(b'('));
        self.pos += 1;
        self.node_space()?;
        let ty = self.identifier()?;
        self.node_space()?;
        if self.peek() != Some(b')') {
            return None;
        }
        self.pos += 1;
        Some(ty)
    }

    /// A string token (a node's or type's name), its span set.
    fn identifier(&mut self) -> Option<KdlIdentifier> {
        let start = self.pos;
        match self.token()? {
            Token::Str(s) => {
                let mut identifier = KdlIdentifier::from(s);
                identifier.set_span(start..self.pos);
                Some(identifier)
            }
            Token::Other(_) => None,
        }
    }

    /// One value: a string, number or keyword, followed by what may end a value.
    fn token(&mut self) -> Option<Token> {
        let token = match self.peek()? {
            b'"' => Token::Str(self.quoted_string()?),
            b'#' => match self.peek_at(1) {
                Some(b'#' | b'"') => Token::Str(self.raw_string()?),
                _ => Token::Other(self.keyword()?),
            },
            b'0'..=b'9' => Token::Other(self.number()?),
            b'+' | b'-' if matches!(self.peek_at(1), Some(b'0'..=b'9')) => {
                Token::Other(self.number()?)
            }
            _ => Token::Str(self.identifier_string()?),
        };
        self.at_value_end().then_some(token)
    }

    fn identifier_string(&mut self) -> Option<String> {
        let start = self.pos;
        // A `.` (after an optional sign) may not be followed by a digit.
        let mut p = start;
        if matches!(self.bytes.get(p), Some(b'+' | b'-')) {
            p += 1;
        }
        if self.bytes.get(p) == Some(&b'.') && matches!(self.bytes.get(p + 1), Some(b'0'..=b'9')) {
            return None;
        }
        while let Some(b) = self.peek() {
            if b < 0x80 {
                if !is_identifier_char(b as char) {
                    break;
                }
                self.pos += 1;
            } else {
                let c = self.char_here()?;
                if !is_identifier_char(c) {
                    break;
                }
                self.pos += c.len_utf8();
            }
        }
        let s = &self.text[start..self.pos];
        if s.is_empty() || matches!(s, "true" | "false" | "null" | "inf" | "-inf" | "nan") {
            return None;
        }
        Some(s.to_string())
    }

    /// A single-line `"..."` string; multi-line strings are left to the `kdl` crate.
    fn quoted_string(&mut self) -> Option<String> {
        debug_assert_eq!(self.peek(), Some(b'"'));
        if self.starts_with("\"\"\"") {
            return None;
        }
        self.pos += 1;
        let mut out = String::new();
        loop {
            // Copy a run of plain characters at once.
            let run_start = self.pos;
            while let Some(b) = self.peek() {
                if b == b'"' || b == b'\\' || b < 0x20 || b == 0x7F || b >= 0x80 {
                    break;
                }
                self.pos += 1;
            }
            out.push_str(&self.text[run_start..self.pos]);
            match self.peek()? {
                b'"' => {
                    self.pos += 1;
                    return Some(out);
                }
                b'\\' => {
                    self.pos += 1;
                    let c = match self.peek()? {
                        b'\\' => '\\',
                        b'"' => '"',
                        b'b' => '\u{0008}',
                        b'f' => '\u{000C}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b's' => ' ',
                        b'u' => {
                            if self.peek_at(1) != Some(b'{') {
                                return None;
                            }
                            self.pos += 2;
                            let hex_start = self.pos;
                            while matches!(self.peek(), Some(b) if b.is_ascii_hexdigit()) {
                                self.pos += 1;
                            }
                            let hex = &self.text[hex_start..self.pos];
                            if hex.is_empty() || hex.len() > 6 || self.peek() != Some(b'}') {
                                return None;
                            }
                            out.push(char::from_u32(u32::from_str_radix(hex, 16).ok()?)?);
                            self.pos += 1;
                            continue;
                        }
                        _ => {
                            // A whitespace escape: `\` and spaces or newlines, dropped.
                            let mut any = false;
                            loop {
                                let n = self.space_len().max(self.newline_len());
                                if n == 0 {
                                    break;
                                }
                                self.pos += n;
                                any = true;
                            }
                            if !any {
                                return None;
                            }
                            continue;
                        }
                    };
                    out.push(c);
                    self.pos += 1;
                }
                _ => {
                    let c = self.char_here()?;
                    if is_newline(c) || is_disallowed(c) {
                        return None;
                    }
                    out.push(c);
                    self.pos += c.len_utf8();
                }
            }
        }
    }

    /// A single-line raw string `#"..."#`; multi-line ones are left to the `kdl` crate.
    fn raw_string(&mut self) -> Option<String> {
        let start = self.pos;
        while self.peek() == Some(b'#') {
            self.pos += 1;
        }
        let hashes = self.pos - start;
        if self.peek() != Some(b'"') || self.starts_with("\"\"\"") {
            return None;
        }
        self.pos += 1;
        let body_start = self.pos;
        loop {
            match self.peek()? {
                b'"' if self.bytes[self.pos + 1..]
                    .iter()
                    .take(hashes)
                    .filter(|&&b| b == b'#')
                    .count()
                    == hashes =>
                {
                    let body = &self.text[body_start..self.pos];
                    self.pos += 1 + hashes;
                    if body == "\"" {
                        return None;
                    }
                    return Some(body.to_string());
                }
                b if b < 0x80 => {
                    if is_newline(b as char) || is_disallowed(b as char) {
                        return None;
                    }
                    self.pos += 1;
                }
                _ => {
                    let c = self.char_here()?;
                    if is_newline(c) || is_disallowed(c) {
                        return None;
                    }
                    self.pos += c.len_utf8();
                }
            }
        }
    }

    fn keyword(&mut self) -> Option<KdlValue> {
        debug_assert_eq!(self.peek(), Some(b'#'));
        let rest = &self.text[self.pos + 1..];
        let (value, len) = if rest.starts_with("true") {
            (KdlValue::Bool(true), 4)
        } else if rest.starts_with("false") {
            (KdlValue::Bool(false), 5)
        } else if rest.starts_with("null") {
            (KdlValue::Null, 4)
        } else if rest.starts_with("nan") {
            (KdlValue::Float(f64::NAN), 3)
        } else if rest.starts_with("inf") {
            (KdlValue::Float(f64::INFINITY), 3)
        } else if rest.starts_with("-inf") {
            (KdlValue::Float(f64::NEG_INFINITY), 4)
        } else {
            return None;
        };
        self.pos += 1 + len;
        Some(value)
    }

    /// Digits of `radix` and underscores, the first a digit; `None` if there is none.
    fn digits(&mut self, radix: u32, into: &mut String) -> Option<()> {
        let start = self.pos;
        while let Some(b) = self.peek() {
            if (b as char).is_digit(radix) {
                into.push(b as char);
            } else if b != b'_' || self.pos == start {
                break;
            }
            self.pos += 1;
        }
        // Long runs overflow the crate's parser (it reads each part as an i128).
        (self.pos > start && into.len() <= 38).then_some(())
    }

    fn number(&mut self) -> Option<KdlValue> {
        let negative = match self.peek()? {
            b'-' => {
                self.pos += 1;
                true
            }
            b'+' => {
                self.pos += 1;
                false
            }
            _ => false,
        };
        let radix = match (self.peek(), self.peek_at(1)) {
            (Some(b'0'), Some(b'x' | b'X')) => 16,
            (Some(b'0'), Some(b'o' | b'O')) => 8,
            (Some(b'0'), Some(b'b' | b'B')) => 2,
            _ => 10,
        };
        let mut digits = String::new();
        if radix != 10 {
            self.pos += 2;
            self.digits(radix, &mut digits)?;
            let n = i128::from_str_radix(&digits, radix).ok()?;
            return Some(KdlValue::Integer(if negative {
                n.checked_neg()?
            } else {
                n
            }));
        }
        self.digits(10, &mut digits)?;
        let mut float = if negative {
            String::from("-")
        } else {
            String::new()
        };
        float.push_str(&digits);
        let mut is_float = false;
        if self.peek() == Some(b'.') {
            self.pos += 1;
            let mut fraction = String::new();
            self.digits(10, &mut fraction)?;
            float.push('.');
            float.push_str(&fraction);
            is_float = true;
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.pos += 1;
            float.push('e');
            if let Some(sign @ (b'+' | b'-')) = self.peek() {
                float.push(sign as char);
                self.pos += 1;
            }
            let mut exponent = String::new();
            self.digits(10, &mut exponent)?;
            float.push_str(&exponent);
            is_float = true;
        }
        if is_float {
            return Some(KdlValue::Float(float.parse().ok()?));
        }
        let n: i128 = digits.parse().ok()?;
        Some(KdlValue::Integer(if negative {
            n.checked_neg()?
        } else {
            n
        }))
    }
}
