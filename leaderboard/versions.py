"""Frozen results: what a results version holds of each track, and reading it back.

``freeze_track`` copies a track's stored standings (``TrackStanding``, ``TrackRanking``) with
their scores into plain JSON; ``thaw`` turns that JSON back into unsaved model instances, so the
pages, plots and exports read a frozen version exactly as they read the live standings.
``changes_between`` lists what an erratum changes: the runs whose figures moved, by how much, and
the ranks that changed.

The format (``FORMAT``) is a dict with ``format``, ``gold``, ``scorer_version``, ``ranking``,
``rows`` and ``sections``; apps above the leaderboard add their own frozen data under
``sections[<app>]`` when ``signals.results_freezing`` is sent. Each row keeps the figures of
``bakeoff.figures`` that existed when it was frozen (``columns.FROZEN_SCORE_FIGURES`` under
``score``, ``columns.FROZEN_ROW_FIGURES`` beside it). Readers ignore keys they do not know and
read every key with a default, so later additions (a figure, more row kinds, more sections) need
no migration and no new format; ``FORMAT`` says when one is needed.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypeVar

from django.db.models import Field, Model
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext_lazy as _
from django_stubs_ext import StrOrPromise

from bakeoff.errors import interpolate
from bakeoff.figures import BY_KEY, Source
from bakeoff.models import Bakeoff, GoldVersion, Score, Site, Submission, SubmissionKind, Track

from . import signals
from .columns import COMPARED, FROZEN_ROW_FIGURES, FROZEN_SCORE_FIGURES
from .models import FrozenTrack, ResultsVersion, TrackRanking, TrackStanding

#: The format ``freeze_track`` writes. ``thaw`` reads every format up to this one and refuses a
#: newer one (written by a later release, read by an older one after a rollback) with
#: ``UnreadableVersion``. Within a format, keys are added, never renamed or given another
#: meaning, and every reader uses ``.get``: a figure added to ``bakeoff.figures`` is absent
#: (``None``, shown ``--``) from the versions frozen before it, which therefore stay format 1.
#: A change that ``.get`` cannot absorb raises FORMAT, and ``thaw`` converts the older formats.
FORMAT = 1

# What a frozen row keeps of its score and of itself (``columns``, from ``bakeoff.figures``).
FIGURES = FROZEN_SCORE_FIGURES
STANDING_FIGURES = FROZEN_ROW_FIGURES
RANKING_FIGURES = (
    "ranked_runs",
    "sites",
    "pending_runs",
    "best_f",
    "baseline_f",
    "topline_f",
    "oov_rate",
)


def _iso(instant: datetime | None) -> str | None:
    return instant.isoformat() if instant else None


EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def _when(value: str | None) -> datetime:
    """An instant written by ``_iso`` (the fields read back are never empty: EPOCH if so)."""
    return (parse_datetime(value) if value else None) or EPOCH


def freeze_track(track: Track) -> dict[str, Any]:
    """The track's stored standings as they are now, with every figure a page shows."""
    ranking = TrackRanking.objects.filter(track=track).select_related("gold_version").first()
    standings = (
        TrackStanding.objects.filter(track=track)
        .select_related("score__gold_version", "site", "submission")
        .order_by("position")
    )
    gold = ranking.gold_version if ranking else None
    rows = []
    scorer = None
    canonical = None
    for s in standings:
        score, site, run = s.score, s.site, s.submission
        signature = (score.result or {}).get("signature", {})
        scorer = scorer or signature.get("scorer_version")
        canonical = canonical or signature.get("gold_checksum")
        rows.append(
            {
                "submission": s.submission_id,
                "kind": s.kind,
                "run_number": s.run_number,
                "rank": s.rank,
                "position": s.position,
                **{name: getattr(s, name) for name in STANDING_FIGURES},
                "site": None
                if site is None
                else {"pk": site.pk, "number": site.number, "name": site.name},
                "run": {
                    "checksum": run.checksum,
                    "size_bytes": run.size_bytes,
                    "received_at": _iso(run.received_at),
                    "description": run.description,
                },
                "score": {
                    "pk": score.pk,
                    "gold_version": score.gold_version.number,
                    **{name: getattr(score, name) for name in FIGURES},
                    "signature": score.signature,
                    "result": score.result,
                    "created_at": _iso(score.created_at),
                },
            }
        )
    return {
        "format": FORMAT,
        "track": {"slug": track.slug, "name": track.name},
        "gold": None
        if gold is None
        else {
            "pk": gold.pk,
            "version": gold.number,
            "canonical_checksum": gold.canonical_checksum or canonical,
            "file_sha256": gold.checksum,
        },
        "scorer_version": scorer,
        "ranking": None
        if ranking is None
        else {
            "computed_at": _iso(ranking.computed_at),
            "insignificant_pairs": ranking.insignificant_pairs,
            **{name: getattr(ranking, name) for name in RANKING_FIGURES},
        },
        "rows": rows,
        "sections": {},
    }


