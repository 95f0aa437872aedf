"""A walk of the blind phase: what each reader may not be shown (``Forbidden``), every URL of the
bakeoff a reader can GET (``pages``; every URL name of the platform is walked there or excused in
tests/leaderboard/test_blind_phase.py), and how one answer is checked (``Audit``).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import User
from django.test import Client

from analysis.models import RunAnalysis, TrackAnalysis
from bakeoff.models import Corpus, Score, Site, Submission, Track
from leaderboard.models import TrackRanking, TrackStanding
from notifications.models import Mail
from psychometric.models import BALANCED
from tests.factories import FIELDS
from tests.leaderboard.blind_phase_world import API, B, World

# -- what may not be shown -------------------------------------------------------------------------


def _renderings(value: float | int | None) -> set[str]:
    """How a figure can appear: 3 and 4 decimals, as a percentage, raw in JSON; counts as they are
    (those of the planted runs only: the tiny gold's counts are everywhere)."""
    if value is None:
        return set()
    if isinstance(value, int) and not isinstance(value, bool):
        return (
            {str(value), f"{value:,}", f"{value:,}".replace(",", "{,}")} if value > 999 else set()
        )
    found = {f"{value:.3f}", f"{value:.4f}"}
    raw = repr(float(value))
    return found | ({raw} if len(raw) > 6 else set())  # "0.5" is a word of the pages' prose


def _numbers(data: Any) -> set[str]:
    """The renderings of every number in stored JSON."""
    if isinstance(data, dict):
        return set().union(set(), *(_numbers(v) for v in data.values()))
    if isinstance(data, list):
        return set().union(set(), *(_numbers(v) for v in data))
    if isinstance(data, float | int) and not isinstance(data, bool):
        return _renderings(data)
    return set()


def _own_analysis(standings: list[TrackStanding]) -> set[str]:
    """What the analysis computed from visible runs alone: their buckets and self-diagnosis, and
    the paired bootstrap of two visible runs."""
    shown = {s.submission_id for s in standings}
    found: set[str] = set()
    for run in RunAnalysis.objects.filter(submission_id__in=shown):
        found |= _numbers(run.buckets) | _numbers(run.self_diagnosis)
    for analysis in TrackAnalysis.objects.all():
        for pair in analysis.pairs.values():
            if {pair["upper"], pair["lower"]} <= shown:
                found |= _numbers(pair)
    return found


def _figures(standing: TrackStanding) -> set[str]:
    score = standing.score
    values: list[Any] = [getattr(score, name) for name in FIELDS if name != "oov_rate"]
    values += [standing.cr, standing.cp, standing.cf, standing.f_b]
    balanced = Score.objects.filter(submission_id=standing.submission_id, metric=BALANCED).first()
    if balanced is not None:
        values += [balanced.recall, balanced.precision, balanced.f]
    return set().union(*(_renderings(v) for v in values))


def _statistics(track: Track) -> set[str]:
    """The track's statistics over every system: its attribute profile (α^ρ, Friedman)."""
    analysis = TrackAnalysis.objects.filter(track=track).first()
    found: set[str] = set()
    for p in analysis.profile if analysis else []:
        for key in ("alpha_rho", "friedman_statistic", "friedman_p"):
            found |= _renderings(p.get(key))
    return found


def _visible_to_participant(world: World, standing: TrackStanding) -> bool:
    pk_closed = world.tracks[0]
    return standing.track_id == pk_closed.pk and (
        standing.site_id is None or standing.site_id == world.site.pk
    )


@dataclass(frozen=True)
class Forbidden:
    tokens: frozenset[str]  # figures that may not appear
    phrases: tuple[str, ...]  # words and names that may not appear
    max_rank: int  # no rank above this


def forbidden_for_participant(world: World) -> Forbidden:
    seen: set[str] = set()
    unseen: set[str] = set()
    derived: set[str] = set()
    standings = list(TrackStanding.objects.select_related("score"))
    seen |= _own_analysis([s for s in standings if _visible_to_participant(world, s)])
    for standing in standings:
        if _visible_to_participant(world, standing):
            figures = _figures(standing)
            seen |= figures - {*_renderings(standing.f_b)}
            # F_b comes from a committee of every scored run: derived from hidden ones.
            derived |= _renderings(standing.f_b)
        else:
            unseen |= _figures(standing)
    for t in world.tracks:
        derived |= _statistics(t)
    return Forbidden(
        tokens=frozenset((unseen | derived) - seen),
        phrases=(
            "Rivals",
            "Planted",
            "Hidden Lab",
            "Elsewhere Team",
            "S02",
            "S50",
            "S51",
            "2024-02-29",
            "ranked run",
            "All systems",
            "ranked_runs",
            "Friedman χ²",
            "Attribute profile of the track",
            "No neighbouring run you may see",
        ),
        max_rank=len(world.mine),
    )


def forbidden_for_personas(world: World, persona: str) -> Forbidden:
    """Every figure of PK closed, but those the persona sees elsewhere (BASE and TOP of AS closed
    for the site approved there, which share some figures with PK's)."""
    pk_closed = world.tracks[0]
    figures: set[str] = set()
    for standing in TrackStanding.objects.filter(track=pk_closed).select_related("score"):
        figures |= _figures(standing)
    figures |= _renderings(TrackRanking.objects.get(track=pk_closed).oov_rate)
    if persona == "site of another corpus":
        as_closed = world.tracks[2]
        elsewhere = list(
            TrackStanding.objects.filter(track=as_closed, site=None).select_related("score")
        )
        for standing in elsewhere:
            figures -= _figures(standing) - _renderings(standing.f_b)
        figures -= _own_analysis(elsewhere)
        figures -= _renderings(TrackRanking.objects.get(track=as_closed).oov_rate)
    return Forbidden(
        tokens=frozenset(figures),
        phrases=("Own Team", "Rivals", "Planted", "S01", "S02", "2024-02-29", "ranked run"),
        max_rank=0,
    )


# -- the pages -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Page:
    url: str
    kind: str  # html, csv, json, tex, svg, text, api


def _kind(url: str) -> str:
    if url.startswith("/api/"):
        return "api"
    for ending, kind in ((".csv", "csv"), (".json", "json"), (".tex", "tex"), (".svg", "svg")):
        if url.endswith(ending):
            return kind
    return "text" if url.endswith(".txt") else "html"


def pages(world: World) -> list[Page]:
    """Every URL of the bakeoff a reader can GET, with every run's and corpus's."""
    urls = [
        "/",
        B,
        B + "results/",
        B + "results/f.svg",
        B + "results/oov.svg",
        B + "submissions/",
        B + "register/",
        B + "participants/",
        B + "registrations/",
        B + "mail/",
        B + "organisers/",
        "/account/",
        "/account/name/",
    ]
    for site in Site.objects.filter(bakeoff=world.bakeoff):
        urls += [f"{B}participants/{site.pk}/edit/", f"{B}participants/{site.pk}/register/"]
    for corpus in Corpus.objects.filter(bakeoff=world.bakeoff):
        c = f"{B}corpora/{corpus.abbreviation}/"
        urls += [c, c + "agreement/", c + "edit/"]
        urls += [f"{c}download/{kind}/" for kind in ("training", "training-words", "test", "gold")]
    runs = Submission.objects.filter(track__corpus__bakeoff=world.bakeoff).select_related("track")
    urls += [f"{B}results/all-tracks.{ending}" for ending in ("csv", "json", "tex")]
    for t in world.tracks:
        ends = ("", "results.csv", "results-excel.csv", "results.json")
        urls += [f"{B}tracks/{t.slug}/{end}" for end in ends]
        urls += [f"{B}tracks/{t.slug}/{end}" for end in ("results.tex", "f.svg", "upload/")]
        urls.append(f"{B}tracks/{t.slug}/domains/")
        urls.append(f"{API}{t.slug}/submissions/")
    # The API's reads (docs/api-errors.md): the same rules as the pages, with a token or a session.
    api = "/api/bakeoffs/b2026/"
    urls += ["/api/bakeoffs/", api] + [api + end for end in ("tracks/", "corpora/", "sites/")]
    urls += [api + "registrations/", api + "runs/"]
    for corpus in Corpus.objects.filter(bakeoff=world.bakeoff):
        kinds = ("training_text", "training_words", "test_text", "gold", "development_text")
        urls += [f"{api}corpora/{corpus.abbreviation}/files/{kind}/" for kind in kinds]
    urls += [f"{API}{t.slug}/results/" for t in world.tracks]
    for run in runs:
        r = f"{B}tracks/{run.track.slug}/runs/{run.pk}/"
        urls += [r, r + "analysis/", r + "comparison.txt"]
        urls += [f"{r}analysis/?with={o.pk}" for o in runs if o.track_id == run.track_id != o.pk]
        urls += [f"{B}submissions/{run.pk}/", f"{API}{run.track.slug}/submissions/{run.pk}/"]
    return [Page(url, _kind(url)) for url in urls]


# -- checking one answer ---------------------------------------------------------------------------


def _ranks(page: Page, text: str) -> list[int]:
    """The ranks an answer shows, read the way each format writes them."""
    if page.kind == "json":
        try:
            data = json.loads(text)
        except ValueError:
            return []
        return [row["rank"] for row in data.get("rows", []) if row.get("rank") is not None]
    if page.kind == "csv":
        lines = text.splitlines()[1:]
        return [int(line.split(",", 1)[0]) for line in lines if line.split(",", 1)[0].isdigit()]
    if page.kind == "tex":
        cells = (line.split(" & ", 1)[0] for line in text.splitlines() if " & " in line)
        return [int(c) for c in cells if c.isdigit()]
    found = re.findall(r'<tr class="[^"]*"><td class="num">(\d+)</td>', text)
    found += re.findall(r"\brank (\d+)", text)
    return [int(n) for n in found]


# Random strings of a page (CSRF tokens, CSP nonces) may hold "S02" by chance.
RANDOM = re.compile(r'(?:value|nonce|content)="[A-Za-z0-9+/=_-]{20,}"')


def figure_pattern(token: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\d.]){re.escape(token)}(?!\d)")


