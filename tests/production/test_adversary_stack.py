"""The adversary's probes of tests/bakeoff/test_adversary_*.py that depend on the web tier, through
nginx and gunicorn as shipped (DEBUG=0, PostgreSQL): malformed input answers 4xx, never 500, and a
paper reaches a browser as a PDF, only when the published results show names."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest
from rest_framework.authtoken.models import Token

from bakeoff import services
from bakeoff.models import Bakeoff, Site, Track
from tests.factories import make_bakeoff, make_corpus, make_site, make_user, publish, track

from .test_deadline_rush import Stack
from .test_deadline_rush import stack as stack  # the fixture: nginx in front of gunicorn

pytestmark = [pytest.mark.production, pytest.mark.django_db(transaction=True)]

PDF = b"%PDF-1.4\n<html><script>alert(1)</script></html>\n%%EOF\n"
HUGE = "9" * 25


def fetch(
    url: str, *, data: bytes | None = None, headers: dict[str, str] | None = None
) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(url, data=data, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, dict(answer.headers), answer.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def with_paper(slug: str, mode: str) -> tuple[Bakeoff, Track, Site]:
    bakeoff = make_bakeoff(slug=slug)
    closed = track(make_corpus(bakeoff), "closed")
    author = make_user(f"author-{slug}")
    site = make_site(bakeoff, author, [closed])
    services.do_attach_paper(author, closed, upload=PDF, title="Our system")
    publish(bakeoff, mode=mode)
    return bakeoff, closed, site


def test_malformed_input_answers_4xx_through_the_proxy(stack: Stack) -> None:
    bakeoff, closed, _site = with_paper("probe", "names")
    token = Token.objects.create(user=make_user("prober")).key
    base = f"{stack.nginx.url}/bakeoffs/{bakeoff.slug}/"
    for path in (
        f"tracks/{closed.slug}/runs/{HUGE}/",
        f"tracks/{closed.slug}/paper/{HUGE}.pdf",
        f"results/v{HUGE}/",
    ):
        assert fetch(base + path)[0] == 404, path
    status, _headers, body = fetch(
        f"{stack.nginx.url}/api/bakeoffs/{bakeoff.slug}/registrations/",
        data=b"[1, 2]",
        headers={"Authorization": f"Token {token}", "Content-Type": "application/json"},
    )
    assert status == 400
    assert json.loads(body)["code"] == "invalid"


def test_a_paper_reaches_a_browser_as_a_pdf_and_only_with_names(stack: Stack) -> None:
    _named, named_track, named_site = with_paper("named", "names")
    _coded, coded_track, coded_site = with_paper("coded", "anonymised")
    status, headers, body = fetch(
        f"{stack.nginx.url}/bakeoffs/named/tracks/{named_track.slug}/paper/{named_site.pk}.pdf"
    )
    assert (status, body) == (200, PDF)
    assert headers["Content-Type"] == "application/pdf"
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert "script-src 'self'" in headers["Content-Security-Policy"]
    hidden = f"{stack.nginx.url}/bakeoffs/coded/tracks/{coded_track.slug}/paper/{coded_site.pk}.pdf"
    assert fetch(hidden)[0] == 404
