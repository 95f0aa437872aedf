"""Downloads and visibility: who may fetch and see what, and when."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from bakeoff.models import Bakeoff, Corpus, Site, Track
from tests.factories import make_site, make_user
from tests.hints import Answer, ClientFor, OnCommit, streamed

pytestmark = pytest.mark.django_db


def download(client: Client, kind: str) -> Answer:
    return client.get(f"/bakeoffs/b2026/corpora/PK/download/{kind}/")


def test_a_registered_participant_downloads_the_released_test_text(
    client_for: ClientFor, participant: User, site: Site
) -> None:
    answer = download(client_for(participant), "test_text")
    assert answer.status_code == 200
    assert streamed(answer).decode().startswith("结婚的和尚未结婚的")


def test_it_refuses_data_download_before_release(
    client_for: ClientFor, participant: User, site: Site, bakeoff: Bakeoff
) -> None:
    bakeoff.test_released = timezone.now() + timedelta(hours=1)
    bakeoff.save()
    assert download(client_for(participant), "test_text").status_code == 403


def test_it_refuses_training_data_before_release(
    client_for: ClientFor, participant: User, site: Site, bakeoff: Bakeoff
) -> None:
    bakeoff.training_released = timezone.now() + timedelta(hours=1)
    bakeoff.test_released = timezone.now() + timedelta(hours=2)
    bakeoff.save()
    assert download(client_for(participant), "training_words").status_code == 403


def test_it_refuses_gold_before_results_are_published(
    client_for: ClientFor, participant: User, site: Site
) -> None:
    assert download(client_for(participant), "gold").status_code == 403


def test_it_gives_gold_after_publication(
    client_for: ClientFor, participant: User, site: Site, bakeoff: Bakeoff
) -> None:
    bakeoff.results_published = timezone.now() - timedelta(minutes=1)
    bakeoff.save()
    assert download(client_for(participant), "gold").status_code == 200


def test_the_organiser_downloads_gold_any_time(
    client_for: ClientFor, organiser: User, corpus: Corpus
) -> None:
    assert download(client_for(organiser), "gold").status_code == 200


def test_it_refuses_downloads_to_an_unregistered_user(
    client_for: ClientFor, outsider: User, corpus: Corpus
) -> None:
    assert download(client_for(outsider), "test_text").status_code == 403


def test_it_refuses_downloads_to_anonymous(anonymous: Client, corpus: Corpus) -> None:
    assert download(anonymous, "test_text").status_code == 403


def test_it_refuses_downloads_to_a_site_of_another_corpus_only(
    client_for: ClientFor, bakeoff: Bakeoff, corpus: Corpus
) -> None:
    from tests.factories import make_corpus, track

    other = make_corpus(bakeoff, abbreviation="MSR")
    user = make_user("msr-only")
    make_site(bakeoff, user, [track(other)], name="MSR team")
    assert download(client_for(user), "test_text").status_code == 403


def test_it_hides_another_teams_submission_page(
    client_for: ClientFor, participant: User, site: Site, bakeoff: Bakeoff, closed: Track
) -> None:
    from bakeoff import services

    submission = services.submit_run(participant, closed, site_run())
    rival = make_user("rival")
    make_site(bakeoff, rival, [closed], name="Rivals")
    page = f"/bakeoffs/b2026/submissions/{submission.pk}/"
    assert client_for(rival).get(page).status_code == 404
    assert client_for(participant).get(page).status_code == 200


def test_it_hides_other_teams_scores_from_the_runs_list(
    client_for: ClientFor,
    participant: User,
    site: Site,
    bakeoff: Bakeoff,
    closed: Track,
    on_commit: OnCommit,
) -> None:
    from bakeoff import services

    with on_commit():
        services.submit_run(participant, closed, site_run())
    rival = make_user("rival")
    make_site(bakeoff, rival, [closed], name="Rivals")
    page = client_for(rival).get("/bakeoffs/b2026/submissions/").content.decode()
    assert "run 1" not in page
    assert "BASE" in page


def site_run() -> bytes:
    from tests.factories import PERFECT_RUN

    return PERFECT_RUN.encode()
