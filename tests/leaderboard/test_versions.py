"""Publications are immutable: publishing freezes results version 1; a new gold version, an
accepted correction or a re-score changes nothing public until the organiser publishes an
erratum, a new version that lists what moved; every version stays at its own address.

The bakeoff with the participant's registered site is built once for the module; the runs and
publications, by each test that needs them."""

from __future__ import annotations

import hashlib
import json
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.core.mail import EmailMessage
from django.test import Client
from django.utils import timezone

import scoring
from bakeoff import audit, services
from bakeoff.errors import Refused
from bakeoff.models import AuditEntry, Bakeoff, Corpus, Site, Track
from leaderboard.models import ResultsVersion
from leaderboard.services import do_publish, do_publish_erratum, do_withdraw_publication
from tests.factories import GOLD, WORKED_RUN, close_submissions, publish, rival, upload
from tests.hints import ClientFor, OnCommit
from tests.module_world import captured_on_commit, module_world, taken_from_world

from .registered_world import SHARED, registered_only
from .test_tables import body_rows

pytestmark = pytest.mark.django_db

RESULTS = "/bakeoffs/b2026/results/"
TRACK = "/bakeoffs/b2026/tracks/pk-closed/"
V1 = "/bakeoffs/b2026/results/v1/"
V2 = "/bakeoffs/b2026/results/v2/"
# The same characters, 今天天气 now one word: WORKED_RUN's "今天 天气" moves from right to wrong.
CORRECTED_GOLD = GOLD.replace("今天 天气", "今天天气")


# Every test here starts from this world, and what it adds (runs, gold versions, publications,
# errata) is rolled back (tests/module_world.py).
built, mine = module_world("versions", lambda: registered_only(captured_on_commit))
bakeoff, corpus, closed, site, participant, organiser = map(taken_from_world, SHARED)


def f_of(client: Client, path: str, label: str) -> str:
    """The F column (index 9) of the row whose site column (1) is ``label``."""
    for row in body_rows(client.get(path).content.decode()):
        if row[1] == label:
            return row[9]
    raise AssertionError(f"no row {label} on {path}")


@pytest.fixture
def published(
    bakeoff: Bakeoff, participant: User, site: Site, closed: Track, on_commit: OnCommit
) -> Bakeoff:
    upload(participant, closed, WORKED_RUN, on_commit)
    with on_commit():
        publish(bakeoff)
    return bakeoff


def correct_the_gold(corpus: Corpus, on_commit: OnCommit) -> None:
    with on_commit():
        services.do_add_gold_version(corpus, CORRECTED_GOLD.encode(), note="今天天气 is one word")


def download_gold(client: Client) -> str:
    answer = client.get("/bakeoffs/b2026/corpora/PK/download/gold/")
    return b"".join(answer.streaming_content).decode()  # type: ignore[attr-defined]


def test_the_gold_released_is_the_published_one_until_the_erratum(
    published: Bakeoff,
    corpus: Corpus,
    client_for: ClientFor,
    participant: User,
    organiser: User,
    on_commit: OnCommit,
) -> None:
    assert download_gold(client_for(participant)) == GOLD
    correct_the_gold(corpus, on_commit)
    assert download_gold(client_for(participant)) == GOLD
    assert download_gold(client_for(organiser)) == CORRECTED_GOLD
    do_publish_erratum(published, note="corrected")
    assert download_gold(client_for(participant)) == CORRECTED_GOLD


def test_publishing_freezes_version_1_with_the_audit_entry(published: Bakeoff) -> None:
    version = ResultsVersion.objects.get(bakeoff=published)
    assert version.number == 1
    frozen = version.tracks.get(track__slug="pk-closed").data
    assert [row["kind"] for row in frozen["rows"]] == ["run", "baseline", "topline"]
    assert frozen["gold"]["version"] == 1
    assert frozen["scorer_version"] == scoring.__version__
    entry = AuditEntry.objects.get(bakeoff=published, action=audit.RESULTS_PUBLISHED)
    assert entry.details["tracks"]["pk-closed"] == {"gold_version": 1, "rows": 3}


