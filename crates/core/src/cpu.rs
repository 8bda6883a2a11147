//! What the CPU can do, for loops compiled twice: once for the baseline, once for AVX2 (the same
//! code, so the same results, with wider instructions).

/// Whether the CPU has AVX2 (never, off x86-64).
pub(crate) fn has_avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// `$fast` (a call of a function compiled with `#[target_feature(enable = "avx2")]`) where
/// `$avx2` (from [`has_avx2`]) is true, `$plain` (the same code for the baseline) elsewhere.
macro_rules! avx2_or {
    ($avx2:expr, $fast:expr, $plain:expr) => {{
        #[cfg(target_arch = "x86_64")]
        let value = if $avx2 {
            // SAFETY: the CPU has AVX2 (the caller asked `has_avx2`); the code is the same.
            unsafe { $fast }
        } else {
            $plain
        };
        #[cfg(not(target_arch = "x86_64"))]
        let value = $plain;
        value
    }};
}
pub(crate) use avx2_or;
