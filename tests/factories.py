"""Plain factory helpers shared by every test package: personas, a bakeoff around a pinned time,
a tiny corpus, sites, and runs (real uploads scored by the platform, or many synthetic scores)."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

from django.contrib.auth.models import User
from django.db.models import Max
from django.utils import timezone

import scoring
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
from leaderboard.services import do_publish, rank_track
from tests.hints import OnCommit

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)

# The worked example of docs/measures/scoring.md, and two more lines; 工作 and 天气 are not in the
# word list (OOV).
GOLD = "结婚 的 和 尚未 结婚 的\n我们 在 北京 工作\n今天 天气 很 好\n"
TEST = "结婚的和尚未结婚的\n我们在北京工作\n今天天气很好\n"
WORDS = "结婚\n的\n和\n尚未\n我们\n在\n北京\n今天\n很\n好\n"
PERFECT_RUN = GOLD
WORKED_RUN = "结婚 的 和尚 未结婚 的\n我们 在 北京 工作\n今天 天气 很 好\n"
# A third system: 今天天气 as one word; 工作 split (an OOV word missed).
SPLIT_RUN = "结婚 的 和 尚未 结婚 的\n我们 在 北京 工 作\n今天天气 很 好\n"
# Different runs, for a site that uploads several (an identical run is refused).
RUNS = (PERFECT_RUN, WORKED_RUN, SPLIT_RUN)
# The best system that is not the gold itself: one error (很好 as one word), F = 24/27. A
# post-bakeoff run may not be the gold, which is public by then (docs/phases.md).
NEAR_PERFECT_RUN = "结婚 的 和 尚未 结婚 的\n我们 在 北京 工作\n今天 天气 很好\n"


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
        "opened_at": now - timedelta(days=11),
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
    training: str | None = None,
    domains: str | None = None,
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
            training_text=None if training is None else training.encode(encoding),
            domain_labels=None if domains is None else domains.encode(encoding),
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


# -- runs ----------------------------------------------------------------------------------------

FIELDS = (
    "recall",
    "precision",
    "f",
    "oov_rate",
    "oov_recall",
    "iv_recall",
    "true_words",
    "test_words",
    "correct",
    "oov_words",
    "correct_oov",
)


def upload(user: User, track: Track, text: str, on_commit: OnCommit) -> Submission:
    with on_commit():
        submission = services.submit_run(
            user, track, text.encode(), description="A test system: no extra resource."
        )
    submission.refresh_from_db()
    assert submission.status == SubmissionStatus.SCORED, submission.reason
    return submission


def rival(bakeoff: Bakeoff, track: Track, name: str = "Rivals") -> tuple[User, Site]:
    user = make_user(name.lower())
    return user, make_site(bakeoff, user, [track], name=name, institution=f"{name} Institute")


def close_submissions(bakeoff: Bakeoff) -> None:
    bakeoff.submission_deadline = timezone.now() - timedelta(minutes=5)
    bakeoff.save(update_fields=["submission_deadline"])


def publish(bakeoff: Bakeoff, mode: str = "names") -> None:
    close_submissions(bakeoff)
    do_publish(bakeoff, at=timezone.now() - timedelta(minutes=1), mode=mode)


def make_scored_runs(
    track: Track, count: int, *, seed: int = 0, rank: bool = True
) -> list[Submission]:
    """``count`` runs of ``count // 2 + 1`` synthetic sites with plausible scores (F 0.85-0.97),
    stored as the platform stores them, then ranked once (unless ``rank`` is False)."""
    rng = random.Random(seed)
    bakeoff = track.corpus.bakeoff
    gold = track.corpus.current_gold()
    assert gold is not None
    now = timezone.now()
    first = (Site.objects.filter(bakeoff=bakeoff).aggregate(n=Max("number"))["n"] or 0) + 1
    sites = Site.objects.bulk_create(
        Site(
            bakeoff=bakeoff,
            name=f"Synthetic {first + i}",
            institution="Lab",
            country="CN",
            commercial_product=False,
            number=first + i,
        )
        for i in range(count // 2 + 1)
    )
    runs = Submission.objects.bulk_create(
        Submission(
            track=track,
            site=sites[i // 2],
            kind=SubmissionKind.RUN,
            run_number=i % 2 + 1,
            max_runs=2,
            file="runs/synthetic.txt",
            checksum="sha256:0",
            size_bytes=0,
            received_at=now,
            status=SubmissionStatus.SCORED,
            status_changed_at=now,
        )
        for i in range(count)
    )
    signature = scoring.Signature("1.0.0", gold.checksum, track.corpus.dictionary_checksum)
    rows = []
    for run in runs:
        n, oov = 100_000, 2_600
        correct = int(n * rng.uniform(0.85, 0.97))
        result = scoring.Score(
            true_words=n,
            test_words=int(n * rng.uniform(0.98, 1.02)),
            correct=correct,
            oov_words=oov,
            correct_oov=int(oov * rng.uniform(0.3, 0.8)),
            insertions=0,
            deletions=0,
            substitutions=0,
            signature=signature,
        )
        figures = result.to_dict()
        rows.append(
            Score(
                submission=run,
                gold_version=gold,
                metric="word",
                **{k: figures[k] for k in FIELDS},
                result=figures,
                signature=str(signature),
                created_at=now,
            )
        )
    Score.objects.bulk_create(rows)
    if rank:
        rank_track(track)
    return runs
