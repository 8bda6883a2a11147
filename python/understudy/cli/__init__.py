"""The ``understudy`` command line: ``main(argv) -> int``, one module per subcommand.

A first argument that is not a subcommand makes the command line sacrebleu's:
``understudy REF -i HYP`` is ``understudy score REF -i HYP``, with every flag of
sacrebleu 2.6.0 (see :mod:`understudy.cli.sacrebleu_cli`).

>>> main(["--version"])
understudy 0.1.0
0
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import importlib
import os
import re
import signal
import sys
import warnings
from collections.abc import Iterator, Sequence
from typing import Any, NoReturn

from understudy._memory import out_of_memory, reserve_blas_buffer, threads_short_of_memory
from understudy.cli.messages import CliError, print_error, printable

COMMANDS: dict[str, str] = {
    "score": "understudy.cli.score",
    "compare": "understudy.cli.compare",
    "correlate": "understudy.cli.correlate",
    "report": "understudy.cli.report",
    "pairwise": "understudy.cli.pairwise",
    "mbr": "understudy.cli.mbr",
    "tokenize": "understudy.cli.tokenize",
    "resegment": "understudy.cli.resegment",
    "testset": "understudy.cli.testset",
    "ledger": "understudy.cli.ledger",
    "gate": "understudy.cli.gate",
    "site": "understudy.cli.site",
    "cache": "understudy.cli.cache",
    "fetch-model": "understudy.cli.fetch_model",
    "autorank": "understudy.cli.autorank",
}
"""Each subcommand's module, by name, in the order ``--help`` lists them: a command imports its
own module only, so that ``understudy --version`` and ``understudy score`` load no more than they use."""


class _Parser(argparse.ArgumentParser):
    """argparse's parser, whose errors end with where to look for the options."""

    help_command: str | None = None
    """The command whose ``--help`` lists this parser's options (``None``: the top level)."""
    commands: dict[str, _Parser] = {}  # noqa: RUF012 (replaced per parser)
    """The subcommands' parsers by name (top level only)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # No abbreviations: "-o out.json" must never be read as --origlang.
        super().__init__(*args, **{**kwargs, "allow_abbrev": False})

    def _get_option_tuples(self, option_string: str) -> list[tuple[Any, ...]]:
        # argparse matches a single-dash word by prefix even without abbreviations ("-o" as
        # "-ol"): keep only a short option with its value attached ("-n100").
        found: list[tuple[Any, ...]] = super()._get_option_tuples(option_string)
        return [t for t in found if t[1] == option_string[:2] and len(option_string) > 2]

    def error(self, message: str) -> NoReturn:
        """One line (no usage block): what is wrong, the nearest choice, and where to look."""
        if self.help_command is None and self.prog == "understudy":
            hint = "run 'understudy --help' for the commands; without one, the arguments are those of "
            hint += "'understudy score' (sacrebleu's)"
        else:
            hint = f"run '{self.help_command or self.prog} --help' for the options and examples"
        # "understudy: error:" as every other error begins; the hint names the command.
        nearest = _nearest(message) or self._nearest_option(message)
        self.exit(2, f"understudy: error: {printable(message)}{nearest} ({hint})\n")

    def _nearest_option(self, message: str) -> str:
        """``; did you mean -m/--metrics?`` for "unrecognized arguments: --metric bleu": the
        option nearest the first unknown one, with all its spellings."""
        if not message.startswith("unrecognized arguments:"):
            return ""
        words = [w.partition("=")[0] for w in message.split(":", 1)[1].split() if w.startswith("-")]
        if not words:
            return ""
        close = _closest(words[0], list(self._option_string_actions), 0.7)
        if close is None:
            return ""
        return f"; did you mean {'/'.join(self._option_string_actions[close].option_strings)}?"


def _nearest(message: str) -> str:
    """``; did you mean 'bleu'?`` for argparse's "invalid choice: 'bleuu' (choose from ...)"."""
    found = re.search(r"invalid choice: '([^']*)' \(choose from (.*)\)", message)
    if found is None:
        return ""
    choices = re.findall(r"'([^']*)'", found.group(2)) or found.group(2).split(", ")
    close = _closest(found.group(1).lower(), choices, 0.6)
    return f"; did you mean '{close}'?" if close else ""


