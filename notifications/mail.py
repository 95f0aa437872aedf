"""Composing mail: a kind, a recipient and a template become a recorded ``Mail``, sent by a task
once the transaction that asked for it commits.

A template ``email/NAME`` is three files: ``NAME_subject.txt``, ``NAME.txt`` (the plain text)
and, optionally, ``NAME.html``; without it the HTML part is ``email/message.html`` around the
plain text. The bakeoff's name starts the subject. Mails that can be turned off carry a one-click
link that turns them off (and the List-Unsubscribe headers that mail programs show as a button).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from datetime import datetime
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.core import signing
from django.db import IntegrityError, transaction
from django.db.models import F, QuerySet
from django.template.loader import render_to_string, select_template
from django.urls import reverse
from django.utils import translation

from bakeoff import clock
from bakeoff.models import Bakeoff, ReaderSettings

from . import tasks
from .kinds import KINDS
from .models import Mail, MailPreference

UNSUBSCRIBE_SALT = "notifications.unsubscribe"


def absolute(path: str) -> str:
    """A link into the site, for a mail (which has no request to take the host from)."""
    return settings.SITE_URL.rstrip("/") + path


# Where ``recipients`` puts the language a recipient chose and the one of their pages at their
# last login (None: no row).
LANGUAGE = "mail_language"
LANGUAGE_AT_LOGIN = "mail_language_at_login"
ZONE = "mail_time_zone"  # the zone a recipient chose for the pages ("" or None: none)
PREFERENCES = sorted({kind.preference for kind in KINDS.values() if kind.preference})


def _wants(preference: str) -> str:
    return f"mail_wants_{preference}"


def recipients(users: QuerySet[User]) -> QuerySet[User]:
    """``users`` with their language and mail preferences read in the same query: mailing a
    hundred members then asks nothing more per member (``mail_language`` and ``wants`` read
    them). Read fresh each time, never cached on a user object that may outlive a change."""
    return users.annotate(
        **{LANGUAGE: F("reader_settings__language")},
        **{LANGUAGE_AT_LOGIN: F("reader_settings__pages_language")},
        **{ZONE: F("reader_settings__time_zone")},
        **{_wants(name): F(f"mail_preference__{name}") for name in PREFERENCES},
    )


def wants(user: User, preference: str) -> bool:
    if hasattr(user, _wants(preference)):
        chosen = getattr(user, _wants(preference))
        return chosen is None or bool(chosen)
    preferences = MailPreference.objects.filter(user=user).first()
    return preferences is None or bool(getattr(preferences, preference))


def unsubscribe_token(user: User, preference: str) -> str:
    return signing.dumps([user.pk, preference], salt=UNSUBSCRIBE_SALT)


def read_unsubscribe_token(token: str) -> tuple[int, str]:
    """The user and preference of a link, or ``signing.BadSignature`` for a forged one."""
    value = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    if not (isinstance(value, list) and len(value) == 2 and isinstance(value[0], int)):
        raise signing.BadSignature("Not an unsubscribe link.")
    return value[0], str(value[1])


def language_for_mail(chosen: str | None, at_login: str | None) -> str:
    """The language a user chose for the pages, else the one their pages were in at their last
    login (what their browser asked for), else the site's default (English)."""
    return str(chosen or at_login or settings.LANGUAGE_CODE)


def mail_language(user: User | None) -> str:
    """The language of a user's mail (``language_for_mail``, from their ReaderSettings). An
    address without an account (an invitation) gets the language of the pages of the person whose
    action sends it: the bakeoff's organisers, most likely in its readers' language."""
    if user is None:
        active = translation.get_language()
        return active if active in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE
    if hasattr(user, LANGUAGE):
        return language_for_mail(getattr(user, LANGUAGE), getattr(user, LANGUAGE_AT_LOGIN))
    known = ReaderSettings.objects.filter(user=user).values_list("language", "pages_language")
    return language_for_mail(*(known.first() or ("", "")))


