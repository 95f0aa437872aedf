"""The per-line comparison of a run with the gold, errors marked, as a participant reads it.

It shows the gold text and the whole run, so ``views.run_comparison`` serves it only to whom may
fetch the gold (the organisers at any time; registered sites once the results are published),
and a site's run only to that site. Before publication a participant gets nothing: marking the
errors of a run line by line would tell them the gold's segmentation of every line.
Which words are correct comes from the scoring library (``score_run_details``: the same
decision as the score, including lines scored by character alignment); this module only lays
the words out, line by line.
"""

from __future__ import annotations

from collections.abc import Iterator

from bakeoff.models import GoldVersion, Submission
from bakeoff.services import gold_index_for, uploads
from scoring import score_run_details, split_lines, words_of

HEADER = """\
# Per-line comparison of {label} ({track}) with gold version {gold} ({checksum}).
# Signature: {signature}
# Each line is "LINE<TAB>=<TAB>words" where the run equals the gold, or two lines
# "LINE<TAB>gold<TAB>words" and "LINE<TAB>run<TAB>words" where they differ. Words in [brackets]
# are errors: a gold word the run did not segment exactly, or a run word that is not a gold word.
# Totals: {correct} of {true_words} gold words found, {test_words} run words.
"""


def _marked(words: list[str], correct: list[bool]) -> str:
    return " ".join(w if ok else f"[{w}]" for w, ok in zip(words, correct, strict=True))


def comparison_lines(submission: Submission, gold: GoldVersion, label: str) -> Iterator[str]:
    run_data = uploads.read_stored(submission.file)
    details = score_run_details(run_data, gold_index_for(gold), aligned_lines=gold.aligned_lines)
    gold_correct = details.gold_correct.tolist()
    run_correct = details.run_correct.tolist()
    score = details.score
    yield HEADER.format(
        label=label,
        track=submission.track.name,
        gold=gold.number,
        checksum=gold.checksum,
        signature=score.signature,
        correct=score.correct,
        true_words=score.true_words,
        test_words=score.test_words,
    )
    gold_lines = split_lines(uploads.read_stored_text(gold.file))
    run_lines = split_lines(run_data.decode("utf-8"))
    g = r = 0
    for number, (gold_line, run_line) in enumerate(zip(gold_lines, run_lines, strict=True), 1):
        gold_words, run_words = words_of(gold_line), words_of(run_line)
        gold_ok = gold_correct[g : g + len(gold_words)]
        run_ok = run_correct[r : r + len(run_words)]
        g += len(gold_words)
        r += len(run_words)
        if all(gold_ok) and all(run_ok) and len(gold_words) == len(run_words):
            yield f"{number}\t=\t{' '.join(gold_words)}\n"
        else:
            yield f"{number}\tgold\t{_marked(gold_words, gold_ok)}\n"
            yield f"{number}\trun\t{_marked(run_words, run_ok)}\n"
