"""The bucket scheme of docs/measures/buckets.md and per-bucket counts, by hand and on real data."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import numpy as np
import pytest

from scoring import Dictionary, baseline_run, build_gold_index, maxmatch, read_dictionary, read_text
from scoring.core.score import ScoredRun, score_run_details
from scoring.fine.attributes import TrainingText, WordValues, prepare_track
from scoring.fine.buckets import (
    AttributeBuckets,
    BucketedGold,
    BucketScore,
    RunBuckets,
    analyse_run,
    analyse_runs,
)
from scoring.fine.schemes import ATTRIBUTES, AttributeScheme, Bound, BucketScheme
from tests.scoring.test_attributes import GOLD, RUN, TRAINING, WORDS

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
DATA = SHARED / "data"


@pytest.fixture(scope="module")
def track() -> BucketedGold:
    gold = build_gold_index(GOLD, Dictionary.from_word_list(WORDS))
    return BucketedGold.prepare(prepare_track(gold, TrainingText.from_segmented(TRAINING)))


def defined(values: Iterable[float | None]) -> list[float]:
    """The values, each of which must be defined (not None)."""
    listed = list(values)
    assert None not in listed, listed
    return [v for v in listed if v is not None]


def labels(track: BucketedGold, name: str) -> list[str]:
    return list(track.scheme[name].labels)


def test_the_default_scheme_cut_at_the_gold_values(track: BucketedGold) -> None:
    assert labels(track, "wLen") == ["wLen {1}", "wLen {2}", "wLen {3}", "wLen [4, inf)"]
    assert labels(track, "wCon") == ["wCon {0}", "wCon (0, 0.5]", "wCon (0.5, 1)", "wCon {1}"]
    # positive gold wFre 1 1 2 2 2: tertiles at 1 and 2, the top is 2; (2, 2] is not kept
    assert labels(track, "wFre") == ["wFre {0}", "wFre (0, 1]", "wFre (1, 2]"]
    # gold sLen 4 4 4 5 5 5: quartiles 4, 4, 5
    assert labels(track, "sLen") == ["sLen {4}", "sLen (4, 5]"]
    assert labels(track, "oDen") == ["oDen {0}", "oDen (0, 0.333333]"]
    assert track.scheme.names == ATTRIBUTES


def test_tertiles_and_quartiles_have_about_equal_sizes() -> None:
    values = np.arange(1, 13, dtype=float)
    gold = WordValues(
        {"wFre": np.concatenate(([0, 0], values)), "sLen": values},
        line=np.zeros(12, dtype=np.int64),
    )
    scheme = BucketScheme.from_gold(gold)
    assert list(scheme["wFre"].labels) == ["wFre {0}", "wFre (0, 4]", "wFre (4, 8]", "wFre (8, 12]"]
    assert list(scheme["sLen"].labels) == [
        "sLen [1, 3]",
        "sLen (3, 6]",
        "sLen (6, 9]",
        "sLen (9, 12]",
    ]
    assert np.bincount(scheme["sLen"].assign(values)).tolist() == [3, 3, 3, 3]


def test_a_value_outside_every_bucket_goes_to_the_nearest(track: BucketedGold) -> None:
    assert track.scheme["wFre"].assign([0, 0.5, 1, 1.5, 2, 900]).tolist() == [0, 1, 1, 2, 2, 2]
    assert track.scheme["sLen"].assign([1, 4, 4.5, 5, 80]).tolist() == [0, 0, 1, 1, 1]
    assert track.scheme["wCon"].assign([0, 0.25, 0.5, 0.75, 1]).tolist() == [0, 1, 1, 2, 3]
    assert track.scheme["wLen"].assign([1, 2, 3, 4, 17]).tolist() == [0, 1, 2, 3, 3]


def test_bounds_contain_what_their_labels_say() -> None:
    bound = Bound(3, 41, False, True)
    assert bound.label == "(3, 41]"
    assert not bound.contains(3) and bound.contains(41) and bound.contains(3.5)
    scheme = AttributeScheme("wFre", (Bound(0, 0, True, True), bound))
    assert scheme.labels == ("wFre {0}", "wFre (3, 41]")


def test_buckets_by_hand_with_an_empty_bucket(track: BucketedGold) -> None:
    result = analyse_run(track, score_run_details(RUN, track.attributes.gold), samples=50)
    w_len = {b.label: b for b in result["wLen"].buckets}
    # gold 他 在 了 | 结婚 新郎 结婚; run 新 郎 了 | 他在 结婚 结婚
    one, two, three = w_len["wLen {1}"], w_len["wLen {2}"], w_len["wLen {3}"]
    assert (one.gold_words, one.run_words, one.correct_gold, one.correct_run) == (3, 3, 1, 1)
    assert (two.gold_words, two.run_words, two.correct_gold, two.correct_run) == (3, 3, 2, 2)
    assert (three.gold_words, three.run_words) == (0, 0)
    assert three.f is None and three.precision is None and three.recall is None
    assert three.f_interval is None
    assert one.recall == one.precision == pytest.approx(1 / 3)
    w_con = {b.label: b for b in result["wCon"].buckets}
    # run 他在, 新, 郎 never occur in training: wCon {0}, where gold has only 新郎
    zero = w_con["wCon {0}"]
    assert (zero.gold_words, zero.run_words, zero.correct_gold) == (1, 3, 0)
    assert zero.f == 0.0


def test_every_word_lands_in_one_bucket_and_the_buckets_recombine(track: BucketedGold) -> None:
    run = score_run_details(RUN, track.attributes.gold)
    result = analyse_run(track, run, samples=20)
    score = run.score
    for attribute in result.attributes:
        buckets = attribute.buckets
        assert sum(b.gold_words for b in buckets) == score.true_words
        assert sum(b.run_words for b in buckets) == score.test_words
        assert sum(b.correct_gold for b in buckets) == score.correct
        assert sum(b.correct_run for b in buckets) == score.correct
        recall = sum(b.correct_gold for b in buckets) / sum(b.gold_words for b in buckets)
        precision = sum(b.correct_run for b in buckets) / sum(b.run_words for b in buckets)
        assert recall == score.recall and precision == score.precision
        assert 2 * precision * recall / (precision + recall) == pytest.approx(score.f, abs=1e-15)
    assert (result.true_words, result.test_words, result.correct) == (6, 6, 3)


def test_the_result_is_json_ready_and_signed(track: BucketedGold) -> None:
    import json

    result = analyse_run(track, score_run_details(RUN, track.attributes.gold), samples=10, seed=3)
    data = json.loads(json.dumps(result.to_dict()))
    assert set(data["attributes"]) == set(ATTRIBUTES)
    bucket = data["attributes"]["wLen"][0]
    assert set(bucket) >= {"label", "gold_words", "run_words", "correct_gold", "correct_run"}
    assert data["signature"]["scheme_checksum"] == track.scheme.checksum
    assert data["signature"]["training_checksum"].startswith("sha256:")
    assert (data["signature"]["samples"], data["signature"]["seed"]) == (10, 3)


def test_a_result_reads_back_from_its_json_whatever_the_key_order(track: BucketedGold) -> None:
    import json

    run = score_run_details(RUN, track.attributes.gold)
    result = analyse_run(track, run, samples=10, seed=3)
    data = json.loads(json.dumps(result.to_dict()))
    shuffled = {k: data[k] for k in reversed(data)}  # PostgreSQL's jsonb keeps no key order
    shuffled["attributes"] = {k: data["attributes"][k] for k in reversed(data["attributes"])}
    again = RunBuckets.from_dict(shuffled)
    assert again == result
    assert json.dumps(again.to_dict()) == json.dumps(result.to_dict())
    for attribute in result.attributes:
        for bucket in attribute.buckets:
            assert BucketScore.from_dict(bucket.to_dict()) == bucket
        assert AttributeBuckets.from_dict(attribute.attribute, attribute.to_dict()) == attribute


def test_a_result_read_back_keeps_its_stored_spearman_without_computing_it(
    track: BucketedGold, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A track's profile reads every stored run's S^rho: read back, they are the stored values,
    with no rank correlation computed again (2,100 of them on a 300-run track)."""
    import json

    from scoring.fine import buckets

    result = analyse_run(track, score_run_details(RUN, track.attributes.gold), samples=10, seed=3)
    data = json.loads(json.dumps(result.to_dict()))
    expected = {a.attribute: a.spearman for a in result.attributes}
    assert any(rho is not None for rho in expected.values())

    def refuse(*_: object, **__: object) -> None:
        raise AssertionError("S^rho computed again")

    monkeypatch.setattr(buckets, "spearman", refuse)
    again = RunBuckets.from_dict(data)
    assert {a.attribute: a.spearman for a in again.attributes} == expected
    without = {**data, "statistics": {}}  # stored before the statistics were: computed
    with pytest.raises(AssertionError, match="computed again"):
        [a.spearman for a in RunBuckets.from_dict(without).attributes]


