"""Results version 1 for bakeoffs published before results versions existed.

Such a bakeoff has a publication and no frozen version, so its pages read the live standings and
a new gold version would change them at once. ``do_freeze_unversioned`` freezes version 1 from the
figures current when it runs (``manage.py freeze_published_results``, run by the deployment after
``migrate``, by ``setup_demo`` and ``import_icwb2``; docs/deployment.md). The platform kept no copy
of what the pages showed at publication: the figures current now are the best record there is, and
the audit entry says so, naming each track's gold version and any gold version uploaded since the
publication, whose figures these may already be.

It is not a data migration: freezing runs the apps' own code (the analysis freezes its sections
through ``signals.results_freezing``), which a migration's historical models cannot, and an
operator may run it again, or first with ``--dry-run``, at any time: a bakeoff that has a version
is never touched.
"""

from __future__ import annotations

from datetime import UTC, datetime

from django.db import transaction
from django.db.models import QuerySet

from bakeoff import audit
from bakeoff.audit_text import RESULTS_FROZEN, Subject
from bakeoff.models import Bakeoff, GoldVersion, Submission, SubmissionStatus
from bakeoff.phase_table import official_phases

from . import versions
from .models import Publication, PublicationMode, ResultsVersion

NOTE = (
    "Frozen on {frozen} from the figures then current: these results were published on "
    "{published}, before the platform kept results versions."
)


def unversioned() -> QuerySet[Bakeoff]:
    """Published (or scheduled) bakeoffs without any results version."""
    return Bakeoff.objects.filter(results_published__isnull=False, results_versions=None).order_by(
        "slug"
    )


def waiting_runs(bakeoff: Bakeoff) -> int:
    """Official runs still queued or being scored: frozen now, their tracks would miss them."""
    return Submission.objects.filter(
        track__corpus__bakeoff=bakeoff,
        phase__in=official_phases(),
        withdrawn_at__isnull=True,
        status__in=(SubmissionStatus.QUEUED, SubmissionStatus.SCORING),
    ).count()


def _day(instant: datetime) -> str:
    return instant.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")


def do_freeze_unversioned(bakeoff: Bakeoff, *, now: datetime) -> ResultsVersion | None:
    """Freeze version 1 of a bakeoff published without one, public from its publication time,
    with the names or codes it was published with. None when it has a version already (or is
    not published): running twice freezes once."""
    with transaction.atomic():
        locked = Bakeoff.objects.select_for_update().get(pk=bakeoff.pk)
        published = locked.results_published
        if published is None or ResultsVersion.objects.filter(bakeoff=locked).exists():
            return None
        publication = Publication.objects.filter(bakeoff=locked).first()
        mode = publication.mode if publication else PublicationMode.NAMES
        frozen = versions.freeze(locked)
        version = ResultsVersion.objects.create(
            bakeoff=locked,
            number=1,
            published_at=published,
            created_at=now,
            mode=mode,
            aliases=publication.aliases if publication else {},
            note=NOTE.format(frozen=_day(now), published=_day(published)),
        )
        versions.store(version, frozen)
        later = GoldVersion.objects.filter(corpus__bakeoff=locked, uploaded_at__gt=published)
        audit.record(
            locked,
            audit.RESULTS_FROZEN,
            Subject(RESULTS_FROZEN, {"day": _day(now), "published": _day(published)}),
            now=now,
            published_at=published,
            mode=mode,
            tracks=versions.summary(frozen),
            gold_uploaded_since_publication=[
                f"{g.corpus.abbreviation} v{g.number}"
                for g in later.select_related("corpus").order_by("corpus__abbreviation", "number")
            ],
        )
    return version
