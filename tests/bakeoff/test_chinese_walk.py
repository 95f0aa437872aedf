"""Walk every page an anonymous reader, a participant and an organiser can reach in the demo,
in 简体 and 繁體, after a refused upload, a publication and an erratum: no English word of the
interface may be left on them (issue 28). Words of the data (names of the bakeoff, its corpus,
sites, accounts, runs' descriptions, notes) and proper names are allowed, by an explicit list.
Nor may ASCII punctuation stand beside a Chinese character ("(已公布)", "PDc (pd-closed, 每个…"):
the parentheses, commas and colons around translated words belong to the translation.

The documentation (``/docs/``) is not walked: its translation is a task of its own."""

from __future__ import annotations

import re
import zoneinfo
from collections.abc import Iterator
from dataclasses import dataclass
from html.parser import HTMLParser
from urllib.parse import urldefrag, urlsplit

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.utils import translation
from pytest_django import DjangoDbBlocker

from bakeoff import demo, services
from bakeoff.demo_corpus import DemoCorpus
from bakeoff.models import Bakeoff, Corpus, GoldVersion, Site, Submission, Track
from leaderboard.models import ResultsVersion
from leaderboard.services import do_publish_erratum
from tests.factories import GOLD, TEST, WORDS, publish
from tests.hints import OnCommit
from tests.module_world import built_once, captured_on_commit

pytestmark = pytest.mark.django_db

# Proper names, symbols and codes that read the same in every language.
PROPER = {
    "english",  # the language menu names each language in that language
    "sighan", "qian", "svg", "api", "https", "msr", "utf", "gbk", "big", "hkscs", "ctb", "csv",
    "json", "latex", "pdf", "zip", "url", "utc", "cst", "base", "top", "oov", "pku", "crf",
    "celery", "excel",
    "rethinkcws", "interpreteval", "booktabs", "spearman", "friedman", "inf",
    # the attributes of the RethinkCWS paper, named as it names them
    "wlen", "slen", "oden", "wfre", "cfre", "wcon", "ccon",
}  # fmt: skip
# Paths not walked: leaving the session, machine answers, and the English documentation.
SKIPPED = ("/accounts/logout/", "/static/", "/media/", "/api/", "/docs/", "/admin/", "/i18n/")
WORD = re.compile(r"[A-Za-z][A-Za-z']{2,}")
# The zones of the zone menus are proper names (the reader's browser names them so too).
ZONES = {
    w.lower() for zone in zoneinfo.available_timezones() for w in re.findall(r"[A-Za-z]{3,}", zone)
}
LIMIT = 400  # pages per reader and language: the demo has far fewer


class PageText(HTMLParser):
    """The text a reader sees (and hears: labels of controls), with the page's links, and its runs
    of flowing text (``flows``: what stands between two block boundaries, as one line of reading).
    Code and what a page marks as data in the language it was written in (``translate="no"``: a
    mail's subject as it was sent) are not the interface's words."""

    HIDDEN = frozenset({"script", "style", "code", "pre", "kbd", "samp", "svg", "option"})
    VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
                      "source", "track", "wbr"})  # fmt: skip
    # Elements that flow within a line of text: any other starts or ends a run of flowing text.
    INLINE = frozenset({"a", "abbr", "b", "bdi", "cite", "code", "data", "dfn", "em", "i", "kbd",
                        "mark", "q", "s", "samp", "small", "span", "strong", "sub", "sup", "time",
                        "u", "var", "wbr"})  # fmt: skip

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.words: list[str] = []
        self.links: list[str] = []
        self.open: list[tuple[str, bool]] = []  # each open element, and whether it hides
        self.flows: list[str] = []
        self._flow: list[str] = []

    def _break(self, tag: str) -> None:
        if tag not in self.INLINE:
            flow = "".join(self._flow).strip()
            if flow:
                self.flows.append(flow)
            self._flow = []

    def close(self) -> None:
        super().close()
        self._break("body")

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        self._break(tag)
        if tag == "a" and values.get("href"):
            self.links.append(values["href"] or "")
        if not self.hidden:
            for name in ("aria-label", "placeholder", "alt"):
                if values.get(name):
                    self.words.append(values[name] or "")
            if tag == "input" and values.get("type") in ("submit", "button"):
                self.words.append(values.get("value") or "")
        if tag not in self.VOID:
            self.open.append((tag, tag in self.HIDDEN or values.get("translate") == "no"))

    def handle_endtag(self, tag: str) -> None:
        self._break(tag)
        while self.open:
            if self.open.pop()[0] == tag:
                break

    @property
    def hidden(self) -> bool:
        return any(hides for _tag, hides in self.open)

    def handle_data(self, data: str) -> None:
        if not self.hidden:
            self.words.append(data)
            self._flow.append(data)
        elif data.strip():
            self._flow.append("\x01")  # code in the line: it stands there, whatever it says


