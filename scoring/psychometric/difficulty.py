"""The result of a committee: the difficulty of every gold word with its provenance (the
members, their settings and figures), written to and read from JSON (``bakeoff-difficulty/1``),
and a difficulty vector made elsewhere (``read_difficulty``). How a committee is formed is
``committee``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Final, Literal

import numpy as np
import numpy.typing as npt

from ..core.errors import CorpusFormatError, ScoringError
from ..core.result import PrecisionRecall
from ..core.text import UTF8, decode, sha256_bytes, split_lines
from ..core.version import __version__
from .crf import Template

FORMAT: Final = "bakeoff-difficulty/1"


Kind = Literal["crf", "runs"]


Difficulty = npt.NDArray[np.float64]


@dataclass(frozen=True)
class MemberPlan:
    """What one CRF member is trained from: its template and a sample drawn with its own seed."""

    template: Template
    ratio: float
    seed: int

    def sample(self, sentences: int) -> npt.NDArray[np.int64]:
        """Indices (sorted) of the training sentences this member trains on."""
        size = max(1, round(self.ratio * sentences))
        chosen = np.random.default_rng(self.seed).choice(sentences, size=size, replace=False)
        return np.sort(chosen)


@dataclass(frozen=True)
class Member(PrecisionRecall):
    """One member of a committee and how it scored on the test set itself."""

    name: str
    true_words: int
    test_words: int
    correct: int
    template: str | None = None
    ratio: float | None = None
    seed: int | None = None
    training_sentences: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "template": self.template,
            "ratio": self.ratio,
            "seed": self.seed,
            "training_sentences": self.training_sentences,
            "true_words": self.true_words,
            "test_words": self.test_words,
            "correct": self.correct,
            "recall": self.recall,
            "precision": self.precision,
            "f": self.f,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Member:
        return cls(
            name=str(data["name"]),
            true_words=int(data["true_words"]),
            test_words=int(data["test_words"]),
            correct=int(data["correct"]),
            template=data.get("template"),
            ratio=data.get("ratio"),
            seed=data.get("seed"),
            training_sentences=data.get("training_sentences"),
        )


@dataclass(frozen=True, eq=False)
class Committee:
    """The difficulty of every gold word of one gold standard, and how it was obtained.

    ``misses[i]`` is the number of members that did not segment gold word i exactly, so
    ``difficulty = misses / k`` holds exactly and the sums of docs/measures/balanced-f.md can be
    checked by hand.
    """

    kind: Kind
    misses: npt.NDArray[np.int32]
    members: tuple[Member, ...]
    gold_checksum: str
    seed: int | None = None
    training_checksum: str | None = None
    settings: Mapping[str, Any] = field(default_factory=dict)
    scorer_version: str = __version__

    def __post_init__(self) -> None:
        misses = np.array(self.misses, np.int32)  # a copy, read-only like the rest
        misses.setflags(write=False)
        object.__setattr__(self, "misses", misses)
        if misses.ndim != 1 or (misses.size and (misses.min() < 0 or misses.max() > self.k)):
            raise ScoringError(f"misses must count, per gold word, 0 to {self.k} members")

    @property
    def k(self) -> int:
        return len(self.members)

    @cached_property
    def difficulty(self) -> Difficulty:
        """misses / k, read-only."""
        difficulty: Difficulty = self.misses / np.float64(self.k)
        difficulty.setflags(write=False)
        return difficulty

    @property
    def signature(self) -> str:
        """One line naming everything that decides the vector (for tables and links)."""
        parts = [f"committee:{self.kind}", f"k:{self.k}"]
        if self.seed is not None:
            parts.append(f"seed:{self.seed}")
        parts.append(f"gold:{_short(self.gold_checksum)}")
        if self.training_checksum is not None:
            parts.append(f"train:{_short(self.training_checksum)}")
        parts.append(f"scorer:{self.scorer_version}")
        return "|".join(parts)

    def provenance(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "k": self.k,
            "seed": self.seed,
            "signature": self.signature,
            "gold_checksum": self.gold_checksum,
            "training_checksum": self.training_checksum,
            "scorer_version": self.scorer_version,
            "settings": dict(self.settings),
            "members": [member.to_dict() for member in self.members],
        }

    def to_dict(self) -> dict[str, Any]:
        """A JSON object: ``difficulty`` (gold words in corpus order) beside the provenance."""
        return {
            "format": FORMAT,
            "difficulty": self.difficulty.tolist(),
            "misses": self.misses.tolist(),
            "provenance": self.provenance(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Committee:
        if data.get("format") != FORMAT:
            raise CorpusFormatError(f"not a difficulty file of format {FORMAT}")
        provenance = data["provenance"]
        members = tuple(Member.from_dict(member) for member in provenance["members"])
        misses = np.asarray(data["misses"], np.int32)
        expected = misses / np.float64(len(members)) if members else misses
        if not np.allclose(np.asarray(data["difficulty"], np.float64), expected):
            raise CorpusFormatError("the difficulty file's difficulties do not equal misses / k")
        return cls(
            kind=provenance["kind"],
            misses=misses,
            members=members,
            gold_checksum=provenance["gold_checksum"],
            seed=provenance.get("seed"),
            training_checksum=provenance.get("training_checksum"),
            settings=provenance.get("settings", {}),
            scorer_version=provenance.get("scorer_version", __version__),
        )

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_dict(), ensure_ascii=False) + "\n", UTF8)

    @classmethod
    def load(cls, path: str | Path) -> Committee:
        try:
            data = json.loads(Path(path).read_text(UTF8))
        except json.JSONDecodeError as error:
            raise CorpusFormatError(f"{path}: not JSON ({error})") from None
        return cls.from_dict(data)


@dataclass(frozen=True, eq=False)
class DifficultyVector:
    """A difficulty vector as read from a file: a committee's (``committee`` set, with its
    provenance) or one without provenance (made by another committee, or taken from a paper's
    release), which names itself by the checksum of its values."""

    difficulty: Difficulty
    signature: str
    committee: Committee | None = None

    @property
    def has_provenance(self) -> bool:
        return self.committee is not None


def read_difficulty(path: str | Path) -> DifficultyVector:
    """The difficulty vector of a file (docs/measures/balanced-f.md#command-line-and-files): a
    committee file (``"format": "bakeoff-difficulty/1"``), a JSON object with a plain
    ``"difficulty"`` list, or one number a line (blank lines ignored). Every value must lie in
    [0, 1]; a vector without provenance can be checked against the gold only by its length."""
    text = decode(Path(path).read_bytes())
    if text.lstrip()[:1] in ("{", "["):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise CorpusFormatError(f"{path}: not JSON ({error})") from None
        if isinstance(data, dict) and "format" in data:
            if data["format"] != FORMAT:
                raise CorpusFormatError(
                    f"{path}: a difficulty file of format {data['format']!r}, not {FORMAT}"
                )
            committee = Committee.from_dict(data)
            return DifficultyVector(committee.difficulty, committee.signature, committee)
        values = data.get("difficulty") if isinstance(data, dict) else None
        if not isinstance(values, list):
            raise CorpusFormatError(
                f'{path}: neither a committee file ({FORMAT}) nor {{"difficulty": [...]}}'
            )
        if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in values):
            raise CorpusFormatError(f'{path}: "difficulty" must be a list of numbers')
        difficulty = np.asarray(values, np.float64)
    else:
        numbers = []
        for number, line in enumerate(split_lines(text), 1):
            if not line.strip():
                continue
            try:
                numbers.append(float(line))
            except ValueError:
                raise CorpusFormatError(
                    f"{path}: line {number}: {line.strip()!r} is not a number (one difficulty "
                    "a line)"
                ) from None
        difficulty = np.asarray(numbers, np.float64)
    if difficulty.size and not (
        np.isfinite(difficulty).all() and difficulty.min() >= 0 and difficulty.max() <= 1
    ):
        raise CorpusFormatError(f"{path}: difficulties must be numbers in [0, 1]")
    difficulty.setflags(write=False)
    return DifficultyVector(difficulty, _external_signature(difficulty))


def _external_signature(difficulty: Difficulty) -> str:
    """``committee:none|values:N|sha256.…``: the values, written one a line with Python's
    shortest repr, name the vector."""
    canonical = "".join(f"{float(value)!r}\n" for value in difficulty)
    checksum = sha256_bytes(canonical.encode(UTF8))
    return f"committee:none|values:{difficulty.size}|vector:{_short(checksum)}"


def _short(checksum: str) -> str:
    algorithm, _, digest = checksum.partition(":")
    return f"{algorithm}.{digest[:12]}" if digest else checksum
