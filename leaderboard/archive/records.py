"""The rows of one bakeoff: found, written as JSON lines, and read back.

What belongs to a bakeoff is what deleting it would delete (Django's ``Collector``: every row
that reaches the bakeoff through the models' foreign keys, the tables of many-to-many fields
included, in every app: gold versions, sites, registrations, runs, scores, standings, results
versions, committees, analyses, ...), and its audit trail, whose references are never cascaded.
Nothing is listed by hand: a model added later is archived without a change here.

Left out: the mails sent (``notifications.Mail``): an imported mail still waiting would be sent a
second time by the instance that imports it. The accounts the rows name are archived apart
(``accounts.jsonl``: username, e-mail and names only, never a password).

Rows keep their primary keys, so that the keys written inside their JSON (the aliases of an
anonymised publication, the frozen tables' rows, the erratum's changes) still name the same rows.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from django.apps import apps
from django.conf import settings
from django.core import serializers
from django.db import DEFAULT_DB_ALIAS, models
from django.db.models.deletion import Collector

from bakeoff.models import AuditEntry, Bakeoff
from bakeoff.services.backup import ExactEncoder

EXCLUDED = frozenset({"notifications.Mail"})
# Rows that no other row names, imported under new keys: the audit trail outlives a deleted
# bakeoff (its entries keep their keys in the database), and one import adds an entry of its own.
NEW_KEYS = frozenset({"bakeoff.AuditEntry"})
ACCOUNT_FIELDS = ("username", "email", "first_name", "last_name")


def user_model() -> type[models.Model]:
    return apps.get_model(settings.AUTH_USER_MODEL)


def rows_of(bakeoff: Bakeoff) -> dict[str, list[models.Model]]:
    """The bakeoff's rows by model label (``bakeoff.Site``), each list by primary key."""
    collector = Collector(using=DEFAULT_DB_ALIAS, origin=bakeoff)
    collector.collect([bakeoff])
    found: dict[str, dict[Any, models.Model]] = {}

    def add(objects: Iterable[models.Model]) -> None:
        for obj in objects:
            label = type(obj)._meta.label
            if label not in EXCLUDED:
                found.setdefault(label, {})[obj.pk] = obj

    for instances in collector.data.values():
        add(instances)
    for queryset in collector.fast_deletes:
        add(queryset)
    add(AuditEntry.objects.filter(bakeoff=bakeoff).order_by("pk"))
    return {
        label: _whole(apps.get_model(label), sorted(rows)) for label, rows in sorted(found.items())
    }


def _whole(model: type[models.Model], pks: list[Any]) -> list[models.Model]:
    """The rows read again with every field, by primary key (as many keys a query as the database
    takes): the collector reads only the fields a deletion needs, and each field left out would
    cost a query per row when it is written."""
    rows = model._base_manager.in_bulk(pks)
    return [rows[pk] for pk in pks]


def own_fields(model: type[models.Model]) -> list[str]:
    """The fields written with a row: its columns (many-to-many fields are rows of their own)."""
    return [f.name for f in model._meta.concrete_fields if not f.primary_key]


def user_fields(model: type[models.Model]) -> list[models.ForeignKey[Any, Any]]:
    """The model's foreign keys to accounts."""
    user = user_model()
    return [
        f
        for f in model._meta.concrete_fields
        if isinstance(f, models.ForeignKey) and f.related_model is user
    ]


def file_fields(model: type[models.Model]) -> list[models.FileField]:
    return [f for f in model._meta.concrete_fields if isinstance(f, models.FileField)]


def jsonl(rows: list[models.Model]) -> bytes:
    """The rows as Django's serialisation, one JSON object a line (times to the microsecond)."""
    if not rows:
        return b""
    model = type(rows[0])
    text: str = serializers.serialize("jsonl", rows, cls=ExactEncoder, fields=own_fields(model))
    return text.encode("utf-8")


def accounts_of(rows: dict[str, list[models.Model]]) -> list[dict[str, Any]]:
    """The accounts the rows name (foreign keys, and many-to-many rows), by primary key."""
    pks: set[int] = set()
    for label, objects in rows.items():
        fields = user_fields(apps.get_model(label))
        for obj in objects:
            for f in fields:
                value = getattr(obj, f.attname)
                if value is not None:
                    pks.add(int(value))
    user = user_model()
    return [
        {"pk": row["pk"], **{f: row[f] for f in ACCOUNT_FIELDS}}
        for row in user._base_manager.filter(pk__in=pks)
        .order_by("pk")
        .values("pk", *ACCOUNT_FIELDS)
    ]


def read_jsonl(data: bytes) -> list[dict[str, Any]]:
    return [json.loads(line) for line in data.decode("utf-8").splitlines() if line.strip()]


def insertion_order(labels: Iterable[str]) -> list[str]:
    """The models so that a row comes after the rows its foreign keys name (the constraints are
    checked at commit anyway; the order keeps the reading simple)."""
    wanted = set(labels)
    order: list[str] = []
    seen: set[str] = set()

    def visit(label: str) -> None:
        if label in seen:
            return
        seen.add(label)
        for f in apps.get_model(label)._meta.concrete_fields:
            if isinstance(f, models.ForeignKey) and f.related_model is not None:
                target = f.related_model._meta.label
                if target in wanted and target != label:
                    visit(target)
        order.append(label)

    for label in sorted(wanted):
        visit(label)
    return order
