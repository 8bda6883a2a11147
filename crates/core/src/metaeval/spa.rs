//! Soft pairwise accuracy's permutation counts, exact. For two metrics' scores mixed cell by cell
//! (PERM-BOTH's resamples: the first mixture takes `worse` where a cell's coin is true and
//! `better` elsewhere, the second the reverse) and each pair of systems `i < j`: how many of the
//! paired test's permutations `p` have their swapped segments' differences
//! `x[i, s] - x[j, s]` sum to at most 0, in exact arithmetic (a tie counts).
//!
//! The scores are put in fixed point twice (scaled by a power of two, then rounded): in `i32`
//! for speed and in `i64` for precision. Sums of them are exact integers in any order, off the
//! true scaled sums by at most half a unit per term, so a difference further than one unit per
//! swapped segment from 0 decides. The `i32` sums decide nearly every comparison; the `i64` sum
//! of the permutation decides nearly all the rest, and an exact sum of the floats
//! ([`at_most_zero`]) the last. Scores that are whole after scaling (MQM scores, decimals made
//! whole) are decided by the integers alone.
//!
//! The sums of a permutation are subset sums of the segments' rows, so they come from tables
//! ("four Russians"): for each block of [`BITS`] segments, the sum of every subset of its rows,
//! one lane per system; a permutation's sums are then one table entry per block, added.

use crate::cpu::{avx2_or, has_avx2};
use crate::parallel::{self, Exec, Grain};

/// Systems summed together, as lanes of one table entry (a cache line of `i32`).
const LANES: usize = 16;
/// Segments per table block: a table of `2^BITS` entries each.
const BITS: usize = 6;
const ENTRIES: usize = 1 << BITS;
/// Tables read together, for every permutation in turn (their indices one `u64`): 32 KiB.
const PASS: usize = 8;

type Lane = [i32; LANES];

/// A block's table, its entries on cache lines of their own (one line read a lookup, not two).
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Entry(Lane);
type Block = [Entry; ENTRIES];

/// Two metrics' scores (systems x segments, row by row) to be mixed.
#[derive(Debug, Clone, Copy)]
pub struct Scores<'a> {
    pub worse: &'a [f64],
    pub better: &'a [f64],
    pub systems: usize,
}

/// Two metrics' scores in fixed point and the permutations, ready for any number of resamples.
pub struct Mixtures {
    worse: Vec<f64>,
    better: Vec<f64>,
    systems: usize,
    segments: usize,
    narrow: Fixed<i32>,
    wide: Fixed<i64>,
    permutations: Permutations,
    /// Per system and permutation, the swapped sum of both metrics' `i32` scores: the second
    /// mixture's sums are these less the first's, exactly.
    together: Vec<i32>,
}

impl Mixtures {
    /// `scores` and the permutations (rows of `swapped`, a flag per segment); `None` when the
    /// shapes disagree or a score is not finite.
    pub fn new(scores: Scores<'_>, swapped: &[bool]) -> Option<Self> {
        let cells = scores.worse.len();
        let fits = scores.systems > 0
            && cells > 0
            && cells % scores.systems == 0
            && scores.better.len() == cells;
        let finite = || {
            scores
                .worse
                .iter()
                .chain(scores.better)
                .all(|x| x.is_finite())
        };
        if !fits || !finite() {
            return None;
        }
        let segments = cells / scores.systems;
        // Sums within 2^29 (2^60): their differences, and the rounding, fit the integers.
        let narrow = Fixed::new(scores, segments, 29.0, |x| x as i32);
        let wide = Fixed::new(scores, segments, 60.0, |x| x as i64);
        let mut mixtures = Self {
            worse: scores.worse.to_vec(),
            better: scores.better.to_vec(),
            systems: scores.systems,
            segments,
            narrow,
            wide,
            permutations: Permutations::new(swapped, segments)?,
            together: Vec::new(),
        };
        let both: Vec<i32> = (mixtures.narrow.worse.iter().zip(&mixtures.narrow.better))
            .map(|(w, b)| w + b)
            .collect();
        let mut together = vec![0; mixtures.systems * mixtures.permutations.count];
        let mut scratch = Scratch::new(&mixtures);
        avx2_or!(
            has_avx2(),
            sums_avx2(&mixtures, &mut scratch, &both, &mut together),
            mixtures.sums(&mut scratch, |c| both[c], &mut together)
        );
        mixtures.together = together;
        Some(mixtures)
    }

