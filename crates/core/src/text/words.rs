//! Space-separated words, found eight and sixty-four bytes at a time: what BLEU, GLEU,
//! NIST and the analyses split a preprocessed line into.

/// The tokens of a line from [`BleuConfig::preprocess_into`](crate::BleuConfig::preprocess_into) or [`BleuConfig::preprocess`](crate::BleuConfig::preprocess).
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

/// One bit per byte of `block` that is an ASCII space: eight bytes at a time, their
/// [`space_bytes`] gathered into one byte by a multiplication (each flag, at bit `8j`, lands on
/// bit `56 + j` and no two products carry into each other).
#[inline]
fn space_mask(block: &[u8; 64]) -> u64 {
    const GATHER: u64 = 0x0102_0408_1020_4080;
    let mut mask = 0u64;
    for (k, chunk) in block.chunks_exact(8).enumerate() {
        let flags = space_bytes(u64::from_le_bytes(chunk.try_into().expect("eight bytes"))) >> 7;
        mask |= (flags.wrapping_mul(GATHER) >> 56) << (8 * k);
    }
    mask
}

/// `f(start, end)` for each space-separated token `text[start..end]`, in order: what
/// [`tokens`] yields, found 64 bytes at a time (word starts and ends are the bits where the
/// space mask changes), with no branch per byte.
pub fn token_spans(text: &str, mut f: impl FnMut(usize, usize)) {
    let bytes = text.as_bytes();
    // Whether the byte before the block is a space (before the text: as if it were).
    let (mut space_before, mut open) = (1u64, 0usize);
    for base in (0..bytes.len()).step_by(64) {
        let mask = match bytes.get(base..base + 64) {
            Some(block) => space_mask(block.try_into().expect("64 bytes")),
            None => {
                // The last block, padded with spaces (which end its last token).
                let mut padded = [b' '; 64];
                padded[..bytes.len() - base].copy_from_slice(&bytes[base..]);
                space_mask(&padded)
            }
        };
        let previous = (mask << 1) | space_before;
        let (mut starts, mut ends) = (!mask & previous, mask & !previous);
        space_before = mask >> 63;
        while starts | ends != 0 {
            // Starts and ends alternate: take whichever comes first.
            if ends == 0 || (starts != 0 && starts.trailing_zeros() < ends.trailing_zeros()) {
                open = base + starts.trailing_zeros() as usize;
                starts &= starts - 1;
            } else {
                f(open, base + ends.trailing_zeros() as usize);
                ends &= ends - 1;
            }
        }
    }
    if space_before == 0 {
        f(open, bytes.len());
    }
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
    fn tokens_are_what_splitting_on_spaces_gives() {
        let mut rng = crate::testing::Rng(0x5851_F42D_4C95_7F2D);
        let pieces = [
            " ",
            "  ",
            "a",
            "bc",
            "défg",
            "\u{a0}",
            "12345678",
            "\t",
            "中",
            "a-word-longer-than-one-block-of-sixty-four-bytes-so-it-spans-two-of-them",
        ];
        for _ in 0..5000 {
            let n = rng.below(60);
            let line: String = (0..n).map(|_| pieces[rng.below(pieces.len())]).collect();
            let expected: Vec<&str> = line.split(' ').filter(|w| !w.is_empty()).collect();
            assert_eq!(tokens(&line).collect::<Vec<_>>(), expected, "{line:?}");
            let mut spans = Vec::new();
            token_spans(&line, |start, end| spans.push(&line[start..end]));
            assert_eq!(spans, expected, "{line:?}");
        }
    }
}
