//! Soft pairwise accuracy's permutation counts: for each block of systems' swapped sums and each
//! pair of systems, how many permutations surely give the pair a permuted difference at least
//! the observed one, and which are too close to call in floating point (an exact sum decides
//! those, in Python).

use rayon::prelude::*;

use crate::parallel::Exec;

/// Counts per block and pair, and the `(permutation, block, pair)` triples within the margin.
pub type PairCounts = (Vec<i64>, Vec<(usize, usize, usize)>);

/// For each block `b` and pair `i < j` of systems (pairs in `triu_indices` order, `k`): how many
/// permutations `p` have `sums[p, b, i] - sums[p, b, j] < -margin[p, k]` (surely at most 0), at
/// `counts[b * pairs + k]`, and every `(p, b, k)` whose difference is within the margin.
/// `sums` is permutations x blocks x systems, `margin` permutations x pairs. Each permutation's
/// margins are read once for all blocks, and the sums in order; the order of the triples is
/// unspecified.
///
/// # Panics
/// If the slices are shorter than the shapes say.
pub fn pair_counts(
    sums: &[f64],
    margin: &[f64],
    (permutations, blocks, systems): (usize, usize, usize),
    exec: Exec,
) -> PairCounts {
    let pairs = systems * systems.saturating_sub(1) / 2;
    assert!(sums.len() >= permutations * blocks * systems && margin.len() >= permutations * pairs);
    let one = |mut acc: PairCounts, p: usize| {
        let bound = &margin[p * pairs..][..pairs];
        for b in 0..blocks {
            let row = &sums[(p * blocks + b) * systems..][..systems];
            let counts = &mut acc.0[b * pairs..][..pairs];
            if count_row(row, bound, counts) {
                let mut k = 0;
                for i in 0..systems {
                    for &rj in &row[i + 1..] {
                        if (row[i] - rj).abs() <= bound[k] {
                            acc.1.push((p, b, k));
                        }
                        k += 1;
                    }
                }
            }
        }
        acc
    };
    let empty = || (vec![0i64; blocks * pairs], Vec::new());
    let merge = |mut a: PairCounts, b: PairCounts| {
        a.0.iter_mut().zip(&b.0).for_each(|(x, y)| *x += y);
        a.1.extend(b.1);
        a
    };
    match exec {
        Exec::Serial => (0..permutations).fold(empty(), one),
        Exec::Parallel => (0..permutations)
            .into_par_iter()
            .with_min_len(16)
            .fold(empty, one)
            .reduce(empty, merge),
    }
}

/// One permutation and block: each pair's sure count added, and whether any is within the
/// margin. The pairs of system `i` are contiguous, so each runs over slices.
#[inline]
fn count_row(row: &[f64], bound: &[f64], counts: &mut [i64]) -> bool {
    let (mut close, mut k) = (false, 0);
    for (i, &ri) in row.iter().enumerate() {
        let n = row.len() - i - 1;
        let pairs = row[i + 1..]
            .iter()
            .zip(&bound[k..k + n])
            .zip(&mut counts[k..k + n]);
        for ((&rj, &m), count) in pairs {
            let difference = ri - rj;
            *count += i64::from(difference < -m);
            close |= difference.abs() <= m;
        }
        k += n;
    }
    close
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::Rng;

    #[test]
    fn counts_follow_the_definition_serial_and_parallel() {
        let (permutations, blocks, systems) = (37, 5, 6);
        let pairs = systems * (systems - 1) / 2;
        let mut rng = Rng(0x1234_5678_9ABC_DEF1);
        // Sums on a coarse grid, so that some differences are exactly 0 or at the margin.
        let sums: Vec<f64> = (0..permutations * blocks * systems)
            .map(|_| (rng.below(9) as f64) * 0.5)
            .collect();
        let margin: Vec<f64> = (0..permutations * pairs)
            .map(|_| [0.0, 0.5, 0.25][rng.below(3)])
            .collect();
        let mut counts = vec![0i64; blocks * pairs];
        let mut unsure = Vec::new();
        for p in 0..permutations {
            for b in 0..blocks {
                let mut k = 0;
                for i in 0..systems {
                    for j in i + 1..systems {
                        let row = &sums[(p * blocks + b) * systems..];
                        let (d, m) = (row[i] - row[j], margin[p * pairs + k]);
                        counts[b * pairs + k] += i64::from(d < -m);
                        if d.abs() <= m {
                            unsure.push((p, b, k));
                        }
                        k += 1;
                    }
                }
            }
        }
        let shape = (permutations, blocks, systems);
        let serial = pair_counts(&sums, &margin, shape, Exec::Serial);
        assert_eq!(serial, (counts.clone(), unsure.clone()));
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .unwrap();
        let (parallel, mut triples) =
            pool.install(|| pair_counts(&sums, &margin, shape, Exec::Parallel));
        triples.sort_unstable();
        assert_eq!((parallel, triples), (counts, unsure));
    }
}
