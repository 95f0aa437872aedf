"""A frozen results version is read by every later release: one frozen before a figure existed
thaws with that figure absent (``--`` on pages, empty in the CSV) and every public read answers;
an erratum compares only the figures both versions froze; a version in a format newer than the
code knows is refused with a clear 503 (docs/track-table.md#adding-a-figure).

The world of version 1 frozen by an older release is built once for the module."""

from __future__ import annotations

import csv
import io
import json
from datetime import UTC, datetime

import pytest
from django.core.cache import cache
from django.http import HttpResponse
from django.test import Client, RequestFactory

from bakeoff.models import Bakeoff, Corpus, Track
from leaderboard import versions
from leaderboard.middleware import UnreadableVersionMiddleware
from leaderboard.models import FrozenTrack, ResultsVersion
from leaderboard.services import do_publish_erratum
from tests.factories import PERFECT_RUN, WORKED_RUN, publish, rival, upload
from tests.hints import OnCommit
from tests.module_world import captured_on_commit, module_world, taken_from_world

from .registered_world import SHARED, Registered, registered
from .test_tables import body_rows
from .test_versions import correct_the_gold

pytestmark = pytest.mark.django_db

B = "/bakeoffs/b2026/"
T = B + "tracks/pk-closed/"
V1 = B + "results/v1/"
# What an older release froze: no IV recall and no count of OOV words yet.
NOT_YET = ("iv_recall", "oov_words")


def build_world(on_commit: OnCommit) -> Registered:
    """Results version 1 frozen by a release whose registry had neither of NOT_YET: the
    participant's run and a rival's, then the results published."""
    world = registered(on_commit)
    upload(world.participant, world.closed, WORKED_RUN, on_commit)
    user, _ = rival(world.bakeoff, world.closed, "Rivals")
    upload(user, world.closed, PERFECT_RUN, on_commit)
    older = tuple(name for name in versions.FIGURES if name not in NOT_YET)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(versions, "FIGURES", older)
        with on_commit():
            publish(world.bakeoff)
    # No page read before a test may be served to it from the cache as if it were fresh.
    cache.clear()
    return world


# Every test here reads the published world, and what it changes (a gold version, an erratum, a
# version's format) is rolled back (tests/module_world.py).
built, mine = module_world("frozen_format", lambda: build_world(captured_on_commit))
bakeoff, corpus, closed, site, participant, organiser = map(taken_from_world, SHARED)


@pytest.fixture
def frozen_before(bakeoff: Bakeoff, closed: Track) -> Bakeoff:
    """Results version 1 frozen by a release whose registry had neither of NOT_YET (the
    world's)."""
    frozen = FrozenTrack.objects.get(version__number=1, track=closed).data
    assert all(name not in row["score"] for row in frozen["rows"] for name in NOT_YET)
    assert frozen["format"] == versions.FORMAT
    return bakeoff


def _ok(client: Client, path: str) -> str:
    answer = client.get(path)
    assert answer.status_code == 200, (path, answer.status_code)
    return answer.content.decode()


PUBLIC = (
    "",
    "results.csv",
    "results.json",
    "results.tex",
    "f.svg",
)


def test_a_version_frozen_before_a_figure_existed_answers_everywhere(
    frozen_before: Bakeoff, closed: Track, anonymous: Client
) -> None:
    for track in (T, V1 + "tracks/pk-closed/"):
        for path in PUBLIC:
            _ok(anonymous, track + path)
        for run in closed.submissions.all():
            _ok(anonymous, f"{track}runs/{run.pk}/")
    for path in ("results/", "results/v1/", "results/f.svg", "results/oov.svg", "results/v1/f.svg"):
        _ok(anonymous, B + path)


