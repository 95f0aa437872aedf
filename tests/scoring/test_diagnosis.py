"""Self-diagnosis, aided diagnosis and a track's profile (docs/measures/buckets.md)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from scoring.core.result import Score, Signature
from scoring.fine.buckets import AttributeBuckets, BucketScore, BucketSignature, RunBuckets
from scoring.fine.diagnosis import aided_diagnosis, self_diagnosis

SIGNATURE = BucketSignature("1", "g", "d", None, "s", "sha256:x", 10, 0)


def run(f_per_bucket: Sequence[float], correct: int) -> RunBuckets:
    """A run whose wLen buckets have the given F (each bucket 100 gold and 100 run words)."""
    buckets = tuple(
        BucketScore(f"wLen {i}", 100, 100, round(100 * f), round(100 * f))
        for i, f in enumerate(f_per_bucket)
    )
    total = 100 * len(buckets)
    score = Score(total, total, correct, 0, 0, 0, 0, 0, Signature("1", "g", "d"))
    return RunBuckets(
        score, (AttributeBuckets("wLen", buckets),), (), SIGNATURE, total, total, correct
    )


def test_self_diagnosis_names_the_worst_bucket_and_the_gap_to_the_best() -> None:
    (found,) = self_diagnosis(run([0.9, 0.95, 0.6, 0.7], 315))
    assert (found.worst, found.best) == ("wLen 2", "wLen 1")
    assert found.gap == pytest.approx(0.35)


def test_aided_diagnosis_finds_where_the_weaker_run_wins_most() -> None:
    a = run([0.9, 0.95, 0.6, 0.7], 315)
    b = run([0.85, 0.9, 0.7, 0.72], 317 - 10)
    (found,) = aided_diagnosis(a, b)
    assert found.bucket == "wLen 2" and found.b_better
    assert found.difference == pytest.approx(0.1)


def test_aided_diagnosis_falls_back_to_where_the_better_run_wins_most() -> None:
    a = run([0.9, 0.95, 0.6, 0.7], 315)
    b = run([0.8, 0.94, 0.6, 0.7], 304)
    (found,) = aided_diagnosis(a, b)
    assert found.bucket == "wLen 0" and not found.b_better


def test_aided_diagnosis_needs_the_better_run_first() -> None:
    with pytest.raises(ValueError, match="higher F"):
        aided_diagnosis(run([0.5] * 4, 200), run([0.9] * 4, 360))


def test_spearman_and_std_of_bucket_f() -> None:
    falling = run([0.95, 0.9, 0.7, 0.6], 315)["wLen"]
    assert falling.spearman == pytest.approx(-1.0)
    assert falling.std == pytest.approx((0.081875 / 4) ** 0.5)  # population std
    flat = run([0.9] * 4, 360)["wLen"]
    assert flat.spearman is None and flat.std == 0.0


def test_the_track_profile_averages_over_words_and_systems() -> None:
    from scoring import Dictionary, build_gold_index
    from scoring.core.score import score_run_details
    from scoring.fine.attributes import TrainingText, prepare_track
    from scoring.fine.buckets import BucketedGold, analyse_runs
    from scoring.fine.diagnosis import track_profile
    from tests.scoring.test_attributes import GOLD, RUN, TRAINING, WORDS

    gold = build_gold_index(GOLD, Dictionary.from_word_list(WORDS))
    track = BucketedGold.prepare(prepare_track(gold, TrainingText.from_segmented(TRAINING)))
    runs = [score_run_details(text, gold) for text in (RUN, GOLD, "他 在 结 婚\n新郎 结婚 了\n")]
    analyses = analyse_runs(track, runs, samples=10)
    profile = {p.attribute: p for p in track_profile(track, analyses)}
    assert profile["wLen"].mean_value == pytest.approx(9 / 6)
    assert profile["oDen"].mean_value == pytest.approx(1 / 6)
    rhos = [abs(a["wCon"].spearman) for a in analyses if a["wCon"].spearman is not None]
    assert profile["wCon"].mean_abs_spearman == pytest.approx(sum(rhos) / len(rhos))
    # wLen {3} and [4, inf) are empty, so fewer than three buckets are comparable
    assert profile["wLen"].friedman_p is None and profile["wLen"].buckets_differ is None
    p = profile["wCon"].friedman_p
    assert p is not None and 0 <= p <= 1
