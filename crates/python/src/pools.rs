//! One rayon pool per thread count, created on first use, and never used in a
//! forked child.
//!
//! After `fork()` only the forking thread exists in the child: a pool inherited from
//! the parent has no threads, and waiting on it would hang forever (as would a lock
//! some parent thread held at the time). So the process that first builds a pool
//! records its id, and in any other process (a child of `multiprocessing` or
//! `os.fork`) work runs serially on the calling thread, touching neither the pools
//! nor their lock. Results are identical either way.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};

use pyo3::prelude::*;
use rayon::{ThreadPool, ThreadPoolBuilder};
use understudy_core::Exec;

/// The process id that owns the pools; 0 before any pool exists.
static OWNER: AtomicU32 = AtomicU32::new(0);
static POOLS: Mutex<Vec<(usize, Arc<ThreadPool>)>> = Mutex::new(Vec::new());

fn is_forked_child() -> bool {
    let owner = OWNER.load(Ordering::Acquire);
    owner != 0 && owner != std::process::id()
}

/// The pool for `threads` threads, or `None` to run serially.
fn pool(threads: usize) -> Option<Arc<ThreadPool>> {
    if threads <= 1 || is_forked_child() {
        return None;
    }
    let mut pools = POOLS.lock().ok()?;
    OWNER.store(std::process::id(), Ordering::Release);
    if let Some((_, pool)) = pools.iter().find(|(n, _)| *n == threads) {
        return Some(Arc::clone(pool));
    }
    let built = ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("understudy-{i}"))
        .build()
        .ok()?;
    let built = Arc::new(built);
    pools.push((threads, Arc::clone(&built)));
    Some(built)
}

/// Below this many segments (or sentences) a call runs serially: waking a pool
/// costs more than the work.
const MIN_PARALLEL_ITEMS: usize = 256;

/// Run `work` on `items` segments with the GIL released, on a pool of `threads`
/// threads when allowed and worth it.
pub fn run<T: Send>(
    py: Python<'_>,
    threads: usize,
    items: usize,
    work: impl FnOnce(Exec) -> T + Send,
) -> T {
    let pool = if items < MIN_PARALLEL_ITEMS {
        None
    } else {
        pool(threads)
    };
    py.detach(|| match pool {
        Some(pool) => pool.install(|| work(Exec::Parallel)),
        None => work(Exec::Serial),
    })
}

/// How many threads a call asking for `threads` really uses in this process (1 in a
/// forked child, where the parent's pools cannot run).
#[pyfunction]
pub fn pool_threads(threads: usize) -> usize {
    if threads <= 1 || is_forked_child() {
        1
    } else {
        threads
    }
}
