//! The tokenizers, each reproducing one sacrebleu 2.6.0 tokenizer to the character.
//!
//! sacrebleu implements them as a sequence of `re.sub` passes. Every pass here is a
//! left-to-right scan with the same non-overlapping match semantics, so chains such as
//! `a..b` come out exactly as Python's `re` leaves them.

use std::str::FromStr;

use crate::error::CoreError;
use crate::text;

/// A tokenizer, named as in sacrebleu's signatures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Tokenizer {
    /// `none`: only the whitespace split.
    None,
    /// `13a`: mteval-v13a's normalisation (sacrebleu's default).
    Tok13a,
    /// `intl`: mteval-v14's international tokenization, as sacrebleu has it.
    Intl,
    /// `zh`: sacrebleu's Chinese tokenizer, range bug included (sacrebleu issue 298).
    Zh,
    /// `zh-fixed`: `zh` with the CJK Extension B and Compatibility Supplement ranges
    /// that sacrebleu meant, and without the accidental U+2001..U+2A6D range.
    ZhFixed,
    /// `char`: every non-whitespace character is a token.
    Char,
    /// `cjk`: every CJK character a token (Han, kana, Hangul, CJK punctuation and full-width
    /// forms, [`is_cjk_wide`]), the rest as `13a` tokenizes it (sacrebleu issue 171).
    Cjk,
}

impl Tokenizer {
    /// Every tokenizer name, in the order they are documented.
    pub const NAMES: [&'static str; 7] = ["13a", "intl", "zh", "zh-fixed", "cjk", "char", "none"];

    /// The name used on the command line and in signatures.
    pub fn name(self) -> &'static str {
        match self {
            Tokenizer::None => "none",
            Tokenizer::Tok13a => "13a",
            Tokenizer::Intl => "intl",
            Tokenizer::Zh => "zh",
            Tokenizer::ZhFixed => "zh-fixed",
            Tokenizer::Char => "char",
            Tokenizer::Cjk => "cjk",
        }
    }

    /// Tokenize one line (already lowercased and right-stripped) into the string
    /// sacrebleu would produce, with tokens joined by single spaces.
    pub fn apply(self, line: &str) -> String {
        match self {
            Tokenizer::None => text::collapse_whitespace(line),
            Tokenizer::Char => {
                let mut out = String::with_capacity(line.len() * 2);
                for c in line.chars().filter(|&c| !text::is_space(c)) {
                    if !out.is_empty() {
                        out.push(' ');
                    }
                    out.push(c);
                }
                out
            }
            Tokenizer::Tok13a => tokenize_13a(line),
            Tokenizer::Intl => tokenize_intl(line),
            Tokenizer::Zh => tokenize_zh(line, is_cjk_sacrebleu),
            Tokenizer::ZhFixed => tokenize_zh(line, is_cjk_fixed),
            Tokenizer::Cjk => tokenize_cjk(line),
        }
    }
}

impl FromStr for Tokenizer {
    type Err = CoreError;

    fn from_str(name: &str) -> Result<Self, Self::Err> {
        Ok(match name {
            "none" => Tokenizer::None,
            "13a" => Tokenizer::Tok13a,
            "intl" => Tokenizer::Intl,
            "zh" => Tokenizer::Zh,
            "zh-fixed" => Tokenizer::ZhFixed,
            "char" => Tokenizer::Char,
            "cjk" => Tokenizer::Cjk,
            _ => {
                return Err(CoreError::UnknownChoice {
                    option: "tokenizer",
                    value: name.to_string(),
                    known: &Self::NAMES,
                })
            }
        })
    }
}

/// `re.sub(r'(A)(B)', repl, s)` for single-character classes A and B: scan left to
/// right, and where a pair matches, emit it through `emit` and skip both characters.
fn sub_pairs(
    s: &str,
    first: impl Fn(char) -> bool,
    second: impl Fn(char) -> bool,
    emit: impl Fn(&mut String, char, char),
) -> String {
    let mut out = String::with_capacity(s.len() + s.len() / 4 + 8);
    let mut chars = s.chars().peekable();
    while let Some(a) = chars.next() {
        match chars.peek() {
            Some(&b) if first(a) && second(b) => {
                emit(&mut out, a, b);
                chars.next();
            }
            _ => out.push(a),
        }
    }
    out
}

/// `re.sub(r'(A)', r' \1 ', s)` for a single-character class A.
fn pad_each(s: &str, class: impl Fn(char) -> bool) -> String {
    let mut out = String::with_capacity(s.len() + s.len() / 2);
    for c in s.chars() {
        if class(c) {
            out.push(' ');
            out.push(c);
            out.push(' ');
        } else {
            out.push(c);
        }
    }
    out
}

/// `\1 \2 `
fn split_after(out: &mut String, a: char, b: char) {
    out.push(a);
    out.push(' ');
    out.push(b);
    out.push(' ');
}

