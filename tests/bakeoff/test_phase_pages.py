"""The pages of the phases (docs/phases.md): the development set and table, and opening a track
for post-bakeoff runs."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from bakeoff import services
from bakeoff.models import AuditEntry, Bakeoff, Corpus, DevelopmentSet, Site, SubmissionPhase, Track
from tests.factories import make_site, make_user, publish
from tests.hints import ClientFor, OnCommit

pytestmark = pytest.mark.django_db

CORPUS = "/bakeoffs/b2026/corpora/PK/"
DEV_GOLD = "我们 在 上海 学习\n明天 天气 很 好\n"
DEV_RUN = "我们 在 上海 学 习\n明天 天气 很 好\n"


def develop(user: User, track: Track, on_commit: OnCommit) -> None:
    with on_commit():
        services.submit_run(user, track, DEV_RUN.encode(), phase=SubmissionPhase.DEVELOPMENT)


def test_the_organiser_adds_a_development_set(
    client_for: ClientFor, organiser: User, corpus: Corpus
) -> None:
    gold = SimpleUploadedFile("dev.txt", DEV_GOLD.encode())
    answer = client_for(organiser).post(CORPUS + "development/", {"gold": gold})
    assert answer.status_code == 302
    dev = DevelopmentSet.objects.get(corpus=corpus)
    assert dev.text.read().decode() == "我们在上海学习\n明天天气很好\n"
    assert AuditEntry.objects.filter(action="corpus.development_set").exists()


def test_a_participant_may_not_add_a_development_set(
    client_for: ClientFor, participant: User, site: Site, corpus: Corpus
) -> None:
    gold = SimpleUploadedFile("dev.txt", DEV_GOLD.encode())
    assert client_for(participant).post(CORPUS + "development/", {"gold": gold}).status_code == 404


def test_the_development_table_shows_a_site_its_own_runs_unless_public(
    client_for: ClientFor,
    bakeoff: Bakeoff,
    corpus: Corpus,
    closed: Track,
    participant: User,
    site: Site,
    on_commit: OnCommit,
) -> None:
    services.do_add_development_set(corpus, text=None, gold=DEV_GOLD.encode())
    develop(participant, closed, on_commit)
    other = make_user("rita")
    make_site(bakeoff, other, [closed], name="Rivals", institution="Rivals Institute")
    develop(other, closed, on_commit)
    url = "/bakeoffs/b2026/tracks/pk-closed/development/"
    own = client_for(participant).get(url).content.decode()
    assert own.count('<td class="num"><strong>') == 1
    assert "0.824" in own  # F = 2·7/(8+9)
    bakeoff.development_table_public = True
    bakeoff.save()
    assert client_for(participant).get(url).content.decode().count("<strong>0.824") == 2
    # the official table never shows them
    track_page = client_for(participant).get("/bakeoffs/b2026/tracks/pk-closed/")
    assert "0.824" not in track_page.content.decode()


def test_the_organiser_opens_a_track_after_publication_only(
    client_for: ClientFor, organiser: User, bakeoff: Bakeoff, closed: Track
) -> None:
    client = client_for(organiser)
    url = CORPUS + "tracks/pk-closed/post-bakeoff/"
    client.post(url, {"open": "1"})
    assert not Track.objects.get(pk=closed.pk).post_bakeoff_open
    publish(bakeoff)
    client.post(url, {"open": "1"})
    assert Track.objects.get(pk=closed.pk).post_bakeoff_open
    assert AuditEntry.objects.filter(action="track.post_bakeoff_opened", track=closed).exists()
    page = client_for(make_user("newcomer")).get(CORPUS).content.decode()
    assert "open for post-bakeoff runs" in page


def test_the_corpus_page_lists_development_downloads_for_a_registered_site(
    client_for: ClientFor, corpus: Corpus, participant: User, site: Site
) -> None:
    services.do_add_development_set(corpus, text=None, gold=DEV_GOLD.encode())
    client = client_for(participant)
    assert "development gold" in client.get(CORPUS).content.decode()
    answer = client.get(CORPUS + "development/gold/")
    assert answer.status_code == 200
    assert b"".join(answer.streaming_content).decode() == DEV_GOLD  # type: ignore[attr-defined]
    assert timezone.now() > corpus.bakeoff.training_released


def test_the_development_table_makes_the_same_queries_at_1_and_6_runs(
    client_for: ClientFor,
    bakeoff: Bakeoff,
    corpus: Corpus,
    closed: Track,
    participant: User,
    site: Site,
    on_commit: OnCommit,
    django_assert_max_num_queries: Any,
) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    bakeoff.development_runs_per_day = 10
    bakeoff.development_table_public = True
    bakeoff.save()
    services.do_add_development_set(corpus, text=None, gold=DEV_GOLD.encode())
    develop(participant, closed, on_commit)
    client = client_for(participant)
    url = "/bakeoffs/b2026/tracks/pk-closed/development/"
    client.get(url)
    with CaptureQueriesContext(connection) as one:
        client.get(url)
    for _ in range(5):
        develop(participant, closed, on_commit)
    with django_assert_max_num_queries(len(one)):
        assert client.get(url).content.decode().count("<strong>0.824") == 6
    print(f"development table: {len(one)} queries at 1 run, at most that at 6")