def test_a_scheme_reads_back_with_its_checksum(track: BucketedGold) -> None:
    import json

    again = BucketScheme.from_dict(json.loads(json.dumps(track.scheme.to_dict())))
    assert again == track.scheme
    assert again.checksum == track.scheme.checksum


def test_a_domain_restricts_every_count_to_its_lines(track: BucketedGold) -> None:
    run = score_run_details(RUN, track.attributes.gold)
    second_line = analyse_runs(track, [run], samples=10, lines=np.array([False, True]))[0]
    assert (second_line.true_words, second_line.test_words, second_line.correct) == (3, 4, 2)
    assert sum(b.gold_words for b in second_line["wLen"].buckets) == 3


# -- real data -------------------------------------------------------------------------------------

PKU_TRAINING = DATA / "pku_training_reconstruction" / "pku_training_partial.utf8"
ICWB2 = DATA / "icwb2"


@pytest.fixture(scope="module")
def pku() -> tuple[BucketedGold, dict[str, RunBuckets], list[ScoredRun]]:
    if not (PKU_TRAINING.is_file() and (ICWB2 / "gold" / "pku_test_gold.utf8").is_file()):
        pytest.skip(f"no PKU test set and training reconstruction under {DATA}")
    from tests.scoring.runs import perturbed_run

    training_text = read_text(PKU_TRAINING)
    dictionary = read_dictionary(ICWB2 / "gold" / "pku_training_words.utf8")
    gold_text = read_text(ICWB2 / "gold" / "pku_test_gold.utf8")
    test_text = read_text(ICWB2 / "testing" / "pku_test.utf8")
    gold = build_gold_index(gold_text, dictionary)
    track = BucketedGold.prepare(prepare_track(gold, TrainingText.from_segmented(training_text)))
    runs = {
        "baseline": baseline_run(test_text, dictionary),
        "maxmatch-reconstruction": maxmatch(
            test_text, Dictionary.from_segmented(training_text).words
        ),
        "perturbed-gold": perturbed_run(gold_text, test_text, seed=1, rate=0.1),
    }
    scored = [score_run_details(run, gold, aligned_lines="any") for run in runs.values()]
    return track, dict(zip(runs, analyse_runs(track, scored, samples=100), strict=True)), scored


