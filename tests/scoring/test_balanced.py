"""Balanced precision, recall and F (docs/measures/balanced-f.md): hand-computed cases, then the
paper's claims on PKU.

The hand-computed gold has two lines and nine words with difficulties in quarters, so every sum
below is exact:

    结婚 的 和 尚未 结婚 的 / 我 爱 北京
    d = 0.25 0 0.5 0.75 0.25 1 / 0 0.5 0.75
"""

from __future__ import annotations

import doctest
import json
import os
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

import scoring.psychometric.balanced
from scoring import Dictionary, build_gold_index
from scoring.cli.committee import balanced_from_file
from scoring.core.errors import ScoringError
from scoring.core.score import ScoredRun, score_run_details
from scoring.psychometric.balanced import (
    balanced_from_arrays,
    balanced_score,
    balanced_side,
    difficulty_profile,
    run_word_difficulty,
)
from scoring.psychometric.committee import committee_from_runs
from scoring.psychometric.difficulty import Committee, Member
from tests.scoring import pku_committee

GOLD = "结婚  的  和  尚未  结婚  的\n我  爱  北京\n"
DIFFICULTY = [0.25, 0.0, 0.5, 0.75, 0.25, 1.0, 0.0, 0.5, 0.75]
RUN_A = "结婚  的  和尚  未结婚  的\n我  爱北京\n"
RUN_B = "结  婚  的  和  尚  未  结  婚  的\n我  爱  北  京\n"


def scored(run: str, gold: str = GOLD) -> ScoredRun:
    return score_run_details(
        run, build_gold_index(gold, Dictionary.from_words(())), aligned_lines="any"
    )


def harmonic(a: Fraction, b: Fraction) -> Fraction:
    return 2 * a * b / (a + b)


def test_the_docstring_examples_hold() -> None:
    assert doctest.testmod(scoring.psychometric.balanced).failed == 0


def test_run_a_every_sum_by_hand() -> None:
    run = scored(RUN_A)
    # m = 1 1 0 0 0 1 / 1 0 0; run words 结婚 的 和尚 未结婚 的 / 我 爱北京
    assert run.gold_correct.tolist() == [1, 1, 0, 0, 0, 1, 1, 0, 0]
    assert run_word_difficulty(run, np.array(DIFFICULTY)).tolist() == [
        0.25, 0.0, 0.75, 0.25, 1.0, 0.0, 0.75,
    ]  # fmt: skip
    result = balanced_score(run, DIFFICULTY)
    recall, precision = result.recall_side, result.precision_side
    assert (recall.difficulty_sum, recall.correct_difficulty_sum) == (4.0, 1.25)
    assert (recall.ease_sum, recall.correct_ease_sum) == (5.0, 2.75)
    assert (precision.difficulty_sum, precision.correct_difficulty_sum) == (3.0, 1.25)
    assert (precision.ease_sum, precision.correct_ease_sum) == (4.0, 2.75)
    r_reward, r_punish = Fraction(5, 16), Fraction(11, 20)
    p_reward, p_punish = Fraction(5, 12), Fraction(11, 16)
    assert recall.reward == pytest.approx(float(r_reward))
    assert recall.punish == pytest.approx(float(r_punish))
    assert precision.reward == pytest.approx(float(p_reward))
    assert precision.punish == pytest.approx(float(p_punish))
    r_b, p_b = harmonic(r_reward, r_punish), harmonic(p_reward, p_punish)
    assert (r_b, p_b) == (Fraction(55, 138), Fraction(55, 106))
    assert result.recall_b == pytest.approx(float(r_b))
    assert result.precision_b == pytest.approx(float(p_b))
    assert result.f_b == pytest.approx(float(Fraction(55, 122)))


def test_run_b_every_sum_by_hand() -> None:
    run = scored(RUN_B)
    # Single characters: right only where gold has a one-character word.
    assert run.gold_correct.tolist() == [0, 1, 1, 0, 0, 1, 1, 1, 0]
    result = balanced_score(run, DIFFICULTY)
    recall, precision = result.recall_side, result.precision_side
    assert (recall.correct_difficulty_sum, recall.correct_ease_sum) == (2.0, 3.0)
    assert (precision.words, precision.correct) == (13, 5)
    assert (precision.difficulty_sum, precision.correct_difficulty_sum) == (6.0, 2.0)
    assert (precision.ease_sum, precision.correct_ease_sum) == (7.0, 3.0)
    assert (recall.reward, recall.punish) == pytest.approx((0.5, 0.6))
    assert (precision.reward, precision.punish) == pytest.approx((1 / 3, 3 / 7))
    assert result.recall_b == pytest.approx(6 / 11)
    assert result.precision_b == pytest.approx(0.375)
    assert result.f_b == pytest.approx(4 / 9)


