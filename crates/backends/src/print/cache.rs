//! What a session of builds (`watch`) keeps from one build to the next: rasterised card
//! faces, encoded PNGs and exported PDFs, each under a key that hashes what it was made from
//! (a Typst page and its resolution, a document's pages). After a one-card edit, every other
//! page hashes as before, so only that card's images are rasterised and encoded again.
//!
//! The cache is a value its owner holds and passes in (the typesetting worker's loop, or
//! [`super::Typesetting::Session`]), never global state; and it changes no output: a hit
//! gives the bytes a miss would have made, so a rebuild writes what a full build writes.

use std::any::Any;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::{Arc, Mutex};

use typst::layout::{Frame, FrameItem};
use typst::visualize::ImageKind;
use typst_layout::Page;

/// A 128-bit hash of what a value was made from (Typst's own stable SipHash).
pub type Key = u128;

/// The key of `value`: hash everything the result depends on, with a word for what is made
/// (`"preview"`, `"face"`), so that two kinds of result never share a key.
pub fn key(value: &(impl Hash + ?Sized)) -> Key {
    typst::utils::hash128(value)
}

/// How many builds an entry outlives without being used. `watch` makes two builds per save
/// (the PDFs, then the previews and the export), so this keeps what the save before used.
const KEEP_BUILDS: u64 = 4;

/// Results of earlier builds, by key, up to a budget of bytes.
pub struct RenderCache {
    budget: usize,
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    entries: HashMap<Key, Entry>,
    bytes: usize,
    /// The build under way, counted from 0.
    build: u64,
    hits: usize,
    misses: usize,
    /// The hits and misses of the last build finished.
    last: (usize, usize),
}

struct Entry {
    value: Arc<dyn Any + Send + Sync>,
    bytes: usize,
    used: u64,
}

/// What a cached value weighs, for the budget.
pub trait Weigh {
    fn bytes(&self) -> usize;
}

impl Weigh for Vec<u8> {
    fn bytes(&self) -> usize {
        self.len()
    }
}

impl Weigh for crate::raster::Image {
    fn bytes(&self) -> usize {
        self.rgb.len()
    }
}

impl RenderCache {
    /// A cache holding at most `budget` bytes of results: past it, new results are made and
    /// not kept.
    pub fn new(budget: usize) -> RenderCache {
        RenderCache {
            budget,
            state: Mutex::new(State::default()),
        }
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The value under `key`, made by `make` when there is none (and kept, within budget).
    /// The lock is not held while `make` runs, so threads make different values at once.
    pub fn get<T: Weigh + Send + Sync + 'static>(
        &self,
        key: Key,
        make: impl FnOnce() -> T,
    ) -> Arc<T> {
        match self.try_get(key, || Ok::<T, std::convert::Infallible>(make())) {
            Ok(value) => value,
            Err(never) => match never {},
        }
    }

    /// [`Self::get`] for a `make` that may fail: a failure is returned and not kept.
    pub(crate) fn try_get<T: Weigh + Send + Sync + 'static, E>(
        &self,
        key: Key,
        make: impl FnOnce() -> Result<T, E>,
    ) -> Result<Arc<T>, E> {
        {
            let mut state = self.state();
            let build = state.build;
            if let Some(entry) = state.entries.get_mut(&key)
                && let Ok(value) = Arc::clone(&entry.value).downcast::<T>()
            {
                entry.used = build;
                state.hits += 1;
                return Ok(value);
            }
            state.misses += 1;
        }
        let value = Arc::new(make()?);
        let bytes = value.bytes();
        let mut state = self.state();
        if state.bytes + bytes <= self.budget {
            let build = state.build;
            let entry = Entry {
                value: Arc::clone(&value) as Arc<dyn Any + Send + Sync>,
                bytes,
                used: build,
            };
            if let Some(old) = state.entries.insert(key, entry) {
                state.bytes -= old.bytes;
            }
            state.bytes += bytes;
        }
        Ok(value)
    }

    /// The value under `key`, if there is one of type `T` (it counts as used).
    pub fn peek<T: Send + Sync + 'static>(&self, key: Key) -> Option<Arc<T>> {
        let mut state = self.state();
        let build = state.build;
        let entry = state.entries.get_mut(&key)?;
        let value = Arc::clone(&entry.value).downcast::<T>().ok()?;
        entry.used = build;
        Some(value)
    }

    /// Counts a look-up made with [`Self::peek`] as this build's hit or miss.
    pub fn count(&self, hit: bool) {
        let mut state = self.state();
        if hit {
            state.hits += 1;
        } else {
            state.misses += 1;
        }
    }

    /// Keeps `value` under `key` (within budget), in place of what was there.
    pub fn put<T: Weigh + Send + Sync + 'static>(&self, key: Key, value: Arc<T>) {
        let bytes = value.bytes();
        let mut state = self.state();
        if let Some(old) = state.entries.remove(&key) {
            state.bytes -= old.bytes;
        }
        if state.bytes + bytes <= self.budget {
            let used = state.build;
            state.entries.insert(
                key,
                Entry {
                    value: value as Arc<dyn Any + Send + Sync>,
                    bytes,
                    used,
                },
            );
            state.bytes += bytes;
        }
    }

    /// Ends a build: forgets what the last few builds did not use. Returns this build's hits
    /// and misses.
    pub(crate) fn finish_build(&self) -> (usize, usize) {
        let mut state = self.state();
        let build = state.build;
        let mut freed = 0;
        state.entries.retain(|_, entry| {
            let keep = entry.used + KEEP_BUILDS > build;
            if !keep {
                freed += entry.bytes;
            }
            keep
        });
        state.bytes -= freed;
        state.build += 1;
        let counts = (state.hits, state.misses);
        state.hits = 0;
        state.misses = 0;
        state.last = counts;
        counts
    }

    /// How many results the last build finished took from the cache, and how many it made.
    pub fn last_build(&self) -> (usize, usize) {
        self.state().last
    }

    /// Bytes held.
    pub fn bytes(&self) -> usize {
        self.state().bytes
    }
}

