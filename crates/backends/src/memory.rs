//! A bound on the heap, for the typesetting worker.
//!
//! A Typst program can ask for any amount of memory (`#range(1000000000)`), and Typst has no
//! hook to refuse it. The binary's allocator is wrapped in [`Bounded`], which counts the bytes
//! live on the heap once a limit is set ([`set_limit`], done only by the worker): an
//! allocation that would go over it ends the process at once, with [`EXCEEDED`] on stderr
//! for the parent to read. Counting live bytes, rather than limiting the address space
//! (`RLIMIT_AS`), keeps the bound what it says: mimalloc reserves address space in large
//! arenas it has not used yet, and thread stacks and the binary's own mapping count there too.
//! Without a limit (every other command) the wrapper costs one relaxed load per allocation.

use std::alloc::{GlobalAlloc, Layout};
use std::sync::atomic::{AtomicIsize, AtomicUsize, Ordering};

/// What a process that went over its bound writes on stderr before it stops.
pub(crate) const EXCEEDED: &str = "safari: the typesetting worker went over its memory bound";

/// Bytes the heap may hold; 0 for no bound.
static LIMIT: AtomicUsize = AtomicUsize::new(0);
/// Bytes live on the heap since the limit was set (allocations made before it and freed
/// after it make this a little low, never high).
static USED: AtomicIsize = AtomicIsize::new(0);

/// Bounds this process's heap at `bytes` from now on.
pub fn set_limit(bytes: u64) {
    LIMIT.store(
        usize::try_from(bytes).unwrap_or(usize::MAX).max(1),
        Ordering::Relaxed,
    );
}

/// An allocator that stops the process when the heap would go over [`set_limit`]'s bound.
pub struct Bounded<A>(pub A);

impl<A> Bounded<A> {
    fn admit(&self, bytes: usize) {
        let limit = LIMIT.load(Ordering::Relaxed);
        if limit == 0 {
            return;
        }
        let before = USED.fetch_add(bytes as isize, Ordering::Relaxed);
        if before.saturating_add(bytes as isize) > limit as isize {
            exceeded();
        }
    }

    fn release(&self, bytes: usize) {
        if LIMIT.load(Ordering::Relaxed) != 0 {
            USED.fetch_sub(bytes as isize, Ordering::Relaxed);
        }
    }
}

/// Stops the process. Returning null instead would let code that can survive a failed
/// allocation carry on and fail later, somewhere less clear; this way the parent always
/// learns the cause. Writing to stderr does not allocate (it is unbuffered).
#[cold]
fn exceeded() -> ! {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{EXCEEDED}");
    std::process::abort()
}

// SAFETY: every method forwards to the wrapped allocator with the caller's arguments; the
// counting around it never touches the memory.
unsafe impl<A: GlobalAlloc> GlobalAlloc for Bounded<A> {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        self.admit(layout.size());
        // SAFETY: forwarded as received.
        unsafe { self.0.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        self.admit(layout.size());
        // SAFETY: forwarded as received.
        unsafe { self.0.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        self.release(layout.size());
        // SAFETY: forwarded as received.
        unsafe { self.0.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if new_size > layout.size() {
            self.admit(new_size - layout.size());
        } else {
            self.release(layout.size() - new_size);
        }
        // SAFETY: forwarded as received.
        unsafe { self.0.realloc(ptr, layout, new_size) }
    }
}
