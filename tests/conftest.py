"""Shared by every test package: the personas, a bakeoff with a corpus and a registered site,
clients, and what isolates the tests of the platform (a media root of their own, tasks run
in-process).

A package overrides a fixture by defining it again in its own conftest (the corpus, mostly). Models
are imported inside the fixtures, never at import time: the library's tests (tests/scoring) load
this file too and touch no database.
"""

from __future__ import annotations

import gc
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from pathlib import Path
from typing import TYPE_CHECKING

import hypothesis
import pytest

# Speed is measured by the benchmarks, never by a test: no example fails for taking long (the Perl
# reference runs share the machine, tests/scoring/perl_reference.py).
hypothesis.settings.register_profile("bakeoff", deadline=None)
hypothesis.settings.load_profile("bakeoff")

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from django.test import Client
    from pytest_django import DjangoDbBlocker, Settings
    from pytest_django.live_server_helper import LiveServer

    from bakeoff.models import Bakeoff, Corpus, Site, Track
    from tests.hints import ClientFor, OnCommit

# The test packages of the platform's apps (every folder of tests/ but these two) run isolated:
# the library's tests need no Django, and the production path has a real worker, with a media root
# it shares (tests/production/conftest.py). Modules at the top of tests/ are not in a package.
NOT_ISOLATED = {"scoring", "production"}
TESTS = Path(__file__).resolve().parent


def pytest_configure(config: pytest.Config) -> None:
    """The translation catalogues built before any page is read (make does it too)."""
    from config.catalogues import compile_stale

    compile_stale()


@pytest.fixture(scope="session")
def live_server(live_server: LiveServer, django_db_setup: None) -> Iterator[LiveServer]:
    """pytest-django's, and the Chromium the browser tests shared (tests/browser) stops before the
    test database goes: a connection it keeps open holds one of the server's threads, and that
    thread's connection to the database, which could then not be dropped."""
    from tests.browser import quit_idle

    yield live_server
    quit_idle()
    # Each of the server's threads closes its database connection once the browser's connection
    # to it is closed: wait for them (five seconds at most), or the test database is still in use.
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and any(
        "process_request_thread" in thread.name for thread in threading.enumerate()
    ):
        time.sleep(0.02)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """The Chromium that the browser tests shared stops with them, where no live server did."""
    from tests.browser import quit_idle

    quit_idle()


# What a test needs to reach a database (pytest-django's fixtures, which the personas and every
# model fixture request).
DATABASE_FIXTURES = frozenset(
    {"db", "transactional_db", "django_db_reset_sequences", "django_db_serialized_rollback"}
)


# The packages of the platform's tests that make test runs on PostgreSQL (PRODUCTION_TESTS in the
# Makefile); tests/scoring and the modules at the top of tests/ run on SQLite only.
PLATFORM_PACKAGES = frozenset(
    {
        "bakeoff",
        "leaderboard",
        "analysis",
        "psychometric",
        "accounts",
        "notifications",
        "production",
        "operations",
    }
)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--database-tests-only",
        action="store_true",
        help="deselect the tests that touch no database (make test's second pass, on PostgreSQL: "
        "they ran on SQLite already, and nothing in them depends on the database)",
    )
    parser.addoption(
        "--platform-database-tests-elsewhere",
        action="store_true",
        help="deselect the platform's tests that touch the database, but those marked embedded "
        "(make test's first pass, on SQLite: the PostgreSQL pass runs them; each test runs once)",
    )


def _touches_database(item: pytest.Item) -> bool:
    touches = DATABASE_FIXTURES & set(getattr(item, "fixturenames", ()))
    return bool(touches or item.get_closest_marker("django_db"))


def _platform_test(item: pytest.Item) -> bool:
    parts = item.path.relative_to(TESTS).parts
    return len(parts) > 1 and parts[0] in PLATFORM_PACKAGES


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--database-tests-only"):
        keep = _touches_database
    elif config.getoption("--platform-database-tests-elsewhere"):

        def keep(item: pytest.Item) -> bool:
            return (
                not _platform_test(item)
                or not _touches_database(item)
                or item.get_closest_marker("embedded") is not None
            )

    else:
        return
    kept: list[pytest.Item] = []
    left: list[pytest.Item] = []
    for item in items:
        (kept if keep(item) else left).append(item)
    if left:
        config.hook.pytest_deselected(items=left)
        items[:] = kept


def pytest_collection_finish(session: pytest.Session) -> None:
    """What the imports and the collection made lives until the process ends: frozen, the
    garbage collector no longer walks its objects (some 170,000) at each full collection. The
    collector's time in a run of tests/leaderboard fell from 6.1 to 3.6 s."""
    gc.collect()
    gc.freeze()


