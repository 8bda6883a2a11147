//! Word and character error rates (WER, CER) as jiwer 4 counts them: a row per segment,
//! `[substitutions, deletions, insertions, hits, reference length]`.
//!
//! Text is transformed as jiwer's defaults do (`wer_default`: runs of two or more whitespace
//! characters become one space, the ends are stripped, words are split at U+0020 only;
//! `cer_default`: the ends stripped, every character a unit), after the optional lowercasing
//! (Python's `str.lower`) and punctuation removal (Unicode category P), in that order. The
//! alignment is rapidfuzz's Levenshtein edit operations between the reference (source) and the
//! hypothesis (destination): the common prefix and suffix are matched first, then the
//! backtrace from the end prefers a deletion, then an insertion, then the diagonal, which
//! decides how equal-cost alignments split into substitutions, deletions and insertions.

use std::borrow::Cow;

use rustc_hash::FxHashMap;

use crate::error::CoreError;
use crate::family::per_reference::{PerReference, PerReferencePairs, RowMetric};
use crate::text::{is_punctuation, is_space, lower, strip};

/// Columns of a row: substitutions, deletions, insertions, hits, reference length.
pub const ROW_WIDTH: usize = 5;

/// The largest alignment matrix (reference units + 1 times hypothesis units + 1) of one pair:
/// a bound on memory, not on length. The bit-parallel matrix holds two bits a cell, so this is
/// 1 GiB: a 9,000-character line against another takes 20 MiB.
pub const MAX_CELLS: usize = 1 << 32;

/// What changes WER's statistics.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WerConfig {
    /// Characters (CER) instead of words (WER).
    pub characters: bool,
    /// Lowercase first (Python's `str.lower`).
    pub lowercase: bool,
    /// Remove punctuation (Unicode category P) after lowercasing.
    pub no_punct: bool,
}

/// A sentence's units: words, or characters as code points.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Units {
    Words(Vec<Box<str>>),
    Chars(Vec<u32>),
}

impl Units {
    /// Each unit as text: a word, or a character.
    pub fn strings(&self) -> Vec<String> {
        match self {
            Units::Words(w) => w.iter().map(|w| w.to_string()).collect(),
            Units::Chars(c) => c
                .iter()
                .filter_map(|&u| char::from_u32(u).map(String::from))
                .collect(),
        }
    }
}

impl WerConfig {
    /// The units of `text` as jiwer's transforms leave them.
    pub fn units(&self, text: &str) -> Units {
        let s = self.transformed(text);
        if self.characters {
            Units::Chars(strip(&s).chars().map(u32::from).collect())
        } else {
            Units::Words(words(&s))
        }
    }

    /// `text` lowercased and without punctuation, as asked (before it is cut into units).
    fn transformed<'a>(&self, text: &'a str) -> Cow<'a, str> {
        let mut s: Cow<'a, str> = Cow::Borrowed(text);
        if self.lowercase {
            s = Cow::Owned(lower(&s).into_owned());
        }
        if self.no_punct {
            s = Cow::Owned(s.chars().filter(|&c| !is_punctuation(c)).collect());
        }
        s
    }
}

/// jiwer's `wer_default` words: `re.sub(r"\s\s+", " ", s).strip().split(" ")`, empty ones
/// dropped. A single whitespace character other than a space (a tab, a no-break space) stays
/// inside its word, as it does in jiwer.
pub fn words(text: &str) -> Vec<Box<str>> {
    let mut collapsed = String::with_capacity(text.len());
    let mut run = String::new();
    for c in text.chars().chain(std::iter::once('\0')) {
        if is_space(c) {
            run.push(c);
            continue;
        }
        if run.chars().nth(1).is_some() {
            collapsed.push(' ');
        } else {
            collapsed.push_str(&run);
        }
        run.clear();
        if c != '\0' {
            collapsed.push(c);
        }
    }
    strip(&collapsed)
        .split(' ')
        .filter(|w| !w.is_empty())
        .map(Box::from)
        .collect()
}

