"""``python -m scoring buckets`` (registered by scoring.cli.buckets.add_buckets_command)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from scoring.cli.buckets import add_buckets_command
from scoring.core.errors import ScoringError
from scoring.fine.attributes import NEEDS_TRAINING_TEXT
from scoring.fine.schemes import ATTRIBUTES
from tests.scoring.test_attributes import GOLD, RUN, TRAINING, WORDS

BUCKET_KEYS = {
    "label",
    "gold_words",
    "run_words",
    "correct_gold",
    "correct_run",
    "precision",
    "recall",
    "f",
}


def run_command(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    parser = argparse.ArgumentParser(prog="python -m scoring")
    add_buckets_command(parser.add_subparsers(required=True))
    args = parser.parse_args(["buckets", *argv])
    assert args.command(args) == 0
    return capsys.readouterr().out


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    paths = {}
    for name, text in {
        "train": TRAINING,
        "words": WORDS,
        "gold": GOLD,
        "run": RUN,
        "run2": "他 在 结 婚\n新郎 结婚 了\n",
        "domains": "news\nweibo\n",
    }.items():
        paths[name] = tmp_path / f"{name}.txt"
        paths[name].write_text(text, encoding="utf-8")
    return paths


def test_json_maps_every_attribute_to_its_buckets(
    files: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    out = run_command(
        [
            "--train",
            str(files["train"]),
            "--dict",
            str(files["words"]),
            str(files["gold"]),
            str(files["run"]),
            "--format",
            "json",
            "--samples",
            "50",
        ],
        capsys,
    )
    document = json.loads(out)
    assert document["run"] == "run.txt"
    assert set(document["attributes"]) == set(ATTRIBUTES)
    for buckets in document["attributes"].values():
        assert all(set(bucket) >= BUCKET_KEYS for bucket in buckets)
        assert sum(bucket["gold_words"] for bucket in buckets) == 6
    assert document["unavailable"] == {}
    assert document["self_diagnosis"]["wLen"]["worst"] == "wLen {1}"
    assert document["signature"]["samples"] == 50
    assert "aided_diagnosis" not in document


def test_without_training_text_four_attributes_are_unavailable(
    files: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    out = run_command(
        ["--dict", str(files["words"]), str(files["gold"]), str(files["run"]), "--format", "json"],
        capsys,
    )
    document = json.loads(out)
    for name in NEEDS_TRAINING_TEXT:
        assert document["attributes"][name] is None
        assert "running text" in document["unavailable"][name]
    assert document["attributes"]["wLen"] is not None
    assert document["signature"]["training_checksum"] is None


def test_a_second_run_adds_the_aided_diagnosis_and_the_bootstrap(
    files: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    argv = [
        "--train",
        str(files["train"]),
        "--dict",
        str(files["words"]),
        str(files["gold"]),
        str(files["run"]),
        str(files["run2"]),
        "--format",
        "json",
        "--seed",
        "5",
    ]
    document = json.loads(run_command(argv, capsys))
    assert document["run2"]["run"] == "run2.txt"
    # run2 finds 4 of 6 gold words with 7 words, run 3 with 6: run2 is A, the better one
    assert (document["aided_diagnosis"]["a"], document["aided_diagnosis"]["b"]) == (
        "run2.txt",
        "run.txt",
    )
    assert set(document["aided_diagnosis"]["attributes"]) == set(ATTRIBUTES)
    bootstrap = document["bootstrap"]
    assert bootstrap["upper"] == "run2.txt" and bootstrap["seed"] == 5
    assert 0 <= bootstrap["probability"] <= 1
    assert json.loads(run_command(argv, capsys)) == document  # seeded: same output


def test_text_output_shows_buckets_diagnoses_and_domains(
    files: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    out = run_command(
        [
            "--train",
            str(files["train"]),
            "--dict",
            str(files["words"]),
            str(files["gold"]),
            str(files["run"]),
            str(files["run2"]),
            "--domains",
            str(files["domains"]),
            "--samples",
            "20",
        ],
        capsys,
    )
    assert "wFre (1, 2]" in out
    assert "Self-diagnosis" in out and "Aided diagnosis of run2.txt (A) against run.txt (B)" in out
    assert "Paired bootstrap (20 resamples" in out
    assert "weibo" in out


def test_a_run_of_other_characters_is_an_error_with_strict(
    files: dict[str, Path], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("他 在 结婚\n新郎 结婚 吗\n", encoding="utf-8")
    parser = argparse.ArgumentParser()
    add_buckets_command(parser.add_subparsers(required=True))
    args = parser.parse_args(
        ["buckets", "--dict", str(files["words"]), str(files["gold"]), str(bad), "--strict"]
    )
    with pytest.raises(ScoringError, match="line 2, column 5"):
        args.command(args)
    args = parser.parse_args(
        ["buckets", "--dict", str(files["words"]), str(files["gold"]), str(bad)]
    )
    assert args.command(args) == 0
    assert "1 line(s) differ" in capsys.readouterr().err


def test_a_domain_file_of_the_wrong_length_is_refused(
    files: dict[str, Path], tmp_path: Path
) -> None:
    short = tmp_path / "short.txt"
    short.write_text("news\n", encoding="utf-8")
    parser = argparse.ArgumentParser()
    add_buckets_command(parser.add_subparsers(required=True))
    args = parser.parse_args(
        [
            "buckets",
            "--dict",
            str(files["words"]),
            str(files["gold"]),
            str(files["run"]),
            "--domains",
            str(short),
        ]
    )
    with pytest.raises(ScoringError, match="1 line"):
        args.command(args)
