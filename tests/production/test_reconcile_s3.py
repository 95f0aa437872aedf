"""Reconciling storage with the database when the files are in S3-compatible storage (a real
moto server): the same report, and orphans removed from the bucket."""

from __future__ import annotations

import uuid
from datetime import timedelta
from typing import Any

import pytest

from bakeoff.services.reconcile import do_reconcile
from tests.factories import make_bakeoff, make_corpus

from .conftest import ObjectStorage

pytestmark = [pytest.mark.production, pytest.mark.django_db(transaction=True)]


def test_orphans_in_the_bucket_are_found_and_removed(media: ObjectStorage, settings: Any) -> None:
    # A folder of this test's own in the session's bucket: other tests' files are not ours.
    location = f"reconcile-{uuid.uuid4().hex[:8]}"
    default = settings.STORAGES["default"]
    settings.STORAGES = {
        **settings.STORAGES,
        "default": {**default, "OPTIONS": {**default["OPTIONS"], "location": location}},
    }
    corpus = make_corpus(make_bakeoff(slug="reconcile"), conditions=("closed",))
    client = media.client()
    client.put_object(Bucket=media.bucket, Key=f"{location}/runs/orphan.txt", Body=b"no row")
    name = corpus.test_text.name
    stored = media.keys()
    assert f"{location}/{name}" in stored

    report = do_reconcile()
    assert [o.name for o in report.orphans] == ["runs/orphan.txt"]
    assert report.missing == []

    client.delete_object(Bucket=media.bucket, Key=f"{location}/{name}")
    report = do_reconcile(remove_orphans=True, min_age=timedelta(0))
    assert report.removed == ["runs/orphan.txt"]
    assert [(m.column, m.name) for m in report.missing] == [("bakeoff.Corpus.test_text", name)]
    stored = media.keys()
    assert f"{location}/runs/orphan.txt" not in stored
