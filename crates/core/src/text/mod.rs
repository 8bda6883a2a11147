//! Text to tokens, exactly as sacrebleu 2.6.0 turns it: Python's whitespace and lowercasing
//! ([`python`], from CPython's tables in `unicode_tables`), the tokenizers ([`tokenize`], with
//! the byte-level hot path of `13a` in [`tok13a`]), Unicode normalisation ([`normalize`]),
//! space-separated words ([`words`]) and words as integer ids ([`token_ids`]).

pub mod normalize;
mod python;
pub mod tok13a;
pub mod token_ids;
pub mod tokenize;
#[rustfmt::skip]
mod unicode_tables;
pub mod words;

pub use python::*;
