"""One input boundary for the pages and the API (issue 22, finding 3): the API cleans its fields
with the pages' own form fields and answers 400 with a code; JSON too deep is refused before the
decoder recurses; corpus files with a control character are refused at its line and column; and
no file outlives the row that should have named it, whatever refused the row."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import DatabaseError, connection
from django.utils import timezone
from hypothesis import given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from bakeoff import services
from bakeoff.api.parsers import MAX_DEPTH, nesting_depth
from bakeoff.errors import InvalidFields, InvalidFile, RunLimitReached
from bakeoff.models import Bakeoff, Corpus, Site, Submission, Track
from bakeoff.services import CorpusFiles, phases
from tests.factories import GOLD, NOW, RUNS, TEST, WORDS, make_corpus
from tests.hints import ApiAnswer, ClientFor

from .storage import orphans

pytestmark = pytest.mark.django_db

on_postgresql = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="SQLite stores a NUL; PostgreSQL refuses the row"
)


def api(user: User) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def runs_url(track: Track) -> str:
    return f"/api/bakeoffs/{track.corpus.bakeoff.slug}/tracks/{track.slug}/submissions/"


def post_run(user: User, track: Track, **fields: str) -> ApiAnswer:
    body = {"file": SimpleUploadedFile("run.txt", RUNS[0].encode()), **fields}
    answer: ApiAnswer = api(user).post(runs_url(track), body, format="multipart")
    return answer


# -- the API's fields, cleaned by the pages' form fields ------------------------------------------


@pytest.mark.parametrize("text", ["結婚\x00的", "系统\x1b[31m", "a\x7fb", "c1 \x85 control"])
def test_the_api_refuses_a_description_with_a_control_character(
    participant: User, site: Site, closed: Track, media_root: Path, text: str
) -> None:
    answer = post_run(participant, closed, description=text)
    assert answer.status_code == 400, answer.content
    body = answer.json()
    assert body["code"] == "invalid"
    assert "control_character" in {e["code"] for e in body["errors"]["description"]}
    assert "is a control character" in body["detail"]
    assert not Submission.objects.filter(site=site).exists()
    assert orphans(media_root) == set()


def test_the_api_and_the_page_refuse_a_description_in_the_same_words(
    participant: User, site: Site, closed: Track, client_for: ClientFor
) -> None:
    text = "CRF\x07 with a lexicon"
    answer = post_run(participant, closed, description=text)
    api_messages = [e["message"] for e in answer.json()["errors"]["description"]]
    page = client_for(participant).post(
        f"/bakeoffs/{closed.corpus.bakeoff.slug}/tracks/{closed.slug}/upload/",
        {"file": SimpleUploadedFile("run.txt", RUNS[0].encode()), "description": text},
    )
    assert page.status_code == 200
    assert page.context["form"].errors["description"] == api_messages
    assert api_messages == [
        "Line 1, column 4: '\\x07' (U+0007) is a control character; remove it (text may hold "
        "tabs and line breaks, no other control character)."
    ]


def test_the_api_refuses_a_description_longer_than_the_page_takes(
    participant: User, site: Site, closed: Track
) -> None:
    answer = post_run(participant, closed, description="长" * 100_000)
    assert answer.status_code == 400
    (refusal,) = answer.json()["errors"]["description"]
    assert refusal == {
        "message": "Ensure this value has at most 2000 characters (it has 100000).",
        "code": "max_length",
    }


def test_tabs_and_line_breaks_are_text(participant: User, site: Site, closed: Track) -> None:
    answer = post_run(participant, closed, description="CRF\ttagger\r\nwith a lexicon")
    assert answer.status_code == 201, answer.content
    assert answer.json()["description"] == "CRF\ttagger\r\nwith a lexicon"


def test_the_api_refuses_a_withdrawal_reason_with_a_nul(
    participant: User, site: Site, closed: Track
) -> None:
    run = post_run(participant, closed).json()
    answer = api(participant).post(f"{run['url']}withdraw/", {"reason": "oops\x00"}, format="json")
    assert answer.status_code == 400
    assert answer.json()["code"] == "invalid"
    assert "reason" in answer.json()["errors"]
    assert Submission.objects.get(pk=run["id"]).withdrawn_at is None


def test_the_withdraw_page_refuses_a_reason_it_would_have_dropped(
    participant: User, site: Site, closed: Track, client_for: ClientFor
) -> None:
    run = post_run(participant, closed).json()
    bakeoff = closed.corpus.bakeoff
    page = client_for(participant).post(
        f"/bakeoffs/{bakeoff.slug}/submissions/{run['id']}/withdraw/", {"reason": "x" * 501}
    )
    assert page.status_code == 400
    assert Submission.objects.get(pk=run["id"]).withdrawn_at is None


def test_the_service_refuses_what_the_form_refuses(closed: Track) -> None:
    with pytest.raises(InvalidFields) as refused:
        services.check_description(closed, "a\x00b")
    assert refused.value.code == "invalid"
    assert refused.value.fields["errors"]["description"][0]["code"] == "control_character"


# -- JSON ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 10_000, 1_000_000])
def test_json_nested_too_deep_is_refused_before_it_is_parsed(
    participant: User, bakeoff: Bakeoff, depth: int
) -> None:
    body = "[" * depth + "]" * depth
    url = f"/api/bakeoffs/{bakeoff.slug}/registrations/"
    answer = api(participant).post(url, body, content_type="application/json")
    assert answer.status_code == 400
    assert answer.json()["code"] == "json_too_deep"


def test_json_nested_within_the_bound_is_parsed(participant: User, bakeoff: Bakeoff) -> None:
    body = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    url = f"/api/bakeoffs/{bakeoff.slug}/registrations/"
    answer = api(participant).post(url, body, content_type="application/json")
    assert answer.status_code == 400
    assert answer.json()["code"] == "invalid"  # a list is not a registration


def depth_of(value: object) -> int:
    if isinstance(value, dict):
        return 1 + max((depth_of(v) for v in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((depth_of(v) for v in value), default=0)
    return 0


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(alphabet='[]{}"\\ab\n\u4e2d'),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.text(alphabet='[]{}"\\a'), inner, max_size=4)
    ),
    max_leaves=30,
)


@settings(max_examples=300)
@given(value=JSON_VALUES, ascii_only=st.booleans())
def test_the_scan_counts_the_nesting_the_decoder_finds(value: object, ascii_only: bool) -> None:
    """Brackets, quotes and backslashes inside strings (escaped as JSON escapes them) are no
    nesting: the scan before parsing agrees with the parsed value's depth."""
    assert nesting_depth(json.dumps(value, ensure_ascii=ascii_only)) == depth_of(value)


