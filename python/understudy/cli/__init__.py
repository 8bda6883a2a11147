"""The ``understudy`` command line: ``main(argv) -> int``, one module per subcommand.

>>> main(["--version"])
understudy 0.1.0
0
"""

from __future__ import annotations

import argparse
import os
import sys
import warnings
from collections.abc import Sequence

from understudy._version import __version__
from understudy.cli import pairwise, score, significance, testset, tokenize
from understudy.cli.output import CliError, print_error
from understudy.errors import UnderstudyError

_SUBCOMMANDS = (score, significance, pairwise, tokenize, testset)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every subcommand."""
    parser = argparse.ArgumentParser(
        prog="understudy",
        description="BLEU, chrF and TER with sacrebleu-identical numbers, computed by a Rust core.",
        epilog="Run 'understudy COMMAND --help' for a command's options and examples.",
    )
    parser.add_argument("--version", action="store_true", help="print the version and exit")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in _SUBCOMMANDS:
        module.add_parser(commands)
    return parser


def _one_line_warning(message: Warning | str, category: type[Warning], *_: object, **__: object) -> str:
    return f"understudy: warning: {message}\n"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 on success)."""
    # Warnings print as one line while the command runs; the caller's format comes back after.
    previous = warnings.formatwarning
    warnings.formatwarning = _one_line_warning
    try:
        return _run(argv)
    finally:
        warnings.formatwarning = previous


def _run(argv: Sequence[str] | None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.version:
        print(f"understudy {__version__}")
        return 0
    if args.command is None:
        parser.print_help(sys.stderr)
        return 2
    try:
        status: int = args.run(args)
    except CliError as err:
        print_error(str(err))
        return err.status
    except UnderstudyError as err:
        print_error(str(err))
        return 1
    except KeyboardInterrupt:
        print_error("interrupted")
        return 130
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


def _silence_stdout() -> None:
    # Python flushes stdout again at exit; pointing it at /dev/null keeps that quiet.
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, AttributeError, ValueError):
        pass
