//! Typesetting in a worker process, bounded in time and memory.
//!
//! Templates and a game's own Typst files are programs: `#for i in range(100000000) []` runs for
//! minutes and `#range(1000000000)` fills memory until the system kills the process. Typst
//! can be neither cancelled nor limited from the inside, so the command line typesets in a
//! child process of its own binary (`safari typeset-worker`, hidden from the help): the child
//! bounds its own heap ([`crate::memory`]) and the parent kills it when a build runs past its
//! time. Either way, or if it crashes, the build ends with an SZ0704 error naming the
//! documents that were being typeset, and nothing is written; the parent lives on.
//!
//! Two time bounds: the whole build's, and a tighter one for each document that runs the
//! game's own Typst (a page of rules it writes, a template it overrides). What safari's
//! own templates typeset is bounded by `check`'s limits on content, so only the game's own
//! Typst can take unbounded time; a page of a game's own rules typesets in about a second, and a
//! hostile one (`#lorem(100000)`, a box inset by 2^32 pt that takes minutes to rasterise)
//! is stopped at a minute, not at the whole build's five.
//!
//! The worker stays up between builds, so `watch` keeps Typst's caches from one rebuild to
//! the next; a worker that was stopped is started again for the next build.

use std::io::{BufReader, BufWriter, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::files::TemplateFiles;
use super::plan::Plan;
use super::run::{Done, EXPORTS};
use super::wire::{self, Event, Request};
use crate::Output;
use crate::diag::{Code, Diagnostic};
use crate::world::Origin;

/// The hidden subcommand the worker runs as, and its memory option.
pub(crate) const SUBCOMMAND: &str = "typeset-worker";
pub(crate) const MEMORY_OPTION: &str = "--memory-bytes";

/// How long a build may typeset and how much heap the worker may hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bounds {
    pub time: Duration,
    pub memory: u64,
    /// How long one document that runs the game's own Typst may take, from its start.
    pub own_typst: Duration,
}

impl Bounds {
    /// Far above what any build within the content limits takes (docs/performance.md), and
    /// low enough that a runaway template stops before it troubles the machine.
    /// A document of the game's own Typst: the default game's sheet with its own page of rules
    /// typesets and renders in about a second.
    pub const DEFAULT: Bounds = Bounds {
        time: Duration::from_secs(300),
        memory: 4 << 30,
        own_typst: Duration::from_secs(60),
    };

    /// The bounds of a build given `time` in all: every document gets at most that.
    pub fn within(time: Duration, memory: u64) -> Bounds {
        Bounds {
            time,
            memory,
            own_typst: time,
        }
    }
}

/// A typesetting worker: the program to start, its bounds, and the process while it runs.
pub struct Worker {
    program: PathBuf,
    bounds: Bounds,
    live: Option<Live>,
    /// Whether the worker keeps each build's images and PDFs for the next.
    reuse: bool,
}

struct Live {
    child: Child,
    stdin: BufWriter<ChildStdin>,
    /// The worker's stdout, read into frames by a thread; closed when the worker's stdout is.
    events: Receiver<std::io::Result<(Event, Vec<u8>)>>,
    /// The last of the worker's stderr, read by a thread until the worker ends.
    stderr: Arc<Mutex<Vec<u8>>>,
    stderr_reader: std::thread::JoinHandle<()>,
}

/// mimalloc's option for transparent huge pages, set off for the worker unless given.
const ALLOW_THP: &str = "MIMALLOC_ALLOW_THP";

/// How much of a worker's stderr is kept, for the message when it crashes.
const STDERR_TAIL: usize = 4096;

impl Worker {
    /// A worker running `program` (this binary, or `CARGO_BIN_EXE_safari` in tests).
    pub fn new(program: impl Into<PathBuf>, bounds: Bounds) -> Worker {
        Worker {
            program: program.into(),
            bounds,
            live: None,
            reuse: false,
        }
    }

    /// The same worker, keeping each build's images and PDFs for the next (in its own
    /// memory, within its bound): for `watch`, whose rebuilds then rasterise and encode
    /// only what changed.
    pub(crate) fn reusing_renders(mut self) -> Worker {
        self.reuse = true;
        self
    }

    /// A worker running the binary this process was started from.
    pub fn this_program(bounds: Bounds) -> std::io::Result<Worker> {
        Ok(Worker::new(std::env::current_exe()?, bounds))
    }

