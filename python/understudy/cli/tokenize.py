"""``understudy tokenize``: show the tokens BLEU sees, one line in, one line out."""

from __future__ import annotations

import argparse
from typing import Any

from understudy.config import TOKENIZERS
from understudy.io import STDIN, read_lines
from understudy.tokenizers import tokenize

EXAMPLES = """examples:
  echo 'Hello, world! U.S.A. 1990.' | understudy tokenize
  understudy tokenize -tok intl -lc < hyp.txt > hyp.tok
"""


def add_parser(commands: Any) -> None:
    """Register the ``tokenize`` subcommand."""
    parser = commands.add_parser(
        "tokenize",
        help="tokenize stdin to stdout as BLEU would",
        description="Tokenize standard input line by line exactly as BLEU does before counting n-grams "
        "(tokens joined by one space).",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "-tok", "--tokenize", default="13a", choices=TOKENIZERS, help="tokenizer (default: 13a)"
    )
    parser.add_argument("-lc", "--lowercase", action="store_true", help="lowercase first")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Tokenize stdin to stdout."""
    from understudy.cli.output import write

    lines = read_lines(STDIN, allow_empty=True)
    for line in tokenize(lines, args.tokenize, args.lowercase):
        write(line)
    return 0
