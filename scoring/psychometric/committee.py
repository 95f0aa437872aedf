"""The committee that rates how hard each gold word is (docs/measures/balanced-f.md, Qian et al.
2016 §4.1).

A committee of K segmenters rates every gold word w_i: member k gets it right (m_i^k = 1) when its
span is in the member's output, and the word's difficulty is d_i = (1/K) Σ_k (1 − m_i^k).

Two kinds of committee:

- ``crf`` (the default, the paper's): K B/M/E/S CRF taggers, each with a random feature template
  (F1, F2, F3) trained on a random 10%, 20% or 30% sample of the training sentences. Everything
  random is drawn from one seed, so the same seed gives the same committee; members train in
  parallel processes.
- ``runs``: the scored runs of a corpus are the members, for bakeoffs without training text.

The result is a Committee: the difficulty vector of the gold words in corpus order (line by line,
word by word, empty lines skipped) with its provenance, written to and read from JSON.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Final, Literal

import numpy as np
import numpy.typing as npt

from ..core.dictionary import EMPTY_DICTIONARY
from ..core.errors import CorpusFormatError, ScoringError
from ..core.gold import GoldIndex, build_gold_index
from ..core.result import PrecisionRecall
from ..core.score import ScoredRun, score_run_details
from ..core.text import UTF8, decode, sha256_bytes, split_lines, words_of
from ..core.version import __version__
from .crf import TEMPLATES, CrfSettings, Template, train_with_settings

FORMAT: Final = "bakeoff-difficulty/1"
RATIOS: Final = (0.1, 0.2, 0.3)
DEFAULT_K: Final = 16
Kind = Literal["crf", "runs"]
Difficulty = npt.NDArray[np.float64]
Progress = Callable[[int, int], None]


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


def plan_committee(
    k: int = DEFAULT_K,
    seed: int = 1,
    *,
    templates: Sequence[Template] = TEMPLATES,
    ratios: Sequence[float] = RATIOS,
) -> tuple[MemberPlan, ...]:
    """K members, each with a template, a sample ratio and a seed drawn from ``seed``."""
    if k < 1:
        raise ScoringError("a committee needs at least one member (k >= 1)")
    if not templates or not ratios:
        raise ScoringError("a committee needs at least one template and one sample ratio")
    if any(not 0 < ratio <= 1 for ratio in ratios):
        raise ScoringError("sample ratios must lie in (0, 1]")
    rng = np.random.default_rng(seed)
    return tuple(
        MemberPlan(
            template=templates[int(rng.integers(len(templates)))],
            ratio=float(ratios[int(rng.integers(len(ratios)))]),
            seed=int(rng.integers(2**31)),
        )
        for _ in range(k)
    )


def training_sentences(text: str) -> list[str]:
    """The segmented sentences of a training corpus: its non-empty lines."""
    return [line for line in split_lines(text) if words_of(line)]


def test_sentences(gold: GoldIndex) -> list[str]:
    """The test text of a gold standard, one sentence a line (empty lines kept)."""
    return gold.compact.tobytes().decode(UTF8).split("\n")[:-1]


test_sentences.__test__ = False  # type: ignore[attr-defined]  # not a pytest test


def build_committee(
    training: Sequence[str],
    gold: GoldIndex | str,
    *,
    k: int = DEFAULT_K,
    seed: int = 1,
    templates: Sequence[Template] = TEMPLATES,
    ratios: Sequence[float] = RATIOS,
    max_iterations: int | None = None,
    max_workers: int | None = None,
    progress: Progress | None = None,
) -> Committee:
    """Train a CRF committee on ``training`` (segmented sentences) and rate the gold's words.

    ``gold`` is a gold index or the gold text. Members train in ``max_workers`` processes
    (default: one per CPU; 1 trains in this process). ``progress(done, k)`` is called in this
    process as members finish.
    """
    if not training:
        raise ScoringError("the training corpus has no sentences")
    index = gold if isinstance(gold, GoldIndex) else build_gold_index(gold, EMPTY_DICTIONARY)
    plans = plan_committee(k, seed, templates=templates, ratios=ratios)
    defaults = CrfSettings()
    iterations = defaults.max_iterations if max_iterations is None else max_iterations
    tests = test_sentences(index)
    jobs = [
        (
            CrfSettings(template=plan.template, max_iterations=iterations),
            [training[int(i)] for i in plan.sample(len(training))],
            tests,
        )
        for plan in plans
    ]
    runs = _run_jobs(jobs, max_workers, progress)
    votes = [
        member_vote(number, plan, len(sample), run, index)
        for number, (plan, (_, sample, _), run) in enumerate(zip(plans, jobs, runs, strict=True), 1)
    ]
    return crf_committee(
        votes,
        index,
        training,
        seed=seed,
        templates=templates,
        ratios=ratios,
        max_iterations=iterations,
    )


@dataclass(frozen=True, eq=False)
class MemberVote:
    """What one member says of the gold: which gold words it segmented exactly (``correct``)."""

    member: Member
    correct: npt.NDArray[np.bool_]


def member_vote(
    number: int, plan: MemberPlan, sample_size: int, run: str, gold: GoldIndex
) -> MemberVote:
    """The vote of CRF member ``number`` (from 1), trained on ``sample_size`` sentences, whose
    segmentation of the test text is ``run``."""
    scored = score_run_details(run, gold)
    return MemberVote(
        Member(
            name=f"crf-{number}",
            true_words=scored.score.true_words,
            test_words=scored.score.test_words,
            correct=scored.score.correct,
            template=plan.template,
            ratio=plan.ratio,
            seed=plan.seed,
            training_sentences=sample_size,
        ),
        scored.gold_correct,
    )


def train_member(
    training: Sequence[str],
    gold: GoldIndex,
    *,
    number: int,
    k: int = DEFAULT_K,
    seed: int = 1,
    templates: Sequence[Template] = TEMPLATES,
    ratios: Sequence[float] = RATIOS,
    max_iterations: int | None = None,
) -> MemberVote:
    """Train member ``number`` (1 to k) of the committee ``build_committee`` would build with these
    arguments, in this process, and answer its vote: members can train anywhere, one at a time,
    and ``crf_committee`` assembles their votes into the same committee."""
    if not training:
        raise ScoringError("the training corpus has no sentences")
    plans = plan_committee(k, seed, templates=templates, ratios=ratios)
    if not 1 <= number <= len(plans):
        raise ScoringError(f"member {number} of a committee of {len(plans)}")
    plan = plans[number - 1]
    iterations = CrfSettings().max_iterations if max_iterations is None else max_iterations
    sample = [training[int(i)] for i in plan.sample(len(training))]
    settings = CrfSettings(template=plan.template, max_iterations=iterations)
    run = _train_and_segment(settings, sample, test_sentences(gold))
    return member_vote(number, plan, len(sample), run, gold)


def crf_committee(
    votes: Sequence[MemberVote],
    gold: GoldIndex,
    training: Sequence[str],
    *,
    seed: int = 1,
    templates: Sequence[Template] = TEMPLATES,
    ratios: Sequence[float] = RATIOS,
    max_iterations: int | None = None,
) -> Committee:
    """The CRF committee of these members' votes, in member order."""
    defaults = CrfSettings()
    misses = np.zeros(gold.true_words, np.int32)
    for vote in votes:
        misses += ~vote.correct
    return Committee(
        kind="crf",
        misses=misses,
        members=tuple(vote.member for vote in votes),
        gold_checksum=gold.checksum,
        seed=seed,
        training_checksum=_training_checksum(training),
        settings={
            "templates": list(templates),
            "ratios": list(ratios),
            "max_iterations": defaults.max_iterations if max_iterations is None else max_iterations,
            "c1": defaults.c1,
            "c2": defaults.c2,
            "algorithm": "lbfgs",
            "training_sentences": len(training),
        },
    )


