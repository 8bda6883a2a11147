//! understudy's core: text to BLEU sufficient statistics, with no I/O and no Python.
//!
//! Every function here reproduces sacrebleu 2.6.0's preprocessing exactly: Python's
//! notion of whitespace and lowercasing ([`text`]), the tokenizers ([`tokenize`], with
//! the byte-level hot path of `13a` in [`tok13a`]) and the clipped n-gram counts per
//! segment ([`segment`], [`stats`]), for cached references and for all pairs
//! ([`pairwise`]), serially or on a rayon pool ([`parallel`]); and, for reports, the
//! matched n-grams of a corpus and the matched tokens of each hypothesis ([`analysis`]);
//! and, for NLTK's NIST, the n-grams each hypothesis shares with each reference, in order
//! ([`overlaps`]).

pub mod analysis;
pub mod chrf;
pub mod config;
mod cpu;
pub mod error;
pub mod family;
pub mod gleu;
pub mod mt19937;
pub mod nist;
pub mod normalize;
pub mod overlaps;
pub mod pairwise;
pub mod parallel;
pub mod per_reference;
pub mod refset;
pub mod segment;
mod smallmap;
pub mod spa;
pub mod stats;
pub mod swapped;
pub mod ter;
pub mod text;
pub mod ties;
pub mod tok13a;
pub mod token_ids;
pub mod tokenize;
pub mod wer;
#[rustfmt::skip]
mod unicode_tables;
#[cfg(test)]
mod testing;

pub use config::BleuConfig;
pub use error::CoreError;
pub use pairwise::BleuPairwise;
pub use parallel::Exec;
pub use stats::BleuReferences;
pub use tokenize::Tokenizer;
