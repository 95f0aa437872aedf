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
word by word, empty lines skipped) with its provenance, written to and read from JSON
(``difficulty``).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt

from ..core.dictionary import EMPTY_DICTIONARY
from ..core.errors import ScoringError
from ..core.gold import GoldIndex, build_gold_index
from ..core.score import ScoredRun, score_run_details
from ..core.text import UTF8, sha256_bytes, split_lines, words_of
from .crf import TEMPLATES, CrfSettings, Template, train_with_settings
from .difficulty import Committee, Member, MemberPlan

RATIOS: Final = (0.1, 0.2, 0.3)
DEFAULT_K: Final = 16
Progress = Callable[[int, int], None]


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
