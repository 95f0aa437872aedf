"""The registry of a score's figures (bakeoff/figures.py) agrees with the scoring library that
computes them and with every model that stores them, so a figure is named once."""

from __future__ import annotations

from django.db import models

import scoring
from bakeoff.figures import (
    BY_KEY,
    DEVELOPMENT_FIGURES,
    FIGURES,
    LIBRARY_FIGURES,
    ROW_FIGURES,
    Kind,
    Source,
    stored,
)
from bakeoff.models import DevelopmentScore, Score
from leaderboard.models import PostBakeoffStanding, TrackStanding


def _score() -> scoring.Score:
    return scoring.score_texts("结婚 的 和尚\n", "结婚 的和尚\n", scoring.Dictionary.from_words([]))


def _columns(model: type[models.Model]) -> dict[str, models.Field[object, object]]:
    return {f.name: f for f in model._meta.concrete_fields}


def test_each_figure_has_one_row() -> None:
    assert len(BY_KEY) == len(FIGURES)


def test_the_library_figures_are_the_librarys() -> None:
    result = _score().to_dict()
    # every figure of the registry said to come from the library is in its result...
    assert {f.key for f in LIBRARY_FIGURES} <= set(result)
    # ...and every rate the library computes has a row (a new one cannot be forgotten)
    assert set(_score().figures()) <= {f.key for f in LIBRARY_FIGURES}


def test_each_score_model_stores_every_library_figure_in_a_column() -> None:
    for model in (Score, DevelopmentScore):
        columns = _columns(model)
        for figure in LIBRARY_FIGURES:
            field = columns[figure.key]
            if figure.kind is Kind.RATE:
                # None where undefined (R_oov without OOV words), and for the balanced rows
                assert isinstance(field, models.FloatField) and field.null, figure.key
            else:
                assert isinstance(field, models.PositiveIntegerField), figure.key
    assert {f.key for f in DEVELOPMENT_FIGURES} <= set(_columns(DevelopmentScore))


def test_each_table_row_stores_its_own_figures() -> None:
    for model in (TrackStanding, PostBakeoffStanding):
        assert {f.key for f in ROW_FIGURES} <= set(_columns(model))
    assert all(f.source is not Source.LIBRARY for f in ROW_FIGURES)


def test_a_score_stores_what_the_library_gives() -> None:
    score = _score()
    values = stored(score.to_dict())
    assert values["true_words"] == 3 and values["correct"] == 1
    assert values["f"] == score.f and values["iv_recall"] is None  # no IV word: undefined
    assert set(values) == {f.key for f in LIBRARY_FIGURES}


def test_a_figure_prints_as_the_tables_do() -> None:
    assert BY_KEY["f"].text(0.8148) == "0.815"
    assert BY_KEY["cr"].text(0.21934) == "0.2193"
    assert BY_KEY["true_words"].text(14) == "14"
    assert BY_KEY["iv_recall"].text(None) == "--"
    assert BY_KEY["iv_recall"].csv_text(None) == ""
    assert BY_KEY["correct"].csv_text(11) == 11
