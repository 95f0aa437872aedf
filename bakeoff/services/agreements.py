"""Data agreements: a corpus may carry a licence text, which a member of a site accepts before
the site's first download of any of the corpus's files, and before its first upload of a run for
a track of the corpus (``check_licence_accepted``, which every phase's upload rule calls, on the
pages and through the API). Organisers download without it."""

from __future__ import annotations

import hashlib
from datetime import datetime

from django.db import IntegrityError, transaction
from django.utils.translation import gettext_lazy as _

from .. import access, audit, clock
from ..access import Account, User
from ..audit_text import LICENCE, Subject
from ..errors import NotAllowed, interpolate
from ..models import Corpus, LicenceAcceptance, RegistrationStatus, Site


def licence_checksum(corpus: Corpus) -> str:
    return "sha256:" + hashlib.sha256(corpus.licence.strip().encode("utf-8")).hexdigest()


def sites_to_accept(user: User, corpus: Corpus) -> list[Site]:
    """The user's sites registered (approved) for a track of the corpus."""
    return list(
        access.sites_of(user, corpus.bakeoff)
        .filter(
            registrations__track__corpus=corpus,
            registrations__status=RegistrationStatus.APPROVED,
        )
        .distinct()
        .order_by("pk")
    )


def needs_agreement(user: User, corpus: Corpus) -> bool:
    """Whether the user must accept the corpus's licence before downloading its files."""
    if not corpus.licence.strip() or access.is_organiser(user, corpus.bakeoff):
        return False
    return not LicenceAcceptance.objects.filter(
        corpus=corpus,
        site__in=sites_to_accept(user, corpus),
        licence_checksum=licence_checksum(corpus),
    ).exists()


class LicenceNotAccepted(NotAllowed):
    code = "licence_not_accepted"


def check_licence_accepted(site: Site, corpus: Corpus) -> None:
    """Refuses an upload for a track of ``corpus`` until a member of ``site`` accepted the
    corpus's current licence text (as the agreement page records it)."""
    if not corpus.licence.strip():
        return
    accepted = LicenceAcceptance.objects.filter(
        corpus=corpus, site=site, licence_checksum=licence_checksum(corpus)
    ).exists()
    if not accepted:
        raise LicenceNotAccepted(
            interpolate(
                _(
                    "A member of your site must accept the data agreement of %(corpus)s before "
                    "the site uploads a run for its tracks."
                ),
                corpus=corpus.abbreviation,
            ),
            corpus=corpus.abbreviation,
        )


def do_accept_licence(
    corpus: Corpus, user: Account, *, now: datetime | None = None
) -> list[LicenceAcceptance]:
    """Record that ``user`` accepted the licence for each of their sites registered for it."""
    now = now or clock.now()
    sites = sites_to_accept(user, corpus)
    if not sites:
        raise NotAllowed(_("Only sites registered for a track of this corpus accept its licence."))
    checksum = licence_checksum(corpus)
    accepted = []
    for site in sites:
        try:
            with transaction.atomic():
                acceptance, created = LicenceAcceptance.objects.get_or_create(
                    corpus=corpus,
                    site=site,
                    licence_checksum=checksum,
                    defaults={"accepted_by": user, "accepted_at": now},
                )
                if created:
                    audit.record(
                        corpus.bakeoff,
                        audit.LICENCE_ACCEPTED,
                        Subject(
                            LICENCE, {"site": site.code or site.name, "corpus": corpus.abbreviation}
                        ),
                        actor=user,
                        site=site,
                        now=now,
                        licence_checksum=checksum,
                    )
        except IntegrityError:  # another member of the site accepted it at the same moment
            acceptance = LicenceAcceptance.objects.get(
                corpus=corpus, site=site, licence_checksum=checksum
            )
        accepted.append(acceptance)
    return accepted
