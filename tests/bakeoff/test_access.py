"""Downloads and visibility: who may fetch and see what, and when."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from .factories import make_site, make_user

pytestmark = pytest.mark.django_db


def download(client, kind):
    return client.get(f"/bakeoffs/b2026/corpora/PK/download/{kind}/")


def test_a_registered_participant_downloads_the_released_test_text(client_for, participant, site):
    answer = download(client_for(participant), "test_text")
    assert answer.status_code == 200
    assert b"".join(answer.streaming_content).decode().startswith("结婚的和尚未结婚的")


def test_it_refuses_data_download_before_release(client_for, participant, site, bakeoff):
    bakeoff.test_released = timezone.now() + timedelta(hours=1)
    bakeoff.save()
    assert download(client_for(participant), "test_text").status_code == 403


def test_it_refuses_training_data_before_release(client_for, participant, site, bakeoff):
    bakeoff.training_released = timezone.now() + timedelta(hours=1)
    bakeoff.test_released = timezone.now() + timedelta(hours=2)
    bakeoff.save()
    assert download(client_for(participant), "training_words").status_code == 403


def test_it_refuses_gold_before_results_are_published(client_for, participant, site):
    assert download(client_for(participant), "gold").status_code == 403


def test_it_gives_gold_after_publication(client_for, participant, site, bakeoff):
    bakeoff.results_published = timezone.now() - timedelta(minutes=1)
    bakeoff.save()
    assert download(client_for(participant), "gold").status_code == 200


def test_the_organiser_downloads_gold_any_time(client_for, organiser, corpus):
    assert download(client_for(organiser), "gold").status_code == 200


def test_it_refuses_downloads_to_an_unregistered_user(client_for, outsider, corpus):
    assert download(client_for(outsider), "test_text").status_code == 403


def test_it_refuses_downloads_to_anonymous(anonymous, corpus):
    assert download(anonymous, "test_text").status_code == 403


def test_it_refuses_downloads_to_a_site_of_another_corpus_only(client_for, bakeoff, corpus):
    from .factories import make_corpus, track

    other = make_corpus(bakeoff, abbreviation="MSR")
    user = make_user("msr-only")
    make_site(bakeoff, user, [track(other)], name="MSR team")
    assert download(client_for(user), "test_text").status_code == 403


def test_it_hides_another_teams_submission_page(client_for, participant, site, bakeoff, closed):
    from bakeoff import services

    submission = services.submit_run(participant, closed, site_run())
    rival = make_user("rival")
    make_site(bakeoff, rival, [closed], name="Rivals")
    page = f"/bakeoffs/b2026/submissions/{submission.pk}/"
    assert client_for(rival).get(page).status_code == 404
    assert client_for(participant).get(page).status_code == 200


def test_it_hides_other_teams_scores_from_the_runs_list(
    client_for, participant, site, bakeoff, closed, on_commit
):
    from bakeoff import services

    with on_commit():
        services.submit_run(participant, closed, site_run())
    rival = make_user("rival")
    make_site(bakeoff, rival, [closed], name="Rivals")
    page = client_for(rival).get("/bakeoffs/b2026/submissions/").content.decode()
    assert "run 1" not in page
    assert "BASE" in page


def site_run() -> bytes:
    from .factories import PERFECT_RUN

    return PERFECT_RUN.encode()