/// `f(start, end)` for each of [`words`]' words, as byte ranges of `text`, without building a
/// string: a word ends at a space, or at a run of two or more whitespace characters; a single
/// other whitespace character stays inside its word; the whitespace at either end is dropped.
pub fn word_ranges(text: &str, mut f: impl FnMut(usize, usize)) {
    let mut start: Option<usize> = None;
    // The current run of whitespace: where it began, how many characters, whether it is one space.
    let (mut run, mut count, mut space) = (0, 0, false);
    for (at, c) in text.char_indices() {
        if is_space(c) {
            if count == 0 {
                (run, space) = (at, c == ' ');
            }
            count += 1;
            continue;
        }
        match start {
            None => start = Some(at),
            Some(open) if count >= 2 || (count == 1 && space) => {
                f(open, run);
                start = Some(at);
            }
            Some(_) => {}
        }
        count = 0;
    }
    if let Some(open) = start {
        f(open, if count > 0 { run } else { text.len() });
    }
}

/// Working space of one thread: the alignment matrix and the word ids of a pair.
#[derive(Default)]
pub struct WerScratch {
    bits: Bits,
    words: Interner,
    reference: Vec<u32>,
    hypothesis: Vec<u32>,
}

/// Words numbered by their text, for one segment's sentences, which it does not own: each word is
/// kept as (sentence, start, end) and compared with the sentences it is given again.
#[derive(Default)]
struct Interner {
    /// Open addressing: `id + 1`, or 0 for an empty slot.
    slots: Vec<u32>,
    words: Vec<(u64, u32, u32, u32)>,
}

impl Interner {
    /// Empty, with room for `words` words.
    fn reset(&mut self, words: usize) {
        self.words.clear();
        let size = (2 * words + 2).next_power_of_two();
        self.slots.clear();
        self.slots.resize(size, 0);
    }

    /// The id of `texts(sentence)[start..end]`, numbering it if it is new.
    fn id<'a>(
        &mut self,
        texts: impl Fn(u32) -> &'a str,
        (sentence, start, end): (u32, u32, u32),
    ) -> u32 {
        use std::hash::BuildHasher;
        let word = &texts(sentence)[start as usize..end as usize];
        let hash = rustc_hash::FxBuildHasher.hash_one(word);
        let mask = self.slots.len() - 1;
        let mut at = hash as usize & mask;
        loop {
            let slot = self.slots[at];
            if slot == 0 {
                self.words.push((hash, sentence, start, end));
                self.slots[at] = self.words.len() as u32;
                return self.words.len() as u32 - 1;
            }
            let (h, k, a, b) = self.words[slot as usize - 1];
            if h == hash && &texts(k)[a as usize..b as usize] == word {
                return slot - 1;
            }
            at = (at + 1) & mask;
        }
    }
}

/// One edit of an alignment, at rapidfuzz's positions: a substitution and a deletion name the
/// source unit they change, an insertion the source position before which it inserts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Edit {
    Substitute { src: usize, dest: usize },
    Delete { src: usize, dest: usize },
    Insert { src: usize, dest: usize },
}

/// The working space of one alignment: the source's symbols as bit masks per block of 64
/// units, and each column's vertical differences (Myers' bit-parallel algorithm, 1999).
#[derive(Default)]
pub struct Bits {
    symbols: FxHashMap<u32, u32>,
    /// `peq[symbol * blocks + block]`: where in that block of the source the symbol is.
    peq: Vec<u64>,
    /// After column `j` (destination unit `j`): for each block, the source units `i` where
    /// `d(i + 1, j + 1) - d(i, j + 1)` is +1 (`plus`) or -1 (`minus`).
    plus: Vec<u64>,
    minus: Vec<u64>,
    blocks: usize,
}

