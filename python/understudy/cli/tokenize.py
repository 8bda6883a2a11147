"""``understudy tokenize``: show the tokens BLEU sees, one line in, one line out."""

from __future__ import annotations

import argparse
from typing import Any

from understudy.cli.options import add_command, add_field_option, add_language_option, target_language
from understudy.cli.output import write
from understudy.inputs.files import STDIN, read_lines
from understudy.metrics.bleu import BLEUConfig, tokenizer_for
from understudy.metrics.tokenizers import tokenize

EXAMPLES = """examples:
  echo 'Hello, world! U.S.A. 1990.' | understudy tokenize
  understudy tokenize -tok intl -lc < hyp.txt > hyp.tok
  understudy tokenize --normalize-unicode nfkc < hyp.txt    ligatures and full-width forms folded first
  understudy tokenize -l en-ja < hyp.ja            MeCab, as BLEU picks it for a Japanese target
"""


def add_parser(commands: Any) -> None:
    """Register the ``tokenize`` subcommand."""
    parser = add_command(
        commands,
        "tokenize",
        "tokenize stdin to stdout as BLEU would",
        "Tokenize standard input line by line exactly as BLEU does before counting n-grams "
        "(tokens joined by one space).",
        EXAMPLES,
    )
    add_language_option(parser)
    add_field_option(parser, BLEUConfig, "tokenize")
    add_field_option(parser, BLEUConfig, "lowercase", help="lowercase first")
    add_field_option(parser, BLEUConfig, "normalize_unicode")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Tokenize stdin to stdout."""
    lines = read_lines(STDIN, allow_empty=True)
    tokenizer = args.tokenize or tokenizer_for(target_language(args))
    for line in tokenize(lines, tokenizer, args.lowercase, args.normalize_unicode):
        write(line)
    return 0