def mail_each(
    kind: str,
    people: Iterable[User],
    *,
    template: str | None = None,
    context: Mapping[str, Any] | Callable[[User], Mapping[str, Any]],
    bakeoff: Bakeoff | None = None,
    key: str,
    now: datetime | None = None,
) -> int:
    """``queue_mail`` to each of ``people``, with the same ``key`` (made per recipient) and the
    template named as the kind unless another is given; ``context`` is the same for all, or made
    for each (what a recipient may see differs). Answers how many mails were recorded."""
    recorded = 0
    for person in people:
        data = context(person) if callable(context) else context
        mail = queue_mail(
            kind,
            person,
            template=template or kind,
            context=data,
            bakeoff=bakeoff,
            key=key,
            now=now,
        )
        recorded += mail is not None
    return recorded


def mail_zone(user: User) -> str:
    """The time zone a user chose for the pages, "" when none (their mail then states instants
    in the bakeoff's zone and UTC only)."""
    if hasattr(user, ZONE):
        return str(getattr(user, ZONE) or "")
    known = ReaderSettings.objects.filter(user=user).values_list("time_zone", flat=True)
    return str(known.first() or "")


def queue_mail(
    kind: str,
    to: User | str,
    *,
    template: str,
    context: Mapping[str, Any] | None = None,
    bakeoff: Bakeoff | None = None,
    key: str | None = None,
    now: datetime | None = None,
) -> Mail | None:
    """Record a mail of ``kind`` to a user (at their address) or to an address, and send it after
    the commit. Answers None when there is nothing to send: no address, a mail the user turned
    off, or one already recorded under ``key`` (per recipient)."""
    spec = KINDS[kind]
    user = to if isinstance(to, User) else None
    address = user.email if user is not None else str(to)
    if not address:
        return None
    if user is not None and spec.preference and not wants(user, spec.preference):
        return None
    full_key = f"{key}:{address.lower()}"[:200] if key else None
    if full_key and Mail.objects.filter(key=full_key).exists():
        return None
    data: dict[str, Any] = {
        **(context or {}),
        "recipient": user,
        "bakeoff": bakeoff,
        "site_url": settings.SITE_URL.rstrip("/"),
        "account_url": absolute(reverse("account")),
    }
    headers: dict[str, str] = {}
    if user is not None and spec.preference:
        link = absolute(
            reverse("notifications:unsubscribe", args=[unsubscribe_token(user, spec.preference)])
        )
        data["unsubscribe_url"] = link
        data["preference_label"] = spec.label
        headers = {
            "List-Unsubscribe": f"<{link}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        }
    # In the language the recipient chose for the pages, else the one they last logged in with.
    with translation.override(mail_language(user)):
        subject = " ".join(
            render_to_string(f"email/{template}_subject.txt", data, using="text").split()
        )
        if bakeoff is not None:
            subject = f"[{bakeoff.name}] {subject}"
        text = render_to_string(f"email/{template}.txt", data, using="text")
        html = select_template([f"email/{template}.html", "email/message.html"]).render(
            {**data, "subject": subject, "text": text}
        )
    return record(
        kind,
        address,
        subject=subject,
        text=text,
        html=html,
        user=user,
        bakeoff=bakeoff,
        key=full_key,
        headers=headers,
        now=now,
    )


def record(
    kind: str,
    address: str,
    *,
    subject: str,
    text: str,
    html: str = "",
    user: User | None = None,
    bakeoff: Bakeoff | None = None,
    key: str | None = None,
    headers: Mapping[str, str] | None = None,
    now: datetime | None = None,
) -> Mail | None:
    """Record a composed mail and queue it for after the commit (None: its key was taken)."""
    try:
        with transaction.atomic():
            mail = Mail.objects.create(
                kind=kind,
                key=key,
                to=address,
                recipient=user,
                bakeoff=bakeoff,
                subject=subject[:300],
                text=text,
                html=html,
                headers=dict(headers or {}),
                created_at=now or clock.now(),
            )
    except IntegrityError:
        return None  # the same mail was recorded at the same moment
    tasks.send_mail.apply_async_on_commit((mail.pk,), queue=settings.MAIL_QUEUE)
    return mail
