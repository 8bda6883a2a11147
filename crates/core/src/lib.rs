//! understudy's core: text to BLEU sufficient statistics, with no I/O and no Python.
//!
//! Every function here reproduces sacrebleu 2.6.0's preprocessing exactly: Python's
//! notion of whitespace and lowercasing ([`text`]), the tokenizers ([`tokenize`]) and
//! the clipped n-gram counts per segment ([`stats`]).

pub mod error;
pub mod stats;
pub mod text;
pub mod tokenize;
#[rustfmt::skip]
mod unicode_tables;

pub use error::CoreError;
pub use stats::{Config, References};
pub use tokenize::Tokenizer;
