//! What the typesetting worker and its parent say to each other over the worker's stdin and
//! stdout, and the worker's side of it ([`serve`]).
//!
//! Every message is a frame: a JSON header (its length as u32 little-endian, then the text),
//! and a blob of raw bytes (its length as u64, then the bytes), empty but for files. JSON
//! keeps the messages readable; raw blobs keep PDFs and PNGs from being spelled out as JSON
//! numbers. The parent sends a [`Request`] per build; the worker answers with events: a
//! document started or finished (so a worker stopped half-way can be blamed on the documents
//! it was working on), each file as soon as it is made, and the end of the build.

use std::io::{self, Read, Write};
use std::sync::Mutex;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use super::Timing;
use super::cache::{RenderCache, Reuse};
use super::files::{TemplateFiles, TemplateSources};
use super::plan::Plan;
use super::run::{self, Progress};
use crate::diag::{Code, Diagnostic, Severity};
use crate::world::{FileId, Origin};

/// A header longer than this is not one the other side wrote: the stream is broken.
const MAX_HEADER: u32 = 1 << 30;

#[derive(Serialize, Deserialize)]
pub struct Request {
    pub files: TemplateSources,
    pub plan: Plan,
    /// Whether the worker keeps this build's images and PDFs for the next (`watch`).
    pub reuse: bool,
}

#[derive(Serialize, Deserialize)]
pub enum Event {
    Started(String),
    Finished(String),
    /// A file; its bytes are the frame's blob.
    Output(String),
    /// The build's end: its warnings and timings, or its errors.
    Done(Result<WireDone, Vec<WireDiagnostic>>),
}

#[derive(Serialize, Deserialize)]
pub struct WireDone {
    pub warnings: Vec<WireDiagnostic>,
    pub timings: Vec<Timing>,
}

/// A [`Diagnostic`] as data. Its labels keep the folder's file ids: the worker was given the
/// sources under the same ids (see [`TemplateSources`]).
#[derive(Serialize, Deserialize)]
pub struct WireDiagnostic {
    code: String,
    error: bool,
    message: String,
    /// (file, start, end, message, primary).
    labels: Vec<(u32, usize, usize, String, bool)>,
    help: Option<String>,
}

impl From<&Diagnostic> for WireDiagnostic {
    fn from(diagnostic: &Diagnostic) -> Self {
        WireDiagnostic {
            code: diagnostic.code.as_str().to_string(),
            error: diagnostic.is_error(),
            message: diagnostic.message.clone(),
            labels: diagnostic
                .labels
                .iter()
                .map(|l| {
                    let o = l.origin;
                    (o.file.0, o.start, o.end, l.message.clone(), l.primary)
                })
                .collect(),
            help: diagnostic.help.clone(),
        }
    }
}

impl WireDiagnostic {
    pub(crate) fn into_diagnostic(self) -> Diagnostic {
        // Only this binary's own worker writes these: an unknown code cannot come from it.
        let code = self.code.parse().unwrap_or(Code::TemplateError);
        let mut diagnostic = Diagnostic::error(code, self.message);
        if !self.error {
            diagnostic.severity = Severity::Warning;
        }
        for (file, start, end, message, primary) in self.labels {
            let origin = Origin::new(FileId(file), start..end);
            diagnostic = if primary {
                diagnostic.with_primary(origin, message)
            } else {
                diagnostic.with_secondary(origin, message)
            };
        }
        diagnostic.help = self.help;
        diagnostic
    }
}

pub(crate) fn write_frame(
    to: &mut impl Write,
    header: &impl Serialize,
    blob: &[u8],
) -> io::Result<()> {
    let header = serde_json::to_vec(header).map_err(io::Error::other)?;
    let length = u32::try_from(header.len())
        .ok()
        .filter(|&n| n <= MAX_HEADER)
        .ok_or_else(|| io::Error::other("a message too long for a frame"))?;
    to.write_all(&length.to_le_bytes())?;
    to.write_all(&header)?;
    to.write_all(&(blob.len() as u64).to_le_bytes())?;
    to.write_all(blob)
}

/// The next frame, or `None` when the stream ended between frames.
pub(crate) fn read_frame<T: DeserializeOwned>(
    from: &mut impl Read,
) -> io::Result<Option<(T, Vec<u8>)>> {
    let mut length = [0u8; 4];
    match from.read_exact(&mut length) {
        Ok(()) => {}
        Err(err) if err.kind() == io::ErrorKind::UnexpectedEof => return Ok(None),
        Err(err) => return Err(err),
    }
    let length = u32::from_le_bytes(length);
    if length > MAX_HEADER {
        return Err(io::Error::other("a frame header of impossible length"));
    }
    let header = read_exactly(from, u64::from(length))?;
    let header = serde_json::from_slice(&header).map_err(io::Error::other)?;
    let mut blob_length = [0u8; 8];
    from.read_exact(&mut blob_length)?;
    let blob = read_exactly(from, u64::from_le_bytes(blob_length))?;
    Ok(Some((header, blob)))
}

/// Reads `length` bytes, growing the buffer as they arrive (a corrupt length does not make
/// it allocate everything up front).
fn read_exactly(from: &mut impl Read, length: u64) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    from.take(length).read_to_end(&mut bytes)?;
    if bytes.len() as u64 != length {
        return Err(io::ErrorKind::UnexpectedEof.into());
    }
    Ok(bytes)
}

/// The worker's loop: a build per request, until the parent closes stdin. Typst's caches
/// (comemo) live on from one request to the next, and so does `cache` for the requests that
/// ask (`watch`'s), which is what makes rebuilds cheap; what the last few builds did not use
/// is evicted after each.
pub fn serve(
    input: &mut impl Read,
    output: impl Write + Send,
    cache: &RenderCache,
    exports: super::PageExports,
) -> io::Result<()> {
    let output = Mutex::new(output);
    let failed = Mutex::new(None);
    let send = |header: &Event, blob: &[u8]| {
        let mut output = output.lock().expect("no panic holds the lock");
        if let Err(err) = write_frame(&mut *output, header, blob).and_then(|()| output.flush()) {
            failed
                .lock()
                .expect("no panic holds the lock")
                .get_or_insert(err);
        }
    };
    while let Some((request, _)) = read_frame::<Request>(input)? {
        let files = TemplateFiles::from_sources(request.files);
        let reuse = Reuse(request.reuse.then_some(cache));
        let done = run::run(
            &request.plan,
            &files,
            exports,
            reuse,
            &|progress| match progress {
                Progress::Started(name) => send(&Event::Started(name.to_string()), &[]),
                Progress::Finished(name) => send(&Event::Finished(name.to_string()), &[]),
                Progress::Output(file) => send(&Event::Output(file.path), &file.bytes),
            },
        );
        let wire = |list: &[Diagnostic]| list.iter().map(WireDiagnostic::from).collect();
        let done = match done {
            Ok(done) => Ok(WireDone {
                warnings: wire(&done.warnings),
                timings: done.timings,
            }),
            Err(errors) => Err(wire(&errors)),
        };
        send(&Event::Done(done), &[]);
        if let Some(err) = failed.lock().expect("no panic holds the lock").take() {
            // The parent is gone: nobody is left to answer.
            return Err(err);
        }
        if request.reuse {
            cache.finish_build();
        }
        comemo::evict(10);
    }
    Ok(())
}
