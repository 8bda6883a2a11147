"""COMET MBR's test lists: three sources and their candidates (duplicates, an empty one, one
past the 510-token limit), for scripts/comet_mbr_fixtures.py and tests/mbr/test_comet_mbr.py."""

from __future__ import annotations

VARIANT = "wmt22-like"
"""The tiny regression checkpoint (tests/support/neural_checkpoints.py's REGRESSION_VARIANTS)."""

SOURCES = ["The cat sat on the mat.", "Hello world.", "A long source sentence."]
CANDIDATES = [
    [
        "Die Katze saß auf der Matte.",
        "Die Katze sitzt auf der Matte.",
        "Eine Katze saß auf einer Matte.",
        "Die Katze saß auf der Matte.",
        "Der Hund lief.",
    ],
    ["Hallo Welt.", "Hallo, Welt!", "", "Hallo."],
    ["Ein langer Satz.", " ".join(["Das ist ein sehr langer Satz"] * 120), "Ein langer Quellsatz.", "Kurz."],
]