    /// Carries `plan` out in the worker: its files, and what the build left besides; or the
    /// errors, including SZ0704 when the worker was stopped or stopped by itself.
    pub(super) fn run(
        &mut self,
        plan: &Plan,
        files: &TemplateFiles,
    ) -> Result<(Vec<Output>, Done), Vec<Diagnostic>> {
        let started = Instant::now();
        let mut live = match self.live.take() {
            Some(live) => live,
            None => self.spawn().map_err(|err| {
                vec![Diagnostic::error(
                    Code::TypesetLimit,
                    format!(
                        "cannot start the typesetting worker ({}): {err}",
                        self.program.display()
                    ),
                )]
            })?,
        };
        let request = Request {
            files: files.to_sources(),
            plan: plan.clone(),
            reuse: self.reuse,
        };
        let mut unfinished: Vec<String> = Vec::new();
        if wire::write_frame(&mut live.stdin, &request, &[])
            .and_then(|()| live.stdin.flush())
            .is_err()
        {
            return Err(vec![self.ended(live, &unfinished, files)]);
        }
        let mut outputs = Vec::new();
        let deadline = started + self.bounds.time;
        // The documents running the game's own Typst, and when each must be done.
        let mut own: Vec<(String, Instant)> = Vec::new();
        loop {
            let next = own.iter().map(|(_, at)| *at).fold(deadline, Instant::min);
            let left = next.saturating_duration_since(Instant::now());
            match live.events.recv_timeout(left) {
                Ok(Ok((event, blob))) => match event {
                    Event::Started(document) => {
                        if !files.typeset_by(&document).is_empty() {
                            own.push((document.clone(), Instant::now() + self.bounds.own_typst));
                        }
                        unfinished.push(document);
                    }
                    Event::Finished(document) => {
                        own.retain(|(d, _)| *d != document);
                        unfinished.retain(|d| *d != document);
                    }
                    Event::Output(path) => outputs.push(Output { path, bytes: blob }),
                    Event::Done(result) => {
                        self.live = Some(live);
                        let convert = |list: Vec<wire::WireDiagnostic>| -> Vec<Diagnostic> {
                            list.into_iter().map(|d| d.into_diagnostic()).collect()
                        };
                        let done = result.map_err(convert)?;
                        let done = Done {
                            warnings: convert(done.warnings),
                            timings: done.timings,
                        };
                        return Ok((outputs, done));
                    }
                },
                Err(RecvTimeoutError::Timeout) => {
                    let _ = live.child.kill();
                    let _ = live.child.wait();
                    let now = Instant::now();
                    let late: Vec<String> = own
                        .iter()
                        .filter(|(_, at)| *at <= now)
                        .map(|(document, _)| document.clone())
                        .collect();
                    if now < deadline && !late.is_empty() {
                        return Err(vec![self.fault(Fault::OwnTime, &late, files)]);
                    }
                    return Err(vec![self.fault(Fault::Time, &unfinished, files)]);
                }
                // A broken frame or the end of the stream: the worker is gone or going.
                Ok(Err(_)) | Err(RecvTimeoutError::Disconnected) => {
                    return Err(vec![self.ended(live, &unfinished, files)]);
                }
            }
        }
    }