    /// The cells of each metric's scores (systems x segments).
    pub fn cells(&self) -> usize {
        self.worse.len()
    }

    /// The pairs of systems.
    pub fn pairs(&self) -> usize {
        self.systems * (self.systems - 1) / 2
    }

    /// For each row of `coins` (a resample: one coin per cell, system by system) and each
    /// mixture (first, second) of it: the count of permutations at least the observed
    /// difference for each pair `i < j` in `triu_indices` order, at
    /// `out[(r * 2 + mixture) * pairs + k]`. `None` unless `coins` holds whole rows.
    pub fn counts(&self, coins: &[bool], exec: Exec) -> Option<Vec<i64>> {
        let cells = self.worse.len();
        if coins.len() % cells != 0 {
            return None;
        }
        let avx2 = has_avx2();
        Some(parallel::per_resample(
            exec,
            (coins, cells),
            2 * self.pairs(),
            Grain::Coarse,
            || Scratch::new(self),
            |scratch, coins, row| {
                avx2_or!(
                    avx2,
                    resample_avx2(self, scratch, coins, row),
                    resample(self, scratch, coins, row)
                )
            },
        ))
    }
}

/// The scores in fixed point: `round(x * 2^shift)`, and whether that was exact for every score.
struct Fixed<T> {
    worse: Vec<T>,
    better: Vec<T>,
    exact: bool,
}

impl<T> Fixed<T> {
    /// The largest shift (within what an `f64` power of two reaches) that keeps every system's
    /// sum of `|worse| + |better|` at most `2^room`; `whole` converts a rounded scaled score.
    fn new(scores: Scores<'_>, segments: usize, room: f64, whole: impl Fn(f64) -> T) -> Self {
        let per_system = |i: usize| -> f64 {
            let row = i * segments..(i + 1) * segments;
            scores.worse[row.clone()]
                .iter()
                .zip(&scores.better[row])
                .map(|(w, b)| w.abs() + b.abs())
                .sum()
        };
        let bound = (0..scores.systems).map(per_system).fold(0.0, f64::max);
        // Near f64::MAX the sum overflows: bound it by the largest score instead.
        let log2_bound = if bound.is_finite() {
            bound.log2()
        } else {
            let largest = scores
                .worse
                .iter()
                .chain(scores.better)
                .fold(0.0, |m, x| x.abs().max(m));
            largest.log2() + (2.0 * segments as f64).log2()
        };
        // The bound's own rounding is far below the factor 4 left to the integers' range.
        let shift = if bound > 0.0 {
            (room - log2_bound).floor().clamp(-1074.0, 1023.0) as i32
        } else {
            0
        };
        let scale = power_of_two(shift);
        let mut exact = true;
        let mut quantise = |x: &f64| {
            let scaled = x * scale;
            let rounded = scaled.round();
            // Scaled down to a subnormal (or to 0), a score may have lost bits: not exact.
            exact &= rounded == scaled && rounded / scale == *x;
            whole(rounded)
        };
        let worse = scores.worse.iter().map(&mut quantise).collect();
        let better = scores.better.iter().map(&mut quantise).collect();
        Self {
            worse,
            better,
            exact,
        }
    }
}

/// `2^shift`, exactly, for `-1074 <= shift <= 1023` (subnormal below -1022).
fn power_of_two(shift: i32) -> f64 {
    if shift >= -1022 {
        f64::from_bits(((shift + 1023) as u64) << 52)
    } else {
        f64::from_bits(1 << (shift + 1074))
    }
}

/// Each permutation's swapped segments, a block of [`BITS`] at a time, and how many there are.
struct Permutations {
    count: usize,
    /// Blocks of segments, and passes (of up to [`PASS`] blocks).
    blocks: usize,
    passes: usize,
    /// Per permutation and pass, the swapped segments of each of its blocks, a byte a block.
    index: Vec<u64>,
    sizes: Vec<i32>,
}

