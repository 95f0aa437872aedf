"""The bakeoff the blind phase's walks read (tests/leaderboard/test_blind_phase_tables.py,
tests/leaderboard/test_preview.py): a participant's site with two runs on PK closed, rival sites'
runs on every track, runs planted with distinctive figures (``plant_runs``), a committee of runs,
and the personas of the second table. A test module takes its fixtures by name:
``corpus, world, quick_analysis = blind_phase_world.corpus, ...``.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import override_settings
from django.utils import timezone
from pytest_django import DjangoDbBlocker

import scoring
from analysis import prepared
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
from leaderboard.models import TrackRanking
from leaderboard.services import rank_track
from psychometric import services as psychometric
from tests.factories import (
    FIELDS,
    PERFECT_RUN,
    SPLIT_RUN,
    WORDS,
    WORKED_RUN,
    make_bakeoff,
    make_corpus,
    make_site,
    make_user,
    rival,
    track,
    upload,
)
from tests.hints import OnCommit
from tests.module_world import built_once, captured_on_commit, own_copy

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


def plant_runs(track: Track, number: int) -> list[Submission]:
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
    return build_world(bakeoff, corpus, participant, on_commit, outsider)


@pytest.fixture(scope="module")
def world_once(
    django_db_setup: None,
    django_db_blocker: DjangoDbBlocker,
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[World, Path]]:
    """The world built once for a module whose tests only read it, or roll back what they wrote
    (tests/module_world.py): the shared fixtures' personas and bakeoff, this module's corpus."""
    media = tmp_path_factory.mktemp("blind_phase") / "media"

    def build() -> World:
        with override_settings(ANALYSIS_BOOTSTRAP_SAMPLES=20):  # as quick_analysis
            prepared.clear()
            psychometric.clear()
            organiser = make_user("olga", is_staff=True)
            participant, outsider = make_user("pat"), make_user("otto")
            bakeoff = make_bakeoff(organiser=organiser)
            with captured_on_commit():
                corpus = make_corpus(bakeoff, training=TRAINING)
            world = build_world(bakeoff, corpus, participant, captured_on_commit, outsider)
            prepared.clear()
            psychometric.clear()
        return world

    for world in built_once(django_db_blocker, media, build):
        yield world, media


@pytest.fixture
def world_built_once(world_once: tuple[World, Path], db: None, media_root: Path) -> World:
    """``world`` for a module that takes it built once: a test's own copy of it."""
    return own_copy(world_once, media_root)


@pytest.fixture
def organiser_built_once(world: World) -> User:
    """``organiser`` for a module that takes the world built once: its organiser (the shared
    fixture would make another)."""
    return User.objects.get(username="olga")


def build_world(
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
    hidden += plant_runs(pk_closed, number=50)
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
