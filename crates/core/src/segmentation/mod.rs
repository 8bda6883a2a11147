//! Resegmentation: a hypothesis text in any segmentation cut into as many segments as the
//! reference has, by the minimum-edit alignment of Matusov et al. (2005) that mwerSegmenter
//! implements.
//!
//! The cost of cutting the hypothesis's words `h` into segments ending at `e_1 <= ... <=
//! e_K = |h|` is the sum of each segment's word edit distance to its reference segment (the
//! smallest over the references, with several). With `C_k(j)` the least cost of the first `k`
//! segments ending at word `j`, `C_k(j) = min_{j' <= j} C_{k-1}(j') + lev(h[j'..j], ref_k)`:
//! that is one edit-distance table per reference segment whose top row is `C_{k-1}` and whose
//! bottom row is `C_k` ([`columns`], 64 reference words to a machine word). `C_0(j) = j`: the
//! first segment starts at word 0.
//!
//! Which of several cuts of equal cost is taken decides the output as much as the cost does.
//! In a segment's table a cell takes, of its three predecessors at the least cost, the first
//! of: the cell above (a reference word deleted), the cell to the left (a hypothesis word
//! inserted), the diagonal; a segment's start is where its path leaves the top row. This is
//! mweralign 1.4.1's choice, found by running it as a black box on generated cases
//! (`tests/resegment/`). [`Method::Mweralign`] also keeps mweralign's one departure from
//! the least cost: a segment that ends before the first word costs one more than its
//! reference's words ([`Method::MinEdit`] is the least cost itself).
//!
//! Memory is a few rows, not the table: the forward pass keeps `C_k` every `sqrt(K)`
//! segments (two bits a position, [`rows`]); the cut points are then read from the last
//! segment back, a block of rows recomputed at a time, each segment's table recomputed to
//! trace its path. Time is at most three passes of `K x |h|` machine-word steps, a step a
//! column of a segment's table (one more for each 64 reference words beyond the first 64).

pub(crate) mod columns;
mod rows;

use rustc_hash::FxHashMap;

use crate::error::CoreError;
use crate::text as python;
use columns::{bottom_row, Masks, Table};
use rows::PackedRow;

/// Which cut of least cost: mweralign 1.4.1's (the default, so published numbers compare),
/// or the least cost without mweralign's extra cost at the first word.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    Mweralign,
    MinEdit,
}

impl Method {
    pub const NAMES: &'static [&'static str] = &["mweralign", "min-edit"];

    pub fn parse(name: &str) -> Result<Self, CoreError> {
        match name {
            "mweralign" => Ok(Method::Mweralign),
            "min-edit" => Ok(Method::MinEdit),
            _ => Err(CoreError::UnknownChoice {
                option: "resegmentation method",
                value: name.into(),
                known: Self::NAMES,
            }),
        }
    }

    /// What a segment ending before the first word costs beyond its reference's words.
    fn empty_start(self) -> i32 {
        match self {
            Method::Mweralign => 1,
            Method::MinEdit => 0,
        }
    }
}

/// Segments between two calls of the caller's [`Tick`].
const CHECK_EVERY: usize = 64;

/// The caller's progress and Ctrl-C check: told how many more segments of work are done (each
/// segment is two: the forward pass and the trace back), it answers whether to stop (the work
/// then ends with [`CoreError::Interrupted`]).
pub type Tick<'s> = &'s mut dyn FnMut(usize) -> bool;

/// Work counted a segment at a time, told to the caller's [`Tick`] every [`CHECK_EVERY`].
struct Ticks<'t, 's> {
    tick: &'t mut Tick<'s>,
    pending: usize,
}

impl Ticks<'_, '_> {
    fn step(&mut self) -> Result<(), CoreError> {
        self.pending += 1;
        if self.pending == CHECK_EVERY {
            return self.flush();
        }
        Ok(())
    }

    fn flush(&mut self) -> Result<(), CoreError> {
        let done = std::mem::take(&mut self.pending);
        if (self.tick)(done) {
            Err(CoreError::Interrupted)
        } else {
            Ok(())
        }
    }
}
/// The most cells (hypothesis words x reference words) one segment's traced table may hold.
pub const MAX_CELLS: usize = 1 << 32;

