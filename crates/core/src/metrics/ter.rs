//! TER (Snover et al., 2006) sufficient statistics, as sacrebleu 2.6.0 computes them.
//!
//! sacrebleu's TER is a re-implementation of Tercom: the Tercom tokenizer
//! ([`TerConfig::tokenize`]), then greedy block shifts that reduce a beam-limited
//! word edit distance, with Tercom's limits (shifts of at most 10 words, at most 50
//! positions away, at most 1000 candidate shifts per sentence pair). Every tie-break
//! and limit here follows sacrebleu's, so the edit counts are identical, including
//! where the beam makes the distance larger than the true one.
//!
//! A row is `[edits, ref_length_scaled]`: the fewest edits to any reference, and the
//! average reference length in units of 1/[`LENGTH_SCALE`] (the least common multiple of
//! 1..=16, [`crate::family::fixed_point`]), so that averages over up to 16 references are
//! integers and corpus sums are exact in any order.

use rustc_hash::FxHashMap;

use crate::error::CoreError;
use crate::family::fixed_point::{mean_length, MAX_REFS};
use crate::family::per_reference::{PerReference, PerReferencePairs, RowMetric};
use crate::text;

/// Columns of a TER row.
pub const ROW_WIDTH: usize = 2;

/// The largest edit-distance matrix one sentence pair may need (16 bytes a cell, so
/// 1 GiB): sacrebleu's algorithm, kept here for identical numbers, is quadratic in the
/// sentence length, and a longer pair is refused rather than exhausting memory.
pub const MAX_CELLS: usize = 1 << 26;

const MAX_SHIFT_SIZE: usize = 10;
const MAX_SHIFT_DIST: usize = 50;
const BEAM_WIDTH: i64 = 25;
const MAX_SHIFT_CANDIDATES: usize = 1000;
const INFINITY: i64 = 10_000_000_000_000_000;

/// Everything that decides how text becomes TER statistics.
///
/// sacrebleu tokenizes every reference twice (once when caching it, once more when
/// extracting its words); with `normalized` the Tercom tokenizer is not idempotent
/// (`Nima's,` becomes `Nima's`, then `Nima 's`), so an exact copy of the reference
/// scores 50. `fixed: false` keeps that behaviour (sacrebleu's `tercom`); `fixed:
/// true` tokenizes references once, as hypotheses are (`tercom-fixed`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TerConfig {
    pub normalized: bool,
    pub no_punct: bool,
    pub asian_support: bool,
    pub case_sensitive: bool,
    pub fixed: bool,
}

/// The CJK ranges Tercom splits into single characters when normalizing.
fn is_asian_char(c: char) -> bool {
    matches!(c,
        '\u{4e00}'..='\u{9fff}' | '\u{3400}'..='\u{4dbf}' | '\u{31c0}'..='\u{31ef}'
        | '\u{2e80}'..='\u{2eff}' | '\u{3300}'..='\u{33ff}' | '\u{f900}'..='\u{faff}'
        | '\u{fe30}'..='\u{fe4f}' | '\u{3200}'..='\u{3f22}')
}

/// CJK and full-width punctuation (split off when normalizing, removed by `no_punct`).
fn is_asian_punct(c: char) -> bool {
    matches!(c,
        '\u{3001}' | '\u{3002}' | '\u{3008}'..='\u{3011}' | '\u{3014}'..='\u{301f}'
        | '\u{ff61}'..='\u{ff65}' | '\u{30fb}' | '\u{ff0e}' | '\u{ff0c}' | '\u{ff1f}'
        | '\u{ff1a}' | '\u{ff1b}' | '\u{ff01}' | '\u{ff02}' | '\u{ff08}' | '\u{ff09}')
}

/// Python's `re.sub` of a two-character pattern `(a)(b)`: leftmost matches, none
/// overlapping, each replaced by `replace(a, b, out)`.
fn sub_pairs(
    s: &str,
    first: impl Fn(char) -> bool,
    second: impl Fn(char) -> bool,
    replace: impl Fn(char, char, &mut String),
) -> String {
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len() + 16);
    let mut i = 0;
    while i < chars.len() {
        if i + 1 < chars.len() && first(chars[i]) && second(chars[i + 1]) {
            replace(chars[i], chars[i + 1], &mut out);
            i += 2;
        } else {
            out.push(chars[i]);
            i += 1;
        }
    }
    out
}

