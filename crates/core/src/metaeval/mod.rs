//! What the WMT meta-evaluation needs beyond the metrics: SPA's paired permutations
//! ([`spa`]), swapped sums for the pairwise accuracy's resampling ([`swapped`]), the
//! tie-calibrated accuracy's search ([`ties`]) and NumPy's Mersenne Twister ([`mt19937`]),
//! so the resamples are mt-metrics-eval's own.

pub mod mt19937;
pub mod spa;
pub mod swapped;
pub mod ties;
