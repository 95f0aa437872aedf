"""The world of the admin's permission table (tests/bakeoff/test_admin.py): two bakeoffs, A and B,
with their organisers, a participant and a superuser, and the fingerprint of a bakeoff's rows that
shows a request changed nothing."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import connection
from django.db.models import Model, QuerySet

from bakeoff.models import (
    Announcement,
    Bakeoff,
    Corpus,
    GoldVersion,
    Invitation,
    LicenceAcceptance,
    Registration,
    Score,
    Site,
    Submission,
    Track,
)
from leaderboard.models import Publication
from tests.factories import make_bakeoff, make_corpus, make_scored_runs, make_site, make_user


@dataclass
class World:
    a: Bakeoff
    b: Bakeoff
    users: dict[str, User | None]
    corpus_a: Corpus
    track_a: Track
    site_a: Site
    pending_a: Registration
    corpus_b: Corpus
    track_b: Track
    site_b: Site


def build_world() -> World:
    organiser = make_user("olga", is_staff=True)
    participant = make_user("pat")
    a = make_bakeoff(organiser=organiser)
    corpus_a = make_corpus(a)
    track_a = corpus_a.tracks.get(condition="closed")
    site_a = make_site(a, participant, [track_a])
    late = make_site(a, make_user("late"), [track_a], name="Late", approved=False)
    make_scored_runs(track_a, 2)
    other = make_user("oscar", is_staff=True)
    b = make_bakeoff(slug="sighan2005", organiser=other, name="SIGHAN 2005")
    corpus_b = make_corpus(b, abbreviation="MSR", institution="Microsoft Research")
    track_b = corpus_b.tracks.get(condition="closed")
    site_b = make_site(b, make_user("bea"), [track_b], name="Team B", approved=False)
    make_scored_runs(track_b, 2)
    root = User.objects.create_superuser("root", "root@example.org", "pw-root")
    return World(
        a=a,
        b=b,
        users={
            "organiser": organiser,
            "other_organiser": other,
            "participant": participant,
            "anonymous": None,
            "superuser": root,
        },
        corpus_a=corpus_a,
        track_a=track_a,
        site_a=site_a,
        pending_a=late.registrations.get(),
        corpus_b=corpus_b,
        track_b=track_b,
        site_b=site_b,
    )


def stored_rows(bakeoff: int) -> list[QuerySet[Any, Any]]:
    """Every stored row of a bakeoff (its key), each query ordered by a unique key."""
    scopes: list[tuple[type[Model], str]] = [
        (Bakeoff, "pk"),
        (Corpus, "bakeoff"),
        (GoldVersion, "corpus__bakeoff"),
        (Track, "corpus__bakeoff"),
        (Site, "bakeoff"),
        (Registration, "site__bakeoff"),
        (Submission, "track__corpus__bakeoff"),
        (Score, "submission__track__corpus__bakeoff"),
        (Invitation, "bakeoff"),
        (Announcement, "bakeoff"),
        (LicenceAcceptance, "corpus__bakeoff"),
        (Publication, "bakeoff"),
    ]
    rows: list[QuerySet[Any, Any]] = []
    for model, path in scopes:
        rows.append(model._default_manager.filter(**{path: bakeoff}).order_by("pk").values())
    organisers = Bakeoff.organisers.through.objects.filter(bakeoff=bakeoff)
    rows.append(organisers.order_by("user").values("user_id"))
    rows.append(Site.members.through.objects.filter(site__bakeoff=bakeoff).order_by("pk").values())
    return rows


def fingerprints(bakeoffs: list[Bakeoff]) -> list[list[Any]]:
    """Every stored row of each bakeoff, as values: equal before and after means nothing changed.

    The table reads them around every request (thousands of reads): on PostgreSQL in one query,
    each set of rows as the JSON text of its values in its order (the text of equal values is
    equal, of different values different); elsewhere in a query a set of rows."""
    keys = tuple(bakeoff.pk for bakeoff in bakeoffs)
    if not keys:
        return []
    if connection.vendor != "postgresql":
        with connection.cursor() as cursor:
            found = []
            for key in keys:
                for sql, params in plain_queries(key):
                    cursor.execute(sql, params)
                    found.append(cursor.fetchall())
        return [
            found[i : i + len(found) // len(keys)]
            for i in range(0, len(found), len(found) // len(keys))
        ]
    sql, params = fingerprint_query(keys)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    assert row is not None and len(row) % len(keys) == 0
    each = len(row) // len(keys)
    return [list(row[i : i + each]) for i in range(0, len(row), each)]


@functools.cache
def plain_queries(key: int) -> tuple[tuple[str, tuple[Any, ...]], ...]:
    """The SQL of a bakeoff's sets of rows, elsewhere than on PostgreSQL (made once, as
    ``fingerprint_query``: making it cost more than running it)."""
    return tuple(query.query.sql_with_params() for query in stored_rows(key))


@functools.cache
def fingerprint_query(keys: tuple[int, ...]) -> tuple[str, tuple[Any, ...]]:
    """The SQL of the bakeoffs' fingerprints on PostgreSQL (made once: it depends on the keys
    alone, and making it took a third of the table's time)."""
    columns: list[str] = []
    params: list[Any] = []
    for query in (query for key in keys for query in stored_rows(key)):
        sql, values = query.query.sql_with_params()
        order = ", ".join(f'rows."{column}"' for column in ordering_columns(query))
        columns.append(
            f"(SELECT coalesce(json_agg(row_to_json(rows) ORDER BY {order}), '[]')::text"
            f" FROM ({sql}) rows)"
        )
        params.extend(values)
    return f"SELECT {', '.join(columns)}", tuple(params)


def ordering_columns(query: QuerySet[Any, Any]) -> list[str]:
    """The columns a query of ``stored_rows`` is ordered by (a unique key of its rows)."""
    meta = query.model._meta
    assert query.query.order_by
    return [
        meta.pk.column if name == "pk" else meta.get_field(name).column
        for name in query.query.order_by
    ]