fn pad(out: &mut String, s: &str, should_pad: impl Fn(char) -> bool) {
    for c in s.chars() {
        if should_pad(c) {
            out.push(' ');
            out.push(c);
            out.push(' ');
        } else {
            out.push(c);
        }
    }
}

/// Tercom's language-independent and Western normalization, step by step as
/// sacrebleu's regular expressions apply it.
fn normalize_western(s: &str) -> String {
    let s = s.replace("\n-", "").replace('\n', " ");
    let s = s
        .replace("&quot;", "\"")
        .replace("&amp;", "&")
        .replace("&lt;", "<")
        .replace("&gt;", ">");
    let mut padded = String::with_capacity(s.len() * 2 + 2);
    // Tercom's "Western" punctuation is 13a's set.
    pad(&mut padded, &format!(" {s} "), text::is_13a_punct);
    // sacrebleu's `'s$` never matches: the text ends with the padding space.
    let s = padded.replace("'s ", " 's ");
    let digit = |c: char| c.is_ascii_digit();
    let period_or_comma = |c: char| c == '.' || c == ',';
    let s = sub_pairs(
        &s,
        |c| !digit(c),
        period_or_comma,
        |a, b, out| {
            out.extend([a, ' ', b, ' ']);
        },
    );
    let s = sub_pairs(
        &s,
        period_or_comma,
        |c| !digit(c),
        |a, b, out| {
            out.extend([' ', a, ' ', b]);
        },
    );
    sub_pairs(
        &s,
        digit,
        |c| c == '-',
        |a, b, out| out.extend([a, ' ', b, ' ']),
    )
}

impl TerConfig {
    /// sacrebleu's TER preprocessing of one sentence: right-strip, then the Tercom
    /// tokenizer; the words are separated by single spaces.
    pub fn tokenize(&self, line: &str) -> String {
        let line = text::rstrip(line);
        if line.is_empty() {
            return String::new();
        }
        let mut s = if self.case_sensitive {
            line.to_owned()
        } else {
            text::lower(line).into_owned()
        };
        if self.normalized {
            s = normalize_western(&s);
            if self.asian_support {
                // Tercom's kana rules are anchored at the start of the text, which
                // here is always the padding space: they never match.
                let mut padded = String::with_capacity(s.len() * 2);
                pad(&mut padded, &s, |c| is_asian_char(c) || is_asian_punct(c));
                s = padded;
            }
        }
        if self.no_punct {
            s.retain(|c| !matches!(c, '.' | ',' | '?' | ':' | ';' | '!' | '"' | '(' | ')'));
            if self.asian_support {
                s.retain(|c| !is_asian_punct(c));
            }
        }
        text::collapse_whitespace(&s)
    }

    /// A reference as sacrebleu tokenizes it: twice, unless `fixed`.
    pub fn tokenize_ref(&self, line: &str) -> String {
        let once = self.tokenize(line);
        if self.fixed {
            once
        } else {
            self.tokenize(&once)
        }
    }
}

/// One cell of the edit-distance matrix: cost and the operation that reached it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Cell {
    cost: i64,
    op: Op,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    /// Words equal (sacrebleu's `' '`).
    Same,
    Substitute,
    /// Consumes a reference word (sacrebleu's `'i'`).
    Insert,
    /// Consumes a hypothesis word (sacrebleu's `'d'`).
    Delete,
    /// Outside the beam.
    Undefined,
}

const EMPTY: Cell = Cell {
    cost: INFINITY,
    op: Op::Undefined,
};

/// sacrebleu's beam: which cells of each row are computed.
#[derive(Debug, Clone, Copy)]
struct Beam {
    n_hyp: usize,
    n_ref: usize,
    ratio: f64,
    width: i64,
}

