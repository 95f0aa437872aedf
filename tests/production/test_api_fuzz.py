"""Schemathesis runs every operation of the API's OpenAPI description against a live server
(PostgreSQL, the files in the S3-compatible store, a real worker): no answer is a 5xx, and every
answer matches the schema (its status, its content type, its body). The operations and the cases
are counted in the output (``-s`` shows them).

The suite tries few cases per operation (every operation, its checks and the schema still: a smoke
run); ``BAKEOFF_FUZZ_EXAMPLES=25`` (the Makefile's ``make fuzz``) tries as many as a fuzzing run
should."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from rest_framework.authtoken.models import Token

from bakeoff.models import Corpus
from tests.factories import make_bakeoff, make_corpus, make_site, make_user, track

from .conftest import ObjectStorage

pytestmark = [pytest.mark.production, pytest.mark.django_db(transaction=True)]

ST = Path(sys.executable).with_name("st")
CHECKS = (
    "not_a_server_error,status_code_conformance,content_type_conformance,"
    "response_schema_conformance"
)
# Cases per operation: each takes a request and its worker's time on a shared machine.
EXAMPLES = os.environ.get("BAKEOFF_FUZZ_EXAMPLES", "5")


def test_every_operation_answers_as_its_schema_says(
    media: ObjectStorage,
    worker: subprocess.Popen[bytes],
    live_server: Any,
    tmp_path: Path,
) -> None:
    bakeoff = make_bakeoff(slug="fuzz")
    corpus = make_corpus(bakeoff)
    Corpus.objects.filter(pk=corpus.pk).update(licence="Research only.")
    closed = track(corpus, "closed")
    participant = make_user("fuzzer")
    make_site(bakeoff, participant, [closed])
    token = Token.objects.create(user=participant).key
    answer = subprocess.run(
        [
            str(ST),
            "run",
            f"{live_server.url}/api/schema/?format=json",
            "--url",
            live_server.url,
            "-H",
            f"Authorization: Token {token}",
            "--checks",
            CHECKS,
            "--max-examples",
            EXAMPLES,
            "--generation-deterministic",
            "--no-color",
            "--report",
            "junit",
            "--report-dir",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=900,
        cwd=tmp_path,
    )
    output = answer.stdout + answer.stderr
    print(output[-3000:])
    assert answer.returncode == 0, output[-6000:]
    operations = re.search(r"API Operations:\s+Selected:\s+(\d+)/(\d+)", output)
    assert operations is not None and operations.group(1) == operations.group(2), output
    assert int(operations.group(1)) == 15
