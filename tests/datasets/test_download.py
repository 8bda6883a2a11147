"""Downloading and caching test sets, against a local HTTP server that serves archives well and badly."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from understudy.datasets import (
    Cache,
    FetchPolicy,
    dataset,
    default_cache_dir,
    load,
    names,
    names_for_langpair,
)
from understudy.datasets.cache import file_lock
from understudy.errors import (
    CacheError,
    ChecksumError,
    DatasetError,
    DatasetFormatError,
    DownloadError,
    OfflineError,
    UnknownDatasetError,
    UnsafeArchiveError,
)

from tests.support.testset_server import md5, running_server, sgml, tar_gz, write_registry, zip_bytes
from tests.support.twin_sets import REPO, export_registry

FAST = FetchPolicy(retries=3, backoff=0.01, timeout=5)
DOC = [({"docid": "d1", "origlang": "de"}, 2)]
FILES = {
    "test/demo-src.de.sgm": sgml(["Guten Morgen .", "Danke"], DOC),
    "test/demo-ref.en.sgm": sgml(["Good morning .", "Thanks"], DOC, "refset"),
}
GOOD = tar_gz(FILES)


@pytest.fixture(scope="module")
def server() -> Iterator[object]:
    yield from running_server()


def register(tmp: Path, monkeypatch: pytest.MonkeyPatch, url: str, digest: str, name: str = "demo") -> None:
    entry = {
        "format": "wmt-sgml",
        "description": "a two-line demo set",
        "downloads": [{"url": url, "md5": digest}],
        "langpairs": {"de-en": {"files": list(FILES)}},
    }
    monkeypatch.setenv("UNDERSTUDY_REGISTRY", str(write_registry(tmp / f"{name}.json", {name: entry})))


def cache_files(cache: Path) -> list[str]:
    """Every file under the cache but the lock files, relative to it."""
    return sorted(
        str(p.relative_to(cache)) for p in cache.rglob("*") if p.is_file() and "locks" not in p.parts
    )


def test_a_good_archive_is_fetched_once_and_read_from_the_cache(server, tmp_path, monkeypatch) -> None:
    register(tmp_path, monkeypatch, server.serve("/good.tgz", GOOD), md5(GOOD))
    cache = Cache(tmp_path / "c", policy=FAST)
    fields = load("demo", "de-en", cache)
    assert fields.src == ["Guten Morgen .", "Danke"] and fields.refs == [["Good morning .", "Thanks"]]
    assert load("demo", "de-en", cache).fields == fields.fields
    assert server.hits["/good.tgz"] == 1
    key = f"{md5(GOOD)}-good.tgz"
    assert cache_files(tmp_path / "c") == [
        f"downloads/{key}",
        f"unpacked/{key}/.understudy-manifest.json",
        f"unpacked/{key}/test/demo-ref.en.sgm",
        f"unpacked/{key}/test/demo-src.de.sgm",
    ]


def test_a_damaged_cached_file_is_rebuilt_from_the_archive_or_fetched_again(
    server, tmp_path, monkeypatch
) -> None:
    register(tmp_path, monkeypatch, server.serve("/again.tgz", GOOD), md5(GOOD))
    cache = Cache(tmp_path / "c", policy=FAST)
    expected = load("demo", "de-en", cache).fields
    unpacked = cache.unpacked_path(dataset("demo").downloads[0])
    (unpacked / "test/demo-ref.en.sgm").write_bytes(sgml(["Bad", "Worse"], DOC, "refset"))
    assert load("demo", "de-en", cache).fields == expected  # re-verified, unpacked again
    assert server.hits["/again.tgz"] == 1
    (unpacked / "test/demo-ref.en.sgm").write_bytes(b"")
    cache.download_path(dataset("demo").downloads[0]).write_bytes(b"damaged")
    assert load("demo", "de-en", cache).fields == expected  # archive damaged too: fetched again
    assert server.hits["/again.tgz"] == 2


def test_a_corrupted_download_raises_and_keeps_nothing(server, tmp_path, monkeypatch) -> None:
    bad = tar_gz({**FILES, "test/demo-ref.en.sgm": b"tampered"})
    register(tmp_path, monkeypatch, server.serve("/corrupt.tgz", bad), md5(GOOD))
    with pytest.raises(
        ChecksumError, match=rf"corrupt\.tgz: MD5 is {md5(bad)}, the registry expects {md5(GOOD)}"
    ):
        load("demo", "de-en", Cache(tmp_path / "c", policy=FAST))
    assert cache_files(tmp_path / "c") == []
    assert server.hits["/corrupt.tgz"] == 1  # the same wrong bytes would come again


def test_a_truncated_download_is_retried_then_fails_cleanly(server, tmp_path, monkeypatch) -> None:
    register(tmp_path, monkeypatch, server.serve("/truncated.tgz", GOOD, "truncated"), md5(GOOD))
    with pytest.raises(DownloadError, match=rf"truncated\.tgz: .*{len(GOOD) // 2}.* \(4 attempts\)"):
        load("demo", "de-en", Cache(tmp_path / "c", policy=FAST))
    assert server.hits["/truncated.tgz"] == 4
    assert cache_files(tmp_path / "c") == []


def test_a_slow_download_completes_with_progress(server, tmp_path, monkeypatch) -> None:
    register(tmp_path, monkeypatch, server.serve("/slow.tgz", GOOD, "slow"), md5(GOOD))
    seen: list[tuple[int, int | None]] = []
    cache = Cache(
        tmp_path / "c", policy=FAST, progress=lambda d: lambda done, total: seen.append((done, total))
    )
    assert load("demo", "de-en", cache).src == ["Guten Morgen .", "Danke"]
    assert len(seen) >= 10
    assert seen[-1] == (len(GOOD), len(GOOD))
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)


def test_a_stalled_server_times_out(server, tmp_path, monkeypatch) -> None:
    register(tmp_path, monkeypatch, server.serve("/stall.tgz", GOOD, "stall"), md5(GOOD))
    policy = FetchPolicy(retries=1, backoff=0.01, timeout=0.3)
    with pytest.raises(
        DownloadError, match=r"stall\.tgz: stalled: no data for 0\.3 s after 0 bytes \(2 attempts\)"
    ):
        load("demo", "de-en", Cache(tmp_path / "c", policy=policy))
    assert cache_files(tmp_path / "c") == []
    # A stalled server is given up on after its second stall, however many retries are allowed.
    with pytest.raises(DownloadError, match=r"stall\.tgz: stalled: .* \(2 attempts\)"):
        load("demo", "de-en", Cache(tmp_path / "c", policy=FetchPolicy(retries=9, backoff=0.01, timeout=0.3)))
    # And no attempt starts after the deadline.
    with pytest.raises(DownloadError, match=r"gave up after 0\.5 s in all"):
        policy = FetchPolicy(retries=9, backoff=0.2, timeout=0.3, deadline=0.5)
        load("demo", "de-en", Cache(tmp_path / "c", policy=policy))


def test_a_body_without_a_length_cut_short_is_retried(server, tmp_path, monkeypatch) -> None:
    register(tmp_path, monkeypatch, server.serve("/cut.tgz", GOOD, "cut-once"), md5(GOOD))
    assert load("demo", "de-en", Cache(tmp_path / "c", policy=FAST)).refs == [["Good morning .", "Thanks"]]
    assert server.hits["/cut.tgz"] == 2


def test_two_failures_then_success(server, tmp_path, monkeypatch) -> None:
    register(tmp_path, monkeypatch, server.serve("/flaky.tgz", GOOD, "flaky"), md5(GOOD))
    assert load("demo", "de-en", Cache(tmp_path / "c", policy=FAST)).refs == [["Good morning .", "Thanks"]]
    assert server.hits["/flaky.tgz"] == 3


def test_not_found_is_not_retried(server, tmp_path, monkeypatch) -> None:
    register(tmp_path, monkeypatch, server.url("/missing.tgz"), md5(GOOD))
    with pytest.raises(DownloadError, match=r"missing\.tgz: HTTP 404 Not Found.*is used with --offline"):
        load("demo", "de-en", Cache(tmp_path / "c", policy=FAST))
    assert server.hits["/missing.tgz"] == 1
    assert cache_files(tmp_path / "c") == []


@pytest.mark.parametrize(
    ("archive", "message"),
    [
        (tar_gz({**FILES, "../../evil": b"pwned"}), r"member '\.\./\.\./evil' points outside"),
        (tar_gz({**FILES, "/tmp/evil": b"pwned"}), r"member '/tmp/evil' has an absolute path"),
        (tar_gz(FILES, links={"test/link": "../../../etc/passwd"}), r"link 'test/link' points outside"),
        (tar_gz(FILES, links={"test/abs": "/etc/passwd"}), r"link 'test/abs' points to the absolute path"),
        (zip_bytes({**FILES, "..\\evil": b"pwned"}), r"member '\.\.\\\\evil' points outside"),
    ],
    ids=["dotdot", "absolute", "escaping-link", "absolute-link", "zip-backslash"],
)
def test_unsafe_archives_are_rejected(server, tmp_path, monkeypatch, archive, message) -> None:
    suffix = ".zip" if archive.startswith(b"PK") else ".tgz"
    path = f"/evil-{md5(archive)}{suffix}"
    register(tmp_path, monkeypatch, server.serve(path, archive), md5(archive))
    cache_root = tmp_path / "deep" / "er" / "c"
    with pytest.raises(UnsafeArchiveError, match=message):
        load("demo", "de-en", Cache(cache_root, policy=FAST))
    assert not any(p.name == "evil" for p in tmp_path.rglob("*"))
    assert not list((cache_root / "unpacked").iterdir())  # no half-unpacked folder either


def test_links_inside_the_archive_are_copies(server, tmp_path, monkeypatch) -> None:
    archive = tar_gz(
        {
            "real/src.sgm": FILES["test/demo-src.de.sgm"],
            "test/demo-ref.en.sgm": FILES["test/demo-ref.en.sgm"],
        },
        links={"test/demo-src.de.sgm": "../real/src.sgm"},
    )
    register(tmp_path, monkeypatch, server.serve("/links.tgz", archive), md5(archive))
    cache = Cache(tmp_path / "c", policy=FAST)
    assert load("demo", "de-en", cache).src == ["Guten Morgen .", "Danke"]
    linked = cache.unpacked_path(dataset("demo").downloads[0]) / "test/demo-src.de.sgm"
    assert linked.is_file() and not linked.is_symlink()


def test_offline_without_a_cache_names_the_missing_file(server, tmp_path, monkeypatch) -> None:
    url = server.serve("/offline.tgz", GOOD)
    register(tmp_path, monkeypatch, url, md5(GOOD))
    monkeypatch.setenv("UNDERSTUDY_OFFLINE", "1")
    expected = tmp_path / "c" / "downloads" / f"{md5(GOOD)}-offline.tgz"
    with pytest.raises(
        OfflineError,
        match=rf"demo needs offline\.tgz \({url}\), which is not in the cache \(expected at {expected}\)",
    ):
        load("demo", "de-en", Cache(tmp_path / "c"))
    assert server.hits["/offline.tgz"] == 0


def test_leftovers_of_a_killed_process_are_cleared(server, tmp_path, monkeypatch) -> None:
    register(tmp_path, monkeypatch, server.serve("/left.tgz", GOOD), md5(GOOD))
    cache = Cache(tmp_path / "c", policy=FAST)
    download = dataset("demo").downloads[0]
    part = cache.download_path(download).with_name(cache.download_path(download).name + ".part-x1")
    half = cache.unpacked_path(download).with_name(f".{cache.unpacked_path(download).name}.tmp-x2")
    half.mkdir(parents=True)
    part.parent.mkdir(parents=True)
    part.write_bytes(GOOD[:10])
    assert load("demo", "de-en", cache).src == ["Guten Morgen .", "Danke"]
    assert not part.exists() and not half.exists()


def test_offline_with_a_cache_needs_no_network(server, tmp_path, monkeypatch) -> None:
    register(tmp_path, monkeypatch, server.serve("/cached.tgz", GOOD), md5(GOOD))
    expected = load("demo", "de-en", Cache(tmp_path / "c", policy=FAST)).fields
    register(tmp_path, monkeypatch, "http://127.0.0.1:9/cached.tgz", md5(GOOD))  # nothing listens there
    cache = Cache(tmp_path / "c", offline=True)
    assert load("demo", "de-en", cache).fields == expected
    assert server.hits["/cached.tgz"] == 1


def _snapshot(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_offline_never_changes_the_cache(server, tmp_path, monkeypatch) -> None:
    register(tmp_path, monkeypatch, server.serve("/ro.tgz", GOOD), md5(GOOD))
    online = Cache(tmp_path / "c", policy=FAST)
    expected = load("demo", "de-en", online).fields
    download = dataset("demo").downloads[0]
    offline = Cache(tmp_path / "c", offline=True)
    # A damaged unpacked file: reported, not rebuilt.
    (offline.unpacked_path(download) / "test/demo-src.de.sgm").write_bytes(b"x")
    before = _snapshot(tmp_path / "c")
    with pytest.raises(
        OfflineError, match=r"unpacked files of ro\.tgz .* missing or damaged; the cache is left"
    ):
        load("demo", "de-en", offline)
    assert _snapshot(tmp_path / "c") == before
    # A damaged download: reported, not deleted.
    offline.download_path(download).write_bytes(b"not the archive")
    before = _snapshot(tmp_path / "c")
    with pytest.raises(OfflineError, match=r"is damaged \(its MD5 is not the registry's\)"):
        load("demo", "de-en", offline)
    assert _snapshot(tmp_path / "c") == before
    # Online again, both are repaired.
    assert load("demo", "de-en", online).fields == expected


def test_two_processes_download_the_same_set_once(server, tmp_path, monkeypatch) -> None:
    register(tmp_path, monkeypatch, server.serve("/shared.tgz", GOOD, "slow"), md5(GOOD))
    monkeypatch.setenv("UNDERSTUDY_CACHE", str(tmp_path / "c"))
    code = "from understudy import datasets; print(datasets.load('demo', 'de-en').refs)"
    jobs = [
        subprocess.Popen(
            [sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        for _ in range(2)
    ]
    outputs = [job.communicate(timeout=120) for job in jobs]
    assert [job.returncode for job in jobs] == [0, 0], outputs
    assert [out for out, _ in outputs] == ["[['Good morning .', 'Thanks']]\n"] * 2
    assert server.hits["/shared.tgz"] == 1
    assert not [p for p in (tmp_path / "c").rglob("*.part-*")]


def test_a_lock_held_too_long_is_an_error(server, tmp_path, monkeypatch) -> None:
    register(tmp_path, monkeypatch, server.serve("/locked.tgz", GOOD), md5(GOOD))
    cache = Cache(tmp_path / "c", policy=FAST, lock_timeout=0.2)
    download = dataset("demo").downloads[0]
    (tmp_path / "c" / "locks").mkdir(parents=True)
    with (
        file_lock(tmp_path / "c" / "locks" / f"{download.md5}-{download.basename}.lock", 1),
        pytest.raises(CacheError, match="another process has held this lock"),
    ):
        load("demo", "de-en", cache)
    assert server.hits["/locked.tgz"] == 0


def test_an_unwritable_cache_is_a_cache_error(tmp_path, monkeypatch) -> None:
    register(tmp_path, monkeypatch, "http://127.0.0.1:9/x.tgz", md5(GOOD))
    (tmp_path / "file").write_text("not a folder")
    with pytest.raises(CacheError, match="cannot create the cache folder"):
        load("demo", "de-en", Cache(tmp_path / "file" / "c"))


def test_unknown_sets_pairs_and_files(server, tmp_path, monkeypatch) -> None:
    with pytest.raises(
        UnknownDatasetError, match=r"unknown test set 'wmt99'; 'understudy testset list' shows"
    ):
        dataset("wmt99")
    with pytest.raises(
        UnknownDatasetError, match=r"test set wmt17 has no language pair 'en-xx'; it has cs-en, de-en"
    ):
        load("wmt17", "en-xx")
    register(tmp_path, monkeypatch, server.serve("/good2.tgz", GOOD), md5(GOOD))
    fields = load("demo", "de-en", Cache(tmp_path / "c", policy=FAST))
    with pytest.raises(UnknownDatasetError, match=r"demo de-en has no field 'ref:A'; it has src, ref, docid"):
        fields.field("ref:A")
    with pytest.raises(DatasetError, match=r"demo has no subset annotation"):
        fields.keep(subset="sport")
    entry = json.loads((tmp_path / "demo.json").read_text())
    entry["testsets"]["demo"]["langpairs"]["de-en"]["files"][1] = "test/nowhere.sgm"
    (tmp_path / "demo.json").write_text(json.dumps(entry))
    with pytest.raises(
        DatasetFormatError, match=r"test/nowhere\.sgm is in none of its downloads \(good2\.tgz\)"
    ):
        load("demo", "de-en", Cache(tmp_path / "c", policy=FAST))


def test_registry_errors_name_the_file(tmp_path, monkeypatch) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"testsets": {"x": {"format": "pdf"}}}')
    monkeypatch.setenv("UNDERSTUDY_REGISTRY", str(bad))
    with pytest.raises(
        DatasetFormatError, match=r"bad\.json: test set x: format 'pdf' is not one of wmt-sgml"
    ):
        names()
    bad.write_text("{")
    with pytest.raises(DatasetFormatError, match=r"bad\.json:1: not JSON"):
        names()


def test_the_registry_holds_sacrebleus_facts() -> None:
    shipped = json.loads((REPO / "python/understudy/datasets/registry.json").read_text(encoding="utf-8"))
    assert shipped == json.loads(json.dumps(export_registry.export()))
    sets = names()
    assert len(sets) == 67 and sum(len(dataset(n).langpairs) for n in sets) == 452
    assert {f"wmt{y:02d}" for y in range(8, 25)} | {"iwslt17"} <= set(sets)
    assert dataset("wmt23").reference_choice("en-he") == ("refB",)
    assert dataset("wmt17").downloads[0].md5 == "86a1724c276004aa25455ae2a04cef26"
    assert "wmt17" in names_for_langpair("de-en") and "wmt17" in names_for_langpair("en-de")
    assert sets == sorted(sets, reverse=True)


def test_default_cache_dir(monkeypatch) -> None:
    monkeypatch.delenv("UNDERSTUDY_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", "/var/cache/me")
    if sys.platform.startswith("linux"):
        assert default_cache_dir() == Path("/var/cache/me/understudy")
    monkeypatch.setenv("UNDERSTUDY_CACHE", "/data/c")
    assert default_cache_dir() == Path("/data/c")
