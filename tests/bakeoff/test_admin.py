"""Who may do what through the Django admin and the organiser pages.

The admin is for superusers only; organisers act through the organiser pages, which check that
every object belongs to a bakeoff they organise. The table below requests every admin URL (each
registered model's list, add, change, delete and history pages, and the index pages) and every
organiser URL of one bakeoff (A), for GET and POST, as five personas: an organiser of A, an
organiser of another bakeoff (B), a participant of A, an anonymous visitor and a superuser. It
checks the status, and that nothing of a bakeoff the persona does not organise changed (POSTs
carry B's objects where a form offers a choice: the attack of issue 11). Each request runs in a
savepoint rolled back afterwards, so every row starts from the same data.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib import admin
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.db.models import Model
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import timezone

from analysis.models import CriterionDiscrepancy, TrackAnalysis
from bakeoff.models import (
    Announcement,
    Bakeoff,
    Corpus,
    GoldVersion,
    Registration,
    RegistrationStatus,
    Score,
    Site,
    Submission,
    Track,
)
from leaderboard.models import TrackRanking
from notifications.models import Mail
from tests.factories import GOLD
from tests.hints import ClientFor
from tests.module_world import built_once, copy_media

from .admin_world import World, build_world, fingerprints

pytestmark = pytest.mark.django_db

PERSONAS = ("organiser", "other_organiser", "participant", "anonymous", "superuser")
METHODS = ("GET", "POST")
READ_ONLY: set[type[Model]] = {
    GoldVersion,
    Score,
    Submission,
    TrackRanking,
    TrackAnalysis,
    CriterionDiscrepancy,
    Mail,
}


@pytest.fixture(scope="module")
def module_world(
    django_db_setup: None, django_db_blocker: Any, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[World, Path]]:
    """The world is built once: every test runs in a savepoint rolled back after it (and every
    request of the table in one of its own), so each starts from these rows."""
    media = tmp_path_factory.mktemp("admin-world") / "media"
    for world in built_once(django_db_blocker, media, build_world):
        yield world, media


@pytest.fixture
def world(module_world: tuple[World, Path], db: None, media_root: Path) -> World:
    built, media = module_world
    copy_media(media, media_root)
    return built


# -- the organiser pages of bakeoff A -------------------------------------------------------------


def organiser_urls(w: World) -> Iterator[tuple[str, dict[str, Any]]]:
    """(URL, POST data) of every organiser page, the data naming B's objects where it can."""
    slug, abbr, track = w.a.slug, w.corpus_a.abbreviation, w.track_a.slug
    gold = SimpleUploadedFile("gold.txt", GOLD.encode())
    yield reverse("bakeoff-create"), {"name": "New", "slug": "new"}
    yield reverse("bakeoff-edit", args=[slug]), {"name": "Changed", "slug": w.b.slug}
    yield reverse("organisers", args=[slug]), {"account": "bea"}
    yield reverse("organiser-remove", args=[slug, w.a.organisers.get().pk]), {}
    yield (
        reverse("announcement-create", args=[slug]),
        {"subject": "Hi", "text": "Hello", "tracks": [w.track_b.pk]},
    )
    yield reverse("participants", args=[slug]), {}
    yield reverse("invite", args=[slug]), {"email": "x@example.org", "site": w.site_b.pk}
    yield (
        reverse("invite-sites", args=[slug]),
        {"file": SimpleUploadedFile("sites.csv", b"Team X,Lab X,x@example.org\n")},
    )
    member = w.site_a.members.get()
    yield reverse("remove-member", args=[slug, w.site_a.pk, member.pk]), {}
    yield reverse("remove-member", args=[slug, w.site_b.pk, w.site_b.members.get().pk]), {}
    yield (
        reverse("site-edit", args=[slug, w.site_a.pk]),
        {"name": "Renamed", "institution": "Lab", "country": "CN"},
    )
    yield (
        reverse("site-edit", args=[slug, w.site_b.pk]),
        {"name": "Renamed", "institution": "Lab", "country": "CN"},
    )
    yield (
        reverse("site-register", args=[slug, w.site_a.pk]),
        {"tracks": [w.track_b.pk], "approve": "on"},
    )
    yield (
        reverse("site-register", args=[slug, w.site_b.pk]),
        {"tracks": [w.track_a.pk], "approve": "on"},
    )
    yield reverse("registrations", args=[slug]), {}
    yield reverse("registration-decide", args=[slug, w.pending_a.pk]), {"decision": "approve"}
    b_pending = w.site_b.registrations.get()
    yield reverse("registration-decide", args=[slug, b_pending.pk]), {"decision": "approve"}
    yield reverse("corpus-create", args=[slug]), {"name": "X", "abbreviation": "X"}
    yield reverse("licence-edit", args=[slug, abbr]), {"licence": "Be nice."}
    yield (
        reverse("corpus-edit", args=[slug, abbr]),
        {"name": "PK corpus", "institution": "PKU", "standard": ""},
    )
    yield reverse("gold-create", args=[slug, abbr]), {"gold": gold, "note": "v2"}
    yield reverse("gold-create", args=[slug, w.corpus_b.abbreviation]), {"gold": gold}
    yield reverse("gold-accept", args=[slug, abbr, 1]), {}
    yield reverse("track-create", args=[slug, abbr]), {"condition": "closed", "max_runs": 3}
    yield (
        reverse("track-edit", args=[slug, abbr, track]),
        {"bucket_scheme": "default", "max_runs": 5},
    )
    yield reverse("leaderboard:publish", args=[slug]), {"mode": "names"}
    yield reverse("leaderboard:withdraw", args=[slug]), {}
    yield reverse("psychometric:committee-start", args=[slug, abbr]), {"kind": "crf", "k": 2}
    yield reverse("notifications:mail", args=[slug]), {}


