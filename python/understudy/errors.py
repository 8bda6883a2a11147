"""The exceptions understudy raises; every one derives from :class:`UnderstudyError`.

>>> from understudy.errors import LengthMismatchError, UnderstudyError
>>> issubclass(LengthMismatchError, UnderstudyError) and issubclass(LengthMismatchError, ValueError)
True
"""

from __future__ import annotations

from typing import Any


class UnderstudyError(Exception):
    """Base class of every error understudy raises on purpose."""


class ConfigError(UnderstudyError, ValueError):
    """An option value that understudy does not accept (unknown tokenizer, order 0, ...)."""


class InputError(UnderstudyError, ValueError):
    """Input text that cannot be scored as given."""


class InputTypeError(UnderstudyError, TypeError):
    """An argument of the wrong type: a string where a list of strings is expected, a
    number among the sentences, a generator (give a list: the input is read more than once)."""


class LengthMismatchError(InputError):
    """Hypotheses and a reference stream (or two files) have different numbers of segments."""


class NoReferenceError(InputError):
    """A segment has no reference at all (every stream has ``None`` there)."""


class EmptyInputError(InputError):
    """No segments to score."""


class EmptyReferenceError(InputError, ZeroDivisionError):
    """An error rate's references hold no word or character: it has nothing to divide by. Also a
    :class:`ZeroDivisionError`, as HF evaluate's ``wer`` and ``cer`` raise under jiwer 4."""


class InputFileError(InputError):
    """A file that cannot be read as UTF-8 text lines; the message names the file and line."""


class OutputError(UnderstudyError, OSError):
    """An output path that cannot be written (a folder, a socket, a missing folder)."""


class SignatureError(UnderstudyError, ValueError):
    """A signature string that cannot be parsed back into a configuration."""


class DatasetError(UnderstudyError):
    """A built-in test set that cannot be found, fetched, unpacked or read."""


class UnknownDatasetError(DatasetError, LookupError):
    """A test set, language pair or field that the registry does not have."""


class DownloadError(DatasetError, OSError):
    """A download that failed after its retries (HTTP error, timeout, truncated body)."""


class ChecksumError(DownloadError):
    """A downloaded or cached file whose checksum is not the registry's."""


class UnsafeArchiveError(DatasetError):
    """An archive with a member that would land outside the cache (or is not a plain file)."""


class OfflineError(DatasetError):
    """Offline mode needs a file that is not in the cache; the message names it."""


class CacheError(DatasetError, OSError):
    """The cache directory cannot be written, or its lock was not granted in time."""


class DatasetFormatError(DatasetError, ValueError):
    """A test-set file that does not parse as its format; the message names file and line."""


class MissingExtraError(UnderstudyError, ImportError):
    """A feature needs an optional dependency that is not installed; the message names the
    extra to install (``pip install 'understudy-mt[ja]'``)."""


def import_extra(module: str, missing: str) -> Any:
    """``module`` imported, or a :class:`MissingExtraError` saying ``missing`` where it (or the
    package it is in) is not installed. Any other failure to import, a library the module
    needs that could not be loaded (out of memory: "failed to map segment"), is raised as it
    is: it is not a missing extra.

    >>> import_extra("json", "needs json").__name__
    'json'
    >>> import_extra("no_such_module.sub", "needs the 'x' extra")
    Traceback (most recent call last):
    ...
    understudy.errors.MissingExtraError: needs the 'x' extra
    """
    import importlib
    import sys

    loaded = sys.modules.get(module)
    if loaded is not None:  # import_module's checks cost tens of microseconds a call: asked per batch
        return loaded
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as err:
        if err.name is None or not (module == err.name or module.startswith(f"{err.name}.")):
            raise
        raise MissingExtraError(missing) from None


class ModelError(UnderstudyError):
    """A neural metric's checkpoint that cannot be found, downloaded or read, or a device that
    is not there; the message says what was looked for and where."""


class HubUnreachableError(ModelError):
    """A checkpoint is neither on this machine nor to be had: the hub cannot be reached."""


class LedgerError(UnderstudyError):
    """A ledger that cannot be opened, read or written (a newer schema, a missing record)."""


class IncomparableError(LedgerError, ValueError):
    """Two results that must not be compared: their signatures or test sets differ."""


class JudgeAnswerError(InputError):
    """An LLM judge's answer that cannot be read as its answer format says (kept as a failure,
    never scored); the message says what was expected."""


class JudgeTooLongError(JudgeAnswerError):
    """A segment the endpoint refused as longer than its model's context, or whose answer was
    cut at ``max_tokens``: the segment's failure, counted, not asked again (the same request
    gets the same refusal)."""


class JudgeEndpointError(UnderstudyError):
    """An LLM judge's endpoint that cannot be reached, refuses the key, or keeps failing after
    its retries; the message names the endpoint and what it answered, never the key."""
