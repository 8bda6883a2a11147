//! Integer tokens (token ids) as words.
//!
//! Token input is scored exactly as if each distinct token were a word: every word
//! tokenizer of the core (all but `char`) leaves a run of ASCII digits and lowercase
//! letters whole and unchanged, so an id written as one ("17", "n5" for -5) is one word, equal to
//! another word exactly when the ids are equal. Writing the words here keeps the
//! per-token work of a batch of ids out of Python.

use crate::parallel::{self, Exec};

/// A batch of token-id segments: segment `i` is `ids[bounds[i]..bounds[i + 1]]`. The bounds are
/// offsets into `ids`; a part of a batch keeps `ids` whole and takes a window of `bounds`.
#[derive(Debug, Clone, Copy)]
pub struct IdBatch<'a> {
    /// Every segment's ids, one after another.
    pub ids: &'a [i64],
    /// `len() + 1` offsets, never decreasing, within `ids`.
    pub bounds: &'a [usize],
}

impl<'a> IdBatch<'a> {
    /// The batch of `ids` cut at `bounds`, or `None` when the bounds do not cut it (they
    /// must start at 0, never decrease and end at `ids.len()`).
    pub fn new(ids: &'a [i64], bounds: &'a [usize]) -> Option<Self> {
        let valid = bounds.first() == Some(&0)
            && bounds.last() == Some(&ids.len())
            && bounds.windows(2).all(|w| w[0] <= w[1]);
        valid.then_some(IdBatch { ids, bounds })
    }

    /// Number of segments.
    pub fn len(&self) -> usize {
        self.bounds.len().saturating_sub(1)
    }

    /// Whether there are no segments.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Segment `i`'s ids.
    pub fn segment(&self, i: usize) -> &'a [i64] {
        &self.ids[self.bounds[i]..self.bounds[i + 1]]
    }

    /// Segments `range` as a batch of their own.
    pub fn part(&self, range: std::ops::Range<usize>) -> IdBatch<'a> {
        IdBatch {
            ids: self.ids,
            bounds: &self.bounds[range.start..=range.end],
        }
    }
}

/// Appends the word of `id`: its decimal digits, after an `n` when it is negative.
pub fn write_id(id: i64, out: &mut String) {
    if id < 0 {
        out.push('n');
    }
    // By hand: `write!` costs several times more, and a batch writes millions of ids.
    let mut digits = [0u8; 20];
    let mut value = id.unsigned_abs();
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (value % 10) as u8;
        value /= 10;
        if value == 0 {
            break;
        }
    }
    out.extend(digits[at..].iter().map(|&d| char::from(d)));
}

/// The line of each segment of a flat batch: segment `i` is
/// `ids[bounds[i]..bounds[i + 1]]`, written as words joined by single spaces.
///
/// `bounds` must start at 0, never decrease and end at `ids.len()`; `None` otherwise.
pub fn id_lines(ids: &[i64], bounds: &[usize], exec: Exec) -> Option<Vec<String>> {
    let batch = IdBatch::new(ids, bounds)?;
    let segments: Vec<&[i64]> = (0..batch.len()).map(|i| batch.segment(i)).collect();
    Some(parallel::map(
        exec,
        &segments,
        || (),
        |_, segment| {
            let mut line = String::with_capacity(segment.len() * 6);
            for (k, &id) in segment.iter().enumerate() {
                if k > 0 {
                    line.push(' ');
                }
                write_id(id, &mut line);
            }
            line
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::split;
    use crate::{BleuConfig, Tokenizer};

    #[test]
    fn ids_become_distinct_words() {
        let lines = id_lines(
            &[3, -3, 0, i64::MIN, i64::MAX, 7],
            &[0, 5, 5, 6],
            Exec::Serial,
        )
        .unwrap();
        assert_eq!(
            lines,
            vec![
                "3 n3 0 n9223372036854775808 9223372036854775807".to_string(),
                String::new(),
                "7".to_string(),
            ]
        );
    }

    #[test]
    fn bad_bounds_are_refused() {
        assert!(id_lines(&[1, 2], &[0, 1], Exec::Serial).is_none());
        assert!(id_lines(&[1, 2], &[1, 2], Exec::Serial).is_none());
        assert!(id_lines(&[1, 2], &[0, 2, 1, 2], Exec::Serial).is_none());
        assert!(id_lines(&[], &[], Exec::Serial).is_none());
        assert_eq!(id_lines(&[], &[0], Exec::Parallel), Some(vec![]));
    }

    #[test]
    fn every_tokenizer_keeps_the_words_whole() {
        let line = &id_lines(&[12, -4, 0, 99, -100], &[0, 5], Exec::Serial).unwrap()[0];
        for name in Tokenizer::NAMES.into_iter().filter(|&n| n != "char") {
            for lowercase in [false, true] {
                let config = BleuConfig::new(name.parse().unwrap(), lowercase, 4).unwrap();
                let tokenized = &config.tokenize_lines(&[line.as_str()])[0];
                assert_eq!(
                    split(tokenized).collect::<Vec<_>>(),
                    split(line).collect::<Vec<_>>(),
                    "{name}"
                );
            }
        }
    }
}
