//! The `13a` tokenizer on bytes: the hot path of scoring.
//!
//! [`crate::text::tokenize::Tokenizer::apply`] is the reference: one pass per `re.sub` of
//! sacrebleu, on `char`s, easy to check against the regular expressions. This module
//! produces the same string with reusable buffers and byte scans. Every class the
//! passes test (ASCII punctuation, ASCII digits, `.`, `,`, `-`) is ASCII, and the bytes
//! of a multi-byte character are never ASCII, so a byte scan makes the same decisions
//! as a character scan and only ever inserts spaces between characters. The unit tests
//! compare both on random strings; the Python tests compare both with sacrebleu.

use memchr::{memchr3, memchr3_iter};

use crate::text;
use crate::text::tokenize::mteval_replacements;

/// Reusable buffers for tokenizing many lines without allocating per line.
#[derive(Debug, Default)]
pub struct Scratch {
    /// The line with its punctuation padded, before the period and dash passes.
    padded: String,
    /// The last tokenized line: its tokens separated by one or more ASCII spaces.
    pub out: String,
}

/// How the first pass treats a byte.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Class {
    Plain,
    /// `[\{-\~\[-\` -\&\(-\+\:-\@\/]`: ASCII punctuation except ' , - and .
    Punct,
    /// ASCII whitespace other than the space, as Python's `str.split()` knows it.
    Space,
    /// The first byte of a character that may be non-ASCII whitespace
    /// (U+0085, U+00A0, U+1680, U+2000..U+200A, U+2028, U+2029, U+202F, U+205F, U+3000).
    MaybeSpace,
}

const fn class_table() -> [Class; 256] {
    let mut t = [Class::Plain; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        t[b] = match c {
            // The space itself stays as it is: only other whitespace is rewritten.
            b'\t'..=b'\r' | 0x1c..=0x1f => Class::Space,
            b'{'..=b'~' | b'['..=b'`' | b'!'..=b'&' | b'('..=b'+' | b':'..=b'@' | b'/' => {
                Class::Punct
            }
            0xc2 | 0xe1 | 0xe2 | 0xe3 => Class::MaybeSpace,
            _ => Class::Plain,
        };
        b += 1;
    }
    t
}

static CLASS: [Class; 256] = class_table();

/// `" " + re.sub(PUNCT, r' \1 ', s) + " "`, with every whitespace character written
/// as one ASCII space (whitespace is neither a digit nor `.`, `,` or `-`, so no later
/// pass decides differently, and the final split removes it either way).
fn pad_punctuation(s: &str, dst: &mut String) {
    let src = s.as_bytes();
    dst.clear();
    dst.reserve(src.len() + src.len() / 2 + 2);
    dst.push(' ');
    // `run..i` is a stretch of characters copied as they are; both are character boundaries
    // (`i` stops at ASCII bytes and lead bytes only).
    let (mut run, mut i) = (0, 0);
    loop {
        // Most bytes are plain: skip them in a tight loop, copy them in one go.
        while i < src.len() && CLASS[src[i] as usize] == Class::Plain {
            i += 1;
        }
        if i == src.len() {
            break;
        }
        let b = src[i];
        // Tests in order of frequency, not a `match` (a jump table that mispredicts).
        let class = CLASS[b as usize];
        if class == Class::Punct {
            dst.push_str(&s[run..i]);
            dst.push(' ');
            dst.push(char::from(b));
            dst.push(' ');
            i += 1;
            run = i;
        } else if class == Class::Space {
            dst.push_str(&s[run..i]);
            dst.push(' ');
            i += 1;
            run = i;
        } else {
            // A lead byte that may start a whitespace character: a character boundary.
            let c = s[i..].chars().next().expect("a character starts here");
            if text::is_space(c) {
                dst.push_str(&s[run..i]);
                dst.push(' ');
                i += c.len_utf8();
                run = i;
            } else {
                i += 1;
            }
        }
    }
    dst.push_str(&s[run..]);
    dst.push(' ');
}

