"""Run the SIGHAN 2005 Perl scorer (``icwb2/scripts/score``) and read what it prints.

The scorer prints, for every gold line, the side-by-side ``diff -y`` of the gold and run words and
that line's counts, then a summary block of ``=== LABEL:<tab>value`` lines. We keep both: the
summary is what the parity tests compare, the per-line counts say which lines a difference comes
from.

Everything here is plain subprocess and text work, so the tests can run several scorers at once.

Perl's answer is kept (``cache_directory``): it is a function of the script, the three files, the
perl and diff it runs and the locale diff lays its columns out in, and all of them go into the
key; a run scored again with nothing of that changed reads it instead of forking diff once per
gold line again (the 16 parity runs take minutes of CPU). ``BAKEOFF_PERL_CACHE=off`` runs Perl
every time.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import re
import shutil
import subprocess
import tempfile
import time
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
SHARED = REPO.parent / "shared"
ICWB2 = SHARED / "data" / "icwb2"
SCORE_SCRIPT = ICWB2 / "scripts" / "score"
GNU_DIFF = Path("/usr/bin/diff")  # the path the script hard-codes

# The labels of the summary block, in the order the script prints them, and our short names.
SUMMARY_LABELS: dict[str, str] = {
    "TOTAL INSERTIONS": "ins",
    "TOTAL DELETIONS": "del",
    "TOTAL SUBSTITUTIONS": "subst",
    "TOTAL NCHANGE": "nchange",
    "TOTAL TRUE WORD COUNT": "N",
    "TOTAL TEST WORD COUNT": "N'",
    "TOTAL TRUE WORDS RECALL": "R",
    "TOTAL TEST WORDS PRECISION": "P",
    "F MEASURE": "F",
    "OOV Rate": "OOV rate",
    "OOV Recall Rate": "OOV recall",
    "IV Recall Rate": "IV recall",
}

# The user property under which the parity tests record what they saw (conftest.py prints it).
REPORT_PROPERTY = "perl parity"

# The six figures printed with three decimals (OOV and IV recall may be "--").
FIGURES = ("R", "P", "F", "OOV rate", "OOV recall", "IV recall")

_SUMMARY_LINE = re.compile(r"^=== ([^:\t]+):(?:\t(.*))?$")  # "=== SUMMARY:" has no value
_LINE_HEADER = re.compile(r"^--.*----(\d+)$")
_LINE_COUNT = re.compile(r"^(INSERTIONS|DELETIONS|SUBSTITUTIONS|NTRUTH|NTEST):\t(\d+)$")


def missing_requirement() -> str | None:
    """Why the Perl scorer cannot run here, or None when it can."""
    if not SCORE_SCRIPT.is_file():
        return f"the SIGHAN data is not at {ICWB2} (../shared beside the repository)"
    if shutil.which("perl") is None:
        return "perl is not installed"
    if not GNU_DIFF.is_file():
        return f"GNU diff is not at {GNU_DIFF}, where scripts/score expects it"
    return None


@dataclass(frozen=True)
class LineCounts:
    """The counts the script prints for one gold line (1-based ``line``)."""

    line: int
    insertions: int
    deletions: int
    substitutions: int
    true_words: int
    test_words: int

    @property
    def correct(self) -> int:
        # Every gold word on a changed line of the diff is a deletion or a substitution.
        return self.true_words - self.deletions - self.substitutions


@dataclass(frozen=True)
class PerlScore:
    """The summary block as printed (strings), and the per-line counts."""

    summary: dict[str, str]
    labels: tuple[str, ...]
    lines: tuple[LineCounts, ...] = field(repr=False)
    stderr: str = field(repr=False, default="")
    seconds: float = 0.0  # what the Perl run took, also when its answer is read from the cache
    cached: bool = False  # read from the cache, not run this time

    def __getitem__(self, key: str) -> str:
        return self.summary[key]

    @property
    def true_words(self) -> int:
        return int(self.summary["N"])

    @property
    def test_words(self) -> int:
        return int(self.summary["N'"])

    @property
    def correct(self) -> int:
        """c, which the script does not print: N minus the gold words on changed diff lines."""
        return self.true_words - int(self.summary["del"]) - int(self.summary["subst"])


def parse_output(stdout: str, stderr: str = "") -> PerlScore:
    """Parse everything ``scripts/score`` printed on stdout."""
    summary: dict[str, str] = {}
    labels: list[str] = []
    lines: list[LineCounts] = []
    current: dict[str, int] = {}
    line_number = 0
    for text in stdout.splitlines():
        if text.startswith("=== "):
            match = _SUMMARY_LINE.match(text)
            if match:
                label, value = match.groups()
                labels.append(label)
                summary[SUMMARY_LABELS.get(label, label)] = value or ""
            continue
        header = _LINE_HEADER.match(text)
        if header:
            line_number = int(header.group(1))
            current = {}
            continue
        count = _LINE_COUNT.match(text)
        if count:
            current[count.group(1)] = int(count.group(2))
            if count.group(1) == "NTEST":
                lines.append(
                    LineCounts(
                        line=line_number,
                        insertions=current["INSERTIONS"],
                        deletions=current["DELETIONS"],
                        substitutions=current["SUBSTITUTIONS"],
                        true_words=current["NTRUTH"],
                        test_words=current["NTEST"],
                    )
                )
    missing = [name for name in SUMMARY_LABELS.values() if name not in summary]
    if missing:
        raise ValueError(f"the Perl scorer's summary lacks {missing}; stderr: {stderr[:500]}")
    return PerlScore(summary=summary, labels=tuple(labels), lines=tuple(lines), stderr=stderr)


def run_perl_score(dictionary: Path, gold: Path, run: Path, *, timeout: float = 600) -> PerlScore:
    """``perl scripts/score DICT GOLD RUN``, parsed; from the cache when Perl has scored exactly
    these inputs before (``cache_directory``).

    The script writes its two temporary files as /tmp/comp0[12]<pid>, so several may run at once.
    """
    directory = cache_directory()
    if directory is None:
        return _run_perl(dictionary, gold, run, timeout=timeout)
    entry = directory / f"{cache_key(dictionary, gold, run)}.json"
    kept = _read_entry(entry)
    if kept is not None:
        return kept
    score = _run_perl(dictionary, gold, run, timeout=timeout)
    _write_entry(entry, score)
    return score


def _run_perl(dictionary: Path, gold: Path, run: Path, *, timeout: float) -> PerlScore:
    started = time.perf_counter()
    completed = subprocess.run(
        ["perl", str(SCORE_SCRIPT), str(dictionary), str(gold), str(run)],
        capture_output=True,
        check=True,
        timeout=timeout,
    )
    # The script works on bytes; a run in another encoding must not stop us from reading counts.
    stdout = completed.stdout.decode("utf-8", errors="replace")
    stderr = completed.stderr.decode("utf-8", errors="replace")
    parsed = parse_output(stdout, stderr)
    return replace(parsed, seconds=time.perf_counter() - started)


# -- the cache of Perl's answers -------------------------------------------------------------------

CACHE_VARIABLE = "BAKEOFF_PERL_CACHE"
# Raised when what an entry holds changes shape: the entries of the old shape are then never read.
CACHE_FORMAT = 1
# An entry nobody read for this long is removed when another is written (runs made by an older
# version of the code are never asked for again).
CACHE_KEEP_SECONDS = 30 * 24 * 3600


def cache_directory() -> Path | None:
    """Where Perl's answers are kept: ``$BAKEOFF_PERL_CACHE``, else ``bakeoff/perl-score`` in the
    user's cache folder (``$XDG_CACHE_HOME``, else ``~/.cache``), outside the checkout so that a
    fresh clone on the same machine finds them; None (no cache) where the variable says ``off``."""
    setting = os.environ.get(CACHE_VARIABLE, "").strip()
    if setting.lower() in {"off", "0", "no", "false"}:
        return None
    if setting:
        return Path(setting)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "bakeoff" / "perl-score"


def cache_key(dictionary: Path, gold: Path, run: Path) -> str:
    """A digest of everything Perl's answer depends on: the script, the three files, perl's and
    diff's programs and versions, and the locale the scorer runs in."""
    digest = hashlib.sha256(f"perl-score cache {CACHE_FORMAT}\n".encode())
    for part in (SCORE_SCRIPT, dictionary, gold, run):
        digest.update(hashlib.sha256(part.read_bytes()).digest())
    digest.update(_tools_fingerprint().encode())
    digest.update(json.dumps(effective_locale()).encode())
    return digest.hexdigest()


