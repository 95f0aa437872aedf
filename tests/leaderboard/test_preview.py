"""An organiser sees a bakeoff's pages as the public or a site sees them (``?view=public``,
``?view=participant&site=<pk>``, bakeoff/access.py ``preview_for``): the pages then decide as that
reader, so the blind phase stays sealed in the preview, and the parameter gives anyone else
nothing. The world is the blind-phase walk's (tests/leaderboard/blind_phase_world.py)."""

from __future__ import annotations

import html
import re
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from django.conf import settings
from django.contrib.auth.models import User

from bakeoff import access
from bakeoff.models import Site
from bakeoff.previews import honours
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


LINK = re.compile(r'\s(?:href|src)="([^"]*)"')


def links_of(text: str) -> list[str]:
    """The addresses of a page's links and images but the banner's (which choose a view)."""
    return [html.unescape(url) for url in LINK.findall(PREVIEW_BANNER.sub("", text))]


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
    assert '<a href="?view=own">Back to your own view</a>' in public
    assert f'href="?view=participant&amp;site={world.site.pk}"' in public  # another view
    assert "Edit timetable and settings" in own and "Edit timetable and settings" not in public
    site = client.get(f"{B}?view=participant&site={world.site.pk}").content.decode()
    assert f"as the members of {world.site} see it" in site
    assert "Own Team" in site[site.index("<h2>Your site</h2>") :]  # its registrations
    track = client.get(f"{B}tracks/pk-closed/?view=public").content.decode()
    assert BANNER in track and '<a href="?view=own">Back to your own view</a>' in track
    # the way back is the organiser's own page, whose links carry no preview
    back = client.get(f"{B}tracks/pk-closed/?view=own").content.decode()
    assert BANNER not in back and "See this page as" in back
    chosen = {"?view=public", "?view=participant"}  # the organiser's choices of a preview
    views = {
        view
        for url in links_of(back)
        if url not in chosen
        for view in parse_qs(urlsplit(url).query).get("view", [])
    }
    assert views == {access.OWN}  # the sorting links keep the page's query


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


def previews(world: World) -> dict[str, dict[str, list[str]]]:
    return {
        "public": {"view": ["public"]},
        "participant": {"view": ["participant"], "site": [str(world.site.pk)]},
    }


@pytest.mark.parametrize("kind", ["public", "participant"])
def test_every_link_of_a_preview_to_a_page_that_honours_it_keeps_it(
    world: World, client_for: Any, organiser: User, kind: str
) -> None:
    """Whoever wrote the link (a template, a table's column, a view), it leads on in the preview
    where the page it leads to honours one, and out of it (no ``view``) where not."""
    client = client_for(organiser)
    asked = previews(world)[kind]
    query = "?" + "&".join(f"{name}={values[0]}" for name, values in asked.items())
    runs = [f"{B}tracks/pk-closed/runs/{run.pk}/" for run in world.mine]
    pages = [*previewed(world), *runs, *(run + "analysis/" for run in runs)]
    carried, left = set(), set()
    for page in pages:
        answer = client.get(page + query)
        assert answer.status_code in (200, 404), page
        if answer.status_code == 404:  # a table by domain of a corpus without domains
            continue
        for url in links_of(answer.content.decode()):
            parts = urlsplit(url)
            if parts.netloc or not (parts.path or parts.query):
                continue
            target = parts.path or page
            found = parse_qs(parts.query)
            if honours(target):
                assert {k: found.get(k) for k in asked} == asked, f"{url} on {page}{query}"
                carried.add(target)
            else:
                assert "view" not in found and "site" not in found, f"{url} on {page}{query}"
                left.add(target)
    # not vacuous: the tables, and for a site the runs, exports and plots it sees, are linked
    assert f"{B}tracks/pk-closed/" in carried and f"{B}corpora/PK/" in left, (carried, left)
    if kind == "participant":
        assert any("/runs/" in url for url in carried) and any(".csv" in u for u in carried)
        assert any(url.endswith(".svg") for url in carried), carried
        assert any(url.endswith("/analysis/") for url in carried), carried


