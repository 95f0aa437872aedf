"""The interpreteval bucket scheme (docs/measures/buckets.md#the-interpreteval-scheme): every
value and count below was computed by hand from InterpretEval's definitions, on the small training
text, word list and gold of test_attributes.py.

Training text 他 结婚 了 / 结婚证 在 这里 / 他们 在 结婚. String occurrences of the training words:
他 2, 结婚 3, 了 1, 结婚证 1, 在 2, 这里 1, 他们 1; the second largest is 2, so wFre is 他 1.0,
结婚 1.0 (3 > 2), 了 0.5, 在 1.0. ψ: 他 1/2 = 0.5, 结婚 2/3 = 0.667, 了 1, 在 1. Characters: 结 3,
婚 3, 他 2, 在 2, the rest 1; the second largest is 3, so cFre is 他 0.667, 结 1.0, 婚 1.0,
了 0.333. Tags: 他 S once and B once, 结 B three times, 婚 E twice and M once, 在 S twice.
"""

import json
from pathlib import Path

import numpy as np
import pytest

from scoring import Dictionary, GoldIndex, build_gold_index
from scoring.core.score import score_run_details
from scoring.fine.attributes import TrainingText, prepare_track
from scoring.fine.buckets import (
    BucketedGold,
    RunBuckets,
    analyse_run,
    analyse_runs,
)
from scoring.fine.interpreteval import TrainingTables, greedy_bounds, interpreteval_counts, rounded
from scoring.fine.schemes import BucketScheme
from tests.scoring.test_attributes import GOLD, RUN, TRAINING, WORDS

# Line 2 cut so that 郎结 and 婚了 are words of the gold's lengths at other places.
RUN2 = "他 在 结婚\n新 郎结 婚了\n"


@pytest.fixture(scope="module")
def gold() -> GoldIndex:
    return build_gold_index(GOLD, Dictionary.from_word_list(WORDS))


@pytest.fixture(scope="module")
def track(gold: GoldIndex) -> BucketedGold:
    attributes = prepare_track(
        gold,
        TrainingText.from_segmented(TRAINING),
        scheme="interpreteval",
        dictionary=Dictionary.from_word_list(WORDS),
    )
    return BucketedGold.prepare(attributes)


def word_values(track: BucketedGold, name: str) -> list[float]:
    values: list[float] = track.attributes.gold_values.values[name].tolist()
    return values


def char_values(track: BucketedGold, name: str) -> list[float]:
    characters = track.attributes.gold_values.characters
    assert characters is not None
    values: list[float] = characters.values[name].tolist()
    return values


def labels(track: BucketedGold, name: str) -> list[str]:
    return [label.split(" ", 1)[1] for label in track.scheme[name].labels]


def counts(analysis: RunBuckets, name: str) -> list[tuple[int, int, int, int]]:
    return [
        (b.gold_words, b.correct_gold, b.run_words, b.correct_run) for b in analysis[name].buckets
    ]


def test_gold_values_by_hand(track: BucketedGold) -> None:
    # gold 他 在 结婚 / 新郎 结婚 了
    assert word_values(track, "wLen") == [1, 1, 2, 2, 2, 1]
    assert word_values(track, "sLen") == [4, 4, 4, 5, 5, 5]
    # characters in no training word: none in line 1, 新 and 郎 of 5 in line 2
    assert word_values(track, "oDen") == [0, 0, 0, 0.4, 0.4, 0.4]
    assert word_values(track, "wFre") == [1.0, 1.0, 1.0, 0.0, 1.0, 0.5]
    assert word_values(track, "wCon") == [0.5, 1.0, 0.667, 0.0, 0.667, 1.0]
    # per character: 他 在 结 婚 / 新 郎 结 婚 了
    assert char_values(track, "cFre") == [0.667, 0.667, 1, 1, 0, 0, 1, 1, 0.333]
    assert char_values(track, "cCon") == [0.5, 1, 1, 0.667, 0, 0, 1, 0.667, 1]


def test_the_scheme_by_hand(track: BucketedGold) -> None:
    assert track.scheme.name == "interpreteval/1"
    assert labels(track, "wLen") == ["{1}", "{2}", "(2, inf)"]
    # sLen 4 4 4 5 5 5, four buckets: the share is 6/4; 4 closes with 3 > 1.5, then 5
    assert labels(track, "sLen") == ["{4}", "(4, 5]"]
    assert labels(track, "oDen") == ["{0}", "(0, 0.4]"]
    # positive wFre 0.5 1 1 1 1 over three buckets: the share is 5/3, reached only at 1
    assert labels(track, "wFre") == ["{0}", "(0, 1]"]
    assert labels(track, "wCon") == ["{0}", "(0, 0.5]", "(0.5, 1)", "{1}"]
    # positive cFre 0.333, 0.667 ×2, 1 ×4 over three buckets: the share is 7/3
    assert labels(track, "cFre") == ["{0}", "(0, 0.667]", "(0.667, 1]"]
    assert track.scheme["cFre"].unit == "character"
    assert track.scheme["cFre"].to_dict()["unit"] == "character"
    assert "unit" not in track.scheme["wFre"].to_dict()
    again = BucketScheme.from_dict(json.loads(json.dumps(track.scheme.to_dict())))
    assert again.checksum == track.scheme.checksum and again["cCon"].unit == "character"


