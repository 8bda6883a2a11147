"""The seed every resampling starts from unless told another (bootstrap, approximate
randomization, SPA): sacrebleu's, so that the same inputs give the same p-values in both; and a
``--seed`` as the command line reads it. Light, for the command line's ``--seed`` without the
significance tests' code.

>>> DEFAULT_SEED
12345
"""

import argparse

DEFAULT_SEED = 12345
"""sacrebleu's seed for paired bootstrap resampling and approximate randomization."""


def seed_value(text: str) -> int:
    """A ``--seed``: a whole number from 0 (NumPy's generators take no negative seed).

    >>> seed_value("0"), seed_value("12345")
    (0, 12345)
    """
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a seed is a whole number from 0, not {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"a seed is a whole number from 0, not {value}")
    return value