impl Permutations {
    fn new(swapped: &[bool], segments: usize) -> Option<Self> {
        if segments == 0 || swapped.len() % segments != 0 || segments > i32::MAX as usize {
            return None;
        }
        let count = swapped.len() / segments;
        let blocks = segments.div_ceil(BITS);
        let passes = blocks.div_ceil(PASS);
        let mut index = Vec::with_capacity(count * passes);
        let mut sizes = Vec::with_capacity(count);
        for row in swapped.chunks_exact(segments) {
            let bits = |block: &[bool]| {
                let flags = block.iter().enumerate();
                flags.fold(0u8, |m, (k, &s)| m | (u8::from(s) << k))
            };
            for pass in row.chunks(BITS * PASS) {
                let blocks = pass.chunks(BITS).enumerate();
                index.push(blocks.fold(0, |w, (k, b)| w | u64::from(bits(b)) << (8 * k)));
            }
            sizes.push(row.iter().map(|&flag| i32::from(flag)).sum());
        }
        Some(Self {
            count,
            blocks,
            passes,
            index,
            sizes,
        })
    }

    /// The swapped segments of permutation `p`, in order, read from its blocks' flags: a list of
    /// them per permutation took 2 GB at 2 million permutations, for the few comparisons that
    /// the fixed point leaves undecided.
    fn taken(&self, p: usize) -> impl Iterator<Item = usize> + '_ {
        let words = &self.index[p * self.passes..(p + 1) * self.passes];
        words.iter().enumerate().flat_map(|(pass, &word)| {
            (0..PASS * BITS)
                .filter(move |&k| (word >> (8 * (k / BITS) + k % BITS)) & 1 == 1)
                .map(move |k| (pass * PASS + k / BITS) * BITS + k % BITS)
        })
    }
}

impl Mixtures {
    /// Per system `i` and permutation `p`, the swapped sum of `value(i, s)`, at
    /// `out[i * permutations + p]`: a lane group of systems at a time, from subset-sum tables.
    /// The tables are read a few blocks at a time (as many as the first-level cache holds), for
    /// every permutation, into running sums that stream through the second-level cache.
    #[inline(always)]
    fn sums(&self, scratch: &mut Scratch, value: impl Fn(usize) -> i32, out: &mut [i32]) {
        let (systems, segments) = (self.systems, self.segments);
        let (count, passes) = (self.permutations.count, self.permutations.passes);
        for first in (0..systems).step_by(LANES) {
            let lanes = LANES.min(systems - first);
            for l in 0..LANES {
                for (s, row) in scratch.rows.iter_mut().enumerate() {
                    row[l] = if l < lanes {
                        value((first + l) * segments + s)
                    } else {
                        0
                    };
                }
            }
            fill_tables(&scratch.rows, &mut scratch.tables);
            scratch.running.fill(Entry([0; LANES]));
            let index = |pass: usize| self.permutations.index[pass..].iter().step_by(passes);
            // Whole passes apart from the last: their eight lookups unrolled.
            let whole = scratch.tables.chunks_exact(PASS);
            let last = whole.remainder();
            for (pass, tables) in whole.enumerate() {
                add_pass(&mut scratch.running, index(pass), tables);
            }
            if !last.is_empty() {
                add_pass(&mut scratch.running, index(passes - 1), last);
            }
            for (p, sum) in scratch.running.iter().enumerate() {
                for l in 0..lanes {
                    out[(first + l) * count + p] = sum.0[l];
                }
            }
        }
    }

    /// A cell of a mixture: the cell's index, and whether it holds `worse`.
    fn cell(&self, coins: &[bool], first: bool, system: usize, s: usize) -> (usize, bool) {
        let c = system * self.segments + s;
        (c, coins[c] == first)
    }
}

/// A thread's buffers: the segments' rows, the tables, both mixtures' sums.
struct Scratch {
    rows: Vec<Lane>,
    tables: Vec<Block>,
    running: Vec<Entry>,
    first: Vec<i32>,
    second: Vec<i32>,
}

impl Scratch {
    fn new(context: &Mixtures) -> Self {
        let sums = context.systems * context.permutations.count;
        Self {
            rows: vec![[0; LANES]; context.segments],
            tables: vec![[Entry([0; LANES]); ENTRIES]; context.permutations.blocks],
            running: vec![Entry([0; LANES]); context.permutations.count],
            first: vec![0; sums],
            second: vec![0; sums],
        }
    }
}

