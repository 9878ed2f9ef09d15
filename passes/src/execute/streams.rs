//! The stream runtime that lowered SDFGs call: thread-safe FIFO queues
//! with the semantics of DaCe's `dace::Stream` on the CPU.
//!
//! The conversion (`passes/src/conversion/streams.rs`) represents every
//! stream by an `i64` handle and calls these functions, which carry each
//! element as its bits in an `i64` (the lowering widens narrower types and
//! bit-casts floats). A stream counts its *pending* elements as DaCe's
//! `m_elements` does: pushes add one, plain pops remove one, and a consume
//! scope removes an element only when the body that processes it has
//! finished, so that a processing element does not stop while another one
//! may still push new work.

use std::collections::VecDeque;
use std::ffi::c_void;
use std::sync::Mutex;

struct Queue {
    elements: VecDeque<u64>,
    pending: u64,
}

/// A stream: a queue behind a lock.
struct Stream(Mutex<Queue>);

/// # Safety
/// `handle` must come from [`sdfg_stream_create`] and not be destroyed.
unsafe fn stream<'a>(handle: i64) -> &'a Stream {
    &*(handle as usize as *const Stream)
}

fn lock(s: &Stream) -> std::sync::MutexGuard<'_, Queue> {
    s.0.lock().unwrap_or_else(|e| e.into_inner())
}

/// Creates an empty stream and returns its handle.
extern "C" fn sdfg_stream_create() -> i64 {
    let s = Box::new(Stream(Mutex::new(Queue {
        elements: VecDeque::new(),
        pending: 0,
    })));
    Box::into_raw(s) as usize as i64
}

/// Destroys a stream (its remaining elements are dropped).
unsafe extern "C" fn sdfg_stream_destroy(handle: i64) {
    drop(Box::from_raw(handle as usize as *mut Stream));
}

/// Appends an element.
unsafe extern "C" fn sdfg_stream_push(handle: i64, bits: i64) {
    let mut q = lock(stream(handle));
    q.elements.push_back(bits as u64);
    q.pending += 1;
}

/// Removes and returns the first element. DaCe's `pop` waits for an element
/// that, in a sequential program, never comes: here popping an empty stream
/// ends the program with a message instead of hanging.
unsafe extern "C" fn sdfg_stream_pop(handle: i64) -> i64 {
    let mut q = lock(stream(handle));
    match q.elements.pop_front() {
        Some(bits) => {
            q.pending -= 1;
            bits as i64
        }
        None => {
            drop(q);
            eprintln!("error: a tasklet pops an element from an empty stream");
            std::process::abort();
        }
    }
}

/// Pops up to `max` elements into the `u64` array at `out` (DaCe's bulk
/// `pop` of a stream into an array); returns how many it popped.
unsafe extern "C" fn sdfg_stream_pop_bulk(handle: i64, out: i64, max: i64) -> i64 {
    let mut q = lock(stream(handle));
    let n = q.elements.len().min(usize::try_from(max).unwrap_or(0));
    let out = out as usize as *mut u64;
    for (k, bits) in q.elements.drain(..n).enumerate() {
        *out.add(k) = bits;
    }
    q.pending -= n as u64;
    n as i64
}

/// The next element for a consume scope's processing element, written to
/// `*out`: returns 1 with an element, or 0 once no element is pending (the
/// queue is empty and no processing element is still working on one).
/// While the queue is empty but elements are being processed, it waits.
unsafe extern "C" fn sdfg_stream_consume_next(handle: i64, out: i64) -> i32 {
    let s = stream(handle);
    loop {
        {
            let mut q = lock(s);
            if let Some(bits) = q.elements.pop_front() {
                *(out as usize as *mut u64) = bits;
                return 1;
            }
            if q.pending == 0 {
                return 0;
            }
        }
        std::thread::yield_now();
    }
}

/// Marks an element returned by [`sdfg_stream_consume_next`] as processed.
unsafe extern "C" fn sdfg_stream_consume_done(handle: i64) {
    lock(stream(handle)).pending -= 1;
}

/// The runtime's functions by the names the lowered code calls them.
pub(super) fn symbols() -> [(&'static str, *mut c_void); 7] {
    [
        ("sdfg_stream_create", sdfg_stream_create as *mut c_void),
        ("sdfg_stream_destroy", sdfg_stream_destroy as *mut c_void),
        ("sdfg_stream_push", sdfg_stream_push as *mut c_void),
        ("sdfg_stream_pop", sdfg_stream_pop as *mut c_void),
        ("sdfg_stream_pop_bulk", sdfg_stream_pop_bulk as *mut c_void),
        (
            "sdfg_stream_consume_next",
            sdfg_stream_consume_next as *mut c_void,
        ),
        (
            "sdfg_stream_consume_done",
            sdfg_stream_consume_done as *mut c_void,
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_are_fifo_and_count_pending_elements() {
        let h = sdfg_stream_create();
        let mut out = 0u64;
        let addr = &mut out as *mut u64 as usize as i64;
        let mut bulk = [0u64; 4];
        let bulk_addr = bulk.as_mut_ptr() as usize as i64;
        // SAFETY: `h` is live until destroyed; the addresses point at
        // `out` and at `bulk`'s four elements.
        unsafe {
            assert_eq!(sdfg_stream_pop_bulk(h, bulk_addr, 4), 0);
            for v in [5, 6, 7, 8] {
                sdfg_stream_push(h, v);
            }
            assert_eq!(sdfg_stream_pop_bulk(h, bulk_addr, 2), 2);
            assert_eq!(bulk[..2], [5, 6]);
            assert_eq!(sdfg_stream_pop(h), 7);
            assert_eq!(sdfg_stream_consume_next(h, addr), 1);
            assert_eq!(out, 8);
            sdfg_stream_push(h, 9);
            sdfg_stream_consume_done(h);
            assert_eq!(sdfg_stream_consume_next(h, addr), 1);
            assert_eq!(out, 9);
            sdfg_stream_consume_done(h);
            assert_eq!(sdfg_stream_consume_next(h, addr), 0);
            sdfg_stream_destroy(h);
        }
    }
}
