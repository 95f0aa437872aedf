"""The blind phase is sealed: before publication nobody learns a number derived from a run they
may not see, on any page, export, plot, API answer or mail of the bakeoff.

Two tables walk every URL of the bakeoff (the first test checks that no URL of the platform is
left out of them):

- as a participant of one site (approved on PK closed only, two runs there) while other sites'
  runs are present, some of them planted with distinctive figures: no hidden figure, site, rank
  above the visible count, total count, ranking time or statistic over hidden runs;
- as an account with no site, a member of a site whose registration is pending, one whose
  registration was refused, one approved on another corpus only, and anonymous: no figure of any
  run of PK closed (BASE and TOP included).

Each (page, field) pair checked is counted; ``test_the_tables_are_the_size_reported`` pins the
size reported in the issue's closing note.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.utils import timezone

import scoring
from analysis import prepared
from analysis.models import RunAnalysis, TrackAnalysis
from bakeoff import services
from bakeoff.models import (
    Bakeoff,
    Corpus,
    Registration,
    Score,
    Site,
    Submission,
    SubmissionKind,
    SubmissionStatus,
    Track,
)
from leaderboard.models import TrackRanking, TrackStanding
from leaderboard.services import rank_track
from notifications.models import Mail
from psychometric import services as psychometric
from psychometric.models import BALANCED
from tests.factories import (
    FIELDS,
    PERFECT_RUN,
    SPLIT_RUN,
    WORDS,
    WORKED_RUN,
    make_corpus,
    make_site,
    make_user,
    publish,
    rival,
    track,
    upload,
)
from tests.hints import OnCommit

pytestmark = pytest.mark.django_db

B = "/bakeoffs/b2026/"
API = "/api/bakeoffs/b2026/tracks/"
# Enough for every attribute (the profile and its Friedman test exist) and for a CRF committee.
TRAINING = (
    "结婚 的 和 尚未 结婚 的\n我们 在 北京 工作\n今天 天气 很 好\n"
    "我们 结婚 了\n北京 天气 很 好\n和尚 在 北京\n今天 我们 工作\n"
    "他们 尚未 结婚\n天气 好\n我们 的 北京\n"
) * 3
# A second corpus whose figures differ from PK's, nobody of the participant's site registered.
AS_GOLD = "他们 在 北京 结婚\n今天 我们 很 好\n天气 尚未 好\n"
AS_TEST = "他们在北京结婚\n今天我们很好\n天气尚未好\n"
AS_RUN = "他们 在北京 结婚\n今天 我们 很好\n天气 尚未 好\n"
# Hidden runs planted on PK closed with distinctive raw counts (true, test, correct, oov, correct
# oov): their F are 0.948, 0.917 (above the participant's runs) and 0.804 (between them).
PLANTED = (
    (100_000, 101_000, 95_311, 2_600, 1_987),
    (100_000, 99_000, 91_234, 2_600, 1_777),
    (100_000, 100_000, 80_371, 2_600, 1_234),
)
# When the planted runs were ranked: a time nobody but the organisers may learn.
RANKED_AT = datetime(2024, 2, 29, 3, 17, tzinfo=UTC)


@pytest.fixture(autouse=True)
def quick_analysis(settings: Any) -> Iterator[None]:
    settings.ANALYSIS_BOOTSTRAP_SAMPLES = 20
    prepared.clear()
    psychometric.clear()
    yield
    prepared.clear()
    psychometric.clear()


@pytest.fixture
def corpus(bakeoff: Bakeoff, on_commit: OnCommit) -> Corpus:
    with on_commit():
        return make_corpus(bakeoff, training=TRAINING)


@dataclass
class World:
    bakeoff: Bakeoff
    participant: User
    site: Site
    mine: list[Submission]
    hidden: list[Submission]
    tracks: list[Track]
    personas: dict[str, User | None] = field(default_factory=dict)


def _plant(track: Track, number: int) -> list[Submission]:
    """Runs of two synthetic sites scored with the PLANTED counts, stored as the platform would."""
    bakeoff = track.corpus.bakeoff
    gold = track.corpus.current_gold()
    assert gold is not None
    now = timezone.now()
    sites = [
        Site.objects.create(
            bakeoff=bakeoff,
            name=f"Planted {i}",
            institution="Hidden Lab",
            country="CN",
            commercial_product=False,
            number=number + i,
        )
        for i in range(2)
    ]
    signature = scoring.Signature("1.0.0", gold.checksum, track.corpus.dictionary_checksum)
    runs = []
    for i, (true, test, correct, oov, correct_oov) in enumerate(PLANTED):
        run = Submission.objects.create(
            track=track,
            site=sites[i // 2],
            kind=SubmissionKind.RUN,
            run_number=i % 2 + 1,
            max_runs=2,
            file="runs/planted.txt",
            checksum=f"sha256:planted{i}",
            size_bytes=0,
            received_at=now,
            status=SubmissionStatus.SCORED,
            status_changed_at=now,
        )
        figures = scoring.Score(
            true_words=true,
            test_words=test,
            correct=correct,
            oov_words=oov,
            correct_oov=correct_oov,
            insertions=0,
            deletions=0,
            substitutions=0,
            signature=signature,
        ).to_dict()
        Score.objects.create(
            submission=run,
            gold_version=gold,
            metric="word",
            **{k: figures[k] for k in FIELDS},
            result=figures,
            signature=str(signature),
            created_at=now,
        )
        runs.append(run)
    rank_track(track)
    TrackRanking.objects.filter(track=track).update(computed_at=RANKED_AT)
    return runs


@pytest.fixture
def world(
    bakeoff: Bakeoff, corpus: Corpus, participant: User, on_commit: OnCommit, outsider: User
) -> World:
    pk_closed, pk_open = track(corpus, "closed"), track(corpus, "open")
    with on_commit():
        other = make_corpus(
            bakeoff, abbreviation="AS", gold=AS_GOLD, test=AS_TEST, words=WORDS, training=TRAINING
        )
    as_closed = track(other, "closed")
    site = make_site(bakeoff, participant, [pk_closed], name="Own Team")
    mine = [
        upload(participant, pk_closed, WORKED_RUN, on_commit),
        upload(participant, pk_closed, SPLIT_RUN, on_commit),
    ]
    rivals, rival_site = rival(bakeoff, pk_closed, "Rivals")
    for t in (pk_open, as_closed):
        registration = Registration.objects.create(
            site=rival_site, track=t, created_at=timezone.now(), resources_statement="none"
        )
        services.do_approve_registration(registration, by=None)
    hidden = [
        upload(rivals, pk_closed, PERFECT_RUN, on_commit),
        upload(rivals, pk_open, WORKED_RUN, on_commit),
        upload(rivals, as_closed, AS_RUN, on_commit),
    ]
    # Balanced F from a committee of the corpus's scored runs: the rivals' runs among them.
    with on_commit():
        psychometric.do_start_committee(corpus, kind="runs", k=3)
    hidden += _plant(pk_closed, number=50)
    # The personas of the second table.
    pending, refused, elsewhere = make_user("penny"), make_user("rufus"), make_user("elsa")
    make_site(bakeoff, pending, [pk_closed], name="Pending Team", approved=False)
    refused_site = make_site(bakeoff, refused, [pk_closed], name="Refused Team", approved=False)
    services.do_refuse_registration(refused_site.registrations.get(), by=None, reason="no")
    make_site(bakeoff, elsewhere, [as_closed], name="Elsewhere Team")
    return World(
        bakeoff=bakeoff,
        participant=participant,
        site=site,
        mine=mine,
        hidden=hidden,
        tracks=[pk_closed, pk_open, *other.tracks.all()],
        personas={
            "no site": outsider,
            "pending site": pending,
            "refused site": refused,
            "site of another corpus": elsewhere,
            "anonymous": None,
        },
    )


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


# The URL names of the platform outside the bakeoff's readable pages, and why.
NOT_WALKED = {
    "health": "no bakeoff data",
    "docs-index": "static documentation",
    "docs": "static documentation",
    "token-create": "POST only",
    "token-revoke": "POST only",
    "bakeoff-create": "a form to create another bakeoff",
    "bakeoff-edit": "organisers only (404 to others)",
    "bakeoff-load": "a form to create another bakeoff from a bundle",
    "bakeoff-clone": "organisers only (404 to others, test_bundles): the next edition's form",
    "bakeoff-bundle": "organisers only (404 to others, test_bundles): a zip, gold included",
    "invitation": "a token's page: no scores",
    "announcement-create": "organisers only",
    "invite": "organisers only, POST",
    "invite-sites": "organisers only",
    "remove-member": "organisers only, POST",
    "registration-decide": "organisers only, POST",
    "corpus-create": "organisers only",
    "licence-edit": "organisers only",
    "gold-create": "organisers only",
    "gold-accept": "organisers only, POST",
    "track-create": "organisers only",
    "track-edit": "organisers only",
    "domain-labels": "organisers only",
    "organiser-remove": "organisers only, POST",
    "publish": "organisers only",
    "withdraw": "organisers only, POST",
    "erratum": "organisers only, and only after publication",
    **dict.fromkeys(
        [
            "version",
            "version-f-plot",
            "version-oov-plot",
            "version-track",
            "version-csv",
            "version-json",
            "version-tex",
            "version-plot",
            "version-run",
        ],
        "a published results version: 404 until its time (test_versions)",
    ),
    "committee-start": "organisers only, POST",
    "preferences": "POST only",
    "unsubscribe": "a token's page: no scores",
    "registrations": "API, POST only: registers a site, shows no scores",
    "development": "development scores only, never a test score (docs/phases.md)",
    "development-set": "organisers only",
    "development-download": "the development data: no scores",
    "post-bakeoff-open": "organisers only, POST",
    "set_language": "POST: the reader's language",
    "bakeoff-open": "organisers only, POST",
    "audit": "organisers only (404 to others)",
    "audit-csv": "organisers only (404 to others)",
    "submission-withdraw": "POST only, a member of the run's site",
    "paper": "a site's form for its own paper: no scores",
    "paper-file": "a PDF the site uploaded: no figure of the platform",
    "schema": "the API's description: no data",
    "registration-reason": "organisers only, POST",
    "version-excel-csv": "a published results version: 404 until its time (test_versions)",
    "release": "after publication only: 404 before (test_archive)",
    "archive": "organisers only (404 to others, test_archive)",
    "public-archive": "organisers only (404 to others, test_archive)",
}
WALKED = {
    "home",
    "bakeoff",
    "results",
    "f-plot",
    "oov-plot",
    "submissions",
    "submission",
    "register",
    "participants",
    "registrations",
    "mail",
    "organisers",
    "site-edit",
    "site-register",
    "corpus-edit",
    "account",
    "account-name",
    "corpus",
    "agreement",
    "download",
    "track",
    "csv",
    "excel-csv",
    "json",
    "tex",
    "whole-csv",
    "whole-json",
    "whole-tex",
    "track-plot",
    "track-domains",
    "upload",
    "run",
    "comparison",
    "bakeoffs",
    "tracks",
    "corpora",
    "file",
    "sites",
    "runs",
    "track-results",
}


def _names(patterns: Iterable[URLPattern | URLResolver], prefix: str = "") -> Iterator[str]:
    for p in patterns:
        if isinstance(p, URLResolver):
            if p.namespace in {"admin"} or str(p.pattern).startswith(("admin/", "accounts/")):
                continue
            yield from _names(p.url_patterns, prefix + str(p.pattern))
        elif p.name:
            yield p.name


def test_the_tables_walk_every_url_of_the_platform() -> None:
    """A new page must join the walk (or say here why it shows no scores)."""
    names = set(_names(get_resolver().url_patterns))
    new = names - WALKED - set(NOT_WALKED)
    assert new == set(), (
        f"walk {new} in pages() and name it in WALKED, or say in NOT_WALKED why not"
    )


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


def _token(token: str) -> re.Pattern[str]:
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
            if _token(token).search(text):
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


def _mails(user: User) -> str:
    return "\n".join(
        f"{m.subject}\n{m.text}\n{m.html}" for m in Mail.objects.filter(recipient=user)
    )


# -- the tables ------------------------------------------------------------------------------------


def test_a_participant_learns_nothing_of_hidden_runs_before_publication(
    world: World, client_for: Any
) -> None:
    forbidden = forbidden_for_participant(world)
    audit = Audit()
    walk(client_for(world.participant), "participant", world, forbidden, audit)
    audit.check("participant", Page("mail", "text"), _mails(world.participant), forbidden)
    assert audit.leaks == [], "\n".join(audit.leaks)
    print(
        f"blind phase, participant: {audit.pages} answers, {audit.checked} (answer, field) checks"
    )
    assert len(forbidden.tokens) > 50 and audit.pages > 100


def test_a_participant_still_sees_their_rows_ranked_among_the_rows_shown(
    world: World, client_for: Any
) -> None:
    """Not vacuous: the participant's own figures, BASE and TOP are on the page, their runs
    ranked 1 and 2 among the runs shown, each the other's neighbour."""
    client = client_for(world.participant)
    worked, split = world.mine
    text = client.get(f"{B}tracks/pk-closed/").content.decode()
    assert "0.815" in text and "0.786" in text and "BASE" in text and "TOP" in text
    assert "among the runs you may see" in text
    assert [r["rank"] for r in client.get(f"{B}tracks/pk-closed/results.json").json()["rows"]] == [
        1,
        2,
        None,
        None,
    ]
    run = client.get(f"{B}tracks/pk-closed/runs/{worked.pk}/").content.decode()
    assert "rank 1 among the runs you may see" in run
    assert f"/runs/{split.pk}/" in run  # its neighbour below, among the rows shown
    publish(world.bakeoff)  # then every row, ranked among all runs
    run = client.get(f"{B}tracks/pk-closed/runs/{worked.pk}/").content.decode()
    assert "rank 4 of 6 ranked runs" in run


