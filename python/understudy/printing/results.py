"""Results as tables (:class:`~understudy.files.tables.Table`: text, LaTeX, CSV or JSON), as
``understudy score`` and ``understudy compare`` print them: corpus scores (a row per system, a
column per metric), paired tests against a baseline, all pairs with clusters, the BLEU paper's
block t-test.

>>> from understudy import BLEU
>>> from understudy.significance import paired_test
>>> refs = [["the cat sat on the mat", "a dog barked", "it rained all day"]]
>>> bleu = BLEU(references=refs)
>>> systems = [["the cat sat on the mat", "a dog barked", "it rained"], ["a cat", "dog", "rain"]]
>>> result = paired_test([bleu.segment_stats(s) for s in systems], ["base", "new"], "bs", 100)
>>> table = paired_table([result])
>>> table.header, [row[0] for row in table.rows]
(['System', 'BLEU (μ ± 95% CI)', 'p-value'], ['Baseline: base', 'new'])
>>> print(table.notes[0])  # doctest: +ELLIPSIS
Scores with mean ± 95% interval ... by paired bootstrap resampling (100 resamples, seed 12345); ...
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from understudy.files.tables import Table, text_table

if TYPE_CHECKING:  # the command line's plain scores load neither (start-up time)
    from understudy.result import Result
    from understudy.significance import (
        AllPairsResult,
        BlockTestResult,
        ConfidenceResult,
        PairedResult,
        SystemScore,
    )

ALPHA = 0.05
"""The level at which a paired test's p-value is starred."""


def score_text(s: SystemScore, width: int) -> str:
    """A score, with its resampled mean ± 95% interval when there is one (``width`` decimals).

    >>> from understudy.significance import SystemScore
    >>> score_text(SystemScore("A", 28.3012, mean=28.29, ci=0.71), 1)
    '28.3 (28.3 ± 0.7)'
    """
    if s.mean is None or s.ci is None:
        return f"{s.score:.{width}f}"
    return f"{s.score:.{width}f} ({s.mean:.{width}f} ± {s.ci:.{width}f})"


def _p(s: SystemScore) -> str:
    return "" if s.p_value is None else f"{s.p_value:.4f}" + ("*" if s.significant(ALPHA) else "")


def _test_name(test: str) -> str:
    return "paired bootstrap resampling" if test == "bs" else "paired approximate randomization"


def paired_table(results: list[PairedResult], width: int = 1, short: bool = False) -> Table:
    """Paired tests, one per metric: each system's score, mean ± 95% interval and p-value against
    the baseline, a pair of columns per metric (``width``: decimals of a 0-100 score;
    ``short``: abbreviated signatures)."""
    first = results[0]
    names = [f"Baseline: {first.baseline.name}", *(s.name for s in first.systems)]
    header = ["System"]
    columns: list[list[str]] = []
    intervals = first.baseline.mean is not None
    for result in results:
        name, w = result.signature.config.name, result.signature.config.decimals(width)
        header += [f"{name} (μ ± 95% CI)" if intervals else name, "p-value"]
        columns.append([score_text(result.baseline, w), *(score_text(s, w) for s in result.systems)])
        columns.append(["", *(_p(s) for s in result.systems)])
    rows = [[name, *(column[i] for column in columns)] for i, name in enumerate(names)]
    trials = "resamples" if first.test == "bs" else "trials"
    notes = [
        ("Scores with mean ± 95% interval of bootstrap resamples; p" if intervals else "P")
        + f"-values by {_test_name(first.test)} ({first.n} {trials}, seed {first.seed}); "
        f"* p <= {ALPHA}: significantly different from the baseline.",
        *(f"{r.signature.config.name} signature: {r.signature.format(short)}" for r in results),
    ]
    csv_header = ["system"]
    for result in results:
        name = result.signature.config.name
        csv_header += [name, f"{name}_mean", f"{name}_ci", f"{name}_p_value", f"{name}_signature"]
    csv_rows = []
    for k, system_name in enumerate(names):
        cells: list[Any] = [system_name]
        for result in results:
            s = result.baseline if k == 0 else result.systems[k - 1]
            cells += [s.score, s.mean, s.ci, s.p_value, result.signature.format()]
        csv_rows.append(cells)
    record: Any = results[0].to_dict() if len(results) == 1 else [r.to_dict() for r in results]
    return Table(header, rows, notes, csv_header, csv_rows, record)


