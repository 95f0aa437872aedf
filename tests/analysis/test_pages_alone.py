"""The case of tests/analysis/test_pages.py that starts from a bakeoff of its own, with no
corpus: that module's tests read one world built once, with PK and a run (its ``built``), which
this one may not start from."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from bakeoff.models import Bakeoff
from tests.factories import make_corpus
from tests.hints import ClientFor, OnCommit

from .test_pages import html

pytestmark = pytest.mark.django_db


def test_unavailable_attributes_say_why(
    client_for: ClientFor, organiser: User, bakeoff: Bakeoff, on_commit: OnCommit
) -> None:
    with on_commit():
        make_corpus(bakeoff, abbreviation="WL")
    track = "/bakeoffs/b2026/tracks/wl-closed/"
    baseline = bakeoff.corpora.get(abbreviation="WL").tracks.get(condition="closed")
    pk = baseline.submissions.get(kind="baseline").pk
    page = html(client_for(organiser).get(f"{track}runs/{pk}/analysis/"))
    assert page.count("<svg") == 3
    for name in ("wFre", "cFre", "wCon", "cCon"):
        assert f"<strong>{name}</strong>" in page
    assert page.count("unavailable — needs the training corpus as running text") == 4
    profile = html(client_for(organiser).get(track))
    assert profile.count("unavailable: needs the training corpus as running text") == 4