impl Bits {
    /// The edit-distance matrix of `a` (rows) and `b` (columns), held as its vertical differences.
    fn fill(&mut self, a: &[u32], b: &[u32]) {
        let blocks = a.len().div_ceil(64);
        self.blocks = blocks;
        self.symbols.clear();
        self.peq.clear();
        for (i, &unit) in a.iter().enumerate() {
            let next = self.symbols.len() as u32;
            let id = *self.symbols.entry(unit).or_insert(next) as usize;
            if id == next as usize {
                self.peq.resize((id + 1) * blocks, 0);
            }
            self.peq[id * blocks + i / 64] |= 1 << (i % 64);
        }
        self.plus.clear();
        self.minus.clear();
        // Column 0: d(i, 0) = i, every vertical difference +1.
        let (mut plus, mut minus) = (vec![!0u64; blocks], vec![0u64; blocks]);
        for &unit in b {
            let eq = self
                .symbols
                .get(&unit)
                .map(|&id| &self.peq[id as usize * blocks..][..blocks]);
            // Row 0: d(0, j) = j, so every column's horizontal difference enters block 0 as +1.
            let mut carry = 1i8;
            for k in 0..blocks {
                carry = advance(
                    eq.map_or(0, |e| e[k]),
                    &mut plus[k],
                    &mut minus[k],
                    carry,
                    1 << 63,
                );
            }
            self.plus.extend_from_slice(&plus);
            self.minus.extend_from_slice(&minus);
        }
    }

    /// `d(i, j) - d(i - 1, j)` for `1 <= i <= a.len()`, `0 <= j <= b.len()`.
    fn vertical(&self, i: usize, j: usize) -> i64 {
        if j == 0 {
            return 1;
        }
        let (word, bit) = ((j - 1) * self.blocks + (i - 1) / 64, (i - 1) % 64);
        if self.plus[word] >> bit & 1 == 1 {
            1
        } else if self.minus[word] >> bit & 1 == 1 {
            -1
        } else {
            0
        }
    }
}

/// One block of one column (Myers 1999, Fig. 9): the block's vertical differences advanced by
/// a destination unit matching the source where `eq` is set, with the horizontal difference
/// `carry` entering at its top row; returns the one leaving at its bottom row, the bit `high`
/// (bit 63 for a full block; resegmentation's last block is shorter).
#[inline(always)]
pub(crate) fn advance(mut eq: u64, plus: &mut u64, minus: &mut u64, carry: i8, high: u64) -> i8 {
    let (pv, mv) = (*plus, *minus);
    let xv = eq | mv;
    if carry < 0 {
        eq |= 1;
    }
    let xh = ((eq & pv).wrapping_add(pv) ^ pv) | eq;
    let mut ph = mv | !(xh | pv);
    let mut mh = pv & xh;
    let out = if ph & high != 0 {
        1
    } else if mh & high != 0 {
        -1
    } else {
        0
    };
    ph <<= 1;
    mh <<= 1;
    if carry < 0 {
        mh |= 1;
    } else if carry > 0 {
        ph |= 1;
    }
    *plus = mh | !(xv | ph);
    *minus = ph & xv;
    out
}

/// The edits turning `source` into `dest`, last first, as rapidfuzz's
/// `Levenshtein.editops(source, dest)` chooses them among equal-cost alignments: the common
/// prefix and suffix matched, then the backtrace from the end preferring a deletion, then an
/// insertion, then the diagonal, read off the matrix's vertical differences.
pub fn edits(source: &[u32], dest: &[u32], bits: &mut Bits, mut visit: impl FnMut(Edit)) {
    let prefix = source.iter().zip(dest).take_while(|(a, b)| a == b).count();
    let (source, dest) = (&source[prefix..], &dest[prefix..]);
    let suffix = source
        .iter()
        .rev()
        .zip(dest.iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    let (a, b) = (
        &source[..source.len() - suffix],
        &dest[..dest.len() - suffix],
    );
    let (mut i, mut j) = (a.len(), b.len());
    if i > 0 && j > 0 {
        bits.fill(a, b);
    }
    while i > 0 && j > 0 {
        if bits.vertical(i, j) == 1 {
            i -= 1;
            visit(Edit::Delete {
                src: prefix + i,
                dest: prefix + j,
            });
            continue;
        }
        j -= 1;
        if j > 0 && bits.vertical(i, j) == -1 {
            visit(Edit::Insert {
                src: prefix + i,
                dest: prefix + j,
            });
        } else {
            i -= 1;
            if a[i] != b[j] {
                visit(Edit::Substitute {
                    src: prefix + i,
                    dest: prefix + j,
                });
            }
        }
    }
    for i in (0..i).rev() {
        visit(Edit::Delete {
            src: prefix + i,
            dest: prefix,
        });
    }
    for j in (0..j).rev() {
        visit(Edit::Insert {
            src: prefix,
            dest: prefix + j,
        });
    }
}

/// Substitutions, deletions and insertions turning `source` into `dest`, split as rapidfuzz's
/// `Levenshtein.editops(source, dest)` splits them.
pub fn edit_counts(source: &[u32], dest: &[u32], bits: &mut Bits) -> (usize, usize, usize) {
    let (mut subs, mut dels, mut ins) = (0, 0, 0);
    edits(source, dest, bits, |edit| match edit {
        Edit::Substitute { .. } => subs += 1,
        Edit::Delete { .. } => dels += 1,
        Edit::Insert { .. } => ins += 1,
    });
    (subs, dels, ins)
}

/// A run of one kind in an alignment, as rapidfuzz's `Opcodes` (and jiwer's `AlignmentChunk`)
/// give it: source units `src.0..src.1` and destination units `dest.0..dest.1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Chunk {
    /// `equal`, `substitute`, `delete` or `insert`.
    pub kind: &'static str,
    pub src: (usize, usize),
    pub dest: (usize, usize),
}

