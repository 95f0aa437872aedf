"""The committee (docs/measures/balanced-f.md): its plan, its difficulty vector, determinism, JSON,
the command line.

Committee kind ``crf`` on a small synthetic corpus (a few hundred sentences of a 40-word
vocabulary, K = 3, 10 L-BFGS iterations), so these tests take seconds; kind ``runs`` on two
hand-made runs. The PKU checks are in test_balanced.py.
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

import numpy as np
import pytest

from scoring import Dictionary, build_gold_index
from scoring.cli.committee import add_committee_command
from scoring.core.errors import CorpusFormatError, ScoringError
from scoring.core.gold import GoldIndex
from scoring.core.score import score_run_details
from scoring.psychometric.committee import (
    build_committee,
    committee_from_runs,
    plan_committee,
    test_sentences,
)
from scoring.psychometric.difficulty import Committee, Member, MemberPlan

CHARS = "的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可也你"


def synthetic_corpus(sentences: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    vocabulary = ["".join(rng.sample(CHARS, rng.choice((1, 2, 2, 3)))) for _ in range(40)]
    return [
        "  ".join(rng.choice(vocabulary) for _ in range(rng.randint(3, 12)))
        for _ in range(sentences)
    ]


TRAINING = synthetic_corpus(300, seed=1)
GOLD = "".join(line + "\n" for line in [*synthetic_corpus(40, seed=1)[:20], "", *TRAINING[:5]])


def gold_index() -> GoldIndex:
    return build_gold_index(GOLD, Dictionary.from_words(()))


def small_committee(seed: int = 1, max_workers: int = 1) -> Committee:
    return build_committee(
        TRAINING, GOLD, k=3, seed=seed, max_iterations=10, max_workers=max_workers
    )


def test_the_plan_draws_templates_ratios_and_seeds_from_the_seed() -> None:
    plan = plan_committee(16, seed=1)
    assert plan == plan_committee(16, seed=1)
    assert plan != plan_committee(16, seed=2)
    assert {member.template for member in plan} == {"F1", "F2", "F3"}
    assert {member.ratio for member in plan} == {0.1, 0.2, 0.3}
    assert len({member.seed for member in plan}) == 16


def test_the_plan_refuses_an_empty_committee() -> None:
    with pytest.raises(ScoringError, match="at least one member"):
        plan_committee(0)


def test_a_member_samples_its_share_of_the_sentences_without_repeats() -> None:
    sample = MemberPlan(template="F1", ratio=0.2, seed=7).sample(1000)
    assert sample.size == 200
    assert np.unique(sample).size == 200
    assert sample.tolist() == sorted(sample.tolist())
    assert MemberPlan(template="F1", ratio=0.2, seed=7).sample(1000).tolist() == sample.tolist()


def test_test_sentences_keep_empty_lines() -> None:
    sentences = test_sentences(gold_index())
    assert len(sentences) == 26
    assert sentences[20] == ""
    assert sentences[0] == GOLD.split("\n")[0].replace(" ", "")


def test_the_difficulty_vector_is_deterministic_for_a_seed() -> None:
    serial = small_committee(seed=1, max_workers=1)
    parallel = small_committee(seed=1, max_workers=2)
    assert serial.difficulty.tolist() == parallel.difficulty.tolist()
    assert serial.to_dict() == parallel.to_dict()


def test_the_difficulty_vector_is_read_only() -> None:
    misses = np.array([0, 1, 2])
    committee = Committee(
        kind="runs",
        misses=misses,
        members=tuple(Member(name=n, true_words=3, test_words=3, correct=3) for n in "ab"),
        gold_checksum="sha256:00",
    )
    misses[0] = 2
    assert committee.misses.tolist() == [0, 1, 2]
    assert not committee.difficulty.flags.writeable
    assert not committee.misses.flags.writeable
    with pytest.raises(ScoringError, match="0 to 2 members"):
        Committee(kind="runs", misses=np.array([3]), members=committee.members, gold_checksum="")


def test_the_difficulty_vector_rates_every_gold_word() -> None:
    committee = small_committee()
    gold = gold_index()
    assert committee.difficulty.shape == (gold.true_words,)
    assert set(np.unique(committee.misses).tolist()) <= {0, 1, 2, 3}
    assert committee.difficulty.tolist() == (committee.misses / 3).tolist()
    # Each member's own score on the test set is recorded, and adds up to the misses.
    correct = sum(member.correct for member in committee.members)
    assert correct == 3 * gold.true_words - int(committee.misses.sum())


def test_the_provenance_names_every_member() -> None:
    committee = small_committee(seed=4)
    provenance = committee.to_dict()["provenance"]
    assert provenance["kind"] == "crf"
    assert provenance["k"] == 3
    assert provenance["seed"] == 4
    assert provenance["gold_checksum"] == gold_index().checksum
    assert provenance["settings"]["max_iterations"] == 10
    plan = plan_committee(3, seed=4)
    for member, planned in zip(provenance["members"], plan, strict=True):
        assert (member["template"], member["ratio"], member["seed"]) == (
            planned.template,
            planned.ratio,
            planned.seed,
        )
        assert member["training_sentences"] == round(planned.ratio * len(TRAINING))
        assert 0 < member["f"] <= 1
    assert committee.signature.startswith("committee:crf|k:3|seed:4|gold:sha256.")


def test_progress_is_reported_per_member() -> None:
    seen: list[tuple[int, int]] = []
    build_committee(
        TRAINING[:50],
        GOLD,
        k=2,
        max_iterations=3,
        max_workers=1,
        progress=lambda *a: seen.append(a),
    )
    assert seen == [(1, 2), (2, 2)]


def test_a_committee_round_trips_through_json(tmp_path: Path) -> None:
    committee = small_committee()
    committee.save(tmp_path / "difficulty.json")
    loaded = Committee.load(tmp_path / "difficulty.json")
    assert loaded.to_dict() == committee.to_dict()


def test_loading_refuses_another_format(tmp_path: Path) -> None:
    (tmp_path / "other.json").write_text(json.dumps({"difficulty": [0.5]}))
    with pytest.raises(CorpusFormatError, match="bakeoff-difficulty/1"):
        Committee.load(tmp_path / "other.json")


def test_a_committee_of_runs_counts_the_runs_that_miss_each_word() -> None:
    gold = build_gold_index("结婚  的  和  尚未  结婚  的\n", Dictionary.from_words(()))
    runs = {
        "a": score_run_details("结婚  的  和尚  未结婚  的\n", gold),
        "b": score_run_details("结婚  的  和  尚未  结婚  的\n", gold),
    }
    committee = committee_from_runs(runs)
    assert committee.kind == "runs"
    assert committee.misses.tolist() == [0, 0, 1, 1, 1, 0]
    assert committee.difficulty.tolist() == [0, 0, 0.5, 0.5, 0.5, 0]
    assert [(m.name, m.correct, m.f) for m in committee.members] == [
        ("a", 3, pytest.approx(6 / 11)),
        ("b", 6, 1.0),
    ]
    assert committee.seed is None and committee.training_checksum is None


def test_a_committee_of_runs_refuses_runs_of_different_golds() -> None:
    first = build_gold_index("结婚  的\n", Dictionary.from_words(()))
    second = build_gold_index("结婚的\n", Dictionary.from_words(()))
    with pytest.raises(ScoringError, match="same gold"):
        committee_from_runs(
            {
                "a": score_run_details("结婚  的\n", first),
                "b": score_run_details("结婚  的\n", second),
            }
        )


def committee_command(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    add_committee_command(parser.add_subparsers(required=True))
    args = parser.parse_args(argv)
    return int(args.command(args))


def test_the_command_writes_the_difficulty_file(tmp_path: Path) -> None:
    (tmp_path / "train.utf8").write_text("\n".join(TRAINING[:60]) + "\n", "utf-8")
    (tmp_path / "gold.utf8").write_text(GOLD.replace("\n", "\r\n"), "utf-8")
    out = tmp_path / "difficulty.json"
    argv = ["committee", "--train", str(tmp_path / "train.utf8")]
    argv += ["--test-gold", str(tmp_path / "gold.utf8"), "-k", "2", "--seed", "3"]
    argv += ["--max-iterations", "5", "--workers", "1", "-o", str(out)]
    assert committee_command(argv) == 0
    document = json.loads(out.read_text("utf-8"))
    assert len(document["difficulty"]) == gold_index().true_words
    assert document["provenance"]["k"] == 2
    assert document["provenance"]["seed"] == 3
    assert len(document["provenance"]["members"]) == 2


def test_the_command_builds_a_committee_of_runs(tmp_path: Path) -> None:
    (tmp_path / "gold.utf8").write_text("结婚  的  和  尚未  结婚  的\n", "utf-8")
    (tmp_path / "a.utf8").write_text("结婚  的  和尚  未结婚  的\n", "utf-8")
    (tmp_path / "b.utf8").write_text("结婚的  和  尚未  结婚  的\n", "utf-8")
    out = tmp_path / "difficulty.json"
    argv = ["committee", "--runs", str(tmp_path / "a.utf8"), str(tmp_path / "b.utf8")]
    argv += ["--test-gold", str(tmp_path / "gold.utf8"), "-o", str(out)]
    assert committee_command(argv) == 0
    document = json.loads(out.read_text("utf-8"))
    assert document["difficulty"] == [0.5, 0.5, 0.5, 0.5, 0.5, 0.0]
    assert document["provenance"]["kind"] == "runs"