def all_pairs_table(
    result: AllPairsResult, width: int = 1, short: bool = False, pairs: str = "list"
) -> Table:
    """The ranking with clusters, then the p-value of every pair, in the ranking's order (the
    better system first): a row a pair (``pairs="list"``), or a matrix whose rows and columns are
    the ranks (``"matrix"``); systems named without the folders, prefix and suffix their names
    share (the JSON record has them whole)."""
    from understudy.report.names import short_names

    w, name = result.signature.config.decimals(width), result.signature.config.name
    cluster_of = {name: k + 1 for k, members in enumerate(result.clusters) for name in members}
    full = [s.name for s in result.ranking]
    shown = dict(zip(full, short_names(full), strict=True))
    rows = [[str(cluster_of[s.name]), shown[s.name], score_text(s, w)] for s in result.ranking]
    matrix = result.ranked_p_values()

    def p_text(value: float | None) -> str:
        return "-" if value is None else f"{value:.4f}" + ("*" if value <= result.alpha else "")

    if pairs == "matrix":
        ranks = [str(k + 1) for k in range(len(full))]
        cells = [[f"{k + 1}. {shown[a]}", *map(p_text, matrix[k])] for k, a in enumerate(full)]
        between = [text_table(["Rank. System", *ranks], cells)]
    else:
        listed = [
            [f"{shown[a]} vs {shown[b]}", p_text(matrix[k][j])]
            for k, a in enumerate(full)
            for j, b in enumerate(full)
            if j > k
        ]
        between = [text_table(["Pair", "p-value"], listed)]
    notes = [
        "Clusters: down the ranking, a system joins the cluster above unless it differs from that cluster's "
        f"best system with p <= {result.alpha} ({_test_name(result.test)}, n = {result.n},"
        f" seed {result.seed}).",
        f"{name} signature: {result.signature.format(short)}",
    ]
    if any(shown[n] != n for n in full):
        notes.append(
            "Systems are named without the folders, prefix and suffix their files share (-f json: whole)."
        )
    header = ["Cluster", "System", f"{name} (μ ± 95% CI)"]
    return Table(header, rows, notes, record=result.to_dict(), between=between)


def all_pairs_csv(results: list[AllPairsResult]) -> Table:
    """Every metric's ranking as CSV rows: a row per metric and system, with its cluster."""
    rows = []
    for result in results:
        cluster_of = {n: k + 1 for k, members in enumerate(result.clusters) for n in members}
        signature = result.signature.format()
        for s in result.ranking:
            name = result.signature.config.name
            rows.append([name, cluster_of[s.name], s.name, s.score, s.mean, s.ci, signature])
    header = ["metric", "cluster", "system", "score", "mean", "ci", "signature"]
    return Table([], [], csv_header=header, csv_rows=rows)


def blocks_table(result: BlockTestResult, width: int = 1, short: bool = False) -> Table:
    """The BLEU paper's Table 2: mean and standard deviation of block scores, t between adjacent
    systems."""
    w, name = result.signature.config.decimals(width), result.signature.config.name
    t_of = {c.worse: c for c in result.comparisons}
    rows = []
    for s in result.systems:
        c = t_of.get(s.name)
        t, p = ("", "") if c is None else (f"{c.t:.2f}", f"{c.p_value:.4f}")
        rows.append([s.name, f"{s.score:.{w}f}", f"{s.mean:.{w}f}", f"{s.sd:.{w}f}", t, p])
    notes = [
        f"{result.blocks_described}. Mean and standard deviation of {name} over the blocks; t: paired "
        f"t-statistic against the system above ({len(result.block_sizes) - 1} degrees of freedom), "
        "with its two-sided p-value.",
        f"{name} signature: {result.signature.format(short)}",
    ]
    header = ["System", name, "Mean", "StdDev", "t", "p-value"]
    return Table(header, rows, notes, record=result.to_dict())


