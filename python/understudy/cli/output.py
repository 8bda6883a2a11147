"""Shared pieces of the command line: subcommand setup, writing UTF-8 output, errors, tables."""

from __future__ import annotations

import argparse
import csv
import io
import os
import sys
import warnings
from typing import Any, BinaryIO

from understudy.bleu import BLEU
from understudy.config import SMOOTH_DEFAULTS, TER_TOKENIZERS, TOKENIZERS, CHRFConfig, MetricConfig, TERConfig
from understudy.metric import Metric
from understudy.metrics import METRICS, metric_for


def add_command(
    commands: Any, name: str, summary: str, description: str, examples: str
) -> argparse.ArgumentParser:
    """Register subcommand ``name``, its help keeping the examples' line breaks."""
    parser: argparse.ArgumentParser = commands.add_parser(
        name,
        help=summary,
        description=description,
        epilog=examples,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    return parser


def add_text_options(parser: argparse.ArgumentParser, lowercase_help: str, language: bool = True) -> None:
    """The options that decide how text becomes tokens: ``-tok``, ``-lc`` and (unless the
    command has its own, as ``score`` has for ``-t``) ``-l``, whose target picks the tokenizer."""
    if language:
        parser.add_argument(
            "-l",
            "--language-pair",
            dest="langpair",
            metavar="SRC-TRG",
            help="the language pair; its target picks the default tokenizer, as in sacrebleu",
        )
    parser.add_argument(
        "-tok",
        "--tokenize",
        choices=[*TOKENIZERS, "spm"],
        help="tokenizer (default: 13a; with -l, zh, ja-mecab or ko-mecab for a Chinese, Japanese or "
        "Korean target, as in sacrebleu; ja-mecab, ko-mecab and the SentencePiece ones flores101, "
        "flores200, spBLEU-1K need the extras ja, ko, spm)",
    )
    parser.add_argument("-lc", "--lowercase", action="store_true", help=lowercase_help)


def add_scoring_options(parser: argparse.ArgumentParser) -> None:
    """The options that decide how statistics become a score: smoothing and maximum order."""
    parser.add_argument(
        "-s", "--smooth-method", default="exp", choices=list(SMOOTH_DEFAULTS), help="smoothing (default: exp)"
    )
    parser.add_argument(
        "-sv", "--smooth-value", type=float, help="value for floor (default 0.1) and add-k (default 1)"
    )
    parser.add_argument(
        "--max-ngram-order", type=int, default=4, metavar="N", help="maximum n-gram order (default: 4)"
    )


def scorer(args: argparse.Namespace, effective_order: bool) -> BLEU:
    """The BLEU scorer that the text, scoring and thread options ask for."""
    return BLEU(
        tokenize=args.tokenize,
        lowercase=args.lowercase,
        smooth_method=args.smooth_method,
        smooth_value=args.smooth_value,
        max_ngram_order=args.max_ngram_order,
        effective_order=effective_order,
        trg_lang=target_language(args),
        threads=args.threads,
    )


def add_metric_options(parser: argparse.ArgumentParser) -> None:
    """``-m`` and sacrebleu's chrF and TER flags (with their defaults)."""
    parser.add_argument(
        "-m",
        "--metrics",
        nargs="+",
        choices=list(METRICS),
        default=["bleu"],
        metavar="METRIC",
        help="any of bleu chrf ter (default: bleu); printed in that order, as sacrebleu does",
    )
    chrf = parser.add_argument_group("chrF (-m chrf)")
    chrf.add_argument(
        "-cc", "--chrf-char-order", type=int, default=6, metavar="N", help="character order (6)"
    )
    chrf.add_argument(
        "-cw", "--chrf-word-order", type=int, default=0, metavar="N", help="word order (0; 2 is chrF++)"
    )
    chrf.add_argument("--chrf-beta", type=int, default=2, metavar="B", help="weight of recall (2)")
    chrf.add_argument("--chrf-whitespace", action="store_true", help="count spaces as characters")
    chrf.add_argument("--chrf-lowercase", action="store_true", help="case-insensitive chrF")
    chrf.add_argument(
        "--chrf-eps-smoothing", action="store_true", help="epsilon smoothing of chrF++.py, Moses and NLTK"
    )
    ter = parser.add_argument_group("TER (-m ter; defaults are Tercom's)")
    ter.add_argument("--ter-case-sensitive", action="store_true", help="do not lowercase")
    ter.add_argument("--ter-asian-support", action="store_true", help="split CJK characters and punctuation")
    ter.add_argument("--ter-no-punct", action="store_true", help="remove punctuation")
    ter.add_argument("--ter-normalized", action="store_true", help="Tercom's normalization and tokenization")
    ter.add_argument(
        "--ter-tokenizer",
        choices=TER_TOKENIZERS,
        default="tercom",
        help="tercom: sacrebleu's, which tokenizes references twice (with --ter-normalized an exact copy "
        "can score above 0); tercom-fixed: once (default: tercom)",
    )


def scorers(args: argparse.Namespace, effective_order: bool) -> list[Metric[Any]]:
    """One scorer per metric of ``-m``, in sacrebleu's order; ``effective_order`` is BLEU's."""
    configs: dict[str, MetricConfig] = {
        "chrf": CHRFConfig(
            char_order=args.chrf_char_order,
            word_order=args.chrf_word_order,
            beta=args.chrf_beta,
            lowercase=args.chrf_lowercase,
            whitespace=args.chrf_whitespace,
            eps_smoothing=args.chrf_eps_smoothing,
        ),
        "ter": TERConfig(
            normalized=args.ter_normalized,
            no_punct=args.ter_no_punct,
            asian_support=args.ter_asian_support,
            case_sensitive=args.ter_case_sensitive,
            tokenizer=args.ter_tokenizer,
        ),
    }
    chosen = [m for m in METRICS if m in getattr(args, "metrics", ["bleu"])]
    return [
        scorer(args, effective_order) if name == "bleu" else metric_for(configs[name], threads=args.threads)
        for name in chosen
    ]


def check_stdin_once(uses: list[tuple[str, str]]) -> None:
    """Refuse standard input (``-``) named for two inputs: one stream can be read once.

    ``uses`` pairs each input's path with what it is (for the message).
    """
    stdin = [what for path, what in uses if path == "-"]
    if len(stdin) > 1:
        raise CliError(
            f"standard input (-) is given as {' and as '.join(stdin)}; it can be read once: "
            "give all but one of them as files"
        )


def warn_reference_as_system(refs: list[str], systems: list[str]) -> None:
    """Warn when a system file is also a reference file (``-i *.de`` beside ``ref.de``): it would
    score as a perfect system."""
    for system in systems:
        for ref in refs:
            try:
                same = system != "-" and ref != "-" and os.path.samefile(system, ref)
            except OSError:
                continue  # a missing file is reported when it is read
            if same:
                warnings.warn(
                    f"system file {system} is also reference file {ref}: it scores as a perfect system",
                    stacklevel=2,
                )


def target_language(args: argparse.Namespace) -> str:
    """The target side of ``-l src-trg``, which picks the default tokenizer; ``""`` without it."""
    pair: str | None = getattr(args, "langpair", None)
    return pair.partition("-")[2] if pair else ""


def add_threads_option(parser: argparse.ArgumentParser) -> None:
    """``-j/--threads``: cores for the Rust core (results never depend on it)."""
    parser.add_argument(
        "-j",
        "--threads",
        type=int,
        metavar="N",
        help="cores to use, at most the available ones (default: $UNDERSTUDY_THREADS, else all; "
        "results are identical for any N)",
    )


class CliError(Exception):
    """A command-line usage problem: printed as one line, exits with ``status``."""

    def __init__(self, message: str, status: int = 1) -> None:
        super().__init__(message)
        self.status = status


def stdout() -> BinaryIO:
    """Standard output's bytes, or a :class:`CliError` when the process has none."""
    if sys.stdout is None:
        raise CliError("standard output is closed")
    return sys.stdout.buffer


def encode(text: str) -> bytes:
    """``text`` as UTF-8; file names that were not UTF-8 go back to their own bytes."""
    return text.encode("utf-8", "surrogateescape")


def write(text: str) -> None:
    """Write ``text`` and a newline to stdout as UTF-8, whatever the locale."""
    out = stdout()
    out.write(encode(text) + b"\n")
    out.flush()


def read_texts(paths: list[str]) -> list[list[str]]:
    """Each file's lines, right-stripped (as sacrebleu reads them)."""
    from understudy.io import read_lines

    return [[line.rstrip() for line in read_lines(path)] for path in paths]


def read_parallel(refs: list[str], inputs: list[str]) -> tuple[list[list[str]], list[list[str]]]:
    """The reference files' and the system files' lines, every file as long as the first reference."""
    from understudy.errors import LengthMismatchError

    references, systems = read_texts(refs), read_texts(inputs)
    for path, lines in zip([*inputs, *refs], [*systems, *references], strict=True):
        if len(lines) != len(references[0]):
            raise LengthMismatchError(f"{refs[0]} has {len(references[0])} lines but {path} has {len(lines)}")
    return references, systems


def write_csv(header: list[str], rows: list[list[Any]]) -> None:
    """An RFC 4180 table on stdout: comma-separated, quoted where needed, CRLF line ends.

    Numbers are written in full (``repr``), so a reader gets them exactly; ``None`` is empty.
    """
    buffer = io.StringIO()
    table = csv.writer(buffer, lineterminator="\r\n")
    table.writerow(header)
    for row in rows:
        table.writerow(["" if v is None else repr(v) if isinstance(v, float) else v for v in row])
    out = stdout()
    out.write(encode(buffer.getvalue()))
    out.flush()


def print_error(message: str) -> None:
    """One line on stderr: ``understudy: error: <message>``."""
    sys.stderr.write(f"understudy: error: {message}\n")


def text_table(header: list[str], rows: list[list[str]]) -> str:
    """A plain aligned table: first column left-aligned, the others right-aligned.

    >>> print(text_table(["System", "BLEU"], [["a", "1.0"], ["bbb", "22.5"]]))
    System  BLEU
    ------  ----
    a        1.0
    bbb     22.5
    """
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]

    def line(cells: list[str]) -> str:
        first = cells[0].ljust(widths[0])
        rest = [c.rjust(w) for c, w in zip(cells[1:], widths[1:], strict=True)]
        return "  ".join([first, *rest])

    return "\n".join([line(header), line(["-" * w for w in widths]), *(line(r) for r in rows)])


_LATEX_ESCAPES = {c: "\\" + c for c in "&%$#_{}"} | {
    "~": r"\textasciitilde{}",
    "^": r"\^{}",
    "\\": r"\textbackslash{}",
}


def latex_escape(text: str) -> str:
    r"""Escape LaTeX's special characters.

    >>> latex_escape("sys_1 & 50%")
    'sys\\_1 \\& 50\\%'
    """
    return "".join(_LATEX_ESCAPES.get(c, c) for c in text)


def latex_table(header: list[str], rows: list[list[str]], comment: str) -> str:
    """A booktabs tabular, followed by ``comment`` as a LaTeX comment line."""
    spec = "l" + "r" * (len(header) - 1)
    body = [" & ".join(latex_escape(c) for c in r) + r" \\" for r in rows]
    return "\n".join(
        [
            rf"\begin{{tabular}}{{{spec}}}",
            r"\toprule",
            " & ".join(header) + r" \\",
            r"\midrule",
            *body,
            r"\bottomrule",
            r"\end{tabular}",
            f"% {comment}",
        ]
    )