impl Beam {
    fn new(n_hyp: usize, n_ref: usize) -> Self {
        let ratio = if n_hyp > 0 {
            n_ref as f64 / n_hyp as f64
        } else {
            1.0
        };
        let width = if (BEAM_WIDTH as f64) < ratio / 2.0 {
            (ratio / 2.0 + BEAM_WIDTH as f64).ceil() as i64
        } else {
            BEAM_WIDTH
        };
        Beam {
            n_hyp,
            n_ref,
            ratio,
            width,
        }
    }

    /// The columns computed in row `i` (1-based hypothesis position).
    fn columns(&self, i: usize) -> std::ops::Range<usize> {
        let diagonal = (i as f64 * self.ratio).floor() as i64;
        let low = (diagonal - self.width).max(0);
        let mut high = (self.n_ref as i64 + 1).min(diagonal + self.width);
        if i == self.n_hyp {
            high = self.n_ref as i64 + 1;
        }
        if low >= high {
            return 0..0;
        }
        low as usize..high as usize
    }

    /// Row `i` of the matrix from row `i - 1`, for hypothesis word `word`.
    fn fill_row(&self, prev: &[Cell], row: &mut [Cell], i: usize, word: u32, reference: &[u32]) {
        row.fill(EMPTY);
        for j in self.columns(i) {
            if j == 0 {
                row[0] = Cell {
                    cost: prev[0].cost + 1,
                    op: Op::Delete,
                };
                continue;
            }
            let (sub_cost, sub_op) = if word == reference[j - 1] {
                (0, Op::Same)
            } else {
                (1, Op::Substitute)
            };
            let mut best = EMPTY;
            for (cost, op) in [
                (prev[j - 1].cost + sub_cost, sub_op),
                (prev[j].cost + 1, Op::Delete),
                (row[j - 1].cost + 1, Op::Insert),
            ] {
                if best.cost > cost {
                    best = Cell { cost, op };
                }
            }
            row[j] = best;
        }
    }

    fn first_row(&self, row: &mut [Cell]) {
        for (j, cell) in row.iter_mut().enumerate() {
            *cell = Cell {
                cost: j as i64,
                op: Op::Insert,
            };
        }
    }
}

/// Buffers reused across sentence pairs.
#[derive(Debug, Default)]
pub struct TerScratch {
    matrix: Vec<Cell>,
    rows: [Vec<Cell>; 2],
    trace: Vec<Op>,
    align: Vec<i64>,
    hyp_err: Vec<u32>,
    ref_err: Vec<u32>,
    shifted: Vec<u32>,
    best: Vec<u32>,
    words: Vec<u32>,
    ids: FxHashMap<String, u32>,
    hyp_ids: Vec<u32>,
    ref_ids: Vec<Vec<u32>>,
}

/// Python's `words[a:b]` for non-negative bounds.
fn slice(words: &[u32], a: usize, b: usize) -> &[u32] {
    let (a, b) = (a.min(words.len()), b.min(words.len()));
    if a >= b {
        &[]
    } else {
        &words[a..b]
    }
}

/// sacrebleu's `_perform_shift`: move `words[start..start + length]` to `target`.
fn perform_shift(words: &[u32], start: usize, length: usize, target: usize, out: &mut Vec<u32>) {
    let n = words.len();
    out.clear();
    let parts = if target < start {
        [
            (0, target),
            (start, start + length),
            (target, start),
            (start + length, n),
        ]
    } else if target > start + length {
        [
            (0, start),
            (start + length, target),
            (start, start + length),
            (target, n),
        ]
    } else {
        [
            (0, start),
            (start + length, length + target),
            (start, start + length),
            (length + target, n),
        ]
    };
    for (a, b) in parts {
        out.extend_from_slice(slice(words, a, b));
    }
}

/// The whole matrix of `hyp` against `reference` (with operations); returns the cost.
fn full_matrix(beam: &Beam, hyp: &[u32], reference: &[u32], matrix: &mut Vec<Cell>) -> i64 {
    let width = reference.len() + 1;
    matrix.clear();
    matrix.resize((hyp.len() + 1) * width, EMPTY);
    beam.first_row(&mut matrix[..width]);
    for i in 1..=hyp.len() {
        let (done, rest) = matrix.split_at_mut(i * width);
        beam.fill_row(
            &done[(i - 1) * width..],
            &mut rest[..width],
            i,
            hyp[i - 1],
            reference,
        );
    }
    matrix[matrix.len() - 1].cost
}