/// The references' segments as word ids: `refs[r][k]` is reference `r`'s segment `k`.
pub type Refs = [Vec<Vec<u32>>];

/// Where each of the references' `K` segments ends in `hyp` (word ids below `vocabulary`):
/// `K` non-decreasing word positions, the last `hyp.len()`.
pub fn cut(
    refs: &Refs,
    hyp: &[u32],
    vocabulary: usize,
    method: Method,
    mut tick: Tick<'_>,
) -> Result<Vec<usize>, CoreError> {
    let segments = check(refs)?;
    let mut ticks = Ticks {
        tick: &mut tick,
        pending: 0,
    };
    let mut aligner = Aligner {
        refs,
        hyp,
        method,
        masks: Masks::new(vocabulary),
        scratch: Vec::new(),
    };
    let every = (segments as f64).sqrt().ceil().max(1.0) as usize;
    let (kept, cost) = aligner.kept_rows(segments, every, &mut ticks)?;
    let ends = aligner.trace_back(segments, every, &kept, cost, &mut ticks)?;
    ticks.step()?; // the first segment, which starts at the first word
    ticks.flush()?;
    Ok(ends)
}

fn check(refs: &Refs) -> Result<usize, CoreError> {
    let Some(first) = refs.first() else {
        return Err(CoreError::NoReferenceStreams);
    };
    for (r, other) in refs.iter().enumerate().skip(1) {
        if other.len() != first.len() {
            return Err(CoreError::LengthMismatch {
                what: "reference 1's segments".into(),
                expected: first.len(),
                other: format!("reference {}'s", r + 1),
                found: other.len(),
            });
        }
    }
    Ok(first.len())
}

struct Aligner<'a> {
    refs: &'a Refs,
    hyp: &'a [u32],
    method: Method,
    masks: Masks,
    scratch: Vec<i32>,
}

impl Aligner<'_> {
    /// The forward pass: `C_k` kept every `every` segments (packed), and the last row's cost
    /// at the last word (the cut's cost).
    fn kept_rows(
        &mut self,
        segments: usize,
        every: usize,
        ticks: &mut Ticks<'_, '_>,
    ) -> Result<(Vec<PackedRow>, i32), CoreError> {
        let mut row: Vec<i32> = (0..=self.hyp.len() as i32).collect();
        let mut kept = vec![PackedRow::pack(&row)];
        let mut next = Vec::new();
        for k in 0..segments {
            ticks.step()?;
            self.forward(k, &row, &mut next);
            std::mem::swap(&mut row, &mut next);
            if (k + 1) % every == 0 {
                kept.push(PackedRow::pack(&row));
            }
        }
        Ok((kept, row[self.hyp.len()]))
    }

    /// Where each segment ends, read from the last segment back, a block of rows recomputed
    /// from the kept ones at a time.
    fn trace_back(
        &mut self,
        segments: usize,
        every: usize,
        kept: &[PackedRow],
        mut cost: i32,
        ticks: &mut Ticks<'_, '_>,
    ) -> Result<Vec<usize>, CoreError> {
        let mut ends = vec![self.hyp.len(); segments];
        let mut row = Vec::new();
        for block in (0..kept.len()).rev() {
            // kept[block] is C_first; segment k starts where its path leaves C_k's row.
            let first = block * every;
            let last = (first + every).min(segments);
            let rows = self.rows(first, last, &kept[block]);
            for k in (first.max(1)..last).rev() {
                ticks.step()?;
                rows[k - first].unpack(&mut row);
                let (start, before) = self.start(k, ends[k], &row, cost)?;
                ends[k - 1] = start;
                cost = before;
            }
        }
        Ok(ends)
    }

    /// `C_{k+1}` (segment `k`, from 0) from `C_k` in `prev`, into `out`.
    fn forward(&mut self, k: usize, prev: &[i32], out: &mut Vec<i32>) {
        let first = clamped(prev);
        for (r, reference) in self.refs.iter().enumerate() {
            self.masks.load(&reference[k]);
            let target = if r == 0 { &mut *out } else { &mut self.scratch };
            bottom_row(&self.masks, self.hyp, prev, first, target, None);
            if r > 0 {
                for (o, &s) in out.iter_mut().zip(&self.scratch) {
                    *o = (*o).min(s);
                }
            }
        }
        let shortest = self.refs.iter().map(|r| r[k].len()).min().unwrap_or(0);
        out[0] = prev[0] + shortest as i32 + self.method.empty_start();
    }

    /// The rows `C_first ..= C_{last-1}` (packed), recomputed from the kept `C_first`.
    fn rows(&mut self, first: usize, last: usize, from: &PackedRow) -> Vec<PackedRow> {
        let (mut row, mut next) = (Vec::new(), Vec::new());
        from.unpack(&mut row);
        let mut out = vec![PackedRow::pack(&row)];
        for k in first..last.saturating_sub(1) {
            self.forward(k, &row, &mut next);
            std::mem::swap(&mut row, &mut next);
            out.push(PackedRow::pack(&row));
        }
        out
    }

    /// Where segment `k` (from 0, `k >= 1`) starts when it ends at `end` at cost `cost`
    /// (`C_{k+1}(end)`), given `prev` (`C_k`): the start and `C_k` there.
    fn start(
        &mut self,
        k: usize,
        end: usize,
        prev: &[i32],
        cost: i32,
    ) -> Result<(usize, i32), CoreError> {
        if end == 0 {
            return Ok((0, prev[0]));
        }
        let first = clamped(prev);
        let mut kept = Vec::new();
        for reference in self.refs {
            let words = &reference[k];
            if end.saturating_mul(words.len().max(1)) > MAX_CELLS {
                return Err(CoreError::SegmentTooLong {
                    metric: "resegmentation",
                    unit: "word",
                    segment: k,
                    hyp_words: end,
                    ref_words: words.len(),
                    max_cells: MAX_CELLS,
                });
            }
            self.masks.load(words);
            kept.clear();
            bottom_row(
                &self.masks,
                &self.hyp[..end],
                prev,
                first,
                &mut self.scratch,
                Some(&mut kept),
            );
            if self.scratch[end] == cost {
                let blocks = words.len().div_ceil(64).max(1);
                let table = Table {
                    top: prev,
                    kept: &kept,
                    blocks,
                };
                let start = trace(&table, words, self.hyp, end);
                return Ok((start, prev[start]));
            }
        }
        unreachable!("no reference reaches the cost of segment {k}")
    }
}

