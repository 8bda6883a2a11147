//! Sums over the cells a permutation test swaps. PERM-BOTH mixes two metrics' scores cell by cell;
//! a Pearson correlation of each mixture needs only a few sums that are linear in the swaps, so
//! each resample is a row of coins and a masked sum per vector and group of cells, not a mixture.

use crate::cpu::{avx2_or, has_avx2};
use crate::parallel::{self, Exec, Grain};

/// For each resample `r` (coins `coins[r * cells..(r + 1) * cells]`, `cells` being
/// `bounds.last()`), each vector `k` and each group `g` of cells (`bounds[g]..bounds[g + 1]`):
/// the sum of `vectors[k]` over the group's cells whose coin is true, at
/// `out[(r * vectors.len() + k) * groups + g]`. The bounds must start at 0, never decrease and
/// end at the vectors' length, and `coins` hold whole rows; `None` otherwise.
pub fn swapped_sums(
    coins: &[bool],
    vectors: &[&[f64]],
    bounds: &[usize],
    exec: Exec,
) -> Option<Vec<f64>> {
    let cells = *bounds.last()?;
    let valid = bounds[0] == 0
        && bounds.windows(2).all(|w| w[0] <= w[1])
        && vectors.iter().all(|v| v.len() == cells)
        && (cells == 0 || coins.len() % cells == 0);
    if !valid {
        return None;
    }
    let groups = bounds.len() - 1;
    let width = vectors.len() * groups;
    if cells == 0 {
        return Some(Vec::new());
    }
    let avx2 = has_avx2();
    Some(parallel::per_resample(
        exec,
        (coins, cells),
        width,
        Grain::Fine,
        Vec::new,
        |mask: &mut Vec<f64>, coins, row| {
            avx2_or!(
                avx2,
                resample_avx2(coins, vectors, bounds, mask, row),
                resample(coins, vectors, bounds, mask, row)
            )
        },
    ))
}

/// [`resample`] compiled for AVX2: four doubles an instruction, where the baseline has two. The
/// running sums are the same (no fused multiply-add), so the sums are equal to the last bit.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn resample_avx2(
    coins: &[bool],
    vectors: &[&[f64]],
    bounds: &[usize],
    mask: &mut Vec<f64>,
    row: &mut [f64],
) {
    resample(coins, vectors, bounds, mask, row);
}

/// One resample's row: each group's sums, a tile of cells at a time so that the coins, made
/// doubles (1.0 or 0.0: a product, not a branch, which the coins would mispredict), stay in the
/// first-level cache while every vector reads them.
#[inline(always)]
fn resample(
    coins: &[bool],
    vectors: &[&[f64]],
    bounds: &[usize],
    mask: &mut Vec<f64>,
    row: &mut [f64],
) {
    const TILE: usize = 1024;
    let groups = bounds.len() - 1;
    row.fill(0.0);
    for g in 0..groups {
        let mut start = bounds[g];
        while start < bounds[g + 1] {
            let end = (start + TILE).min(bounds[g + 1]);
            mask.clear();
            mask.extend(coins[start..end].iter().map(|&c| f64::from(u8::from(c))));
            for (k, vector) in vectors.iter().enumerate() {
                row[k * groups + g] += masked_sum(mask, &vector[start..end]);
            }
            start = end;
        }
    }
}

/// `sum(mask[c] * values[c])`, in eight running sums the compiler keeps in vector registers.
#[inline(always)]
fn masked_sum(mask: &[f64], values: &[f64]) -> f64 {
    const LANES: usize = 8;
    let mut lanes = [0.0f64; LANES];
    let (masks, rows) = (mask.chunks_exact(LANES), values.chunks_exact(LANES));
    let rest: f64 = masks
        .remainder()
        .iter()
        .zip(rows.remainder())
        .map(|(m, v)| m * v)
        .sum();
    for (m, v) in masks.zip(rows) {
        for lane in 0..LANES {
            lanes[lane] += m[lane] * v[lane];
        }
    }
    lanes.iter().sum::<f64>() + rest
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::Rng;

    #[test]
    fn each_group_sums_its_swapped_cells() {
        let coins = [true, false, true, true, false, true, false, false];
        let a = [1.0, 2.0, 4.0, 8.0];
        let b = [0.5, -1.0, 3.0, 0.25];
        let out = swapped_sums(&coins, &[&a, &b], &[0, 1, 4], Exec::Serial).unwrap();
        // Resample 0 swaps cells 0, 2, 3; resample 1 swaps cell 1. Groups: {0}, {1, 2, 3}.
        assert_eq!(out, [1.0, 12.0, 0.5, 3.25, 0.0, 2.0, 0.0, -1.0]);
    }

    #[test]
    fn long_groups_equal_a_plain_sum_and_threads_change_nothing() {
        let mut rng = Rng(7);
        let cells = 1000;
        let values: Vec<f64> = (0..cells).map(|_| rng.below(1000) as f64 / 8.0).collect();
        let coins: Vec<bool> = (0..50 * cells).map(|_| rng.below(2) == 1).collect();
        let bounds = [0, 3, 503, 1000];
        let serial = swapped_sums(&coins, &[&values], &bounds, Exec::Serial).unwrap();
        assert_eq!(
            swapped_sums(&coins, &[&values], &bounds, Exec::Parallel).unwrap(),
            serial
        );
        for r in 0..50 {
            for g in 0..3 {
                // Eighths below 2^53: every order of summing them is exact.
                let plain: f64 = (bounds[g]..bounds[g + 1])
                    .filter(|&c| coins[r * cells + c])
                    .map(|c| values[c])
                    .sum();
                assert_eq!(serial[r * 3 + g], plain);
            }
        }
    }

    #[test]
    #[cfg(target_arch = "x86_64")]
    fn the_avx2_build_gives_the_same_sums_to_the_last_bit() {
        if !has_avx2() {
            return;
        }
        let mut rng = Rng(11);
        let cells = 3000;
        let values: Vec<f64> = (0..cells)
            .map(|_| rng.below(1 << 20) as f64 / 7.0)
            .collect();
        let coins: Vec<bool> = (0..cells).map(|_| rng.below(2) == 1).collect();
        let bounds = [0, 1500, 1501, 3000];
        let (mut plain, mut wide) = (vec![0.0; 3], vec![0.0; 3]);
        let mut mask = Vec::new();
        resample(&coins, &[&values], &bounds, &mut mask, &mut plain);
        // SAFETY: the CPU has AVX2.
        unsafe { resample_avx2(&coins, &[&values], &bounds, &mut mask, &mut wide) };
        assert_eq!(plain, wide);
    }

    #[test]
    fn bounds_that_do_not_cut_the_cells_are_refused() {
        let v = [1.0, 2.0];
        assert!(swapped_sums(&[true; 4], &[&v], &[0, 3], Exec::Serial).is_none());
        assert!(swapped_sums(&[true; 4], &[&v], &[1, 2], Exec::Serial).is_none());
        assert!(swapped_sums(&[true; 3], &[&v], &[0, 2], Exec::Serial).is_none());
        assert!(swapped_sums(&[true; 4], &[&v], &[], Exec::Serial).is_none());
        assert_eq!(
            swapped_sums(&[], &[&v], &[0, 2], Exec::Serial),
            Some(vec![])
        );
    }
}