def data_words() -> set[str]:
    """Every word of the demo's data: names, descriptions, notes."""
    texts: list[str] = []
    for bakeoff in Bakeoff.objects.all():
        texts += [bakeoff.name, bakeoff.description, bakeoff.slug]
    for corpus in Corpus.objects.all():
        texts += [corpus.name, corpus.institution, corpus.standard, corpus.abbreviation]
    for track in Track.objects.all():
        texts += [track.name, track.slug]
    for site in Site.objects.all():
        texts += [site.name, site.institution, site.country, site.code]
    for user in User.objects.all():
        texts += [user.username, user.first_name, user.last_name, user.email]
    for run in Submission.objects.all():
        texts += [run.description, run.original_name]
    texts += [g.note for g in GoldVersion.objects.all()]
    texts += [v.note for v in ResultsVersion.objects.all()]
    return {word.lower() for text in texts for word in WORD.findall(text or "")}


def walk(client: Client, accept: str) -> Iterator[tuple[str, str, list[str]]]:
    """Every HTML page reachable from the home page by links, with its visible text."""
    seen: set[str] = set()
    queue = ["/", "/bakeoffs/demo/"]
    while queue and len(seen) < LIMIT:
        path = queue.pop(0)
        if path in seen:
            continue
        seen.add(path)
        answer = client.get(path, headers={"accept-language": accept})
        if answer.status_code in (301, 302):
            location = answer["Location"]
            if location.startswith("/") and not location.startswith(SKIPPED):
                queue.append(urldefrag(location)[0].split("?", 1)[0])
            continue
        if not answer.get("Content-Type", "").startswith("text/html"):
            continue
        if answer.status_code >= 500:
            raise AssertionError(f"{path} answered {answer.status_code}")
        page = PageText()
        page.feed(answer.content.decode())
        page.close()
        yield path, " ".join(page.words), page.flows
        for link in page.links:
            target = urlsplit(link)
            if target.scheme or target.netloc or not target.path.startswith("/"):
                continue
            if target.path.startswith(SKIPPED) or target.path in seen:
                continue
            queue.append(target.path)


def demo_world(on_commit: OnCommit) -> dict[str, Client]:
    """The demo (on a tiny corpus), a refused upload, published results and an erratum."""
    tiny = DemoCorpus(training_text=GOLD, training_words=WORDS, test_text=TEST, gold_text=GOLD)
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr(demo, "build_demo_corpus", lambda: tiny)
        with on_commit():
            demo.setup_demo(log=lambda _line: None)
    organiser = User.objects.get(username="organiser")
    participant = User.objects.get(username="participant")
    clients = {"anonymous": Client(), "participant": Client(), "organiser": Client()}
    clients["participant"].force_login(participant)
    clients["organiser"].force_login(organiser)
    short = TEST.split("\n", 1)[1]
    refused = clients["participant"].post(
        "/bakeoffs/demo/tracks/pd-closed/upload/",
        {"file": SimpleUploadedFile("run.txt", short.encode())},
    )
    assert refused.status_code == 200  # the form again, with the refusal
    bakeoff = Bakeoff.objects.get(slug="demo")
    with on_commit():
        publish(bakeoff)
    corpus = Corpus.objects.get(bakeoff=bakeoff)
    with on_commit():
        services.do_add_gold_version(
            corpus, GOLD.replace("今天 天气", "今天天气").encode(), user=organiser, note="今天天气"
        )
    with on_commit():
        do_publish_erratum(bakeoff, note="今天天气是一个词。", by=organiser)
    return clients


@dataclass
class Walked:
    """What both tests read, in one language: every reader's pages with their text, and the
    demo's data (the words and texts allowed on them)."""

    pages: list[tuple[str, str, str, list[str]]]  # reader, path, text, runs of flowing text
    data_words: set[str]
    data_texts: list[str]


