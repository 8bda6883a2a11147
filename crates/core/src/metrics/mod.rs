//! One module per metric family: each holds its configuration, its statistics row and its
//! [`crate::family::Family`] implementation. BLEU, the first, is a room of its own ([`bleu`]).

pub mod bleu;
pub mod chrf;
pub mod gleu;
pub mod nist;
pub mod ter;
pub mod wer;
