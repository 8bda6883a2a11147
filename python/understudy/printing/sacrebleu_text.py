"""sacrebleu 2.6.0's command line as understudy speaks it: the flags only sacrebleu has
(:class:`SacrebleuFlags`, declared as the families declare their options), and what it prints,
byte for byte but for the signatures.

One system's metrics as its lines (aligned at ``=``) or JSON records; several systems as its
JSON list, or its table (tabulate's ``fancy_grid`` for text, ``latex_booktabs`` for LaTeX),
with the explanation of a paired test and the signatures after it. Colours are left out
(sacrebleu prints them on a terminal only). Each function returns the text; the bare command
line (``understudy REF -i HYP``) prints it.

>>> from understudy import corpus_bleu, corpus_chrf
>>> hyps, refs = ["the cat sat on the mat"], [["the cat sat on the mat"]]
>>> results = [corpus_bleu(hyps, refs), corpus_chrf(hyps, refs)]
>>> print(corpus_text([("hyp", results)], width=1, score_only=True))
100.0
100.0
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from understudy.config import Declared, option
from understudy.errors import ConfigError, MissingExtraError

if TYPE_CHECKING:
    from understudy.result import Result
    from understudy.significance import PairedResult, SystemScore


@dataclass(frozen=True)
class SacrebleuFlags(Declared):
    """sacrebleu's flags that understudy's own options do not already cover: its test-set
    actions (``--list``, ``--echo``, ``--download``, ``--citation``), the files' encoding, the
    breakdown of a test set's score (``--detail``), ``--quiet``, the flags accepted for
    compatibility, and ``--paired-jobs``.

    >>> SacrebleuFlags(paired_jobs=0).threads(8)
    """

    cli_group: ClassVar[str | None] = "sacrebleu's other flags"

    list: bool = option(
        False,
        flags=("--list",),
        help="list the test sets (with -l: those with the pair; "
        "with -t: its pairs and their fields) and exit",
    )
    echo: tuple[str, ...] | None = option(
        None,
        flags=("--echo",),
        nargs="+",
        metavar="FIELD",
        help="print fields of -t/-l (src, ref, ref:A, docid, origlang, ..., or all), TAB-separated, and exit",
    )
    download: str | None = option(
        None, flags=("--download",), metavar="NAME", help="fetch test set NAME into the cache and exit"
    )
    citation: bool = option(False, flags=("--citation", "--cite"), help="print the BibTeX of -t and exit")
    encoding: str = option(
        "utf-8", flags=("-e", "--encoding"), help="encoding of the input files (default: utf-8)"
    )
    detail: bool = option(
        False,
        flags=("-d", "--detail"),
        help="with -t and one system: also the scores of each original language and domain (or country)"
        " of the test set",
    )
    quiet: bool = option(False, flags=("-q", "--quiet"), help="no warnings and no progress bars")
    force: bool = option(False, flags=("--force",), help="accepted; understudy never refuses tokenized input")
    no_color: bool = option(False, flags=("-nc", "--no-color"), help="accepted; understudy prints no colours")
    paired_jobs: int | None = option(
        None,
        flags=("--paired-jobs",),
        type=int,
        metavar="N",
        help="sacrebleu's workers: here the cores to use (-j); 0: all",
    )

    def threads(self, threads: int | None) -> int | None:
        """The cores to use: ``--paired-jobs``'s (0: all, ``None``), else ``threads`` (``-j``)."""
        if self.paired_jobs is None:
            return threads
        if self.paired_jobs < 0:
            raise ConfigError(f"--paired-jobs must be 0 or more, got {self.paired_jobs}")
        return self.paired_jobs or None


@dataclass(frozen=True)
class Paired:
    """The paired test a table shows: ``bs`` or ``ar``, and its resamples or trials.

    >>> Paired("bs", 1000).test
    'bs'
    """

    test: str
    n: int