LOCALE_CATEGORIES = ("LC_CTYPE", "LC_COLLATE", "LC_MESSAGES", "LC_NUMERIC")


def effective_locale() -> dict[str, str]:
    """The locale of each category perl and diff run in, as the C library resolves it: LC_ALL
    over the category's own variable over LANG. So ``LANG=C.UTF-8`` alone and with
    ``LC_ALL=C.UTF-8`` (as .ci/run sets both) are one locale, and one key."""
    environ = os.environ
    resolved = {
        category: environ.get("LC_ALL") or environ.get(category) or environ.get("LANG") or "C"
        for category in LOCALE_CATEGORIES
    }
    resolved["LANGUAGE"] = environ.get("LANGUAGE", "")
    return resolved


@functools.cache
def _tools_fingerprint() -> str:
    """perl's and diff's versions and the digests of their programs (a Debian patch release
    keeps the version)."""
    perl_path = Path(shutil.which("perl") or "perl").resolve()
    parts = [
        subprocess.run(
            ["perl", "-e", "print $^V"], capture_output=True, text=True, check=True
        ).stdout,
        subprocess.run(
            [str(GNU_DIFF), "--version"], capture_output=True, text=True, check=True
        ).stdout.partition("\n")[0],
    ]
    for program in (perl_path, GNU_DIFF.resolve()):
        parts.append(f"{program} {hashlib.sha256(program.read_bytes()).hexdigest()}")
    return "\n".join(parts)


