"""Sites and their registrations: the rules of SIGHAN 2003 §6 and of post-bakeoff registrations
(``check_registration``, for every entrance: a site's member on the page or the API, an
organiser on the Participants page), approval, site codes."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum

from django.db import IntegrityError, transaction
from django.db.models import Max, QuerySet
from django.utils.translation import gettext_lazy as _
from django_stubs_ext import StrOrPromise

from bakeoff.errors import interpolate, listing, sentences

from .. import audit, clock, signals
from ..access import Account, User
from ..audit_text import REGISTRATION, Subject
from ..errors import Refused, RegistrationRefused
from ..models import Bakeoff, Condition, Registration, RegistrationStatus, Site, Track


def same_institution(a: str, b: str) -> bool:
    return " ".join(a.casefold().split()) == " ".join(b.casefold().split())


# -- the rules of a registration, for every entrance --------------------------------------------


class Entrance(StrEnum):
    """Who registers a site for tracks: a member of the site (the registration page and the API)
    or an organiser of the bakeoff (a site's page under Participants)."""

    SITE = "site"
    ORGANISER = "organiser"


@dataclass(frozen=True)
class EntranceRules:
    """What differs between the entrances. Every other rule of ``check_registration`` holds on
    both, refused in the same words."""

    # The registration window applies (an organiser may register a site before or after it).
    window: bool
    # Approval is the rules' (at once if the bakeoff approves at once, or after publication),
    # else the organiser's choice, who is the one who would decide anyway.
    approval_by_rule: bool
    # A track the site has asked for already is refused; otherwise a refused one is asked for
    # again and an approved or waiting one is left as it is (``RegistrationChanges``).
    asked_already_refused: bool


ENTRANCES: dict[Entrance, EntranceRules] = {
    Entrance.SITE: EntranceRules(window=True, approval_by_rule=True, asked_already_refused=False),
    Entrance.ORGANISER: EntranceRules(
        window=False, approval_by_rule=False, asked_already_refused=True
    ),
}


@dataclass(frozen=True)
class RegistrationTerms:
    """What the rules make of an accepted registration."""

    post_bakeoff: bool  # registered after publication, for post-bakeoff runs (docs/phases.md)
    approved_at_once: bool  # by the rules (an organiser's entrance: by the organiser's choice)


def registrable_tracks(bakeoff: Bakeoff, now: datetime) -> QuerySet[Track]:
    """The tracks a site may choose now: every track of the bakeoff, and after publication those
    open for post-bakeoff runs only."""
    tracks = Track.objects.filter(corpus__bakeoff=bakeoff).select_related("corpus")
    return tracks.filter(post_bakeoff_open=True) if bakeoff.is_published(now) else tracks


def check_registration(
    bakeoff: Bakeoff,
    tracks: Mapping[Track, str],
    *,
    site_name: str,
    institution: str,
    entrance: Entrance,
    now: datetime,
    site: Site | None = None,
) -> RegistrationTerms:
    """Refuse a registration of the site ``site_name`` (of ``institution``; ``site`` once it
    exists) for ``tracks`` (track → statement of resources) that breaks a rule, saying which.
    The one place of the rules of SIGHAN 2003 §6 and of post-bakeoff registrations; what an
    organiser's entrance changes is in ``ENTRANCES``."""
    rules = ENTRANCES[entrance]
    post_bakeoff = bakeoff.is_published(now)  # the test phase is over
    if (
        rules.window
        and not post_bakeoff
        and (now < bakeoff.registration_opens or now > bakeoff.registration_closes)
    ):
        raise RegistrationRefused(_("Registration for this bakeoff is closed."))
    if not tracks:
        raise RegistrationRefused(_("Choose at least one track."))
    for track in tracks:
        if track.corpus.bakeoff_id != bakeoff.pk:
            raise RegistrationRefused(
                interpolate(_("The track %(name)s is not part of this bakeoff."), name=track.name)
            )
    if post_bakeoff:
        closed = [track.name for track in tracks if not track.post_bakeoff_open]
        if closed:
            raise RegistrationRefused(
                interpolate(
                    _(
                        "After publication a site may register only for tracks open for "
                        "post-bakeoff runs, and these are not: %(names)s."
                    ),
                    names=listing(closed),
                )
            )
    for track, statement in tracks.items():
        corpus = track.corpus
        if same_institution(corpus.institution, institution):
            raise RegistrationRefused(
                interpolate(
                    _(
                        "%(name)s may not register for %(name2)s: its corpus comes "
                        "from the site's own institution (%(institution)s)."
                    ),
                    name=site_name,
                    name2=track.name,
                    institution=corpus.institution,
                )
            )
        if track.condition == Condition.OPEN and not statement.strip():
            raise RegistrationRefused(
                interpolate(
                    _(
                        "The open track %(name)s needs a statement of the extra "
                        "resources the site's system uses."
                    ),
                    name=track.name,
                )
            )
    if rules.asked_already_refused and site is not None:
        check_not_asked_already(site, tracks)
    return RegistrationTerms(
        post_bakeoff=post_bakeoff,
        approved_at_once=rules.approval_by_rule and (bakeoff.auto_approve or post_bakeoff),
    )


def check_not_asked_already(site: Site, tracks: Iterable[Track]) -> None:
    taken = Registration.objects.filter(site=site, track__in=list(tracks)).select_related(
        "track__corpus"
    )
    if taken:
        names = listing(sorted(registration.track.name for registration in taken))
        raise RegistrationRefused(
            interpolate(
                _("%(name)s is already registered for %(names)s."), name=site.name, names=names
            )
        )


def do_register_site(
    bakeoff: Bakeoff,
    user: Account,
    *,
    name: str,
    institution: str,
    country: str,
    commercial_product: bool,
    tracks: Mapping[Track, str],
    now: datetime | None = None,
) -> Site:
    """Create a site with ``user`` as member and register it for ``tracks`` (track → statement)."""
    now = now or clock.now()
    if Site.objects.filter(bakeoff=bakeoff, members__pk=user.pk).exists():
        raise RegistrationRefused(_("You are already a member of a site of this bakeoff."))
    check_registration(
        bakeoff, tracks, site_name=name, institution=institution, entrance=Entrance.SITE, now=now
    )
    try:
        with transaction.atomic():
            site = Site.objects.create(
                bakeoff=bakeoff,
                name=name,
                institution=institution,
                country=country,
                commercial_product=commercial_product,
            )
            site.members.add(user)
    except IntegrityError:
        raise RegistrationRefused(
            interpolate(_("A site named %(name)s is already registered."), name=repr(name))
        ) from None
    do_add_registrations(site, tracks, by=user, now=now)
    return site


@dataclass
class RegistrationChanges:
    """What an application for tracks changed: tracks asked for the first time, refused tracks
    asked for again (a new decision waits), and tracks where nothing changed."""

    new: list[Registration] = field(default_factory=list)
    reapplied: list[Registration] = field(default_factory=list)
    unchanged: list[Registration] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return bool(self.new or self.reapplied)

    def message(self) -> str:
        """For the participant, in their language: what changed, or that nothing did."""
        parts: list[StrOrPromise] = []
        if self.new:
            parts.append(interpolate(_("Registered for %(tracks)s."), tracks=_names(self.new)))
        if self.reapplied:
            parts.append(
                interpolate(
                    _("Applied again for %(tracks)s, refused before."),
                    tracks=_names(self.reapplied),
                )
            )
        for registration in self.unchanged:
            status = RegistrationStatus(registration.status)
            parts.append(
                interpolate(
                    _("%(track)s: nothing changed (%(status)s)."),
                    track=registration.track.name,
                    status=_("already approved")
                    if status == "approved"
                    else str(status.label).lower(),
                )
            )
        if any(r.status == RegistrationStatus.PENDING for r in self.new + self.reapplied):
            parts.append(_("The organisers will decide on each track."))
        return str(sentences(parts)) or str(_("Nothing changed."))


def _names(registrations: list[Registration]) -> StrOrPromise:
    return listing(r.track.name for r in registrations)


def do_add_registrations(
    site: Site,
    tracks: Mapping[Track, str],
    *,
    by: Account | None = None,
    now: datetime | None = None,
) -> RegistrationChanges:
    """A member of the site registers it for more tracks (approved at once if the bakeoff says
    so, or after publication, for post-bakeoff runs).

    A refused track asked for again waits for a new decision; an approved or waiting one is left
    as it is."""
    now = now or clock.now()
    bakeoff = site.bakeoff
    terms = check_registration(
        bakeoff,
        tracks,
        site_name=site.name,
        institution=site.institution,
        entrance=Entrance.SITE,
        now=now,
        site=site,
    )
    post_bakeoff = terms.post_bakeoff
    changes = RegistrationChanges()
    with transaction.atomic():
        for track, statement in tracks.items():
            registration, created = Registration.objects.get_or_create(
                site=site,
                track=track,
                defaults={
                    "resources_statement": statement.strip(),
                    "created_at": now,
                    "post_bakeoff": post_bakeoff,
                },
            )
            if created:
                changes.new.append(registration)
            elif Registration.objects.filter(
                pk=registration.pk, status=RegistrationStatus.REFUSED
            ).update(
                status=RegistrationStatus.PENDING,
                resources_statement=statement.strip(),
                created_at=now,
                decided_at=None,
                decided_by=None,
                refusal_reason="",
                post_bakeoff=post_bakeoff,
            ):
                registration.refresh_from_db()
                changes.reapplied.append(registration)
            else:
                changes.unchanged.append(registration)
        for registration in changes.new + changes.reapplied:
            audit.record(
                bakeoff,
                audit.REGISTRATION_APPLIED,
                Subject(REGISTRATION, {"site": site.name, "track": registration.track.name}),
                actor=by,
                track=registration.track,
                site=site,
                now=now,
                again=registration in changes.reapplied,
                resources_statement=registration.resources_statement,
            )
        if changes.changed:
            signals.registration_received.send(
                sender=Registration,
                site=site,
                registrations=changes.new + changes.reapplied,
                now=now,
            )
    if terms.approved_at_once:
        for registration in changes.new + changes.reapplied:
            do_approve_registration(registration, by=None, now=now)
            registration.refresh_from_db()
    return changes


def do_approve_registration(
    registration: Registration, *, by: Account | None, now: datetime | None = None
) -> bool:
    now = now or clock.now()
    with transaction.atomic():
        changed = Registration.objects.filter(
            pk=registration.pk, status=RegistrationStatus.PENDING
        ).update(status=RegistrationStatus.APPROVED, decided_at=now, decided_by=by)
        if changed:
            do_assign_site_code(registration.site)
        registration.refresh_from_db()
        if changed:
            _record_decision(registration, audit.REGISTRATION_APPROVED, by=by, now=now)
            signals.registration_decided.send(
                sender=Registration, registration=registration, now=now
            )
    return bool(changed)


REASON_NEEDED = _("Say why the registration is refused: its site is told.")


def do_refuse_registration(
    registration: Registration,
    *,
    by: Account | None,
    reason: str,
    now: datetime | None = None,
) -> bool:
    """Refuse a pending registration with a reason, which its site is mailed."""
    now = now or clock.now()
    reason = reason.strip()
    if not reason:
        raise Refused(REASON_NEEDED)
    with transaction.atomic():
        changed = Registration.objects.filter(
            pk=registration.pk, status=RegistrationStatus.PENDING
        ).update(
            status=RegistrationStatus.REFUSED,
            decided_at=now,
            decided_by=by,
            refusal_reason=reason,
        )
        registration.refresh_from_db()
        if changed:
            _record_decision(
                registration, audit.REGISTRATION_REFUSED, by=by, now=now, reason=reason
            )
            signals.registration_decided.send(
                sender=Registration, registration=registration, now=now
            )
    return bool(changed)


def do_give_refusal_reason(
    registration: Registration, *, by: Account | None, reason: str, now: datetime | None = None
) -> bool:
    """The reason of a registration refused without one (before reasons were required): set
    once, recorded, and mailed to the site; False when it was not refused or has a reason."""
    now = now or clock.now()
    reason = reason.strip()
    if not reason:
        raise Refused(REASON_NEEDED)
    with transaction.atomic():
        changed = Registration.objects.filter(
            pk=registration.pk, status=RegistrationStatus.REFUSED, refusal_reason=""
        ).update(refusal_reason=reason)
        registration.refresh_from_db()
        if changed:
            _record_decision(
                registration, audit.REGISTRATION_REFUSED, by=by, now=now, reason=reason
            )
            signals.registration_decided.send(
                sender=Registration, registration=registration, now=now, reason_later=True
            )
    return bool(changed)


def _record_decision(
    registration: Registration, action: str, *, by: Account | None, now: datetime, reason: str = ""
) -> None:
    site = registration.site
    extra = {"reason": reason} if action == audit.REGISTRATION_REFUSED else {}
    audit.record(
        site.bakeoff,
        action,
        Subject(REGISTRATION, {"site": site.name, "track": registration.track.name}),
        actor=by,
        track=registration.track,
        site=site,
        now=now,
        automatic=by is None,
        site_code=site.code,
        **extra,
    )


def do_assign_site_code(site: Site) -> str:
    """Give the site the next code (S01, S02...) unless it has one; codes are unique in the DB."""
    for _attempt in range(20):
        site.refresh_from_db(fields=["number"])
        if site.number:
            return site.code
        taken = Site.objects.filter(bakeoff=site.bakeoff_id).aggregate(n=Max("number"))["n"]
        try:
            with transaction.atomic():
                Site.objects.filter(pk=site.pk, number__isnull=True).update(number=(taken or 0) + 1)
        except IntegrityError:
            continue  # another site took that number at the same moment
    raise Refused(_("Could not assign a site code; try again."))


def approved_site(user: User, track: Track) -> Site | None:
    """The site through which ``user`` is approved for ``track`` (the first made, if several);
    None for a visitor who is not signed in."""
    if user.pk is None:
        return None
    return (
        Site.objects.filter(
            bakeoff=track.corpus.bakeoff_id,
            members__pk=user.pk,
            registrations__track=track,
            registrations__status=RegistrationStatus.APPROVED,
        )
        .order_by("pk")
        .first()
    )
