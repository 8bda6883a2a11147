//! What the one scorer class needs of a family's store, object-safe: the family is chosen at
//! run time by name ([`crate::families`]), and [`AnyFamily`] is implemented once for every
//! [`Family`]. Its own file, so that the families and the scorer class both import it and
//! neither imports the other.

use pyo3::prelude::*;
use understudy_core::family::refset::{check_parallel, ReferenceStore};
use understudy_core::family::{Family, PairTable};
use understudy_core::text::token_ids::IdBatch;
use understudy_core::{CoreError, Exec};

use crate::convert::{chunked, CHUNK};
use crate::errors::Result;

/// What the Python class needs of a family's store, object-safe (the family is chosen at
/// run time by name); implemented once for every [`Family`].
pub trait AnyFamily: Send + Sync {
    fn add_references(
        &mut self,
        py: Python<'_>,
        threads: usize,
        streams: &[Vec<Option<&str>>],
    ) -> Result<()>;
    fn len(&self) -> usize;
    fn refs_per_segment(&self) -> Vec<usize>;
    fn row_width(&self) -> usize;
    fn stats_many(&self, py: Python<'_>, threads: usize, systems: &[Vec<&str>])
        -> Result<Vec<i64>>;
    fn sentence_stats(
        &self,
        py: Python<'_>,
        threads: usize,
        hyps: &[&str],
        streams: &[Vec<Option<&str>>],
    ) -> Result<(Vec<i64>, Vec<usize>)>;
    /// Rows of token ids counted as integers, or `None` where the family has no such path
    /// (or a segment is too long for it): the caller writes the ids as text instead.
    fn sentence_stats_ids(
        &self,
        py: Python<'_>,
        threads: usize,
        hyps: IdBatch<'_>,
        streams: &[IdBatch<'_>],
    ) -> Result<Option<(Vec<i64>, Vec<usize>)>>;
    fn pairs(
        &self,
        py: Python<'_>,
        threads: usize,
        hyps: &[&str],
        refs: &[&str],
    ) -> Box<dyn PairTable + Send>;
    fn tokenize(&self, py: Python<'_>, lines: &[&str]) -> Option<Vec<String>>;
    fn cost(&self) -> usize;
}

impl<F: Family> AnyFamily for F {
    fn add_references(
        &mut self,
        py: Python<'_>,
        threads: usize,
        streams: &[Vec<Option<&str>>],
    ) -> Result<()> {
        // Preparing references is reading and tokenizing them: a BLEU segment's work.
        let n = check_parallel(streams)?;
        chunked(py, threads, n, CHUNK, 1, |range, exec| {
            let part: Vec<&[Option<&str>]> = streams.iter().map(|s| &s[range.clone()]).collect();
            self.extend(&part, exec)
        })
    }

    fn len(&self) -> usize {
        ReferenceStore::len(self)
    }

    fn refs_per_segment(&self) -> Vec<usize> {
        ReferenceStore::refs_per_segment(self)
    }

    fn row_width(&self) -> usize {
        Family::row_width(self)
    }

    fn stats_many(
        &self,
        py: Python<'_>,
        threads: usize,
        systems: &[Vec<&str>],
    ) -> Result<Vec<i64>> {
        let n = ReferenceStore::len(self);
        let per_row = systems.len() * Family::row_width(self);
        let mut rows = vec![0i64; self.rows_of(0, n) * per_row];
        let chunk = (CHUNK / F::COST / systems.len().max(1)).max(1);
        chunked(
            py,
            threads,
            n,
            chunk,
            F::COST * systems.len(),
            |range, exec| {
                let part: Vec<&[&str]> = systems.iter().map(|s| &s[range.clone()]).collect();
                let start = self.rows_of(0, range.start) * per_row;
                let end = self.rows_of(0, range.end) * per_row;
                self.stats_many_into(range.start, &part, &mut rows[start..end], exec)
            },
        )?;
        Ok(rows)
    }

    fn sentence_stats(
        &self,
        py: Python<'_>,
        threads: usize,
        hyps: &[&str],
        streams: &[Vec<Option<&str>>],
    ) -> Result<(Vec<i64>, Vec<usize>)> {
        let n = check_parallel(streams)?;
        if n != hyps.len() {
            return Err(CoreError::hyps_vs_refs(hyps.len(), n).into());
        }
        let config = self.config();
        let (mut rows, mut counts) = (Vec::new(), Vec::with_capacity(n));
        chunked(
            py,
            threads,
            n,
            (CHUNK / F::COST).max(1),
            F::COST,
            |range, exec| {
                let part: Vec<&[Option<&str>]> =
                    streams.iter().map(|s| &s[range.clone()]).collect();
                let (part_rows, part_counts) =
                    F::sentence_stats(config, &hyps[range.clone()], &part, exec)
                        .map_err(|e| e.shifted(range.start))?;
                rows.extend(part_rows);
                counts.extend(part_counts);
                Ok(())
            },
        )?;
        Ok((rows, counts))
    }

    fn sentence_stats_ids(
        &self,
        py: Python<'_>,
        threads: usize,
        hyps: IdBatch<'_>,
        streams: &[IdBatch<'_>],
    ) -> Result<Option<(Vec<i64>, Vec<usize>)>> {
        let n = hyps.len();
        if let Some(stream) = streams.iter().find(|s| s.len() != n) {
            return Err(CoreError::hyps_vs_refs(n, stream.len()).into());
        }
        let config = self.config();
        let (mut rows, mut counts, mut counted) = (Vec::new(), Vec::with_capacity(n), true);
        chunked(
            py,
            threads,
            n,
            (CHUNK / F::COST).max(1),
            F::COST,
            |range, exec| {
                let part: Vec<IdBatch> = streams.iter().map(|s| s.part(range.clone())).collect();
                if !counted {
                    return Ok(());
                }
                match F::sentence_stats_ids(config, hyps.part(range.clone()), &part, exec) {
                    None => counted = false,
                    Some(result) => {
                        let (part_rows, part_counts) =
                            result.map_err(|e| e.shifted(range.start))?;
                        rows.extend(part_rows);
                        counts.extend(part_counts);
                    }
                }
                Ok(())
            },
        )?;
        Ok(counted.then_some((rows, counts)))
    }

    fn pairs(
        &self,
        py: Python<'_>,
        threads: usize,
        hyps: &[&str],
        refs: &[&str],
    ) -> Box<dyn PairTable + Send> {
        let config = self.config();
        let table = crate::pools::run(py, threads, hyps.len() + refs.len(), |exec: Exec| {
            F::pairs(config, hyps, refs, exec)
        });
        Box::new(table)
    }

    fn tokenize(&self, py: Python<'_>, lines: &[&str]) -> Option<Vec<String>> {
        let config = self.config();
        py.detach(|| F::tokenize(config, lines))
    }

    fn cost(&self) -> usize {
        F::COST
    }
}