def test_it_takes_the_other_component_when_no_word_has_difficulty() -> None:
    result = balanced_score(scored(RUN_A), [0.0] * 9)
    assert result.recall_side.difficulty_sum == 0
    assert result.recall_side.reward == result.recall_side.punish == pytest.approx(4 / 9)
    assert result.precision_side.reward == result.precision_side.punish == pytest.approx(4 / 7)
    assert result.f_b == pytest.approx(scored(RUN_A).score.f)


def test_it_takes_the_other_component_when_every_word_has_difficulty_one() -> None:
    result = balanced_score(scored(RUN_A), [1.0] * 9)
    assert result.recall_side.ease_sum == 0
    assert result.recall_side.punish == result.recall_side.reward == pytest.approx(4 / 9)
    assert result.precision_side.punish == result.precision_side.reward == pytest.approx(4 / 7)


def test_a_side_without_words_is_zero() -> None:
    side = balanced_side([], [])
    assert (side.reward, side.punish, side.value) == (0.0, 0.0, 0.0)


def test_the_profile_has_ten_intervals_closed_on_the_right() -> None:
    profile = balanced_score(scored(RUN_A), DIFFICULTY).profile
    assert [interval.label for interval in profile][:2] == ["[0.0, 0.1]", "(0.1, 0.2]"]
    assert [(interval.words, interval.correct) for interval in profile] == [
        (2, 2), (0, 0), (2, 1), (0, 0), (2, 0), (0, 0), (0, 0), (2, 0), (0, 0), (1, 1),
    ]  # fmt: skip
    assert profile[1].accuracy is None
    assert profile[2].accuracy == 0.5


def test_the_profile_bins_exact_fractions_by_their_value() -> None:
    # 1 − 0.7 is 0.30000000000000004 in floating point; it still belongs to (0.2, 0.3].
    profile = difficulty_profile([0.1, 1 - 0.7, 0.3, 0.9, 1.0, 0.0], [True] * 6)
    assert [interval.words for interval in profile] == [2, 0, 2, 0, 0, 0, 0, 0, 1, 1]


def test_lines_restrict_both_sides() -> None:
    run = scored(RUN_A)
    second_line = balanced_score(run, DIFFICULTY, lines=[1])
    expected = balanced_from_arrays(
        [0.0, 0.5, 0.75], [True, False, False], [0.0, 0.75], [True, False]
    )
    assert second_line.to_dict() == expected.to_dict()


def test_a_run_word_on_a_flawed_line_takes_the_difficulty_of_its_aligned_character() -> None:
    # The run's first line has a quotation mark that the gold lacks (as on 16 msr lines): the
    # mark aligns with nothing and takes 说's difficulty; the next line is unaffected by the shift.
    gold = "他  说\n我  爱  北京\n"
    run = scored("他  说“\n我  爱北京\n", gold)
    assert run.score.aligned_lines == (1,)
    assert run_word_difficulty(run, np.array([0.1, 0.2, 0.3, 0.4, 0.5])).tolist() == [
        0.1, 0.2, 0.3, 0.5,
    ]  # fmt: skip


def test_it_refuses_a_difficulty_vector_of_another_length() -> None:
    with pytest.raises(ScoringError, match="9 words"):
        balanced_score(scored(RUN_A), DIFFICULTY[:-1])


def test_it_refuses_difficulties_outside_zero_and_one() -> None:
    with pytest.raises(ScoringError, match=r"\[0, 1\]"):
        balanced_score(scored(RUN_A), [*DIFFICULTY[:-1], 1.5])


def test_balanced_from_file_adds_the_three_figures(tmp_path: Path) -> None:
    run = scored(RUN_A)
    committee = Committee(
        kind="runs",
        misses=np.array([1, 0, 2, 3, 1, 4, 0, 2, 3], np.int32),
        members=tuple(
            Member(name=f"m{i}", true_words=9, test_words=9, correct=9) for i in range(4)
        ),
        gold_checksum=run.gold.checksum,
    )
    path = tmp_path / "difficulty.json"
    committee.save(path)
    assert json.loads(path.read_text("utf-8"))["difficulty"] == DIFFICULTY
    figures = balanced_from_file(path, run)
    assert figures["f_b"] == pytest.approx(55 / 122)
    assert figures["recall_b"] == pytest.approx(55 / 138)
    assert figures["precision_b"] == pytest.approx(55 / 106)
    assert figures["committee"] == committee.signature
    json.dumps(figures)