@pytest.fixture(scope="session")
def django_db_modify_db_settings(
    django_db_modify_db_settings_parallel_suffix: None, django_db_blocker: DjangoDbBlocker
) -> None:
    """The test database's tables come from a kept migrated copy where there is one
    (tests/schema_template.py)."""
    from tests import schema_template

    with django_db_blocker.unblock():  # on PostgreSQL, a look at the server's databases
        schema_template.before_setup()


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup: None, django_db_blocker: DjangoDbBlocker) -> None:
    from tests import schema_template

    with django_db_blocker.unblock():
        schema_template.after_setup()


@pytest.fixture(autouse=True)
def isolated_platform(request: pytest.FixtureRequest) -> None:
    """A test of the platform gets its own media root, an empty cache and tasks run in-process."""
    package, *module = request.node.path.relative_to(TESTS).parts
    if module and package not in NOT_ISOLATED:
        request.getfixturevalue("media_root")
        request.getfixturevalue("fresh_cache")
        request.getfixturevalue("synchronous_tasks")


@pytest.fixture(autouse=True)
def language_reset(request: pytest.FixtureRequest) -> Iterator[None]:
    """A page read in Chinese leaves its language active in the thread (LocaleMiddleware sets it
    and nothing unsets it): the next test would start in Chinese."""
    yield
    if request.node.path.relative_to(TESTS).parts[0] != "scoring":
        from django.utils import translation

        translation.deactivate()


@pytest.fixture
def media_root(settings: Settings, tmp_path_factory: pytest.TempPathFactory) -> Path:
    # A folder of its own, made at once: a tmp_path costs a look at every folder made before it
    # (pytest numbers them), some 2 s over the suite for the tests that need no other.
    root = Path(tempfile.mkdtemp(prefix="media-", dir=tmp_path_factory.getbasetemp()))
    settings.MEDIA_ROOT = root
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    return root


@pytest.fixture
def fresh_cache() -> Iterator[None]:
    """An empty cache before and after (allauth keeps its rate limits there)."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def synchronous_tasks() -> Iterator[None]:
    """Tasks run in-process even when a broker is configured (tests/production uses a real
    worker)."""
    from config.celery import app

    previous = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = previous


@pytest.fixture
def on_commit(
    django_capture_on_commit_callbacks: Callable[..., AbstractContextManager[object]],
) -> OnCommit:
    """``with on_commit(): ...`` runs what was enqueued after commit (tasks run synchronously)."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


# -- personas -------------------------------------------------------------------------------------


@pytest.fixture
def organiser(db: None) -> User:
    from tests.factories import make_user

    return make_user("olga", is_staff=True)


@pytest.fixture
def participant(db: None) -> User:
    from tests.factories import make_user

    return make_user("pat")


@pytest.fixture
def outsider(db: None) -> User:
    from tests.factories import make_user

    return make_user("otto")


@pytest.fixture
def client_for() -> ClientFor:
    from django.test import Client

    def login(user: User | None) -> Client:
        client = Client()
        if user is not None:
            client.force_login(user)
        return client

    return login


@pytest.fixture
def anonymous() -> Client:
    from django.test import Client

    return Client()


# -- a bakeoff ------------------------------------------------------------------------------------


@pytest.fixture
def bakeoff(organiser: User) -> Bakeoff:
    """A bakeoff around the real clock (for pages and the API)."""
    from tests.factories import make_bakeoff

    return make_bakeoff(organiser=organiser)


@pytest.fixture
def pinned_bakeoff(organiser: User) -> Bakeoff:
    """A bakeoff around the pinned time NOW (for services)."""
    from tests.factories import NOW, make_bakeoff

    return make_bakeoff(NOW, slug="pinned", organiser=organiser)


@pytest.fixture
def corpus(bakeoff: Bakeoff) -> Corpus:
    """PK, with closed and open tracks. Its BASE and TOP are queued on commit, which never comes
    inside the test's transaction: they stay unscored (leaderboard, analysis and psychometric
    override this fixture to score them)."""
    from tests.factories import make_corpus

    return make_corpus(bakeoff)


@pytest.fixture
def closed(corpus: Corpus) -> Track:
    from tests.factories import track

    return track(corpus, "closed")


@pytest.fixture
def site(bakeoff: Bakeoff, participant: User, closed: Track) -> Site:
    """The participant's site, registered and approved for the closed track."""
    from tests.factories import make_site

    return make_site(bakeoff, participant, [closed])