/// The top row's first value as the bit-parallel table may take it: a segment ending before
/// the first word can cost more than one above the next position (mweralign's extra cost),
/// and the cells right of column 0 come out the same if it is lowered to that.
fn clamped(prev: &[i32]) -> i32 {
    match prev.get(1) {
        Some(&next) => prev[0].min(next + 1),
        None => prev[0],
    }
}

/// The path of least cost from the bottom row's cell `end` to the top row, preferring at
/// each cell the cell above, then the one to the left, then the diagonal: where it leaves
/// the top row.
fn trace(table: &Table<'_>, words: &[u32], hyp: &[u32], end: usize) -> usize {
    let (mut r, mut j) = (words.len(), end);
    let mut value = table.cell(r, j);
    while r > 0 && j > 0 {
        if table.cell(r - 1, j) + 1 == value {
            r -= 1;
        } else if table.cell(r, j - 1) + 1 == value {
            j -= 1;
        } else {
            r -= 1;
            j -= 1;
            value -= i32::from(words[r] != hyp[j]);
            continue;
        }
        value -= 1;
    }
    j
}

/// How words compare: as written, with A-Z folded to a-z (mweralign's "case insensitive": its
/// alignment folds ASCII only, so "Über" and "über" differ), or lowercased as Python's
/// `str.lower()` lowercases.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Case {
    Sensitive,
    Ascii,
    Unicode,
}

impl Case {
    pub const NAMES: &'static [&'static str] = &["ascii", "unicode", "sensitive"];

    pub fn parse(name: &str) -> Result<Self, CoreError> {
        match name {
            "ascii" => Ok(Case::Ascii),
            "unicode" => Ok(Case::Unicode),
            "sensitive" => Ok(Case::Sensitive),
            _ => Err(CoreError::UnknownChoice {
                option: "case",
                value: name.into(),
                known: Self::NAMES,
            }),
        }
    }
}

