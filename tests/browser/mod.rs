//! A real browser for the tests of HTML reports: Debian's Chromium, headless.
//!
//! [`open`] loads a written page twice, once to read the DOM the browser built (so a test can
//! check what rendered) and once to take a screenshot (so a person can look at it), and fails
//! on any console message. The reports have no scripts and forbid loading anything
//! (`safari::html::CONTENT_SECURITY_POLICY`), so any message at all, a script error, a blocked
//! load, a policy violation, is a fault. Chromium prints console messages to standard error
//! with `--enable-logging=stderr` as `...:INFO:CONSOLE:<line>] "message", source: ...`.
//!
//! Where Chromium is absent the test is skipped with a printed reason, unless
//! `SAFARI_REQUIRE_BROWSER` is set (CI sets it, and installs Chromium), when it fails instead.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// What the browser made of a page.
pub struct Rendered {
    /// The DOM after loading, serialised (`--dump-dom`).
    pub dom: String,
    /// The screenshot, a PNG.
    pub screenshot: PathBuf,
}

const CANDIDATES: [&str; 3] = ["chromium", "chromium-browser", "google-chrome"];
const TIMEOUT: Duration = Duration::from_secs(90);

fn find_chromium() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .flat_map(|dir| CANDIDATES.iter().map(move |name| dir.join(name)))
        .find(|candidate| candidate.is_file())
}

/// The browser, or `None` (with the reason printed) when the test should be skipped.
/// Panics when it is absent and required.
pub fn chromium() -> Option<PathBuf> {
    match find_chromium() {
        Some(path) => Some(path),
        None if std::env::var_os("SAFARI_REQUIRE_BROWSER").is_some() => {
            panic!(
                "SAFARI_REQUIRE_BROWSER is set but no Chromium is installed (apt-get install chromium)"
            )
        }
        None => {
            eprintln!(
                "SKIPPED: no Chromium on PATH (looked for {}); install Debian's `chromium`, \
                 or set SAFARI_REQUIRE_BROWSER to make this a failure",
                CANDIDATES.join(", ")
            );
            None
        }
    }
}

/// Runs the browser on `page` with `extra` arguments; its standard output, after checking
/// that it exited well and logged no console message.
fn run(chromium: &Path, page: &Path, scratch: &Path, extra: &[String]) -> String {
    let profile = scratch.join("profile");
    let (stdout_path, stderr_path) = (scratch.join("stdout"), scratch.join("stderr"));
    let url = format!(
        "file://{}",
        page.canonicalize().expect("the page exists").display()
    );
    let mut child = Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--hide-scrollbars",
            "--enable-logging=stderr",
            "--v=0",
            // Nothing may come from a network: any name resolves to nowhere.
            "--host-resolver-rules=MAP * ~NOTFOUND",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(extra)
        .arg(&url)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&stdout_path).unwrap())
        .stderr(std::fs::File::create(&stderr_path).unwrap())
        .spawn()
        .expect("chromium starts");
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            panic!("chromium did not finish {url} in {TIMEOUT:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let stderr = std::fs::read_to_string(&stderr_path).unwrap_or_default();
    assert!(status.success(), "chromium failed on {url}:\n{stderr}");
    let console: Vec<&str> = stderr.lines().filter(|l| l.contains(":CONSOLE")).collect();
    assert!(
        console.is_empty(),
        "the page logged to the console:\n{}",
        console.join("\n")
    );
    std::fs::read_to_string(&stdout_path).unwrap_or_default()
}

/// Opens `page` in headless Chromium, `width` pixels wide and `height` tall for the
/// screenshot (written to `screenshot`); fails on any console message.
pub fn open(
    chromium: &Path,
    page: &Path,
    screenshot: &Path,
    (width, height): (u32, u32),
) -> Rendered {
    static OPENED: AtomicUsize = AtomicUsize::new(0);
    let scratch = std::env::temp_dir().join(format!(
        "safari-browser-{}-{}",
        std::process::id(),
        OPENED.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch).unwrap();
    let dom = run(chromium, page, &scratch, &["--dump-dom".to_string()]);
    if let Some(dir) = screenshot.parent() {
        std::fs::create_dir_all(dir).unwrap();
    }
    let _ = std::fs::remove_file(screenshot);
    run(
        chromium,
        page,
        &scratch,
        &[
            format!("--screenshot={}", screenshot.display()),
            format!("--window-size={width},{height}"),
        ],
    );
    let _ = std::fs::remove_dir_all(&scratch);
    let png = std::fs::read(screenshot).expect("chromium wrote the screenshot");
    assert!(png.starts_with(b"\x89PNG"), "the screenshot is not a PNG");
    Rendered {
        dom,
        screenshot: screenshot.to_path_buf(),
    }
}

/// Node with playwright-core, or `None` (with the reason printed) when the test should be
/// skipped. Panics when they are missing and required.
pub fn node() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    let node = std::env::split_paths(&path)
        .map(|dir| dir.join("node"))
        .find(|candidate| candidate.is_file());
    let playwright =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/browser/node_modules/playwright-core");
    match node {
        Some(node) if playwright.is_dir() => Some(node),
        _ if std::env::var_os("SAFARI_REQUIRE_BROWSER").is_some() => {
            panic!(
                "SAFARI_REQUIRE_BROWSER is set but Node or playwright-core is missing (cd tests/browser && npm ci)"
            )
        }
        _ => {
            eprintln!("SKIPPED: no Node with playwright-core (cd tests/browser && npm ci)");
            None
        }
    }
}