/// The cost of `hyp`, whose first `prefix` words equal those of the hypothesis
/// whose matrix is `base` (so its first `prefix + 1` rows are `base`'s).
fn cost_from(
    beam: &Beam,
    hyp: &[u32],
    reference: &[u32],
    base: &[Cell],
    prefix: usize,
    rows: &mut [Vec<Cell>; 2],
) -> i64 {
    let width = reference.len() + 1;
    if prefix == hyp.len() {
        return base[base.len() - 1].cost;
    }
    let [prev, row] = rows;
    prev.clear();
    prev.extend_from_slice(&base[prefix * width..(prefix + 1) * width]);
    row.resize(width, EMPTY);
    for i in prefix + 1..=hyp.len() {
        beam.fill_row(prev, row, i, hyp[i - 1], reference);
        std::mem::swap(prev, row);
    }
    prev[width - 1].cost
}

/// The operations from the matrix, first to last.
fn trace(matrix: &[Cell], n_hyp: usize, n_ref: usize, out: &mut Vec<Op>) -> Result<(), CoreError> {
    out.clear();
    let (mut i, mut j) = (n_hyp, n_ref);
    while i > 0 || j > 0 {
        let op = matrix[i * (n_ref + 1) + j].op;
        out.push(op);
        match op {
            Op::Same | Op::Substitute => {
                i -= 1;
                j -= 1;
            }
            Op::Insert => j -= 1,
            Op::Delete => i -= 1,
            Op::Undefined => return Err(CoreError::TerBeam),
        }
    }
    out.reverse();
    Ok(())
}

/// A candidate shift as sacrebleu ranks them: gain, length, then the earlier start and target.
type Candidate = (i64, usize, i64, i64);

/// sacrebleu's `_shift`: the best shift of `hyp` (its gain and the shifted words in
/// `s.best`), or a gain of 0 when none is tried. `checked` counts candidates.
fn best_shift(
    beam: &Beam,
    hyp: &[u32],
    reference: &[u32],
    checked: &mut usize,
    s: &mut TerScratch,
) -> Result<(i64, i64), CoreError> {
    let (n_h, n_r) = (hyp.len(), reference.len());
    let pre_score = full_matrix(beam, hyp, reference, &mut s.matrix);
    trace(&s.matrix, n_h, n_r, &mut s.trace)?;
    align_errors(s);
    let hyp_errors = |err: &[u32], a: usize, b: usize| err[b.min(n_h)] - err[a.min(n_h)];
    let ref_errors = |err: &[u32], a: usize, b: usize| err[b.min(n_r)] - err[a.min(n_r)];
    let shifts = Shifts {
        beam,
        hyp,
        reference,
        pre_score,
    };
    let mut best: Option<Candidate> = None;
    'pairs: for start_h in 0..n_h {
        for start_r in 0..n_r {
            if start_r.abs_diff(start_h) > MAX_SHIFT_DIST {
                continue;
            }
            let mut length = 0;
            while hyp[start_h + length] == reference[start_r + length] && length < MAX_SHIFT_SIZE {
                length += 1;
                let last = n_h == start_h + length || n_r == start_r + length;
                let target_of = s.align[start_r];
                let tried = hyp_errors(&s.hyp_err, start_h, start_h + length) != 0
                    && ref_errors(&s.ref_err, start_r, start_r + length) != 0
                    && !((start_h as i64) <= target_of && target_of < (start_h + length) as i64);
                if tried {
                    shifts.try_targets((start_h, start_r, length), &mut best, checked, s);
                    if *checked >= MAX_SHIFT_CANDIDATES {
                        break 'pairs;
                    }
                }
                if last {
                    break;
                }
            }
        }
    }
    Ok((best.map_or(0, |b| b.0), pre_score))
}