def test_bucket_counts_by_hand(track: BucketedGold, gold: GoldIndex) -> None:
    # run 他在 结婚 / 新 郎 结婚 了: 结婚, 结婚 and 了 are correct
    analysis = analyse_run(track, score_run_details(RUN, gold), samples=0)
    assert counts(analysis, "wLen") == [(3, 1, 3, 1), (3, 2, 3, 2), (0, 0, 0, 0)]
    assert counts(analysis, "sLen") == [(3, 1, 2, 1), (3, 2, 4, 2)]
    assert counts(analysis, "oDen") == [(3, 1, 2, 1), (3, 2, 4, 2)]
    assert counts(analysis, "wFre") == [(1, 0, 3, 0), (5, 3, 3, 3)]
    assert counts(analysis, "wCon") == [(1, 0, 3, 0), (1, 0, 0, 0), (2, 2, 2, 2), (2, 1, 1, 1)]
    # characters: the run's 他 is B (0.5), its 在 E (never in training: 0), its 新 S (0)
    assert counts(analysis, "cFre") == [(2, 0, 2, 0), (3, 1, 3, 1), (4, 4, 4, 4)]
    assert counts(analysis, "cCon") == [(2, 0, 3, 0), (1, 0, 1, 0), (2, 2, 2, 2), (4, 3, 3, 3)]
    f = {name: [b.f for b in analysis[name].buckets] for name in ("sLen", "wFre", "cCon")}
    assert f["sLen"] == pytest.approx([0.4, 4 / 7])
    assert f["wFre"] == pytest.approx([0.0, 0.75])
    assert f["cCon"] == pytest.approx([0.0, 0.0, 1.0, 6 / 7])
    assert analysis.signature.scheme == "interpreteval/1"


def test_a_character_counts_where_its_words_have_the_same_length(
    track: BucketedGold, gold: GoldIndex
) -> None:
    # Line 2 of RUN2 (新 郎结 婚了) finds no word, but 郎, 结 and 婚 lie in two-character words on
    # both sides. For cFre, a property of the character alone, they count. For cCon, 结 (B in the
    # gold, E in the run: 0) and 婚 (E, then B: 0) change bucket, and only 郎 (0 on both sides)
    # counts. The run's 新, 郎, 结, 婚 and 了 of line 2 all have cCon 0.
    analysis = analyse_run(track, score_run_details(RUN2, gold), samples=0)
    assert analysis.correct == 3  # 他, 在, 结婚 of line 1
    assert counts(analysis, "cFre") == [(2, 1, 2, 1), (3, 2, 3, 2), (4, 4, 4, 4)]
    assert counts(analysis, "cCon") == [(2, 1, 5, 1), (1, 1, 1, 1), (2, 1, 1, 1), (4, 2, 2, 2)]


def test_a_run_value_on_a_lower_bound_is_kept(track: BucketedGold) -> None:
    # The one intended departure: InterpretEval keys the range (0, 1] of wFre as (0.5, 1.0), its
    # lowest and highest gold values, and drops a run word whose value is 0.5 (its 了).
    assert track.scheme["wFre"].assign([0.5, 0.25, 1.0, 7.0]).tolist() == [1, 1, 1, 1]


def test_every_item_lands_in_one_bucket(track: BucketedGold, gold: GoldIndex) -> None:
    runs = [score_run_details(r, gold) for r in (RUN, RUN2)]
    for run, analysis in zip(runs, analyse_runs(track, runs, samples=10), strict=True):
        for attribute in analysis.attributes:
            unit = track.scheme[attribute.attribute].unit
            gold_items = 9 if unit == "character" else 6
            assert sum(b.gold_words for b in attribute.buckets) == gold_items
            run_items = 9 if unit == "character" else run.score.test_words
            assert sum(b.run_words for b in attribute.buckets) == run_items
            assert sum(b.correct_gold for b in attribute.buckets) == sum(
                b.correct_run for b in attribute.buckets
            )


