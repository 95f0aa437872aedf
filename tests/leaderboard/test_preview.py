"""An organiser sees a bakeoff's pages as the public or a site sees them (``?view=public``,
``?view=participant&site=<pk>``, bakeoff/access.py ``preview_for``): the pages then decide as that
reader, so the blind phase stays sealed in the preview, and the parameter gives anyone else
nothing. The world is the blind-phase walk's (tests/leaderboard/blind_phase_world.py)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User

from bakeoff.models import Site
from tests.leaderboard import blind_phase_world
from tests.leaderboard.blind_phase_walk import (
    Audit,
    Page,
    figure_pattern,
    forbidden_for_participant,
    forbidden_for_personas,
)
from tests.leaderboard.blind_phase_world import B, World

pytestmark = pytest.mark.django_db

# the blind-phase walk's world, built once for the module (tests/module_world.py): the tests only
# read it
world, world_once, quick_analysis = (
    blind_phase_world.world_built_once,
    blind_phase_world.world_once,
    blind_phase_world.quick_analysis,
)

organiser = blind_phase_world.organiser_built_once


BANNER = 'class="card preview" role="status"'
PREVIEW_BANNER = re.compile(r'<div class="card preview" role="status">.*?</div>', re.S)
QUERY = re.compile(r"(view(=|%3D)\w+|site(=|%3D)\d+)(&amp;|%26)?")
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="[^"]+"|nonce="[^"]+"')


def previewed(world: World) -> list[str]:
    """The pages an organiser may see as another reader: the bakeoff's page, its results, and
    each track's table and table by domain."""
    urls = [B, B + "results/"]
    for t in world.tracks:
        urls += [f"{B}tracks/{t.slug}/", f"{B}tracks/{t.slug}/domains/"]
    return urls


def without_query(text: str) -> str:
    """A page without its tokens, and without the parameters in the links that keep the query
    (sorting links, the language menu's return address)."""
    text = QUERY.sub("", CSRF.sub("", text))
    return re.sub(r"(%3F|\?)(?=[\"&])", "", text)


def rival_site(world: World) -> Site:
    return Site.objects.get(bakeoff=world.bakeoff, name="Rivals")


def walk(client: Any, who: str, urls: list[str], query: str, forbidden: Any) -> Audit:
    audit = Audit()
    for url in urls:
        answer = client.get(url + query)
        assert answer.status_code in (200, 404), f"{who} {url}{query}: {answer.status_code}"
        # the banner is the organiser's own (it lists every site to switch to), not the reader's
        shown = PREVIEW_BANNER.sub("", answer.content.decode())
        audit.check(who, Page(url + query, "html"), shown, forbidden)
    return audit


def test_the_public_view_hides_what_the_public_may_not_see(
    world: World, client_for: Any, organiser: User
) -> None:
    forbidden = forbidden_for_personas(world, "anonymous")
    audit = walk(
        client_for(organiser),
        "organiser as the public",
        previewed(world),
        "?view=public",
        forbidden,
    )
    assert audit.leaks == [], "\n".join(audit.leaks)
    assert len(forbidden.tokens) > 30 and audit.pages == len(previewed(world))


def test_a_sites_view_shows_what_its_members_see_and_nothing_else(
    world: World, client_for: Any, organiser: User
) -> None:
    forbidden = forbidden_for_participant(world)
    query = f"?view=participant&site={world.site.pk}"
    audit = walk(client_for(organiser), "organiser as a site", previewed(world), query, forbidden)
    assert audit.leaks == [], "\n".join(audit.leaks)
    # not vacuous: the site's own figures and rows are there, ranked among the rows shown
    text = client_for(organiser).get(f"{B}tracks/pk-closed/{query}").content.decode()
    assert "0.815" in text and "among the runs you may see" in text


def test_without_the_parameter_the_organiser_sees_every_run(
    world: World, client_for: Any, organiser: User
) -> None:
    """The probes find what the previews hide: every hidden F is on the organiser's own page."""
    client = client_for(organiser)
    own = client.get(f"{B}tracks/pk-closed/").content.decode()
    public = client.get(f"{B}tracks/pk-closed/?view=public").content.decode()
    for run in world.hidden[3:]:
        score = run.current_score()
        assert score is not None
        assert figure_pattern(f"{score.f:.3f}").search(own)
        assert not figure_pattern(f"{score.f:.3f}").search(public)


@pytest.mark.parametrize("persona", ["participant", "no site", "anonymous"])
@pytest.mark.parametrize("view", ["public", "participant"])
def test_anyone_else_passing_the_parameter_gains_nothing(
    world: World, client_for: Any, persona: str, view: str
) -> None:
    user = world.participant if persona == "participant" else world.personas[persona]
    client = client_for(user)
    query = f"?view={view}&site={rival_site(world).pk}"
    for url in previewed(world):
        plain, asked = client.get(url), client.get(url + query)
        assert asked.status_code == plain.status_code, url
        shown = without_query(asked.content.decode())
        assert BANNER not in shown and "See this page as" not in shown
        assert shown == without_query(plain.content.decode()), url
    forbidden = (
        forbidden_for_participant(world)
        if persona == "participant"
        else forbidden_for_personas(world, persona)
    )
    audit = walk(client, persona, previewed(world), query, forbidden)
    assert audit.leaks == [], "\n".join(audit.leaks)


def test_the_banner_says_who_and_leads_back(world: World, client_for: Any, organiser: User) -> None:
    client = client_for(organiser)
    own = client.get(B).content.decode()
    assert 'href="?view=public"' in own and 'href="?view=participant"' in own
    public = client.get(B + "?view=public").content.decode()
    assert BANNER in public and "as the public sees it" in public
    assert f'<a href="{B}">Back to your own view</a>' in public
    assert f'href="?view=participant&amp;site={world.site.pk}"' in public  # another view
    assert "Edit timetable and settings" in own and "Edit timetable and settings" not in public
    site = client.get(f"{B}?view=participant&site={world.site.pk}").content.decode()
    assert f"as the members of {world.site} see it" in site
    assert "Own Team" in site[site.index("<h2>Your site</h2>") :]  # its registrations
    track = client.get(f"{B}tracks/pk-closed/?view=public").content.decode()
    assert BANNER in track and f'<a href="{B}tracks/pk-closed/">Back to your own view</a>' in track


def test_a_participant_view_without_a_site_named_takes_the_first(
    world: World, client_for: Any, organiser: User
) -> None:
    first = Site.objects.filter(bakeoff=world.bakeoff).order_by("number", "name", "pk").first()
    assert first is not None
    text = client_for(organiser).get(B + "?view=participant").content.decode()
    assert f"as the members of {first} see it" in text


@pytest.mark.parametrize(
    ("language", "words"),
    [("zh-hans", "您正在以公众的视角查看此页面"), ("zh-hant", "您正在以公眾的視角查看此頁面")],
)
def test_the_banner_is_in_the_readers_language(
    world: World, client_for: Any, organiser: User, language: str, words: str
) -> None:
    client = client_for(organiser)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    for url in (B, B + "results/", f"{B}tracks/pk-closed/"):
        assert words in client.get(url + "?view=public").content.decode(), url