def test_the_organiser_sees_what_the_participant_may_not(
    world: World, client_for: Any, organiser: User
) -> None:
    """The probes find what is there: every hidden F is on the organiser's page."""
    text = client_for(organiser).get(f"{B}tracks/pk-closed/").content.decode()
    for run in world.hidden[3:]:
        score = run.current_score()
        assert score is not None and _token(f"{score.f:.3f}").search(text)
    assert (
        "rank 6"
        in client_for(organiser)
        .get(f"{B}tracks/pk-closed/runs/{world.mine[1].pk}/")
        .content.decode()
    )


@pytest.mark.parametrize(
    "persona",
    ["no site", "pending site", "refused site", "site of another corpus", "anonymous"],
)
def test_no_score_of_a_track_reaches_anyone_but_its_approved_sites_before_publication(
    world: World, client_for: Any, persona: str
) -> None:
    forbidden = forbidden_for_personas(world, persona)
    audit = Audit()
    user = world.personas[persona]
    walk(client_for(user), persona, world, forbidden, audit)
    if user is not None:
        audit.check(persona, Page("mail", "text"), _mails(user), forbidden)
    assert audit.leaks == [], "\n".join(audit.leaks)
    print(f"blind phase, {persona}: {audit.pages} answers, {audit.checked} (answer, field) checks")
    assert len(forbidden.tokens) > 30 and audit.pages > 100
