"""scoring.frames: the library's results as DataFrames, the same numbers laid out as tables."""

import math
import subprocess
import sys

import pytest

from scoring import (
    BucketedGold,
    Dictionary,
    TrainingText,
    analyse_runs,
    balanced_score,
    build_gold_index,
    prepare_track,
    rank_scores,
    score_run_details,
    track_profile,
)
from scoring.core.score import ScoredRun
from scoring.fine.buckets import RunBuckets
from scoring.frames import (
    bucket_f_table,
    bucket_table,
    difficulty_profile_table,
    track_profile_table,
    track_table,
)
from tests.scoring.test_attributes import GOLD, RUN, TRAINING, WORDS

Track = tuple[BucketedGold, dict[str, ScoredRun], dict[str, RunBuckets]]

pandas = pytest.importorskip("pandas")


@pytest.fixture(scope="module")
def track() -> Track:
    gold = build_gold_index(GOLD, Dictionary.from_word_list(WORDS))
    bucketed = BucketedGold.prepare(prepare_track(gold, TrainingText.from_segmented(TRAINING)))
    runs = {"run": score_run_details(RUN, gold), "gold": score_run_details(GOLD, gold)}
    analyses = dict(zip(runs, analyse_runs(bucketed, list(runs.values()), samples=20), strict=True))
    return bucketed, runs, analyses


def test_importing_the_module_does_not_import_pandas() -> None:
    code = "import sys, scoring.frames; print('pandas' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_the_track_table_is_the_ranked_table(track: Track) -> None:
    _, runs, _ = track
    scores = {name: run.score for name, run in runs.items()}
    table = track_table(scores)
    ranked = rank_scores(scores)
    assert list(table.index) == [row.name for row in ranked] == ["gold", "run"]
    for row in ranked:
        line = table.loc[row.name]
        assert line["rank"] == row.rank
        assert (line["recall"], line["precision"], line["f"]) == (
            row.score.recall,
            row.score.precision,
            row.score.f,
        )
        assert (line["cr"], line["cp"]) == (row.cr, row.cp)
        assert line["words"] == row.score.true_words


def test_a_bucket_table_has_a_row_per_bucket_in_the_schemes_order(track: Track) -> None:
    _, _, analyses = track
    analysis = analyses["run"]
    table = bucket_table(analysis)
    expected = [(a.attribute, b.label) for a in analysis.attributes for b in a.buckets]
    assert list(table.index) == expected
    for attribute in analysis.attributes:
        for bucket in attribute.buckets:
            line = table.loc[(attribute.attribute, bucket.label)]
            assert line["gold_words"] == bucket.gold_words
            assert line["correct"] == bucket.correct_gold
            if bucket.f is None:
                assert math.isnan(line["f"])
            else:
                assert line["f"] == bucket.f
                assert (line["f_low"], line["f_high"]) == bucket.f_interval
    # every attribute's buckets hold every gold word once
    words = table.groupby(level="attribute", sort=False)["gold_words"].sum()
    assert set(words) == {analysis.true_words}


def test_bucket_f_puts_the_runs_side_by_side(track: Track) -> None:
    _, _, analyses = track
    table = bucket_f_table(analyses)
    assert list(table.columns) == ["run", "gold"]
    assert table["gold"].dropna().eq(1.0).all()
    assert table["run"].equals(bucket_table(analyses["run"])["f"].rename("run"))


def test_the_track_profile_has_a_row_per_attribute(track: Track) -> None:
    bucketed, _, analyses = track
    profile = track_profile(bucketed, list(analyses.values()))
    table = track_profile_table(profile)
    assert list(table.index) == [p.attribute for p in profile]
    for p in profile:
        assert table.loc[p.attribute, "alpha_mu"] == p.mean_value


def test_the_difficulty_profile_has_a_row_per_interval_and_a_column_per_run(track: Track) -> None:
    _, runs, _ = track
    difficulty = [i / 10 for i in range(runs["run"].gold.true_words)]
    scores = {name: balanced_score(run, difficulty) for name, run in runs.items()}
    table = difficulty_profile_table(scores)
    assert list(table.columns) == ["run", "gold"]
    assert list(table.index) == [i.label for i in scores["run"].profile]
    assert table.index.name == "difficulty"
    for name, score in scores.items():
        for interval in score.profile:
            value = table.loc[interval.label, name]
            if interval.accuracy is None:
                assert math.isnan(value)
            else:
                assert value == interval.accuracy
    assert table["gold"].dropna().eq(1.0).all()
