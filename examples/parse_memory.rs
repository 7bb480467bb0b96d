//! What a parse allocates, natively, phase by phase: the bytes held after
//! each phase and the peak, then what the trace's parts hold. Beside the
//! benchmark's wasm memory figure, it says where the memory goes.
//!
//!     cargo run --release --example parse_memory FILE

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

/// The system allocator, counting the bytes held and their peak.
struct Counting;

static HELD: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(by: usize) {
    let now = HELD.fetch_add(by, Relaxed) + by;
    PEAK.fetch_max(now, Relaxed);
}

// SAFETY: every call is passed to `System` unchanged; only counters are added.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        grew(l.size());
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        HELD.fetch_sub(l.size(), Relaxed);
        unsafe { System.dealloc(p, l) }
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, size: usize) -> *mut u8 {
        if size > l.size() {
            grew(size - l.size());
        } else {
            HELD.fetch_sub(l.size() - size, Relaxed);
        }
        unsafe { System.realloc(p, l, size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn mb(x: usize) -> String {
    format!("{:.1} MB", x as f64 / 1e6)
}

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: parse_memory FILE");
        std::process::exit(2);
    };
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    println!("input {}", mb(bytes.len()));
    PEAK.store(HELD.load(Relaxed), Relaxed);
    let mut trace = agent_trace_viewer::parse_trace_observed(bytes, &Default::default(), &mut |phase| {
        println!("  after {phase:?}: held {}, peak {}", mb(HELD.load(Relaxed)), mb(PEAK.load(Relaxed)))
    })
    .unwrap_or_else(|e| panic!("{path}: {e}"));
    println!("{} events of {} bytes each (the struct alone)", trace.events.len(), std::mem::size_of::<agent_trace_viewer::model::Event>());
    let freed = |what: &str, f: &mut dyn FnMut()| {
        let before = HELD.load(Relaxed);
        f();
        println!("  {what}: {}", mb(before.saturating_sub(HELD.load(Relaxed))));
    };
    freed("events (structs, bodies, their strings)", &mut || trace.events = Vec::new());
    freed("runs", &mut || trace.runs = Vec::new());
    freed("diagnostics", &mut || trace.diagnostics = Vec::new());
    freed("line map", &mut || trace.source_map = Default::default());
}
