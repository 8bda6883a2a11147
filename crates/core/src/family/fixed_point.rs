//! The fixed-point encodings of statistics rows. A row holds integers only, so that sums over
//! a corpus, a bootstrap resample or a block are exact in any order; a quantity that is not a
//! whole number is stored as an integer multiple of a fixed unit:
//! - an average reference length (TER, NIST) in units of 1/[`LENGTH_SCALE`], exact for up
//!   to [`MAX_REFS`] references ([`mean_length`]);
//! - an information weight in bits (NIST) in units of 2^-[`INFO_BITS`] ([`info_units`]);
//! - a given segment score (COMET, MetricX, ...) in units of 2^-64, in three 32-bit limbs
//!   ([`given_row`]), so that the sum of 2^32 scores of magnitude below 2^31 cannot overflow.

/// Reference lengths are kept times this, the least common multiple of 1..=16, so that a
/// segment's average over up to [`MAX_REFS`] references is an integer.
pub const LENGTH_SCALE: i64 = 720_720;
/// The most references a segment may have where an average length is kept (see [`LENGTH_SCALE`]).
pub const MAX_REFS: usize = 16;
/// Information weights are kept as integers in units of 2^-INFO_BITS bits.
pub const INFO_BITS: u32 = 26;
/// A given score's magnitude must be below this (2^31); it is added to the whole part, so that
/// the whole part of a row is never negative.
pub const GIVEN_BOUND: i64 = 1 << 31;
/// Columns of a given score's row: `[whole + 2^31, fraction's high 32 bits, low 32 bits, 1]`.
pub const GIVEN_ROW_WIDTH: usize = 4;

/// The average of `n_refs` references' lengths whose sum is `total`, in units of
/// 1/[`LENGTH_SCALE`] (exact: `n_refs` is at most [`MAX_REFS`] and divides the scale).
pub fn mean_length(total: usize, n_refs: usize) -> i64 {
    debug_assert!((1..=MAX_REFS).contains(&n_refs));
    total as i64 * (LENGTH_SCALE / n_refs as i64)
}

/// `bits` in units of 2^-[`INFO_BITS`], rounded to the nearest unit.
pub fn info_units(bits: f64) -> i64 {
    (bits * f64::from(1u32 << INFO_BITS)).round() as i64
}

/// A given score's row, `[whole + 2^31, high 32 bits, low 32 bits of the fraction, 1]`: the
/// score plus 2^31, times 2^64, exactly, rounded half to even below 2^-64 (where a float below
/// 1 has bits left). `None` for a score that is not finite or not below 2^31 in magnitude.
pub fn given_row(score: f64) -> Option<[i64; GIVEN_ROW_WIDTH]> {
    if !score.is_finite() || score.abs() >= GIVEN_BOUND as f64 {
        return None;
    }
    let shifted = (i128::from(GIVEN_BOUND) << 64) + scaled_2_64(score);
    let limb = |k: u32| ((shifted >> (32 * k)) & 0xFFFF_FFFF) as i64;
    Some([(shifted >> 64) as i64, limb(1), limb(0), 1])
}

/// `score * 2^64` rounded half to even, exactly (a finite score below 2^31 in magnitude).
fn scaled_2_64(score: f64) -> i128 {
    let bits = score.to_bits();
    let exponent = ((bits >> 52) & 0x7FF) as i32;
    let fraction = i128::from(bits & ((1 << 52) - 1));
    // score = mantissa * 2^power; subnormals have no hidden bit and the least exponent.
    let (mantissa, power) = match exponent {
        0 => (fraction, -1074),
        _ => (fraction | (1 << 52), exponent - 1075),
    };
    let shift = power + 64;
    let magnitude = if shift >= 0 {
        mantissa << shift
    } else if shift <= -54 {
        0 // below half a unit: the mantissa is under 2^53
    } else {
        let drop = (-shift) as u32;
        let (kept, rest, half) = (
            mantissa >> drop,
            mantissa & ((1 << drop) - 1),
            1 << (drop - 1),
        );
        kept + i128::from(rest > half || (rest == half && kept & 1 == 1))
    };
    if bits >> 63 == 1 {
        -magnitude
    } else {
        magnitude
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The row's value as a fraction over 2^64, from its limbs.
    fn value(row: [i64; 4]) -> i128 {
        ((i128::from(row[0]) - i128::from(GIVEN_BOUND)) << 64)
            + (i128::from(row[1]) << 32)
            + i128::from(row[2])
    }

    #[test]
    fn given_rows_are_the_scores_times_two_to_the_64() {
        assert_eq!(given_row(0.5), Some([1 << 31, 1 << 31, 0, 1]));
        assert_eq!(given_row(-0.25), Some([(1 << 31) - 1, 3 << 30, 0, 1]));
        assert_eq!(given_row(0.0), Some([1 << 31, 0, 0, 1]));
        assert_eq!(given_row(-0.0), Some([1 << 31, 0, 0, 1]));
        let mut rng = crate::testing::Rng(0x2545_F491_4F6C_DD1D);
        for _ in 0..20_000 {
            // Scores from 2^-80 to 2^31, both signs, every bit of the mantissa random.
            let power = rng.below(111) as i32 - 80;
            let mantissa = 1.0 + (rng.next() >> 12) as f64 / 2f64.powi(52);
            let sign = if rng.below(2) == 0 { 1.0 } else { -1.0 };
            let x = sign * mantissa * 2f64.powi(power);
            let row = given_row(x).unwrap();
            assert!(row[1..3].iter().all(|&l| (0..1 << 32).contains(&l)), "{x}");
            // x * 2^64 is exact in floating point; an integer when x has no bits below 2^-64.
            let exact = x * 2f64.powi(64);
            if power >= -12 {
                assert_eq!(value(row), exact as i128, "{x}");
            } else {
                assert!((value(row) as f64 - exact).abs() <= 0.5, "{x}");
            }
        }
    }

    #[test]
    fn below_two_to_the_minus_64_rounds_half_to_even() {
        let unit = 2f64.powi(-64);
        assert_eq!(value(given_row(unit * 0.5).unwrap()), 0);
        assert_eq!(value(given_row(unit * 1.5).unwrap()), 2);
        assert_eq!(value(given_row(unit * 2.5).unwrap()), 2);
        assert_eq!(value(given_row(-unit * 1.5).unwrap()), -2);
        assert_eq!(value(given_row(f64::MIN_POSITIVE).unwrap()), 0);
    }

    #[test]
    fn scores_out_of_range_have_no_row() {
        for x in [
            f64::NAN,
            f64::INFINITY,
            -f64::INFINITY,
            2f64.powi(31),
            -2f64.powi(31),
        ] {
            assert_eq!(given_row(x), None, "{x}");
        }
        assert!(given_row(2f64.powi(31) - 1.0).is_some());
    }

    #[test]
    fn lengths_and_weights() {
        assert_eq!(mean_length(3, 2), 3 * LENGTH_SCALE / 2);
        assert!((1..=MAX_REFS as i64).all(|n| LENGTH_SCALE % n == 0));
        assert_eq!(info_units(1.0), 1 << INFO_BITS);
        assert_eq!(info_units(0.5), 1 << (INFO_BITS - 1));
    }
}