/// The alignment of `source` and `dest` as runs: consecutive edits of one kind that follow one
/// another merged, and the equal runs between them.
pub fn alignment(source: &[u32], dest: &[u32], bits: &mut Bits) -> Vec<Chunk> {
    let mut found = Vec::new();
    edits(source, dest, bits, |edit| found.push(edit));
    let mut chunks: Vec<Chunk> = Vec::new();
    let (mut s, mut d) = (0, 0);
    for edit in found.into_iter().rev() {
        let (kind, src, dest, step) = match edit {
            Edit::Substitute { src, dest } => ("substitute", src, dest, (1, 1)),
            Edit::Delete { src, dest } => ("delete", src, dest, (1, 0)),
            Edit::Insert { src, dest } => ("insert", src, dest, (0, 1)),
        };
        if s < src || d < dest {
            chunks.push(Chunk {
                kind: "equal",
                src: (s, src),
                dest: (d, dest),
            });
        }
        let (s2, d2) = (src + step.0, dest + step.1);
        match chunks.last_mut() {
            Some(last) if last.kind == kind && last.src.1 == src && last.dest.1 == dest => {
                last.src.1 = s2;
                last.dest.1 = d2;
            }
            _ => chunks.push(Chunk {
                kind,
                src: (src, s2),
                dest: (dest, d2),
            }),
        }
        (s, d) = (s2, d2);
    }
    if s < source.len() || d < dest.len() {
        chunks.push(Chunk {
            kind: "equal",
            src: (s, source.len()),
            dest: (d, dest.len()),
        });
    }
    chunks
}

impl WerScratch {
    /// Both sentences as ids: characters are their code points, words are numbered here.
    fn ids(&mut self, reference: &Units, hypothesis: &Units) {
        self.reference.clear();
        self.hypothesis.clear();
        match (reference, hypothesis) {
            (Units::Chars(r), Units::Chars(h)) => {
                self.reference.extend_from_slice(r);
                self.hypothesis.extend_from_slice(h);
            }
            (Units::Words(r), Units::Words(h)) => {
                // Each word its own sentence to the interner: the reference's, then the hypothesis's.
                let n = r.len();
                let text = |k: u32| {
                    if (k as usize) < n {
                        &*r[k as usize]
                    } else {
                        &*h[k as usize - n]
                    }
                };
                self.words.reset(n + h.len());
                for (k, w) in r.iter().chain(h).enumerate() {
                    let id = self.words.id(text, (k as u32, 0, w.len() as u32));
                    if k < n {
                        &mut self.reference
                    } else {
                        &mut self.hypothesis
                    }
                    .push(id);
                }
            }
            _ => unreachable!("a hypothesis and its references are prepared alike"),
        }
    }
}