def test_on_pku_f_falls_with_word_length_and_rises_with_consistency(
    pku: tuple[BucketedGold, dict[str, RunBuckets], list[ScoredRun]],
) -> None:
    _, analyses, _ = pku
    for name, result in analyses.items():
        f = defined(b.f for b in result["wLen"].buckets)
        assert f[1] > f[2] > f[3], name  # 2, 3, ≥4 characters
        rho_len, rho_con = defined((result["wLen"].spearman, result["wCon"].spearman))
        assert rho_len < 0, name
        assert rho_con > 0, name
        w_con = defined(b.f for b in result["wCon"].buckets)
        assert w_con[0] < w_con[1] < w_con[2], name


def test_on_pku_every_word_is_bucketed_once(
    pku: tuple[BucketedGold, dict[str, RunBuckets], list[ScoredRun]],
) -> None:
    _, analyses, scored = pku
    for result, run in zip(analyses.values(), scored, strict=True):
        for attribute in result.attributes:
            assert sum(b.gold_words for b in attribute.buckets) == run.score.true_words
            assert sum(b.run_words for b in attribute.buckets) == run.score.test_words
            assert sum(b.correct_run for b in attribute.buckets) == run.score.correct


def test_on_pku_the_baseline_is_the_published_figure(
    pku: tuple[BucketedGold, dict[str, RunBuckets], list[ScoredRun]],
) -> None:
    _, analyses, _ = pku
    assert round(analyses["baseline"].f, 3) == 0.874  # docs/measures/maxmatch.md, character level


SXU = DATA / "sighan2008_sxu"


@pytest.mark.skipif(not (SXU / "train.txt").is_file(), reason=f"no SIGHAN 2008 SXU data at {SXU}")
def test_on_sxu_maximum_matching_shows_the_papers_signs() -> None:
    from scoring.core.text import test_text_from_gold
    from tests.scoring.runs import backward_maxmatch_run

    training_text = read_text(SXU / "train.txt")
    gold_text = read_text(SXU / "test.txt")
    words = Dictionary.from_segmented(training_text)
    gold = build_gold_index(gold_text, words)
    track = BucketedGold.prepare(prepare_track(gold, TrainingText.from_segmented(training_text)))
    test_text = test_text_from_gold(gold_text)
    runs = [maxmatch(test_text, words.words), backward_maxmatch_run(test_text, words.words)]
    for result in analyse_runs(track, [score_run_details(r, gold) for r in runs], samples=20):
        rho_len, rho_con = defined((result["wLen"].spearman, result["wCon"].spearman))
        assert rho_len < 0
        assert rho_con > 0
        f = defined(b.f for b in result["wLen"].buckets)
        assert f[1] > f[2] > f[3]