def confidence_table(
    results: list[ConfidenceResult], scores: list[Result], width: int = 1, short: bool = False
) -> Table:
    """One system's score by each metric (``scores``, in ``results``' order) with its bootstrap
    mean ± 95% interval: a line each as text, a CSV row of every metric, a JSON record each.

    >>> from understudy import BLEU
    >>> from understudy.significance import bootstrap_ci
    >>> same = ["the cat sat on the mat", "a dog ran far away"]
    >>> stats = BLEU().segment_stats(same, [same])
    >>> table = confidence_table([bootstrap_ci(stats, 100)], [stats.score()])
    >>> table.csv_header, round(table.record["confidence_mean"], 9)
    (['system', 'BLEU', 'BLEU_mean', 'BLEU_ci', 'BLEU_signature'], 100.0)
    """
    lines, records = [], []
    for result, base in zip(results, scores, strict=True):
        w = result.signature.config.decimals(width)
        s = result.system
        assert s.mean is not None and s.ci is not None
        extra = {"confidence_mean": s.mean, "confidence_ci": s.ci, "bs": result.n, "seed": result.seed}
        records.append({**base.to_dict(width), **extra})
        verbose = f" {base.verbose}" if base.verbose else ""
        lines.append(
            f"{base.name}|{result.signature.format(short)} = {s.score:.{w}f} "
            f"(μ = {s.mean:.{w}f} ± {s.ci:.{w}f}){verbose}"
        )
    names = (r.signature.config.name for r in results)
    header = ["system", *(c for n in names for c in (n, f"{n}_mean", f"{n}_ci", f"{n}_signature"))]
    row: list[Any] = [results[0].system.name or "System 1"]
    for result in results:
        row += [result.system.score, result.system.mean, result.system.ci, result.signature.format()]
    record = records[0] if len(records) == 1 else records
    return Table([], [], csv_header=header, csv_rows=[row], record=record, text="\n".join(lines))


def corpus_table(results: list[tuple[str, list[Result]]], width: int = 1, short: bool = False) -> Table:
    """Each system's scores: a row per system, a column per metric (CSV: with its signature).

    >>> from understudy import BLEU, CHRF
    >>> refs = [["the cat sat on the mat"]]
    >>> results = [(name, [m.corpus_score([hyp], refs) for m in (BLEU(), CHRF())])
    ...            for name, hyp in [("A", "the cat sat on the mat"), ("B", "a cat sat")]]
    >>> print(corpus_table(results).render("text"))  # doctest: +ELLIPSIS
    System   BLEU  chrF2
    ------  -----  -----
    A       100.0  100.0
    B       ...
    <BLANKLINE>
    BLEU signature: nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|ngram:4|version:understudy-...
    chrF2 signature: nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|beta:2|version:understudy-...
    """
    first = results[0][1]
    return Table(
        header=["System", *(r.name for r in first)],
        rows=[[name, *(r.format(width, score_only=True) for r in scores)] for name, scores in results],
        notes=[f"{r.name} signature: {r.signature.format(short)}" for r in first],
        latex_join="\n% ",
        csv_header=["system", *(c for r in first for c in (r.name, f"{r.name}_signature"))],
        csv_rows=[
            [name, *(v for r in scores for v in (r.score, r.signature.format()))] for name, scores in results
        ],
        record=corpus_record(results, width),
    )


def corpus_record(results: list[tuple[str, list[Result]]], width: int = 1) -> Any:
    """sacrebleu's JSON: one record, a list of a system's metrics, a list of systems."""
    if len(results) == 1:
        records = [r.to_dict(width) for r in results[0][1]]
        return records[0] if len(records) == 1 else records
    if len(results[0][1]) == 1:
        return [{"system": name, **r[0].to_dict(width)} for name, r in results]
    return [{"system": name, **{r.name: r.to_dict(width) for r in scores}} for name, scores in results]


__all__ = [
    "ALPHA",
    "all_pairs_csv",
    "all_pairs_table",
    "blocks_table",
    "corpus_record",
    "corpus_table",
    "paired_table",
    "score_text",
]
