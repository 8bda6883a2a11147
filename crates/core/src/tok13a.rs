//! The `13a` tokenizer on bytes: the hot path of scoring.
//!
//! [`crate::tokenize::Tokenizer::apply`] is the reference: one pass per `re.sub` of
//! sacrebleu, on `char`s, easy to check against the regular expressions. This module
//! produces the same string with reusable buffers and byte scans. Every class the
//! passes test (ASCII punctuation, ASCII digits, `.`, `,`, `-`) is ASCII, and the bytes
//! of a multi-byte character are never ASCII, so a byte scan makes the same decisions
//! as a character scan and only ever inserts spaces between characters. The unit tests
//! compare both on random strings; the Python tests compare both with sacrebleu.

use memchr::{memchr, memchr2, memchr2_iter, memchr3, memchr_iter};

use crate::text;
use crate::tokenize::mteval_replacements;

/// Reusable buffers for tokenizing many lines without allocating per line.
#[derive(Debug, Default)]
pub struct Scratch {
    a: Vec<u8>,
    b: Vec<u8>,
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
fn pad_punctuation(s: &str, dst: &mut Vec<u8>) {
    let src = s.as_bytes();
    dst.clear();
    dst.reserve(src.len() + src.len() / 2 + 2);
    dst.push(b' ');
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
            dst.extend_from_slice(&src[run..i]);
            dst.extend_from_slice(&[b' ', b, b' ']);
            i += 1;
            run = i;
        } else if class == Class::Space {
            dst.extend_from_slice(&src[run..i]);
            dst.push(b' ');
            i += 1;
            run = i;
        } else {
            // A lead byte that may start a whitespace character: a character boundary.
            let c = s[i..].chars().next().expect("a character starts here");
            if text::is_space(c) {
                dst.extend_from_slice(&src[run..i]);
                dst.push(b' ');
                i += c.len_utf8();
                run = i;
            } else {
                i += 1;
            }
        }
    }
    dst.extend_from_slice(&src[run..]);
    dst.push(b' ');
}

/// `re.sub(r'([^0-9])([\.,])', r'\1 \2 ', s)`. A match pairs the byte before each `.`
/// or `,` with it, unless that byte was the second half of the previous match.
fn split_after_period(src: &[u8], dst: &mut Vec<u8>) {
    dst.clear();
    let mut done = 0;
    for j in memchr2_iter(b'.', b',', src) {
        if j >= 1 && j > done && !src[j - 1].is_ascii_digit() {
            dst.extend_from_slice(&src[done..j]);
            dst.extend_from_slice(&[b' ', src[j], b' ']);
            done = j + 1;
        }
    }
    dst.extend_from_slice(&src[done..]);
}

/// `re.sub(r'([\.,])([^0-9])', r' \1 \2', s)`: each `.` or `,` not already consumed,
/// paired with the byte after it.
fn split_before_period(src: &[u8], dst: &mut Vec<u8>) {
    dst.clear();
    let mut done = 0;
    for i in memchr2_iter(b'.', b',', src) {
        if i >= done && i + 1 < src.len() && !src[i + 1].is_ascii_digit() {
            dst.extend_from_slice(&src[done..i]);
            dst.extend_from_slice(&[b' ', src[i], b' ', src[i + 1]]);
            done = i + 2;
        }
    }
    dst.extend_from_slice(&src[done..]);
}

/// `re.sub(r'([0-9])(-)', r'\1 \2 ', s)`
fn split_digit_dash(src: &[u8], dst: &mut Vec<u8>) {
    dst.clear();
    let mut done = 0;
    for j in memchr_iter(b'-', src) {
        if j >= 1 && j > done && src[j - 1].is_ascii_digit() {
            dst.extend_from_slice(&src[done..j]);
            dst.extend_from_slice(b" - ");
            done = j + 1;
        }
    }
    dst.extend_from_slice(&src[done..]);
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
    let Scratch { a, b, out } = scratch;
    pad_punctuation(replaced.as_deref().unwrap_or(line), a);
    if memchr2(b'.', b',', a).is_some() {
        split_after_period(a, b);
        split_before_period(b, a);
    }
    if memchr(b'-', a).is_some() {
        split_digit_dash(a, b);
        std::mem::swap(a, b);
    }
    // Every whitespace character is an ASCII space by now; the buffer becomes the
    // output without a copy, and its old buffer the next line's `a`.
    let mut bytes = std::mem::take(out).into_bytes();
    std::mem::swap(&mut bytes, a);
    *out = String::from_utf8(bytes).expect("spaces are only inserted between characters");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::tokens;
    use crate::testing::Rng;
    use crate::tokenize::Tokenizer;

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
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        for _ in 0..20_000 {
            let len = (rng.next() % 12) as usize;
            let s: String = (0..len)
                .map(|_| alphabet[(rng.next() % alphabet.len() as u64) as usize])
                .collect();
            let s = text::rstrip(&s);
            assert_eq!(fast(s), Tokenizer::Tok13a.apply(s), "input {s:?}");
        }
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