/// What the alignment's units are: words split at ASCII whitespace (space, tab, the line ends,
/// vertical tab, form feed: C's `isspace`, as mweralign's alignment splits, so a non-breaking
/// space joins two words into one), words split wherever Python's `str.split()` splits, or
/// characters (every character but Python's whitespace a unit: for languages written without
/// spaces, and a cut that may fall inside a word).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Split {
    Ascii,
    Unicode,
    Chars,
}

impl Split {
    pub const NAMES: &'static [&'static str] = &["ascii", "unicode", "chars"];

    pub fn parse(name: &str) -> Result<Self, CoreError> {
        match name {
            "ascii" => Ok(Split::Ascii),
            "unicode" => Ok(Split::Unicode),
            "chars" => Ok(Split::Chars),
            _ => Err(CoreError::UnknownChoice {
                option: "word split",
                value: name.into(),
                known: Self::NAMES,
            }),
        }
    }

    /// `text`'s words.
    pub fn words(self, text: &str) -> Vec<&str> {
        match self {
            Split::Ascii => text
                .split([' ', '\t', '\n', '\x0b', '\x0c', '\r'])
                .filter(|w| !w.is_empty())
                .collect(),
            Split::Unicode => python::split(text).collect(),
            Split::Chars => text
                .char_indices()
                .filter(|&(_, c)| !python::is_space(c))
                .map(|(at, c)| &text[at..at + c.len_utf8()])
                .collect(),
        }
    }
}

/// Words as ids, each distinct word (as [`Case`] compares them) one id.
pub struct Vocabulary {
    ids: FxHashMap<String, u32>,
    case: Case,
    split: Split,
}

impl Vocabulary {
    pub fn new(case: Case, split: Split) -> Self {
        Vocabulary {
            ids: FxHashMap::default(),
            case,
            split,
        }
    }

    /// The ids of `text`'s words.
    pub fn ids(&mut self, text: &str) -> Vec<u32> {
        let words = self.split.words(text);
        words.into_iter().map(|word| self.id(word)).collect()
    }

    fn id(&mut self, word: &str) -> u32 {
        let key = match self.case {
            Case::Sensitive => word.to_string(),
            Case::Ascii => word.to_ascii_lowercase(),
            Case::Unicode => python::lower(word).into_owned(),
        };
        let next = self.ids.len() as u32;
        *self.ids.entry(key).or_insert(next)
    }

    /// How many distinct words so far.
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }
}

/// `hyp` cut into as many segments as each reference in `refs` has lines (`refs[r][k]`:
/// reference `r`'s segment `k`): each segment's words joined by single spaces.
pub fn resegment(
    refs: &[Vec<&str>],
    hyp: &str,
    words: (Split, Case),
    method: Method,
    tick: Tick<'_>,
) -> Result<Vec<String>, CoreError> {
    let (split, case) = words;
    let mut vocabulary = Vocabulary::new(case, split);
    let ids: Vec<Vec<Vec<u32>>> = refs
        .iter()
        .map(|lines| lines.iter().map(|line| vocabulary.ids(line)).collect())
        .collect();
    let words = split.words(hyp);
    let hyp_ids: Vec<u32> = words.iter().map(|w| vocabulary.id(w)).collect();
    let ends = cut(&ids, &hyp_ids, vocabulary.len(), method, tick)?;
    let mut start = 0;
    Ok(ends
        .into_iter()
        .map(|end| {
            let segment = segment_text(hyp, &words[start..end], split);
            start = end;
            segment
        })
        .collect())
}

/// A segment's text: its words joined by single spaces; its characters as the hypothesis has
/// them, whitespace between them collapsed to single spaces.
fn segment_text(hyp: &str, units: &[&str], split: Split) -> String {
    match (split, units.first(), units.last()) {
        (Split::Chars, Some(first), Some(last)) => {
            // The units are slices of `hyp`: their offsets bound the segment's text.
            let from = first.as_ptr() as usize - hyp.as_ptr() as usize;
            let to = last.as_ptr() as usize - hyp.as_ptr() as usize + last.len();
            python::collapse_whitespace(&hyp[from..to])
        }
        _ => units.join(" "),
    }
}

#[cfg(test)]
mod tests;