def corpus_text(
    results: list[tuple[str, list[Result]]],
    width: int,
    *,
    score_only: bool = False,
    short: bool = False,
    as_json: bool = False,
    intervals: list[tuple[float, float]] | None = None,
) -> str:
    """One system's metrics (with their bootstrap ``intervals``, mean and half width), or several
    systems' scores as sacrebleu's JSON list.

    >>> from understudy import corpus_bleu
    >>> bleu = corpus_bleu(["the cat sat on the mat"], [["the cat sat on the mat"]])
    >>> print(corpus_text([("a", [bleu]), ("b", [bleu])], width=1))
    [
        {
            "system": "a",
            "BLEU": "100.0"
        },
        {
            "system": "b",
            "BLEU": "100.0"
        }
    ]
    """
    if len(results) > 1:
        table = [
            {"system": name, **{r.name: r.sacrebleu_format(width, True) for r in scores}}
            for name, scores in results
        ]
        return json.dumps(table, indent=4)
    scores = results[0][1]
    spans: list[tuple[float, float] | None] = [*intervals] if intervals else [None] * len(scores)
    lines = [
        r.sacrebleu_format(width, score_only, short and not as_json, as_json, span)
        for r, span in zip(scores, spans, strict=True)
    ]
    if as_json:
        return lines[0] if len(lines) == 1 else "[\n" + ",\n".join(lines) + "\n]"
    return "\n".join(_aligned(lines))


def _aligned(lines: list[str]) -> list[str]:
    """sacrebleu's alignment of several metrics' lines at their ``=`` (a line without one, a
    score alone, is printed as it is, before the aligned ones)."""
    if len(lines) == 1:
        return lines
    alone = [line for line in lines if "=" not in line]
    marked = [line for line in lines if "=" in line]
    width = max((line.index("=") - 1 for line in marked), default=0)
    return alone + [f"{line[: line.index('=') - 1]:>{width}}{line[line.index('=') - 1 :]}" for line in marked]


def _tabulate(columns: dict[str, list[str]], fmt: str, width: int) -> str:
    try:
        from tabulate import tabulate
    except ImportError as error:
        raise MissingExtraError(
            "sacrebleu's text and LaTeX tables need the 'tables' extra: pip install 'understudy-mt[tables]'"
        ) from error
    table: str = tabulate(
        columns,
        headers="keys",
        tablefmt="fancy_grid" if fmt == "text" else "latex_booktabs",
        colalign=("right",),
        stralign="center",
        numalign="center",
        floatfmt=f".{width}f",
    )
    return table


def _explanation(paired: Paired, baseline: str) -> list[str]:
    """sacrebleu's notes on a paired test, as it prints them below the table."""
    kind = "bootstrap resampling" if paired.test == "bs" else "approximate randomization"
    unit = "resampling trials" if paired.test == "bs" else "trials"
    title = f"Paired {kind} test with {paired.n} {unit}"
    provided = (
        "   Actual system score / bootstrap estimated true mean / 95% CI are provided for each metric."
        if paired.test == "bs"
        else "   Actual system score is provided for each metric."
    )
    return [
        "-" * len(title),
        title,
        "-" * len(title),
        f" - Each system is pairwise compared to {baseline}.",
        provided,
        "",
        " - Null hypothesis: the system and the baseline translations are essentially",
        "   generated by the same underlying process. For a given system and the baseline,",
        "   the p-value is roughly the probability of the absolute score difference (delta)",
        "   or higher occurring due to chance, under the assumption that the null hypothesis is correct.",
        "",
        " - Assuming a significance threshold of 0.05, the null hypothesis can be rejected",
        '   for p-values < 0.05 (marked with "*"). This means that the delta is unlikely to be attributed',
        '   to chance, hence the system is significantly "different" than the baseline.',
        "   Otherwise, the p-values are highlighted in red.",
        "",
        ' - NOTE: Significance does not tell whether a system is "better" than the baseline but rather',
        '   emphasizes the "difference" of the systems in terms of the replicability of the delta.',
        "",
    ]


def table_text(
    systems: list[str],
    columns: dict[str, list[str]],
    signatures: dict[str, str],
    fmt: str,
    width: int,
    paired: Paired | None = None,
) -> str:
    """sacrebleu's table of ``columns`` (a metric's formatted cells, in ``systems`` order), then
    its paired-test notes and the metrics' signatures; ``fmt``: ``text`` or ``latex``.

    >>> print(table_text(["a", "b"], {"BLEU": ["20.0", "30.0"]}, {"BLEU": "nrefs:1"}, "text", 1))
    ╒══════════╤════════╕
    │   System │  BLEU  │
    ╞══════════╪════════╡
    │        a │  20.0  │
    ├──────────┼────────┤
    │        b │  30.0  │
    ╘══════════╧════════╛
    <BLANKLINE>
    -----------------
    Metric signatures
    -----------------
     - BLEU       nrefs:1
    """
    lines = [_tabulate({"System": systems, **columns}, fmt, width), ""]
    if paired is not None:
        lines += _explanation(paired, systems[0])
    lines += ["-----------------", "Metric signatures", "-----------------"]
    lines += [f" - {name:<10} {signature}" for name, signature in signatures.items()]
    return "\n".join(lines)


