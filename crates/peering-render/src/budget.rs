//! A memory budget per render.
//!
//! The engine's fuel bounds the work of a render and the bytes it creates in total, but
//! not what it holds at once: a render may keep gigabytes in variables. So the program's
//! allocator is wrapped in a [`CountingAllocator`], which keeps, for each thread, the
//! bytes allocated minus the bytes freed there. A render runs on a thread of its own
//! (see `limits`), so that count is what the render holds. The engine cannot be stopped
//! from inside an allocation, so the count is compared with the budget at the points
//! where the render comes back to us: every piece of output, every value printed, every
//! step of a `range`, every stored template read or included, every call of one of our
//! filters. Past the budget the render fails as out of bounds.
//!
//! Without the counting allocator installed (`#[global_allocator]`), counts stay at zero
//! and only the fuel and the output limit bound a render; [`counting`] tells which.

use std::alloc::{GlobalAlloc, Layout};
use std::cell::Cell;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};

use peering_domain::{Record, ResourceSpec};

use crate::source::{DataSource, StoredKind, StoredTemplate};

thread_local! {
    /// Bytes allocated minus bytes freed on this thread. Const-initialised and without a
    /// destructor, so the allocator may read it at any time without allocating.
    static HELD: Cell<i64> = const { Cell::new(0) };
    /// Set on a render's thread while it renders ([`RenderMemory`]), and cleared while it
    /// loads shared data ([`uncounted`]), which is not the render's. Other threads (the
    /// server's) pay one thread-local read per allocation and count nothing.
    static COUNTED: Cell<bool> = const { Cell::new(false) };
}

/// Set once the counting allocator has served an allocation.
static COUNTING: AtomicBool = AtomicBool::new(false);

/// An allocator that counts, per thread, the bytes it holds for that thread, around the
/// allocator `A` that does the work.
///
/// ```
/// #[global_allocator]
/// static ALLOCATOR: peering_render::CountingAllocator<std::alloc::System> =
///     peering_render::CountingAllocator::new(std::alloc::System);
///
/// fn main() {
///     let held = std::hint::black_box(vec![0u8; 1024]);
///     assert!(peering_render::budget::counting());
///     drop(held);
/// }
/// ```
#[derive(Debug, Default)]
pub struct CountingAllocator<A> {
    inner: A,
}

impl<A> CountingAllocator<A> {
    pub const fn new(inner: A) -> CountingAllocator<A> {
        CountingAllocator { inner }
    }
}

fn count(delta: i64) {
    // `try_with`: a thread being torn down has no counter left; its frees go uncounted.
    if !COUNTED.try_with(Cell::get).unwrap_or(false) {
        return;
    }
    let _ = HELD.try_with(|held| held.set(held.get().wrapping_add(delta)));
}

/// Runs `work` without counting what it allocates or frees on this thread: for data a
/// render loads to share with later renders (the tables of a data version), which would
/// otherwise count against the render that happened to load it first.
pub fn uncounted<T>(work: impl FnOnce() -> T) -> T {
    let _restore = Counted::set(false);
    work()
}

/// Whether this thread counts, until the value is dropped; then as it was (also when the
/// work in between panics).
#[derive(Debug)]
struct Counted(bool);

impl Counted {
    fn set(counted: bool) -> Counted {
        Counted(COUNTED.with(|c| c.replace(counted)))
    }
}

impl Drop for Counted {
    fn drop(&mut self) {
        let _ = COUNTED.try_with(|c| c.set(self.0));
    }
}

/// Notes that the counting allocator serves allocations, reading before writing so that
/// the flag's cache line stays shared between cores.
fn note_counting() {
    if !COUNTING.load(Ordering::Relaxed) {
        COUNTING.store(true, Ordering::Relaxed);
    }
}

/// A [`DataSource`] whose reads are not counted against the render that makes them
/// (see [`uncounted`]): the server wraps its source in it.
pub struct Uncounted<S>(pub S);

