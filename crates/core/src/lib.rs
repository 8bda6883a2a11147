//! understudy's core: text to the sufficient statistics of every metric family, and the
//! WMT meta-evaluation's counts, with no I/O and no Python.
//!
//! Every function here reproduces its reference tool exactly (sacrebleu 2.6.0, jiwer,
//! NLTK, mteval, mt-metrics-eval). The rooms:
//! - [`text`]: Python's whitespace and lowercasing, the tokenizers, normalisation, words
//!   and token ids;
//! - [`family`]: what a family implements to be scored (the traits) and the reference
//!   stores;
//! - [`metrics`]: one module per family, BLEU a room of its own ([`metrics::bleu`]);
//! - [`metaeval`]: SPA, the swapped sums, the tie search and the Mersenne Twister;
//! - [`analysis`]: the report's matched n-grams and tokens, and NIST's ordered overlaps;
//! - [`segmentation`]: a hypothesis text cut into its references' segments (mwerSegmenter's
//!   minimum-edit resegmentation).
//!
//! Shared by all: [`error`] (the one error type), [`parallel`] (serial or a rayon pool),
//! and two small private helpers (`cpu`, `smallmap`).

pub mod analysis;
mod cpu;
pub mod error;
pub mod family;
pub mod metaeval;
pub mod metrics;
pub mod parallel;
pub mod segmentation;
mod smallmap;
#[cfg(test)]
mod testing;
pub mod text;

pub use error::CoreError;
pub use metrics::bleu::config::BleuConfig;
pub use metrics::bleu::pairwise::BleuPairwise;
pub use metrics::bleu::stats::BleuReferences;
pub use parallel::Exec;
pub use text::tokenize::Tokenizer;
