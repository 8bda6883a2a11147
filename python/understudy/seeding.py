"""The seed every resampling starts from unless told another (bootstrap, approximate
randomization, SPA): sacrebleu's, so that the same inputs give the same p-values in both. Light,
for the command line's ``--seed`` default without the significance tests' code.

>>> DEFAULT_SEED
12345
"""

DEFAULT_SEED = 12345
"""sacrebleu's seed for paired bootstrap resampling and approximate randomization."""
