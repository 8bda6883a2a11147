"""``understudy cache``: what the neural score cache holds, and pruning it."""

from __future__ import annotations

import argparse
from typing import Any

from understudy.cli.options import add_command
from understudy.cli.output import write

EXAMPLES = """examples:
  understudy cache                     how many neural segment scores are kept, and where
  understudy cache --keep 100000       keep only the 100,000 most recent scores
  understudy cache --keep 0            empty it (a damaged cache file too: it is replaced)

Neural metrics (-m comet) keep each segment's score by checkpoint, revision, precision and
texts, so a re-run computes nothing and a new system only itself; --no-cache bypasses it.
The folder is $UNDERSTUDY_CACHE, else the user cache folder.
"""


def _count(text: str) -> int:
    if not text.isdigit():
        raise argparse.ArgumentTypeError(f"expected a whole number from 0, got {text!r}")
    return int(text)


def add_parser(commands: Any) -> None:
    """Register the ``cache`` subcommand."""
    p = add_command(
        commands,
        "cache",
        "the neural score cache: its size, and pruning it",
        "Show how many neural segment scores the cache keeps and its size; prune it with --keep.",
        EXAMPLES,
    )
    p.add_argument("--keep", type=_count, metavar="N", help="keep only the N most recently computed scores")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print the cache's size; prune it first when asked."""
    from understudy.computed.cache import ScoreCache

    cache = ScoreCache()
    if args.keep == 0:
        # Emptied by replacing the file: a damaged cache, which cannot be opened, is cleared too.
        dropped = cache.stats().entries if _readable(cache) else 0
        cache.clear()
    else:
        dropped = cache.prune(args.keep) if args.keep is not None else 0
    stats = cache.stats()
    pruned = f" ({dropped} dropped)" if args.keep is not None else ""
    write(f"{stats.entries} neural segment scores, {stats.bytes / 1e6:.1f} MB, in {cache.path}{pruned}\n")
    cache.close()
    return 0


def _readable(cache: Any) -> bool:
    """Whether the cache's file opens and counts (a damaged one does not)."""
    from understudy.errors import CacheError

    try:
        cache.stats()
    except CacheError:
        return False
    return True