@dataclass
class Audit:
    checked: int = 0
    pages: int = 0
    leaks: list[str] = field(default_factory=list)

    def check(self, who: str, page: Page, text: str, forbidden: Forbidden) -> None:
        self.pages += 1
        text = RANDOM.sub("", text)
        for token in sorted(forbidden.tokens):
            self.checked += 1
            # the pattern matches the token as written: where it is not a substring, no search
            # (a walk checks some 45,000 (answer, token) pairs, few of them with the token there)
            if token in text and figure_pattern(token).search(text):
                self.leaks.append(f"{who} {page.url}: figure {token}")
        for phrase in forbidden.phrases:
            self.checked += 1
            if re.search(rf"(?<!\w){re.escape(phrase)}(?!\w)", text):
                self.leaks.append(f"{who} {page.url}: {phrase!r}")
        self.checked += 1
        ranks = [r for r in _ranks(page, text) if r > forbidden.max_rank]
        if ranks:
            self.leaks.append(f"{who} {page.url}: rank {max(ranks)}")


def _body(client: Client, page: Page) -> tuple[int, str]:
    answer = client.get(page.url)
    if answer.streaming:
        return answer.status_code, b"".join(answer.streaming_content).decode()  # type: ignore[attr-defined]
    return answer.status_code, answer.content.decode()


def walk(client: Client, who: str, world: World, forbidden: Forbidden, audit: Audit) -> None:
    for page in pages(world):
        status, text = _body(client, page)
        assert status < 500, f"{who} {page.url}: {status}"
        audit.check(who, page, text, forbidden)


def mails_to(user: User) -> str:
    return "\n".join(
        f"{m.subject}\n{m.text}\n{m.html}" for m in Mail.objects.filter(recipient=user)
    )
