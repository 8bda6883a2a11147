//! Tie-calibrated pairwise accuracy (acc_eq, Deutsch et al. 2023): the threshold search of
//! mt-metrics-eval's `tau_optimization` with `acc_23`, operation for operation.
//!
//! Every pair `i < j` of scores within a group (a row) is a comparison. It is right when the
//! metric orders it as the humans do, or when both tie it; a threshold ties every pair whose
//! metric scores differ by at most it. The search sorts the pairs by metric difference (stably,
//! in enumeration order: rows in order, then `i`, then `j`), ties them one by one and keeps the
//! mean accuracy over the rows as a running `f64` sum, exactly as mt-metrics-eval's Python does
//! (a row's accuracy subtracted, the pair tied, the new accuracy added; the first sum in order
//! from 0.0), so the value and the threshold chosen among equal values are its own to the bit.
//! With a single row the running sum is exact, and only the pairs that change the count are
//! kept: that makes 23.6 million pairs cheap.

use rayon::prelude::*;

/// The best accuracy, its threshold, and the number of rows that have pairs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TieSearch {
    pub value: f64,
    pub threshold: f64,
    pub groups: usize,
}

/// One row's pairs: per pair its metric difference and what tying it does to the count of right
/// comparisons (-1 for a pair the metric ordered right, +1 for a human tie the metric split).
struct RowPairs {
    diff: Vec<f64>,
    change: Vec<i8>,
    right: i64,
    pairs: i64,
}

/// The rated scores of a row: (human, metric) where the human score is not NaN.
fn rated(human: &[f64], metric: &[f64]) -> Vec<(f64, f64)> {
    human
        .iter()
        .zip(metric)
        .filter(|(h, _)| !h.is_nan())
        .map(|(&h, &m)| (h, m))
        .collect()
}

/// What tying a pair changes: -1, 0 or +1; and whether it is right untied.
fn classify(h1: f64, h2: f64, m1: f64, m2: f64) -> (i8, bool) {
    let human_tie = h1 == h2;
    let metric_tie = m1 == m2;
    if human_tie {
        (if metric_tie { 0 } else { 1 }, metric_tie)
    } else if metric_tie {
        (0, false)
    } else {
        let concordant = (h1 > h2) == (m1 > m2);
        (if concordant { -1 } else { 0 }, concordant)
    }
}

fn row_pairs(scores: &[(f64, f64)], changing_only: bool) -> RowPairs {
    let n = scores.len();
    let mut out = RowPairs {
        diff: Vec::new(),
        change: Vec::new(),
        right: 0,
        pairs: (n * n.saturating_sub(1) / 2) as i64,
    };
    if !changing_only {
        out.diff.reserve(out.pairs as usize);
        out.change.reserve(out.pairs as usize);
    }
    for i in 0..n {
        let (h1, m1) = scores[i];
        for &(h2, m2) in &scores[i + 1..] {
            let (change, right) = classify(h1, h2, m1, m2);
            out.right += i64::from(right);
            if !changing_only || change != 0 {
                out.diff.push((m1 - m2).abs());
                out.change.push(change);
            }
        }
    }
    out
}

/// acc_eq of rows of human scores (NaN: missing) and metric scores, averaged over the rows that
/// have at least one pair; `None` when no row has one.
pub fn tie_search(human: &[Vec<f64>], metric: &[Vec<f64>]) -> Option<TieSearch> {
    let rows: Vec<Vec<(f64, f64)>> = human
        .iter()
        .zip(metric)
        .map(|(h, m)| rated(h, m))
        .filter(|r| r.len() >= 2)
        .collect();
    match rows.len() {
        0 => None,
        1 => Some(search_one(&row_pairs(&rows[0], true))),
        _ => Some(search_many(
            &rows.iter().map(|r| row_pairs(r, false)).collect::<Vec<_>>(),
        )),
    }
}

/// A non-negative difference's bits: they order as the numbers do (and +0.0 is the smallest).
fn key(diff: f64) -> u64 {
    diff.to_bits()
}

/// One row: the count is exact, so the best threshold is the smallest difference where the count
/// of right comparisons is largest (0.0 when no threshold beats none).
fn search_one(row: &RowPairs) -> TieSearch {
    let mut gains: Vec<u64> = Vec::new();
    let mut losses: Vec<u64> = Vec::new();
    for (&d, &c) in row.diff.iter().zip(&row.change) {
        if c > 0 {
            gains.push(key(d))
        } else {
            losses.push(key(d))
        }
    }
    gains.sort_unstable();
    losses.sort_unstable();
    let (mut best, mut threshold) = (row.right, 0.0);
    let (mut count, mut lost) = (row.right, 0);
    let mut k = 0;
    while k < gains.len() {
        let d = gains[k];
        while k < gains.len() && gains[k] == d {
            count += 1;
            k += 1;
        }
        while lost < losses.len() && losses[lost] <= d {
            count -= 1;
            lost += 1;
        }
        if count > best {
            best = count;
            threshold = f64::from_bits(d);
        }
    }
    TieSearch {
        value: best as f64 / row.pairs as f64,
        threshold,
        groups: 1,
    }
}

