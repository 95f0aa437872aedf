"""An adversary's malformed input (huge numbers in addresses, garbage parameters, bodies that are
not what the API reads, made-up languages and time zones) answers 4xx, never 500; the sign-up,
reset and invitation forms tell nothing of which addresses have accounts; domain labels are inert;
redirects stay on the site. The probed bakeoff and its personas: tests/bakeoff/adversary.py.
"""

from __future__ import annotations

import csv
import io
import time

import pytest
from django.contrib.auth.models import User

from bakeoff.middleware import zone_named
from bakeoff.models import Corpus, Invitation, ReaderSettings
from tests.bakeoff.adversary import HUGE, B, ProbedBakeoff, client
from tests.factories import WORKED_RUN, make_corpus, make_site, make_user, publish, track, upload
from tests.hints import OnCommit

pytestmark = pytest.mark.django_db


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
def test_a_huge_number_in_an_address_is_not_found(probed: ProbedBakeoff, path: str) -> None:
    for method in ("get", "post"):
        response = getattr(client(probed.people["olga"]), method)(B + path)
        assert response.status_code in (404, 405), (method, response.status_code)
    api = f"/api/bakeoffs/b2026/tracks/pk-closed/submissions/{HUGE}/"
    assert client(probed.people["olga"]).get(api).status_code == 404


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
def test_malformed_parameters_are_ignored_or_refused(probed: ProbedBakeoff, query: str) -> None:
    response = client(probed.people["olga"]).get(B + query.format(run=probed.run))
    assert response.status_code in (200, 400, 404), response.status_code


@pytest.mark.parametrize(
    "query", ["page=abc", f"page={HUGE}", "page=-1", "cursor=zzz", "page_size=100000000"]
)
def test_the_api_list_answers_a_malformed_page_with_4xx_json(
    probed: ProbedBakeoff, query: str
) -> None:
    response = client(probed.people["pat"]).get(
        f"/api/bakeoffs/b2026/tracks/pk-closed/submissions/?{query}"
    )
    assert response.status_code in (200, 400, 404), response.status_code
    assert response["Content-Type"] == "application/json"


@pytest.mark.parametrize("body", ["[1, 2]", '"pk-closed"', "null", "42", '{"tracks": [1]}'])
def test_the_registration_api_refuses_a_body_that_is_not_a_registration(
    probed: ProbedBakeoff, body: str
) -> None:
    response = client(probed.people["otto"]).post(
        "/api/bakeoffs/b2026/registrations/", body, content_type="application/json"
    )
    assert response.status_code == 400
    assert response.json()["code"] == "invalid"


@pytest.mark.parametrize(
    ("language", "zone"), [("xx", ""), ("", "../../etc/passwd"), ("zh-hans", "Mars/Olympus_Mons")]
)
def test_reader_settings_keep_only_known_languages_and_zones(
    probed: ProbedBakeoff, language: str, zone: str
) -> None:
    otto = client(probed.people["otto"])
    assert otto.post("/account/", {"language": language, "time_zone": zone}).status_code == 200
    otto.post("/i18n/setlang/", {"language": "xx-evil"})
    assert not ReaderSettings.objects.exists()


def test_a_time_zone_cookie_costs_no_walk_of_the_zone_database(probed: ProbedBakeoff) -> None:
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
    probed: ProbedBakeoff,
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
    probed: ProbedBakeoff, on_commit: OnCommit
) -> None:
    labels = "<script>alert(1)</script>\n=HYPERLINK(1)\n}\\immediate\\write18{ls}\n"
    with on_commit():
        corpus = make_corpus(probed.bakeoff, abbreviation="XS", domains=labels)
    xs = track(corpus, "closed")
    make_site(probed.bakeoff, author := make_user("xs-author"), [xs], name="XS team")
    upload(author, xs, WORKED_RUN, on_commit)
    publish(probed.bakeoff)
    base = f"{B}tracks/{xs.slug}/"
    page = client(None).get(base + "domains/").text
    assert "<script>alert" not in page and "&lt;script&gt;alert" in page
    rows = list(csv.reader(io.StringIO(client(None).get(base + "results.csv").text)))
    assert not [cell for row in rows for cell in row if cell[:1] in ("=", "+", "@")]
    tex = client(None).get(base + "results.tex").text
    assert "write18" in tex
    assert "\\immediate" not in tex.replace("\\textbackslash{}immediate", "")


def test_an_organisers_invitation_does_not_tell_whether_the_address_has_an_account(
    probed: ProbedBakeoff,
) -> None:
    """An organiser of one bakeoff learns nothing of the accounts of another's participants."""
    User.objects.filter(username="pat").update(email="pat@example.org")
    mal = client(probed.people["mal"])
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
def test_next_never_leaves_the_site(probed: ProbedBakeoff, next_url: str) -> None:
    Corpus.objects.filter(pk=probed.corpus.pk).update(licence="Use for research only.")
    answers = [
        client(probed.people["otto"]).post(
            "/i18n/setlang/", {"language": "zh-hans", "next": next_url}
        ),
        client(probed.people["pat"]).post(f"{B}corpora/PK/agreement/", {"next": next_url}),
        client(None).post(
            "/accounts/login/?next=" + next_url, {"login": "pat", "password": "pw-pat"}
        ),
    ]
    for response in answers:
        assert response.status_code == 302
        assert "evil" not in response["Location"] and "javascript" not in response["Location"]
