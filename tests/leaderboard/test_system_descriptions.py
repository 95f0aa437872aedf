"""Each run carries a system description and a site may attach a paper (a PDF of at most 10 MB,
or a link) to a track; the published tables, the run's page and the exports show them.

The bakeoff with the participant's registered site is built once for the module; the runs and
papers, by each test that needs them."""

from __future__ import annotations

import csv
import io
import json

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from pytest_django import Settings

from bakeoff import services
from bakeoff.errors import InvalidFile, NotAllowed, UploadTooLarge
from bakeoff.models import Bakeoff, Site, SystemPaper, Track
from leaderboard.services import do_publish
from tests.factories import (
    PERFECT_RUN,
    WORKED_RUN,
    close_submissions,
    publish,
    rival,
)
from tests.hints import ClientFor, OnCommit
from tests.module_world import captured_on_commit, module_world, taken_from_world

from .registered_world import SHARED, Registered, registered

pytestmark = pytest.mark.django_db

TRACK = "/bakeoffs/b2026/tracks/pk-closed/"
PDF = b"%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n"


def build_world(on_commit: OnCommit) -> Registered:
    """The participant's site registered for the closed track; no run, no paper yet."""
    world = registered(on_commit)
    # No page read before a test may be served to it from the cache as if it were fresh.
    cache.clear()
    return world


# Every test here starts from this world, and what it adds (runs, papers, a publication) is
# rolled back (tests/module_world.py).
built, mine = module_world("system_descriptions", lambda: build_world(captured_on_commit))
bakeoff, corpus, closed, site, participant, organiser = map(taken_from_world, SHARED)


@pytest.fixture
def described(
    participant: User, site: Site, bakeoff: Bakeoff, closed: Track, on_commit: OnCommit
) -> Track:
    with on_commit():
        services.submit_run(
            participant, closed, WORKED_RUN.encode(), description="CRF & a 50k-word lexicon"
        )
        user, _ = rival(bakeoff, closed, "Rivals")
        services.submit_run(user, closed, PERFECT_RUN.encode(), description="Rules")
    services.do_attach_paper(participant, closed, upload=PDF, title="Our system")
    services.do_attach_paper(user, closed, url="https://example.org/rivals.pdf")
    return closed


def test_the_exports_include_descriptions_and_papers(
    anonymous: Client, described: Track, bakeoff: Bakeoff
) -> None:
    publish(bakeoff)
    body = anonymous.get(TRACK + "results.csv").content.decode()
    rows = {r["site"]: r for r in csv.DictReader(io.StringIO(body))}
    assert rows["S01"]["description"] == "CRF & a 50k-word lexicon"
    team = Site.objects.get(name="Team A")
    assert rows["S01"]["paper"] == f"/bakeoffs/b2026/tracks/pk-closed/paper/{team.pk}.pdf"
    assert rows["S02"]["paper"] == "https://example.org/rivals.pdf"
    data = json.loads(anonymous.get(TRACK + "results.json").content)
    by_site = {row["site"]: row for row in data["rows"]}
    assert by_site["S02"]["description"] == "Rules"
    assert by_site["S02"]["paper"] == "https://example.org/rivals.pdf"
    assert by_site["BASE"]["paper"] is None
    tex = anonymous.get(TRACK + "results.tex").content.decode()
    assert "S01 run 1: CRF \\& a 50k-word lexicon" in tex
    assert "\\url{https://example.org/rivals.pdf}" in tex


def test_the_table_links_papers_and_the_run_page_shows_the_description(
    anonymous: Client, described: Track, bakeoff: Bakeoff
) -> None:
    publish(bakeoff)
    table = anonymous.get(TRACK).content.decode()
    assert 'href="https://example.org/rivals.pdf">paper</a>' in table
    run = described.submissions.get(site__name="Team A")
    page = anonymous.get(f"{TRACK}runs/{run.pk}/").content.decode()
    assert "CRF &amp; a 50k-word lexicon" in page
    assert "system-description paper" in page
    paper = anonymous.get(f"/bakeoffs/b2026/tracks/pk-closed/paper/{run.site_id}.pdf")
    assert paper.status_code == 200
    assert b"".join(paper.streaming_content).startswith(b"%PDF-")  # type: ignore[attr-defined]