def test_following_the_links_of_a_preview_never_leaves_the_previewed_readers_view(
    world: World, client_for: Any, organiser: User
) -> None:
    """From the bakeoff's page seen as a site, every page its links reach (and theirs) is seen as
    the site sees it: the banner says so and no hidden figure is on it."""
    client = client_for(organiser)
    forbidden = forbidden_for_participant(world)
    start = f"{B}?view=participant&site={world.site.pk}"
    seen, waiting, audit = {start}, [start], Audit()
    while waiting:
        url = waiting.pop()
        answer = client.get(url)
        assert answer.status_code in (200, 404), f"{url}: {answer.status_code}"
        if answer.status_code == 404 or not answer["Content-Type"].startswith("text/html"):
            continue
        text = answer.content.decode()
        assert BANNER in text, url
        audit.check(
            "organiser as a site", Page(url, "html"), PREVIEW_BANNER.sub("", text), forbidden
        )
        for link in links_of(text):
            parts = urlsplit(link)
            if parts.netloc or not parts.path.startswith(B) or "view" not in parts.query:
                continue
            if link not in seen and len(seen) < 60:
                seen.add(link)
                waiting.append(link)
    assert audit.leaks == [], "\n".join(audit.leaks)
    assert audit.pages >= 8 and any("/runs/" in url for url in seen), sorted(seen)


def test_the_bakeoffs_plots_are_previewed_with_its_results(
    world: World, client_for: Any, organiser: User
) -> None:
    """The results page's plots were drawn for the organiser inside a preview as the public."""
    client = client_for(organiser)
    assert client.get(f"{B}results/f.svg").status_code == 200
    # before publication the public sees no row, so no plot
    assert client.get(f"{B}results/f.svg?view=public").status_code == 404


def test_only_a_page_marked_as_honouring_a_preview_reads_one(
    world: World, rf: Any, organiser: User
) -> None:
    """The mark lists the pages that honour a preview: any other asking for one is a mistake."""
    from django.urls import resolve

    request = rf.get(f"{B}register/?view=public")
    request.user = organiser
    request.resolver_match = resolve(f"{B}register/")
    with pytest.raises(TypeError, match="honours_preview"):
        access.preview_for(request, world.bakeoff)
    request.resolver_match = resolve(B)
    assert access.preview_for(request, world.bakeoff) == access.Preview(
        access.PUBLIC,
        sites=tuple(Site.objects.filter(bakeoff=world.bakeoff).order_by("number", "name", "pk")),
    )


def test_the_apis_results_take_the_same_preview(
    world: World, client_for: Any, organiser: User
) -> None:
    """The API's results of a track, as the track's JSON export: seen as the public (nothing
    before publication) or as a site (its own runs, none of the hidden ones)."""
    client = client_for(organiser)
    url = "/api/bakeoffs/b2026/tracks/pk-closed/results/"
    own = client.get(url).json()
    assert len(own["rows"]) > len(world.hidden)
    assert client.get(url + "?view=public").status_code == 404
    site = client.get(f"{url}?view=participant&site={world.site.pk}").json()
    shown = {row["name"] for row in site["rows"]}
    assert "Own Team" in shown and len(site["rows"]) < len(own["rows"])
    assert not any(name and ("Planted" in name or "Rivals" in name) for name in shown), shown


def test_the_analysis_compares_within_the_preview(
    world: World, client_for: Any, organiser: User
) -> None:
    """The analysis tab's choice of a run to compare with is a form: it asks in the preview too,
    among the runs the site may see."""
    client = client_for(organiser)
    mine, other = world.mine
    page = f"{B}tracks/pk-closed/runs/{mine.pk}/analysis/"
    query = f"view=participant&site={world.site.pk}"
    text = client.get(f"{page}?{query}").content.decode()
    assert BANNER in text
    form = text[text.index('<form method="get" class="compare">') :]
    form = form[: form.index("</form>")]
    assert '<input type="hidden" name="view" value="participant">' in form
    assert f'<input type="hidden" name="site" value="{world.site.pk}">' in form
    hidden = world.hidden[0]
    assert f'value="{hidden.pk}"' not in form  # a rival's run is not offered
    assert client.get(f"{page}?{query}&with={hidden.pk}").status_code == 404
    assert client.get(f"{page}?{query}&with={other.pk}").status_code == 200
    assert client.get(f"{page}?with={hidden.pk}").status_code == 200  # the organiser's own view
