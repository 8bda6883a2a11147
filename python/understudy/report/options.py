"""What ``understudy report`` is asked beside its inputs and metrics, declared as the families
declare their options (the command line's flags are derived from it): the bootstrap's resamples
and seed, the two systems of the diff, and the human scores of the systems.

>>> ReportAsked(pair=("b.de", "a.de")).pair_indices(["a.de", "b.de", "c.de"])
(1, 0)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from understudy.config import Declared, option
from understudy.errors import ConfigError
from understudy.seeding import DEFAULT_SEED, seed_value

if TYPE_CHECKING:
    from understudy.report.human import HumanInputs


@dataclass(frozen=True)
class ReportAsked(Declared):
    """The report's resamples ``n`` and ``seed``, the ``pair`` of systems the diff shows (by file,
    as given to ``-i``; none: the two best), and the ``human`` scores file with the systems'
    ``names`` in it."""

    n: int = option(1000, flags=("-n",), into="n", type=int, metavar="N", help="bootstrap resamples (1000)")
    seed: int = option(DEFAULT_SEED, flags=("--seed",), type=seed_value, help=f"random seed ({DEFAULT_SEED})")
    pair: tuple[str, ...] | None = option(
        None,
        flags=("--pair",),
        nargs=2,
        metavar=("A", "B"),
        help="the two systems of the diff (default: the two best)",
    )
    human: str | None = option(
        None,
        flags=("--human",),
        metavar="FILE",
        help="human scores of the systems (as for 'understudy correlate')",
    )
    names: tuple[str, ...] | None = option(
        None, flags=("--names",), nargs="+", metavar="NAME", help="the systems' names in the --human file"
    )

    def pair_indices(self, inputs: Sequence[str]) -> tuple[int, int] | None:
        """The indices in ``inputs`` of the two systems of :attr:`pair`, or ``None``."""
        if self.pair is None:
            return None
        missing = [p for p in self.pair if p not in inputs]
        if missing:
            raise ConfigError(
                f"--pair names {', '.join(missing)}, which is not one of -i: {', '.join(inputs)}"
            )
        if self.pair[0] == self.pair[1]:
            raise ConfigError(f"--pair needs two different systems, got {self.pair[0]} twice")
        return inputs.index(self.pair[0]), inputs.index(self.pair[1])

    def human_inputs(self, inputs: Sequence[str]) -> HumanInputs | None:
        """The human scores of the systems of ``inputs`` (their files), or ``None`` without
        :attr:`human` (:func:`understudy.report.human.read_inputs`)."""
        if self.human is None:
            if self.names:
                raise ConfigError("--names names the systems of the --human file; give --human too")
            return None
        from understudy.report.human import read_inputs

        return read_inputs(self.human, inputs, self.names)
