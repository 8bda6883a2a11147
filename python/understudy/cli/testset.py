"""``understudy testset``: list, describe, download and print built-in test sets; ``-t`` for ``score``."""

from __future__ import annotations

import argparse
import functools
import sys
from typing import TYPE_CHECKING, Any

from understudy.cli.messages import CliError
from understudy.cli.options import add_command, add_declared
from understudy.cli.output import write
from understudy.cli.progress import Progress
from understudy.testsets import TestSetAsked

if TYPE_CHECKING:  # understudy.datasets (http, ssl, email, xml) loads when a test set is used
    from understudy.datasets import Cache, DatasetFields, Download
    from understudy.datasets.fetch import ProgressFn
    from understudy.datasets.references import SetReferences

EXAMPLES = """examples:
  understudy testset list                          every test set, with its description
  understudy testset list -l en-de                 the sets with en-de or de-en
  understudy testset info wmt17                    downloads, cache state and language pairs
  understudy testset info wmt22 -l en-de           ... and the fields of one pair
  understudy testset download wmt17 -l en-de       fetch, check and unpack it into the cache
  understudy testset echo wmt17 -l en-de src       the source side, one segment per line
  understudy testset echo wmt21 -l en-de src ref:A ref:B docid   several fields, TAB-separated
  understudy testset echo wmt19 -l de-en src --origlang de       documents originally in German
  understudy testset citation wmt17                its BibTeX
  understudy score -t wmt17 -l en-de -i hyp.de     score against the official reference

The cache is $UNDERSTUDY_CACHE, else the user cache folder (~/.cache/understudy on
Linux); every cached file is checked against its checksum when used. With --offline
(or UNDERSTUDY_OFFLINE=1) nothing is fetched and a missing file is named.
Sets of your own: a JSON file in the registry's format, named in $UNDERSTUDY_REGISTRY.
"""


def add_parser(commands: Any) -> None:
    """Register the ``testset`` subcommand and its actions."""
    p = add_command(
        commands,
        "testset",
        "list, download and print built-in test sets (WMT08-24, IWSLT17, ...)",
        "Built-in test sets, as sacrebleu 2.6.0 publishes them: fetched once, checked against "
        "the registry's MD5, unpacked safely into the cache.",
        EXAMPLES,
    )
    actions = p.add_subparsers(dest="action", metavar="ACTION", required=True)
    listing = actions.add_parser("list", help="test sets (with -l: those with the pair, either way)")
    listing.add_argument("-l", "--language-pair", dest="langpair", metavar="SRC-TRG")
    listing.set_defaults(run=run_list)
    for name, summary, run in (
        ("info", "a set's downloads, cache state, pairs (and fields with -l)", run_info),
        ("download", "fetch, check and unpack a set into the cache", run_download),
    ):
        action = actions.add_parser(name, help=summary)
        action.add_argument("name", metavar="NAME")
        action.add_argument("-l", "--language-pair", dest="langpair", metavar="SRC-TRG")
        add_cache_options(action)
        action.set_defaults(run=run)
    echo = actions.add_parser("echo", help="print fields of a set, TAB-separated, one segment per line")
    echo.add_argument("name", metavar="NAME", help="a test set; several, comma-separated, are concatenated")
    echo.add_argument(
        "fields", nargs="+", metavar="FIELD", help="src, ref, ref:A, docid, origlang, ... or all"
    )
    echo.add_argument("-l", "--language-pair", dest="langpair", metavar="SRC-TRG", required=True)
    add_filter_options(echo)
    add_cache_options(echo)
    echo.set_defaults(run=run_echo)
    citation = actions.add_parser("citation", help="a set's BibTeX")
    citation.add_argument("name", metavar="NAME")
    citation.set_defaults(run=run_citation)


def add_cache_options(parser: argparse.ArgumentParser) -> None:
    """``--offline`` and ``--cache DIR``."""
    add_declared(parser, TestSetAsked, ("offline", "cache"))


def add_filter_options(parser: argparse.ArgumentParser) -> None:
    """sacrebleu's ``--origlang`` and ``--subset`` document filters."""
    add_declared(parser, TestSetAsked, ("origlang", "subset"))


def add_testset_options(parser: argparse.ArgumentParser) -> None:
    """``score``'s ``-t``, ``-l``, the filters and the cache options."""
    add_declared(parser, TestSetAsked)


class _Bars:
    """A progress bar per download, and a line on standard error saying what is fetched."""

    def __init__(self) -> None:
        self.bar: Progress | None = None

    def __call__(self, download: Download) -> ProgressFn:
        self.close()
        print(f"understudy: fetching {download.url}", file=sys.stderr)
        bar = self.bar = Progress(download.basename)

        def update(done: int, total: int | None) -> None:
            bar.update(done, total)

        return update

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None


def cache_for(args: argparse.Namespace, bars: _Bars | None = None) -> Cache:
    """The cache the options ask for."""
    return TestSetAsked.from_values(vars(args)).cache_of(bars)


def load_fields(args: argparse.Namespace, name: str) -> DatasetFields:
    """Test set ``name`` for ``args.langpair`` from the cache the options ask for, with progress bars."""
    bars = _Bars()
    try:
        from understudy.datasets import load

        return load(name, args.langpair, cache_for(args, bars))
    finally:
        bars.close()


def run_list(args: argparse.Namespace) -> int:
    """Print the sets (all, or those with the pair in either direction) and their descriptions."""
    from understudy.datasets.describe import listing

    write(listing(args.langpair))
    return 0


def run_info(args: argparse.Namespace) -> int:
    """Print a set's description, downloads (and whether cached), pairs and, with -l, fields."""
    from understudy.datasets.describe import pair_lines, set_lines
    from understudy.datasets.local import describe, is_local

    # With -l the pair is loaded (and fetched) first, so that the cache states below are current.
    fields = load_fields(args, args.name) if args.langpair else None
    pair = pair_lines(args.langpair, fields) if fields is not None else []
    if is_local(args.name):
        write("\n".join(describe(args.name) + pair))
        return 0
    cache = cache_for(args)
    write("\n".join([*set_lines(args.name, cache), *pair, f"cache: {cache.root}"]))
    return 0


def run_download(args: argparse.Namespace) -> int:
    """Fetch every download of a set (and parse the pair, with -l)."""
    from understudy.datasets import dataset, download

    bars = _Bars()
    try:
        cache = download(args.name, args.langpair, cache_for(args, bars))
    finally:
        bars.close()
    count = len(dataset(args.name).downloads)
    write(f"{args.name}: {count} download(s) checked and cached in {cache.root}")
    return 0


def run_echo(args: argparse.Namespace) -> int:
    """Print the requested fields, TAB-separated (sacrebleu's ``--echo``)."""
    from understudy.datasets.describe import echo_rows

    def load(name: str) -> DatasetFields:
        return load_fields(args, name).filtered(args.origlang, args.subset)

    rows = echo_rows(args.name.split(","), args.fields, load)
    if rows:
        write("\n".join(rows))
    return 0


def run_citation(args: argparse.Namespace) -> int:
    """Print a set's BibTeX."""
    from understudy.datasets import dataset

    info = dataset(args.name)
    if not info.citation:
        raise CliError(f"test set {info.name} has no citation in the registry")
    write(info.citation)
    return 0


def testset_refs(args: argparse.Namespace) -> SetReferences:
    """The references of ``-t`` (sets concatenated) for ``-l``, filtered by ``--origlang``/``--subset``
    (:meth:`understudy.testsets.TestSetAsked.references`)."""
    return TestSetAsked.from_values(vars(args)).references(functools.partial(load_fields, args))
