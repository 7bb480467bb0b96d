//! The global allocator of the `.wasm`: std's own dlmalloc, fed memory in
//! larger steps.
//!
//! std's allocator asks for wasm memory in steps of what it needs right
//! then, at least 64 KB. V8 answers every `memory.grow` by accounting the
//! new external memory, which starts a full (mark-compact) garbage
//! collection of the JavaScript heap: the first AgentRun text of a 100 MB
//! run grew memory ~13,000 times and spent most of its 8–9 s in those
//! collections (`node --trace-gc`: 764 mark-compacts; the second call, with
//! the memory already there, took 1.2 s and none). Growing by at least a
//! sixteenth of the memory there is (and at least 4 MB) makes that a few
//! dozen grows for any size, and wastes at most that sixteenth.

use std::alloc::{GlobalAlloc, Layout};
use std::cell::UnsafeCell;

/// 64 KiB, wasm's page.
const PAGE: usize = 65536;
/// The least step: 4 MiB.
const MIN_STEP_PAGES: usize = 64;

/// Gives dlmalloc wasm pages, in geometric steps.
struct GeometricPages;

// SAFETY: the contract is dlmalloc's `System` for wasm32, which this copies
// except for the size of a step: a region it returns is fresh memory that
// nothing else uses, never returned or remapped.
unsafe impl dlmalloc::Allocator for GeometricPages {
    fn alloc(&self, size: usize) -> (*mut u8, usize, u32) {
        let need = size.div_ceil(PAGE);
        let have = core::arch::wasm32::memory_size(0);
        let step = need.max(MIN_STEP_PAGES).max(have / 16);
        // The larger step may not fit under the memory's limit when the
        // needed one still does.
        for pages in [step, need] {
            let prev = core::arch::wasm32::memory_grow(0, pages);
            if prev != usize::MAX {
                return ((prev * PAGE) as *mut u8, pages * PAGE, 0);
            }
        }
        (std::ptr::null_mut(), 0, 0)
    }

    fn remap(&self, _ptr: *mut u8, _old: usize, _new: usize, _can_move: bool) -> *mut u8 {
        std::ptr::null_mut()
    }

    fn free_part(&self, _ptr: *mut u8, _old: usize, _new: usize) -> bool {
        false
    }

    fn free(&self, _ptr: *mut u8, _size: usize) -> bool {
        false
    }

    fn can_release_part(&self, _flags: u32) -> bool {
        false
    }

    fn allocates_zeros(&self) -> bool {
        true
    }

    fn page_size(&self) -> usize {
        PAGE
    }
}

/// One dlmalloc for the module. wasm32-unknown-unknown without the atomics
/// feature has one thread, so no lock is needed (std's own wasm allocator
/// makes the same assumption).
struct Allocator(UnsafeCell<dlmalloc::Dlmalloc<GeometricPages>>);

// SAFETY: single-threaded target (see above).
unsafe impl Sync for Allocator {}

#[global_allocator]
static ALLOCATOR: Allocator = Allocator(UnsafeCell::new(dlmalloc::Dlmalloc::new_with_allocator(GeometricPages)));

// SAFETY: each method forwards to dlmalloc with the layout's size and
// alignment, as std's `System` allocator for wasm32 does.
unsafe impl GlobalAlloc for Allocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        (*self.0.get()).malloc(layout.size(), layout.align())
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        (*self.0.get()).calloc(layout.size(), layout.align())
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        (*self.0.get()).free(ptr, layout.size(), layout.align())
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        (*self.0.get()).realloc(ptr, layout.size(), layout.align(), new_size)
    }
}