def test_balanced_from_file_refuses_a_committee_of_another_gold(tmp_path: Path) -> None:
    run = scored(RUN_A)
    committee = committee_from_runs({"b": scored(RUN_B)})
    other = Committee(
        kind="runs", misses=committee.misses, members=committee.members, gold_checksum="sha256:00"
    )
    other.save(tmp_path / "difficulty.json")
    with pytest.raises(ScoringError, match="another gold standard"):
        balanced_from_file(tmp_path / "difficulty.json", run)


# -- the paper's claims on the PKU data ----------------------------------------------------------
# Committee kind ``crf``: K = 6 members (F1/F2, 10/20/30% samples, 30 L-BFGS iterations) trained on
# a seeded sample of 3,000 sentences of the PKU training reconstruction. Runs: CRFs (F2 and F1,
# 60 iterations) trained on 20%, 50%, 80% and 100% of the same sample, tagging the pku test text.
# See tests/scoring/pku_committee.py; the whole experiment takes about two minutes of CPU.


@pytest.fixture(scope="session")
def pku(tmp_path_factory: pytest.TempPathFactory) -> pku_committee.Experiment:
    reason = pku_committee.missing_data()
    if reason is not None:
        pytest.skip(reason)
    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = shared.parent  # the controller's base directory, which every worker shares
    return pku_committee.load(shared)


def series(pku: pku_committee.Experiment, template: str) -> list[ScoredRun]:
    return [pku.runs[pku_committee.run_name(template, share)] for share in pku_committee.SHARES]


def f_b(pku: pku_committee.Experiment, run: ScoredRun, committee: Committee | None = None) -> float:
    return balanced_score(run, (committee or pku.committee).difficulty).f_b


@pytest.mark.slow
@pytest.mark.parametrize("template", pku_committee.RUN_TEMPLATES)
def test_pku_f_b_increases_with_training_data(
    pku: pku_committee.Experiment, template: str, record_property: Callable[[str, object], None]
) -> None:
    figures = [(round(run.score.f, 4), round(f_b(pku, run), 4)) for run in series(pku, template)]
    record_property("F, F_b at 20/50/80/100%", figures)
    balanced = [fb for _, fb in figures]
    assert balanced == sorted(balanced), figures
    assert len(set(balanced)) == len(balanced), figures


@pytest.mark.slow
def test_pku_f_b_lies_well_below_f_for_every_run(pku: pku_committee.Experiment) -> None:
    for name, run in pku.runs.items():
        assert f_b(pku, run) < run.score.f - 0.1, name


@pytest.mark.slow
def test_pku_f_b_is_reliable_over_split_halves(
    pku: pku_committee.Experiment,
    capsys: pytest.CaptureFixture[str],
    record_property: Callable[[str, object], None],
) -> None:
    lines = np.random.default_rng(2016).permutation(pku.gold.line_count)
    halves = lines[: lines.size // 2], lines[lines.size // 2 :]
    first, second = (
        [balanced_score(run, pku.committee.difficulty, lines=half).f_b for run in pku.runs.values()]
        for half in halves
    )
    r = pku_committee.pearson(first, second)
    record_property("split-half Pearson r of F_b", round(r, 4))
    with capsys.disabled():
        print(f"\nsplit-half reliability of F_b over {len(pku.runs)} PKU runs: Pearson r = {r:.4f}")
    assert len(pku.runs) >= 8
    assert r > 0.9


@pytest.mark.slow
def test_pku_committee_members_are_recorded(pku: pku_committee.Experiment) -> None:
    committee = pku.committee
    assert committee.kind == "crf"
    assert committee.k == pku_committee.K
    assert {member.template for member in committee.members} <= {"F1", "F2"}
    assert {member.ratio for member in committee.members} <= {0.1, 0.2, 0.3}
    assert all(0.5 < member.f < 1 for member in committee.members)
    assert committee.settings["training_sentences"] == pku_committee.SAMPLE_SENTENCES


@pytest.mark.slow
def test_pku_committee_of_runs_agrees_with_the_crf_committee(
    pku: pku_committee.Experiment,
) -> None:
    # The second kind, for bakeoffs without training text: the eight runs rate the words.
    by_runs = committee_from_runs(pku.runs)
    assert by_runs.kind == "runs"
    assert by_runs.k == len(pku.runs)
    assert (
        pku_committee.pearson(by_runs.difficulty.tolist(), pku.committee.difficulty.tolist()) > 0.5
    )
    for template in pku_committee.RUN_TEMPLATES:
        balanced = [f_b(pku, run, by_runs) for run in series(pku, template)]
        assert balanced == sorted(balanced)
    for run in pku.runs.values():
        assert f_b(pku, run, by_runs) < run.score.f