/// The row of `hyp` against its closest reference (fewest edits; the first among equals).
pub fn segment_row(
    hyp: &Units,
    refs: &[Units],
    scratch: &mut WerScratch,
    segment: usize,
    out: &mut [i64],
) -> Result<(), CoreError> {
    out.copy_from_slice(&closest(hyp, refs, scratch, segment)?.1);
    Ok(())
}

/// The alignment of `hyp` with its closest reference (the one [`segment_row`] counts): that
/// reference's index and the runs, the reference as source.
pub fn closest_alignment(
    hyp: &Units,
    refs: &[Units],
    scratch: &mut WerScratch,
    segment: usize,
) -> Result<(usize, Vec<Chunk>), CoreError> {
    let (k, _) = closest(hyp, refs, scratch, segment)?;
    scratch.ids(&refs[k], hyp);
    let chunks = alignment(&scratch.reference, &scratch.hypothesis, &mut scratch.bits);
    Ok((k, chunks))
}

fn closest(
    hyp: &Units,
    refs: &[Units],
    scratch: &mut WerScratch,
    segment: usize,
) -> Result<(usize, [i64; ROW_WIDTH]), CoreError> {
    let chars = matches!(hyp, Units::Chars(_));
    closest_by(refs.len(), chars, scratch, segment, |k, scratch| {
        scratch.ids(&refs[k], hyp)
    })
}

/// The closest of `refs` references, `fill(k, scratch)` putting reference `k`'s ids (and the
/// hypothesis's) in `scratch`: its index and row.
fn closest_by(
    refs: usize,
    chars: bool,
    scratch: &mut WerScratch,
    segment: usize,
    mut fill: impl FnMut(usize, &mut WerScratch),
) -> Result<(usize, [i64; ROW_WIDTH]), CoreError> {
    if refs == 0 {
        return Err(CoreError::NoReference { segment });
    }
    let mut best: Option<(usize, [i64; ROW_WIDTH])> = None;
    for k in 0..refs {
        fill(k, scratch);
        let (n, m) = (scratch.reference.len(), scratch.hypothesis.len());
        let cells = (n + 1).checked_mul(m + 1);
        if cells.is_none_or(|c| c > MAX_CELLS) {
            return Err(CoreError::SegmentTooLong {
                metric: if chars { "CER" } else { "WER" },
                unit: if chars { "character" } else { "word" },
                segment,
                hyp_words: m,
                ref_words: n,
                max_cells: MAX_CELLS,
            });
        }
        let (s, d, i) = edit_counts(&scratch.reference, &scratch.hypothesis, &mut scratch.bits);
        let row = [s, d, i, n - s - d, n].map(|v| v as i64);
        if best.is_none_or(|(_, b)| row[0] + row[1] + row[2] < b[0] + b[1] + b[2]) {
            best = Some((k, row));
        }
    }
    Ok(best.expect("at least one reference"))
}

/// The row of `hyp` against its closest reference, words numbered straight from the text (no
/// word made a string): what [`segment_row`] gives for the words [`WerConfig::units`] makes.
fn words_row(
    config: WerConfig,
    scratch: &mut WerScratch,
    segment: usize,
    (hyp, refs): (&str, &[&str]),
    out: &mut [i64],
) -> Result<(), CoreError> {
    let hyp = config.transformed(hyp);
    let refs: Vec<Cow<'_, str>> = refs.iter().map(|r| config.transformed(r)).collect();
    let bytes = hyp.len() + refs.iter().map(|r| r.len()).sum::<usize>();
    if bytes >= u32::MAX as usize {
        // Beyond the interner's offsets: as prepared units (which would then be too long).
        let refs: Vec<Units> = refs.iter().map(|r| Units::Words(words(r))).collect();
        return segment_row(&Units::Words(words(&hyp)), &refs, scratch, segment, out);
    }
    let text = |k: u32| {
        if k == 0 {
            &*hyp
        } else {
            &*refs[k as usize - 1]
        }
    };
    // A word and the whitespace after it take two bytes at least.
    scratch.words.reset(bytes / 2 + refs.len() + 1);
    scratch.hypothesis.clear();
    let WerScratch {
        words, hypothesis, ..
    } = scratch;
    word_ranges(&hyp, |a, b| {
        hypothesis.push(words.id(text, (0, a as u32, b as u32)));
    });
    let (_, row) = closest_by(refs.len(), false, scratch, segment, |k, scratch| {
        let WerScratch {
            words, reference, ..
        } = scratch;
        reference.clear();
        let sentence = k as u32 + 1;
        word_ranges(&refs[k], |a, b| {
            reference.push(words.id(text, (sentence, a as u32, b as u32)));
        });
    })?;
    out.copy_from_slice(&row);
    Ok(())
}