def test_brackets_inside_strings_are_not_nesting(participant: User, bakeoff: Bakeoff) -> None:
    body = '{"name": "' + "[" * 1000 + '\\"{{", "tracks": []}'
    url = f"/api/bakeoffs/{bakeoff.slug}/registrations/"
    answer = api(participant).post(url, body, content_type="application/json")
    assert answer.json()["code"] != "json_too_deep"
    assert answer.status_code < 500


def test_json_deep_in_a_withdrawal_is_refused_too(
    participant: User, site: Site, closed: Track
) -> None:
    run = post_run(participant, closed).json()
    answer = api(participant).post(
        f"{run['url']}withdraw/", "{" * 5000, content_type="application/json"
    )
    assert answer.status_code == 400
    assert answer.json()["code"] == "json_too_deep"


def test_a_lone_surrogate_in_json_is_a_parse_error(participant: User, bakeoff: Bakeoff) -> None:
    url = f"/api/bakeoffs/{bakeoff.slug}/registrations/"
    body = '{"name": "S\\ud800", "institution": "U", "tracks": ["\\udfff"]}'
    answer = api(participant).post(url, body, content_type="application/json")
    assert answer.status_code == 400
    assert answer.json()["code"] == "parse_error"
    assert "surrogate" in answer.json()["detail"]


# -- corpus files ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("files", "what", "line", "column"),
    [
        (CorpusFiles(gold=GOLD.replace("我们", "我\x00们").encode()), "gold", 2, 2),
        (
            CorpusFiles(gold=GOLD.encode(), training_words=(WORDS + "北\x00京\n").encode()),
            "training word list",
            11,
            2,
        ),
        (
            CorpusFiles(gold=GOLD.encode(), test_text=TEST.replace("今天", "\x00今天").encode()),
            "test text",
            3,
            1,
        ),
        (
            CorpusFiles(gold=GOLD.encode(), training_text="结婚 的\x00\n".encode()),
            "training text",
            1,
            5,
        ),
        (
            CorpusFiles(gold=GOLD.encode(), domain_labels=b"news\nne\x00ws\nnews\n"),
            "domain labels",
            2,
            3,
        ),
        (
            CorpusFiles(gold=GOLD.encode(), domain_labels=b"news\nweibo\nne\x1b[1mws\n"),
            "domain labels",
            3,
            3,
        ),
    ],
)
def test_a_corpus_file_with_a_nul_or_a_label_with_a_control_character_is_refused_where_it_is(
    files: CorpusFiles, what: str, line: int, column: int
) -> None:
    with pytest.raises(InvalidFile) as refused:
        services.check_corpus_files(files, "utf-8")
    facts = refused.value.to_dict()
    assert facts["code"] == "control_character"
    assert (facts["line"], facts["column"]) == (line, column)
    assert refused.value.detail.startswith(f"{what}: line {line}, column {column}: ")
    assert "remove it" in refused.value.detail