/// A cache, or none (a one-off build): what backends are handed.
#[derive(Clone, Copy, Default)]
pub struct Reuse<'a>(pub Option<&'a RenderCache>);

impl<'a> Reuse<'a> {
    pub(crate) const NONE: Reuse<'static> = Reuse(None);

    pub(crate) fn is_on(self) -> bool {
        self.0.is_some()
    }

    /// `make()`, or what it made before for the same key. The key is worked out only when
    /// there is a cache.
    pub fn get<T: Weigh + Send + Sync + 'static>(
        self,
        key: impl FnOnce() -> Key,
        make: impl FnOnce() -> T,
    ) -> Arc<T> {
        match self.0 {
            Some(cache) => cache.get(key(), make),
            None => Arc::new(make()),
        }
    }
}

/// The bytes of a shared value: moved out when nothing else holds them (no cache), copied
/// when the cache keeps them.
pub fn owned(bytes: Arc<Vec<u8>>) -> Vec<u8> {
    Arc::try_unwrap(bytes).unwrap_or_else(|shared| shared.as_ref().clone())
}

/// The card designs' PDF as a deck's template receives it: the key of its bytes and of
/// each page as typeset.
pub struct Designs {
    pub document: Key,
    pub pages: Vec<Key>,
}

/// The key of a page as rasterised. With `designs`, each page of the designs' PDF placed on
/// it counts as the design page it shows, not as the whole PDF: a one-card edit changes the
/// PDF's bytes, and so every page placing any design, but it changes only the pages that
/// place that card. (Introspection's marks, which are not drawn, are left out of that key:
/// they hold the image elements, and with them the whole PDF.)
pub fn page_key(page: &Page, designs: Option<&Designs>) -> Key {
    match designs {
        None => key(page),
        Some(designs) => key(&PageByDesigns { page, designs }),
    }
}

struct PageByDesigns<'a> {
    page: &'a Page,
    designs: &'a Designs,
}

impl Hash for PageByDesigns<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        let page = self.page;
        page.bleed.hash(state);
        page.fill.hash(state);
        page.numbering.hash(state);
        page.supplement.hash(state);
        page.number.hash(state);
        FrameByDesigns {
            frame: &page.frame,
            designs: self.designs,
        }
        .hash(state);
    }
}

struct FrameByDesigns<'a> {
    frame: &'a Frame,
    designs: &'a Designs,
}

impl Hash for FrameByDesigns<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        let frame = self.frame;
        frame.size().hash(state);
        frame.baseline().hash(state);
        frame.kind().hash(state);
        for (point, item) in frame.items() {
            point.hash(state);
            match item {
                FrameItem::Group(group) => {
                    state.write_u8(0);
                    FrameByDesigns {
                        frame: &group.frame,
                        designs: self.designs,
                    }
                    .hash(state);
                    group.transform.hash(state);
                    group.clip.hash(state);
                    group.label.hash(state);
                    group.parent.hash(state);
                }
                FrameItem::Image(image, size, span) => match image.kind() {
                    ImageKind::Pdf(pdf)
                        if key(pdf.document()) == self.designs.document
                            && pdf.page_index() < self.designs.pages.len() =>
                    {
                        state.write_u8(1);
                        self.designs.pages[pdf.page_index()].hash(state);
                        size.hash(state);
                        image.scaling().hash(state);
                        image.alt().hash(state);
                        span.hash(state);
                    }
                    _ => {
                        state.write_u8(2);
                        item.hash(state);
                    }
                },
                // What introspection marks: not drawn (and an image's marks hold its
                // element, with the whole PDF).
                FrameItem::Tag(_) => {}
                _ => {
                    state.write_u8(3);
                    item.hash(state);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hit_gives_what_was_made_and_old_entries_go() {
        let cache = RenderCache::new(1000);
        let made = cache.get(key("a"), || vec![1u8, 2, 3]);
        let again = cache.get(key("a"), || -> Vec<u8> { panic!("made twice") });
        assert_eq!(made, again);
        assert_eq!(cache.bytes(), 3);
        assert_eq!(cache.finish_build(), (1, 1));
        for _ in 0..KEEP_BUILDS {
            cache.finish_build();
        }
        assert_eq!(cache.bytes(), 0, "unused for {KEEP_BUILDS} builds");
        // Past the budget, values are made but not kept.
        let big = cache.get(key("big"), || vec![0u8; 2000]);
        assert_eq!(big.len(), 2000);
        assert_eq!(cache.bytes(), 0);
    }
}