def test_the_missing_figure_is_shown_absent_not_zero(
    frozen_before: Bakeoff, anonymous: Client
) -> None:
    for track in (T, V1 + "tracks/pk-closed/"):
        page = _ok(anonymous, track)
        # Rank, Site, Name, Run, Words, R, Cr, P, Cp, F, OOV, R_oov, R_iv (index 12), F_b
        rows = body_rows(page)
        assert [row[1] for row in rows] == ["S02", "S01", "BASE", "TOP"]
        assert {row[12] for row in rows} == {"--"}
        assert rows[1][9] == "0.815"  # the figures it froze are there
        table = list(csv.DictReader(io.StringIO(_ok(anonymous, track + "results.csv"))))
        assert {(r["R_iv"], r["oov_words"]) for r in table} == {("", "")}
        assert table[1]["F"] == "0.815" and table[1]["correct_oov"] == "2"
        lines = _ok(anonymous, track + "results.tex").splitlines()
        head, s01 = (
            next(line for line in lines if line.startswith(start))
            .removesuffix(" \\\\")
            .split(" & ")
            for start in ("Rank & ", "2 & S01")
        )
        at = head.index("$R_{iv}$")
        assert (s01[at - 1], s01[at]) == ("1.000", "--")  # R_oov, then R_iv absent
        data = json.loads(_ok(anonymous, track + "results.json"))
        assert data["results_version"] == 1 and len(data["rows"]) == 4


def test_an_erratum_compares_only_what_both_versions_froze(
    frozen_before: Bakeoff, corpus: Corpus, on_commit: OnCommit
) -> None:
    correct_the_gold(corpus, on_commit)
    version = do_publish_erratum(frozen_before, note="corrected")
    runs = {run["label"]: run for run in version.changes[0]["runs"]}
    moved = runs["S01 run 1"]["figures"]
    # R_iv moved too (0.750 to 0.727), but version 1 never published it: not a change
    assert "iv_recall" not in moved and "oov_words" not in moved
    assert moved["f"][0] == pytest.approx(0.8148, abs=1e-4)
    assert moved["true_words"] == [14, 13, -1]
    # version 2 was frozen with every figure, and its pages show them
    v2 = FrozenTrack.objects.get(version=version, track__slug="pk-closed").data
    assert all("iv_recall" in row["score"] for row in v2["rows"])


def test_a_version_without_a_format_number_is_read_as_format_1(
    frozen_before: Bakeoff, closed: Track, anonymous: Client
) -> None:
    frozen = FrozenTrack.objects.get(version__number=1, track=closed)
    del frozen.data["format"]
    frozen.save()
    assert body_rows(_ok(anonymous, T))[1][9] == "0.815"


@pytest.fixture
def from_the_future(frozen_before: Bakeoff, closed: Track) -> ResultsVersion:
    """Version 1 as a newer release would have frozen it, in a format this one does not know."""
    frozen = FrozenTrack.objects.get(version__number=1, track=closed)
    frozen.data["format"] = versions.FORMAT + 1
    frozen.save()
    return frozen.version


def test_a_version_in_a_newer_format_is_refused_with_a_clear_error(
    from_the_future: ResultsVersion, closed: Track, anonymous: Client
) -> None:
    for path in (T, T + "results.csv", T + "results.json", V1, V1 + "tracks/pk-closed/"):
        answer = anonymous.get(path)
        assert answer.status_code == 503, path
        text = answer.content.decode()
        assert f"format {versions.FORMAT + 1}" in text
        assert "cannot be shown by this release" in text
    with pytest.raises(versions.UnreadableVersion, match="newer release"):
        versions.thaw(from_the_future, closed, from_the_future.tracks.get(track=closed).data)


@pytest.mark.parametrize("found", [0, "2", None, True, versions.FORMAT + 1])
def test_only_the_formats_this_release_knows_are_read(found: object) -> None:
    version = ResultsVersion(number=3, bakeoff_id=1, published_at=datetime(2026, 1, 1, tzinfo=UTC))
    with pytest.raises(versions.UnreadableVersion):
        versions.readable(version, {"format": found, "rows": []})
    assert versions.readable(version, {"format": versions.FORMAT, "rows": []})["rows"] == []


def test_the_api_is_told_in_json(from_the_future: ResultsVersion) -> None:
    middleware = UnreadableVersionMiddleware(lambda request: HttpResponse())
    error = versions.UnreadableVersion(from_the_future, versions.FORMAT + 1)
    request = RequestFactory().get("/api/bakeoffs/b2026/tracks/pk-closed/submissions/")
    answer = middleware.process_exception(request, error)
    assert answer is not None and answer.status_code == 503
    assert json.loads(answer.content)["code"] == "results_format_unknown"
    assert middleware.process_exception(request, ValueError("other")) is None
