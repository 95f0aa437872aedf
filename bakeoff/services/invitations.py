"""Invitations: an organiser invites one address, or a CSV of sites (site name, institution,
contact e-mail); each address gets a one-time link, valid for 14 days, that makes or links an
account and puts it in the site.

The link carries the invitation's number, signed with the secret key (a forged or altered link
fails the signature); the row says whether it was used and until when it is valid.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from datetime import datetime, timedelta

from allauth.account.models import EmailAddress
from django.contrib.auth.models import User
from django.core import signing
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from bakeoff.errors import interpolate

from .. import audit, clock, signals
from ..access import Account
from ..audit_text import (
    INVITATION_ACCEPTED,
    INVITATION_ACCEPTED_MEMBER,
    INVITATION_TO_SITE,
    Subject,
)
from ..errors import InvalidFile, Refused
from ..models import Bakeoff, Invitation, Site
from .instants import stamp

VALID_FOR = timedelta(days=14)
SALT = "bakeoff.invitation"
MAX_ROWS = 1000


class InvitationInvalid(Refused):
    """A link that no invitation of ours made (forged, altered, or of a deleted invitation)."""

    status_code = 404


class InvitationUsed(Refused):
    status_code = 410


class InvitationExpired(Refused):
    status_code = 410


def link_path(invitation: Invitation) -> str:
    return reverse("invitation", args=[signing.dumps(invitation.pk, salt=SALT)])


def invitation_for(token: str, *, now: datetime | None = None) -> Invitation:
    """The invitation of a link that may still be used, or the refusal that says why not."""
    now = now or clock.now()
    try:
        pk = signing.loads(token, salt=SALT)
    except signing.BadSignature:
        pk = None
    invitation = (
        Invitation.objects.select_related("bakeoff", "site").filter(pk=pk).first()
        if isinstance(pk, int)
        else None
    )
    if invitation is None:
        raise InvitationInvalid(
            _(
                "This invitation link is not valid. Check that it was copied whole, or ask the "
                "organisers for a new one."
            )
        )
    if invitation.accepted_at is not None:
        raise InvitationUsed(
            interpolate(
                _(
                    "This invitation was already used, on %(when)s. Log in with the account it "
                    "made or linked."
                ),
                when=stamp(invitation.accepted_at, invitation.bakeoff),
            )
        )
    if now >= invitation.expires_at:
        raise InvitationExpired(
            interpolate(
                _("This invitation expired on %(when)s. Ask the organisers for a new one."),
                when=stamp(invitation.expires_at, invitation.bakeoff),
            )
        )
    return invitation


def check_invitation(bakeoff: Bakeoff, email: str, site: Site | None, *, now: datetime) -> str:
    """The address, normalised, or a refusal: not an address, a member already, invited already."""
    email = email.strip()
    try:
        validate_email(email)
    except ValidationError:
        raise Refused(
            interpolate(_("%(email)s is not an e-mail address."), email=repr(email))
        ) from None
    if site is not None and site.members.filter(email__iexact=email).exists():
        raise Refused(
            interpolate(
                _("%(email)s is already a member of %(name)s."), email=email, name=site.name
            )
        )
    pending = Invitation.objects.filter(
        bakeoff=bakeoff,
        site=site,
        email__iexact=email,
        accepted_at__isnull=True,
        expires_at__gt=now,
    ).first()
    if pending is not None:
        text = (
            _(
                "%(email)s was already invited to %(site)s on %(sent)s; that link is valid "
                "until %(until)s UTC."
            )
            if site
            else _(
                "%(email)s was already invited on %(sent)s; that link is valid until %(until)s UTC."
            )
        )
        raise Refused(
            interpolate(
                text,
                email=email,
                site=site.name if site else "",
                sent=f"{pending.created_at:%Y-%m-%d}",
                until=f"{pending.expires_at:%Y-%m-%d %H:%M}",
            )
        )
    return email


def do_invite(
    bakeoff: Bakeoff,
    email: str,
    *,
    site: Site | None = None,
    by: Account | None = None,
    now: datetime | None = None,
) -> Invitation:
    now = now or clock.now()
    email = check_invitation(bakeoff, email, site, now=now)
    with transaction.atomic():
        invitation = Invitation.objects.create(
            bakeoff=bakeoff,
            site=site,
            email=email,
            created_at=now,
            expires_at=now + VALID_FOR,
            invited_by=by,
        )
        audit.record(
            bakeoff,
            audit.INVITATION_SENT,
            Subject(INVITATION_TO_SITE, {"email": email, "site": site.name})
            if site is not None
            else email,
            actor=by,
            site=site,
            now=now,
            invitation=invitation.pk,
            expires_at=invitation.expires_at,
        )
        signals.invitation_created.send(
            sender=Invitation, invitation=invitation, path=link_path(invitation), now=now
        )
    return invitation


@dataclass(frozen=True)
class SiteRow:
    line: int
    name: str
    institution: str
    email: str


def read_sites_csv(data: bytes) -> list[SiteRow]:
    """Rows of ``site name, institution, contact e-mail`` (a header line is allowed); a bad line
    refuses the whole file, naming the line."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise InvalidFile(
            interpolate(_("Line %(line)s: the file is not UTF-8."), line=line), line=line
        ) from None
    rows: list[SiteRow] = []
    names: dict[str, int] = {}
    emails: dict[str, int] = {}
    for line, cells in enumerate(csv.reader(io.StringIO(text)), 1):
        cells = [cell.strip() for cell in cells]
        if not any(cells):
            continue
        if line == 1 and cells and cells[0].casefold() in {"site", "site name", "name"}:
            continue  # the header
        if len(cells) != 3:
            raise InvalidFile(
                interpolate(
                    _(
                        "Line %(line)s: expected 3 columns (site name, institution, "
                        "contact e-mail), found %(count)s."
                    ),
                    line=line,
                    count=len(cells),
                ),
                line=line,
            )
        name, institution, email = cells
        if not name or not institution:
            raise InvalidFile(
                interpolate(
                    _("Line %(line)s: the site name and institution are required."), line=line
                ),
                line=line,
            )
        try:
            validate_email(email)
        except ValidationError:
            raise InvalidFile(
                interpolate(
                    _("Line %(line)s: %(email)s is not an e-mail address."),
                    line=line,
                    email=repr(email),
                ),
                line=line,
            ) from None
        if name.casefold() in names:
            raise InvalidFile(
                interpolate(
                    _("Line %(line)s: the site %(name)s is already on line %(value)s."),
                    line=line,
                    name=repr(name),
                    value=names[name.casefold()],
                ),
                line=line,
            )
        if email.casefold() in emails:
            raise InvalidFile(
                interpolate(
                    _("Line %(line)s: %(email)s is already on line %(value)s."),
                    line=line,
                    email=email,
                    value=emails[email.casefold()],
                ),
                line=line,
            )
        names[name.casefold()] = emails[email.casefold()] = line
        rows.append(SiteRow(line, name, institution, email))
        if len(rows) > MAX_ROWS:
            raise InvalidFile(
                interpolate(_("More than %(MAX_ROWS)s sites in one file."), MAX_ROWS=MAX_ROWS),
                line=line,
            )
    if not rows:
        raise InvalidFile(_("The file has no site."))
    return rows