def _closest(word: str, names: list[str], cutoff: float) -> str | None:
    """The name nearest ``word`` (difflib's ratio at least ``cutoff``), if any."""
    import difflib

    close = difflib.get_close_matches(word, names, n=1, cutoff=cutoff)
    return close[0] if close else None


def build_parser(bare: bool = False, only: str | None = None) -> _Parser:
    """The argument parser of every subcommand (``bare``: ``score`` speaks as ``understudy``;
    ``only``: that subcommand's alone, its module the only one imported)."""
    from understudy.metrics import family_titles

    parser = _Parser(
        prog="understudy",
        description=f"{family_titles()} with sacrebleu-identical numbers, computed by a Rust core. "
        "Without a command, the arguments are sacrebleu's: 'understudy REF -i HYP' is "
        "'understudy score REF -i HYP'.",
        epilog="Run 'understudy COMMAND --help' for a command's options and examples; 'understudy "
        "score --help' also lists where understudy differs from sacrebleu on purpose.",
    )
    parser.add_argument("-V", "--version", action="store_true", help="print the version and exit")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name, module in COMMANDS.items():
        if only is None or name == only:
            importlib.import_module(module).add_parser(commands)
    parser.commands = dict(commands.choices)
    if bare:
        score_parser = parser.commands["score"]
        score_parser.prog = "understudy"
        score_parser.help_command = "understudy score"
        # sacrebleu's p-values (strictly more extreme resamples), as its command line counts them.
        score_parser.set_defaults(bare=True, command="score", p_values="sacrebleu")
    return parser


def _subcommand_typo(argv: list[str], names: list[str]) -> str | None:
    """A first word that is no file but close to a subcommand's name: most likely a typo."""
    word = argv[0]
    if word.startswith("-") or os.path.exists(word):
        return None
    return _closest(word, names, 0.75)


def _one_line_warning(message: Warning | str, category: type[Warning], *_: object, **__: object) -> str:
    return f"understudy: warning: {printable(str(message))}\n"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 on success)."""
    # Warnings print as one line while the command runs; the caller's format comes back after.
    previous = warnings.formatwarning
    warnings.formatwarning = _one_line_warning
    try:
        with _terminable():
            return _run(argv)
    finally:
        warnings.formatwarning = previous


class Terminated(KeyboardInterrupt):
    """SIGTERM (``kill``, ``timeout``, Slurm), raised where it arrives so that every cleanup
    written for Ctrl-C (temporary files, partial outputs) runs for it too."""


def _raise_terminated(signum: int, frame: object) -> None:
    raise Terminated


@contextlib.contextmanager
def _terminable() -> Iterator[None]:
    try:
        previous = signal.signal(signal.SIGTERM, _raise_terminated)
    except ValueError:  # not the main thread: signals are not ours to take
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _run(argv: Sequence[str] | None) -> int:
    reserve_blas_buffer()
    words = list(sys.argv[1:] if argv is None else argv)
    try:
        parsed = _parse(words)
    except (MemoryError, ImportError) as err:  # importing the command's module, before it ran
        return _out_of_memory(err, words[0] if words else "understudy")
    except SystemExit as done:
        # argparse ends --help and every usage error so (its message printed): main returns
        # the status, as it does for every other outcome.
        return done.code if isinstance(done.code, int) else 2
    return parsed if isinstance(parsed, int) else _execute(parsed)


def _parse(words: list[str]) -> argparse.Namespace | int:
    """The command's arguments, or the exit status when there is nothing to run."""
    if words in (["-V"], ["--version"]):
        print(f"understudy {version()}")
        return 0
    bare = _is_bare(words)
    if bare:
        typo = _subcommand_typo(words, list(COMMANDS))
        if typo is not None:
            print_error(f"unknown command {words[0]!r} (and no such reference file); did you mean {typo!r}?")
            return 2
    command = "score" if bare else words[0] if words and words[0] in COMMANDS else None
    parser = build_parser(bare, only=command)
    if bare:
        # sacrebleu's command line is the score command's parser, speaking as 'understudy'.
        args = parser.commands["score"].parse_args(words)
    else:
        args, extra = parser.parse_known_args(words)
        if extra:
            # The subcommand's parser names the unknown argument, with its own usage and hint.
            (parser.commands.get(args.command) or parser).error(f"unrecognized arguments: {' '.join(extra)}")
    if getattr(args, "version", False):
        print(f"understudy {version()}")
        return 0
    if args.command is None:
        parser.print_help(sys.stderr)
        return 2
    args.given = _given(parser.commands[args.command], words if bare else words[1:])
    return _kept(args, words)


