"""``understudy fetch-model``: a neural checkpoint and what it names, fetched once for machines
without a network (:mod:`understudy.neural.fetch`)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from understudy.cli.options import add_command
from understudy.cli.output import write
from understudy.computed.metricx import DEFAULT_TOKENIZER

EXAMPLES = """examples:
  understudy fetch-model Unbabel/wmt22-comet-da             into the hub cache, with its encoder
  understudy fetch-model Unbabel/XCOMET-XL --to models      models/Unbabel/XCOMET-XL, encoder inside
  understudy fetch-model google/metricx-24-hybrid-xl-v2p6@COMMIT --to models --tokenizer google/mt5-xl

Then, with no network: HF_HUB_OFFLINE=1 understudy score ... -m comet (the cache), or
--comet-model models/Unbabel/wmt22-comet-da (the folder: copy it anywhere). Each line printed is
NAME@COMMIT and where it went; scored from either, the signature is the hub name's at that commit.
"""


def add_parser(commands: Any) -> None:
    """Register the ``fetch-model`` subcommand."""
    p = add_command(
        commands,
        "fetch-model",
        "download a neural checkpoint with everything it names, to score offline",
        "Download a COMET or MetricX checkpoint and what it names but does not hold (COMET: its"
        " encoder's config and tokenizer; MetricX: the mT5 tokenizer), into the hub cache or a folder.",
        EXAMPLES,
    )
    p.add_argument(
        "model", metavar="NAME[@REVISION]", help="the checkpoint's hub name, at a revision if given"
    )
    p.add_argument(
        "--to", metavar="FOLDER", help="into FOLDER/NAME (what it names inside it), not the hub cache"
    )
    p.add_argument(
        "--tokenizer",
        metavar="NAME",
        default=DEFAULT_TOKENIZER,
        help=f"MetricX's mT5 tokenizer, as predict.py's --tokenizer (default: {DEFAULT_TOKENIZER})",
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Fetch, then print each repository pinned and where it is."""
    from understudy.neural.fetch import fetch_model

    fetched = fetch_model(args.model, None if args.to is None else Path(args.to), args.tokenizer)
    width = max(len(f.pinned) for f in fetched)
    write("\n".join(f"{f.pinned:<{width}}  {f.folder}" for f in fetched))
    return 0
