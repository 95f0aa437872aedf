"""System-description papers: a site attaches one per track, a PDF stored here or a link."""

from __future__ import annotations

import uuid
from datetime import datetime

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.core.validators import URLValidator
from django.db import transaction
from django.utils.translation import gettext_lazy as _

from bakeoff.errors import interpolate

from .. import audit, clock
from ..access import User
from ..audit_text import PAPER, Subject
from ..errors import InvalidFile, NotAllowed
from ..models import Site, SystemPaper, Track
from ..validators import check_text
from . import uploads
from .registration import approved_site
from .uploads import Chunked

PAPER_MAX_BYTES = 10 << 20  # 10 MB


def check_pdf(data: bytes) -> None:
    """A PDF: it starts with the PDF header and ends with its end-of-file marker."""
    if not data.startswith(b"%PDF-"):
        raise InvalidFile(_("The paper is not a PDF (a PDF file starts with %PDF-)."))
    if b"%%EOF" not in data[-2048:]:
        raise InvalidFile(_("The PDF is cut short: it has no end-of-file marker (%%EOF)."))


def check_url(url: str) -> str:
    url = url.strip()
    try:
        URLValidator(schemes=["http", "https"])(url)
    except ValidationError:
        raise InvalidFile(
            interpolate(_("%(url)s is not a web address (http:// or https://)."), url=repr(url))
        ) from None
    return url


def site_for_paper(user: User, track: Track) -> Site:
    """The site on whose behalf ``user`` attaches a paper for ``track``."""
    site = approved_site(user, track)
    if site is None:
        raise NotAllowed(
            interpolate(
                _("Only a site registered for %(name)s may attach a paper to it."), name=track.name
            )
        )
    return site


def do_attach_paper(
    user: User,
    track: Track,
    *,
    upload: bytes | Chunked | None = None,
    url: str = "",
    title: str = "",
    now: datetime | None = None,
) -> SystemPaper:
    """Attach (or replace) the site's paper for the track: a PDF of at most 10 MB, or a link."""
    now = now or clock.now()
    check_text(title=title, url=url)
    site = site_for_paper(user, track)
    values: dict[str, object] = {
        "title": title.strip()[:300],
        "attached_at": now,
        "attached_by": user if isinstance(user, AbstractBaseUser) else None,
        "url": "",
        "checksum": "",
    }
    data = None
    if upload is not None:
        data = uploads.read_capped(upload, limit=PAPER_MAX_BYTES)
        check_pdf(data)
        values["checksum"] = uploads.checksum(data)
    else:
        values["url"] = check_url(url)
    with uploads.files_removed_on_failure(), transaction.atomic():
        paper = SystemPaper.objects.select_for_update().filter(
            site=site, track=track
        ).first() or SystemPaper(site=site, track=track)
        old = paper.file.name or ""
        replaced = paper.pk is not None
        for key, value in values.items():
            setattr(paper, key, value)
        if data is not None:
            uploads.store(paper.file, f"{track.slug}-{site.pk}-{uuid.uuid4().hex[:12]}.pdf", data)
        else:
            paper.file.name = ""
        paper.save()
        audit.record(
            track.corpus.bakeoff,
            audit.PAPER_ATTACHED,
            Subject(PAPER, {"site": site.code or site.name, "track": track.name}),
            actor=user,
            track=track,
            site=site,
            now=now,
            title=paper.title,
            checksum=paper.checksum,
            url=paper.url,
            replaced=replaced,
        )
    if old and old != paper.file.name:
        paper.file.storage.delete(old)
    return paper
