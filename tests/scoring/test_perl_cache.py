"""The cache of the Perl scorer's answers (tests/scoring/perl.py): a second run of the same inputs
reads Perl's first answer, any change of an input runs Perl again, and a broken entry is run again
and written over."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from tests.scoring import perl

pytestmark = [
    pytest.mark.perl,
    pytest.mark.skipif(
        perl.missing_requirement() is not None, reason=perl.missing_requirement() or ""
    ),
]

GOLD = "我们 在 北京\n今天 天气 很 好\n"
RUN = "我们 在北京\n今天 天气 很好\n"


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    directory = tmp_path / "cache"
    monkeypatch.setenv(perl.CACHE_VARIABLE, str(directory))
    return directory


@pytest.fixture
def files(tmp_path: Path) -> tuple[Path, Path, Path]:
    paths = tmp_path / "words", tmp_path / "gold", tmp_path / "run"
    for path, text in zip(paths, ("我们\n北京\n", GOLD, RUN), strict=True):
        path.write_text(text, encoding="utf-8")
    return paths


def test_a_second_run_of_the_same_inputs_reads_perls_first_answer(
    cache: Path, files: tuple[Path, Path, Path]
) -> None:
    first = perl.run_perl_score(*files)
    assert not first.cached
    (entry,) = cache.glob("*.json")
    assert entry.stem == perl.cache_key(*files)

    second = perl.run_perl_score(*files)
    assert second.cached
    assert (second.summary, second.labels, second.lines) == (
        first.summary,
        first.labels,
        first.lines,
    )
    assert second.seconds == first.seconds  # what the Perl run took, kept with its answer


def test_the_answer_comes_from_the_entry_not_from_perl(
    cache: Path, files: tuple[Path, Path, Path]
) -> None:
    perl.run_perl_score(*files)
    (entry,) = cache.glob("*.json")
    kept = json.loads(entry.read_text(encoding="utf-8"))
    kept["summary"]["F"] = "0.123"  # a figure Perl never printed for these files
    entry.write_text(json.dumps(kept), encoding="utf-8")
    assert perl.run_perl_score(*files)["F"] == "0.123"


def test_any_input_changed_is_another_key(
    files: tuple[Path, Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    words, gold, run = files
    key = perl.cache_key(words, gold, run)
    assert perl.cache_key(words, gold, run) == key
    for path in files:
        kept = path.read_bytes()
        path.write_bytes(kept + "好\n".encode())
        assert perl.cache_key(words, gold, run) != key, path.name
        path.write_bytes(kept)
    monkeypatch.setenv("LC_ALL", "C")  # diff -y lays out its columns by the locale
    assert perl.cache_key(words, gold, run) != key


def test_one_locale_set_by_other_variables_is_one_key(
    files: tuple[Path, Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("LC_ALL", "LC_CTYPE", "LC_COLLATE", "LC_MESSAGES", "LC_NUMERIC", "LANGUAGE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    key = perl.cache_key(*files)
    monkeypatch.setenv("LC_ALL", "C.UTF-8")  # as .ci/run sets it beside LANG
    assert perl.cache_key(*files) == key
    monkeypatch.setenv("LC_CTYPE", "en_US.UTF-8")  # under LC_ALL: no effect
    assert perl.cache_key(*files) == key
    monkeypatch.delenv("LC_ALL")
    assert perl.cache_key(*files) != key  # now LC_CTYPE decides the characters' widths


def test_a_broken_entry_is_run_again_and_written_over(
    cache: Path, files: tuple[Path, Path, Path]
) -> None:
    cache.mkdir()
    entry = cache / f"{perl.cache_key(*files)}.json"
    entry.write_text('{"summary": {"F": "0.9', encoding="utf-8")  # cut short
    score = perl.run_perl_score(*files)
    assert not score.cached
    assert perl.from_json(json.loads(entry.read_text(encoding="utf-8"))).summary == score.summary


def test_off_runs_perl_every_time(
    tmp_path: Path, files: tuple[Path, Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(perl.CACHE_VARIABLE, "off")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert perl.cache_directory() is None
    assert not perl.run_perl_score(*files).cached
    assert not perl.run_perl_score(*files).cached
    assert not (tmp_path / "xdg").exists()


def test_by_default_it_is_kept_in_the_users_cache_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(perl.CACHE_VARIABLE, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert perl.cache_directory() == tmp_path / "bakeoff" / "perl-score"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert perl.cache_directory() == Path.home() / ".cache" / "bakeoff" / "perl-score"


def test_an_entry_unread_for_a_month_goes_when_another_is_written(
    cache: Path, files: tuple[Path, Path, Path]
) -> None:
    words, gold, run = files
    answer = perl.run_perl_score(words, gold, run)
    old, read = cache / "old.json", cache / "read.json"
    for path in (old, read):
        path.write_text(json.dumps(perl.to_json(answer)), encoding="utf-8")
        month_ago = time.time() - perl.CACHE_KEEP_SECONDS - 3600
        os.utime(path, (month_ago, month_ago))
    assert perl._read_entry(read) is not None  # read: kept for another month
    run.write_text(RUN + "很好\n", encoding="utf-8")
    perl.run_perl_score(words, gold, run)  # another entry written
    assert "old.json" not in {p.name for p in cache.iterdir()}
    assert read.is_file() and len(list(cache.glob("*.json"))) == 3