/// Each block's table: entry `m` is the sum of the rows whose bit is set in `m` (one addition
/// an entry, from the entry without its lowest bit).
#[inline(always)]
fn fill_tables(rows: &[Lane], tables: &mut [Block]) {
    for (block, table) in rows.chunks(BITS).zip(tables.iter_mut()) {
        table[0] = Entry([0; LANES]);
        for m in 1..1usize << block.len() {
            let mut entry = table[m & (m - 1)];
            let row = &block[m.trailing_zeros() as usize];
            for (e, r) in entry.0.iter_mut().zip(row) {
                *e += r;
            }
            table[m] = entry;
        }
    }
}

/// Each permutation's running sums, and its lookups in the tables of a pass.
#[inline(always)]
fn add_pass<'a>(running: &mut [Entry], index: impl Iterator<Item = &'a u64>, tables: &[Block]) {
    for (sum, &bits) in running.iter_mut().zip(index) {
        sum.0 = lookup(tables, bits, sum.0);
    }
}

/// A permutation's sums so far, and one table entry per block of a pass, added (each block's
/// index a byte of `bits`).
#[inline(always)]
fn lookup(tables: &[Block], bits: u64, mut sum: Lane) -> Lane {
    for (k, table) in tables.iter().enumerate() {
        let entry = &table[(bits >> (8 * k)) as usize % ENTRIES].0;
        for (s, e) in sum.iter_mut().zip(entry) {
            *s += e;
        }
    }
    sum
}

/// [`Mixtures::sums`] of `values` compiled for AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn sums_avx2(mixtures: &Mixtures, scratch: &mut Scratch, values: &[i32], out: &mut [i32]) {
    mixtures.sums(scratch, |c| values[c], out);
}

/// [`resample`] compiled for AVX2: the same integer arithmetic, eight lanes an instruction.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn resample_avx2(
    context: &Mixtures,
    scratch: &mut Scratch,
    coins: &[bool],
    out: &mut [i64],
) {
    resample(context, scratch, coins, out);
}

/// One resample's counts: both mixtures' sums, then each pair's count.
#[inline(always)]
fn resample(context: &Mixtures, scratch: &mut Scratch, coins: &[bool], out: &mut [i64]) {
    let (worse, better) = (&context.narrow.worse, &context.narrow.better);
    let mut first = std::mem::take(&mut scratch.first);
    // A select, not a branch, which the coins would mispredict half the time.
    let mixed = |c: usize| better[c] ^ ((worse[c] ^ better[c]) & -i32::from(coins[c]));
    context.sums(scratch, mixed, &mut first);
    for ((second, t), f) in scratch.second.iter_mut().zip(&context.together).zip(&first) {
        *second = t - f;
    }
    let pairs = context.pairs();
    let (left, right) = out.split_at_mut(pairs);
    count_pairs(context, &first, coins, true, left);
    count_pairs(context, &scratch.second, coins, false, right);
    scratch.first = first;
}

/// Each pair's count from one mixture's sums (system by system, permutation by permutation).
#[inline(always)]
fn count_pairs(context: &Mixtures, sums: &[i32], coins: &[bool], first: bool, out: &mut [i64]) {
    let count = context.permutations.count;
    let sizes = &context.permutations.sizes;
    let systems = context.systems;
    let mut k = 0;
    for i in 0..systems {
        for j in i + 1..systems {
            let (a, b) = (&sums[i * count..][..count], &sums[j * count..][..count]);
            out[k] = if context.narrow.exact {
                at_most(a, b)
            } else {
                let (sure, maybe) = within(a, b, sizes);
                if sure == maybe {
                    sure
                } else {
                    sure + undecided(context, (a, b), (i, j), coins, first)
                }
            };
            k += 1;
        }
    }
}

/// How many permutations have `a - b <= 0`.
#[inline(always)]
fn at_most(a: &[i32], b: &[i32]) -> i64 {
    let count: i32 = a.iter().zip(b).map(|(x, y)| i32::from(x - y <= 0)).sum();
    i64::from(count)
}