/// Every pair of every row as (difference's bits, enumeration index, row), sorted by difference
/// and then enumeration index: mt-metrics-eval's stable sort, done in parallel.
fn sorted_pairs(rows: &[RowPairs]) -> Vec<(u64, u32, u32)> {
    let mut order: Vec<(u64, u32, u32)> =
        Vec::with_capacity(rows.iter().map(|r| r.diff.len()).sum());
    for (r, row) in rows.iter().enumerate() {
        for &d in &row.diff {
            order.push((key(d), order.len() as u32, r as u32));
        }
    }
    order.par_sort_unstable_by_key(|p| (p.0, p.1));
    order
}

/// Several rows: mt-metrics-eval's running sum, replayed.
fn search_many(rows: &[RowPairs]) -> TieSearch {
    let changes: Vec<i8> = rows.iter().flat_map(|r| r.change.iter().copied()).collect();
    let accuracy = |right: i64, pairs: i64| right as f64 / pairs as f64;
    let mut right: Vec<i64> = rows.iter().map(|r| r.right).collect();
    let mut total = 0.0;
    for row in rows {
        total += accuracy(row.right, row.pairs);
    }
    let n = rows.len() as f64;
    // The threshold being filled and its mean; the best so far (the first of equal means).
    let (mut threshold, mut tau) = (0.0, total / n);
    let (mut best_threshold, mut best_tau) = (f64::NAN, f64::NEG_INFINITY);
    for (bits, k, r) in sorted_pairs(rows) {
        let (diff, r) = (f64::from_bits(bits), r as usize);
        if diff != threshold {
            if tau > best_tau {
                (best_threshold, best_tau) = (threshold, tau);
            }
            threshold = diff;
        }
        total -= accuracy(right[r], rows[r].pairs);
        right[r] += i64::from(changes[k as usize]);
        total += accuracy(right[r], rows[r].pairs);
        tau = total / n;
    }
    if tau > best_tau {
        (best_threshold, best_tau) = (threshold, tau);
    }
    TieSearch {
        value: best_tau,
        threshold: best_threshold,
        groups: rows.len(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The accuracy of every row at `threshold`, averaged, in exact rationals (as f64 at the end).
    fn brute(human: &[Vec<f64>], metric: &[Vec<f64>], threshold: f64) -> f64 {
        let mut shares = Vec::new();
        for (h, m) in human.iter().zip(metric) {
            let s = rated(h, m);
            let (mut right, mut pairs) = (0, 0);
            for i in 0..s.len() {
                for j in i + 1..s.len() {
                    let ((h1, m1), (h2, m2)) = (s[i], s[j]);
                    pairs += 1;
                    let tied = (m1 - m2).abs() <= threshold;
                    right += i32::from(if tied {
                        h1 == h2
                    } else {
                        h1 != h2 && (h1 > h2) == (m1 > m2)
                    });
                }
            }
            if pairs > 0 {
                shares.push(f64::from(right) / f64::from(pairs));
            }
        }
        shares.iter().sum::<f64>() / shares.len() as f64
    }

    #[test]
    fn the_search_finds_the_best_threshold_of_every_pair_difference() {
        let mut seed = 7u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..200 {
            let (rows, cols) = (1 + next() % 4, 2 + next() % 6);
            let human: Vec<Vec<f64>> = (0..rows)
                .map(|_| {
                    (0..cols)
                        .map(|_| {
                            if next() % 7 == 0 {
                                f64::NAN
                            } else {
                                (next() % 3) as f64
                            }
                        })
                        .collect()
                })
                .collect();
            let metric: Vec<Vec<f64>> = (0..rows)
                .map(|_| (0..cols).map(|_| (next() % 5) as f64 / 4.0).collect())
                .collect();
            let Some(found) = tie_search(&human, &metric) else {
                assert!(human
                    .iter()
                    .all(|h| h.iter().filter(|v| !v.is_nan()).count() < 2));
                continue;
            };
            let mut candidates = vec![0.0];
            for m in &metric {
                for i in 0..m.len() {
                    for j in i + 1..m.len() {
                        candidates.push((m[i] - m[j]).abs());
                    }
                }
            }
            let best = candidates
                .iter()
                .map(|&t| brute(&human, &metric, t))
                .fold(f64::MIN, f64::max);
            assert!((found.value - best).abs() < 1e-12, "{found:?} {best}");
            assert!((brute(&human, &metric, found.threshold) - best).abs() < 1e-12);
        }
    }

    #[test]
    fn one_row_takes_the_smallest_best_threshold() {
        // Human ties (0, 0) split by 0.1; a right order (0 > -1) with difference 0.5.
        let human = vec![vec![0.0, 0.0, -1.0]];
        let metric = vec![vec![0.6, 0.7, 0.1]];
        let found = tie_search(&human, &metric).expect("pairs");
        assert_eq!(found.threshold, (0.6f64 - 0.7).abs());
        assert_eq!(found.value, 1.0);
        assert_eq!(tie_search(&[vec![f64::NAN, 1.0]], &[vec![0.0, 1.0]]), None);
    }
}
