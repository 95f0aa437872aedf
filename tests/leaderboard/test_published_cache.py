"""A published version is served as what it is (issue 25): every page, export and plot of it
carries an ETag and Last-Modified and answers 304 to a returning reader; its bytes are rendered
once per version, language and viewer class and shared by the web processes; an erratum is seen
at once; and a copy is never served to a reader who may see more or less than whom it was made
for (leaderboard/published.py, leaderboard/served.py).

The world of the participant's run before publication is built once for the module."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.db import connection
from django.http import HttpResponseBase
from django.test import Client
from django.test.utils import CaptureQueriesContext

from bakeoff import services
from bakeoff.models import Bakeoff, Corpus, Site, Track
from leaderboard.services import do_publish_erratum
from tests.factories import (
    GOLD,
    WORKED_RUN,
    make_scored_runs,
    make_user,
    publish,
    rival,
    upload,
)
from tests.hints import ClientFor, OnCommit
from tests.module_world import captured_on_commit, module_world, taken_from_world

from .registered_world import SHARED, Registered, registered

pytestmark = pytest.mark.django_db

TRACK = "/bakeoffs/b2026/tracks/pk-closed/"
# the page, its exports and its plot, and the same of the version named in the URL
PATHS = ("", "results.json", "results.csv", "results.tex", "f.svg")
V1_TRACK = "/bakeoffs/b2026/results/v1/tracks/pk-closed/"
NONCE = re.compile(r'<style nonce="([^"]+)"')


def build_world(on_commit: OnCommit) -> Registered:
    """The participant's site with one scored run, the results not published."""
    world = registered(on_commit)
    upload(world.participant, world.closed, WORKED_RUN, on_commit)
    # What is kept in the cache is what these tests look at: none of it may come from the build.
    cache.clear()
    return world


# Every test here starts before publication, and what it changes (a publication, an erratum,
# runs, members) is rolled back (tests/module_world.py).
built, mine = module_world("published_cache", lambda: build_world(captured_on_commit))
bakeoff, corpus, closed, site, participant, organiser = map(taken_from_world, SHARED)


@pytest.fixture
def ran(site: Site) -> Site:
    """The participant's site, with its run (of the world)."""
    return site


def published_keys() -> list[str]:
    return [key for key in cache._cache if ":published:" in key]  # type: ignore[attr-defined]


RESULTS = "/bakeoffs/b2026/results/"
BAKEOFF_PATHS = [RESULTS, RESULTS + "f.svg", RESULTS + "oov.svg", RESULTS + "v1/"]