def test_a_corrected_gold_changes_nothing_public_until_the_erratum(
    published: Bakeoff,
    corpus: Corpus,
    anonymous: Client,
    client_for: ClientFor,
    organiser: User,
    on_commit: OnCommit,
) -> None:
    before = f_of(anonymous, TRACK, "S01")
    csv_before = anonymous.get(TRACK + "results.csv").content
    correct_the_gold(corpus, on_commit)
    # the live standings moved...
    from leaderboard.models import TrackStanding

    live = TrackStanding.objects.get(track__slug="pk-closed", kind="run").score
    assert f"{live.f:.3f}" != before
    # ...the public table, its exports and plots did not
    assert f_of(anonymous, TRACK, "S01") == before
    assert anonymous.get(TRACK + "results.csv").content == csv_before
    assert json.loads(anonymous.get(TRACK + "results.json").content)["gold_version"] == 1
    # the organiser sees what an erratum would change
    page = client_for(organiser).get(RESULTS + "erratum/").content.decode()
    assert f"F {before} → {live.f:.3f}" in page
    assert "gold version 1 → 2" in page

    with on_commit():
        version = do_publish_erratum(published, note="今天天气 is one word", by=organiser)
    assert version.number == 2
    assert f_of(anonymous, TRACK, "S01") == f"{live.f:.3f}"
    assert json.loads(anonymous.get(TRACK + "results.json").content)["gold_version"] == 2
    # the erratum's page lists what moved, beside the note
    v2 = anonymous.get(V2).content.decode()
    assert '<span lang="zh">今天天气</span> is one word' in v2  # Chinese in an English page
    moved = v2.split("<strong>S01 run 1</strong>: ", 1)[1].split("</li>", 1)[0]
    assert f"F {before} → {live.f:.3f} (-0.12" in moved
    assert "gold words 14 → 13 (-1)" in moved
    # version 1 still serves the old figures, page and exports
    assert f_of(anonymous, V1 + "tracks/pk-closed/", "S01") == before
    assert anonymous.get(V1 + "tracks/pk-closed/results.csv").content == csv_before
    old = json.loads(anonymous.get(V1 + "tracks/pk-closed/results.json").content)
    assert (old["results_version"], old["gold_version"]) == (1, 1)
    entry = AuditEntry.objects.get(bakeoff=published, action=audit.ERRATUM_PUBLISHED)
    assert entry.details["version"] == 2
    assert entry.actor == organiser


def test_the_erratum_lists_ranks_that_changed(
    published: Bakeoff, corpus: Corpus, closed: Track, on_commit: OnCommit
) -> None:
    # A second site ran before the deadline: S01's run, but 今天天气 as one word. Gold v1 ranks
    # it below S01 (F 0.692 against 0.815), the corrected gold above (0.800 against 0.692).
    user, _ = rival(published, closed)
    Bakeoff.objects.filter(pk=published.pk).update(
        submission_deadline=timezone.now() + timedelta(days=1), results_published=None
    )
    ResultsVersion.objects.all().delete()
    published.refresh_from_db()
    upload(user, closed, WORKED_RUN.replace("今天 天气", "今天天气"), on_commit)
    with on_commit():
        publish(published)
    correct_the_gold(corpus, on_commit)
    version = do_publish_erratum(published, note="corrected")
    runs = {run["label"]: run for run in version.changes[0]["runs"]}
    assert runs["S01 run 1"]["rank"] == [1, 2]
    assert runs["S02 run 1"]["rank"] == [2, 1]
    assert runs["S02 run 1"]["figures"]["f"][2] > 0


def test_an_erratum_needs_a_change_a_note_and_a_publication(
    bakeoff: Bakeoff, corpus: Corpus, on_commit: OnCommit
) -> None:
    with pytest.raises(Refused, match="not published yet"):
        do_publish_erratum(bakeoff, note="early")
    with on_commit():
        publish(bakeoff)
    with pytest.raises(Refused, match="Nothing has changed since results version 1"):
        do_publish_erratum(bakeoff, note="nothing")
    correct_the_gold(corpus, on_commit)
    with pytest.raises(Refused, match="Say in the note"):
        do_publish_erratum(bakeoff, note="  ")
    assert ResultsVersion.objects.filter(bakeoff=bakeoff).count() == 1


def test_participants_are_mailed_the_erratum(
    published: Bakeoff,
    corpus: Corpus,
    on_commit: OnCommit,
    participant: User,
    mailoutbox: list[EmailMessage],
) -> None:
    participant.email = "pat@example.org"
    participant.save()
    correct_the_gold(corpus, on_commit)
    with on_commit():
        do_publish_erratum(published, note="今天天气 is one word")
    sent = [m for m in mailoutbox if "Erratum" in m.subject]
    assert [m.to for m in sent] == [["pat@example.org"]]
    assert "今天天气 is one word" in str(sent[0].body)
    assert "/bakeoffs/b2026/results/v2/" in str(sent[0].body)