def test_papers_are_not_shown_when_results_are_published_with_codes(
    anonymous: Client, described: Track, bakeoff: Bakeoff
) -> None:
    close_submissions(bakeoff)
    do_publish(bakeoff, at=bakeoff.submission_deadline, mode="anonymised")
    body = anonymous.get(TRACK + "results.csv").content.decode()
    assert all(r["paper"] == "" for r in csv.DictReader(io.StringIO(body)))
    assert "rivals.pdf" not in anonymous.get(TRACK).content.decode()


def test_before_publication_a_paper_is_its_sites_only(
    client_for: ClientFor, participant: User, described: Track, outsider: User
) -> None:
    team = described.submissions.get(site__name="Team A").site
    assert team is not None
    url = f"/bakeoffs/b2026/tracks/pk-closed/paper/{team.pk}.pdf"
    assert client_for(participant).get(url).status_code == 200
    assert client_for(outsider).get(url).status_code == 404
    rivals = SystemPaper.objects.get(url__contains="rivals").site_id
    assert client_for(participant).get(url.replace(str(team.pk), str(rivals))).status_code == 404


def test_a_paper_must_be_a_pdf(participant: User, site: Site, closed: Track) -> None:
    with pytest.raises(InvalidFile, match="not a PDF"):
        services.do_attach_paper(participant, closed, upload=b"<html>hello</html>")
    with pytest.raises(InvalidFile, match="end-of-file"):
        services.do_attach_paper(participant, closed, upload=PDF[:20])
    with pytest.raises(InvalidFile, match="not a web address"):
        services.do_attach_paper(participant, closed, url="javascript:alert(1)")
    assert not SystemPaper.objects.exists()


def test_a_paper_is_at_most_10_mb(participant: User, site: Site, closed: Track) -> None:
    big = b"%PDF-1.4\n" + b"0" * (10 << 20) + b"\n%%EOF\n"
    with pytest.raises(UploadTooLarge):
        services.do_attach_paper(participant, closed, upload=big)


def test_only_a_registered_site_attaches_a_paper(outsider: User, closed: Track) -> None:
    with pytest.raises(NotAllowed):
        services.do_attach_paper(outsider, closed, upload=PDF)


def test_a_new_paper_replaces_the_old(
    participant: User, site: Site, closed: Track, settings: Settings
) -> None:
    first = services.do_attach_paper(participant, closed, upload=PDF)
    old = first.file.name or ""
    second = services.do_attach_paper(participant, closed, url="https://example.org/p.pdf")
    assert second.pk == first.pk and not second.file
    assert not first.file.storage.exists(old)
    assert SystemPaper.objects.count() == 1


def test_the_paper_page_attaches_a_pdf(
    client_for: ClientFor, participant: User, site: Site, closed: Track
) -> None:
    client = client_for(participant)
    url = "/bakeoffs/b2026/tracks/pk-closed/paper/"
    assert "A PDF of at most 10 MB" in client.get(url).content.decode()
    answer = client.post(url, {"file": SimpleUploadedFile("p.pdf", PDF), "title": "Ours"})
    assert answer.status_code == 302
    assert SystemPaper.objects.get().title == "Ours"
    refused = client.post(url, {"file": SimpleUploadedFile("p.pdf", b"GIF89a")})
    assert "not a PDF" in refused.content.decode()
    assert "Attach a PDF or give a link" in client.post(url, {}).content.decode()


def test_a_paper_link_is_written_for_url_not_escaped_as_text() -> None:
    from leaderboard.exports import latex_url

    url = "https://example.org/~lab/sighan_2005/paper%20v2.pdf?a=1&b=2#page=3"
    # \url reads _ ~ & verbatim (escaped as text, they would print a backslash and break the
    # link); % and # are escaped as the url package asks inside another command's argument.
    assert latex_url(url) == (
        "https://example.org/~lab/sighan_2005/paper\\%20v2.pdf?a=1&b=2\\#page=3"
    )
    # What could end the argument or the line is percent-encoded: braces, a backslash, spaces.
    assert latex_url("https://x.org/a}b{c\\d e\u3000f\ng") == (
        "https://x.org/a\\%7Db\\%7Bc\\%5Cd\\%20e\\%E3\\%80\\%80f\\%0Ag"
    )
