"""``understudy autorank``: WMT25's automatic ranking from the organisers' per-paragraph scores
(:mod:`understudy.autorank`)."""

from __future__ import annotations

import argparse
from typing import Any

from understudy.cli.options import add_command
from understudy.cli.output import write

EXAMPLES = """examples:
  understudy autorank ../shared/data/wmt25-general-mt/automatic_scores --preset wmt25
  understudy autorank scores/ --preset wmt25 --pair en-cs_CZ -f json
  understudy autorank scores/ --preset none -m XCOMET-XL MetricX-24-Hybrid-XL     your own columns
  understudy autorank scores/ --pair en-cs_CZ --bootstrap 1000 --seed 1     how sure each position is

The folder holds the organisers' <system>.jsonl files (or .jsonl.gz); a system is its file's name.
A metric's system score is the mean of its paragraph scores (null ones left out); AutoRank scales
each metric by its median and its 25th-to-100th-percentile spread, averages them with equal
weights and maps the averages onto 1 (best) to N. The wmt25 preset holds the organisers' metrics
per pair (chrF++ alone for en-bho_IN and en-mas_KE; no CometKiwi-XL where a pair has no human
references) and the names their report prints.
"""


def add_parser(commands: Any) -> None:
    """Register the ``autorank`` subcommand."""
    p = add_command(
        commands,
        "autorank",
        "WMT25's automatic ranking (AutoRank) from the organisers' per-paragraph scores",
        "Rank each language pair's systems as WMT25's preliminary ranking does, from a folder of the"
        " organisers' per-system score files, and print one table a pair in their layout and order.",
        EXAMPLES,
    )
    p.add_argument("folder", metavar="DIR", help="the organisers' automatic_scores/ (<system>.jsonl[.gz])")
    p.add_argument(
        "--preset",
        choices=("wmt25", "none"),
        default="wmt25",
        help="the organisers' choices (default) or none",
    )
    p.add_argument(
        "-m", "--metrics", nargs="+", metavar="METRIC", help="the columns to rank by (default: the preset's)"
    )
    p.add_argument("--pair", nargs="+", metavar="PAIR", help="only these language pairs (en-cs_CZ ...)")
    p.add_argument("-f", "--format", choices=("text", "json", "latex", "csv", "html"), default="text")
    p.add_argument(
        "-t",
        "--testset",
        metavar="FILE.jsonl",
        help="WMT25's test set: which pairs have human references (default: the preset's table)",
    )
    p.add_argument(
        "--bootstrap", type=int, metavar="N", help="N resamples of the paragraphs: intervals and clusters"
    )
    p.add_argument(
        "--seed", type=int, default=12345, metavar="S", help="the resamples' seed (default: 12345)"
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Read, rank, print."""
    from understudy.autorank.files import read_scores, references_of
    from understudy.autorank.ranking import Asked, Resampling, rank, render
    from understudy.autorank.wmt25 import PRESET

    preset = PRESET if args.preset == "wmt25" else None
    resampling = None if args.bootstrap is None else Resampling(args.bootstrap, args.seed)
    references = None if args.testset is None else references_of(args.testset)
    asked = Asked(args.metrics, args.pair, resampling, references)
    write(render(rank(read_scores(args.folder, args.pair), preset, asked), preset, args.format, asked))
    return 0