class _Unset:
    """What an option not on the command line holds in :func:`_given`'s parse."""


def _given(parser: argparse.ArgumentParser, words: list[str]) -> frozenset[str]:
    """The destinations of the options ``words`` give (argparse sets a default only where the
    namespace has none), so that a command can tell an option typed from its default."""
    unset = _Unset()
    # Actions that add to what is there (append, count) start from their default instead.
    adding = (argparse._AppendAction, argparse._AppendConstAction, argparse._CountAction)
    start = {a.dest: (copy.copy(a.default) if isinstance(a, adding) else unset) for a in parser._actions}
    parsed, _ = parser.parse_known_args(words, argparse.Namespace(**start))
    return frozenset(
        dest
        for dest, value in vars(parsed).items()
        if dest in start and value is not unset and value != start[dest]
    )


def _is_bare(words: list[str]) -> bool:
    """Whether ``words`` are sacrebleu's command line: the first is no subcommand nor a global flag.

    >>> _is_bare(["ref.de", "-i", "hyp.de"]), _is_bare(["score", "ref.de"]), _is_bare(["-V"])
    (True, False, False)
    """
    return bool(words) and words[0] not in COMMANDS and words[0] not in ("-h", "--help", "--version", "-V")


def _kept(args: argparse.Namespace, words: list[str]) -> argparse.Namespace:
    """``args`` with the command line a ledger record and a report keep: escaped where a file
    name is not UTF-8, without a database URL's password."""
    import shlex

    from understudy.ledger.secrets import redacted
    from understudy.wording import kept_name

    args.command_line = kept_name(redacted(shlex.join(["understudy", *words])))
    return args


def version() -> str:
    """understudy's version, from the installed distribution's metadata (written from the same
    Cargo.toml as the core's ``VERSION``), without loading the core; the core's when the package
    runs from a folder that was never installed."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("understudy-mt")
    except PackageNotFoundError:
        from understudy._version import __version__

        return __version__


def _execute(args: argparse.Namespace) -> int:
    """Run the command; every failure becomes one line and an exit status."""
    with threads_short_of_memory() as thread_failed:
        status = _execute_once(args)
    if thread_failed[0] and status == 0:
        return _out_of_memory(MemoryError(), args.command)
    return status


def _execute_once(args: argparse.Namespace) -> int:
    from understudy.cli.progress import quiet
    from understudy.errors import UnderstudyError

    try:
        with warnings.catch_warnings(), quiet(getattr(args, "quiet", False)):
            if getattr(args, "metric_options", False):
                from understudy.cli.options import warn_unread

                warn_unread(args)
            status: int = args.run(args)
    except CliError as err:
        print_error(str(err))
        return err.status
    except UnderstudyError as err:
        print_error(str(err))
        # A TAB-separated line with too many fields exits with sacrebleu's 17.
        return int(getattr(err, "status", 1))
    except (MemoryError, ImportError, SystemError, RuntimeError) as err:
        return _out_of_memory(err, args.command)
    except KeyboardInterrupt as err:
        terminated = isinstance(err, Terminated)
        print_error("terminated (SIGTERM)" if terminated else "interrupted")
        return 143 if terminated else 130
    except BrokenPipeError:
        # The reader went away (| head): stop quietly, as sacrebleu does.
        _silence_stdout()
        return 0
    except OSError as err:
        if err.filename is not None:
            raise
        # Writing standard output failed (a full disk, say): one line, not a traceback.
        _silence_stdout()
        print_error(f"cannot write to standard output: {err.strerror or err}")
        return 1
    return status


def _out_of_memory(err: Exception, command: str) -> int:
    """One line for a command that ran out of memory (:func:`understudy._memory.out_of_memory`);
    any other ImportError, SystemError or RuntimeError is raised again."""
    line = out_of_memory(err, command)
    if line is None:
        raise err
    print_error(line)
    return 1


def _silence_stdout() -> None:
    # Python flushes stdout again at exit; pointing it at /dev/null keeps that quiet.
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, AttributeError, ValueError):
        pass