def committee_from_runs(runs: Mapping[str, ScoredRun]) -> Committee:
    """A committee whose members are scored runs of one gold standard (the second kind).

    >>> from scoring import Dictionary, build_gold_index, score_run_details
    >>> gold = build_gold_index("结婚 的 和尚\\n", Dictionary.from_words([]))
    >>> runs = {
    ...     "a": score_run_details("结婚 的 和尚\\n", gold),
    ...     "b": score_run_details("结婚 的和尚\\n", gold),
    ... }
    >>> committee = committee_from_runs(runs)
    >>> committee.k, committee.difficulty.tolist()
    (2, [0.0, 0.5, 0.5])
    """
    if not runs:
        raise ScoringError("a committee of runs needs at least one scored run")
    checksums = {scored.gold.checksum for scored in runs.values()}
    if len(checksums) != 1:
        raise ScoringError("the runs of a committee must be scored against the same gold standard")
    first = next(iter(runs.values()))
    misses = np.zeros(first.gold.true_words, np.int32)
    members = []
    for name, scored in runs.items():
        misses += ~scored.gold_correct
        members.append(
            Member(
                name=name,
                true_words=scored.score.true_words,
                test_words=scored.score.test_words,
                correct=scored.score.correct,
            )
        )
    return Committee(
        kind="runs",
        misses=misses,
        members=tuple(members),
        gold_checksum=checksums.pop(),
    )


def _training_checksum(training: Iterable[str]) -> str:
    """SHA-256 of the training sentences, words joined by one space, one sentence a line."""
    canonical = "".join(" ".join(words_of(line)) + "\n" for line in training)
    return sha256_bytes(canonical.encode(UTF8))


_Job = tuple[CrfSettings, list[str], list[str]]


def _train_and_segment(settings: CrfSettings, sample: list[str], tests: list[str]) -> str:
    """One member's work, in a worker process: train, then segment the test text."""
    return train_with_settings(sample, settings).segment_text(tests)


def _run_jobs(
    jobs: Sequence[_Job], max_workers: int | None, progress: Progress | None
) -> list[str]:
    workers = min(len(jobs), max_workers or os.cpu_count() or 1)
    results: list[str | None] = [None] * len(jobs)
    if workers <= 1:
        for number, job in enumerate(jobs):
            results[number] = _train_and_segment(*job)
            if progress is not None:
                progress(number + 1, len(jobs))
    else:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor, as_completed

        # Fresh interpreters, not forks: forking a process that runs threads (a web server, a test
        # runner) can deadlock a child.
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
            futures = {pool.submit(_train_and_segment, *job): n for n, job in enumerate(jobs)}
            for done, future in enumerate(as_completed(futures), 1):
                results[futures[future]] = future.result()
                if progress is not None:
                    progress(done, len(jobs))
    return [result for result in results if result is not None]