def _cell(s: SystemScore, width: int, multiline: bool) -> str:
    # sacrebleu's _format_score_lines: the score, its bootstrap mean ± CI, the p-value below it.
    text = f"{s.score:.{width}f}"
    if s.mean is not None:
        text += f" ({s.mean:.{width}f} ± {s.ci:.{width}f})"
    if s.p_value is not None:
        text += ("\n" if multiline else " ") + f"(p = {s.p_value:.4f})" + ("*" if s.p_value <= 0.05 else "")
    return text


def paired_text(
    results: list[PairedResult], order: list[str], fmt: str, width: int, short: bool = False
) -> str:
    """Paired tests of several metrics as sacrebleu prints them: JSON (a record per system, each
    metric's score, p-value, mean and CI) or its table; metrics in ``order`` (``-m``'s) first.

    >>> from understudy import BLEU
    >>> from understudy.significance import paired_test
    >>> refs = [["a cat sat on the mat", "the dog ran"]]
    >>> stats = [BLEU().segment_stats(h, refs) for h in (["a cat sat on a mat", "a dog ran"], refs[0])]
    >>> record = json.loads(paired_text([paired_test(stats, ["base", "b"], "ar", 100, 1)], [], "json", 1))
    >>> [r["system"] for r in record], round(record[1]["BLEU"]["score"], 9)
    (['Baseline: base', 'b'], 100.0)
    """
    # sacrebleu's paired test keeps -m's order (its plain tables sort the metrics by name).
    results = sorted(
        results,
        key=lambda r: (
            order.index(r.signature.config.metric) if r.signature.config.metric in order else len(order)
        ),
    )
    first = results[0]
    systems = [f"Baseline: {first.baseline.name}", *(s.name for s in first.systems)]
    by_metric = {r.signature.config.name: [r.baseline, *r.systems] for r in results}
    if fmt == "json":
        records: list[dict[str, Any]] = []
        for k, name in enumerate(systems):
            record: dict[str, Any] = {"system": name}
            for metric, scores in by_metric.items():
                s = scores[k]
                record[metric] = {"score": s.score, "p_value": s.p_value, "mean": s.mean, "ci": s.ci}
            records.append(record)
        return json.dumps(records, indent=4)
    suffix = " (μ ± 95% CI)" if first.baseline.mean is not None else ""
    multiline = fmt == "text"
    columns = {m + suffix: [_cell(s, width, multiline) for s in scores] for m, scores in by_metric.items()}
    signatures = {r.signature.config.name: r.signature.format(short) for r in results}
    return table_text(systems, columns, signatures, fmt, width, Paired(first.test, first.n))


def sets_text(langpair: str | None = None) -> str:
    """sacrebleu's ``--list``: the test sets (with ``langpair``: those with the pair, either way),
    each with its description.

    >>> print("\\n".join(sets_text("en-de").splitlines()[:2]))  # doctest: +ELLIPSIS
    The available test sets for en-de are:
    iwslt17                       : ...
    """
    from understudy.datasets import dataset, names, names_for_langpair

    chosen = names_for_langpair(langpair) if langpair else names()
    head = f"The available test sets for {langpair} are:" if langpair else "The available test sets are:"
    return "\n".join([head, *(f"{n:<30}: {dataset(n).description.strip()}" for n in sorted(chosen))])


def detail_text(rows: list[tuple[str, int, list[Result]]], width: int) -> str:
    """sacrebleu's ``--detail``: each original language's (and subset's) score by each metric,
    from :func:`understudy.datasets.references.detail_scores`' ``rows``.

    >>> from understudy import corpus_bleu
    >>> bleu = corpus_bleu(["the cat sat on the mat"], [["the cat sat on the mat"]])
    >>> print(detail_text([("origlang=de domain=ALL", 1, [bleu])], 1))
    origlang=de domain=ALL : sentences=1      BLEU = 100.0
    """
    if not rows:
        return "No subset information found. Consider using --origlang argument."
    key_width = max(len(key) for key, _, _ in rows) + 1
    name_width = max(len(r.name) for r in rows[0][2])
    return "\n".join(
        f"{key:<{key_width}}: sentences={n:<6} {r.name:<{name_width}} = {r.score:.{width}f}"
        for key, n, scores in rows
        for r in scores
    )


__all__ = ["Paired", "corpus_text", "detail_text", "paired_text", "sets_text", "table_text"]