/// How many permutations have `a - b` surely below 0 (beyond the rounding margin, one unit per
/// swapped segment), and how many have it at most the margin.
#[inline(always)]
fn within(a: &[i32], b: &[i32], margin: &[i32]) -> (i64, i64) {
    let (mut sure, mut maybe) = (0i32, 0i32);
    for ((x, y), m) in a.iter().zip(b).zip(margin) {
        let d = x - y;
        sure += i32::from(d < -m);
        maybe += i32::from(d <= *m);
    }
    (i64::from(sure), i64::from(maybe))
}

/// Of the permutations within the `i32` margin, how many have the difference at most 0: by the
/// `i64` sum where its margin decides, by the exact float sum where it does not.
#[cold]
fn undecided(
    context: &Mixtures,
    (a, b): (&[i32], &[i32]),
    (i, j): (usize, usize),
    coins: &[bool],
    first: bool,
) -> i64 {
    let wide = &context.wide;
    let value = |(c, worse): (usize, bool)| if worse { wide.worse[c] } else { wide.better[c] };
    let float = |(c, worse): (usize, bool)| {
        if worse {
            context.worse[c]
        } else {
            context.better[c]
        }
    };
    let permutations = &context.permutations;
    let mut counted = 0;
    for (p, &m) in permutations.sizes.iter().enumerate() {
        if (a[p] - b[p]).abs() > m {
            continue;
        }
        let taken = || permutations.taken(p);
        let cells = |s| {
            (
                context.cell(coins, first, i, s),
                context.cell(coins, first, j, s),
            )
        };
        let d: i64 = taken().map(cells).map(|(x, y)| value(x) - value(y)).sum();
        let m = i64::from(m);
        let at_most = if wide.exact || d.abs() > m {
            d <= 0
        } else {
            at_most_zero(taken().map(cells).flat_map(|(x, y)| [float(x), -float(y)]))
        };
        counted += i64::from(at_most);
    }
    counted
}

