"""One track per corpus and condition (issue 22): the track service checks it, and a track added
by another request between its check and its insert is refused in the same words, never a 500."""

from __future__ import annotations

import threading

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client

from bakeoff import audit, services, tasks
from bakeoff.errors import Refused
from bakeoff.models import AuditEntry, Bakeoff, Corpus, Track
from bakeoff.services import corpora
from tests.factories import make_corpus
from tests.hints import ClientFor

WORDS = "This corpus already has a track in that condition."
URL = "/bakeoffs/b2026/corpora/CT/tracks/new/"


@pytest.fixture
def closed_only(bakeoff: Bakeoff) -> Corpus:
    return make_corpus(bakeoff, abbreviation="CT", conditions=("closed",))


@pytest.mark.django_db
def test_a_second_track_in_a_condition_is_refused(closed_only: Corpus, organiser: User) -> None:
    with pytest.raises(Refused) as refused:
        services.do_add_track(closed_only, "closed", by=organiser)
    assert (refused.value.code, refused.value.detail) == ("track_exists", WORDS)
    assert closed_only.tracks.count() == 1


@pytest.mark.django_db
def test_the_page_shows_the_refusal(
    client_for: ClientFor, organiser: User, closed_only: Corpus
) -> None:
    answer = client_for(organiser).post(URL, {"condition": "closed", "max_runs": 2})
    assert answer.status_code == 400
    assert WORDS in answer.content.decode()


@pytest.mark.django_db
def test_a_track_added_between_the_check_and_the_insert_is_refused_as_the_check_would(
    closed_only: Corpus, organiser: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    check = corpora.check_track_free
    calls: list[str] = []

    def another_request_adds_it_after_the_check(corpus: Corpus, condition: str) -> None:
        check(corpus, condition)
        if not calls:  # the first check passed: now the other request inserts the track
            Track.objects.create(corpus=corpus, condition=condition, slug="ct-open")
        calls.append(condition)

    monkeypatch.setattr(corpora, "check_track_free", another_request_adds_it_after_the_check)
    with pytest.raises(Refused) as refused:
        services.do_add_track(closed_only, "open", by=organiser)
    assert (refused.value.code, refused.value.detail) == ("track_exists", WORDS)
    assert calls == ["open"]  # the refusal came from the check after the constraint refused
    assert closed_only.tracks.filter(condition="open").count() == 1
    assert not AuditEntry.objects.filter(action=audit.TRACK_ADDED, subject="CTo").exists()


@pytest.mark.skipif(connection.vendor != "postgresql", reason="two connections at once")
@pytest.mark.django_db(transaction=True)
def test_two_organisers_adding_the_same_track_at_once_get_one_track_and_one_refusal(
    closed_only: Corpus, organiser: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Both posts pass the check before either inserts; the unique constraint makes the second
    # insert wait for the first's commit, then refuses it.
    barrier = threading.Barrier(2, timeout=10)
    check = corpora.check_track_free

    def both_checked(corpus: Corpus, condition: str) -> None:
        check(corpus, condition)
        if threading.current_thread() is not threading.main_thread():
            barrier.wait()

    monkeypatch.setattr(corpora, "check_track_free", both_checked)
    monkeypatch.setattr(tasks.score_submission, "delay_on_commit", lambda pk: None)
    statuses: list[int] = []
    errors: list[BaseException] = []

    def post() -> None:
        client = Client()
        client.force_login(organiser)
        try:
            statuses.append(client.post(URL, {"condition": "open", "max_runs": 2}).status_code)
        except BaseException as error:  # a 500 raises in the test client
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=post) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert sorted(statuses) == [302, 400]
    assert closed_only.tracks.filter(condition="open").count() == 1
    assert AuditEntry.objects.filter(action=audit.TRACK_ADDED).count() == 2  # CTc, one CTo
