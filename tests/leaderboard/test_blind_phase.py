"""The blind phase's walks leave no URL of the platform out: every URL name is walked by ``pages``
(tests/leaderboard/blind_phase_walk.py) and named in ``WALKED``, or named in ``NOT_WALKED`` with
the reason it shows no score before publication. A new URL name in neither list fails this
module's test. The walks: tests/leaderboard/test_blind_phase_tables.py.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import pytest
from django.urls import URLPattern, URLResolver, get_resolver

pytestmark = pytest.mark.django_db


# The URL names of the platform outside the bakeoff's readable pages, and why.
NOT_WALKED = {
    "health": "no bakeoff data",
    "docs-index": "static documentation",
    "docs": "static documentation",
    "token-create": "POST only",
    "token-revoke": "POST only",
    "bakeoff-create": "a form to create another bakeoff",
    "bakeoff-edit": "organisers only (404 to others)",
    "bakeoff-load": "a form to create another bakeoff from a bundle",
    "bakeoff-clone": "organisers only (404 to others, test_bundle_pages): the next edition's form",
    "bakeoff-bundle": "organisers only (404 to others, test_bundle_pages): a zip, gold included",
    "invitation": "a token's page: no scores",
    "announcement-create": "organisers only",
    "invite": "organisers only, POST",
    "invite-sites": "organisers only",
    "remove-member": "organisers only, POST",
    "registration-decide": "organisers only, POST",
    "corpus-create": "organisers only",
    "licence-edit": "organisers only",
    "gold-create": "organisers only",
    "gold-accept": "organisers only, POST",
    "track-create": "organisers only",
    "track-edit": "organisers only",
    "domain-labels": "organisers only",
    "organiser-remove": "organisers only, POST",
    "publish": "organisers only",
    "withdraw": "organisers only, POST",
    "erratum": "organisers only, and only after publication",
    **dict.fromkeys(
        [
            "version",
            "version-f-plot",
            "version-oov-plot",
            "version-track",
            "version-csv",
            "version-json",
            "version-tex",
            "version-plot",
            "version-run",
        ],
        "a published results version: 404 until its time (test_versions)",
    ),
    "committee-start": "organisers only, POST",
    "preferences": "POST only",
    "unsubscribe": "a token's page: no scores",
    "registrations": "API, POST only: registers a site, shows no scores",
    "development": "development scores only, never a test score (docs/phases.md)",
    "development-set": "organisers only",
    "development-download": "the development data: no scores",
    "post-bakeoff-open": "organisers only, POST",
    "set_language": "POST: the reader's language",
    "bakeoff-open": "organisers only, POST",
    "audit": "organisers only (404 to others)",
    "audit-csv": "organisers only (404 to others)",
    "submission-withdraw": "POST only, a member of the run's site",
    "paper": "a site's form for its own paper: no scores",
    "paper-file": "a PDF the site uploaded: no figure of the platform",
    "schema": "the API's description: no data",
    "registration-reason": "organisers only, POST",
    "version-excel-csv": "a published results version: 404 until its time (test_versions)",
    "release": "after publication only: 404 before (test_publish)",
    "archive": "organisers only (404 to others, test_archive_pages)",
    "public-archive": "organisers only (404 to others, test_archive_pages)",
}
WALKED = {
    "home",
    "bakeoff",
    "results",
    "f-plot",
    "oov-plot",
    "submissions",
    "submission",
    "register",
    "participants",
    "registrations",
    "mail",
    "organisers",
    "site-edit",
    "site-register",
    "corpus-edit",
    "account",
    "account-name",
    "corpus",
    "agreement",
    "download",
    "track",
    "csv",
    "excel-csv",
    "json",
    "tex",
    "whole-csv",
    "whole-json",
    "whole-tex",
    "track-plot",
    "track-domains",
    "upload",
    "run",
    "comparison",
    "bakeoffs",
    "tracks",
    "corpora",
    "file",
    "sites",
    "runs",
    "track-results",
}


def _names(patterns: Iterable[URLPattern | URLResolver], prefix: str = "") -> Iterator[str]:
    for p in patterns:
        if isinstance(p, URLResolver):
            if p.namespace in {"admin"} or str(p.pattern).startswith(("admin/", "accounts/")):
                continue
            yield from _names(p.url_patterns, prefix + str(p.pattern))
        elif p.name:
            yield p.name


def test_the_tables_walk_every_url_of_the_platform() -> None:
    """A new page must join the walk (or say here why it shows no scores)."""
    names = set(_names(get_resolver().url_patterns))
    new = names - WALKED - set(NOT_WALKED)
    assert new == set(), (
        f"walk {new} in blind_phase_walk.pages() and WALKED, or say in NOT_WALKED why not"
    )
