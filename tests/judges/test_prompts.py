"""The judges' prompt templates: pinned by their file's hash, well-formed conversations, their
worked examples answered in the format they ask for, and texts inserted as given."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
import understudy.judges
from understudy.errors import ConfigError
from understudy.judges.gemba_mqm import parse_gemba_mqm
from understudy.judges.prompts import Template

FOLDER = Path(understudy.judges.__file__).parent / "templates"
NAMES = sorted(p.stem for p in FOLDER.glob("*.json"))


def test_the_templates_shipped() -> None:
    assert NAMES == ["esa", "gemba-mqm"]


@pytest.mark.parametrize("name", NAMES)
def test_a_template_is_pinned_by_its_files_hash(name: str) -> None:
    template = Template.load(name)
    assert template.sha256 == hashlib.sha256((FOLDER / f"{name}.json").read_bytes()).hexdigest()
    assert template.name == name and template.version >= 1


@pytest.mark.parametrize("name", NAMES)
def test_a_conversation_ends_with_the_segment(name: str) -> None:
    template = Template.load(name)
    roles = [turn["role"] for turn in template.turns]
    assert roles[0] == "system" and roles[-1] == "user"
    assert roles[1:] == ["user", "assistant"] * ((len(roles) - 2) // 2) + ["user"]
    for placeholder in template.raw["placeholders"]:
        assert "{" + placeholder + "}" in template.turns[-1]["content"]
        assert all("{" + placeholder + "}" not in turn["content"] for turn in template.turns[:-1])


def test_gemba_mqms_worked_examples_are_answers_in_its_format() -> None:
    template = Template.load("gemba-mqm")
    examples = template.raw["examples"]
    assert len(examples) == 3  # as the paper's three shots
    for example in examples:
        answer = template.turns[example["answer"]]
        assert answer["role"] == "assistant"
        assert parse_gemba_mqm(answer["content"]).penalty() == example["penalty"]


def test_texts_and_languages_go_in_as_given() -> None:
    template = Template.load("gemba-mqm")
    source, hypothesis = "Braces {hypothesis} and {source_lang} stay.", "Ein {source} Satz."
    messages = template.messages("en-de", source, hypothesis)
    last = messages[-1]["content"]
    assert last.startswith(f"English source:\n```{source}```\nGerman translation:\n```{hypothesis}```")
    assert messages[:-1] == [dict(turn) for turn in template.turns[:-1]]
    assert json.dumps(messages)  # plain strings, ready to send
    assert "Chinese source" in template.messages("zh-en", "x", "y")[-1]["content"]


def test_unknown_templates_and_pairs_are_refused() -> None:
    with pytest.raises(ConfigError, match="no judge template 'gemba'"):
        Template.load("gemba")
    with pytest.raises(ConfigError, match="SRC-TRG"):
        Template.load("esa").messages("english", "x", "y")
