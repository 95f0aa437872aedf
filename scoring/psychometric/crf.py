"""A B/M/E/S character tagger trained with python-crfsuite: the committee member of
docs/measures/balanced-f.md.

Each character gets one of four tags, B (begins a word), M (inside), E (ends) or S (a word of one
character), from a linear-chain CRF over the feature templates of Qian et al. (2016), §4.1:

- F1: C_i (i = -1..1); C_i:i+1 (i = -1, 0)
- F2: C_i (i = -2..2); C_i:i+1 (i = -2..1)
- F3: F2 plus C_i:i+2 (i = -2..0)

where C_i is the character i positions away and C_i:j the characters from i to j. The tag
transition T_-1,0 of every template is the CRF's own transition feature. Positions outside the
sentence read as ``<s>`` (before) and ``</s>`` (after); being longer than one character, neither
can be mistaken for a character of the text.

Training takes segmented sentences (words separated by whitespace) and tagging takes plain
sentences, both as lists of str; a model is kept as the bytes of a crfsuite model file, so it can
cross process boundaries and be stored.

    >>> tagger = train_tagger(["我  爱  北京", "北京  是  首都"], template="F1", max_iterations=20)
    >>> tagger.segment(["我爱北京"])
    [['我', '爱', '北京']]
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Final, Literal

from ..core.errors import ScoringError
from ..core.text import strip_separators, words_of

Template = Literal["F1", "F2", "F3"]
TEMPLATES: Final[tuple[Template, ...]] = ("F1", "F2", "F3")

BEFORE: Final = "<s>"
AFTER: Final = "</s>"

# Offsets (relative to the tagged character) of the character n-grams of each template.
_NGRAMS: Final[dict[Template, tuple[tuple[int, ...], ...]]] = {
    "F1": ((-1,), (0,), (1,), (-1, 0), (0, 1)),
    "F2": (
        *((i,) for i in range(-2, 3)),
        *((i, i + 1) for i in range(-2, 2)),
    ),
    "F3": (
        *((i,) for i in range(-2, 3)),
        *((i, i + 1) for i in range(-2, 2)),
        *((i, i + 1, i + 2) for i in range(-2, 1)),
    ),
}
_WINDOW: Final = 2  # the widest reach of any template on either side

# Defaults: L-BFGS with an L2 penalty, as crfsuite's own defaults, and a bounded number of passes
# so that a committee of sixteen trains in minutes. Every setting is recorded in CrfSettings.
DEFAULT_MAX_ITERATIONS: Final = 100
DEFAULT_C2: Final = 1.0


def _crfsuite() -> ModuleType:
    """python-crfsuite, imported on first use: scoring runs without it, only training needs it."""
    try:
        import pycrfsuite  # type: ignore[import-untyped]
    except ImportError:  # pragma: no cover - depends on the environment
        raise ScoringError(
            "the committee needs python-crfsuite: pip install bakeoff-scoring[committee]"
        ) from None
    module: ModuleType = pycrfsuite
    return module


@dataclass(frozen=True)
class CrfSettings:
    """Everything that decides a model besides its training sentences."""

    template: Template = "F2"
    max_iterations: int = DEFAULT_MAX_ITERATIONS
    c1: float = 0.0
    c2: float = DEFAULT_C2

    def __post_init__(self) -> None:
        if self.template not in TEMPLATES:
            raise ScoringError(f"unknown feature template {self.template!r}: use F1, F2 or F3")
        if self.max_iterations < 1:
            raise ScoringError("max_iterations must be at least 1")

    def to_dict(self) -> dict[str, object]:
        return {
            "template": self.template,
            "max_iterations": self.max_iterations,
            "c1": self.c1,
            "c2": self.c2,
            "algorithm": "lbfgs",
            "crfsuite": str(_crfsuite().CRFSUITE_VERSION),
        }


def tags_of(words: Sequence[str]) -> list[str]:
    """The B/M/E/S tag of every character of a segmented sentence.

    >>> tags_of(["结婚", "的", "和尚"])
    ['B', 'E', 'S', 'B', 'E']
    """
    tags: list[str] = []
    for word in words:
        if len(word) == 1:
            tags.append("S")
        else:
            tags += ["B", *("M" * (len(word) - 2)), "E"]
    return tags


def words_from_tags(chars: str, tags: Sequence[str]) -> list[str]:
    """Cut ``chars`` where the tags say: before a B or S, and after an E or S.

    An ill-formed sequence (an M after an S, say) still gives words: a word ends only where a tag
    says so.

    >>> words_from_tags("结婚的和尚", ["B", "E", "S", "B", "E"])
    ['结婚', '的', '和尚']
    """
    if len(chars) != len(tags):
        raise ValueError(f"{len(chars)} characters but {len(tags)} tags")
    words: list[str] = []
    start = 0
    for i in range(1, len(chars)):
        if tags[i] in ("B", "S") or tags[i - 1] in ("E", "S"):
            words.append(chars[start:i])
            start = i
    if chars:
        words.append(chars[start:])
    return words


def char_features(chars: str, template: Template) -> list[list[str]]:
    """The feature names of every character of a sentence under ``template``.

    >>> char_features("我爱", "F1")[0]
    ['C-1=<s>', 'C0=我', 'C1=爱', 'C-1,0=<s>我', 'C0,1=我爱']
    """
    n = len(chars)
    padded = [BEFORE] * _WINDOW + list(chars) + [AFTER] * _WINDOW
    columns = []
    for offsets in _NGRAMS[template]:
        name = _feature_name(offsets)
        # One column per n-gram: its characters are the padded text shifted by each offset.
        shifted = [padded[_WINDOW + offset : _WINDOW + offset + n] for offset in offsets]
        columns.append([name + "".join(parts) for parts in zip(*shifted, strict=True)])
    return [list(row) for row in zip(*columns, strict=True)]


def _feature_name(offsets: tuple[int, ...]) -> str:
    # crfsuite reads "name:weight" in its own file format, so no colon in a name.
    return "C" + ",".join(str(offset) for offset in offsets) + "="


@dataclass(frozen=True, eq=False)
class CrfTagger:
    """A trained model: the bytes of a crfsuite model file and the settings that made it."""

    model: bytes
    settings: CrfSettings
    training_sentences: int

    def tag(self, sentences: Iterable[str]) -> list[list[str]]:
        """The B/M/E/S tags of every character of each sentence (whitespace removed first)."""
        crfsuite = _crfsuite()
        tagger = crfsuite.Tagger()
        tagger.open_inmemory(self.model)
        try:
            results: list[list[str]] = []
            for sentence in sentences:
                chars = strip_separators(sentence)
                if not chars:
                    results.append([])
                    continue
                xseq = crfsuite.ItemSequence(char_features(chars, self.settings.template))
                results.append(list(tagger.tag(xseq)))
            return results
        finally:
            tagger.close()

    def segment(self, sentences: Iterable[str]) -> list[list[str]]:
        """The words of each sentence; an empty sentence has none."""
        chars = [strip_separators(sentence) for sentence in sentences]
        return [
            words_from_tags(text, tags) for text, tags in zip(chars, self.tag(chars), strict=True)
        ]

    def segment_text(self, sentences: Iterable[str]) -> str:
        """A run: one line per sentence, words separated by two spaces (the icwb2 layout)."""
        return "".join("  ".join(words) + "\n" for words in self.segment(sentences))


def train_tagger(
    sentences: Iterable[str | Sequence[str]],
    *,
    template: Template = "F2",
    max_iterations: int = DEFAULT_MAX_ITERATIONS,
    c1: float = 0.0,
    c2: float = DEFAULT_C2,
) -> CrfTagger:
    """Train a tagger on segmented sentences: lines whose words are separated by whitespace, or
    lists of words. Empty sentences are skipped."""
    settings = CrfSettings(template=template, max_iterations=max_iterations, c1=c1, c2=c2)
    return train_with_settings(sentences, settings)


def train_with_settings(
    sentences: Iterable[str | Sequence[str]], settings: CrfSettings
) -> CrfTagger:
    crfsuite = _crfsuite()
    trainer = crfsuite.Trainer(algorithm="lbfgs", verbose=False)
    trainer.set_params(
        {
            "c1": settings.c1,
            "c2": settings.c2,
            "max_iterations": settings.max_iterations,
            "feature.possible_transitions": True,
        }
    )
    count = 0
    for sentence in sentences:
        words = words_of(sentence) if isinstance(sentence, str) else list(sentence)
        if not words:
            continue
        chars = "".join(words)
        trainer.append(
            crfsuite.ItemSequence(char_features(chars, settings.template)), tags_of(words)
        )
        count += 1
    if not count:
        raise ScoringError("no training sentences: a tagger needs at least one segmented sentence")
    handle, path = tempfile.mkstemp(prefix="bakeoff-crf-", suffix=".model")
    os.close(handle)
    try:
        trainer.train(path)
        with open(path, "rb") as stream:
            model = stream.read()
    finally:
        os.unlink(path)
    return CrfTagger(model=model, settings=settings, training_sentences=count)
