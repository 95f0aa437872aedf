"""An adversary's probe of the system papers: what a paper looks like to a browser, where it is
stored, and who may read it before and after publication, with the results' names or codes. The
probed bakeoff and its personas: tests/bakeoff/adversary.py.
"""

from __future__ import annotations

import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from bakeoff import services
from bakeoff.models import SystemPaper
from tests.bakeoff.adversary import PAGES, POLYGLOT, B, ProbedBakeoff, client
from tests.factories import WORKED_RUN, publish, track, upload
from tests.hints import OnCommit

pytestmark = pytest.mark.django_db


def test_a_paper_is_served_as_a_pdf_never_as_a_page(probed: ProbedBakeoff) -> None:
    response = client(probed.people["pat"]).get(f"{B}tracks/pk-closed/paper/{probed.site.pk}.pdf")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert "script-src 'self'" in response["Content-Security-Policy"]
    assert response["Content-Disposition"] == 'inline; filename="b2026-pk-closed-S01.pdf"'


def test_a_paper_file_name_with_path_parts_is_stored_under_a_name_of_the_platform(
    probed: ProbedBakeoff,
) -> None:
    pdf = SimpleUploadedFile("../../../etc/evil.html", POLYGLOT, content_type="text/html")
    response = client(probed.people["pat"]).post(
        f"{B}tracks/pk-closed/paper/", {"file": pdf, "title": "t"}
    )
    assert response.status_code == 302
    name = str(SystemPaper.objects.get(site=probed.site).file.name)
    assert ".." not in name and "evil" not in name and name.endswith(".pdf"), name


def test_a_paper_over_its_cap_is_refused_before_it_is_stored(probed: ProbedBakeoff) -> None:
    body = b"%PDF-1.4\n" + b"0" * (services.PAPER_MAX_BYTES) + b"\n%%EOF\n"
    before = SystemPaper.objects.get(site=probed.site).file.name
    response = client(probed.people["pat"]).post(
        f"{B}tracks/pk-closed/paper/", {"file": SimpleUploadedFile("p.pdf", body), "title": "t"}
    )
    assert response.status_code in (200, 413)
    assert SystemPaper.objects.get(site=probed.site).file.name == before


def test_a_paper_of_results_published_with_codes_is_not_served_to_readers(
    probed: ProbedBakeoff,
) -> None:
    """The published table hides papers when it hides names (a paper names its authors); the
    file's address, a site's number, must not reveal them either."""
    publish(probed.bakeoff, mode="anonymised")
    url = f"{B}tracks/pk-closed/paper/{probed.site.pk}.pdf"
    for name in ("anonymous", "otto", "elsa", "mal"):
        assert client(probed.people[name]).get(url).status_code == 404, name
    for name in ("pat", "olga"):
        assert client(probed.people[name]).get(url).status_code == 200, name


@pytest.mark.parametrize("mode", ["anonymised", "names"])
def test_papers_are_linked_only_when_the_results_show_names(
    probed: ProbedBakeoff, mode: str, on_commit: OnCommit
) -> None:
    elsa = probed.people["elsa"]
    assert elsa is not None
    services.do_attach_paper(elsa, track(probed.corpus, "open"), url="https://papers.example/elsa")
    upload(elsa, track(probed.corpus, "open"), WORKED_RUN, on_commit)
    publish(probed.bakeoff, mode=mode)
    paths = [f"tracks/{t}/{page}" for t in ("pk-closed", "pk-open") for page in PAGES]
    paths += [f"tracks/pk-closed/runs/{probed.run}/", "results/"]
    linked = {
        path
        for path in paths
        if {"papers.example", "/paper/"} & set(re.findall(r"papers\.example|/paper/", get(path)))
    }
    assert linked == set() if mode == "anonymised" else linked, linked


def get(path: str) -> str:
    return client(None).get(B + path).text


def test_a_paper_of_results_published_with_names_is_served_to_everyone(
    probed: ProbedBakeoff,
) -> None:
    publish(probed.bakeoff)
    url = f"{B}tracks/pk-closed/paper/{probed.site.pk}.pdf"
    assert client(None).get(url).status_code == 200