/// From the trace in `s.trace`: the alignment of reference positions to hypothesis positions
/// (`s.align`), and prefix sums of the error flags of each side (`s.hyp_err`, `s.ref_err`).
fn align_errors(s: &mut TerScratch) {
    s.align.clear();
    s.hyp_err.clear();
    s.ref_err.clear();
    s.hyp_err.push(0);
    s.ref_err.push(0);
    let mut pos_h: i64 = -1;
    for &op in &s.trace {
        let (hyp_step, ref_step, err) = match op {
            Op::Same => (true, true, 0),
            Op::Substitute => (true, true, 1),
            Op::Delete => (true, false, 1),
            Op::Insert => (false, true, 1),
            Op::Undefined => unreachable!("trace stops at undefined cells"),
        };
        if hyp_step {
            pos_h += 1;
            s.hyp_err.push(s.hyp_err[s.hyp_err.len() - 1] + err);
        }
        if ref_step {
            s.align.push(pos_h);
            s.ref_err.push(s.ref_err[s.ref_err.len() - 1] + err);
        }
    }
}

/// What every candidate shift of one [`best_shift`] call is scored against.
struct Shifts<'a> {
    beam: &'a Beam,
    hyp: &'a [u32],
    reference: &'a [u32],
    pre_score: i64,
}

impl Shifts<'_> {
    /// Each target of the `length` words at `start_h` (matching the reference at `start_r`),
    /// in sacrebleu's order: the best candidate so far in `best` (its words in `s.best`).
    fn try_targets(
        &self,
        (start_h, start_r, length): (usize, usize, usize),
        best: &mut Option<Candidate>,
        checked: &mut usize,
        s: &mut TerScratch,
    ) {
        let n_r = self.reference.len();
        let mut prev_idx: i64 = -1;
        for offset in -1..length as i64 {
            let pos = start_r as i64 + offset;
            let idx = if pos == -1 {
                0
            } else if (pos as usize) < n_r {
                s.align[pos as usize] + 1
            } else {
                break;
            };
            if idx == prev_idx {
                continue;
            }
            prev_idx = idx;
            perform_shift(self.hyp, start_h, length, idx as usize, &mut s.shifted);
            let prefix = self
                .hyp
                .iter()
                .zip(&s.shifted)
                .take_while(|(a, b)| a == b)
                .count();
            let cost = cost_from(
                self.beam,
                &s.shifted,
                self.reference,
                &s.matrix,
                prefix,
                &mut s.rows,
            );
            let candidate = (self.pre_score - cost, length, -(start_h as i64), -idx);
            *checked += 1;
            if best.is_none_or(|b| candidate > b) {
                *best = Some(candidate);
                std::mem::swap(&mut s.best, &mut s.shifted);
            }
        }
    }
}

/// sacrebleu's `translation_edit_rate` of word ids: the number of edits (shifts
/// plus beam edit distance after them) and the reference length.
pub fn edits(
    hyp: &[u32],
    reference: &[u32],
    s: &mut TerScratch,
) -> Result<(i64, usize), CoreError> {
    if reference.is_empty() {
        return Ok((hyp.len() as i64, 0));
    }
    let beam = Beam::new(hyp.len(), reference.len());
    let mut words = std::mem::take(&mut s.words);
    words.clear();
    words.extend_from_slice(hyp);
    let mut shifts = 0;
    let mut checked = 0;
    let distance = loop {
        let (gain, distance) = best_shift(&beam, &words, reference, &mut checked, s)?;
        // The candidate limit discards the best shift found, as in sacrebleu.
        if checked >= MAX_SHIFT_CANDIDATES || gain <= 0 {
            break distance;
        }
        shifts += 1;
        std::mem::swap(&mut words, &mut s.best);
    };
    s.words = words;
    Ok((shifts + distance, reference.len()))
}

