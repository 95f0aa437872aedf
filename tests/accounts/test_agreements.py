"""Data agreements: before the first download of a corpus's files, a member of the site accepts
its licence (who and when are recorded and shown to the organiser); until then the download
links lead to the agreement, not to the file."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from bakeoff import services
from bakeoff.models import Bakeoff, Corpus, LicenceAcceptance, Site
from tests.factories import GOLD, make_user
from tests.hints import ClientFor, streamed

pytestmark = pytest.mark.django_db

LICENCE = "The PK corpus is for research in this bakeoff only; do not redistribute it."
TEST = "/bakeoffs/b2026/corpora/PK/download/test_text/"
AGREEMENT = "/bakeoffs/b2026/corpora/PK/agreement/"


@pytest.fixture
def licensed(corpus: Corpus) -> Corpus:
    Corpus.objects.filter(pk=corpus.pk).update(licence=LICENCE)
    corpus.refresh_from_db()
    return corpus


def test_without_acceptance_the_download_leads_to_the_agreement(
    licensed: Corpus, site: Site, participant: User, client_for: ClientFor
) -> None:
    client = client_for(participant)
    answer = client.get(TEST)
    assert answer.status_code == 302 and answer["Location"] == f"{AGREEMENT}?next={TEST}"
    page = client.get("/bakeoffs/b2026/corpora/PK/").content.decode()
    assert f'href="{AGREEMENT}?next=' in page and f'href="{TEST}"' not in page
    agreement = client.get(answer["Location"]).content.decode()
    assert LICENCE in agreement and "on behalf of <strong>Team A</strong>" in agreement
    assert not LicenceAcceptance.objects.exists()


def test_accepting_records_who_and_when_and_opens_the_download(
    licensed: Corpus, site: Site, participant: User, organiser: User, client_for: ClientFor
) -> None:
    client = client_for(participant)
    answer = client.post(AGREEMENT, {"next": TEST})
    assert answer.status_code == 302 and answer["Location"] == TEST
    acceptance = LicenceAcceptance.objects.get()
    assert (acceptance.site, acceptance.accepted_by) == (site, participant)
    assert acceptance.accepted_at is not None
    download = client.get(TEST)
    assert download.status_code == 200 and "我们在北京工作" in streamed(download).decode()
    page = client_for(organiser).get("/bakeoffs/b2026/corpora/PK/").content.decode()
    assert LICENCE in page and "Team A" in page and "pat" in page


def test_one_acceptance_serves_every_member_of_the_site(
    licensed: Corpus, site: Site, participant: User, client_for: ClientFor
) -> None:
    client_for(participant).post(AGREEMENT)
    pia = make_user("pia")
    site.members.add(pia)
    assert client_for(pia).get(TEST).status_code == 200


def test_a_changed_licence_is_accepted_again(
    licensed: Corpus, site: Site, participant: User, organiser: User, client_for: ClientFor
) -> None:
    client = client_for(participant)
    client.post(AGREEMENT)
    assert client.get(TEST).status_code == 200
    client_for(organiser).post(
        "/bakeoffs/b2026/corpora/PK/agreement/edit/", {"licence": LICENCE + " Cite the paper."}
    )
    assert client.get(TEST).status_code == 302
    client.post(AGREEMENT)
    assert client.get(TEST).status_code == 200
    assert LicenceAcceptance.objects.count() == 2


def test_organisers_download_without_an_agreement(
    licensed: Corpus, organiser: User, client_for: ClientFor
) -> None:
    assert client_for(organiser).get(TEST).status_code == 200


def test_only_registered_sites_accept(
    licensed: Corpus, outsider: User, client_for: ClientFor
) -> None:
    answer = client_for(outsider).post(AGREEMENT)
    assert answer.status_code == 403
    assert not LicenceAcceptance.objects.exists()
    assert client_for(outsider).get(TEST).status_code == 403


def test_a_corpus_without_licence_downloads_at_once(
    corpus: Corpus, site: Site, participant: User, client_for: ClientFor
) -> None:
    assert client_for(participant).get(TEST).status_code == 200


def test_the_agreement_never_redirects_off_site(
    licensed: Corpus, site: Site, participant: User, client_for: ClientFor
) -> None:
    answer = client_for(participant).post(AGREEMENT, {"next": "https://evil.example.org/"})
    assert answer["Location"] == "/bakeoffs/b2026/corpora/PK/"


def test_a_corpus_is_created_with_its_licence(bakeoff: Bakeoff) -> None:
    corpus = services.do_create_corpus(
        bakeoff,
        services.CorpusFiles(gold=GOLD.encode()),
        name="MSR corpus",
        abbreviation="MSR",
        institution="Microsoft Research",
        licence=f"  {LICENCE}\n",
    )
    assert corpus.licence == LICENCE
