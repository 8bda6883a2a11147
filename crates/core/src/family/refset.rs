//! References prepared once per segment, for the metrics that keep each reference apart
//! (chrF and TER; BLEU merges a segment's references into one table, see [`crate::metrics::bleu::stats`]).

use crate::error::CoreError;
use crate::parallel::Exec;

/// The common length of parallel reference streams, or the error naming the first
/// stream whose length differs.
pub fn check_parallel<'a, S: AsRef<[Option<&'a str>]>>(streams: &[S]) -> Result<usize, CoreError> {
    let first = streams
        .first()
        .ok_or(CoreError::NoReferenceStreams)?
        .as_ref();
    for (k, stream) in streams.iter().enumerate().skip(1) {
        if stream.as_ref().len() != first.len() {
            return Err(CoreError::LengthMismatch {
                what: "reference stream 1".into(),
                expected: first.len(),
                other: format!("reference stream {}", k + 1),
                found: stream.as_ref().len(),
            });
        }
    }
    Ok(first.len())
}

/// What every metric's cached references are: a store that grows by reference streams.
pub trait ReferenceStore {
    /// Append the segments of `streams`, laid out as sacrebleu lays references out
    /// (`streams[k][i]` is the k-th reference of segment i; `None`: none there).
    fn extend<'a, S: AsRef<[Option<&'a str>]> + Sync>(
        &mut self,
        streams: &[S],
        exec: Exec,
    ) -> Result<(), CoreError>;

    /// Number of segments.
    fn len(&self) -> usize;

    /// True when there are no segments.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// How many references each segment has.
    fn refs_per_segment(&self) -> Vec<usize>;
}

/// Each segment's references, prepared (`T`), back to back.
#[derive(Debug, Clone)]
pub struct RefSet<T> {
    items: Vec<T>,
    /// `bounds[i]..bounds[i + 1]` are segment i's references in `items`.
    bounds: Vec<usize>,
}

impl<T> Default for RefSet<T> {
    fn default() -> Self {
        RefSet {
            items: Vec::new(),
            bounds: vec![0],
        }
    }
}

impl<T> RefSet<T> {
    /// Append the segments of `streams`, laid out as sacrebleu lays references out
    /// (`streams[k][i]` is the k-th reference of segment i; `None`: none there).
    /// `prepare` turns all the new references (segment by segment) into items. Every
    /// segment needs between 1 and `max_refs` references; nothing is added on error.
    pub fn extend<'a, S: AsRef<[Option<&'a str>]>>(
        &mut self,
        streams: &[S],
        max_refs: usize,
        prepare: impl FnOnce(&[&'a str]) -> Vec<T>,
    ) -> Result<(), CoreError> {
        let n = check_parallel(streams)?;
        let offset = self.len();
        let base = self.bounds[self.bounds.len() - 1];
        let mut lines = Vec::new();
        let mut bounds = Vec::with_capacity(n);
        for i in 0..n {
            let before = lines.len();
            lines.extend(streams.iter().filter_map(|s| s.as_ref()[i]));
            let found = lines.len() - before;
            if found == 0 {
                return Err(CoreError::NoReference {
                    segment: offset + i,
                });
            }
            if found > max_refs {
                return Err(CoreError::TooManyReferences {
                    segment: offset + i,
                    found,
                    max: max_refs,
                });
            }
            bounds.push(base + lines.len());
        }
        self.items.extend(prepare(&lines));
        self.bounds.extend(bounds);
        Ok(())
    }

    /// Number of segments.
    pub fn len(&self) -> usize {
        self.bounds.len() - 1
    }

    /// True when there are no segments.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The references of segment `i`.
    pub fn segment(&self, i: usize) -> &[T] {
        &self.items[self.bounds[i]..self.bounds[i + 1]]
    }

    /// How many references each segment has.
    pub fn refs_per_segment(&self) -> Vec<usize> {
        self.bounds.windows(2).map(|w| w[1] - w[0]).collect()
    }

    /// How many references segments `first..first + n` have in all.
    pub fn refs_of(&self, first: usize, n: usize) -> usize {
        self.bounds[first + n] - self.bounds[first]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments_keep_their_references_in_order() {
        let mut set: RefSet<String> = RefSet::default();
        let streams = vec![vec![Some("a"), None], vec![Some("b"), Some("c")]];
        set.extend(&streams, 16, |lines| {
            lines.iter().map(|l| l.to_uppercase()).collect()
        })
        .unwrap();
        assert_eq!(set.segment(0), ["A", "B"]);
        assert_eq!(set.segment(1), ["C"]);
        assert_eq!(set.refs_per_segment(), [2, 1]);
        assert_eq!(set.refs_of(0, 2), 3);
    }

    #[test]
    fn errors_name_the_segment_and_change_nothing() {
        let mut set: RefSet<String> = RefSet::default();
        set.extend(&[vec![Some("a")]], 1, |l| {
            l.iter().map(|s| s.to_string()).collect()
        })
        .unwrap();
        let none = vec![vec![Some("x"), None]];
        let err = set.extend(&none, 1, |l| l.iter().map(|s| s.to_string()).collect());
        assert_eq!(err, Err(CoreError::NoReference { segment: 2 }));
        let many = vec![vec![Some("x")], vec![Some("y")]];
        let err = set.extend(&many, 1, |l| l.iter().map(|s| s.to_string()).collect());
        assert!(matches!(
            err,
            Err(CoreError::TooManyReferences { found: 2, .. })
        ));
        assert_eq!(set.len(), 1);
    }
}
