//! Unicode normalisation before any metric sees its text (NFC, NFKC).
//!
//! One pinned implementation (the `unicode-normalization` crate, whose Unicode version is
//! [`UNICODE_VERSION`]) rather than the Python interpreter's `unicodedata`, so a score
//! never depends on the interpreter it ran under. On text whose characters are all assigned
//! in an older Unicode version the forms agree with that version's (Unicode's stability
//! policy: no decomposition of an assigned character changes, and new compositions of old
//! characters are excluded from NFC).

use std::borrow::Cow;
use std::str::FromStr;

use unicode_normalization::{is_nfc_quick, is_nfkc_quick, IsNormalized, UnicodeNormalization};

use crate::error::CoreError;

/// The Unicode version the forms follow.
pub const UNICODE_VERSION: (u8, u8, u8) = unicode_normalization::UNICODE_VERSION;

/// A normalisation form applied to every line before tokenization, or none.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum UnicodeForm {
    /// The text as given (every metric's default: sacrebleu normalises nothing).
    #[default]
    None,
    /// Canonical composition: `e` + U+0301 becomes `é`; what looks the same counts the same.
    Nfc,
    /// Compatibility composition: also ligatures, full-width forms, superscripts (`ﬁ` → `fi`).
    Nfkc,
}

impl UnicodeForm {
    /// Every form's name, as the command line and signatures write it.
    pub const NAMES: [&'static str; 3] = ["none", "nfc", "nfkc"];

    /// The form's name.
    pub fn name(self) -> &'static str {
        match self {
            UnicodeForm::None => "none",
            UnicodeForm::Nfc => "nfc",
            UnicodeForm::Nfkc => "nfkc",
        }
    }

    /// `text` in this form: borrowed, with no copy, when it is already in it.
    pub fn apply(self, text: &str) -> Cow<'_, str> {
        match self {
            UnicodeForm::None => Cow::Borrowed(text),
            UnicodeForm::Nfc => compose(text, |t| is_nfc_quick(t.chars()), |t| t.nfc().collect()),
            UnicodeForm::Nfkc => {
                compose(text, |t| is_nfkc_quick(t.chars()), |t| t.nfkc().collect())
            }
        }
    }
}

fn compose<'a>(
    text: &'a str,
    quick: fn(&str) -> IsNormalized,
    full: fn(&str) -> String,
) -> Cow<'a, str> {
    // The quick check answers "yes" for nearly all real text (ASCII always) in one pass;
    // "maybe" needs the full form to tell, and equal text is still not copied.
    if text.is_ascii() || quick(text) == IsNormalized::Yes {
        return Cow::Borrowed(text);
    }
    let normal = full(text);
    if normal == text {
        Cow::Borrowed(text)
    } else {
        Cow::Owned(normal)
    }
}

impl FromStr for UnicodeForm {
    type Err = CoreError;

    fn from_str(name: &str) -> Result<Self, Self::Err> {
        match name {
            "none" => Ok(UnicodeForm::None),
            "nfc" => Ok(UnicodeForm::Nfc),
            "nfkc" => Ok(UnicodeForm::Nfkc),
            _ => Err(CoreError::UnknownChoice {
                option: "Unicode normalisation",
                value: name.to_string(),
                known: &UnicodeForm::NAMES,
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nfc_composes_and_borrows_what_is_already_composed() {
        let decomposed = "cafe\u{301}";
        assert_eq!(UnicodeForm::Nfc.apply(decomposed), "café");
        assert!(matches!(UnicodeForm::Nfc.apply("café"), Cow::Borrowed(_)));
        assert!(matches!(
            UnicodeForm::None.apply(decomposed),
            Cow::Borrowed(_)
        ));
    }

    #[test]
    fn nfkc_folds_compatibility_characters_nfc_keeps() {
        assert_eq!(UnicodeForm::Nfkc.apply("\u{fb01}ne ＡＢ x²"), "fine AB x2");
        assert_eq!(UnicodeForm::Nfc.apply("\u{fb01}ne"), "\u{fb01}ne");
    }

    #[test]
    fn canonical_reordering_of_combining_marks() {
        // Dot below (class 220) sorts before the acute (230) whatever the order given.
        let a = UnicodeForm::Nfc.apply("q\u{301}\u{323}");
        let b = UnicodeForm::Nfc.apply("q\u{323}\u{301}");
        assert_eq!(a, b);
    }

    #[test]
    fn names_round_trip_and_unknown_is_refused() {
        for name in UnicodeForm::NAMES {
            assert_eq!(name.parse::<UnicodeForm>().unwrap().name(), name);
        }
        assert!("nfd".parse::<UnicodeForm>().is_err());
    }
}