/// WER and CER as a [`RowMetric`]: [`PerReference`] does the rest.
pub struct Wer;

impl RowMetric for Wer {
    type Config = WerConfig;
    type Prepared = Units;
    type Scratch = WerScratch;

    /// An edit-distance matrix per pair: a few times BLEU's work for words, more for characters.
    const COST: usize = 4;

    fn row_width(_: WerConfig) -> usize {
        ROW_WIDTH
    }

    fn prepare_hyp(config: WerConfig, text: &str) -> Units {
        config.units(text)
    }

    /// Words numbered straight from the text ([`words_row`]); characters as prepared units.
    fn row_once(
        config: WerConfig,
        scratch: &mut WerScratch,
        segment: usize,
        hyp: &str,
        refs: &[&str],
        out: &mut [i64],
    ) -> Result<(), CoreError> {
        if !config.characters {
            return words_row(config, scratch, segment, (hyp, refs), out);
        }
        let refs: Vec<Units> = refs.iter().map(|r| config.units(r)).collect();
        segment_row(&config.units(hyp), &refs, scratch, segment, out)
    }

    fn row(
        _: WerConfig,
        scratch: &mut WerScratch,
        segment: usize,
        hyp: &Units,
        refs: &[Units],
        out: &mut [i64],
    ) -> Result<(), CoreError> {
        segment_row(hyp, refs, scratch, segment, out)
    }

    fn tokenize(config: WerConfig, lines: &[&str]) -> Option<Vec<String>> {
        Some(
            lines
                .iter()
                .map(|l| config.units(l).strings().join(" "))
                .collect(),
        )
    }
}

/// Reference streams transformed once.
pub type WerReferences = PerReference<Wer>;

