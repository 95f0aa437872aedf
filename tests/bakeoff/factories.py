"""Plain factory helpers: a tiny corpus, a bakeoff around a pinned time, personas."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from django.contrib.auth.models import User
from django.utils import timezone

from bakeoff import services
from bakeoff.models import Bakeoff, Corpus, Registration, Site, Track

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)

# The worked example of docs/measures/scoring.md, and two more lines; 工作 and 天气 are not in the
# word list (OOV).
GOLD = "结婚 的 和 尚未 结婚 的\n我们 在 北京 工作\n今天 天气 很 好\n"
TEST = "结婚的和尚未结婚的\n我们在北京工作\n今天天气很好\n"
WORDS = "结婚\n的\n和\n尚未\n我们\n在\n北京\n今天\n很\n好\n"
PERFECT_RUN = GOLD
WORKED_RUN = "结婚 的 和尚 未结婚 的\n我们 在 北京 工作\n今天 天气 很 好\n"


def make_user(username: str, **fields: object) -> User:
    return User.objects.create_user(
        username=username, email=None, password="pw-" + username, **fields
    )


def make_bakeoff(
    now: datetime | None = None,
    *,
    slug: str = "b2026",
    organiser: User | None = None,
    **fields: object,
) -> Bakeoff:
    """Registration open, test data released a day ago, deadline in two days."""
    now = now or timezone.now()
    values: dict[str, object] = {
        "name": "Bakeoff 2026",
        "slug": slug,
        "time_zone": "Asia/Shanghai",
        "registration_opens": now - timedelta(days=10),
        "registration_closes": now + timedelta(days=1),
        "training_released": now - timedelta(days=9),
        "test_released": now - timedelta(days=1),
        "submission_deadline": now + timedelta(days=2),
    }
    values.update(fields)
    bakeoff = Bakeoff.objects.create(**values)
    if organiser is not None:
        bakeoff.organisers.add(organiser)
    return bakeoff


def make_corpus(
    bakeoff: Bakeoff,
    *,
    abbreviation: str = "PK",
    institution: str = "Peking University",
    gold: str = GOLD,
    test: str | None = TEST,
    words: str | None = WORDS,
    encoding: str = "utf-8",
    conditions: tuple[str, ...] = ("closed", "open"),
    max_runs: int = 2,
    now: datetime | None = None,
) -> Corpus:
    return services.do_create_corpus(
        bakeoff,
        services.CorpusFiles(
            gold=gold.encode(encoding),
            test_text=None if test is None else test.encode(encoding),
            training_words=None if words is None else words.encode(encoding),
        ),
        name=f"{abbreviation} corpus",
        abbreviation=abbreviation,
        institution=institution,
        standard="PKU",
        encoding=encoding,
        conditions=conditions,
        max_runs=max_runs,
        now=now,
    )


def track(corpus: Corpus, condition: str = "closed") -> Track:
    return corpus.tracks.get(condition=condition)


def make_site(
    bakeoff: Bakeoff,
    member: User,
    tracks: list[Track],
    *,
    name: str = "Team A",
    institution: str = "Somewhere University",
    approved: bool = True,
) -> Site:
    """A site registered for ``tracks`` directly (the registration rules have their own tests)."""
    site = Site.objects.create(
        bakeoff=bakeoff,
        name=name,
        institution=institution,
        country="CN",
        commercial_product=False,
    )
    site.members.add(member)
    for t in tracks:
        registration = Registration.objects.create(
            site=site, track=t, created_at=timezone.now(), resources_statement="a lexicon"
        )
        if approved:
            services.do_approve_registration(registration, by=None)
    site.refresh_from_db()
    return site