def expected_organiser_page(persona: str, method: str, url: str) -> set[int]:
    if persona == "anonymous":
        return {302}
    if method == "GET":
        # A page that only takes POST says so (405) to anyone signed in, before looking further.
        return expected_organiser_page(persona, "POST", url) | {405}
    if url == reverse("bakeoff-create"):
        # Platform staff create bakeoffs (both organisers are staff); nobody else.
        return {404} if persona == "participant" else {200, 302}
    if persona in {"other_organiser", "participant"}:
        return {404}
    # The organiser of A and the superuser: the page answers (a GET of a POST-only page: 405);
    # an object of B named in the URL is not found.
    return {200, 302, 400, 404, 405}


# -- the admin ------------------------------------------------------------------------------------


def object_of(model: type[Model], w: World) -> Model | None:
    """An object of bakeoff A for the model's change and delete pages, else any object."""
    manager = model._default_manager
    for path in (
        "pk",
        "bakeoff",
        "corpus__bakeoff",
        "track__corpus__bakeoff",
        "site__bakeoff",
        "submission__track__corpus__bakeoff",
    ):
        field = path.split("__")[0]
        if path != "pk" and not any(f.name == field for f in model._meta.get_fields()):
            continue
        if path == "pk" and model is not Bakeoff:
            continue
        found = manager.filter(**{path: w.a.pk if path == "pk" else w.a}).first()
        if found is not None:
            return found
    return manager.order_by("pk").first()


ATTACKS: dict[type[Model], Callable[[World], dict[str, Any]]] = {
    # Issue 11: an approved registration for a site of sighan2005, a gold v2 for its corpus.
    Registration: lambda w: {
        "site": w.site_b.pk,
        "track": w.track_b.pk,
        "status": RegistrationStatus.APPROVED,
        "created_at_0": "2026-01-01",
        "created_at_1": "00:00:00",
    },
    GoldVersion: lambda w: {
        "corpus": w.corpus_b.pk,
        "number": 2,
        "checksum": "sha256:0",
        "uploaded_at_0": "2026-01-01",
        "uploaded_at_1": "00:00:00",
        "file": SimpleUploadedFile("gold.txt", b"x\n"),
    },
    Score: lambda w: {"f": "0.00006", "signature": "forged"},
    Submission: lambda w: {"status": "scored"},
}


