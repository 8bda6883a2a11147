"""The exceptions understudy raises; every one derives from :class:`UnderstudyError`.

>>> from understudy.errors import LengthMismatchError, UnderstudyError
>>> issubclass(LengthMismatchError, UnderstudyError) and issubclass(LengthMismatchError, ValueError)
True
"""

from __future__ import annotations


class UnderstudyError(Exception):
    """Base class of every error understudy raises on purpose."""


class ConfigError(UnderstudyError, ValueError):
    """An option value that understudy does not accept (unknown tokenizer, order 0, ...)."""


class InputError(UnderstudyError, ValueError):
    """Input text that cannot be scored as given."""


class LengthMismatchError(InputError):
    """Hypotheses and a reference stream (or two files) have different numbers of segments."""


class NoReferenceError(InputError):
    """A segment has no reference at all (every stream has ``None`` there)."""


class EmptyInputError(InputError):
    """No segments to score."""


class InputFileError(InputError):
    """A file that cannot be read as UTF-8 text lines; the message names the file and line."""


class SignatureError(UnderstudyError, ValueError):
    """A signature string that cannot be parsed back into a configuration."""