    fn spawn(&self) -> std::io::Result<Live> {
        let mut command = Command::new(&self.program);
        // No transparent huge pages for the worker's heap: the allocator asks for them, and
        // where the kernel has to compact memory to make one (defrag=madvise, the common
        // setting) the first touch of each 2 MiB stalls; a build then took up to twice as
        // long, and its time swung with the machine's memory (docs/performance.md).
        if std::env::var_os(ALLOW_THP).is_none() {
            command.env(ALLOW_THP, "0");
        }
        let mut child = command
            .arg(SUBCOMMAND)
            .arg(MEMORY_OPTION)
            .arg(self.bounds.memory.to_string())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()?;
        let stdin = BufWriter::new(child.stdin.take().expect("stdin is piped"));
        let mut stdout = BufReader::new(child.stdout.take().expect("stdout is piped"));
        let mut stderr_pipe = child.stderr.take().expect("stderr is piped");
        let (sender, events) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            loop {
                match wire::read_frame::<Event>(&mut stdout) {
                    Ok(Some(frame)) => {
                        if sender.send(Ok(frame)).is_err() {
                            return;
                        }
                    }
                    Ok(None) => return,
                    Err(err) => {
                        let _ = sender.send(Err(err));
                        return;
                    }
                }
            }
        });
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let tail = Arc::clone(&stderr);
        let stderr_reader = std::thread::spawn(move || {
            let mut chunk = [0u8; 1024];
            while let Ok(read) = stderr_pipe.read(&mut chunk) {
                if read == 0 {
                    return;
                }
                let mut tail = tail.lock().expect("no panic holds the lock");
                tail.extend_from_slice(&chunk[..read]);
                let excess = tail.len().saturating_sub(STDERR_TAIL);
                tail.drain(..excess);
            }
        });
        Ok(Live {
            child,
            stdin,
            events,
            stderr,
            stderr_reader,
        })
    }

    /// The worker's stream ended before the build did: it went over its memory bound, or it
    /// crashed.
    fn ended(&self, mut live: Live, unfinished: &[String], files: &TemplateFiles) -> Diagnostic {
        // Its stdout closes as it dies; make sure it is dead, then read what it said last.
        let _ = live.child.kill();
        let status = live.child.wait().ok();
        let _ = live.stderr_reader.join();
        let stderr = live.stderr.lock().expect("no panic holds the lock").clone();
        let stderr = String::from_utf8_lossy(&stderr);
        let fault = if stderr.contains(crate::memory::EXCEEDED) {
            Fault::Memory
        } else {
            let last = stderr.lines().rev().find(|l| !l.trim().is_empty());
            Fault::Crash(how_it_ended(status), last.map(str::to_string))
        };
        self.fault(fault, unfinished, files)
    }

    fn fault(&self, fault: Fault, unfinished: &[String], files: &TemplateFiles) -> Diagnostic {
        let documents = describe(unfinished);
        // The game's own sources the unfinished documents typeset are suspects too.
        let own: Vec<_> = unfinished
            .iter()
            .flat_map(|document| files.typeset_by(document))
            .collect();
        let look = match own.first() {
            Some((_, name, _)) => format!(
                "look for a loop, a huge repetition (`range`, `lorem`, a string or array \
                 multiplied) or an enormous size in {name} or the game's templates"
            ),
            // Only safari's own templates ran: what costs this much is the amount of content.
            None => format!(
                "safari's built-in templates alone typeset {documents}, so it is the amount \
                 of content that costs this much: build fewer parts at once (--only)"
            ),
        };
        let mut diagnostic = match fault {
            Fault::OwnTime => Diagnostic::error(
                Code::TypesetLimit,
                format!(
                    "typesetting {documents} did not finish within {}, the bound of a document \
                     that runs the game's own Typst",
                    seconds(self.bounds.own_typst)
                ),
            )
            .with_help(format!(
                "{look}; a document whose own Typst really takes this long can be given more \
                 time with --typeset-timeout SECONDS (which bounds every document alike)"
            )),
            Fault::Time => Diagnostic::error(
                Code::TypesetLimit,
                format!(
                    "typesetting {documents} did not finish within {}",
                    seconds(self.bounds.time)
                ),
            )
            .with_help(format!(
                "{look}; a document that really takes this long can be given more time with \
                 --typeset-timeout SECONDS"
            )),
            Fault::Memory => Diagnostic::error(
                Code::TypesetLimit,
                format!(
                    "typesetting {documents} went over the memory bound of {}",
                    size(self.bounds.memory)
                ),
            )
            .with_help(format!(
                "{look}; a document that really needs this much can be given more with \
                 --typeset-memory SIZE"
            )),
            Fault::Crash(how, last) => Diagnostic::error(
                Code::TypesetLimit,
                format!(
                    "typesetting {documents} stopped: the typesetting worker {how}{}",
                    last.map(|l| format!(" ({})", l.trim())).unwrap_or_default()
                ),
            )
            .with_help(format!(
                "{look}; if the content has none, this is a fault of safari: please report it"
            )),
        };
        if let Some((file, _, placement)) = own.first() {
            diagnostic = diagnostic.with_primary(Origin::file_start(*file), *placement);
        }
        diagnostic
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        if let Some(mut live) = self.live.take() {
            let _ = live.child.kill();
            // Reaped on a thread of its own: the kernel takes 20-30 ms to free a worker's
            // heap, which nothing here has to wait for (a build goes on to write its files,
            // and a process that ends first leaves the reaping to init).
            let mut child = live.child;
            std::thread::spawn(move || {
                let _ = child.wait();
            });
        }
    }
}

enum Fault {
    Time,
    /// A document running the game's own Typst went past [`Bounds::own_typst`].
    OwnTime,
    Memory,
    /// How the worker ended, and the last line it wrote on stderr.
    Crash(String, Option<String>),
}

fn how_it_ended(status: Option<ExitStatus>) -> String {
    let Some(status) = status else {
        return "ended".to_string();
    };
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            return format!("was ended by signal {signal}");
        }
    }
    match status.code() {
        Some(code) => format!("exited with code {code}"),
        None => "ended".to_string(),
    }
}

/// "table-sheet.typ", "table-deck.typ and table-sheet.typ", or "the build" when nothing had
/// started.
fn describe(unfinished: &[String]) -> String {
    let mut names: Vec<String> = unfinished
        .iter()
        .map(|d| match d.as_str() {
            EXPORTS => "the Tabletop Simulator save and playtest page".to_string(),
            template => template.to_string(),
        })
        .collect();
    names.sort();
    match names.as_slice() {
        [] => "the build".to_string(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// "3 s", "0.5 s".
pub fn seconds(time: Duration) -> String {
    format!("{} s", time.as_secs_f64())
}

/// "512 MiB", "4 GiB".
pub fn size(bytes: u64) -> String {
    const MIB: u64 = 1 << 20;
    const GIB: u64 = 1 << 30;
    if bytes >= GIB && bytes.is_multiple_of(GIB) {
        format!("{} GiB", bytes / GIB)
    } else if bytes >= MIB {
        format!("{} MiB", bytes / MIB)
    } else {
        format!("{bytes} bytes")
    }
}