impl<S: DataSource> DataSource for Uncounted<S> {
    fn all(&self, spec: &'static ResourceSpec) -> Result<Vec<Record>, String> {
        uncounted(|| self.0.all(spec))
    }

    fn template(
        &self,
        kind: StoredKind,
        identifier: &str,
    ) -> Result<Option<StoredTemplate>, String> {
        uncounted(|| self.0.template(kind, identifier))
    }

    fn shared_lans(&self, asn: i64, other: i64) -> Result<Vec<i64>, String> {
        uncounted(|| self.0.shared_lans(asn, other))
    }

    fn shared_facilities(&self, asn: i64, other: i64) -> Result<Vec<Record>, String> {
        uncounted(|| self.0.shared_facilities(asn, other))
    }

    fn lan_records(&self, asn: i64, lans: &[i64]) -> Result<Vec<Record>, String> {
        uncounted(|| self.0.lan_records(asn, lans))
    }
}

fn size_of(layout: Layout) -> i64 {
    i64::try_from(layout.size()).unwrap_or(i64::MAX)
}

// The one `unsafe` of this crate (see Cargo.toml).
// SAFETY: every call is passed on unchanged to the inner allocator, which upholds the
// contract; the wrapper only adds to a thread-local counter, which never allocates.
#[allow(unsafe_code)]
unsafe impl<A: GlobalAlloc> GlobalAlloc for CountingAllocator<A> {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let block = self.inner.alloc(layout);
        if !block.is_null() {
            count(size_of(layout));
            note_counting();
        }
        block
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let block = self.inner.alloc_zeroed(layout);
        if !block.is_null() {
            count(size_of(layout));
            note_counting();
        }
        block
    }

    unsafe fn dealloc(&self, block: *mut u8, layout: Layout) {
        self.inner.dealloc(block, layout);
        count(-size_of(layout));
    }

    unsafe fn realloc(&self, block: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let moved = self.inner.realloc(block, layout, new_size);
        if !moved.is_null() {
            count(i64::try_from(new_size).unwrap_or(i64::MAX) - size_of(layout));
        }
        moved
    }
}

/// Whether the program's allocator is a [`CountingAllocator`], so budgets are enforced.
pub fn counting() -> bool {
    COUNTING.load(Ordering::Relaxed)
}

/// Bytes allocated minus bytes freed on this thread so far.
pub fn held_by_this_thread() -> i64 {
    HELD.try_with(Cell::get).unwrap_or(0)
}

/// The memory one render may hold, measured from where it starts on its thread; the
/// thread counts its allocations while this lives.
#[derive(Debug)]
pub struct RenderMemory {
    baseline: i64,
    limit: usize,
    _counted: Counted,
    /// Atomic only so that the budget can be shared with the engine's callbacks, which
    /// must be `Sync`; a render reads it from its own thread.
    peak: AtomicI64,
}

impl RenderMemory {
    /// A budget of `limit` bytes above what this thread holds now.
    pub fn start(limit: usize) -> RenderMemory {
        let counted = Counted::set(true);
        RenderMemory {
            baseline: held_by_this_thread(),
            limit,
            _counted: counted,
            peak: AtomicI64::new(0),
        }
    }

    /// What the render holds now, in bytes.
    pub fn held(&self) -> usize {
        let held = held_by_this_thread().saturating_sub(self.baseline).max(0);
        self.peak.fetch_max(held, Ordering::Relaxed);
        usize::try_from(held).unwrap_or(usize::MAX)
    }

    /// The most it was seen holding.
    pub fn peak(&self) -> usize {
        usize::try_from(self.peak.load(Ordering::Relaxed)).unwrap_or(usize::MAX)
    }

    /// Whether the render holds more than its budget.
    pub fn exceeded(&self) -> bool {
        self.held() > self.limit
    }

    pub fn limit(&self) -> usize {
        self.limit
    }
}