def do_invite_sites(
    bakeoff: Bakeoff,
    rows: list[SiteRow],
    *,
    by: Account | None = None,
    now: datetime | None = None,
) -> list[Invitation]:
    """Create each site (or find it by name) with its contact address, and invite the address.
    All or nothing: a refused row refuses the file, naming its line."""
    now = now or clock.now()
    invitations = []
    with transaction.atomic():
        for row in rows:
            site: Site | None = Site.objects.filter(bakeoff=bakeoff, name__iexact=row.name).first()
            if site is None:
                site = Site.objects.create(
                    bakeoff=bakeoff,
                    name=row.name,
                    institution=row.institution,
                    country="",
                    commercial_product=False,
                    contact_email=row.email,
                )
            elif not site.contact_email:
                Site.objects.filter(pk=site.pk).update(contact_email=row.email)
            try:
                invitations.append(do_invite(bakeoff, row.email, site=site, by=by, now=now))
            except Refused as refusal:
                raise InvalidFile(
                    interpolate(
                        _("Line %(line)s: %(detail)s"), line=row.line, detail=refusal.detail
                    ),
                    line=row.line,
                ) from None
    return invitations


def do_accept_invitation(
    invitation: Invitation, user: Account, *, now: datetime | None = None
) -> bool:
    """Use the invitation for ``user`` (once): the account joins the site. An account without an
    address takes the invited one, verified: the link reached it."""
    now = now or clock.now()
    with transaction.atomic():
        taken = Invitation.objects.filter(
            pk=invitation.pk, accepted_at__isnull=True, expires_at__gt=now
        ).update(accepted_at=now, accepted_by=user)
        if not taken:
            return False
        if invitation.site is not None:
            invitation.site.members.add(user)
        audit.record(
            invitation.bakeoff,
            audit.INVITATION_ACCEPTED,
            Subject(INVITATION_ACCEPTED, {"email": invitation.email, "user": user.get_username()})
            if invitation.site is None
            else Subject(
                INVITATION_ACCEPTED_MEMBER,
                {
                    "email": invitation.email,
                    "user": user.get_username(),
                    "site": invitation.site.name,
                },
            ),
            actor=user,
            site=invitation.site,
            now=now,
            invitation=invitation.pk,
        )
        if not user.email and not User.objects.filter(email__iexact=invitation.email).exists():
            user.email = invitation.email
            user.save(update_fields=["email"])
        if user.email.casefold() == invitation.email.casefold():
            EmailAddress.objects.update_or_create(
                user=user,
                email=user.email,
                defaults={"verified": True, "primary": True},
            )
    invitation.refresh_from_db()
    return True


def do_create_invited_account(
    invitation: Invitation, *, username: str, password: str, now: datetime | None = None
) -> Account:
    """Make the invited person's account (its address verified by the link) and accept."""
    now = now or clock.now()
    with transaction.atomic():
        if User.objects.filter(username__iexact=username).exists():
            raise Refused(
                interpolate(
                    _("The user name %(username)s is taken; choose another."),
                    username=repr(username),
                )
            )
        if EmailAddress.objects.filter(email__iexact=invitation.email).exists():
            raise Refused(
                interpolate(
                    _("An account with the address %(email)s exists: log in to accept."),
                    email=invitation.email,
                )
            )
        user = User.objects.create_user(username, invitation.email, password)
        if not do_accept_invitation(invitation, user, now=now):
            raise InvitationUsed(_("This invitation was used or expired meanwhile."))
    return user
