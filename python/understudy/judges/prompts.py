"""The judges' prompts: versioned templates shipped in the package (``judges/templates/*.json``),
each a conversation whose last turn holds the segment, pinned in a signature by the SHA-256 of
its file.

>>> template = Template.load("gemba-mqm")
>>> messages = template.messages("en-de", "The cat sat.", "Die Katze saß.")
>>> [m["role"] for m in messages][-2:], "Die Katze saß." in messages[-1]["content"]
(['assistant', 'user'], True)
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from importlib import resources
from typing import Any

from understudy.errors import ConfigError

LANGUAGES = {
    "ar": "Arabic",
    "cs": "Czech",
    "de": "German",
    "en": "English",
    "es": "Spanish",
    "et": "Estonian",
    "fi": "Finnish",
    "fr": "French",
    "gu": "Gujarati",
    "hi": "Hindi",
    "is": "Icelandic",
    "it": "Italian",
    "ja": "Japanese",
    "kk": "Kazakh",
    "ko": "Korean",
    "lt": "Lithuanian",
    "lv": "Latvian",
    "nl": "Dutch",
    "pl": "Polish",
    "pt": "Portuguese",
    "ro": "Romanian",
    "ru": "Russian",
    "tr": "Turkish",
    "uk": "Ukrainian",
    "zh": "Chinese",
}
"""Language names by code, as the prompts name the languages of ``-l SRC-TRG``."""

_PLACEHOLDER = re.compile(r"\{(source_lang|target_lang|source|hypothesis)\}")


def language_name(code: str) -> str:
    """The name a prompt gives a language code (an unknown code stands as it is).

    >>> language_name("de"), language_name("zh-Hant"), language_name("xx")
    ('German', 'Chinese', 'xx')
    """
    return LANGUAGES.get(code.split("-")[0].split("_")[0].lower(), code)


@dataclass(frozen=True)
class Template:
    """One template: its name, version, conversation, and the SHA-256 of its file."""

    name: str
    version: int
    turns: tuple[dict[str, str], ...]
    sha256: str
    raw: dict[str, Any]

    @classmethod
    def load(cls, name: str) -> Template:
        """The template shipped as ``judges/templates/NAME.json``."""
        try:
            data = resources.files("understudy.judges").joinpath("templates", f"{name}.json").read_bytes()
        except FileNotFoundError:
            raise ConfigError(f"no judge template {name!r}: gemba-mqm or esa") from None
        raw = json.loads(data)
        turns = tuple(dict(turn) for turn in raw["messages"])
        return cls(raw["name"], int(raw["version"]), turns, hashlib.sha256(data).hexdigest(), raw)

    def messages(self, pair: str, source: str, hypothesis: str) -> list[dict[str, str]]:
        """The conversation for one segment of the language pair ``pair`` (``en-de``): each
        placeholder replaced once, so that a text holding ``{source}`` stays as written.

        >>> t = Template.load("esa")
        >>> "{hypothesis}" in t.messages("en-de", "{hypothesis}", "x")[-1]["content"]
        True
        """
        source_lang, _, target_lang = pair.partition("-")
        if not source_lang or not target_lang:
            raise ConfigError(f"-l {pair!r}: expected the language pair as SRC-TRG, such as en-de")
        values = {
            "source_lang": language_name(source_lang),
            "target_lang": language_name(target_lang),
            "source": source,
            "hypothesis": hypothesis,
        }
        return [
            {"role": turn["role"], "content": _PLACEHOLDER.sub(lambda m: values[m[1]], turn["content"])}
            for turn in self.turns
        ]


__all__ = ["LANGUAGES", "Template", "language_name"]
