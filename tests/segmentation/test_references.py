"""Several references, which mweralign (one reference) cannot check: each segment counts against
its closer reference, so the cut's cost is the least sum of each segment's smallest word edit
distance. Checked against every cut of small documents, and by what follows from the definition:
a reference repeated, a reference sharing no word, and the references' order change nothing."""

from __future__ import annotations

import itertools
import random

import pytest
from understudy.segmentation import resegment


def _distance(a: list[str], b: list[str]) -> int:
    """Levenshtein distance between two word lists (the textbook table)."""
    row = list(range(len(b) + 1))
    for i, word in enumerate(a, 1):
        diagonal, row[0] = row[0], i
        for j, other in enumerate(b, 1):
            diagonal, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, diagonal + (word != other))
    return row[-1]


def _cost(segments: list[list[str]], refs: list[list[list[str]]]) -> int:
    return sum(min(_distance(s, r[i]) for r in refs) for i, s in enumerate(segments))


def _least(words: list[str], refs: list[list[list[str]]]) -> int:
    """The least cost over every cut of ``words`` into as many segments as the references have."""
    n, lines = len(words), len(refs[0])
    best = None
    for bounds in itertools.combinations_with_replacement(range(n + 1), lines - 1):
        edges = [0, *bounds, n]
        cost = _cost([words[edges[k] : edges[k + 1]] for k in range(lines)], refs)
        best = cost if best is None else min(best, cost)
    assert best is not None
    return best


def _case(rng: random.Random) -> tuple[list[str], list[list[list[str]]]]:
    vocabulary = ["a", "b", "c", "d", "e"]
    lines = rng.randint(1, 4)
    refs = [
        [[rng.choice(vocabulary) for _ in range(rng.randint(0, 3))] for _ in range(lines)] for _ in range(2)
    ]
    return [rng.choice(vocabulary) for _ in range(rng.randint(0, 8))], refs


def test_the_cut_has_the_least_cost_over_every_cut() -> None:
    rng = random.Random(46)
    for case in range(400):
        words, refs = _case(rng)
        texts = [[" ".join(line) for line in ref] for ref in refs]
        cut = [s.split() for s in resegment(" ".join(words), texts, method="min-edit")]
        assert [w for s in cut for w in s] == words, case  # every word kept, in order
        assert _cost(cut, refs) == _least(words, refs), (case, words, refs, cut)


@pytest.mark.parametrize("seed", range(3))
def test_what_cannot_change_a_cut_does_not(seed: int) -> None:
    rng = random.Random(seed)
    vocabulary = [f"w{k}" for k in range(12)]
    ref = [" ".join(rng.choice(vocabulary) for _ in range(rng.randint(0, 9))) for _ in range(40)]
    other = [" ".join(rng.choice(vocabulary) for _ in range(rng.randint(0, 9))) for _ in range(40)]
    hyp = " ".join(w for line in ref for w in line.split() if rng.random() > 0.2) + " w3 w4"
    # A reference that shares no word with anything: each segment's closer one is never it.
    disjoint = [" ".join(f"z{k}" for k, _ in enumerate(line.split())) for line in ref]
    for method in ("mweralign", "min-edit"):
        alone = resegment(hyp, ref, method=method)
        assert resegment(hyp, [ref, ref], method=method) == alone
        assert resegment(hyp, [ref, disjoint], method=method) == alone
        assert resegment(hyp, [disjoint, ref], method=method) == alone
        # The references' order may break a tie between two cuts of least cost otherwise (a
        # segment as close to both counts against the first): the cost is the same.
        refs = [[line.split() for line in r] for r in (ref, other)]
        costs = {
            _cost([s.split() for s in resegment(hyp, order, method=method)], refs)
            for order in ([ref, other], [other, ref])
        }
        assert len(costs) == 1