impl TerScratch {
    /// Word ids for a hypothesis and its references (tokenized, space-separated),
    /// equal ids for equal words.
    fn intern<'a>(&mut self, hyp: &str, refs: impl Iterator<Item = &'a str>) {
        self.ids.clear();
        let ids = &mut self.ids;
        let mut id_of = |w: &str| match ids.get(w) {
            Some(&id) => id,
            None => {
                let id = ids.len() as u32;
                ids.insert(w.to_owned(), id);
                id
            }
        };
        self.hyp_ids.clear();
        self.hyp_ids
            .extend(hyp.split(' ').filter(|w| !w.is_empty()).map(&mut id_of));
        let mut k = 0;
        for reference in refs {
            if self.ref_ids.len() <= k {
                self.ref_ids.push(Vec::new());
            }
            self.ref_ids[k].clear();
            self.ref_ids[k].extend(
                reference
                    .split(' ')
                    .filter(|w| !w.is_empty())
                    .map(&mut id_of),
            );
            k += 1;
        }
        self.ref_ids.truncate(k);
    }
}

/// The row of one tokenized hypothesis against its tokenized references.
pub fn segment_row<'a>(
    hyp: &str,
    refs: impl Iterator<Item = &'a str>,
    s: &mut TerScratch,
    segment: usize,
    row: &mut [i64],
) -> Result<(), CoreError> {
    s.intern(hyp, refs);
    let n_refs = s.ref_ids.len();
    if n_refs == 0 {
        return Err(CoreError::NoReference { segment });
    }
    if n_refs > MAX_REFS {
        return Err(CoreError::TooManyReferences {
            segment,
            found: n_refs,
            max: MAX_REFS,
        });
    }
    for reference in &s.ref_ids {
        let cells = (s.hyp_ids.len() + 1).checked_mul(reference.len() + 1);
        if !reference.is_empty() && cells.is_none_or(|c| c > MAX_CELLS) {
            return Err(CoreError::SegmentTooLong {
                metric: "TER",
                unit: "word",
                segment,
                hyp_words: s.hyp_ids.len(),
                ref_words: reference.len(),
                max_cells: MAX_CELLS,
            });
        }
    }
    let mut best = i64::MAX;
    let mut ref_words = 0usize;
    let hyp_ids = std::mem::take(&mut s.hyp_ids);
    let ref_ids = std::mem::take(&mut s.ref_ids);
    for reference in &ref_ids {
        let (e, len) = edits(&hyp_ids, reference, s)?;
        ref_words += len;
        best = best.min(e);
    }
    s.hyp_ids = hyp_ids;
    s.ref_ids = ref_ids;
    row[0] = best;
    row[1] = mean_length(ref_words, n_refs);
    Ok(())
}

/// TER as a [`RowMetric`]: hypotheses and references tokenized (references as sacrebleu
/// tokenizes them, see [`TerConfig::tokenize_ref`]), and a segment's row the fewest edits to
/// any of its references with their average length. [`PerReference`] does the rest.
pub struct Ter;

impl RowMetric for Ter {
    type Config = TerConfig;
    type Prepared = String;
    type Scratch = TerScratch;

    /// A TER segment is an edit-distance search with shifts: far more work than BLEU's.
    const COST: usize = 16;
    const MAX_REFS: usize = MAX_REFS;

    fn row_width(_: TerConfig) -> usize {
        ROW_WIDTH
    }

    fn prepare_hyp(config: TerConfig, text: &str) -> String {
        config.tokenize(text)
    }

    fn prepare_ref(config: TerConfig, text: &str) -> String {
        config.tokenize_ref(text)
    }

    fn row(
        _: TerConfig,
        scratch: &mut TerScratch,
        segment: usize,
        hyp: &String,
        refs: &[String],
        out: &mut [i64],
    ) -> Result<(), CoreError> {
        segment_row(hyp, refs.iter().map(String::as_str), scratch, segment, out)
    }

    fn tokenize(config: TerConfig, lines: &[&str]) -> Option<Vec<String>> {
        Some(lines.iter().map(|l| config.tokenize(l)).collect())
    }
}

/// Reference streams tokenized once.
pub type TerReferences = PerReference<Ter>;

