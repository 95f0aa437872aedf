"""What organisers change on their own bakeoff besides the timetable: its organisers, a corpus's
description, a track's run limit, a site's details and its registrations. Every change is checked
here (the object belongs to the bakeoff, names are one line) and recorded in the audit trail; the
organiser pages are the only way in (the Django admin is for superusers).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from bakeoff.errors import interpolate

from .. import audit, clock
from ..access import Account
from ..audit_text import REGISTRATION, Subject
from ..errors import Refused
from ..models import (
    Bakeoff,
    Corpus,
    Registration,
    RegistrationStatus,
    Site,
    Track,
    validate_single_line,
)
from .registration import (
    Entrance,
    check_not_asked_already,
    check_registration,
    do_approve_registration,
)


def check_single_line(**names: str) -> None:
    for label, value in names.items():
        try:
            validate_single_line(value)
        except ValidationError:
            raise Refused(
                interpolate(
                    _("The %(replace)s is one line: no line break, tab or control character."),
                    replace=label.replace("_", " "),
                )
            ) from None


def do_add_organiser(
    bakeoff: Bakeoff, name_or_email: str, *, by: Account, now: datetime | None = None
) -> User:
    """Make an existing account (by user name or e-mail address) an organiser of the bakeoff."""
    wanted = name_or_email.strip()
    found = list(
        User.objects.filter(Q(username__iexact=wanted) | Q(email__iexact=wanted), is_active=True)[
            :2
        ]
    )
    if len(found) != 1:
        raise Refused(
            interpolate(
                _("No single active account has the user name or address %(wanted)s."),
                wanted=repr(wanted),
            )
        )
    user = found[0]
    with transaction.atomic():
        if bakeoff.organisers.filter(pk=user.pk).exists():
            raise Refused(
                interpolate(
                    _("%(username)s already organises this bakeoff."), username=user.get_username()
                )
            )
        bakeoff.organisers.add(user)
        audit.record(
            bakeoff,
            audit.ORGANISER_ADDED,
            user.get_username(),
            actor=by,
            now=now or clock.now(),
        )
    return user


def do_remove_organiser(
    bakeoff: Bakeoff, user: User, *, by: Account, now: datetime | None = None
) -> None:
    with transaction.atomic():
        organisers = list(
            Bakeoff.organisers.through.objects.select_for_update()
            .filter(bakeoff=bakeoff)
            .values_list("user_id", flat=True)
        )
        if user.pk not in organisers:
            raise Refused(
                interpolate(
                    _("%(username)s does not organise this bakeoff."), username=user.get_username()
                )
            )
        if len(organisers) == 1:
            raise Refused(_("A bakeoff keeps at least one organiser."))
        bakeoff.organisers.remove(user)
        audit.record(
            bakeoff,
            audit.ORGANISER_REMOVED,
            user.get_username(),
            actor=by,
            now=now or clock.now(),
        )


def do_edit_corpus(
    corpus: Corpus,
    *,
    name: str,
    institution: str,
    standard: str,
    notes: str,
    by: Account,
    now: datetime | None = None,
) -> list[str]:
    """Change what describes a corpus (its files and abbreviation stay); returns the fields
    changed."""
    check_single_line(name=name, institution=institution, standard=standard)
    new = {"name": name, "institution": institution, "standard": standard, "notes": notes}
    changed = {key: value for key, value in new.items() if getattr(corpus, key) != value}
    if not changed:
        return []
    with transaction.atomic():
        old = {key: getattr(corpus, key) for key in changed}
        Corpus.objects.filter(pk=corpus.pk).update(**changed)
        for key, value in changed.items():
            setattr(corpus, key, value)
        audit.record(
            corpus.bakeoff,
            audit.CORPUS_EDITED,
            corpus.abbreviation,
            actor=by,
            now=now or clock.now(),
            old=old,
            new=changed,
        )
    return sorted(changed)


def do_set_max_runs(
    track: Track, max_runs: int, *, by: Account, now: datetime | None = None
) -> bool:
    """Change the runs a site may send to a track (runs already stored keep their number)."""
    if not 1 <= max_runs <= 99:
        raise Refused(_("A track allows between 1 and 99 runs per site."))
    if track.max_runs == max_runs:
        return False
    with transaction.atomic():
        old = track.max_runs
        Track.objects.filter(pk=track.pk).update(max_runs=max_runs)
        track.max_runs = max_runs
        audit.record(
            track.corpus.bakeoff,
            audit.TRACK_EDITED,
            track.name,
            actor=by,
            track=track,
            now=now or clock.now(),
            old={"max_runs": old},
            new={"max_runs": max_runs},
        )
    return True


def do_edit_site(
    site: Site,
    *,
    name: str,
    institution: str,
    country: str,
    contact_email: str,
    commercial_product: bool,
    by: Account,
    now: datetime | None = None,
) -> list[str]:
    check_single_line(site_name=name, institution=institution, country=country)
    new = {
        "name": name,
        "institution": institution,
        "country": country,
        "contact_email": contact_email,
        "commercial_product": commercial_product,
    }
    changed = {key: value for key, value in new.items() if getattr(site, key) != value}
    if not changed:
        return []
    try:
        with transaction.atomic():
            old = {key: getattr(site, key) for key in changed}
            Site.objects.filter(pk=site.pk).update(**changed)
            audit.record(
                site.bakeoff,
                audit.SITE_EDITED,
                name,
                actor=by,
                site=site,
                now=now or clock.now(),
                old=old,
                new=changed,
            )
    except IntegrityError:
        raise Refused(
            interpolate(_("Another site of this bakeoff is named %(name)s."), name=repr(name))
        ) from None
    for key, value in changed.items():
        setattr(site, key, value)
    return sorted(changed)


def do_add_site_registrations(
    site: Site,
    tracks: Mapping[Track, str],
    *,
    approve: bool,
    by: Account,
    now: datetime | None = None,
) -> list[Registration]:
    """An organiser registers one of the bakeoff's sites for tracks of the same bakeoff,
    approved at once if ``approve``. The rules are ``check_registration``'s, as the organiser's
    row of ``ENTRANCES`` has them."""
    now = now or clock.now()
    terms = check_registration(
        site.bakeoff,
        tracks,
        site_name=site.name,
        institution=site.institution,
        entrance=Entrance.ORGANISER,
        now=now,
        site=site,
    )
    try:
        with transaction.atomic():
            added = [
                Registration.objects.create(
                    site=site,
                    track=track,
                    resources_statement=statement.strip(),
                    created_at=now,
                    status=RegistrationStatus.PENDING,
                    post_bakeoff=terms.post_bakeoff,
                )
                for track, statement in tracks.items()
            ]
            for registration in added:
                audit.record(
                    site.bakeoff,
                    audit.REGISTRATION_ADDED,
                    Subject(REGISTRATION, {"site": site.name, "track": registration.track.name}),
                    actor=by,
                    track=registration.track,
                    site=site,
                    now=now,
                    approve=approve,
                )
    except IntegrityError:  # the site asked for one of the tracks since the check
        check_not_asked_already(site, tracks)
        raise
    if approve:
        for registration in added:
            do_approve_registration(registration, by=by, now=now)
    return added