def test_an_anonymised_erratum_names_codes_not_sites(
    bakeoff: Bakeoff,
    participant: User,
    site: Site,
    closed: Track,
    corpus: Corpus,
    anonymous: Client,
    on_commit: OnCommit,
) -> None:
    upload(participant, closed, WORKED_RUN, on_commit)
    with on_commit():
        publish(bakeoff, mode="anonymised")
    correct_the_gold(corpus, on_commit)
    do_publish_erratum(bakeoff, note="corrected")
    page = anonymous.get(V2).content.decode()
    assert "P1 run 1</strong>" in page
    assert "S01" not in page and "Team A" not in page


def test_versions_are_not_public_before_their_time(
    bakeoff: Bakeoff, corpus: Corpus, anonymous: Client
) -> None:
    close_submissions(bakeoff)
    do_publish(bakeoff, at=timezone.now() + timedelta(hours=2))
    assert ResultsVersion.objects.filter(bakeoff=bakeoff).count() == 1
    for path in ("", "f.svg", "oov.svg", "tracks/pk-closed/", "tracks/pk-closed/f.svg"):
        assert anonymous.get(V1 + path).status_code == 404
    for export in ("csv", "json", "tex"):
        assert anonymous.get(V1 + f"tracks/pk-closed/results.{export}").status_code == 404
    # rescheduled: frozen again; withdrawn: gone, and recorded
    do_publish(bakeoff, at=timezone.now() + timedelta(hours=3))
    assert ResultsVersion.objects.filter(bakeoff=bakeoff).count() == 1
    do_withdraw_publication(bakeoff)
    assert not ResultsVersion.objects.filter(bakeoff=bakeoff).exists()
    assert AuditEntry.objects.filter(bakeoff=bakeoff, action=audit.RESULTS_WITHDRAWN).exists()


def test_publishing_asks_for_confirmation_showing_what_becomes_visible(
    client_for: ClientFor, organiser: User, bakeoff: Bakeoff, published_soon: None
) -> None:
    at = timezone.localtime(timezone.now(), bakeoff.zone).strftime("%Y-%m-%dT%H:%M")
    organiser_client = client_for(organiser)
    page = organiser_client.post(
        RESULTS + "publish/", {"at": at, "mode": "anonymised"}
    ).content.decode()
    assert "Confirm the publication" in page
    assert "P1 run 1" in page and "Team A" not in page
    assert "PKc" in page and "PKo" in page
    bakeoff.refresh_from_db()
    assert bakeoff.results_published is None
    page = organiser_client.post(RESULTS + "publish/", {"at": at, "mode": "names"}).content.decode()
    assert "S01 Team A run 1" in page
    answer = organiser_client.post(
        RESULTS + "publish/", {"at": at, "mode": "names", "confirmed": "on"}
    )
    assert answer.status_code == 302
    bakeoff.refresh_from_db()
    assert bakeoff.results_published is not None


@pytest.fixture
def published_soon(
    bakeoff: Bakeoff, participant: User, site: Site, closed: Track, on_commit: OnCommit
) -> None:
    upload(participant, closed, WORKED_RUN, on_commit)
    close_submissions(bakeoff)


def test_one_checksum_story(
    published: Bakeoff,
    corpus: Corpus,
    anonymous: Client,
    client_for: ClientFor,
    participant: User,
) -> None:
    data = json.loads(anonymous.get(TRACK + "results.json").content)
    gold = corpus.current_gold()
    assert gold is not None
    answer = client_for(participant).get("/bakeoffs/b2026/corpora/PK/download/gold/")
    downloaded = b"".join(answer.streaming_content)  # type: ignore[attr-defined]
    # sha256sum of the downloaded gold, labelled as the file's
    assert data["gold_file_sha256"] == "sha256:" + hashlib.sha256(downloaded).hexdigest()
    # the canonical checksum: the signatures', and what `python -m scoring score` prints
    canonical = scoring.gold_checksum(downloaded.decode())
    assert data["gold_canonical_checksum"] == canonical == gold.canonical_checksum
    assert {row["score"]["signature"]["gold_checksum"] for row in data["rows"]} == {canonical}
    assert "gold_checksum" not in data
    assert canonical in anonymous.get(TRACK).content.decode()
