"""The organisers' choices of WMT25's preliminary ranking, as data: the language pairs in the
report's order with their titles, the metrics of AutoRank, the two pairs ranked by chrF++ alone,
the pairs without human references (whose AutoRank leaves CometKiwi-XL out), the printed
precision of each column, and the names the report prints for some systems' files.

Where a pair has human references is taken from the report's tables (``generated_report.tex``:
the pairs whose table has no CometKiwi-XL column); a test set given with ``-t`` says it instead.

>>> PRESET.metrics_for("en-bho_IN"), PRESET.metrics_for("en-de_DE")
(('chrF++',), ('GEMBA-ESA-CMDA', 'GEMBA-ESA-GPT4.1', 'MetricX-24-Hybrid-XL', 'XCOMET-XL'))
"""

from __future__ import annotations

from dataclasses import dataclass, field

METRICS = ("CometKiwi-XL", "GEMBA-ESA-CMDA", "GEMBA-ESA-GPT4.1", "MetricX-24-Hybrid-XL", "XCOMET-XL")
"""AutoRank's metrics for most pairs, in the report's column order (MetricX negated in the
organisers' files already: higher is better in every column)."""
QE_METRIC = "CometKiwi-XL"

PAIRS = {
    "en-ar_EG": "English-Egyptian Arabic",
    "en-bho_IN": "English-Bhojpuri",
    "en-cs_CZ": "English-Czech",
    "en-et_EE": "English-Estonian",
    "en-is_IS": "English-Icelandic",
    "en-it_IT": "English-Italian",
    "en-ja_JP": "English-Japanese",
    "en-ko_KR": "English-Korean",
    "en-mas_KE": "English-Maasai",
    "en-ru_RU": "English-Russian",
    "en-sr_Cyrl_RS": "English-Serbian (Cyrilics)",
    "en-uk_UA": "English-Ukrainian",
    "en-zh_CN": "English-Simplified Chinese",
    "cs-uk_UA": "Czech-Ukrainian",
    "cs-de_DE": "Czech-German",
    "ja-zh_CN": "Japanese-Simplified Chinese",
    "en-bn_BD": "English-Bengali",
    "en-de_DE": "English-German",
    "en-el_GR": "English-Greek",
    "en-fa_IR": "English-Persian",
    "en-hi_IN": "English-Hindi",
    "en-id_ID": "English-Indonesian",
    "en-kn_IN": "English-Kannada",
    "en-lt_LT": "English-Lithuanian",
    "en-mr_IN": "English-Marathi",
    "en-ro_RO": "English-Romanian",
    "en-th_TH": "English-Thai",
    "en-sr_Latn_RS": "English-Serbian (Latin)",
    "en-sv_SE": "English-Swedish",
    "en-tr_TR": "English-Turkish",
    "en-vi_VN": "English-Vietnamese",
}
"""The 31 pairs, in the report's order, with its titles."""

NO_REFERENCE = frozenset(
    (
        *("en-it_IT", "en-bn_BD", "en-de_DE", "en-el_GR", "en-fa_IR", "en-hi_IN", "en-id_ID", "en-kn_IN"),
        *(
            "en-lt_LT",
            "en-mr_IN",
            "en-ro_RO",
            "en-th_TH",
            "en-sr_Latn_RS",
            "en-sv_SE",
            "en-tr_TR",
            "en-vi_VN",
        ),
    )
)
"""The pairs without human references (the report's tables without CometKiwi-XL)."""

DECIMALS = {"AutoRank": 1, "CometKiwi-XL": 3, "XCOMET-XL": 3}
"""Decimals the report prints (1 for every other column)."""

NAMES = {
    "CommandA-MT": "CommandA-WMT",
    "Shy": "Shy-hunyuan-MT",
    "TowerPlus-9B": "TowerPlus-9B[M]",
    "TowerPlus-72B": "TowerPlus-72B[M]",
    "EuroLLM-9B": "EuroLLM-9B[M]",
    "EuroLLM-22B": "EuroLLM-22B-pre.[M]",
}
"""The names the report prints for some systems' files (the organisers' humeval/05-compute_clusters.py)."""


@dataclass(frozen=True)
class Preset:
    """A ranking's choices: its metrics, the pairs ranked otherwise, and how it prints."""

    name: str
    metrics: tuple[str, ...]
    only: dict[str, tuple[str, ...]] = field(default_factory=dict)
    no_reference: frozenset[str] = frozenset()
    titles: dict[str, str] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)

    def metrics_for(self, pair: str, references: bool | None = None) -> tuple[str, ...]:
        """The metrics of ``pair``'s AutoRank; ``references``: whether its test set has human
        references (``None``: as the preset's table says)."""
        if pair in self.only:
            return self.only[pair]
        without = pair in self.no_reference if references is None else not references
        return tuple(m for m in self.metrics if not (without and m == QE_METRIC))

    def order(self, pairs: list[str]) -> list[str]:
        """``pairs`` in the preset's order, any other after them, sorted."""
        known = [p for p in self.titles if p in pairs]
        return known + sorted(p for p in pairs if p not in self.titles)

    def title(self, pair: str) -> str:
        """The pair's title (its code where the preset has none)."""
        return self.titles.get(pair, pair)


PRESET = Preset(
    "wmt25",
    METRICS,
    only={"en-bho_IN": ("chrF++",), "en-mas_KE": ("chrF++",)},
    no_reference=NO_REFERENCE,
    titles=PAIRS,
    names=NAMES,
)


def decimals(column: str) -> int:
    """Decimals a column is printed with."""
    return DECIMALS.get(column, 1)


def printed(value: float, column: str) -> str:
    """A value as the report prints it (Python's ``round``, its shortest form: ``0.65``)."""
    return str(round(value, decimals(column)))
