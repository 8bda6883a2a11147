//! Allocation failure as one line and exit status 1, never an abort.
//!
//! Rust's default answer to a failed allocation is to print a line and abort the process
//! (SIGABRT, and a core dump where enabled): under `ulimit -v`, a cgroup or a full machine, a
//! Python process scoring a large corpus died with a signal. Stable Rust has no hook for it
//! (`set_alloc_error_hook` is unstable) and an allocator may not unwind, so the allocator
//! itself reports and ends the process: `understudy: error: out of memory ...` on stderr and
//! `_exit(1)`, without allocating and without running exit handlers that could allocate.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, Ordering};

/// The system allocator, ending the process with one line when it has no memory to give.
pub struct ExitOnOom;

// SAFETY: every call is forwarded to `System`; only a null result is handled, by never
// returning.
unsafe impl GlobalAlloc for ExitOnOom {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let ptr = unsafe { System.alloc(layout) };
        if ptr.is_null() {
            out_of_memory(layout.size());
        }
        ptr
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let ptr = unsafe { System.alloc_zeroed(layout) };
        if ptr.is_null() {
            out_of_memory(layout.size());
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let out = unsafe { System.realloc(ptr, layout, new_size) };
        if out.is_null() {
            out_of_memory(new_size);
        }
        out
    }
}

/// `bytes` written in decimal into `buffer`, which it returns the used tail of.
fn decimal(mut bytes: usize, buffer: &mut [u8; 20]) -> &[u8] {
    let mut start = buffer.len();
    loop {
        start -= 1;
        buffer[start] = b'0' + (bytes % 10) as u8;
        bytes /= 10;
        if bytes == 0 {
            return &buffer[start..];
        }
    }
}

/// Set by the first thread whose allocation fails: it alone reports.
static REPORTED: AtomicBool = AtomicBool::new(false);

const HEAD: &[u8] = b"understudy: error: out of memory (the Rust core could not allocate ";
const TAIL: &[u8] = b" bytes): give the process more memory, or score fewer segments at once\n";

fn out_of_memory(bytes: usize) -> ! {
    if REPORTED.swap(true, Ordering::SeqCst) {
        // Another thread is reporting and ending the process: wait for it, so that its line
        // is written whole.
        loop {
            // SAFETY: sleeps until a signal; the reporting thread's _exit ends it.
            unsafe { libc::pause() };
        }
    }
    let mut digits = [0u8; 20];
    let mut line = [0u8; 160];
    let mut len = 0;
    for part in [HEAD, decimal(bytes, &mut digits), TAIL] {
        line[len..len + part.len()].copy_from_slice(part);
        len += part.len();
    }
    // SAFETY: one write of a valid buffer (whole, under PIPE_BUF), then the process ends at
    // once, as abort would, but with status 1 and no signal; a failed write is ignored (there
    // is nowhere else to report it).
    unsafe {
        libc::write(2, line.as_ptr().cast(), len);
        libc::_exit(1)
    }
}

#[cfg(test)]
mod tests {
    use super::decimal;

    #[test]
    fn the_whole_line_fits_its_buffer() {
        assert!(super::HEAD.len() + 20 + super::TAIL.len() <= 160);
    }

    #[test]
    fn sizes_are_written_in_decimal_without_allocating() {
        let mut buffer = [0u8; 20];
        assert_eq!(decimal(0, &mut buffer), b"0");
        assert_eq!(decimal(671_760, &mut buffer), b"671760");
        assert_eq!(
            decimal(usize::MAX, &mut buffer),
            usize::MAX.to_string().as_bytes()
        );
    }
}
