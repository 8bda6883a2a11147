"""Score files (understudy.inputs.score_files): one line for any content."""

from __future__ import annotations

import re
from pathlib import Path

import pytest


@pytest.mark.parametrize(
    ("content", "said"),
    [
        ("A\t²\t0.5\n", "segment '²' is not a segment number"),
        ("A\t" + "9" * 30 + "\t0.5\n", "is not a segment number"),
        ('{"prediction": ' + "7" * 4301 + "}\n", "not JSON MetricX writes (Exceeds the limit"),
        ('{"prediction": ' + "7" * 400 + "}\n", "is not a finite number"),
        ('{"a.de": [{"COMET": ' + "7" * 400 + "}]}", "is not a finite number"),
        ('{"a.de": [{"COMET": ' + "7" * 4301 + "}]}", "not JSON comet-score writes (Exceeds the limit"),
        ("[" * 100_000 + "]" * 100_000 + "\n", "not JSON comet-score writes (nested too deeply)"),
        ("A\t1\t0.5\nB\t1\t" + "x" * 140_000 + "\n", ":2: not a table row (field larger than field limit"),
    ],
)
def test_score_file_readers_say_one_line_for_any_content(tmp_path: Path, content: str, said: str) -> None:
    from understudy.errors import InputFileError
    from understudy.inputs.score_files import read_scores

    path = tmp_path / "scores.txt"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(InputFileError, match=re.escape(said)) as refused:
        read_scores(path)
    assert "\n" not in str(refused.value) and len(str(refused.value)) < 400