def _read_entry(entry: Path) -> PerlScore | None:
    """The kept answer, or None where there is none or it cannot be read (it is then run again
    and written over)."""
    try:
        data = json.loads(entry.read_text(encoding="utf-8"))
        score = from_json(data)
    except (OSError, ValueError, KeyError, TypeError):
        return None
    with contextlib.suppress(OSError):
        os.utime(entry)  # read: kept for another CACHE_KEEP_SECONDS
    return replace(score, cached=True)


def _write_entry(entry: Path, score: PerlScore) -> None:
    """A cache that cannot be written costs only the next run's time."""
    with contextlib.suppress(OSError):
        entry.parent.mkdir(parents=True, exist_ok=True)
        write_whole(entry, json.dumps(to_json(replace(score, cached=False))))
        _forget_unread(entry.parent)


def write_whole(path: Path, text: str) -> None:
    """A reader that finds ``path`` finds all of it, whoever else writes it at the same time:
    written beside it under a name of its own, then renamed."""
    with tempfile.NamedTemporaryFile(
        "w", encoding="utf-8", dir=path.parent, suffix=".partial", delete=False
    ) as partial:
        partial.write(text)
    os.replace(partial.name, path)


def _forget_unread(directory: Path) -> None:
    cutoff = time.time() - CACHE_KEEP_SECONDS
    for old in directory.iterdir():
        with contextlib.suppress(OSError):
            if old.stat().st_mtime < cutoff:
                old.unlink()


def to_json(score: PerlScore) -> dict[str, object]:
    return asdict(score)


def from_json(data: dict[str, Any]) -> PerlScore:
    return PerlScore(
        summary=dict(data["summary"]),
        labels=tuple(data["labels"]),
        lines=tuple(LineCounts(**line) for line in data["lines"]),
        stderr=data["stderr"],
        seconds=data["seconds"],
        cached=data.get("cached", False),
    )


def summary_block(text: str) -> dict[str, str]:
    """The ``=== LABEL:\\tvalue`` lines of any text (ours or Perl's), label to value, in order."""
    block: dict[str, str] = {}
    for line in text.splitlines():
        match = _SUMMARY_LINE.match(line)
        if match:
            block[match.group(1)] = match.group(2) or ""
    return block