@pytest.fixture(scope="module")
def walked(
    django_db_setup: None,
    django_db_blocker: DjangoDbBlocker,
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[dict[str, Walked]]:
    """Both tests read the same pages of the same world: it is built and walked once a language
    for the module (tests/module_world.py)."""
    media = tmp_path_factory.mktemp("chinese_walk") / "media"

    def build() -> dict[str, Walked]:
        clients = demo_world(captured_on_commit)
        words, texts = data_words(), data_texts()
        pages = {
            accept: Walked(
                [
                    (reader, path, text, flows)
                    for reader, client in clients.items()
                    for path, text, flows in walk(client, accept)
                ],
                words,
                texts,
            )
            for accept in ("zh-CN", "zh-TW")
        }
        translation.deactivate()  # as language_reset after a test
        return pages

    yield from built_once(django_db_blocker, media, build)


@pytest.mark.parametrize("accept", ["zh-CN", "zh-TW"])
def test_no_english_word_of_the_interface_is_left_on_any_page(
    walked: dict[str, Walked], accept: str
) -> None:
    allowed = PROPER | walked[accept].data_words | ZONES
    found: dict[str, set[str]] = {}
    pages = 0
    for reader, path, text, _flows in walked[accept].pages:
        pages += 1
        english = {w for w in WORD.findall(text) if w.lower() not in allowed}
        if english:
            found[f"{reader} {path}"] = english
    assert pages > 30  # the walk reaches the pages
    assert found == {}


# ASCII punctuation beside a Chinese character: "(已公布)", "北京大学, 中国", "版本 2: 勘误".
CJK = r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]"
ASCII_BESIDE_CJK = re.compile(rf"{CJK} ?[(),;:]|[(),;:] ?{CJK}")
# Where ASCII punctuation beside Chinese is not the interface's: none yet, each entry with its
# reason (the data's own texts are taken out first, see data_texts).
PUNCTUATION_ALLOWED: set[str] = set()


# What the walk looks for that data may hold as written: ASCII punctuation, and the spaces below.
DATA_MARKS = re.compile(r"[(),;:]|[。！？]\s|\s（")


def data_texts() -> list[str]:
    """The demo's texts holding what the walk looks for (``DATA_MARKS``), longest first: they are
    shown as written."""
    texts: list[str] = []
    for bakeoff in Bakeoff.objects.all():
        texts += [bakeoff.name, bakeoff.description]
    for corpus in Corpus.objects.all():
        texts += [corpus.name, corpus.institution, corpus.standard]
    for track in Track.objects.all():
        texts += [track.name]
    for site in Site.objects.all():
        texts += [site.name, site.institution, site.country]
    for run in Submission.objects.all():
        texts += [run.description, run.original_name]
    texts += [g.note for g in GoldVersion.objects.all()]
    texts += [v.note for v in ResultsVersion.objects.all()]
    marked = {text for text in texts if text and DATA_MARKS.search(text)}
    return sorted(marked, key=len, reverse=True)


def found_in(
    text: str, data: list[str], *patterns: re.Pattern[str], allowed: set[str] | None = None
) -> set[str]:
    """What the patterns find in a reader's text, each with the words around it, once the data's
    own texts (shown as written) are taken out."""
    for written in data:
        text = text.replace(written, "\x00")
    return {
        " ".join(text[max(m.start() - 25, 0) : m.end() + 25].split())
        for pattern in patterns
        for m in pattern.finditer(text)
        if m.group() not in (allowed or set())
    }


@pytest.mark.parametrize("accept", ["zh-CN", "zh-TW"])
def test_no_ascii_punctuation_beside_chinese_on_any_page(
    walked: dict[str, Walked], accept: str
) -> None:
    data = walked[accept].data_texts
    found: dict[str, set[str]] = {}
    pages = 0
    for reader, path, text, _flows in walked[accept].pages:
        pages += 1
        bad = found_in(text, data, ASCII_BESIDE_CJK, allowed=PUNCTUATION_ALLOWED)
        if bad:
            found[f"{reader} {path}"] = bad
    assert pages > 30  # the walk reaches the pages
    assert found == {}


# Where English leaves a space and Chinese leaves none: between two sentences of one paragraph
# (after 。！？) and before a full-width parenthesis. The space of a template ("{% translate 'A.'
# %} {% translate 'B.' %}") stands in Chinese too: {% gap %} is a space in English only.
SPACE_AFTER_FULL_STOP = re.compile(r"[。！？]\s+\S")
SPACE_BEFORE_PARENTHESIS = re.compile(r"\S\s+（")


@pytest.mark.parametrize("accept", ["zh-CN", "zh-TW"])
def test_no_space_parts_chinese_sentences_or_comes_before_a_parenthesis(
    walked: dict[str, Walked], accept: str
) -> None:
    data = walked[accept].data_texts
    found: dict[str, set[str]] = {}
    flows = 0
    for reader, path, _text, page_flows in walked[accept].pages:
        for flow in page_flows:
            flows += 1
            bad = found_in(flow, data, SPACE_AFTER_FULL_STOP, SPACE_BEFORE_PARENTHESIS)
            if bad:
                found.setdefault(f"{reader} {path}", set()).update(bad)
    assert flows > 1000  # the walk reads the pages' paragraphs
    assert found == {}
