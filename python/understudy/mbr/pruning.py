"""Confidence-based pruning for MBR (Cheng and Vlachos, 2023), as mbrs 0.1.8's ``pruning_mbr``
decoder does it: utilities against a growing prefix of the pseudo-references (the schedule,
8, 16, 32, ... of them), and after each step only the candidates that win against the current
best in more than ``1 - alpha`` of ``bootstrap`` resamples of those pseudo-references are kept.
The final choice is the best expected utility of the survivors over the last prefix.

The resamples are drawn as mbrs draws them on the CPU: ``torch.randint`` from a generator
seeded with ``seed`` for each source is a Mersenne Twister whose 32-bit outputs, modulo the
prefix length, are the indices; NumPy's ``RandomState`` gives the same outputs, so the same
candidates survive (win rates are float32, as mbrs' are).

>>> from understudy import CHRF
>>> cands = ["the cat sat on the mat", "the cat sat on a mat", "a cat sat on the mat",
...          "the cat is on the mat", "the dog sat on the mat", "cats sit on mats", "the cat sat",
...          "on the mat the cat sat", "a dog ran away", "the mat"]
>>> expected, _ = pruned_expected(CHRF(), cands, cands, None, Pruning())
>>> [round(float(v), 2) for v in expected]  # mbrs' survivors and scores (its nbest=6)
[64.58, 49.74, nan, 50.05, 48.04, 28.57, nan, 59.42, nan, nan]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np
from numpy.typing import NDArray

from understudy.config import Declared, option
from understudy.errors import ConfigError
from understudy.mbr.utilities import lower_is_best, utility_matrix

if TYPE_CHECKING:
    from understudy.metrics.protocol import MetricObject


@dataclass(frozen=True)
class Pruning:
    """Pruning's settings, mbrs' defaults: the confidence ``alpha``, the ``schedule`` of
    pseudo-reference counts, the number of ``bootstrap`` resamples and the ``seed``.

    >>> Pruning(alpha=0.9).schedule
    (8, 16, 32, 64, 128, 256)
    """

    alpha: float = 0.99
    schedule: tuple[int, ...] = (8, 16, 32, 64, 128, 256)
    bootstrap: int = 500
    seed: int = 0

    def __post_init__(self) -> None:
        if not 0.0 < self.alpha < 1.0:
            raise ConfigError(f"pruning's alpha must lie between 0 and 1, not {self.alpha}")
        if not self.schedule or min(self.schedule) < 1:
            raise ConfigError(
                f"pruning's schedule must be pseudo-reference counts of 1 or more, not {self.schedule}"
            )
        if self.bootstrap < 1:
            raise ConfigError(f"pruning needs at least one bootstrap resample, not {self.bootstrap}")


@dataclass(frozen=True)
class PruningAsked(Declared):
    """Pruning's settings as ``understudy mbr`` is asked for them (``--prune-*``; ``None``: mbrs'
    default), declared as the families declare their options (the flags are derived from it).

    >>> PruningAsked(prune_schedule="8,16").pruning("prune")
    Pruning(alpha=0.99, schedule=(8, 16), bootstrap=500, seed=0)
    """

    cli_group: ClassVar[str | None] = "pruning (--method prune; defaults are mbrs')"

    prune_alpha: float | None = option(
        None,
        flags=("--prune-alpha",),
        type=float,
        metavar="A",
        help="keep what wins in > 1-A of resamples (0.99)",
    )
    prune_schedule: str | None = option(
        None,
        flags=("--prune-schedule",),
        metavar="N,N,...",
        help="pseudo-references a step (8,16,32,64,128,256)",
    )
    prune_bootstrap: int | None = option(
        None, flags=("--prune-bootstrap",), type=int, metavar="B", help="resamples a step (500)"
    )
    prune_seed: int | None = option(
        None, flags=("--prune-seed",), type=int, metavar="S", help="each source's resampling seed (0)"
    )

    def pruning(self, method: str) -> Pruning | None:
        """The pruning settings given, or ``None``; a setting with a ``method`` other than
        ``prune`` is refused."""
        given: dict[str, Any] = {
            "alpha": self.prune_alpha,
            "schedule": self.prune_schedule,
            "bootstrap": self.prune_bootstrap,
            "seed": self.prune_seed,
        }
        given = {key: value for key, value in given.items() if value is not None}
        if not given:
            return None
        if method != "prune":
            flags = ", ".join(f"--prune-{key}" for key in given)
            raise ConfigError(f"{flags} set(s) pruning: add --method prune (the method is {method})")
        if "schedule" in given:
            try:
                given["schedule"] = tuple(int(n) for n in given["schedule"].split(","))
            except ValueError:
                raise ConfigError(
                    f"--prune-schedule takes counts like 8,16,32, not {self.prune_schedule!r}"
                ) from None
        return Pruning(**given)


def pruned_expected(
    metric: MetricObject,
    hyps: list[str],
    refs: list[str],
    source: str | None,
    settings: Pruning,
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Each candidate's expected utility over the last prefix of ``refs`` it was scored
    against (NaN for the pruned ones), and the utility matrix (NaN where nothing was scored)."""
    lower = lower_is_best(metric)
    draws = np.random.RandomState(settings.seed)
    alive = np.arange(len(hyps))
    matrix = np.full((len(hyps), len(refs)), np.nan)
    done = 0
    for step in settings.schedule:
        upto = min(step, len(refs))
        if upto <= done:
            break
        block = utility_matrix(metric, [hyps[i] for i in alive], refs[done:upto], source)
        matrix[alive, done:upto] = block
        scores = matrix[alive, :upto]
        alive = alive[_survivors(scores, draws, settings, lower)]
        done = upto
    expected = np.full(len(hyps), np.nan)
    expected[alive] = matrix[alive, :done].mean(axis=1)
    return expected, matrix


def _survivors(
    scores: NDArray[np.float64], draws: np.random.RandomState, settings: Pruning, lower: bool
) -> NDArray[np.intp]:
    """The rows of ``scores`` that beat or tie the current best in more than ``1 - alpha`` of
    the bootstrap resamples of its columns (the best always does)."""
    size = scores.shape[1]
    expected = scores.mean(axis=1)
    best = int(np.argmin(expected) if lower else np.argmax(expected))
    raw = draws.randint(0, 2**32, size=settings.bootstrap * size, dtype=np.uint32)
    picks = (raw % size).astype(np.intp).reshape(settings.bootstrap, size)
    resampled = scores[:, picks].mean(axis=2)
    wins = resampled <= resampled[best] if lower else resampled >= resampled[best]
    rates = wins.sum(axis=1).astype(np.float32) / np.float32(settings.bootstrap)
    return np.flatnonzero(rates > np.float32(1.0 - settings.alpha))


__all__ = ["Pruning", "pruned_expected"]
