"""A frozen row thawed by field position (``versions.unsaved``) is the instance Django's keyword
path would make: every field's value, the defaults of those left out, the related instances."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from django.db.models import Model

from bakeoff.models import Bakeoff, Corpus, GoldVersion, Score, Site, Submission, Track
from leaderboard.models import TrackRanking, TrackStanding
from leaderboard.versions import unsaved

WHEN = datetime(2026, 11, 26, 7, 0, tzinfo=UTC)


def state(instance: Model) -> dict[str, Any]:
    fields = {f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields}
    cached = {name: id(value) for name, value in instance._state.fields_cache.items()}
    return {"fields": fields, "cached": cached, "adding": instance._state.adding}


def test_each_thawed_model_equals_its_keyword_construction() -> None:
    bakeoff = Bakeoff(pk=1, slug="b")
    track = Track(pk=3, corpus=Corpus(pk=2, bakeoff=bakeoff), slug="pk-closed")
    site = unsaved(Site, {"pk": 5, "bakeoff_id": 1, "name": "Team", "number": 2})
    assert state(site) == state(Site(pk=5, bakeoff_id=1, name="Team", number=2))
    values: dict[str, Any] = {"pk": 8, "submission_id": 13, "metric": "word", "f": 0.9}
    values |= {"signature": "sig", "result": {"f": 0.9}, "created_at": WHEN}
    assert state(unsaved(Score, values)) == state(Score(**values))
    run: dict[str, Any] = {"pk": 13, "kind": "run", "run_number": 1, "checksum": "c"}
    run |= {"size_bytes": 10, "received_at": WHEN, "description": "d"}
    thawed_run = unsaved(Submission, run, track=track, site=site)
    assert state(thawed_run) == state(Submission(**run, track=track, site=site))
    assert thawed_run.site is site and thawed_run.track is track
    row: dict[str, Any] = {"kind": "run", "run_number": 1, "rank": 1, "position": 1}
    score = Score(pk=8)
    made = unsaved(TrackStanding, row, track=track, submission=thawed_run, score=score, site=None)
    expected = TrackStanding(**row, track=track, submission=thawed_run, score=score, site=None)
    assert state(made) == state(expected)
    # a default made afresh (a list) is not shared between instances
    first, second = unsaved(TrackRanking, {}, track=track), unsaved(TrackRanking, {}, track=track)
    assert first.insignificant_pairs == TrackRanking(track=track).insignificant_pairs
    assert first.insignificant_pairs is not second.insignificant_pairs
    assert state(unsaved(GoldVersion, {"number": 2})) == state(GoldVersion(number=2))
