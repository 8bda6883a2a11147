"""A gate's verdict (:mod:`understudy.gate`) as ``understudy gate`` writes it: a text table, a
JSON record, and JUnit XML for CI services (a test case per metric, a failure where it fails).

>>> from understudy import BLEU
>>> from understudy.gate import GateVerdict, gate
>>> refs = [["the cat sat on the mat", "a dog barked loudly", "it rains"] * 20]
>>> base = BLEU().segment_stats(["the cat sat on the mat", "a dog barked", "it rains"] * 20, refs)
>>> worse = BLEU().segment_stats(["a cat sat", "a dog", "rain"] * 20, refs)
>>> verdict = GateVerdict((gate(base, worse),))
>>> print(text(verdict, Gated("base.de", "new.de")).splitlines()[0])
FAIL: new.de against base.de (paired bootstrap, alpha 0.05)
>>> b'<failure message="significantly worse' in junit(verdict, Gated("base.de", "new.de"))
True
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from typing import Any

from understudy.files.tables import text_table
from understudy.gate import GateResult, GateVerdict
from understudy.significance import Test
from understudy.wording import kept_name


@dataclass(frozen=True)
class Gated:
    """What was gated: the baseline's and the candidate's names, the paired test, its alpha."""

    baseline: str
    candidate: str
    test: Test = "bs"
    alpha: float = 0.05


def _row(r: GateResult, margins: bool) -> list[str]:
    beyond = (
        [] if not margins else ["" if r.margin_p_value is None else f"{r.margin:g}: {r.margin_p_value:.4f}"]
    )
    return [
        r.metric,
        f"{r.baseline:.2f}",
        f"{r.candidate:.2f}",
        f"{r.change:+.2f}",
        f"{r.p_value:.4f}",
        *beyond,
        "pass" if r.passed else "FAIL: " + "; ".join(r.reasons),
    ]


def text(verdict: GateVerdict, gated: Gated) -> str:
    """The verdict, a row per metric (with a margin: it and the one-sided p-value of a drop beyond
    it), and the metrics' signatures."""
    margins = any(r.margin is not None for r in verdict.results)
    test = "paired approximate randomization" if gated.test == "ar" else "paired bootstrap"
    head = "PASS" if verdict.passed else "FAIL"
    lines = [
        f"{head}: {gated.candidate} against {gated.baseline} ({test}, alpha {gated.alpha})",
        "",
        text_table(
            [
                "metric",
                "baseline",
                "candidate",
                "change",
                "p-value",
                *(["margin: p"] if margins else []),
                "verdict",
            ],
            [_row(r, margins) for r in verdict.results],
        ),
        "",
        *(f"{r.metric} signature: {r.signature}" for r in verdict.results),
    ]
    return "\n".join(lines)


def record(verdict: GateVerdict, gated: Gated) -> dict[str, Any]:
    """The verdict as a JSON-ready record."""
    return {
        "passed": verdict.passed,
        "baseline": gated.baseline,
        "candidate": gated.candidate,
        "test": gated.test,
        "results": [
            {
                "metric": r.metric,
                "passed": r.passed,
                "baseline": r.baseline,
                "candidate": r.candidate,
                "change": r.change,
                "p_value": r.p_value,
                "alpha": r.alpha,
                "higher_is_better": r.higher_is_better,
                "reasons": list(r.reasons),
                "signature": r.signature,
                **({} if r.margin is None else {"margin": r.margin, "margin_p_value": r.margin_p_value}),
            }
            for r in verdict.results
        ],
    }


def json_text(verdict: GateVerdict, gated: Gated) -> str:
    """:func:`record` as ``gate -f json`` prints it."""
    return json.dumps(record(verdict, gated), indent=1, ensure_ascii=False)


_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def xml_text(text: str) -> str:
    """``text`` as XML 1.0 can hold it: undecodable bytes of a file name and characters XML has
    no place for (control characters) escaped as ``\\xNN``.

    >>> xml_text("a\\x01b\\udce9.de")
    'a\\\\x01b\\\\xe9.de'
    """
    return _NOT_XML.sub(lambda m: f"\\x{ord(m.group(0)):02x}", kept_name(text))


def junit(verdict: GateVerdict, gated: Gated) -> bytes:
    """The verdict as JUnit XML: a test case per metric, a failure where it fails."""
    failures = sum(not r.passed for r in verdict.results)
    suites = ET.Element("testsuites", tests=str(len(verdict.results)), failures=str(failures))
    suite = ET.SubElement(
        suites, "testsuite", name="understudy gate", tests=str(len(verdict.results)), failures=str(failures)
    )
    for r in verdict.results:
        case = ET.SubElement(suite, "testcase", classname="understudy.gate", name=xml_text(r.metric))
        summary = f"{gated.candidate} {r.candidate:.4f} against {gated.baseline} {r.baseline:.4f}"
        summary = xml_text(f"{summary} (p = {r.p_value:.4f})")
        if r.passed:
            ET.SubElement(case, "system-out").text = summary
        else:
            failure = ET.SubElement(case, "failure", message=xml_text("; ".join(r.reasons)))
            failure.text = f"{summary}\n{xml_text(r.signature)}"
    written: bytes = ET.tostring(suites, encoding="utf-8", xml_declaration=True)
    return written + b"\n"


__all__ = ["Gated", "json_text", "junit", "record", "text", "xml_text"]
