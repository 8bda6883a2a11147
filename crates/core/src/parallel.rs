//! Serial or parallel execution of per-segment work, with identical results.
//!
//! The core never builds thread pools: with [`Exec::Parallel`] work runs on the rayon
//! pool the caller installed (the Python layer keeps one per thread count), and with
//! [`Exec::Serial`] on the calling thread without touching rayon at all, which is what
//! a forked child must do (the parent's pool threads do not exist there). Each item
//! writes only its own output, so results never depend on the schedule.

use rayon::prelude::*;

/// The caller's check, asked between pieces of long work: `true` stops the work with
/// [`crate::CoreError::Interrupted`] (Python's Ctrl-C; a corpus of a million segments, or a
/// resegmentation of a long stream, takes a minute).
pub type Stop<'s> = &'s mut dyn FnMut() -> bool;

/// Where per-segment work runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exec {
    /// On the calling thread.
    Serial,
    /// On the current rayon pool.
    Parallel,
}

/// Items per parallel task: enough to amortise scheduling and per-task scratch.
const MIN_ITEMS_PER_TASK: usize = 64;

/// `f(scratch, item)` for each item, results in order.
pub fn map<T, R, S>(
    exec: Exec,
    items: &[T],
    init: impl Fn() -> S + Sync + Send,
    f: impl Fn(&mut S, &T) -> R + Sync + Send,
) -> Vec<R>
where
    T: Sync,
    R: Send,
{
    match exec {
        Exec::Serial => {
            let mut scratch = init();
            items.iter().map(|item| f(&mut scratch, item)).collect()
        }
        Exec::Parallel => items
            .par_iter()
            .with_min_len(MIN_ITEMS_PER_TASK)
            .map_init(init, |s, item| f(s, item))
            .collect(),
    }
}

/// `f(scratch, item, row)` for each item and its `width`-wide row of `out`.
pub fn fill_rows<T, O, S>(
    exec: Exec,
    items: &[T],
    out: &mut [O],
    width: usize,
    grain: Grain,
    init: impl Fn() -> S + Sync + Send,
    f: impl Fn(&mut S, &T, &mut [O]) + Sync + Send,
) where
    T: Sync,
    O: Send,
{
    debug_assert_eq!(out.len(), items.len() * width);
    match exec {
        Exec::Serial => {
            let mut scratch = init();
            for (item, row) in items.iter().zip(out.chunks_mut(width)) {
                f(&mut scratch, item, row);
            }
        }
        Exec::Parallel => items
            .par_iter()
            .zip(out.par_chunks_mut(width))
            .with_min_len(grain.min_len())
            .for_each_init(init, |s, (item, row)| f(s, item, row)),
    }
}

/// For each resample (a row of `cells` coins), `f(scratch, coins, out)` fills its row of `width`
/// outputs; the rows in order. `cells` must be positive and divide `coins.len()`.
pub fn per_resample<O, S>(
    exec: Exec,
    (coins, cells): (&[bool], usize),
    width: usize,
    grain: Grain,
    init: impl Fn() -> S + Sync + Send,
    f: impl Fn(&mut S, &[bool], &mut [O]) + Sync + Send,
) -> Vec<O>
where
    O: Send + Default + Clone,
{
    let resamples = coins.len() / cells;
    let mut out = vec![O::default(); resamples * width];
    let rows: Vec<usize> = (0..resamples).collect();
    fill_rows(exec, &rows, &mut out, width, grain, init, |s, &r, row| {
        f(s, &coins[r * cells..(r + 1) * cells], row)
    });
    out
}

/// How much work one item is, which decides how many items a parallel task takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Grain {
    /// Microseconds an item (n-gram counting): tasks of many items amortise scheduling.
    Fine,
    /// Tens of microseconds an item or more (TER's edit distances): a task per item.
    Coarse,
}

impl Grain {
    fn min_len(self) -> usize {
        match self {
            Grain::Fine => MIN_ITEMS_PER_TASK,
            Grain::Coarse => 1,
        }
    }
}

/// `f(scratch, item)` for each item, which it may change (each item is its own output).
pub fn for_each_mut<T, S>(
    exec: Exec,
    items: &mut [T],
    grain: Grain,
    init: impl Fn() -> S + Sync + Send,
    f: impl Fn(&mut S, &mut T) + Sync + Send,
) where
    T: Send,
{
    match exec {
        Exec::Serial => {
            let mut scratch = init();
            for item in items.iter_mut() {
                f(&mut scratch, item);
            }
        }
        Exec::Parallel => items
            .par_iter_mut()
            .with_min_len(grain.min_len())
            .for_each_init(init, |s, item| f(s, item)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serial_and_parallel_agree() {
        let items: Vec<u64> = (0..10_000).collect();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .unwrap();
        let square = |_: &mut (), x: &u64| x * x;
        let serial = map(Exec::Serial, &items, || (), square);
        let parallel = pool.install(|| map(Exec::Parallel, &items, || (), square));
        assert_eq!(serial, parallel);
        let mut a = vec![0u64; 20_000];
        let mut b = vec![0u64; 20_000];
        let pair = |_: &mut (), x: &u64, row: &mut [u64]| {
            row[0] = *x;
            row[1] = x + 1;
        };
        fill_rows(Exec::Serial, &items, &mut a, 2, Grain::Fine, || (), pair);
        pool.install(|| {
            fill_rows(
                Exec::Parallel,
                &items,
                &mut b,
                2,
                Grain::Coarse,
                || (),
                pair,
            )
        });
        assert_eq!(a, b);
        assert_eq!(&a[..4], &[0, 1, 1, 2]);
    }
}
