"""Bakeoffs published before results versions existed get their version 1 from
``manage.py freeze_published_results``: frozen from the figures current then, public from the
original publication, recorded in the audit trail, and never twice.

The bakeoff with the participant's registered site is built once for the module; the run and
the publication without a version, by each test that needs them."""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db.models import F
from django.test import Client

from bakeoff import audit
from bakeoff.models import AuditEntry, Bakeoff, Corpus, GoldVersion, Site, Submission, Track
from leaderboard.models import ResultsVersion
from leaderboard.services import do_publish_erratum
from tests.factories import WORKED_RUN, publish, upload
from tests.hints import OnCommit
from tests.module_world import captured_on_commit, module_world, taken_from_world

from .registered_world import SHARED, registered_only
from .test_versions import TRACK, correct_the_gold, f_of

pytestmark = pytest.mark.django_db


# Every test here starts from this world, and what it adds (a run, a publication, a version, a
# gold version) is rolled back (tests/module_world.py).
built, mine = module_world("freeze_published", lambda: registered_only(captured_on_commit))
bakeoff, corpus, closed, site, participant, organiser = map(taken_from_world, SHARED)


def freeze(*args: str) -> str:
    out = io.StringIO()
    call_command("freeze_published_results", *args, stdout=out)
    return out.getvalue()


def published_without_versions(bakeoff: Bakeoff, mode: str = "names") -> Bakeoff:
    """As the platform left a publication before it kept versions: the publication, no version."""
    publish(bakeoff, mode=mode)  # a minute ago; the gold, as ever, days before
    ResultsVersion.objects.filter(bakeoff=bakeoff).delete()
    GoldVersion.objects.filter(corpus__bakeoff=bakeoff).update(
        released_with_results=False, uploaded_at=F("uploaded_at") - timedelta(days=3)
    )
    bakeoff.refresh_from_db()
    return bakeoff


@pytest.fixture
def legacy(
    bakeoff: Bakeoff, participant: User, site: Site, closed: Track, on_commit: OnCommit
) -> Bakeoff:
    upload(participant, closed, WORKED_RUN, on_commit)
    return published_without_versions(bakeoff)


def frozen_entries(bakeoff: Bakeoff) -> list[AuditEntry]:
    return list(AuditEntry.objects.filter(bakeoff=bakeoff, action=audit.RESULTS_FROZEN))


def test_it_freezes_version_1_public_since_the_publication(legacy: Bakeoff) -> None:
    assert "b2026: results version 1 frozen." in freeze()
    version = ResultsVersion.objects.get(bakeoff=legacy)
    assert (version.number, version.published_at) == (1, legacy.results_published)
    assert "before the platform kept results versions" in version.note
    rows = version.tracks.get(track__slug="pk-closed").data["rows"]
    assert [row["kind"] for row in rows] == ["run", "baseline", "topline"]
    assert GoldVersion.objects.get(corpus__bakeoff=legacy).released_with_results
    [entry] = frozen_entries(legacy)
    assert entry.details["tracks"]["pk-closed"] == {"gold_version": 1, "rows": 3}
    assert entry.details["gold_uploaded_since_publication"] == []
    assert entry.actor is None


def test_once_frozen_a_new_gold_changes_nothing_public_until_the_erratum(
    legacy: Bakeoff, corpus: Corpus, anonymous: Client, on_commit: OnCommit
) -> None:
    freeze()
    before = f_of(anonymous, TRACK, "S01")
    correct_the_gold(corpus, on_commit)
    assert f_of(anonymous, TRACK, "S01") == before
    with on_commit():
        assert do_publish_erratum(legacy, note="corrected").number == 2
    assert f_of(anonymous, TRACK, "S01") != before


def test_without_it_the_pages_follow_every_rescore(
    legacy: Bakeoff, corpus: Corpus, anonymous: Client, on_commit: OnCommit
) -> None:
    # what the command is for: a bakeoff without a version shows the live standings
    before = f_of(anonymous, TRACK, "S01")
    correct_the_gold(corpus, on_commit)
    assert f_of(anonymous, TRACK, "S01") != before


def test_running_it_again_changes_nothing(legacy: Bakeoff) -> None:
    freeze()
    assert freeze().strip() == "Every published bakeoff has a results version."
    assert ResultsVersion.objects.filter(bakeoff=legacy).count() == 1
    assert len(frozen_entries(legacy)) == 1


def test_a_dry_run_freezes_nothing(legacy: Bakeoff) -> None:
    assert "b2026: would freeze results version 1." in freeze("--dry-run")
    assert not ResultsVersion.objects.filter(bakeoff=legacy).exists()
    assert frozen_entries(legacy) == []


def test_it_waits_while_official_runs_are_being_scored(legacy: Bakeoff) -> None:
    run = Submission.objects.get(track__corpus__bakeoff=legacy, kind="run")
    Submission.objects.filter(pk=run.pk).update(status="queued")
    assert "b2026: not frozen, 1 run still being scored" in freeze()
    assert not ResultsVersion.objects.filter(bakeoff=legacy).exists()
    Submission.objects.filter(pk=run.pk).update(status="scored")
    assert "b2026: results version 1 frozen." in freeze()


def test_it_names_gold_versions_uploaded_since_the_publication(
    legacy: Bakeoff, corpus: Corpus, on_commit: OnCommit
) -> None:
    # the figures frozen are the current ones: those of the gold uploaded after publishing
    correct_the_gold(corpus, on_commit)
    freeze()
    [entry] = frozen_entries(legacy)
    assert entry.details["gold_uploaded_since_publication"] == ["PK v2"]
    assert entry.details["tracks"]["pk-closed"]["gold_version"] == 2


def test_it_keeps_the_codes_of_an_anonymised_publication(
    bakeoff: Bakeoff,
    participant: User,
    site: Site,
    closed: Track,
    on_commit: OnCommit,
    anonymous: Client,
) -> None:
    upload(participant, closed, WORKED_RUN, on_commit)
    legacy = published_without_versions(bakeoff, mode="anonymised")
    freeze()
    version = ResultsVersion.objects.get(bakeoff=legacy)
    assert version.anonymised and version.aliases == {str(site.pk): "P1"}
    page = anonymous.get(TRACK).content.decode()
    assert "P1" in page and "Team A" not in page


def test_an_unpublished_bakeoff_is_left_alone(bakeoff: Bakeoff, corpus: Corpus) -> None:
    assert freeze().strip() == "Every published bakeoff has a results version."
    assert not ResultsVersion.objects.exists()
