//! A process that stops making progress as memory runs out ends with one line, never hangs.
//!
//! Under a capped address space (`ulimit -v`) CPython 3.11 can spin for ever without running
//! a bytecode: an exception handler that must allocate (the offset it pushes) and cannot goes
//! back to the same handler, with the GIL held, so no Python code (a signal handler, a
//! timeout) ever runs again. A native thread outside the interpreter watches a heartbeat that
//! a Python thread gives each second (which needs the GIL): when none has come for the given
//! number of seconds, it writes `understudy: error: out of memory ...` on stderr and ends the
//! process with `_exit(1)`, as the allocator does (`oom.rs`), without allocating.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use pyo3::prelude::*;

/// Heartbeats given so far.
static BEATS: AtomicU64 = AtomicU64::new(0);
/// Whether the watcher runs (one a process).
static WATCHING: AtomicBool = AtomicBool::new(false);

const LINE: &[u8] =
    b"understudy: error: out of memory: the process stopped making progress with its \
address space capped (ulimit -v): give it more memory, or less input at once\n";

/// Count one heartbeat: the interpreter is making progress.
#[pyfunction]
pub fn heartbeat() {
    BEATS.fetch_add(1, Ordering::Relaxed);
}

/// Start the watcher: the process ends with one line once `seconds` pass without a
/// heartbeat. Whether it started (false: one already watches, or no thread could start).
///
/// The watch is for a capped address space, where glibc's arena a thread (64 MB of address
/// space reserved for each, by default up to eight a core) is memory the work no longer has:
/// every thread shares the main arena from here on.
#[pyfunction]
pub fn watch_heartbeat(seconds: u64) -> bool {
    if WATCHING.swap(true, Ordering::SeqCst) {
        return false;
    }
    one_arena();
    let watcher = std::thread::Builder::new()
        .name("understudy-watch".into())
        .stack_size(64 * 1024)
        .spawn(move || watch(seconds.max(1)));
    watcher.is_ok()
}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn one_arena() {
    // SAFETY: mallopt only sets a malloc parameter; a refusal (0) leaves the default.
    unsafe { libc::mallopt(libc::M_ARENA_MAX, 1) };
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn one_arena() {}

/// Seconds of silence after which `watch` ends the process, given heartbeats seen each second.
fn silent_for(seen: &mut (u64, u64), beats: u64) -> u64 {
    if beats != seen.0 {
        *seen = (beats, 0);
    } else {
        seen.1 += 1;
    }
    seen.1
}

fn watch(seconds: u64) -> ! {
    let mut seen = (BEATS.load(Ordering::Relaxed), 0);
    loop {
        std::thread::sleep(Duration::from_secs(1));
        if silent_for(&mut seen, BEATS.load(Ordering::Relaxed)) >= seconds {
            // SAFETY: one write of a static buffer (under PIPE_BUF), then the process ends at
            // once with status 1; a failed write is ignored (there is nowhere else to say it).
            unsafe {
                libc::write(2, LINE.as_ptr().cast(), LINE.len());
                libc::_exit(1)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{silent_for, LINE};

    #[test]
    fn silence_counts_the_seconds_since_the_last_new_beat() {
        let mut seen = (0, 0);
        assert_eq!(silent_for(&mut seen, 0), 1);
        assert_eq!(silent_for(&mut seen, 0), 2);
        assert_eq!(silent_for(&mut seen, 3), 0);
        assert_eq!(silent_for(&mut seen, 3), 1);
    }

    #[test]
    fn the_line_is_one_line_written_at_once() {
        assert!(LINE.len() < 512 && LINE.ends_with(b"\n"));
        assert_eq!(LINE.iter().filter(|&&b| b == b'\n').count(), 1);
        assert!(LINE.starts_with(b"understudy: error: out of memory"));
    }
}
