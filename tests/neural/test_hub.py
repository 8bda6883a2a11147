"""Checkpoints by hub name, through huggingface-hub, against a stand-in hub on 127.0.0.1
(``HF_ENDPOINT``): a name, a name at a revision, a gated model, a server that dies mid-file,
and offline use. Each run is a fresh process: huggingface-hub reads its variables on import."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("transformers", reason="the neural extra: pip install 'understudy-mt[neural]'")

from understudy.neural import COMET

import tests.support.neural_checkpoints as nc
from tests.support import fake_hub

SAMPLES = nc.SAMPLES[:4]


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[fake_hub.Hub, dict[str, Path | str]]]:
    root = tmp_path_factory.mktemp("hub")
    server = fake_hub.Hub()
    encoder = fake_hub.Repo()
    comet, made = fake_hub.Repo(), dict[str, Path | str]()
    made["encoder"] = encoder.add(fake_hub.folder_files(nc.build_encoder(root / "encoder")))
    server.repos["org/tiny-xlmr"] = encoder
    # As published: the checkpoint names its encoder by a bare legacy hub name.
    server.repos["xlm-roberta-large"] = encoder
    published = fake_hub.Repo()
    folder = nc.build_regression(root / "published", 5, pretrained_model="xlm-roberta-large")
    published.add({k: v for k, v in fake_hub.folder_files(folder).items() if not k.startswith("encoder/")})
    server.repos["Unbabel/wmt22-comet-da"] = published
    for seed in (1, 5):
        folder = nc.build_regression(root / f"comet{seed}", seed, pretrained_model="org/tiny-xlmr")
        files = {k: v for k, v in fake_hub.folder_files(folder).items() if not k.startswith("encoder/")}
        made[f"commit{seed}"] = comet.add(files)
        made[f"folder{seed}"] = nc.build_regression(root / f"local{seed}", seed)  # its encoder beside it
    server.repos["org/tiny-comet"] = comet
    gated = fake_hub.Repo(gated=True)
    gated.add(files)
    server.repos["org/gated-comet"] = gated
    for name in ("src", "ref", "mt"):
        text = root / f"{name}.txt"
        text.write_text("\n".join(s[name] for s in SAMPLES) + "\n", encoding="utf-8")
        made[name] = text
    yield server, made
    server.close()


def _score(
    hub: fake_hub.Hub, files: dict[str, Path | str], home: Path, model: str, **env: str
) -> subprocess.CompletedProcess[str]:
    argv = [
        sys.executable,
        "-m",
        "understudy",
        "score",
        str(files["ref"]),
        "-i",
        str(files["mt"]),
        "-m",
        "comet",
    ]
    argv += ["--source", str(files["src"]), "--comet-model", model, "--no-cache", "-w", "4"]
    variables = {
        **os.environ,
        "HF_ENDPOINT": hub.url,
        "HF_HOME": str(home),
        "HF_HUB_DISABLE_TELEMETRY": "1",
        **env,
    }
    variables.pop("HF_HUB_OFFLINE", None) if "HF_HUB_OFFLINE" not in env else None
    return subprocess.run(argv, capture_output=True, text=True, env=variables, timeout=600)


def _local(files: dict[str, Path | str], folder: Path | str) -> float:
    # The same weights read from a folder: the hub's copy must score alike.
    metric = COMET(folder, cache=None)
    metric_texts = [[s[k] for s in SAMPLES] for k in ("mt", "ref", "src")]
    return round(metric.corpus_score(metric_texts[0], metric_texts[1], sources=metric_texts[2]).score, 6)


def test_a_name_and_a_revision(hub: tuple[fake_hub.Hub, dict[str, Path | str]], tmp_path: Path) -> None:
    server, files = hub
    latest = _score(server, files, tmp_path, "org/tiny-comet")
    assert latest.returncode == 0, latest.stderr
    result = json.loads(latest.stdout)
    # The checkpoint's commit, then its encoder's (config and tokenizer: another repository).
    assert f"|model:org/tiny-comet|rev:{files['commit5']}+{files['encoder']}|" in result["signature"]
    assert result["score"] == round(_local(files, files["folder5"]), 6)
    older = _score(server, files, tmp_path, f"org/tiny-comet@{files['commit1']}")
    assert older.returncode == 0, older.stderr
    result = json.loads(older.stdout)
    assert f"|rev:{files['commit1']}+{files['encoder']}|" in result["signature"]
    assert result["score"] == round(_local(files, files["folder1"]), 6)
    # Offline, both come from the cache; a name never fetched is named with where it was looked for.
    offline = _score(server, files, tmp_path, "org/tiny-comet", HF_HUB_OFFLINE="1")
    assert offline.returncode == 0, offline.stderr
    missing = _score(server, files, tmp_path, "org/never-fetched", HF_HUB_OFFLINE="1")
    assert missing.returncode != 0
    assert "org/never-fetched is not in the local cache" in missing.stderr
    assert len(missing.stderr.strip().splitlines()) == 1


def test_a_gated_model_says_what_to_do(
    hub: tuple[fake_hub.Hub, dict[str, Path | str]], tmp_path: Path
) -> None:
    server, files = hub
    run = _score(server, files, tmp_path, "org/gated-comet")
    assert run.returncode != 0
    assert "org/gated-comet is gated: accept its licence on its hub page" in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1, run.stderr


def test_a_server_dying_mid_file_leaves_nothing_half_written(
    hub: tuple[fake_hub.Hub, dict[str, Path | str]], tmp_path: Path
) -> None:
    server, files = hub
    # huggingface-hub resumes a download cut short; a server that dies every time defeats it.
    server.die_after["checkpoints/model.ckpt"] = (1000, 50)
    broken = _score(server, files, tmp_path, "org/tiny-comet")
    assert broken.returncode != 0
    assert len(broken.stderr.strip().splitlines()) == 1, broken.stderr
    snapshots = list((tmp_path / "hub").glob("models--org--tiny-comet/snapshots/*/checkpoints/model.ckpt"))
    assert not snapshots  # no truncated checkpoint where a later run would read it
    server.die_after.clear()
    again = _score(server, files, tmp_path, "org/tiny-comet")
    assert again.returncode == 0, again.stderr
    result = json.loads(again.stdout)
    assert result["score"] == round(_local(files, files["folder5"]), 6)


def test_published_names_score_offline_from_the_cache_alone(
    hub: tuple[fake_hub.Hub, dict[str, Path | str]], tmp_path: Path
) -> None:
    server, files = hub
    online = _score(server, files, tmp_path, "Unbabel/wmt22-comet-da")
    assert online.returncode == 0, online.stderr
    asked = len(server.requests)
    # The hub gone: HF_HUB_OFFLINE=1 and an endpoint nobody answers; nothing beyond the name.
    offline = _score(
        server,
        files,
        tmp_path,
        "Unbabel/wmt22-comet-da",
        HF_HUB_OFFLINE="1",
        HF_ENDPOINT="http://127.0.0.1:9",
    )
    assert offline.returncode == 0, offline.stderr
    assert len(server.requests) == asked
    assert json.loads(offline.stdout)["score"] == json.loads(online.stdout)["score"]
    assert json.loads(offline.stdout)["score"] == round(_local(files, files["folder5"]), 6)


@pytest.mark.parametrize("where", ["beside", "inside"])
def test_an_encoder_beside_or_inside_the_checkpoint_needs_no_hub(
    hub: tuple[fake_hub.Hub, dict[str, Path | str]], tmp_path: Path, where: str
) -> None:
    server, files = hub
    checkpoint = nc.build_regression(
        tmp_path / "models" / "wmt22-comet-da", 5, pretrained_model="xlm-roberta-large"
    )
    built = checkpoint / "encoder"  # the builder puts it here; moved to where a user would
    target = (
        checkpoint.parent / "xlm-roberta-large" if where == "beside" else checkpoint / "xlm-roberta-large"
    )
    built.rename(target)
    run = _score(
        server,
        files,
        tmp_path / "home",
        str(checkpoint),
        HF_HUB_OFFLINE="1",
        HF_ENDPOINT="http://127.0.0.1:9",
    )
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["score"] == round(_local(files, files["folder5"]), 6)


@pytest.mark.parametrize(
    "spec", ["./no-such-folder", "~/no-such-folder-understudy", "/no/such/folder", "{tmp}/nope"]
)
def test_a_path_that_does_not_exist_is_no_such_folder(
    hub: tuple[fake_hub.Hub, dict[str, Path | str]], tmp_path: Path, spec: str
) -> None:
    server, files = hub
    asked = len(server.requests)
    run = _score(server, files, tmp_path, spec.format(tmp=tmp_path))
    # Before: ./no-such-folder went to the hub ("HFValidationError: Repo id must use alphanumeric chars").
    assert (
        run.returncode == 1 and "no such folder (a checkpoint is a local folder or a hub name" in run.stderr
    )
    assert len(run.stderr.strip().splitlines()) == 1 and len(server.requests) == asked


def _fetch(hub: fake_hub.Hub, home: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    variables = {**os.environ, "HF_ENDPOINT": hub.url, "HF_HOME": str(home), "HF_HUB_DISABLE_TELEMETRY": "1"}
    variables.pop("HF_HUB_OFFLINE", None)
    command = [sys.executable, "-m", "understudy", "fetch-model", *argv]
    return subprocess.run(command, capture_output=True, text=True, env=variables, timeout=600)


OFFLINE = {"HF_HUB_OFFLINE": "1", "HF_ENDPOINT": "http://127.0.0.1:9"}


def test_fetch_model_into_the_cache_then_offline(
    hub: tuple[fake_hub.Hub, dict[str, Path | str]], tmp_path: Path
) -> None:
    server, files = hub
    fetched = _fetch(server, tmp_path, "Unbabel/wmt22-comet-da")
    assert fetched.returncode == 0, fetched.stderr
    lines = fetched.stdout.splitlines()
    # The checkpoint and the encoder it names, each pinned to its commit, in the hub cache.
    assert [line.split()[0].split("@")[0] for line in lines] == [
        "Unbabel/wmt22-comet-da",
        "xlm-roberta-large",
    ]
    assert lines[1].split()[0] == f"xlm-roberta-large@{files['encoder']}"
    assert all("/snapshots/" in line.split()[1] for line in lines)
    asked = len(server.requests)
    offline = _score(server, files, tmp_path, "Unbabel/wmt22-comet-da", **OFFLINE)
    assert offline.returncode == 0, offline.stderr
    assert len(server.requests) == asked
    assert json.loads(offline.stdout)["score"] == round(_local(files, files["folder5"]), 6)


def test_fetch_model_into_a_folder_signs_as_the_hub_name(
    hub: tuple[fake_hub.Hub, dict[str, Path | str]], tmp_path: Path
) -> None:
    server, files = hub
    online = _score(server, files, tmp_path / "online", "Unbabel/wmt22-comet-da")
    assert online.returncode == 0, online.stderr
    fetched = _fetch(server, tmp_path / "home", "Unbabel/wmt22-comet-da", "--to", str(tmp_path / "models"))
    assert fetched.returncode == 0, fetched.stderr
    folder = tmp_path / "models" / "Unbabel" / "wmt22-comet-da"
    assert (folder / "xlm-roberta-large" / "tokenizer.json").is_file()  # what it names, inside it
    copied = tmp_path / "elsewhere" / "wmt22-comet-da"  # the one folder, copied to another machine
    shutil.copytree(folder, copied)
    offline = _score(server, files, tmp_path / "bare", str(copied), **OFFLINE)
    assert offline.returncode == 0, offline.stderr
    # The hub name at its commit: a ledger compares this run with the online one.
    assert json.loads(offline.stdout)["signature"] == json.loads(online.stdout)["signature"]
    assert json.loads(offline.stdout)["score"] == json.loads(online.stdout)["score"]
    # A file changed since: the folder is no longer what was fetched, and says so by its hash.
    with open(copied / "checkpoints" / "model.ckpt", "ab") as changed:
        changed.write(b"\0")
    edited = _score(server, files, tmp_path / "bare", str(copied), **OFFLINE)
    assert "|model:wmt22-comet-da|rev:sha256-" in json.loads(edited.stdout)["signature"], edited.stderr


def test_fetching_again_after_the_branch_moved_pins_and_signs_the_new_commit(
    hub: tuple[fake_hub.Hub, dict[str, Path | str]], tmp_path: Path
) -> None:
    server, _ = hub
    seed1, seed5 = (files_at for _, files_at in server.repos["org/tiny-comet"].commits)
    moving = fake_hub.Repo()
    server.repos["org/moving-comet"] = moving
    first = moving.add({**seed1, "notes.txt": b"dropped in the next commit"})
    models, folder = tmp_path / "models", tmp_path / "models" / "org" / "moving-comet"
    fetched = _fetch(server, tmp_path / "home", "org/moving-comet", "--to", str(models))
    assert fetched.returncode == 0, fetched.stderr
    assert fetched.stdout.split()[0] == f"org/moving-comet@{first}" and (folder / "notes.txt").is_file()
    second = moving.add(dict(seed5))  # main moves: new weights, a file deleted
    again = _fetch(server, tmp_path / "home", "org/moving-comet", "--to", str(models))
    assert again.returncode == 0, again.stderr
    # Before: the old commit was printed and kept, and the deleted file stayed.
    assert again.stdout.split()[0] == f"org/moving-comet@{second}"
    manifest = json.loads((folder / ".understudy-fetched.json").read_text(encoding="utf-8"))
    assert manifest["revision"] == second and "notes.txt" not in manifest["files"]
    assert not (folder / "notes.txt").exists()
    assert (folder / "checkpoints" / "model.ckpt").read_bytes() == seed5["checkpoints/model.ckpt"]
    # Scored from the folder, it signs as the hub name at the new commit (the revision a score's
    # signature and its cache key take).
    found = COMET(folder, cache=None).checkpoint
    assert (found.name, found.revision) == ("org/moving-comet", second)


@pytest.mark.parametrize("changed", ["checkpoints/model.ckpt", "hparams.yaml"])
def test_a_file_whose_bytes_are_not_the_hubs_is_refused_and_removed(
    hub: tuple[fake_hub.Hub, dict[str, Path | str]], tmp_path: Path, changed: str
) -> None:
    # The weights are checked against the hub's SHA-256 (LFS), the other files their git blob id.
    server, _ = hub
    seed1 = server.repos["org/tiny-comet"].commits[0][1]
    altered = fake_hub.Repo()
    commit = altered.add(dict(seed1))
    server.repos["org/altered-comet"] = altered
    server.tampered[changed] = seed1[changed] + b"\0"
    try:
        into = _fetch(server, tmp_path / "home", "org/altered-comet", "--to", str(tmp_path / "models"))
        cached = _fetch(server, tmp_path / "home", "org/altered-comet")
    finally:
        del server.tampered[changed]
    folder = tmp_path / "models" / "org" / "altered-comet"
    for run in (into, cached):
        assert run.returncode == 1 and run.stdout == "" and len(run.stderr.splitlines()) == 1
        assert f"org/altered-comet@{commit}: {changed} is not the hub's file" in run.stderr
    assert not (folder / changed).exists() and not (folder / ".understudy-fetched.json").exists()
    snapshots = list((tmp_path / "home").rglob(f"snapshots/{commit}/{changed}"))
    assert snapshots == [] or not any(p.exists() for p in snapshots)


@pytest.mark.parametrize("into", [[], ["--to", "{tmp}/models"]])
def test_fetch_model_offline_says_the_hub_cannot_be_reached(
    hub: tuple[fake_hub.Hub, dict[str, Path | str]], tmp_path: Path, into: list[str]
) -> None:
    argv = [a.format(tmp=tmp_path) for a in into]
    variables = {**os.environ, "HF_HOME": str(tmp_path / "home"), **OFFLINE}
    for offline in ("1", "0"):  # asked not to, or nobody answers
        env = {**variables, "HF_HUB_OFFLINE": offline}
        command = [sys.executable, "-m", "understudy", "fetch-model", "org/tiny-comet", *argv]
        run = subprocess.run(command, capture_output=True, text=True, env=env, timeout=600)
        why = "HF_HUB_OFFLINE is set" if offline == "1" else "http://127.0.0.1:9: "
        assert run.returncode == 1 and len(run.stderr.splitlines()) == 1, run.stderr
        assert run.stderr.startswith(f"understudy: error: org/tiny-comet: the hub cannot be reached ({why}")
        assert run.stderr.endswith("): nothing was fetched\n") and "download it" not in run.stderr
    assert not (tmp_path / "models").exists()


def test_what_a_checkpoint_names_but_lacks_is_said_with_every_place_looked_in(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from huggingface_hub import constants
    from understudy.errors import HubUnreachableError
    from understudy.neural import MetricX

    # Offline, with an empty cache: huggingface-hub reads both at each call.
    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", True)
    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(tmp_path / "hub"))
    comet = nc.build_regression(tmp_path / "models" / "lost-comet", 1, pretrained_model="org/absent-xlmr")
    shutil.rmtree(comet / "encoder")
    with pytest.raises(HubUnreachableError) as lost:
        COMET(comet, cache=None).prepare()
    assert str(lost.value).startswith(
        f"the checkpoint {comet} reads org/absent-xlmr, looked for in turn at"
        f" {tmp_path / 'models' / 'org' / 'absent-xlmr'}, at {comet / 'org' / 'absent-xlmr'}, as the"
        " folder org/absent-xlmr, in the hub cache and on the hub; none has it: "
    )
    assert "(HF_HUB_OFFLINE is set)" in str(lost.value) and "\n" not in str(lost.value)
    with pytest.raises(HubUnreachableError) as untokenized:
        MetricX(nc.build_metricx(tmp_path / "metricx"), cache=None)
    assert "reads google/mt5-xl, looked for in turn at" in str(untokenized.value)
    assert str(untokenized.value).endswith("or name its folder with --metricx-tokenizer")