/// ` \1 \2`
fn split_before(out: &mut String, a: char, b: char) {
    out.push(' ');
    out.push(a);
    out.push(' ');
    out.push(b);
}

fn is_ascii_digit(c: char) -> bool {
    c.is_ascii_digit()
}

fn not_ascii_digit(c: char) -> bool {
    !c.is_ascii_digit()
}

fn is_period_or_comma(c: char) -> bool {
    c == '.' || c == ','
}

/// sacrebleu's `TokenizerRegexp`, the regex part shared by `13a` and `zh`.
fn regexp_passes(line: &str) -> String {
    let s = pad_each(line, text::is_13a_punct);
    let s = sub_pairs(&s, not_ascii_digit, is_period_or_comma, split_after);
    let s = sub_pairs(&s, is_period_or_comma, not_ascii_digit, split_before);
    let s = sub_pairs(&s, is_ascii_digit, |c| c == '-', split_after);
    text::collapse_whitespace(&s)
}

/// mteval-v13a's replacements before tokenizing: `<skipped>` and hyphenated line
/// breaks removed, line breaks made spaces, four HTML entities decoded.
pub(crate) fn mteval_replacements(line: &str) -> String {
    let s = line
        .replace("<skipped>", "")
        .replace("-\n", "")
        .replace('\n', " ");
    if !s.contains('&') {
        return s;
    }
    s.replace("&quot;", "\"")
        .replace("&amp;", "&")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
}

fn tokenize_13a(line: &str) -> String {
    regexp_passes(&format!(" {} ", mteval_replacements(line)))
}

fn tokenize_intl(line: &str) -> String {
    let s = sub_pairs(
        line,
        |c| !text::is_number(c),
        text::is_punctuation,
        split_after,
    );
    let s = sub_pairs(
        &s,
        text::is_punctuation,
        |c| !text::is_number(c),
        split_before,
    );
    text::collapse_whitespace(&pad_each(&s, text::is_symbol))
}

fn tokenize_zh(line: &str, is_cjk: fn(char) -> bool) -> String {
    regexp_passes(&pad_each(text::strip(line), is_cjk))
}

/// `13a` with every character of [`is_cjk_wide`] a token of its own. The replacements come
/// first, as in `13a`, so an entity such as `&amp;` is decoded before anything is split.
fn tokenize_cjk(line: &str) -> String {
    let replaced = mteval_replacements(line);
    regexp_passes(&pad_each(&format!(" {replaced} "), is_cjk_wide))
}

/// The blocks of the scripts written without spaces between words, and their punctuation,
/// by Unicode block: what `cjk` splits into characters.
const CJK_WIDE: [(u32, u32); 17] = [
    (0x1100, 0x11FF),   // Hangul Jamo
    (0x2E80, 0x2FDF),   // CJK Radicals Supplement, Kangxi Radicals
    (0x2FF0, 0x2FFF),   // Ideographic Description Characters
    (0x3000, 0x303F),   // CJK Symbols and Punctuation
    (0x3040, 0x30FF),   // Hiragana, Katakana
    (0x3100, 0x31FF),   // Bopomofo, Hangul Compatibility Jamo, Kanbun, CJK Strokes, Katakana ext.
    (0x3200, 0x33FF),   // Enclosed CJK Letters and Months, CJK Compatibility
    (0x3400, 0x4DBF),   // CJK Unified Ideographs Extension A
    (0x4E00, 0x9FFF),   // CJK Unified Ideographs
    (0xA960, 0xA97F),   // Hangul Jamo Extended-A
    (0xAC00, 0xD7FF),   // Hangul Syllables, Hangul Jamo Extended-B
    (0xF900, 0xFAFF),   // CJK Compatibility Ideographs
    (0xFE10, 0xFE1F),   // Vertical Forms
    (0xFE30, 0xFE4F),   // CJK Compatibility Forms
    (0xFF00, 0xFFEF),   // Halfwidth and Fullwidth Forms
    (0x1AFF0, 0x1B16F), // Kana Extended-B, Kana Supplement, Kana Extended-A, Small Kana Extension
    (0x20000, 0x3FFFF), // planes 2 and 3: CJK ideographs (Extensions B to J, Compatibility Supplement)
];

/// Whether `cjk` makes `c` a token of its own.
pub fn is_cjk_wide(c: char) -> bool {
    (c as u32) >= 0x1100 && in_any(&CJK_WIDE, c)
}