/// sacrebleu's last three passes in one scan of the padded line `a`:
/// `re.sub(r'([^0-9])([\.,])', r'\1 \2 ', s)` (A), then `re.sub(r'([\.,])([^0-9])', r' \1 \2', s)`
/// (B), then `re.sub(r'([0-9])(-)', r'\1 \2 ', s)`. Each only puts spaces around a `.`, `,` or
/// `-`, so the tokens are those of `a` with every such character that some pass splits off
/// written with a space on each side. Which ones, from `a` alone:
/// - B splits a `.` or `,` followed by a non-digit. In A's output the character after one
///   is what followed it in `a`, or a space A put there; A splits off exactly one of two
///   adjacent periods (the second's left neighbour is the first, which A consumed if it
///   matched), so a space always stands between them, and no period is the character a B
///   match consumes.
/// - A splits a `.` or `,` after a non-digit, unless that character is a period A split
///   (its match consumed it).
/// - The dash pass splits a `-` after a digit: the passes before never put a space between
///   a digit and a dash, and its matches never overlap (a dash is not a digit).
fn split_periods_and_dashes(a: &str, out: &mut String) {
    let bytes = a.as_bytes();
    out.clear();
    let (mut written, mut split_by_a) = (0, usize::MAX);
    for p in memchr3_iter(b'.', b',', b'-', bytes) {
        let after_digit = p >= 1 && bytes[p - 1].is_ascii_digit();
        let split = if bytes[p] == b'-' {
            after_digit
        } else {
            let by_a = p >= 1 && !after_digit && split_by_a.wrapping_add(1) != p;
            if by_a {
                split_by_a = p;
            }
            by_a || bytes.get(p + 1).is_some_and(|b| !b.is_ascii_digit())
        };
        if split {
            out.push_str(&a[written..p]);
            out.push(' ');
            out.push(char::from(bytes[p]));
            out.push(' ');
            written = p + 1;
        }
    }
    out.push_str(&a[written..]);
}

/// mteval-v13a's replacements, applied only to the rare lines that contain one of
/// their trigger characters.
fn replacements(line: &str) -> Option<String> {
    memchr3(b'<', b'\n', b'&', line.as_bytes())
        .is_some()
        .then(|| mteval_replacements(line))
}

/// Tokenize one line (already lowercased and right-stripped) as `13a`, into
/// `scratch.out`: the tokens, separated by one or more ASCII spaces.
pub fn tokenize_into(line: &str, scratch: &mut Scratch) {
    let replaced = replacements(line);
    pad_punctuation(replaced.as_deref().unwrap_or(line), &mut scratch.padded);
    split_periods_and_dashes(&scratch.padded, &mut scratch.out);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::Rng;
    use crate::text::tokenize::Tokenizer;
    use crate::text::words::tokens;

    fn fast(s: &str) -> String {
        let mut scratch = Scratch::default();
        tokenize_into(s, &mut scratch);
        tokens(&scratch.out).collect::<Vec<_>>().join(" ")
    }

    #[test]
    fn fast_path_equals_reference_on_random_strings() {
        // Characters chosen to exercise every pass: digits, . , - punctuation,
        // entities, multi-byte letters and Python-only whitespace.
        let alphabet: Vec<&str> = vec![
            "a",
            "Z",
            "0",
            "7",
            ".",
            ",",
            "-",
            "'",
            "&",
            "&amp;",
            "&lt;",
            "&quot;",
            "<skipped>",
            "\n",
            "-\n",
            " ",
            "\t",
            "\u{a0}",
            "\u{1c}",
            "\u{2028}",
            "é",
            "ß",
            "中",
            "€",
            "$",
            "(",
            ")",
            "/",
            ":",
            "@",
            "{",
            "~",
            "`",
            "\u{85}",
            "😀",
            "\r",
        ];
        agree_on_strings_of(&alphabet, 12, 20_000, Rng(0x9E37_79B9_7F4A_7C15));
    }

    /// The fast path equals the reference on `cases` random strings of up to `max_len - 1`
    /// pieces of `alphabet`.
    fn agree_on_strings_of(alphabet: &[&str], max_len: u64, cases: usize, mut rng: Rng) {
        for _ in 0..cases {
            let len = (rng.next() % max_len) as usize;
            let s: String = (0..len)
                .map(|_| alphabet[(rng.next() % alphabet.len() as u64) as usize])
                .collect();
            let s = text::rstrip(&s);
            assert_eq!(fast(s), Tokenizer::Tok13a.apply(s), "input {s:?}");
        }
    }

    #[test]
    fn periods_commas_dashes_and_digits_in_every_arrangement() {
        // Few characters, long lines: every neighbourhood of the period and dash passes.
        let alphabet = ["0", "9", "a", ".", ",", "-", " ", "é", "(", "'"];
        agree_on_strings_of(&alphabet, 16, 50_000, Rng(0xD1B5_4A32_D192_ED03));
    }

    #[test]
    fn known_cases() {
        assert_eq!(fast("3,000,000."), "3,000,000 .");
        assert_eq!(fast("U.S.A."), "U . S . A .");
        assert_eq!(fast("x-ray 5-6"), "x-ray 5 - 6");
        assert_eq!(fast("é.,ü"), "é . , ü");
        assert_eq!(fast(""), "");
    }
}
