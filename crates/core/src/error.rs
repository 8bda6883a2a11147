//! Errors the core can report; each maps to one typed Python exception.

use std::fmt;

/// Something about the input or configuration that makes scoring impossible.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CoreError {
    /// A named option's value that is not one of its known names (a tokenizer, a Unicode form).
    UnknownChoice {
        option: &'static str,
        value: String,
        known: &'static [&'static str],
    },
    /// A maximum n-gram order below 1.
    InvalidOrder(usize),
    /// An n-gram order above what the metric accepts.
    OrderTooLarge {
        name: &'static str,
        order: usize,
        max: usize,
    },
    /// TER's beam search left the final cell unreachable (sacrebleu raises too).
    TerBeam,
    /// A sentence pair whose edit-distance matrix would exceed `max_cells`.
    SegmentTooLong {
        /// The metric whose alignment is quadratic ("TER", "WER", "CER").
        metric: &'static str,
        /// What the lengths count ("word", "character").
        unit: &'static str,
        segment: usize,
        hyp_words: usize,
        ref_words: usize,
        max_cells: usize,
    },
    /// More references for one segment than TER's exact sum can hold.
    TooManyReferences {
        segment: usize,
        found: usize,
        max: usize,
    },
    /// Two streams that should be parallel have different lengths.
    LengthMismatch {
        /// What the first stream is (for example "hypotheses").
        what: String,
        expected: usize,
        /// What the second stream is (for example "reference stream 2").
        other: String,
        found: usize,
    },
    /// A segment whose references are all missing (`None`).
    NoReference { segment: usize },
    /// No reference streams at all.
    NoReferenceStreams,
    /// The caller's check asked to stop (Ctrl-C); the caller knows why.
    Interrupted,
}

impl CoreError {
    /// This error with its segment counted from `offset` (for work done in chunks).
    pub fn shifted(self, offset: usize) -> Self {
        match self {
            CoreError::NoReference { segment } => CoreError::NoReference {
                segment: segment + offset,
            },
            CoreError::SegmentTooLong {
                metric,
                unit,
                segment,
                hyp_words,
                ref_words,
                max_cells,
            } => CoreError::SegmentTooLong {
                metric,
                unit,
                segment: segment + offset,
                hyp_words,
                ref_words,
                max_cells,
            },
            CoreError::TooManyReferences {
                segment,
                found,
                max,
            } => CoreError::TooManyReferences {
                segment: segment + offset,
                found,
                max,
            },
            other => other,
        }
    }

    /// `hyps` hypotheses against `refs` reference segments.
    pub fn hyps_vs_refs(hyps: usize, refs: usize) -> Self {
        CoreError::LengthMismatch {
            what: "hypotheses".into(),
            expected: hyps,
            other: "the references".into(),
            found: refs,
        }
    }
}

impl fmt::Display for CoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CoreError::UnknownChoice {
                option,
                value,
                known,
            } => write!(f, "unknown {option} {value:?}; known: {}", known.join(", ")),
            CoreError::InvalidOrder(n) => {
                write!(f, "maximum n-gram order must be at least 1, got {n}")
            }
            CoreError::OrderTooLarge { name, order, max } => {
                write!(f, "{name} must be at most {max}, got {order}")
            }
            CoreError::SegmentTooLong {
                metric,
                unit,
                segment,
                hyp_words,
                ref_words,
                max_cells,
            } => write!(
                f,
                "segment {}: {metric} of a {hyp_words}-{unit} hypothesis against a {ref_words}-{unit} \
                 reference needs an edit-distance matrix of more than {max_cells} cells, more memory \
                 than one alignment may take (it is quadratic); split the segment",
                segment + 1
            ),
            CoreError::TerBeam => write!(
                f,
                "TER's beam search found no alignment for this sentence pair (sacrebleu fails here too)"
            ),
            CoreError::TooManyReferences {
                segment,
                found,
                max,
            } => write!(
                f,
                "segment {} has {found} references; TER takes at most {max} per segment",
                segment + 1
            ),
            CoreError::LengthMismatch {
                what,
                expected,
                other,
                found,
            } => write!(
                f,
                "{what} has {expected} segments but {other} has {found}; they must be parallel"
            ),
            CoreError::NoReference { segment } => write!(
                f,
                "segment {} has no reference (every reference stream has None there)",
                segment + 1
            ),
            CoreError::NoReferenceStreams => write!(f, "no reference streams were given"),
            CoreError::Interrupted => write!(f, "interrupted"),
        }
    }
}

impl std::error::Error for CoreError {}
