"""Domain labels of a corpus's test lines: checked, stored, and every score's figures per domain
(in the scoring pass, or afterwards when the labels come later)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from bakeoff import audit, services, signals
from bakeoff.errors import InvalidFile
from bakeoff.models import AuditEntry, Bakeoff, Corpus, Site
from tests.factories import WORKED_RUN, make_corpus, track, upload
from tests.hints import ClientFor, OnCommit

LABELS = "news\nweibo\nnews\n"


def _domains(submission_score: Any) -> dict[str, dict[str, Any]]:
    return {d["domain"]: d for d in submission_score.result["domains"]}


@pytest.fixture
def labelled(bakeoff: Bakeoff, on_commit: OnCommit) -> Corpus:
    with on_commit():
        return make_corpus(bakeoff, domains=LABELS)


def test_a_corpus_keeps_its_labels_and_their_domains(labelled: Corpus) -> None:
    assert labelled.domains == [{"domain": "news", "lines": 2}, {"domain": "weibo", "lines": 1}]
    assert labelled.domain_names == ["news", "weibo"]
    assert labelled.domain_labels_checksum.startswith("sha256:")
    assert services.domain_labels_for(labelled) == ("news", "weibo", "news")


def test_a_run_is_scored_per_domain_by_hand(
    labelled: Corpus, participant: User, on_commit: OnCommit, bakeoff: Bakeoff
) -> None:
    from tests.factories import make_site

    closed = track(labelled)
    make_site(bakeoff, participant, [closed])
    score = upload(participant, closed, WORKED_RUN, on_commit).current_score()
    assert score is not None
    news, weibo = _domains(score)["news"], _domains(score)["weibo"]
    # news is lines 1 and 3: 6 + 4 gold words, 5 + 4 run words; 结婚, 的, 的 and line 3 correct
    assert (news["lines"], news["true_words"], news["test_words"], news["correct"]) == (2, 10, 9, 7)
    assert (news["oov_words"], news["correct_oov"]) == (1, 1)  # 天气
    assert news["recall"] == 0.7 and news["precision"] == pytest.approx(7 / 9)
    assert news["cr"] == pytest.approx(2 * (0.7 * 0.3 / 10) ** 0.5)
    assert (weibo["true_words"], weibo["correct"], weibo["f"], weibo["cr"]) == (4, 4, 1.0, 0.0)
    assert news["correct"] + weibo["correct"] == score.correct
    assert score.result["domain_labels"] == labelled.domain_labels_checksum


def test_labels_added_later_reach_the_stored_scores(
    bakeoff: Bakeoff, organiser: User, on_commit: OnCommit
) -> None:
    with on_commit():
        corpus = make_corpus(bakeoff)
    references = list(corpus.tracks.get(condition="closed").submissions.all())
    assert all("domains" not in s.current_score().result for s in references)  # type: ignore[union-attr]
    heard: list[Corpus] = []

    def receiver(sender: object, corpus: Corpus, **kwargs: object) -> None:
        heard.append(corpus)

    signals.domain_labels_changed.connect(receiver)
    try:
        with on_commit():
            services.do_set_domain_labels(corpus, LABELS.encode(), user=organiser)
    finally:
        signals.domain_labels_changed.disconnect(receiver)
    assert heard == [corpus]
    for submission in references:
        score = submission.current_score()
        assert score is not None
        assert [d["domain"] for d in score.result["domains"]] == ["news", "weibo"]
        assert sum(d["true_words"] for d in score.result["domains"]) == score.true_words
    entry = AuditEntry.objects.get(action=audit.DOMAIN_LABELS_SET)
    assert entry.details["checksum"] == corpus.domain_labels_checksum
    assert entry.actor == organiser
    assert services.do_score_domains(corpus.pk) == 0  # nothing left to do: idempotent


def test_labels_replaced_are_computed_again(labelled: Corpus, on_commit: OnCommit) -> None:
    with on_commit():
        services.do_set_domain_labels(labelled, b"a\na\nb\n")
    score = track(labelled).submissions.first().current_score()  # type: ignore[union-attr]
    assert score is not None
    assert [(d["domain"], d["lines"]) for d in score.result["domains"]] == [("a", 2), ("b", 1)]


@pytest.mark.parametrize(
    ("labels", "message"),
    [
        (
            "news\nweibo\n",
            "domain labels: the domain file has 2 lines, the test set 3 "
            "(test line 3 and after have no label)",
        ),
        ("news\n\nnews\n", "domain labels: line 2 of the domain file has no label"),
        ("n\n" * 3 + "x\n", "line 4 and after have no test line"),
        ("a" * 41 + "\nb\nb\n", "domain labels: line 1: the label has 41 characters; at most 40."),
    ],
)
def test_wrong_labels_are_refused(
    bakeoff: Bakeoff, corpus: Corpus, labels: str, message: str
) -> None:
    with pytest.raises(InvalidFile) as refused:
        services.do_set_domain_labels(corpus, labels.encode())
    assert message in refused.value.detail
    corpus.refresh_from_db()
    assert corpus.domains == [] and not corpus.domain_labels_checksum
    with pytest.raises(InvalidFile):
        make_corpus(bakeoff, abbreviation="MSR", domains=labels)
    assert not Corpus.objects.filter(abbreviation="MSR").exists()


def test_at_most_forty_domains(bakeoff: Bakeoff) -> None:
    test = "".join(f"{i}\n" for i in range(41))
    with pytest.raises(InvalidFile, match="41 different labels"):
        make_corpus(
            bakeoff,
            gold=test,
            test=test,
            domains="".join(f"d{i}\n" for i in range(41)),
        )


def test_the_organiser_labels_a_corpus_on_its_page(
    corpus: Corpus, organiser: User, participant: User, site: Site, client_for: ClientFor
) -> None:
    url = reverse("domain-labels", args=[corpus.bakeoff.slug, corpus.abbreviation])
    assert client_for(participant).get(url).status_code == 404
    client = client_for(organiser)
    refused = client.post(url, {"domain_labels": SimpleUploadedFile("d.txt", b"a\nb\n")})
    assert refused.status_code == 200
    assert "the domain file has 2 lines, the test set 3" in refused.content.decode()
    response = client.post(url, {"domain_labels": SimpleUploadedFile("d.txt", LABELS.encode())})
    assert response.status_code == 302
    corpus.refresh_from_db()
    assert corpus.domain_names == ["news", "weibo"]
    page = client_for(participant).get(
        reverse("corpus", args=[corpus.bakeoff.slug, corpus.abbreviation])
    )
    assert "news (2 lines), weibo (1 line)" in page.content.decode()


def test_the_api_gives_a_runs_figures_per_domain_when_it_gives_its_scores(
    labelled: Corpus, participant: User, on_commit: OnCommit, bakeoff: Bakeoff
) -> None:
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    from tests.factories import make_site

    closed = track(labelled)
    make_site(bakeoff, participant, [closed])
    submission = upload(participant, closed, WORKED_RUN, on_commit)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=participant).key}")
    url = f"/api/bakeoffs/{bakeoff.slug}/tracks/{closed.slug}/submissions/{submission.pk}/"
    scores = client.get(url).json()["scores"]
    assert [(d["domain"], d["correct"]) for d in scores["domains"]] == [("news", 7), ("weibo", 4)]
    bakeoff.hide_scores_until_publication = True
    bakeoff.save()
    assert "scores" not in client.get(url).json()


def test_labels_stored_while_a_run_is_scored_reach_it(
    corpus: Corpus,
    participant: User,
    site: Site,
    on_commit: OnCommit,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from bakeoff.services.domains import domain_labels_for as reading

    def labels_arrive_meanwhile(read: Corpus) -> tuple[str, ...] | None:
        found = reading(read)  # the run is scored with what the corpus had: no labels
        fresh = Corpus.objects.get(pk=read.pk)
        with services.uploads.files_removed_on_failure():
            services.domains.store_domain_labels(fresh, ("news", "weibo", "news"))
            fresh.save()
        return found

    monkeypatch.setattr("bakeoff.services.recovery.domain_labels_for", labels_arrive_meanwhile)
    score = upload(participant, track(corpus), WORKED_RUN, on_commit).current_score()
    assert score is not None
    assert [d["domain"] for d in score.result["domains"]] == ["news", "weibo"]