@pytest.mark.parametrize(
    "path", [TRACK + p for p in PATHS] + [V1_TRACK, V1_TRACK + "results.json", *BAKEOFF_PATHS]
)
def test_a_returning_reader_gets_304_from_the_etag_or_the_date(
    bakeoff: Bakeoff, ran: Site, anonymous: Client, path: str
) -> None:
    publish(bakeoff)
    first = anonymous.get(path)
    assert first.status_code == 200
    etag, modified = first["ETag"], first["Last-Modified"]
    assert anonymous.get(path, HTTP_IF_NONE_MATCH=etag).status_code == 304
    assert anonymous.get(path, HTTP_IF_MODIFIED_SINCE=modified).status_code == 304
    assert anonymous.get(path, HTTP_IF_NONE_MATCH='"another"').status_code == 200
    # in another language the page is another representation (the JSON is English for all)
    other = anonymous.get(path, HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert (other["ETag"] == etag) == path.endswith("results.json")


def test_an_anonymous_page_is_rendered_once_and_served_with_this_requests_nonce(
    bakeoff: Bakeoff, ran: Site, anonymous: Client
) -> None:
    publish(bakeoff)
    first = anonymous.get(TRACK)
    with CaptureQueriesContext(connection) as rendered_again:
        second = anonymous.get(TRACK)
    assert len(rendered_again) <= 3  # the track, its version, its papers: no frozen track read
    assert published_keys()
    one, two = NONCE.search(first.content.decode()), NONCE.search(second.content.decode())
    assert one and two and one[1] != two[1]
    assert f"'nonce-{two[1]}'" in second["Content-Security-Policy"]
    assert second.content.replace(two[1].encode(), one[1].encode()) == first.content
    # nothing in it is one reader's: no CSRF token, no cookie
    assert b"csrfmiddlewaretoken" not in second.content
    assert not second.cookies


def test_an_erratum_is_seen_at_once(
    bakeoff: Bakeoff, ran: Site, corpus: Corpus, anonymous: Client, on_commit: OnCommit
) -> None:
    publish(bakeoff)
    for path in PATHS:
        anonymous.get(TRACK + path)  # kept in the cache
    anonymous.get(RESULTS + "v1/")
    before = anonymous.get(TRACK + "results.json").json()
    with on_commit():
        services.do_add_gold_version(
            corpus, GOLD.replace("今天 天气", "今天天气").encode(), note="one word"
        )
    do_publish_erratum(bakeoff, note="corrected")
    after = anonymous.get(TRACK + "results.json").json()
    assert (before["results_version"], after["results_version"]) == (1, 2)
    assert after["rows"] != before["rows"]
    assert "Results version 2" in anonymous.get(TRACK).content.decode()
    # the first version stays at its own address, as it was, and names the erratum
    assert anonymous.get(V1_TRACK + "results.json").json()["rows"] == before["rows"]
    assert "/results/v2/" in anonymous.get(RESULTS + "v1/").content.decode()


def test_a_copy_is_never_served_to_a_reader_who_may_see_more_or_less(
    bakeoff: Bakeoff,
    ran: Site,
    organiser: User,
    participant: User,
    anonymous: Client,
    client_for: ClientFor,
) -> None:
    member, olga = client_for(participant), client_for(organiser)
    # before publication nothing is kept and nothing may be kept
    for client in (anonymous, member, olga):
        page = client.get(TRACK)
        assert "public" not in page.get("Cache-Control", "")
        assert not page.has_header("ETag")
    assert not published_keys()
    assert "Team A" not in anonymous.get(TRACK).content.decode()
    publish(bakeoff, mode="anonymised")
    for _ in range(2):
        shown = anonymous.get(TRACK).content.decode()
        assert "P1 run 1" in shown and "Team A" not in shown
    # the site's members see their own name and row; the organisers every name, rendered live
    mine = member.get(TRACK)
    assert "Team A" in mine.content.decode() and 'class="own' in mine.content.decode()
    assert "private" in mine["Cache-Control"]
    theirs = olga.get(TRACK)
    assert "Team A" in theirs.content.decode() and not theirs.has_header("ETag")
    assert "public" not in theirs.get("Cache-Control", "")
    # and the anonymous copy is still the anonymous one
    assert "Team A" not in anonymous.get(TRACK).content.decode()
    # exports: the members' class is their own
    assert (
        anonymous.get(TRACK + "results.json")["ETag"] != member.get(TRACK + "results.json")["ETag"]
    )


def test_only_anonymous_readers_without_a_session_may_be_served_by_the_proxy(
    bakeoff: Bakeoff, ran: Site, participant: User, anonymous: Client, client_for: ClientFor
) -> None:
    publish(bakeoff)
    for path in PATHS:
        control = anonymous.get(TRACK + path)["Cache-Control"]
        assert "public" in control and "max-age=30" in control
        assert "stale-while-revalidate=30" in control
        assert "private" in client_for(participant).get(TRACK + path)["Cache-Control"]
    with_token = anonymous.get(TRACK + "results.json", HTTP_AUTHORIZATION="Token abc")
    assert "public" not in with_token.get("Cache-Control", "")


def test_the_cache_turned_off_renders_every_request(
    bakeoff: Bakeoff, ran: Site, anonymous: Client, settings: object
) -> None:
    settings.BAKEOFF_PUBLISHED_CACHE = False  # type: ignore[attr-defined]
    publish(bakeoff)
    first = anonymous.get(TRACK)
    assert anonymous.get(TRACK, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    assert not [key for key in published_keys() if not key.endswith(":t")]


def test_the_language_menu_needs_a_token_only_from_a_signed_in_reader(
    participant: User,
) -> None:
    anonymous = Client(enforce_csrf_checks=True)
    answer = anonymous.post("/i18n/setlang/", {"language": "zh-hans", "next": "/"})
    assert answer.status_code == 302 and answer.cookies["django_language"].value == "zh-hans"
    signed_in = Client(enforce_csrf_checks=True)
    signed_in.force_login(participant)
    assert signed_in.post("/i18n/setlang/", {"language": "zh-hans"}).status_code == 403


def test_a_participants_table_is_rendered_once_for_their_site_and_their_header_is_their_own(
    bakeoff: Bakeoff,
    ran: Site,
    participant: User,
    client_for: ClientFor,
    closed: Track,
    settings: object,
) -> None:
    make_scored_runs(closed, 300)
    publish(bakeoff, mode="anonymised")
    member = client_for(participant)
    first = member.get(TRACK).content.decode()
    with CaptureQueriesContext(connection) as again:
        second = member.get(TRACK)
    # the session, its user, the track with its bakeoff, the sites, the version, the papers: no
    # frozen track read
    assert len(again) <= 6, [q["sql"] for q in again.captured_queries]
    assert second.content.decode().count("<tr") == first.count("<tr") >= 300
    # the kept page's inline style carries this request's nonce, the one its policy allows
    nonces = NONCE.findall(second.content.decode())
    assert nonces and all(f"'nonce-{n}'" in second["Content-Security-Policy"] for n in nonces)
    assert NONCE.findall(first)[0] != nonces[0]
    # another member of the same site: their own name in the header, the same table
    colleague = make_user("colleague")
    ran.members.add(colleague)
    theirs = client_for(colleague).get(TRACK).content.decode()
    assert "colleague" in theirs and ">pat<" not in theirs
    assert theirs.count('class="own') == first.count('class="own') > 0
    # a member of another site sees their own rows marked, not these
    _other_user, other = rival(bakeoff, closed)
    other.members.add(other_member := make_user("other-member"))
    elsewhere = client_for(other_member).get(TRACK).content.decode()
    assert 'class="own' not in elsewhere and "Team A" not in elsewhere
    # from the cache the table is not rendered again, only the header (how fast that is, is
    # benchmarks/readers.py's to measure, not a test's)
    assert TABLE not in rendered_templates(member.get(TRACK))
    settings.BAKEOFF_PUBLISHED_CACHE = False  # type: ignore[attr-defined]
    assert TABLE in rendered_templates(member.get(TRACK))


TABLE = "leaderboard/_track_content.html"


def rendered_templates(response: HttpResponseBase) -> set[str]:
    assert response.status_code == 200
    return {t.name for t in getattr(response, "templates", []) if t.name}


def test_a_page_that_shows_a_message_is_never_answered_304_later(
    bakeoff: Bakeoff, ran: Site, participant: User, client_for: ClientFor
) -> None:
    """A message is shown once: a browser's copy of the page that showed it carries no validator,
    so that it cannot come back by a 304 (the next page is the reader's usual one)."""
    publish(bakeoff)
    member = client_for(participant)
    member.get(TRACK)  # the form token's cookie, which the validator covers, is set
    usual = member.get(TRACK)
    member.post("/account/mail/", {"scored": "on"})  # leaves "saved" waiting
    shown = member.get(TRACK)
    assert b'class="messages' in shown.content or b"messages" in shown.content
    assert not shown.has_header("ETag") and not shown.has_header("Last-Modified")
    assert "no-store" in shown["Cache-Control"]
    assert member.get(TRACK, HTTP_IF_NONE_MATCH=usual["ETag"]).status_code == 304


def test_a_signed_in_readers_validator_changes_with_what_their_header_shows(
    bakeoff: Bakeoff, ran: Site, participant: User, client_for: ClientFor
) -> None:
    publish(bakeoff)
    member = client_for(participant)
    member.get(TRACK)  # the form token's cookie, which the validator covers, is set
    before = member.get(TRACK)["ETag"]
    assert member.get(TRACK, HTTP_IF_NONE_MATCH=before).status_code == 304
    participant.username = "renamed"
    participant.save()
    after = member.get(TRACK, HTTP_IF_NONE_MATCH=before)
    assert after.status_code == 200 and b"renamed" in after.content
    assert after["ETag"] != before


def test_a_version_is_rendered_for_its_first_readers_when_it_is_published(
    bakeoff: Bakeoff, ran: Site, anonymous: Client, on_commit: OnCommit, settings: object
) -> None:
    settings.CACHE_URL = "redis://shared"  # type: ignore[attr-defined]  # (the locmem stands in)
    with on_commit():
        publish(bakeoff)
    pages = [key for key in published_keys() if ":public:" in key and not key.endswith(":t")]
    # per track, per language the page, its CSV, LaTeX and plot; the JSON once (English)
    tracks = Track.objects.filter(corpus__bakeoff=bakeoff).count()
    assert len(pages) == tracks * (3 * 4 + 1) > 0
    with CaptureQueriesContext(connection) as first_reader:
        answer = anonymous.get(TRACK, HTTP_ACCEPT_LANGUAGE="zh-hant")
    assert answer.status_code == 200 and "已於" in answer.content.decode()
    assert len(first_reader) <= 3  # not rendered: read from the cache
    # an erratum renders its own
    with on_commit():
        services.do_add_gold_version(
            Corpus.objects.get(bakeoff=bakeoff),
            GOLD.replace("今天 天气", "今天天气").encode(),
            note="one word",
        )
    with on_commit():
        do_publish_erratum(bakeoff, note="corrected")
    assert any(":v2:public:" in key for key in published_keys())


def frozen_reads(queries: CaptureQueriesContext) -> list[str]:
    """The queries that read a frozen track (what a page kept in the cache never needs)."""
    return [q["sql"] for q in queries.captured_queries if "leaderboard_frozentrack" in q["sql"]]


def test_a_participants_page_is_their_sites_before_and_after_publication_and_an_erratum(
    bakeoff: Bakeoff,
    ran: Site,
    participant: User,
    organiser: User,
    closed: Track,
    corpus: Corpus,
    client_for: ClientFor,
    on_commit: OnCommit,
) -> None:
    rival_user, rivals = rival(bakeoff, closed)
    upload(rival_user, closed, WORKED_RUN.replace("今天 天气", "今天天气"), on_commit)
    member, theirs, olga = client_for(participant), client_for(rival_user), client_for(organiser)
    # before publication: each sees their own run only, rendered for them, nothing kept
    mine_before = member.get(TRACK)
    assert not mine_before.has_header("ETag") and "Rivals" not in mine_before.content.decode()
    assert "Team A" not in theirs.get(TRACK).content.decode()
    assert not published_keys()
    publish(bakeoff, mode="anonymised")
    for _ in range(2):  # rendered, then from the cache
        mine, other = member.get(TRACK).content.decode(), theirs.get(TRACK).content.decode()
        assert "Team A" in mine and "Rivals" not in mine and ">pat<" in mine
        assert "Rivals" in other and "Team A" not in other and ">rivals<" in other
        assert mine.count('class="own') == other.count('class="own') == 1
    with CaptureQueriesContext(connection) as kept:
        member.get(TRACK)
    assert not frozen_reads(kept)
    # the organiser's page is rendered for them: every name, nothing kept, no ETag
    organisers = olga.get(TRACK)
    assert "Team A" in organisers.content.decode() and "Rivals" in organisers.content.decode()
    assert not organisers.has_header("ETag")
    # an erratum is on the participants' pages at once
    with on_commit():
        services.do_add_gold_version(
            corpus, GOLD.replace("今天 天气", "今天天气").encode(), note="one word"
        )
    do_publish_erratum(bakeoff, note="corrected")
    for client, own in ((member, "Team A"), (theirs, "Rivals")):
        page = client.get(TRACK).content.decode()
        assert "Results version 2" in page and own in page
    assert rivals.pk != ran.pk


def test_a_runs_page_is_served_as_published_like_its_tracks(
    bakeoff: Bakeoff,
    ran: Site,
    participant: User,
    organiser: User,
    closed: Track,
    corpus: Corpus,
    anonymous: Client,
    client_for: ClientFor,
    on_commit: OnCommit,
) -> None:
    (run,) = ran.submissions.all()
    path = f"{TRACK}runs/{run.pk}/"
    member, olga = client_for(participant), client_for(organiser)
    rival_user, _rivals = rival(bakeoff, closed)
    outsider = client_for(rival_user)
    # before publication: rendered for whom may see it, nothing kept
    assert anonymous.get(path).status_code == 404
    before = member.get(path)
    assert before.status_code == 200 and not before.has_header("ETag")
    assert not published_keys()
    publish(bakeoff)
    first = anonymous.get(path)
    assert first.status_code == 200 and "public" in first["Cache-Control"]
    assert anonymous.get(path, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    assert anonymous.get(path, HTTP_IF_MODIFIED_SINCE=first["Last-Modified"]).status_code == 304
    with CaptureQueriesContext(connection) as kept:
        again = anonymous.get(path)
    assert not frozen_reads(kept) and again.status_code == 200
    # the comparison (the gold and the whole run) only for the run's own site, from its class
    assert "comparison.txt" not in first.content.decode()
    for _ in range(2):
        mine = member.get(path)
        assert "comparison.txt" in mine.content.decode() and ">pat<" in mine.content.decode()
        assert "private" in mine["Cache-Control"]
    with CaptureQueriesContext(connection) as kept:
        member.get(path)
    assert not frozen_reads(kept)
    assert member.get(path, HTTP_IF_NONE_MATCH=mine["ETag"]).status_code == 304
    others = outsider.get(path).content.decode()
    assert "comparison.txt" not in others and ">rivals<" in others and ">pat<" not in others
    # the organisers' page is theirs: rendered, no ETag
    organisers = olga.get(path)
    assert "comparison.txt" in organisers.content.decode() and not organisers.has_header("ETag")
    # an erratum: the run's figures against the new gold, at once, for every class
    assert "1 · canonical gold checksum" in first.content.decode()
    with on_commit():
        services.do_add_gold_version(
            corpus, GOLD.replace("今天 天气", "今天天气").encode(), note="one word"
        )
    do_publish_erratum(bakeoff, note="corrected")
    for client in (anonymous, member):
        assert "2 · canonical gold checksum" in client.get(path).content.decode()
    # the first version's page of the run stays as it was
    v1 = anonymous.get(f"{V1_TRACK}runs/{run.pk}/").content.decode()
    assert "1 · canonical gold checksum" in v1