/// Whether the exact sum of `terms` (finite; fewer than 2^30) is at most 0. Every finite double
/// is a whole multiple of 2^-1074 below 2^1024, so the terms are added as integers in that unit:
/// each significand, shifted to its place, into 32-bit digits kept in `i64`s (room for the
/// carries of 2^30 terms), then the carries are passed up and the top digit gives the sign. No
/// rounding and no overflow, whatever the magnitudes.
pub fn at_most_zero(terms: impl IntoIterator<Item = f64>) -> bool {
    // 2098 bits of magnitude and 31 of shift, and room above for the carries.
    const DIGITS: usize = 70;
    let mut digits = [0i64; DIGITS];
    for x in terms {
        let bits = x.to_bits();
        let exponent = ((bits >> 52) & 0x7ff) as usize;
        let fraction = (bits & ((1 << 52) - 1)) as i128;
        // x = significand * 2^(place - 1074): subnormals have no hidden bit.
        let (significand, place) = match exponent {
            0 => (fraction, 0),
            _ => (fraction | 1 << 52, exponent - 1),
        };
        let wide = if x < 0.0 { -significand } else { significand } << (place % 32);
        let low = (wide & 0xffff_ffff) as i64;
        let middle = ((wide >> 32) & 0xffff_ffff) as i64;
        let top = (wide >> 64) as i64;
        let digit = place / 32;
        digits[digit] += low;
        digits[digit + 1] += middle;
        digits[digit + 2] += top;
    }
    for k in 0..DIGITS - 1 {
        let carry = digits[k] >> 32;
        digits[k] -= carry << 32;
        digits[k + 1] += carry;
    }
    // Below the top every digit is now in 0..2^32: the top's sign is the sum's, unless it is 0.
    let top = digits[DIGITS - 1];
    top < 0 || (top == 0 && digits.iter().all(|&d| d == 0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::Rng;

    #[test]
    fn swapped_segments_are_read_back_from_the_block_flags() {
        let mut rng = Rng(17);
        // Segment counts that fill no block, one block, a pass, and passes with a partial block.
        for segments in [1, 5, 6, 7, 47, 48, 49, 529] {
            let swapped: Vec<bool> = (0..segments * 9).map(|_| rng.below(2) == 1).collect();
            let permutations = Permutations::new(&swapped, segments).expect("whole rows");
            for (p, row) in swapped.chunks_exact(segments).enumerate() {
                let want: Vec<usize> = (0..segments).filter(|&s| row[s]).collect();
                assert_eq!(
                    permutations.taken(p).collect::<Vec<_>>(),
                    want,
                    "{segments} segments"
                );
                assert_eq!(permutations.sizes[p] as usize, want.len());
            }
        }
    }

    /// The definition: each count by an exact sum of the mixture's cells.
    fn by_definition(scores: Scores<'_>, swapped: &[bool], coins: &[bool]) -> Vec<i64> {
        let systems = scores.systems;
        let segments = scores.worse.len() / systems;
        let mut out = Vec::new();
        for resample in coins.chunks_exact(systems * segments) {
            for first in [true, false] {
                let cell = |i: usize, s: usize| {
                    let c = i * segments + s;
                    if resample[c] == first {
                        scores.worse[c]
                    } else {
                        scores.better[c]
                    }
                };
                for i in 0..systems {
                    for j in i + 1..systems {
                        let count = swapped.chunks_exact(segments).filter(|row| {
                            let terms = (0..segments)
                                .filter(|&s| row[s])
                                .flat_map(|s| [cell(i, s), -cell(j, s)]);
                            at_most_zero(terms)
                        });
                        out.push(count.count() as i64);
                    }
                }
            }
        }
        out
    }

    fn flags(rng: &mut Rng, n: usize) -> Vec<bool> {
        (0..n).map(|_| rng.below(2) == 1).collect()
    }

    #[test]
    fn at_most_zero_is_exact_where_floats_round() {
        assert!(!at_most_zero([0.1, 0.2, -0.3])); // exactly 2.8e-17
        assert!(at_most_zero([0.3, -0.1, -0.2])); // exactly -2.8e-17
        assert!(1.0 + 2f64.powi(-80) - 1.0 == 0.0);
        assert!(!at_most_zero([1.0, 2f64.powi(-80), -1.0])); // exactly 2^-80
        assert!(!at_most_zero([1e100, 1.0, -1e100]));
        assert!(at_most_zero([1e100, -1.0, -1e100, 1e-300, -1e-300]));
        assert!(at_most_zero([]));
        assert!(at_most_zero([0.0, -0.0]));
        let tiny = f64::from_bits(1);
        assert!(!at_most_zero([
            f64::MAX,
            f64::MAX,
            -f64::MAX,
            -f64::MAX,
            tiny
        ]));
        assert!(at_most_zero([f64::MAX, f64::MAX, -f64::MAX, -f64::MAX]));
        assert!(!at_most_zero([
            -f64::MAX,
            -f64::MAX,
            f64::MAX,
            f64::MAX,
            f64::from_bits(1)
        ]));
        assert!(at_most_zero([-f64::MAX; 1000]));
        assert!(!at_most_zero([f64::MIN_POSITIVE * f64::EPSILON]));
        assert!(at_most_zero([1.0, 2f64.powi(-80), -1.0 - f64::EPSILON]));
    }

    #[test]
    fn counts_follow_the_definition_with_ties_and_near_ties() {
        let mut rng = Rng(0x1234_5678_9ABC_DEF1);
        // 19 systems: two lane groups. Scores in thirds (never whole after scaling), with
        // system 1 a copy of system 0 on half the segments and the two metrics alike on some
        // cells, so that many permuted differences are exactly 0 or within the margin.
        let (systems, segments, permutations, resamples) = (19, 23, 40, 6);
        let mut worse: Vec<f64> = (0..systems * segments)
            .map(|_| rng.below(7) as f64 / 3.0)
            .collect();
        let mut better: Vec<f64> = worse
            .iter()
            .map(|w| w + (rng.below(3) as f64) / 3.0)
            .collect();
        worse.copy_within(0..segments / 2, segments);
        better.copy_within(0..segments / 2, segments);
        let scores = Scores {
            worse: &worse,
            better: &better,
            systems,
        };
        let swapped = flags(&mut rng, permutations * segments);
        let coins = flags(&mut rng, resamples * systems * segments);
        let want = by_definition(scores, &swapped, &coins);
        let mixtures = Mixtures::new(scores, &swapped).unwrap();
        assert!(!mixtures.narrow.exact && !mixtures.wide.exact);
        assert_eq!(mixtures.counts(&coins, Exec::Serial), Some(want.clone()));
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .unwrap();
        let parallel = pool.install(|| mixtures.counts(&coins, Exec::Parallel));
        assert_eq!(parallel, Some(want));
    }

    #[test]
    fn differences_below_both_fixed_points_are_decided_by_exact_sums() {
        // A score of 1e9 sets both scales: differences of 1e-12 round away in both integers.
        let mut rng = Rng(5);
        let (systems, segments, permutations) = (3, 12, 200);
        let base: Vec<f64> = (0..segments)
            .map(|_| rng.below(1000) as f64 / 7.0)
            .collect();
        let nudged: Vec<f64> = base
            .iter()
            .map(|v| v + [-1e-12, 1e-12, 0.0][rng.below(3)])
            .collect();
        let mut worse = [base.clone(), nudged, base].concat();
        worse[2 * segments] = 1e9;
        let scores = Scores {
            worse: &worse,
            better: &worse,
            systems,
        };
        let swapped = flags(&mut rng, permutations * segments);
        let coins = vec![false; systems * segments];
        let want = by_definition(scores, &swapped, &coins);
        let mixtures = Mixtures::new(scores, &swapped).unwrap();
        assert!(!mixtures.wide.exact);
        assert!(want[0] > 0 && want[0] < permutations as i64);
        assert_eq!(mixtures.counts(&coins, Exec::Serial), Some(want));
    }

    #[test]
    fn powers_of_two_are_exact_down_to_the_smallest_subnormal() {
        assert_eq!(power_of_two(0), 1.0);
        assert_eq!(power_of_two(-3), 0.125);
        assert_eq!(power_of_two(1023), 2f64.powi(1023));
        assert_eq!(power_of_two(-1022), f64::MIN_POSITIVE);
        assert_eq!(power_of_two(-1074), f64::from_bits(1));
    }

    #[test]
    fn scores_near_the_largest_double_are_counted_exactly() {
        let mut rng = Rng(3);
        let (systems, segments, permutations) = (3, 10, 50);
        let worse: Vec<f64> = (0..systems * segments)
            .map(|_| f64::MAX / [1.0, 3.0, 7.0, -2.0, 1e300][rng.below(5)])
            .collect();
        let better: Vec<f64> = worse.iter().map(|w| -w / 5.0).collect();
        let scores = Scores {
            worse: &worse,
            better: &better,
            systems,
        };
        let swapped = flags(&mut rng, permutations * segments);
        let coins = flags(&mut rng, 4 * systems * segments);
        let want = by_definition(scores, &swapped, &coins);
        let mixtures = Mixtures::new(scores, &swapped).unwrap();
        assert_eq!(mixtures.counts(&coins, Exec::Serial), Some(want));
    }

    #[test]
    fn whole_scores_are_decided_by_the_integers() {
        let mut rng = Rng(77);
        let (systems, segments, permutations) = (4, 9, 64);
        let worse: Vec<f64> = (0..systems * segments)
            .map(|_| -(rng.below(4) as f64))
            .collect();
        let scores = Scores {
            worse: &worse,
            better: &worse,
            systems,
        };
        let swapped = flags(&mut rng, permutations * segments);
        let mixtures = Mixtures::new(scores, &swapped).unwrap();
        assert!(mixtures.narrow.exact);
        let coins = vec![true; systems * segments];
        let want = by_definition(scores, &swapped, &coins);
        assert_eq!(mixtures.counts(&coins, Exec::Serial), Some(want));
    }

    #[test]
    fn shapes_that_disagree_and_scores_that_are_not_finite_are_refused() {
        let scores = Scores {
            worse: &[0.0, 1.0, 2.0, 3.0],
            better: &[0.0, 1.0, 2.0, 3.0],
            systems: 2,
        };
        let run = |s: Scores<'_>, swapped: &[bool], coins: &[bool]| {
            Mixtures::new(s, swapped)?.counts(coins, Exec::Serial)
        };
        assert!(run(scores, &[true, false], &[true; 4]).is_some());
        assert!(run(scores, &[true, false, true], &[true; 4]).is_none());
        assert!(run(scores, &[true, false], &[true; 3]).is_none());
        let bad = Scores {
            worse: &[0.0, f64::NAN, 2.0, 3.0],
            ..scores
        };
        assert!(run(bad, &[true, false], &[true; 4]).is_none());
    }
}
