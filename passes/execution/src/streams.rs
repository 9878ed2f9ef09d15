//! The stream runtime that lowered SDFGs call: thread-safe FIFO queues
//! with the semantics of DaCe's `dace::Stream` on the CPU.
//!
//! The conversion (`passes/conversion/src/sdfg_to_scf/streams.rs`) represents every
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

/// The next elements for a consume scope's processing element: takes up
/// to `max` elements into the `u64` array at `out` and returns how many.
/// Without a quiescence condition (`quiescence == 0`) it waits while the
/// queue is empty but elements are being processed, and returns 0 once
/// none is pending (the queue is empty and no processing element is still
/// working on one). With one, it does not wait, so that the caller can
/// evaluate its condition again: it returns -1 for an empty queue with
/// elements still pending, and -2 once none is pending.
unsafe extern "C" fn sdfg_stream_consume_next(
    handle: i64,
    out: i64,
    max: i64,
    quiescence: i32,
) -> i64 {
    let s = stream(handle);
    loop {
        {
            let mut q = lock(s);
            if !q.elements.is_empty() {
                let n = q
                    .elements
                    .len()
                    .min(usize::try_from(max).unwrap_or(1).max(1));
                let out = out as usize as *mut u64;
                for (k, bits) in q.elements.drain(..n).enumerate() {
                    *out.add(k) = bits;
                }
                return n as i64;
            }
            match (q.pending, quiescence) {
                (0, 0) => return 0,
                (0, _) => return -2,
                _ => {}
            }
        }
        std::thread::yield_now();
        if quiescence != 0 {
            return -1;
        }
    }
}

/// Marks `n` elements returned by [`sdfg_stream_consume_next`] as
/// processed.
unsafe extern "C" fn sdfg_stream_consume_done(handle: i64, n: i64) {
    lock(stream(handle)).pending -= n as u64;
}

/// Ends the program when a consume scope's stream is drained but its
/// quiescence condition does not hold: nothing can make it hold any more,
/// and DaCe's processing elements would wait forever.
extern "C" fn sdfg_stream_consume_stuck() {
    eprintln!(
        "error: a consume scope drained its stream, but its quiescence condition does not hold (DaCe would wait forever)"
    );
    std::process::abort();
}

/// The runtime's functions by the names the lowered code calls them.
pub(super) fn symbols() -> [(&'static str, *mut c_void); 8] {
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
        (
            "sdfg_stream_consume_stuck",
            sdfg_stream_consume_stuck as *mut c_void,
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
            assert_eq!(sdfg_stream_consume_next(h, addr, 1, 0), 1);
            assert_eq!(out, 8);
            // With a quiescence condition an empty queue is not waited on.
            assert_eq!(sdfg_stream_consume_next(h, addr, 1, 1), -1);
            sdfg_stream_push(h, 9);
            sdfg_stream_push(h, 10);
            sdfg_stream_consume_done(h, 1);
            // A chunk takes what there is, up to its size.
            assert_eq!(sdfg_stream_consume_next(h, bulk_addr, 4, 0), 2);
            assert_eq!(bulk[..2], [9, 10]);
            sdfg_stream_consume_done(h, 2);
            assert_eq!(sdfg_stream_consume_next(h, addr, 1, 0), 0);
            assert_eq!(sdfg_stream_consume_next(h, addr, 1, 1), -2);
            sdfg_stream_destroy(h);
        }
    }
}
