"""Property-based tests of the two places bytes from outside enter: a participant's run and an
organiser's corpus. Whatever the bytes (random, truncated UTF-8, mixed encodings, NUL bytes, very
long lines), the answer is a clear refusal or a correct score, never a server error.

Runs go through the service that the upload page and the API call; an unexpected exception type
would be a 500 there. A correct score is checked against an independent count of the words whose
spans the run and the gold share.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import zip_longest

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from bakeoff import services
from bakeoff.errors import IdenticalRun, InvalidFile, Refused
from bakeoff.models import Site, Submission, SubmissionStatus, Track
from bakeoff.services import CorpusFiles
from tests.factories import GOLD, NOW, TEST
from tests.hints import OnCommit

pytestmark = pytest.mark.django_db

EXAMPLES = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
TEST_LINES = TEST.split("\n")[:-1]


def spans(line: str) -> set[tuple[int, int]]:
    found, start = set(), 0
    for word in line.split():
        found.add((start, start + len(word)))
        start += len(word)
    return found


def independent_counts(gold: str, run: str) -> tuple[int, int, int]:
    """(true words, run words, correct words), counted from spans line by line."""
    true_words = test_words = correct = 0
    # A run may lack the gold's last empty lines, or carry more: they hold no word.
    for gold_line, run_line in zip_longest(gold.split("\n"), run.split("\n"), fillvalue=""):
        gold_spans, run_spans = spans(gold_line), spans(run_line)
        true_words += len(gold_spans)
        test_words += len(run_spans)
        correct += len(gold_spans & run_spans)
    return true_words, test_words, correct


@st.composite
def segmentations(draw: st.DrawFn) -> str:
    """The test text with a random separator (one or more spaces, a tab, U+3000) between any
    two characters: always a valid run."""
    separators = st.sampled_from([" ", "  ", "\t", "\u3000", " \u3000 "])
    lines = []
    for line in TEST_LINES:
        pieces = [line[0]]
        for char in line[1:]:
            if draw(st.booleans()):
                pieces.append(draw(separators))
            pieces.append(char)
        lines.append("".join(pieces))
    return "\n".join(lines) + "\n"


def damaged(valid: bytes) -> st.SearchStrategy[bytes]:
    position = st.integers(min_value=0, max_value=len(valid))
    return st.one_of(
        st.binary(max_size=400),
        position.map(lambda cut: valid[:cut]),  # truncated, often inside a character
        st.tuples(position, st.binary(min_size=1, max_size=8)).map(
            lambda p: valid[: p[0]] + p[1] + valid[p[0] :]
        ),
        position.map(lambda at: valid[:at] + b"\x00" + valid[at:]),
        position.map(lambda at: valid[:at] + valid[at:].decode("utf-8", "ignore").encode("gbk")),
        st.integers(min_value=1, max_value=200_000).map(lambda n: b"x" * n + b"\n" + valid),
        st.just(valid.replace(b"\n", b"\r\n")),
        st.just("\ufeff".encode() + valid),
    )


@pytest.fixture
def roomy_track(pk_closed: Track) -> Iterator[Track]:
    """Room for every accepted example's run."""
    pk_closed.max_runs = 30000
    pk_closed.save(update_fields=["max_runs"])
    yield pk_closed


@EXAMPLES
@given(run=segmentations())
def test_every_valid_segmentation_is_accepted_and_scored_correctly(
    participant: User, roomy_track: Track, team: Site, on_commit: OnCommit, run: str
) -> None:
    try:
        with on_commit():
            submission = services.submit_run(participant, roomy_track, run.encode(), now=NOW)
    except IdenticalRun as refusal:  # the examples share a site: this text was checked before
        assert Submission.objects.filter(pk=refusal.fields["run"]).exists()
        return
    submission.refresh_from_db()
    assert submission.status == SubmissionStatus.SCORED
    score = submission.current_score()
    assert score is not None
    normalised = "\n".join(" ".join(line.split()) for line in run.split("\n"))
    assert (score.true_words, score.test_words, score.correct) == independent_counts(
        GOLD, normalised
    )


@EXAMPLES
@given(data=damaged(GOLD.encode()))
@example(data=b"\x00" * 10)
@example(data=b"")
@example(data="结婚".encode()[:-1])
@example(data=GOLD.encode()[:79])  # the last line without its line feed
def test_any_bytes_are_refused_clearly_or_scored(
    participant: User, roomy_track: Track, team: Site, on_commit: OnCommit, data: bytes
) -> None:
    before = Submission.objects.filter(site=team).count()
    try:
        with on_commit():
            submission = services.submit_run(participant, roomy_track, data, now=NOW)
    except InvalidFile as refusal:
        assert refusal.detail.strip()
        facts = refusal.to_dict()
        assert "line" in facts or "limit" in facts or "empty" in refusal.detail, facts
        assert Submission.objects.filter(site=team).count() == before
        return
    except IdenticalRun as refusal:  # the examples share a site: this text was scored before
        assert Submission.objects.filter(pk=refusal.fields["run"]).exists()
        return
    submission.refresh_from_db()
    assert submission.status == SubmissionStatus.SCORED
    text = data.decode("utf-8").removeprefix("\ufeff").replace("\r\n", "\n")
    normalised = "\n".join(" ".join(line.split()) for line in text.split("\n"))
    score = submission.current_score()
    assert score is not None
    assert (score.true_words, score.test_words, score.correct) == independent_counts(
        GOLD, normalised
    )


@EXAMPLES
@given(
    gold=damaged(GOLD.encode()),
    test_text=st.one_of(st.none(), damaged(TEST.encode())),
    words=st.one_of(st.none(), st.binary(max_size=200)),
)
def test_any_corpus_files_are_refused_clearly_or_read(
    gold: bytes, test_text: bytes | None, words: bytes | None
) -> None:
    files = CorpusFiles(gold=gold, test_text=test_text, training_words=words)
    try:
        checked = services.check_corpus_files(files, "utf-8")
    except Refused as refusal:
        assert refusal.detail.strip()
        return
    assert checked.gold_text.strip()
    assert checked.test_text


@settings(EXAMPLES, max_examples=20)
@given(data=damaged(GOLD.encode()))
def test_the_api_answers_json_with_a_4xx_or_201_for_any_bytes(
    participant: User, closed: Track, site: Site, on_commit: OnCommit, data: bytes
) -> None:
    closed.max_runs = 30000  # the bakeoff of this test is open now, as the API needs
    closed.save(update_fields=["max_runs"])
    # Each example is a site's first upload of the minute: Hypothesis may try more than the site's
    # limit (30 a minute), counted in the cache, which the test's fixtures clear only once.
    cache.clear()
    client = APIClient()
    client.force_authenticate(participant)
    url = f"/api/bakeoffs/{closed.corpus.bakeoff.slug}/tracks/{closed.slug}/submissions/"
    with on_commit():
        answer = client.post(url, {"file": SimpleUploadedFile("run.txt", data)}, format="multipart")
    # 409: Hypothesis may send the same bytes twice, and a run identical to one sent is refused.
    assert answer.status_code in (201, 400, 409, 413), answer.content
    assert answer["Content-Type"] == "application/json"
    assert answer.json().get("detail") or answer.status_code == 201