/// Every hypothesis against every reference as its only reference.
pub type WerPairwise = PerReferencePairs<Wer>;

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(reference: &str, hypothesis: &str) -> (usize, usize, usize) {
        let ids = |s: &str| s.chars().map(u32::from).collect::<Vec<_>>();
        edit_counts(&ids(reference), &ids(hypothesis), &mut Bits::default())
    }

    /// Every alignment by brute force: the fewest edits any split gives.
    fn naive_distance(a: &[u32], b: &[u32]) -> usize {
        if a.is_empty() || b.is_empty() {
            return a.len() + b.len();
        }
        let diagonal = naive_distance(&a[1..], &b[1..]) + usize::from(a[0] != b[0]);
        diagonal
            .min(naive_distance(&a[1..], b) + 1)
            .min(naive_distance(a, &b[1..]) + 1)
    }

    /// The whole integer matrix and the same backtrace: what the bit-parallel matrix must equal.
    fn quadratic_edits(
        source: &[u32],
        dest: &[u32],
        matrix: &mut Vec<u32>,
        mut visit: impl FnMut(Edit),
    ) {
        let prefix = source.iter().zip(dest).take_while(|(a, b)| a == b).count();
        let (source, dest) = (&source[prefix..], &dest[prefix..]);
        let suffix = source
            .iter()
            .rev()
            .zip(dest.iter().rev())
            .take_while(|(a, b)| a == b)
            .count();
        let (a, b) = (
            &source[..source.len() - suffix],
            &dest[..dest.len() - suffix],
        );
        let (n, m) = (a.len(), b.len());
        let width = m + 1;
        // Every cell read is written first: the buffer only grows, never refilled.
        if matrix.len() < (n + 1) * width {
            matrix.resize((n + 1) * width, 0);
        }
        for (j, cell) in matrix[..width].iter_mut().enumerate() {
            *cell = j as u32;
        }
        for i in 1..=n {
            // Row by row over slices, without index arithmetic in the inner loop.
            let (done, rest) = matrix.split_at_mut(i * width);
            let prev = &done[(i - 1) * width..];
            let cur = &mut rest[..width];
            let ai = a[i - 1];
            let mut left = i as u32;
            cur[0] = left;
            for (((cell, &diagonal), &up), &bj) in
                cur[1..].iter_mut().zip(prev).zip(&prev[1..]).zip(b)
            {
                left = (diagonal + u32::from(ai != bj)).min(up + 1).min(left + 1);
                *cell = left;
            }
        }
        let d = |i: usize, j: usize| i64::from(matrix[i * width + j]);
        let (mut i, mut j) = (n, m);
        while i > 0 && j > 0 {
            if d(i, j) - d(i - 1, j) == 1 {
                i -= 1;
                visit(Edit::Delete {
                    src: prefix + i,
                    dest: prefix + j,
                });
                continue;
            }
            j -= 1;
            if j > 0 && d(i, j) - d(i - 1, j) == -1 {
                visit(Edit::Insert {
                    src: prefix + i,
                    dest: prefix + j,
                });
            } else {
                i -= 1;
                if a[i] != b[j] {
                    visit(Edit::Substitute {
                        src: prefix + i,
                        dest: prefix + j,
                    });
                }
            }
        }
        for i in (0..i).rev() {
            visit(Edit::Delete {
                src: prefix + i,
                dest: prefix,
            });
        }
        for j in (0..j).rev() {
            visit(Edit::Insert {
                src: prefix,
                dest: prefix + j,
            });
        }
    }

    fn random_units(next: &mut impl FnMut() -> u32, len: u32, alphabet: u32) -> Vec<u32> {
        (0..next() % len).map(|_| next() % alphabet).collect()
    }

    #[test]
    fn bit_parallel_edits_are_the_quadratic_matrixs_across_blocks() {
        let mut seed = 11u64;
        let mut next = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as u32
        };
        let mut bits = Bits::default();
        // Lengths across one, two and three blocks of 64; small alphabets give many ties.
        for (len, alphabet) in [(9, 2), (9, 4), (70, 3), (140, 2), (200, 5), (300, 40)] {
            for _ in 0..150 {
                let a = random_units(&mut next, len, alphabet);
                let mut b = random_units(&mut next, len, alphabet);
                if next() % 3 == 0 {
                    // A near copy: a long shared prefix or suffix, then edits.
                    b = a
                        .iter()
                        .map(|&u| {
                            if next() % 9 == 0 {
                                next() % alphabet
                            } else {
                                u
                            }
                        })
                        .collect();
                }
                let (mut fast, mut slow) = (Vec::new(), Vec::new());
                edits(&a, &b, &mut bits, |e| fast.push(e));
                quadratic_edits(&a, &b, &mut Vec::new(), |e| slow.push(e));
                assert_eq!(fast, slow, "{a:?} {b:?}");
            }
        }
    }

    #[test]
    fn counts_split_as_rapidfuzz_splits_them() {
        // rapidfuzz's editops: checked against Levenshtein.editops in tests/metrics/test_wer.py too.
        assert_eq!(counts("abc", "abc"), (0, 0, 0));
        assert_eq!(counts("abc", ""), (0, 3, 0));
        assert_eq!(counts("", "ab"), (0, 0, 2));
        assert_eq!(counts("ab", "ba"), (0, 1, 1));
        assert_eq!(counts("abcd", "xbcy"), (2, 0, 0));
        assert_eq!(counts("aa", "a"), (0, 1, 0));
    }

    #[test]
    fn the_edits_are_the_levenshtein_distance() {
        let mut seed = 7u64;
        let mut next = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as u32
        };
        for _ in 0..500 {
            let a: Vec<u32> = (0..next() % 7).map(|_| next() % 3).collect();
            let b: Vec<u32> = (0..next() % 7).map(|_| next() % 3).collect();
            let (s, d, i) = edit_counts(&a, &b, &mut Bits::default());
            assert_eq!(s + d + i, naive_distance(&a, &b), "{a:?} {b:?}");
            assert_eq!(a.len() - d + i, b.len());
        }
    }

    /// Text from pieces where jiwer's word rules differ: spaces, runs, single tabs and no-break
    /// spaces, Python-only whitespace, letters that lowercase, punctuation, multi-byte words.
    fn random_text(rng: &mut crate::testing::Rng) -> String {
        const PIECES: [&str; 14] = [
            "a", "b", "A", "é", "ß", "Straße", ",", " ", "  ", "\t", "\u{a0}", "\u{1c}",
            "\u{3000}", "de-",
        ];
        (0..rng.below(14))
            .map(|_| PIECES[rng.below(PIECES.len())])
            .collect()
    }

    #[test]
    fn word_ranges_are_jiwers_words() {
        let mut rng = crate::testing::Rng(41);
        for _ in 0..20_000 {
            let text = random_text(&mut rng);
            let mut ranges = Vec::new();
            word_ranges(&text, |a, b| ranges.push(&text[a..b]));
            let want = words(&text);
            assert_eq!(
                ranges,
                want.iter().map(|w| &**w).collect::<Vec<_>>(),
                "{text:?}"
            );
        }
    }

    #[test]
    fn sentences_scored_once_are_scored_as_prepared_units() {
        let mut rng = crate::testing::Rng(43);
        let mut scratch = WerScratch::default();
        for round in 0..6000 {
            let config = WerConfig {
                characters: false,
                lowercase: round % 3 == 1,
                no_punct: round % 3 == 2,
            };
            let hyp = random_text(&mut rng);
            let refs: Vec<String> = (0..1 + rng.below(3))
                .map(|_| random_text(&mut rng))
                .collect();
            let refs: Vec<&str> = refs.iter().map(|r| r.as_str()).collect();
            let (mut once, mut prepared) = ([0i64; ROW_WIDTH], [0i64; ROW_WIDTH]);
            Wer::row_once(config, &mut scratch, 0, &hyp, &refs, &mut once).unwrap();
            let units: Vec<Units> = refs.iter().map(|r| config.units(r)).collect();
            let hyp = config.units(&hyp);
            segment_row(&hyp, &units, &mut WerScratch::default(), 0, &mut prepared).unwrap();
            assert_eq!(once, prepared, "{hyp:?} {refs:?}");
        }
    }

    #[test]
    fn words_are_jiwers_default_words() {
        let w = |s: &str| words(s).iter().map(|w| w.to_string()).collect::<Vec<_>>();
        assert_eq!(w("  a  b c "), ["a", "b", "c"]);
        assert_eq!(w("a\tb"), ["a\tb"]); // one tab: not a word boundary in jiwer
        assert_eq!(w("a \tb"), ["a", "b"]); // two whitespace characters: one space
        assert_eq!(w("a\u{a0}b c"), ["a\u{a0}b", "c"]);
        assert!(w(" \t ").is_empty());
    }

    #[test]
    fn alignment_runs_cover_both_sentences_and_count_the_edits() {
        let ids = |s: &str| s.chars().map(u32::from).collect::<Vec<_>>();
        let (r, h) = (ids("abcdef"), ids("axcefg"));
        let chunks = alignment(&r, &h, &mut Bits::default());
        let kinds: Vec<_> = chunks.iter().map(|c| c.kind).collect();
        // jiwer.process_characters("abcdef", "axcefg").alignments, kind by kind.
        assert_eq!(
            kinds,
            ["equal", "substitute", "equal", "delete", "equal", "insert"]
        );
        assert_eq!(chunks.last().unwrap().dest, (5, 6));
        for pair in chunks.windows(2) {
            assert_eq!(
                (pair[0].src.1, pair[0].dest.1),
                (pair[1].src.0, pair[1].dest.0)
            );
        }
    }

    #[test]
    fn the_closest_reference_is_chosen() {
        let config = WerConfig {
            characters: false,
            lowercase: false,
            no_punct: false,
        };
        let hyp = config.units("a b c");
        let refs = [config.units("x y"), config.units("a b d")];
        let mut row = [0i64; ROW_WIDTH];
        segment_row(&hyp, &refs, &mut WerScratch::default(), 1, &mut row).unwrap();
        assert_eq!(row, [1, 0, 0, 2, 3]);
    }
}
