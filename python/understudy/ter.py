"""TER (Snover et al., 2006) as an object (``TER``) and as sacrebleu's functions.

Translation edit rate: the fewest word edits (insertions, deletions, substitutions
and shifts of word blocks) that turn the hypothesis into a reference, per reference
word, times 100; lower is better. Every number is sacrebleu 2.6.0's Tercom
re-implementation's, beam search and shift limits included.

>>> corpus_ter(["the cat sat on mat"], [["the cat sat on the mat"]]).score
16.666666666666664
>>> sentence_ter("on the mat the cat sat", ["the cat sat on the mat"]).num_edits
1
"""

from __future__ import annotations

from collections.abc import Sequence

from understudy import _core
from understudy.config import TERConfig
from understudy.metric import Metric, RefStreams
from understudy.result import TERResult
from understudy.stats import TERStats


class TER(Metric[TERStats]):
    """A TER scorer with a fixed configuration and, optionally, cached references.

    Keyword arguments and defaults are sacrebleu's (Tercom's): case-insensitive,
    no normalization, punctuation kept, no special treatment of Asian scripts.
    Up to 16 references per segment (so that averaged reference lengths sum exactly).
    ``tokenizer="tercom-fixed"`` fixes sacrebleu's double tokenization of references
    (see :class:`~understudy.config.TERConfig`); it matters only with ``normalized``.

    >>> TER(normalized=True).sentence_score("Nima's, x", ["Nima's, x"]).score  # sacrebleu: 50.0
    50.0
    >>> TER(normalized=True, tokenizer="tercom-fixed").sentence_score("Nima's, x", ["Nima's, x"]).score
    0.0

    >>> ter = TER(references=[["a b c d", "e f"]])
    >>> [r.score for r in ter.corpus_scores([["a b c d", "e f"], ["a b d c", "e"]])]
    [0.0, 33.33333333333333]
    >>> TER().pairwise(["a b", "c"], ["a b", "a c"]).tolist()
    [[0.0, 50.0], [100.0, 50.0]]
    """

    stats_type = TERStats
    config: TERConfig

    def __init__(
        self,
        normalized: bool = False,
        no_punct: bool = False,
        asian_support: bool = False,
        case_sensitive: bool = False,
        references: RefStreams | None = None,
        threads: int | None = None,
        tokenizer: str = "tercom",
    ) -> None:
        config = TERConfig(normalized, no_punct, asian_support, case_sensitive, tokenizer)
        self._setup(config, references, threads)

    def _scorer(self) -> _core.TerScorer:
        c = self.config
        return _core.TerScorer(
            c.normalized, c.no_punct, c.asian_support, c.case_sensitive, c.fixed, self.threads
        )

    def corpus_score(self, hyps: Sequence[str], refs: RefStreams | None = None) -> TERResult:
        """Corpus TER of ``hyps`` against ``refs`` (or the cached references)."""
        return self.segment_stats(hyps, refs).score()

    def corpus_scores(
        self, systems: Sequence[Sequence[str]], refs: RefStreams | None = None
    ) -> list[TERResult]:
        """Corpus TER of each system, faster than one by one."""
        return [stats.score() for stats in self.segment_stats_many(systems, refs)]

    def sentence_score(self, hyp: str, refs: Sequence[str | None]) -> TERResult:
        """Sentence TER of one hypothesis against its references."""
        result: TERResult = super().sentence_score(hyp, refs)
        return result


def corpus_ter(
    hyps: Sequence[str],
    refs: RefStreams,
    normalized: bool = False,
    no_punct: bool = False,
    asian_support: bool = False,
    case_sensitive: bool = False,
) -> TERResult:
    """Corpus TER with sacrebleu's ``corpus_ter`` arguments.

    >>> corpus_ter(["A B"], [["a b"]]).score, corpus_ter(["A B"], [["a b"]], case_sensitive=True).score
    (0.0, 100.0)
    """
    return TER(normalized, no_punct, asian_support, case_sensitive).corpus_score(hyps, refs)


def sentence_ter(
    hyp: str,
    refs: Sequence[str | None],
    normalized: bool = False,
    no_punct: bool = False,
    asian_support: bool = False,
    case_sensitive: bool = False,
) -> TERResult:
    """Sentence TER with sacrebleu's ``sentence_ter`` arguments.

    >>> sentence_ter("a b c", ["a b c d"]).score
    25.0
    """
    return TER(normalized, no_punct, asian_support, case_sensitive).sentence_score(hyp, refs)
