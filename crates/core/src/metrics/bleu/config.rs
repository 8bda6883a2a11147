//! What decides how text becomes tokens and statistics, and the preprocessing itself.

use crate::error::CoreError;
use crate::text;
use crate::text::tok13a::{self, Scratch};
use crate::text::tokenize::Tokenizer;
use crate::text::words::tokens;

/// Everything that decides how text becomes statistics.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BleuConfig {
    pub tokenizer: Tokenizer,
    pub lowercase: bool,
    pub max_order: usize,
}

impl BleuConfig {
    /// A configuration, checking that the maximum order is at least 1.
    pub fn new(tokenizer: Tokenizer, lowercase: bool, max_order: usize) -> Result<Self, CoreError> {
        if max_order == 0 {
            return Err(CoreError::InvalidOrder(max_order));
        }
        Ok(BleuConfig {
            tokenizer,
            lowercase,
            max_order,
        })
    }

    /// sacrebleu's `_preprocess_segment`: lowercase (optionally), right-strip, tokenize.
    /// The reference path, one allocation per pass; see [`BleuConfig::preprocess_into`].
    pub fn preprocess(&self, line: &str) -> String {
        if self.lowercase {
            self.tokenizer.apply(text::rstrip(&text::lower(line)))
        } else {
            self.tokenizer.apply(text::rstrip(line))
        }
    }

    /// [`BleuConfig::preprocess`] into reusable buffers: the same tokens, separated by one
    /// or more ASCII spaces (split them with [`tokens`]).
    pub fn preprocess_into<'s>(&self, line: &str, scratch: &'s mut Scratch) -> &'s str {
        let lowered = if self.lowercase {
            text::lower(line)
        } else {
            line.into()
        };
        let line = text::rstrip(&lowered);
        match self.tokenizer {
            Tokenizer::Tok13a => tok13a::tokenize_into(line, scratch),
            other => scratch.out = other.apply(line),
        }
        &scratch.out
    }

    /// Each line's tokens as BLEU sees them, joined by single spaces.
    pub fn tokenize_lines(&self, lines: &[&str]) -> Vec<String> {
        let mut scratch = Scratch::default();
        lines
            .iter()
            .map(|l| {
                tokens(self.preprocess_into(l, &mut scratch))
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect()
    }

    /// Number of columns of a statistics row.
    pub fn row_width(&self) -> usize {
        2 + 2 * self.max_order
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_order_is_rejected() {
        assert_eq!(
            BleuConfig::new(Tokenizer::Tok13a, false, 0),
            Err(CoreError::InvalidOrder(0))
        );
    }

    #[test]
    fn fast_and_reference_preprocessing_agree() {
        let mut scratch = Scratch::default();
        for name in Tokenizer::NAMES {
            for lowercase in [false, true] {
                let cfg = BleuConfig::new(name.parse().unwrap(), lowercase, 4).unwrap();
                for line in ["Hello, World. 3-4 \u{a0}", "ΟΔΟΣ &amp; İ 中文", "", "  "] {
                    let slow = cfg.preprocess(line);
                    let fast: Vec<&str> = tokens(cfg.preprocess_into(line, &mut scratch)).collect();
                    assert_eq!(fast.join(" "), slow);
                }
            }
        }
    }
}