/// The ranges of sacrebleu's `_UCODE_RANGES` other than its two malformed ones.
const CJK_COMMON: [(u32, u32); 20] = [
    (0x3400, 0x4DB5),
    (0x4E00, 0x9FA5),
    (0x9FA6, 0x9FBB),
    (0xF900, 0xFA2D),
    (0xFA30, 0xFA6A),
    (0xFA70, 0xFAD9),
    (0xFF00, 0xFFEF),
    (0x2E80, 0x2EFF),
    (0x3000, 0x303F),
    (0x31C0, 0x31EF),
    (0x2F00, 0x2FDF),
    (0x2FF0, 0x2FFF),
    (0x3100, 0x312F),
    (0x31A0, 0x31BF),
    (0xFE10, 0xFE1F),
    (0xFE30, 0xFE4F),
    (0x2600, 0x26FF),
    (0x2700, 0x27BF),
    (0x3200, 0x32FF),
    (0x3300, 0x33FF),
];

fn in_any(ranges: &[(u32, u32)], c: char) -> bool {
    let cp = c as u32;
    ranges.iter().any(|&(lo, hi)| lo <= cp && cp <= hi)
}

/// sacrebleu writes Extension B as `(u'\u20000', u'\u2a6d6')`: Python reads each bound as
/// two characters, and comparing one character against them admits U+2001..=U+2A6D.
/// The Compatibility Supplement bound likewise becomes U+2F81..=U+2FA1.
fn is_cjk_sacrebleu(c: char) -> bool {
    in_any(&CJK_COMMON, c) || in_any(&[(0x2001, 0x2A6D), (0x2F81, 0x2FA1)], c)
}

/// The ranges sacrebleu meant: Extension B and the Compatibility Supplement.
fn is_cjk_fixed(c: char) -> bool {
    in_any(&CJK_COMMON, c) || in_any(&[(0x20000, 0x2A6D6), (0x2F800, 0x2FA1D)], c)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tok(t: Tokenizer, s: &str) -> String {
        t.apply(s)
    }

    #[test]
    fn thirteen_a_reference_behaviour() {
        let t = Tokenizer::Tok13a;
        assert_eq!(tok(t, "3,000,000."), "3,000,000 .");
        assert_eq!(tok(t, "U.S.A."), "U . S . A .");
        assert_eq!(tok(t, "x-ray 5-6"), "x-ray 5 - 6");
        assert_eq!(tok(t, "It's"), "It's");
        assert_eq!(tok(t, "a &amp; b&lt;c"), "a & b < c");
        assert_eq!(tok(t, "in 1990."), "in 1990 .");
        assert_eq!(tok(t, "a..b"), "a . . b");
        assert_eq!(tok(t, "<skipped>x"), "x");
    }

    #[test]
    fn intl_reference_behaviour() {
        let t = Tokenizer::Intl;
        assert_eq!(tok(t, "It's 1990."), "It ' s 1990.");
        assert_eq!(tok(t, "cost: 5€"), "cost : 5 €");
        assert_eq!(tok(t, "3,5"), "3,5");
    }

    #[test]
    fn zh_keeps_sacrebleu_range_bug_and_fixed_does_not() {
        // U+2013 (en dash) falls in the accidental U+2001..U+2A6D range.
        assert_eq!(tok(Tokenizer::Zh, "a–b"), "a – b");
        assert_eq!(tok(Tokenizer::ZhFixed, "a–b"), "a–b");
        // U+20000 is a CJK Extension B ideograph.
        assert_eq!(tok(Tokenizer::Zh, "x\u{20000}y"), "x\u{20000}y");
        assert_eq!(tok(Tokenizer::ZhFixed, "x\u{20000}y"), "x \u{20000} y");
        assert_eq!(tok(Tokenizer::Zh, "我们 1990."), "我 们 1990.");
    }

    #[test]
    fn cjk_splits_kana_hangul_and_han_and_keeps_13a_elsewhere() {
        let t = Tokenizer::Cjk;
        // Kana are what sacrebleu's zh leaves whole (sacrebleu issue 171).
        assert_eq!(tok(t, "今日はいい天気。"), "今 日 は い い 天 気 。");
        assert_eq!(
            tok(Tokenizer::Zh, "今日はいい天気。"),
            "今 日 はいい 天 気 。"
        );
        assert_eq!(tok(t, "한국어 OK."), "한 국 어 OK .");
        assert_eq!(
            tok(t, "x\u{20000}y &amp; 3,000."),
            "x \u{20000} y & 3,000 ."
        );
        // Outside CJK text it is 13a, character for character; zh's accidental range is not in it.
        for line in ["U.S.A. 1990.", "a–b <skipped>c", "x-ray 5-6 It's"] {
            assert_eq!(tok(t, line), tok(Tokenizer::Tok13a, line));
        }
    }

    #[test]
    fn char_and_none() {
        assert_eq!(tok(Tokenizer::Char, "ab c"), "a b c");
        assert_eq!(tok(Tokenizer::None, " a\u{a0}b  c "), "a b c");
    }

    #[test]
    fn names_round_trip() {
        for name in Tokenizer::NAMES {
            assert_eq!(name.parse::<Tokenizer>().unwrap().name(), name);
        }
        assert!("13b".parse::<Tokenizer>().is_err());
    }
}
