"""``understudy testset`` and ``score -t`` against sacrebleu's ``-t``/``--echo`` on the same archives.

The WMT17 sample (the real reference and three systems) is packed as a WMT SGML test
set of 30-segment documents with alternating original languages and hand annotations,
so filters select real subsets; a WMT21+ XML set and a Chinese-target set are small.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.datasets.test_formats import XML_DOCS, wmt_xml
from tests.support.cli import run_cli as run
from tests.support.paths import SAMPLE, read_raw
from tests.support.testset_server import sgml
from tests.support.twin_sets import TwinSet, run_sacrebleu

REF = SAMPLE / "newstest2017.ref.en-de.de"
# online-A starts with a byte-order mark, which sacrebleu keeps and understudy's CLI drops.
SYSTEMS = sorted(
    p for p in SAMPLE.glob("newstest2017.*.de") if ".ref." not in p.name and "online-A" not in p.name
)
DOC_SIZE = 30
TAGS = ["US-politics", "GB-sport", "OTHER-world-ID", "EU-business-DE"]


@pytest.fixture
def wmt_sgml(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> TwinSet:
    refs = read_raw(REF)
    sources = [f"source {k}" for k in range(len(refs))]
    docs = []
    for k, start in enumerate(range(0, len(refs), DOC_SIZE)):
        attrs = {"docid": f"doc.{k}", "genre": "news", "origlang": "de" if k % 3 == 0 else "en"}
        docs.append((attrs, min(DOC_SIZE, len(refs) - start)))
    files = {"test/src.en.sgm": sgml(sources, docs), "test/ref.de.sgm": sgml(refs, docs, "refset")}
    subsets = {f"doc.{k}": TAGS[k % len(TAGS)] for k in range(len(docs))}
    return TwinSet(tmp_path, monkeypatch, "wmt97", "wmt-sgml", files, {"en-de": list(files)}, subsets=subsets)


FILTERS = [
    [],
    ["--origlang", "de"],
    ["--origlang", "non-de"],
    ["--subset", "country:US"],
    ["--subset", "sport"],
]


@pytest.mark.parametrize("filters", FILTERS, ids=lambda f: " ".join(f) or "all")
def test_score_t_equals_sacrebleu(wmt_sgml, capfd, monkeypatch, filters: list[str]) -> None:
    for system in SYSTEMS:
        argv = ["-t", "wmt97", "-l", "en-de", "-i", str(system), *filters]
        theirs = json.loads(run_sacrebleu([*argv, "-w", "4"], capfd, monkeypatch))
        status, out, err = run(capfd, "score", *argv, "-w", "4")
        assert status == 0, err
        ours = json.loads(out)
        assert (ours["score"], ours["verbose_score"]) == (theirs["score"], theirs["verbose_score"])
        assert ours["test"] == "wmt97" and ours["lang"] == "en-de"
        assert ours["signature"].startswith("nrefs:1|test:wmt97|lang:en-de|")
        if filters:
            assert ours[filters[0].lstrip("-")] == filters[1]


@pytest.mark.parametrize("filters", FILTERS, ids=lambda f: " ".join(f) or "all")
def test_echo_equals_sacrebleu(wmt_sgml, capfd, monkeypatch, filters: list[str]) -> None:
    fields = ["src", "ref", "docid", "origlang", "genre"]
    theirs = run_sacrebleu(["-t", "wmt97", "-l", "en-de", "--echo", *fields, *filters], capfd, monkeypatch)
    status, ours, err = run(capfd, "testset", "echo", "wmt97", *fields, "-l", "en-de", *filters)
    assert status == 0, err
    assert ours == theirs
    assert len(ours.splitlines()) < 3004 if filters else len(ours.splitlines()) == 3004


def test_sentence_level_paired_and_confidence_carry_the_test_set(wmt_sgml, capfd) -> None:
    argv = ["score", "-t", "wmt97", "-l", "en-de", "--origlang", "de"]
    status, out, _ = run(capfd, *argv, "-i", str(SYSTEMS[0]), "-sl", "-f", "text", "-sh")
    assert status == 0 and out.splitlines()[0].startswith("BLEU|#:1|t:wmt97|l:en-de|o:de|")
    german = [min(DOC_SIZE, 3004 - start) for k, start in enumerate(range(0, 3004, DOC_SIZE)) if k % 3 == 0]
    assert len(out.splitlines()) == sum(german) == 1020
    status, out, _ = run(capfd, *argv, "-i", *map(str, SYSTEMS), "--paired-bs", "-pbsn", "100", "-f", "json")
    assert status == 0 and "test:wmt97|lang:en-de|origlang:de|bs:100" in json.loads(out)["signature"]
    status, out, _ = run(capfd, *argv, "-i", str(SYSTEMS[0]), "--confidence", "-cin", "50")
    record = json.loads(out)
    assert status == 0 and record["test"] == "wmt97" and record["bs"] == 50


def test_xml_set_references_and_domains(tmp_path, monkeypatch, capfd) -> None:
    files = {"xml/t.en-de.all.xml": wmt_xml(XML_DOCS)}
    TwinSet(tmp_path, monkeypatch, "wmt96", "wmt-xml", files, {"en-de": list(files)}, refs=["A", "B"])
    hyp = tmp_path / "hyp.de"
    hyp.write_text("Eine Katze und ein Hund.\nNur B.\nCiao Welt\n", encoding="utf-8")
    for extra in ([], ["--subset", "news"], ["--origlang", "de"]):
        argv = ["-t", "wmt96", "-l", "en-de", "-i", str(hyp), *extra]
        theirs = json.loads(run_sacrebleu(argv, capfd, monkeypatch))
        status, out, _ = run(capfd, "score", *argv)
        assert status == 0 and json.loads(out)["score"] == theirs["score"]
        assert json.loads(out)["nrefs"] == "2"
    fields = ["src", "ref:A", "ref:B", "ref", "domain", "sys-1"]
    theirs = run_sacrebleu(["-t", "wmt96", "-l", "en-de", "--echo", *fields], capfd, monkeypatch)
    assert run(capfd, "testset", "echo", "wmt96", *fields, "-l", "en-de")[1] == theirs


def test_chinese_target_picks_the_zh_tokenizer(tmp_path, monkeypatch, capfd) -> None:
    files = {
        "zh/src.en": b"a\nb\n",
        "zh/ref.zh": "\u6211\u7231\u5317\u4eac\u3002\n\u4f60\u597d\uff0c\u4e16\u754c\n".encode(),
    }
    TwinSet(tmp_path, monkeypatch, "zh99", "plain", files, {"en-zh": list(files)})
    hyp = tmp_path / "hyp.zh"
    hyp.write_text("\u6211\u7231\u5317\u4eac\n\u4f60\u597d\u4e16\u754c\n", encoding="utf-8")
    argv = ["-t", "zh99", "-l", "en-zh", "-i", str(hyp)]
    theirs = json.loads(run_sacrebleu(argv, capfd, monkeypatch))
    status, out, _ = run(capfd, "score", *argv)
    ours = json.loads(out)
    assert status == 0 and ours["score"] == theirs["score"] and ours["tok"] == theirs["tok"] == "zh"


def test_concatenated_sets_equal_sacrebleu(wmt_sgml, tmp_path, monkeypatch, capfd) -> None:
    small = {
        "a.sgm": sgml(["x y", "z"], [({"docid": "d", "origlang": "en"}, 2)]),
        "b.sgm": sgml(["Ja .", "Nein"], [({"docid": "d"}, 2)], "refset"),
    }
    TwinSet(tmp_path / "second", monkeypatch, "wmt95", "wmt-sgml", small, {"en-de": list(small)})
    monkeypatch.setenv(
        "UNDERSTUDY_REGISTRY", f"{tmp_path / 'wmt97.json'}:{tmp_path / 'second' / 'wmt95.json'}"
    )
    hyp = tmp_path / "hyp"
    hyp.write_text(REF.read_text(encoding="utf-8") + "Ja .\nNein nein\n", encoding="utf-8")
    argv = ["-t", "wmt97,wmt95", "-l", "en-de", "-i", str(hyp), "-b"]
    theirs = run_sacrebleu(argv, capfd, monkeypatch)
    assert run(capfd, "score", *argv)[1] == theirs


def test_errors_are_one_line_and_nonzero(wmt_sgml, tmp_path, capfd) -> None:
    short = tmp_path / "short.de"
    short.write_text("only one line\n", encoding="utf-8")
    cases = [
        (["score", "-t", "wmt97", "-i", str(short)], "-t needs a language pair (-l)"),
        (
            ["score", "-t", "wmt97", "-l", "de-en", "-i", str(short)],
            "test set wmt97 has no language pair 'de-en'; it has en-de",
        ),
        (["score", "-t", "nope", "-l", "de-en", "-i", str(short)], "unknown test set 'nope'"),
        (
            ["score", "-t", "wmt97", "-l", "en-de", "-i", str(short)],
            f"{short} has 1 line but wmt97 en-de (ref) has 3004",
        ),
        (
            ["score", str(REF), "-t", "wmt97", "-l", "en-de", "-i", str(short)],
            "give reference files or -t NAME, not both",
        ),
        (
            ["score", str(REF), "-i", str(short), "--origlang", "de"],
            "--origlang and --subset filter a built-in test set",
        ),
        (["score", "-i", str(short)], "no references: give reference files, or -t NAME -l PAIR"),
        (
            ["score", "-t", "wmt97", "-l", "en-de", "-i", str(short), "--origlang", "fr"],
            "wmt97 en-de has no segment with origlang=fr",
        ),
        (
            ["testset", "echo", "wmt97", "ref:A", "-l", "en-de"],
            "wmt97 en-de has no field 'ref:A'; it has src, ref, docid, genre, origlang",
        ),
        (["testset", "echo", "wmt97", "all", "src", "-l", "en-de"], "'all' cannot be combined"),
        (["testset", "citation", "wmt97"], "test set wmt97 has no citation"),
        (["testset", "list", "-l", "xx-yy"], "no test set has xx-yy"),
        (
            ["testset", "echo", "wmt97", "src", "-l", "en-de", "--subset", "("],
            "--subset '(' is not a regular",
        ),
    ]
    for argv, message in cases:
        status, out, err = run(capfd, *argv)
        assert status != 0 and out == "", argv
        errors = [line for line in err.splitlines() if not line.startswith("understudy: fetching ")]
        assert len(errors) == 1 and message in errors[0], (argv, err)


def test_offline_download_names_the_missing_file(tmp_path, monkeypatch, capfd) -> None:
    files = {
        "s.sgm": sgml(["a"], [({"docid": "d"}, 1)]),
        "r.sgm": sgml(["b"], [({"docid": "d"}, 1)], "refset"),
    }
    TwinSet(tmp_path, monkeypatch, "wmt94", "wmt-sgml", files, {"en-de": list(files)})
    status, out, err = run(capfd, "testset", "download", "wmt94", "-l", "en-de", "--offline")
    assert status == 1 and "offline: wmt94 needs wmt94.tgz" in err and len(err.splitlines()) == 1
    status, out, err = run(capfd, "testset", "download", "wmt94", "-l", "en-de")
    assert status == 0 and "wmt94: 1 download(s) checked and cached in" in out
    assert "understudy: fetching file://" in err
    status, out, _ = run(capfd, "testset", "echo", "wmt94", "src", "ref", "-l", "en-de", "--offline")
    assert (status, out) == (0, "a\tb\n")
    status, out, _ = run(capfd, "testset", "info", "wmt94", "-l", "en-de")
    assert (
        status == 0
        and "(cached)" in out
        and "en-de: 1 segments; fields: src, ref, docid, genre, origlang" in out
    )


def test_list_and_citation(capfd) -> None:
    status, out, _ = run(capfd, "testset", "list")
    lines = out.splitlines()
    assert status == 0 and len(lines) == 67 and lines == sorted(lines)
    assert any(line.startswith("wmt17 ") and "Official evaluation data." in line for line in lines)
    status, out, _ = run(capfd, "testset", "list", "-l", "de-en")
    assert {"wmt17", "wmt24", "iwslt17"} <= {line.split()[0] for line in out.splitlines()}
    assert "mtnt2019" not in out
    status, out, _ = run(capfd, "testset", "citation", "wmt17")
    assert status == 0 and out.startswith("@InProceedings{bojar-EtAl:2017:WMT1,")


def test_the_target_language_picks_mecab_as_in_sacrebleu(tmp_path, capfd) -> None:
    ref = tmp_path / "r.ja"
    ref.write_text("今日は良い天気です\n", encoding="utf-8")
    status, out, _ = run(capfd, "score", str(ref), "-i", str(ref), "-l", "en-ja", "-f", "text")
    assert status == 0 and "tok:ja-mecab-0.996-IPA" in out
    with pytest.warns(UserWarning, match="consider the 'ja-mecab' tokenizer"):
        status, out, _ = run(capfd, "score", str(ref), "-i", str(ref), "-l", "en-ja", "-tok", "char", "-b")
    assert (status, out) == (0, "100.0\n")


def test_gate_against_a_test_set_is_the_gate_against_its_reference_file(
    wmt_sgml, capfd, tmp_path: Path
) -> None:
    base, cand = map(str, SYSTEMS[:2])
    for filters in ([], ["--origlang", "de"]):
        status, out, err = run(capfd, "testset", "echo", "wmt97", "ref", "-l", "en-de", *filters)
        assert status == 0, err
        ref = tmp_path / "ref.de"
        ref.write_text(out, encoding="utf-8")
        kept = out.splitlines()
        by_file = run(capfd, "gate", str(ref), "--baseline", base, "--candidate", cand, "-f", "json")
        if filters:
            # The filtered systems are the lines of the kept documents: score the file form on those.
            keep = [k for k in range(3004) if (k // DOC_SIZE) % 3 == 0]
            for name, path in (("base", base), ("cand", cand)):
                lines = read_raw(Path(path))
                (tmp_path / name).write_text("".join(lines[k] + "\n" for k in keep), encoding="utf-8")
            assert len(keep) == len(kept)
            by_file = run(
                capfd,
                "gate",
                str(ref),
                "--baseline",
                str(tmp_path / "base"),
                "--candidate",
                str(tmp_path / "cand"),
                "-f",
                "json",
            )
        by_set = run(
            capfd,
            "gate",
            "-t",
            "wmt97",
            "-l",
            "en-de",
            *filters,
            "--baseline",
            base,
            "--candidate",
            cand,
            "-f",
            "json",
        )
        assert by_set[0] == by_file[0] and by_set[0] in (0, 1), by_set[2]
        ours, theirs = json.loads(by_set[1])["results"][0], json.loads(by_file[1])["results"][0]
        assert (ours["baseline"], ours["candidate"], ours["p_value"]) == (
            theirs["baseline"],
            theirs["candidate"],
            theirs["p_value"],
        )
    status, _, err = run(
        capfd, "gate", str(REF), "-t", "wmt97", "-l", "en-de", "--baseline", base, "--candidate", cand
    )
    assert status != 0 and "-t NAME -l PAIR" in err