/// Every hypothesis against every reference as its only reference.
pub type TerPairwise = PerReferencePairs<Ter>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::family::fixed_point::LENGTH_SCALE;
    use crate::family::Family;
    use crate::parallel::Exec;

    fn ter(hyp: &str, reference: &str) -> (i64, usize) {
        let mut s = TerScratch::default();
        s.intern(hyp, std::iter::once(reference));
        let (h, r) = (s.hyp_ids.clone(), s.ref_ids[0].clone());
        edits(&h, &r, &mut s).unwrap()
    }

    #[test]
    fn shifts_count_as_one_edit() {
        assert_eq!(ter("a b c d", "a b c d"), (0, 4));
        assert_eq!(ter("c d a b", "a b c d"), (1, 4));
        assert_eq!(ter("", "a b"), (2, 2));
        assert_eq!(ter("a b", ""), (2, 0));
        assert_eq!(ter("x b c", "a b c"), (1, 3));
    }

    #[test]
    fn tercom_tokenizer() {
        let plain = TerConfig::default();
        assert_eq!(plain.tokenize("  Hello,  World.  "), "hello, world.");
        let norm = TerConfig {
            normalized: true,
            ..Default::default()
        };
        assert_eq!(norm.tokenize("It's 3.5, ok."), "it 's 3.5 , ok .");
        assert_eq!(norm.tokenize("a &amp;lt; b"), "a < b");
        let no_punct = TerConfig {
            no_punct: true,
            case_sensitive: true,
            ..Default::default()
        };
        assert_eq!(no_punct.tokenize("Hi, (you)!"), "Hi you");
        let asian = TerConfig {
            normalized: true,
            asian_support: true,
            ..Default::default()
        };
        assert_eq!(asian.tokenize("中文，好"), "中 文 ， 好");
    }

    #[test]
    fn references_are_tokenized_twice_unless_fixed() {
        let sacrebleu = TerConfig {
            normalized: true,
            ..Default::default()
        };
        let fixed = TerConfig {
            fixed: true,
            ..sacrebleu
        };
        assert_eq!(sacrebleu.tokenize_ref("Nima's, x"), "nima 's , x");
        assert_eq!(fixed.tokenize_ref("Nima's, x"), fixed.tokenize("Nima's, x"));
        let streams = vec![vec![Some("Nima's, x")]];
        let (rows, _) =
            TerReferences::sentence_stats(sacrebleu, &["Nima's, x"], &streams, Exec::Serial)
                .unwrap();
        assert_eq!(rows, [2, 4 * LENGTH_SCALE]);
        let (rows, _) =
            TerReferences::sentence_stats(fixed, &["Nima's, x"], &streams, Exec::Serial).unwrap();
        assert_eq!(rows, [0, 3 * LENGTH_SCALE]);
    }

    #[test]
    fn rows_take_the_fewest_edits_and_the_average_length() {
        let streams = vec![vec![Some("a b c")], vec![Some("a b c d e")]];
        let (rows, counts) =
            TerReferences::sentence_stats(TerConfig::default(), &["a b c"], &streams, Exec::Serial)
                .unwrap();
        assert_eq!(counts, [2]);
        assert_eq!(rows, [0, 8 * LENGTH_SCALE / 2]);
    }

    #[test]
    fn a_pair_too_long_for_the_matrix_is_refused() {
        let long = vec!["w"; 9000].join(" ");
        let mut row = [0i64; ROW_WIDTH];
        let mut s = TerScratch::default();
        let err = segment_row(&long, std::iter::once(long.as_str()), &mut s, 4, &mut row);
        assert!(matches!(
            err,
            Err(CoreError::SegmentTooLong {
                segment: 4,
                hyp_words: 9000,
                ..
            })
        ));
        // An empty reference needs no matrix: every hypothesis word is an edit.
        assert!(segment_row(&long, std::iter::once(""), &mut s, 0, &mut row).is_ok());
        assert_eq!(row, [9000, 0]);
    }

    #[test]
    fn perform_shift_follows_python_slices() {
        let w = [0, 1, 2, 3, 4];
        let mut out = Vec::new();
        perform_shift(&w, 3, 2, 0, &mut out);
        assert_eq!(out, [3, 4, 0, 1, 2]);
        perform_shift(&w, 0, 2, 5, &mut out);
        assert_eq!(out, [2, 3, 4, 0, 1]);
        perform_shift(&w, 1, 2, 2, &mut out);
        assert_eq!(out, [0, 3, 1, 2, 4]);
    }
}