def test_a_word_list_keeps_the_control_characters_real_corpora_have() -> None:
    # The icwb2 AS training word list has U+0080 and backspaces in its entries.
    words = (WORDS + "ＴＳＰ\x80<\n彈\x08指\n").encode()
    checked = services.check_corpus_files(
        CorpusFiles(gold=GOLD.encode(), training_words=words), "utf-8"
    )
    assert checked.training_words is not None and "\x80" in checked.training_words


def test_a_corpus_with_a_nul_in_its_gold_is_not_created(
    pinned_bakeoff: Bakeoff, media_root: Path
) -> None:
    with pytest.raises(InvalidFile):
        make_corpus(pinned_bakeoff, gold=GOLD.replace("北京", "北\x00京"), test=None, now=NOW)
    assert not Corpus.objects.filter(bakeoff=pinned_bakeoff).exists()
    assert orphans(media_root) == set()


def test_the_corpus_page_names_the_line_and_column_of_a_nul(
    organiser: User, bakeoff: Bakeoff, client_for: ClientFor
) -> None:
    page = client_for(organiser).post(
        f"/bakeoffs/{bakeoff.slug}/corpora/new/",
        {
            "name": "PK corpus",
            "abbreviation": "PK",
            "institution": "PKU",
            "encoding": "utf-8",
            "gold": SimpleUploadedFile("gold.txt", GOLD.encode()),
            "training_words": SimpleUploadedFile("words.txt", b"\xe7\xbb\x93\x00\n"),
            "closed_track": "on",
            "max_runs": "2",
        },
    )
    assert page.status_code == 200
    assert (
        "training word list: line 1, column 2: &#x27;\\x00&#x27; (U+0000) is a NUL character"
        in page.content.decode()
    )
    assert not Corpus.objects.filter(bakeoff=bakeoff).exists()


def test_domain_labels_with_a_nul_are_refused_and_leave_no_file(
    corpus: Corpus, media_root: Path
) -> None:
    with pytest.raises(InvalidFile) as refused:
        services.do_set_domain_labels(corpus, b"news\nweibo\x00\nnews\n")
    assert (refused.value.fields["line"], refused.value.fields["column"]) == (2, 6)
    corpus.refresh_from_db()
    assert not corpus.domain_labels_checksum
    assert orphans(media_root) == set()


# -- no file outlives its row ---------------------------------------------------------------------


def test_a_run_whose_row_fails_after_its_file_is_stored_leaves_no_file(
    participant: User, site: Site, closed: Track, media_root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def lost(*args: object, **kwargs: object) -> None:
        raise DatabaseError("the connection went away")

    monkeypatch.setattr(phases, "run_accepted", lost)
    before = orphans(media_root)
    with pytest.raises(DatabaseError):
        services.submit_run(participant, closed, RUNS[0].encode(), now=None)
    assert not Submission.objects.filter(site=site).exists()
    assert orphans(media_root) == before == set()


@on_postgresql
def test_a_run_description_postgresql_refuses_leaves_no_file(
    site: Site, closed: Track, media_root: Path
) -> None:
    # Past every check (they would refuse it first): the database refuses the row (psycopg
    # refuses a NUL before it reaches the server, with a ValueError).
    with pytest.raises((DatabaseError, ValueError)):
        services.do_accept_run(site, closed, RUNS[0], description="a\x00b", now=NOW)
    assert orphans(media_root) == set()


@on_postgresql
def test_domain_labels_postgresql_refuses_leave_no_file(
    corpus: Corpus, media_root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Past the check (it would refuse them first): the database itself refuses the row.
    monkeypatch.setattr(
        services.domains, "check_domain_labels", lambda *a: ("news", "we\x00ibo", "news")
    )
    with pytest.raises(DatabaseError):
        services.do_set_domain_labels(corpus, b"")
    assert orphans(media_root) == set()


def test_a_daily_run_refused_at_its_limit_leaves_no_file(
    participant: User, site: Site, closed: Track, media_root: Path
) -> None:
    bakeoff = closed.corpus.bakeoff
    bakeoff.results_published = timezone.now() - timedelta(minutes=1)
    bakeoff.post_bakeoff_runs_per_day = 0
    bakeoff.save()
    closed.post_bakeoff_open = True
    closed.save()
    with pytest.raises(RunLimitReached):
        services.submit_run(participant, closed, RUNS[1].encode(), phase="post_bakeoff")
    assert orphans(media_root) == set()