def test_rounding_moves_a_nearly_consistent_word_into_the_top_bucket() -> None:
    # ， is a word 2,000 times and inside a word once: ψ = 2000/2001 = 0.9995..., which the
    # default scheme puts in (0.5, 1) and InterpretEval, rounding to 1.000, in {1}.
    training = "好 ， 好\n" * 2000 + "，好\n"
    gold = build_gold_index("好 ，\n", Dictionary.from_words(["好", "，", "，好"]))
    text = TrainingText.from_segmented(training)
    default = BucketedGold.prepare(prepare_track(gold, text))
    ours = BucketedGold.prepare(
        prepare_track(
            gold, text, scheme="interpreteval", dictionary=Dictionary.from_words(["好", "，"])
        )
    )
    assert default.attributes.gold_values.values["wCon"][1] == 2000 / 2001
    assert default.gold_buckets["wCon"][1] == 2  # (0.5, 1)
    assert ours.attributes.gold_values.values["wCon"][1] == 1.0
    assert ours.gold_buckets["wCon"][1] == 3  # {1}


def test_greedy_cuts_close_a_bucket_once_it_holds_more_than_its_share() -> None:
    # 12 values, four buckets of 3: > 3 closes only at a fourth item
    values = np.arange(1, 13, dtype=float)
    assert [b.label for b in greedy_bounds(values, 4, ())] == ["[1, 4]", "(4, 8]", "(8, 12]"]
    # against the quartiles of the default scheme: [1, 3], (3, 6], (6, 9], (9, 12]
    values = np.array([0, 0, 1, 1, 2, 3, 3, 3, 5.0])
    assert [b.label for b in greedy_bounds(values, 4, (0.0,))] == [
        "{0}",
        "(0, 2]",
        "(2, 3]",
        "(3, 5]",
    ]


def test_values_are_rounded_as_printf_does() -> None:
    # 0.0125 is stored a little above 0.0125: '%.3f' gives 0.013, numpy's round 0.012.
    assert rounded(0.0125) == 0.013
    assert rounded(2 / 3) == 0.667
    assert np.round(0.0125, 3) == 0.012


def test_the_default_scheme_is_unchanged(gold: GoldIndex) -> None:
    attributes = prepare_track(gold, TrainingText.from_segmented(TRAINING))
    default = BucketedGold.prepare(attributes)
    assert default.scheme.name == "rethinkcws-default/1"
    assert attributes.gold_values.characters is None
    assert "unit" not in str(default.scheme.to_dict())


def test_string_occurrences_are_counted_as_interpreteval_finds_them() -> None:
    # The sentences run together (一一一一二) and are searched left to right without overlap:
    # 一一 is found at 0 (一 + the B of 一一) and at 2 (the E of 一一 + the 一 of line 2), never
    # as the word itself. The default scheme, within lines and overlapping, finds it twice in
    # line 1, once as the word: ψ = 1/2.
    training = TrainingText.from_segmented("一 一一\n一 二\n")
    assert interpreteval_counts(training) == (
        {"一": 4, "一一": 2, "二": 1},
        {"一": 2, "一一": 0, "二": 1},
    )
    assert training.consistency["一一"] == 0.5
    tables = TrainingTables.of(training)
    # 一 (4) is above the second largest count (2): 1.0; 一一 2/2; 二 1/2
    assert tables.word_values(["一", "一一", "二", "三"]) == {
        "wFre": pytest.approx([1.0, 1.0, 0.5, 0.0]),
        "wCon": pytest.approx([0.5, 0.0, 1.0, 0.0]),  # 一: S in 2 of its 4 occurrences
    }


def test_the_command_line_selects_the_scheme(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    from scoring.cli import main

    for name, text in (("train", TRAINING), ("words", WORDS), ("gold", GOLD), ("run", RUN)):
        (tmp_path / name).write_text(text, encoding="utf-8")
    files = [str(tmp_path / name) for name in ("gold", "run")]
    argv = ["buckets", "--dict", str(tmp_path / "words"), *files, "--scheme", "interpreteval"]
    assert main([*argv, "--train", str(tmp_path / "train"), "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["scheme"]["name"] == "interpreteval/1"
    assert document["signature"]["scheme"] == "interpreteval/1"
    units = {a["attribute"]: a.get("unit", "word") for a in document["scheme"]["attributes"]}
    assert units == {name: "word" for name in ("wLen", "sLen", "oDen", "wFre", "wCon")} | {
        "cFre": "character",
        "cCon": "character",
    }
    c_con = [(b["gold_words"], b["correct_gold"]) for b in document["attributes"]["cCon"]]
    assert c_con == [(2, 0), (1, 0), (2, 2), (4, 3)]
    # Without the training text: wLen, sLen and oDen (from the word list's characters) only.
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert out.startswith("Bucket scheme: interpreteval/1")
    assert "oDen (0, 0.4]" in out and "cFre: unavailable" in out
