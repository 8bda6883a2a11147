//! Python's string semantics, as sacrebleu relies on them.
//!
//! `str.split()`, `str.rstrip()` and `str.strip()` treat more characters as whitespace
//! than Rust's `char::is_whitespace` (U+001C..U+001F among them), and `str.lower()`
//! follows CPython's Unicode tables, not Rust's. The tables in `unicode_tables` are
//! generated from CPython 3.11 and the `regex` module, so behaviour never drifts.

use std::borrow::Cow;

use crate::text::unicode_tables::{
    CASED, CASE_IGNORABLE, LOWERCASE, NUMBER, PUNCTUATION, SYMBOL, WHITESPACE,
};

fn in_ranges(table: &[(u32, u32)], c: char) -> bool {
    let cp = c as u32;
    table
        .binary_search_by(|&(lo, hi)| {
            if hi < cp {
                std::cmp::Ordering::Less
            } else if lo > cp {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

/// Python's `str.isspace()` for one character.
#[inline]
pub fn is_space(c: char) -> bool {
    if c.is_ascii() {
        matches!(c, '\t'..='\r' | '\x1c'..='\x1f' | ' ')
    } else {
        in_ranges(WHITESPACE, c)
    }
}

/// `regex`'s `\p{P}` (punctuation).
#[inline]
pub fn is_punctuation(c: char) -> bool {
    if c.is_ascii() {
        // ASCII punctuation minus the symbols $+<=>^`|~ (those are \p{S}).
        matches!(c, '!'..='#' | '%'..='*' | ','..='/' | ':' | ';' | '?' | '@' | '['..=']' | '_' | '{' | '}')
    } else {
        in_ranges(PUNCTUATION, c)
    }
}

/// `regex`'s `\p{S}` (symbols).
#[inline]
pub fn is_symbol(c: char) -> bool {
    if c.is_ascii() {
        matches!(c, '$' | '+' | '<' | '=' | '>' | '^' | '`' | '|' | '~')
    } else {
        in_ranges(SYMBOL, c)
    }
}

/// `regex`'s `\p{N}` (numbers of any kind, not only ASCII digits).
#[inline]
pub fn is_number(c: char) -> bool {
    if c.is_ascii() {
        c.is_ascii_digit()
    } else {
        in_ranges(NUMBER, c)
    }
}

/// The class `[\{-\~\[-\` -\&\(-\+\:-\@\/]` of sacrebleu's `TokenizerRegexp`:
/// ASCII punctuation except `'`, `,`, `-` and `.` (and the space itself). Tercom pads the same
/// set, its "Western" punctuation, when TER normalizes: one set, one function.
pub fn is_13a_punct(c: char) -> bool {
    matches!(c, '{'..='~' | '['..='`' | ' '..='&' | '('..='+' | ':'..='@' | '/')
}

/// The tokens of `s` as Python's `s.split()` gives them.
pub fn split(s: &str) -> impl Iterator<Item = &str> {
    s.split(is_space).filter(|t| !t.is_empty())
}

/// Python's `s.rstrip()`.
pub fn rstrip(s: &str) -> &str {
    let mut end = s.len();
    // Bytes from the end: ASCII decided at once, other characters decoded.
    while let Some(&last) = s.as_bytes()[..end].last() {
        let width = if last.is_ascii() {
            1
        } else {
            let c = s[..end].chars().next_back().expect("a character ends here");
            if !is_space(c) {
                break;
            }
            c.len_utf8()
        };
        if width == 1 && !is_space(last as char) {
            break;
        }
        end -= width;
    }
    &s[..end]
}

/// Python's `s.strip()`.
pub fn strip(s: &str) -> &str {
    s.trim_matches(is_space)
}

/// Python's `" ".join(s.split())`.
pub fn collapse_whitespace(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for tok in split(s) {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(tok);
    }
    out
}

fn lower_char(c: char) -> Option<char> {
    let cp = c as u32;
    LOWERCASE
        .binary_search_by_key(&cp, |&(from, _)| from)
        .ok()
        .and_then(|i| char::from_u32(LOWERCASE[i].1))
}

/// CPython's final-sigma rule for the capital sigma at byte offset `i` of `s`:
/// preceded by a cased letter and not followed by one, skipping case-ignorables.
fn is_final_sigma(s: &str, i: usize) -> bool {
    let before = s[..i]
        .chars()
        .rev()
        .find(|&c| !in_ranges(CASE_IGNORABLE, c));
    if !before.is_some_and(|c| in_ranges(CASED, c)) {
        return false;
    }
    let after = s[i + 'Σ'.len_utf8()..]
        .chars()
        .find(|&c| !in_ranges(CASE_IGNORABLE, c));
    !after.is_some_and(|c| in_ranges(CASED, c))
}

/// Python's `s.lower()`, full Unicode semantics included (final sigma, U+0130).
pub fn lower(s: &str) -> Cow<'_, str> {
    if s.is_ascii() {
        if s.bytes().any(|b| b.is_ascii_uppercase()) {
            return Cow::Owned(s.to_ascii_lowercase());
        }
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    for (i, c) in s.char_indices() {
        match c {
            'Σ' => out.push(if is_final_sigma(s, i) { 'ς' } else { 'σ' }),
            '\u{130}' => out.push_str("i\u{307}"),
            _ => out.push(lower_char(c).unwrap_or(c)),
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_13a_class_is_ascii_punctuation_but_four_and_the_space() {
        let chosen: String = (' '..='~').filter(|&c| is_13a_punct(c)).collect();
        let expected: String = (' '..='~')
            .filter(|&c| c == ' ' || (c.is_ascii_punctuation() && !"',-.".contains(c)))
            .collect();
        assert_eq!(chosen, expected);
        assert!(!is_13a_punct('\u{201c}') && !is_13a_punct('a') && !is_13a_punct('7'));
    }

    #[test]
    fn split_uses_python_whitespace() {
        let s = "a\u{1c}b\u{a0}c\u{2028}d\u{200b}e";
        // U+200B (zero width space) is not whitespace for Python.
        assert_eq!(split(s).collect::<Vec<_>>(), ["a", "b", "c", "d\u{200b}e"]);
    }

    #[test]
    fn strips_python_whitespace() {
        assert_eq!(rstrip("  x \u{1f}\u{3000}\r"), "  x");
        assert_eq!(rstrip("é\u{a0}é \u{85}"), "é\u{a0}é");
        assert_eq!(rstrip(" \u{2028} "), "");
        assert_eq!(rstrip("x\u{200b}"), "x\u{200b}");
        assert_eq!(strip("\u{85} x \u{a0}"), "x");
    }

    #[test]
    fn lower_matches_python_examples() {
        assert_eq!(lower("ABC def"), "abc def");
        assert_eq!(lower("İ"), "i\u{307}");
        assert_eq!(lower("ΟΔΟΣ"), "\u{3bf}\u{3b4}\u{3bf}\u{3c2}");
        assert_eq!(lower("ΣΑΣ ΣΑ"), "σας σα");
        assert_eq!(lower("Σ"), "σ");
        assert_eq!(lower("AΣ'"), "aς'");
    }

    #[test]
    fn unicode_classes() {
        assert!(is_punctuation('.') && is_punctuation('«') && !is_punctuation('$'));
        assert!(is_symbol('€') && is_symbol('+') && !is_symbol('a'));
        assert!(is_number('٣') && is_number('½') && !is_number('x'));
    }
}
