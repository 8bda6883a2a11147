//! What decides how text becomes tokens and statistics, and the preprocessing itself.

use crate::error::CoreError;
use crate::text;
use crate::tok13a::{self, Scratch};
use crate::tokenize::Tokenizer;

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

/// The tokens of a line from [`BleuConfig::preprocess_into`] or [`BleuConfig::preprocess`].
pub fn tokens(preprocessed: &str) -> Tokens<'_> {
    Tokens {
        text: preprocessed,
        pos: 0,
    }
}

/// Iterator over space-separated tokens, scanning eight bytes at a time.
pub struct Tokens<'a> {
    text: &'a str,
    pos: usize,
}

const HIGH_BITS: u64 = 0x8080_8080_8080_8080;

/// The high bit of each byte of `chunk` that is an ASCII space, and no other bit (exact: no
/// carry crosses a byte).
#[inline]
fn space_bytes(chunk: u64) -> u64 {
    const LOW: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    let x = chunk ^ 0x2020_2020_2020_2020;
    !(((x & LOW) + LOW) | x | LOW)
}

/// The first position from `from` whose byte is (`space`) or is not an ASCII space, or the end.
#[inline]
fn find_space(bytes: &[u8], from: usize, space: bool) -> usize {
    let mut i = from;
    while let Some(chunk) = bytes.get(i..i + 8) {
        let spaces = space_bytes(u64::from_le_bytes(chunk.try_into().expect("eight bytes")));
        let hits = if space { spaces } else { !spaces & HIGH_BITS };
        if hits != 0 {
            return i + (hits.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while i < bytes.len() && (bytes[i] == b' ') != space {
        i += 1;
    }
    i
}

impl<'a> Iterator for Tokens<'a> {
    type Item = &'a str;

    #[inline]
    fn next(&mut self) -> Option<&'a str> {
        let bytes = self.text.as_bytes();
        let start = find_space(bytes, self.pos, false);
        if start == bytes.len() {
            self.pos = start;
            return None;
        }
        let end = find_space(bytes, start + 1, true);
        self.pos = end;
        // Both ends are next to an ASCII space or the end: character boundaries.
        Some(&self.text[start..end])
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
    fn tokens_are_what_splitting_on_spaces_gives() {
        let mut rng = crate::testing::Rng(0x5851_F42D_4C95_7F2D);
        let pieces = [
            " ", "  ", "a", "bc", "défg", "\u{a0}", "12345678", "\t", "中",
        ];
        for _ in 0..5000 {
            let n = rng.below(40);
            let line: String = (0..n).map(|_| pieces[rng.below(pieces.len())]).collect();
            let expected: Vec<&str> = line.split(' ').filter(|w| !w.is_empty()).collect();
            assert_eq!(tokens(&line).collect::<Vec<_>>(), expected, "{line:?}");
        }
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
