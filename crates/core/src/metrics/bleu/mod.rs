//! BLEU (Papineni et al., 2002) as sacrebleu computes it: what decides the preprocessing
//! ([`config`]), the clipped n-gram counts of a segment ([`segment`]), the references kept
//! for many hypotheses ([`stats`]) and every hypothesis against every reference ([`pairwise`]).

pub mod config;
pub mod pairwise;
pub mod segment;
pub mod stats;