def freeze(bakeoff: Bakeoff) -> dict[int, dict[str, Any]]:
    """Every track of the bakeoff frozen, keyed by track pk; apps above add their sections."""
    tracks = list(Track.objects.filter(corpus__bakeoff=bakeoff).select_related("corpus"))
    frozen = {t.pk: freeze_track(t) for t in tracks}
    signals.results_freezing.send(sender=ResultsVersion, bakeoff=bakeoff, tracks=frozen)
    return frozen


def summary(frozen: dict[int, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per track slug, the gold version and the number of rows frozen (for the audit trail)."""
    return {
        data["track"]["slug"]: {
            "gold_version": (data["gold"] or {}).get("version"),
            "rows": len(data["rows"]),
        }
        for data in frozen.values()
    }


def store(version: ResultsVersion, frozen: dict[int, dict[str, Any]]) -> None:
    """Keep the frozen tracks, and mark the gold versions they were scored against as released
    with the results (what registered sites download: ``Corpus.released_gold``)."""
    FrozenTrack.objects.bulk_create(
        FrozenTrack(version=version, track_id=pk, data=data) for pk, data in frozen.items()
    )
    golds = {data["gold"]["pk"] for data in frozen.values() if data.get("gold")}
    GoldVersion.objects.filter(pk__in=golds).update(released_with_results=True)


@dataclass
class Thawed:
    """A frozen track read back: the ranking and the standings (unsaved, never to be saved)."""

    version: ResultsVersion
    track: Track
    ranking: TrackRanking | None
    standings: list[TrackStanding]
    sections: dict[str, Any]


class UnreadableVersion(Exception):
    """A frozen results version in a format this release does not know (a newer one)."""

    def __init__(self, version: ResultsVersion, found: object) -> None:
        self.version = version
        self.found = found
        super().__init__(
            f"Results version {version.number} of bakeoff {version.bakeoff_id} was frozen in "
            f"format {found!r}; this release of the platform reads formats 1 to {FORMAT}. "
            "It was written by a newer release: run that release (or a later one) to read it."
        )


def readable(version: ResultsVersion, data: dict[str, Any]) -> dict[str, Any]:
    """``data`` in the current format, or UnreadableVersion. A version frozen without a format
    number can only be of format 1 (the first, and the number was written from the start)."""
    found = data.get("format", 1)
    if not isinstance(found, int) or isinstance(found, bool) or not 1 <= found <= FORMAT:
        raise UnreadableVersion(version, found)
    return data


M = TypeVar("M", bound=Model)

# Per model: its concrete fields' attnames, their defaults, and the fields whose default is made
# afresh for every instance (a callable: a list, a dict, the time).
_BLANKS: dict[type[Model], tuple[dict[str, int], list[Any], list[tuple[int, Field[Any, Any]]]]] = {}


def unsaved(model: type[M], values: dict[str, Any], **related: Model | None) -> M:
    """``model(**values, **related)``, built by field position: a page thaws some 1,200 instances,
    and Django's keyword path asks every field left out for its default one by one (the field
    values and the defaults are the same either way). ``values`` by attname (``pk`` for the
    primary key); ``related``: instances for foreign keys, set through their descriptors."""
    blanks = _BLANKS.get(model)
    if blanks is None:
        fields = model._meta.concrete_fields
        fresh = [(i, f) for i, f in enumerate(fields) if f.has_default() and callable(f.default)]
        defaults = [None if (i, f) in fresh else f.get_default() for i, f in enumerate(fields)]
        positions = {f.attname: i for i, f in enumerate(fields)}
        positions["pk"] = positions[model._meta.pk.attname]
        blanks = _BLANKS[model] = (positions, defaults, fresh)
    positions, defaults, fresh = blanks
    args = list(defaults)
    for i, field in fresh:
        args[i] = field.get_default()
    for name, value in values.items():
        args[positions[name]] = value
    instance = model(*args)
    for name, other in related.items():
        setattr(instance, name, other)
    return instance


def thaw(version: ResultsVersion, track: Track, data: dict[str, Any]) -> Thawed:
    """The frozen track as unsaved instances. A figure the version did not freeze (it did not
    exist yet) is None, as an undefined one: pages print ``--``, the CSV leaves it empty."""
    data = readable(version, data)
    gold_data = data.get("gold")
    gold = None
    if gold_data:
        gold = GoldVersion(
            pk=gold_data.get("pk"),
            corpus_id=track.corpus_id,
            number=gold_data["version"],
            checksum=gold_data.get("file_sha256", ""),
            canonical_checksum=gold_data.get("canonical_checksum", ""),
        )
    ranking = None
    if data.get("ranking"):
        r = data["ranking"]
        ranking = TrackRanking(
            track=track,
            gold_version=gold,
            computed_at=_when(r.get("computed_at")),
            insignificant_pairs=r.get("insignificant_pairs", []),
            **{name: r.get(name) for name in RANKING_FIGURES},
        )
    standings = []
    bakeoff_id = track.corpus.bakeoff_id
    for row in data["rows"]:
        site = None
        if row["site"] is not None:
            site = unsaved(
                Site,
                {
                    "pk": row["site"]["pk"],
                    "bakeoff_id": bakeoff_id,
                    "name": row["site"]["name"],
                    "number": row["site"]["number"],
                },
            )
        s = row["score"]
        score = unsaved(
            Score,
            {
                "pk": s["pk"],
                "submission_id": row["submission"],
                "metric": "word",
                "signature": s["signature"],
                "result": s["result"],
                "created_at": _when(s["created_at"]),
                **{name: s.get(name) for name in FIGURES},
            },
        )
        if gold is not None:
            score.gold_version = (
                gold
                if s["gold_version"] == gold.number
                else GoldVersion(corpus_id=track.corpus_id, number=s["gold_version"])
            )
        run = unsaved(
            Submission,
            {
                "pk": row["submission"],
                "kind": row["kind"],
                "run_number": row["run_number"],
                "checksum": row["run"]["checksum"],
                "size_bytes": row["run"]["size_bytes"],
                "received_at": _when(row["run"]["received_at"]),
                "description": row["run"].get("description", ""),
            },
            track=track,
            site=site,
        )
        standing = unsaved(
            TrackStanding,
            {
                "kind": row["kind"],
                "run_number": row["run_number"],
                "rank": row["rank"],
                "position": row["position"],
                **{name: row.get(name) for name in STANDING_FIGURES},
            },
            track=track,
            submission=run,
            score=score,
            site=site,
        )
        standings.append(standing)
    return Thawed(version, track, ranking, standings, data.get("sections", {}))


def newest(bakeoff: Bakeoff, now: datetime) -> ResultsVersion | None:
    """The version readers see now: the newest whose time has come."""
    return (
        ResultsVersion.objects.filter(bakeoff=bakeoff, published_at__lte=now)
        .order_by("-number")
        .first()
    )


def thawed_track(version: ResultsVersion, track: Track) -> Thawed:
    frozen = FrozenTrack.objects.filter(version=version, track=track).first()
    if frozen is None:  # a track added after this version: nothing was published of it
        return Thawed(version, track, None, [], {})
    return thaw(version, track, frozen.data)


def newest_thawed_track(bakeoff: Bakeoff, track: Track, now: datetime) -> Thawed | None:
    """The track as the newest public version froze it (None: no version is public). A track
    added after that version shows no rows."""
    frozen = (
        FrozenTrack.objects.filter(
            version__bakeoff=bakeoff, version__published_at__lte=now, track=track
        )
        .select_related("version")
        .order_by("-version__number")
        .first()
    )
    if frozen is None:
        version = newest(bakeoff, now)
        return None if version is None else Thawed(version, track, None, [], {})
    return thaw(frozen.version, track, frozen.data)


def thawed_tracks(version: ResultsVersion, tracks: list[Track]) -> dict[int, Thawed]:
    by_pk = {t.pk: t for t in tracks}
    answer = {t.pk: Thawed(version, t, None, [], {}) for t in tracks}
    for frozen in FrozenTrack.objects.filter(version=version, track_id__in=list(by_pk)):
        answer[frozen.track_id] = thaw(version, by_pk[frozen.track_id], frozen.data)
    return answer


# -- what an erratum changes ---------------------------------------------------------------------


def _row_label(row: dict[str, Any]) -> str:
    if row["kind"] == SubmissionKind.BASELINE:
        return "BASE"
    if row["kind"] == SubmissionKind.TOPLINE:
        return "TOP"
    site = row["site"] or {}
    number = site.get("number")
    code = f"S{number:02d}" if number else site.get("name", "?")
    return f"{code} run {row['run_number']}"


def _figures(row: dict[str, Any]) -> dict[str, Any]:
    """The figures an erratum compares that this frozen row has (a figure added since the row
    was frozen is not there, and is not a change)."""
    figures = {}
    for figure in COMPARED:
        holder = row["score"] if figure.source is Source.LIBRARY else row
        if figure.key in holder:
            figures[figure.key] = holder[figure.key]
    return figures


def changes_between(old: dict[str, Any] | None, new: dict[str, Any]) -> dict[str, Any] | None:
    """What moved on one track from ``old`` to ``new`` (frozen data), or None when nothing did.

    Answers ``{"track", "gold": [old, new], "runs": [...]}``; each run names its label and
    submission, the figures that moved as ``[old, new, new - old]`` and the rank as
    ``[old, new]`` when it changed; runs that appeared or left the table say so.
    """
    old_rows = {r["submission"]: r for r in (old or {}).get("rows", [])}
    new_rows = {r["submission"]: r for r in new.get("rows", [])}
    runs = []
    for pk in sorted(set(old_rows) | set(new_rows), key=lambda k: _order(k, new_rows, old_rows)):
        before, after = old_rows.get(pk), new_rows.get(pk)
        either = after or before
        assert either is not None
        who = {
            "submission": pk,
            "label": _row_label(either),
            "kind": either["kind"],
            "site": (either["site"] or {}).get("pk"),
            "run_number": either["run_number"],
        }
        if before is None or after is None:
            runs.append({**who, "status": "added" if before is None else "removed"})
            continue
        moved = {}
        a, b = _figures(before), _figures(after)
        for name in a:
            if name in b and a[name] != b[name]:
                delta = (
                    b[name] - a[name]
                    if isinstance(a[name], int | float) and isinstance(b[name], int | float)
                    else None
                )
                moved[name] = [a[name], b[name], delta]
        rank = [before["rank"], after["rank"]] if before["rank"] != after["rank"] else None
        if moved or rank:
            runs.append({**who, "status": "changed", "figures": moved, "rank": rank})
    old_gold = ((old or {}).get("gold") or {}).get("version")
    new_gold = (new.get("gold") or {}).get("version")
    if not runs and old_gold == new_gold:
        return None
    return {
        "track": new.get("track", {}).get("slug", ""),
        "name": new.get("track", {}).get("name", ""),
        "gold": [old_gold, new_gold],
        "runs": runs,
    }


def _order(
    pk: int, new: dict[int, dict[str, Any]], old: dict[int, dict[str, Any]]
) -> tuple[int, int]:
    row = new.get(pk) or old[pk]
    return (0 if pk in new else 1, row["position"])


def changes(
    previous: dict[int, dict[str, Any]], current: dict[int, dict[str, Any]]
) -> list[dict[str, Any]]:
    """Per track that changed (in the current order of tracks), what changed."""
    answer = []
    for pk, data in current.items():
        change = changes_between(previous.get(pk), data)
        if change is not None:
            answer.append(change)
    return answer


def frozen_data(version: ResultsVersion) -> dict[int, dict[str, Any]]:
    return {f.track_id: f.data for f in FrozenTrack.objects.filter(version=version)}


def _value(value: Any) -> str:
    if value is None:
        return "--"
    if isinstance(value, int):
        return str(value)
    return f"{value:.3f}"


def _delta(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, int):
        return f" ({value:+d})"
    if round(value, 4) == 0:
        return f" ({0:.4f})"  # a move smaller than the places shown has no sign ("-0.0000")
    return f" ({value:+.4f})"


def described(changes: list[dict[str, Any]], label: Any) -> list[dict[str, Any]]:
    """``changes`` for a page: per track, per run, one sentence per figure that moved.
    ``label(run_change)`` names a run as the reader may see it (names or codes)."""
    answer = []
    for change in changes:
        runs = []
        for run in change["runs"]:
            lines: list[StrOrPromise] = []
            if run["status"] == "added":
                lines.append(_("new in the table"))
            elif run["status"] == "removed":
                lines.append(_("no longer in the table"))
            else:
                if run.get("rank"):
                    old, new = run["rank"]
                    lines.append(
                        interpolate(
                            _("rank %(old)s → %(new)s"),
                            old=old or _("none"),
                            new=new or _("none"),
                        )
                    )
                for name, (old, new, delta) in run.get("figures", {}).items():
                    figure = BY_KEY.get(name)
                    # the figure's name in the reader's language, not its symbol ("R_oov")
                    shown = figure.label if figure else name
                    text = figure.text if figure else _value
                    lines.append(f"{shown} {text(old)} → {text(new)}{_delta(delta)}")
            runs.append({"label": label(run), "lines": lines})
        old_gold, new_gold = change["gold"]
        answer.append(
            {
                "track": change["track"],
                "name": change["name"],
                "gold": (
                    interpolate(_("gold version %(old)s → %(new)s"), old=old_gold, new=new_gold)
                    if old_gold != new_gold
                    else ""
                ),
                "runs": runs,
                # figures some run had and the new figures lack (F_b, until a committee rates
                # the new gold): a section may suggest what would bring them back
                "dropped": sorted(
                    {
                        name
                        for run in change["runs"]
                        for name, (old, new, _delta) in run.get("figures", {}).items()
                        if old is not None and new is None
                    }
                ),
            }
        )
    return answer