def no_data(w: World) -> dict[str, Any]:
    return {}


def admin_urls(w: World) -> Iterator[tuple[str, dict[str, Any], type[Model] | None, str]]:
    """(URL, POST data, model, page) of every admin page."""
    yield reverse("admin:index"), {}, None, "index"
    apps = sorted({model._meta.app_label for model in admin.site._registry})
    for app in apps:
        yield reverse("admin:app_list", args=[app]), {}, None, "app"
    for model in sorted(admin.site._registry, key=lambda m: m._meta.label):
        info = (model._meta.app_label, model._meta.model_name)
        attack = ATTACKS.get(model, no_data)
        yield reverse("admin:{}_{}_changelist".format(*info)), {}, model, "changelist"
        yield reverse("admin:{}_{}_add".format(*info)), attack(w), model, "add"
        found = object_of(model, w)
        if found is None:
            continue
        for page in ("change", "delete", "history"):
            data = {"post": "yes"} if page == "delete" else attack(w)
            yield (
                reverse("admin:{}_{}_{}".format(*info, page), args=[found.pk]),
                data,
                model,
                page,
            )


def expected_admin_page(
    persona: str, method: str, model: type[Model] | None, page: str
) -> set[int]:
    if persona != "superuser":
        return {302}  # to the admin's login page, whatever the page and method
    if model in READ_ONLY and page in {"add", "delete"}:
        return {403}
    if model in READ_ONLY and page == "change" and method == "POST":
        return {403}
    if model in {Bakeoff, Corpus, Track} and page == "delete" and method == "POST":
        return {403}  # it would delete the gold versions and scores that depend on it
    if model is not None and not superuser_may(model, page, method):
        return {403}  # a library's own read-only admin (django-axes's records)
    return {200, 302}


def superuser_may(model: type[Model], page: str, method: str) -> bool:
    """What the model's admin itself lets a superuser do."""
    model_admin = admin.site._registry[model]
    request = RequestFactory().get("/")
    request.user = User(is_superuser=True, is_staff=True, is_active=True)
    if page == "add":
        return bool(model_admin.has_add_permission(request))
    if page == "delete":
        return bool(model_admin.has_delete_permission(request))
    if page == "change" and method == "POST":
        return bool(model_admin.has_change_permission(request))
    return True


# -- the table ------------------------------------------------------------------------------------

ROWS_SEEN: list[int] = []


def request(client: Client, method: str, url: str, data: dict[str, Any]) -> int:
    for value in data.values():
        if isinstance(value, SimpleUploadedFile):
            value.seek(0)
    answer = client.get(url) if method == "GET" else client.post(url, data)
    return answer.status_code


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("persona", PERSONAS)
def test_admin_and_organiser_pages(
    world: World, client_for: ClientFor, persona: str, method: str
) -> None:
    client = client_for(world.users[persona])
    unchanged = {
        "organiser": [world.b],
        "other_organiser": [world.a, world.b],
        "participant": [world.a, world.b],
        "anonymous": [world.a, world.b],
        "superuser": [world.b],
    }[persona]
    failures: list[str] = []
    rows = 0
    # Every request is rolled back: what each bakeoff was before is what it is before every row.
    original = dict(zip((world.a.pk, world.b.pk), fingerprints([world.a, world.b]), strict=True))

    def check(url: str, data: dict[str, Any], allowed: set[int], watch: list[Bakeoff]) -> None:
        nonlocal rows
        rows += 1
        before = [original[bakeoff.pk] for bakeoff in watch]
        with transaction.atomic():
            status = request(client, method, url, data)
            after = fingerprints(watch)
            transaction.set_rollback(True)
        if status not in allowed:
            failures.append(f"{method} {url} as {persona}: {status}, expected {sorted(allowed)}")
        for bakeoff, old, new in zip(watch, before, after, strict=True):
            if old != new:
                failures.append(f"{method} {url} as {persona} changed bakeoff {bakeoff.slug}")

    for url, data in organiser_urls(world):
        check(url, data, expected_organiser_page(persona, method, url), unchanged)
    for url, data, model, page in admin_urls(world):
        watch = [world.a, world.b] if persona != "superuser" else []
        if persona == "superuser" and (model in READ_ONLY or page not in {"add", "change"}):
            # A superuser administers everything, but what scoring stored stays as it is.
            watch = [world.a, world.b] if model in READ_ONLY else [world.b]
        if persona == "superuser" and page == "delete":
            watch = [world.b] if model not in READ_ONLY else [world.a, world.b]
        check(url, data, expected_admin_page(persona, method, model, page), watch)
    ROWS_SEEN.append(rows)
    assert not failures, "\n".join(failures)
    assert rows > 100


def test_the_table_covers_every_admin_model_and_organiser_page(world: World) -> None:
    """The size of the table (reported in the issue's closing note): URLs × personas × methods."""
    urls = len(list(organiser_urls(world))) + len(list(admin_urls(world)))
    models = {model for _, _, model, _ in admin_urls(world) if model is not None}
    assert models == set(admin.site._registry)
    assert urls * len(PERSONAS) * len(METHODS) >= 1000
    print(f"permission table: {urls} URLs x {len(PERSONAS)} personas x {len(METHODS)} methods")


# -- read-only, even for a superuser --------------------------------------------------------------


def test_scores_gold_versions_and_submissions_are_read_only_for_a_superuser(
    world: World, client_for: ClientFor
) -> None:
    client = client_for(world.users["superuser"])
    score = Score.objects.filter(submission__track=world.track_a).first()
    assert score is not None
    page = client.get(f"/admin/bakeoff/score/{score.pk}/change/").content.decode()
    for field in ("f", "recall", "precision", "true_words", "correct", "signature"):
        assert f'name="{field}"' not in page, field
    assert client.post(f"/admin/bakeoff/score/{score.pk}/change/", {"f": "0.5"}).status_code == 403
    gold = world.corpus_a.gold_versions.get()
    assert client.get(f"/admin/bakeoff/goldversion/{gold.pk}/change/").status_code == 200
    assert client.get("/admin/bakeoff/goldversion/add/").status_code == 403
    assert (
        client.post(f"/admin/bakeoff/goldversion/{gold.pk}/delete/", {"post": "yes"}).status_code
        == 403
    )
    corpus_page = client.get(f"/admin/bakeoff/corpus/{world.corpus_a.pk}/change/").content.decode()
    assert "gold_versions-0-note" not in corpus_page  # the inline shows, never edits
    score.refresh_from_db()
    assert score.f != 0.5


def test_a_staff_organiser_cannot_open_the_admin(client_for: ClientFor, world: World) -> None:
    organiser = world.users["organiser"]
    assert organiser is not None and organiser.is_staff
    answer = client_for(organiser).get("/admin/")
    assert answer.status_code == 302 and "/admin/login/" in answer["Location"]
    home = client_for(organiser).get("/").content.decode()
    assert 'href="/admin/"' not in home


def test_the_fingerprint_sees_a_change_to_any_row_it_reads(world: World) -> None:
    """What the table's checks rest on: each change below shows in A's fingerprint, not B's."""
    before = fingerprints([world.a, world.b])
    score = Score.objects.filter(submission__track=world.track_a).first()
    root = world.users["superuser"]
    assert score is not None and score.f is not None and root is not None
    f = score.f
    changes: list[Callable[[], object]] = [
        lambda: Site.objects.filter(pk=world.site_a.pk).update(name="Renamed"),
        lambda: Score.objects.filter(pk=score.pk).update(f=f / 2),
        lambda: Site.members.through.objects.filter(site=world.site_a).delete(),
        lambda: world.a.organisers.add(root),
        lambda: Announcement.objects.create(
            bakeoff=world.a, subject="Hi", text="Hello", created_at=timezone.now()
        ),
    ]
    for change in changes:
        with transaction.atomic():
            change()
            after = fingerprints([world.a, world.b])
            transaction.set_rollback(True)
        assert after[0] != before[0] and after[1] == before[1]
        assert fingerprints([world.a, world.b]) == before
