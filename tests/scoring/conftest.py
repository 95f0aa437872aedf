"""Shows, after the session, what the Perl parity tests observed (every figure, ours and Perl's),
and keeps the experiments' session fixtures to tests marked ``slow``.

The parity tests record what they saw as a user property, which pytest-xdist carries from its
workers to the controller, so the table appears with and without ``-n``.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

from tests.scoring import perl, perl_reference
from tests.scoring.perl import REPORT_PROPERTY

# The session fixtures that take minutes, by the module that defines them; only tests marked
# ``slow`` may use them, so that ``-m "not slow"`` (make check) never builds them.
HERE = Path(__file__).resolve().parent
SLOW_FIXTURES = {
    (HERE / "test_perl_parity.py", "parity_cases"): "the Perl scorer on 16 runs of icwb2",
    (HERE / "test_balanced.py", "pku"): "the PKU CRF committee and eight CRF runs",
}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        for name in getattr(item, "fixturenames", ()):
            why = SLOW_FIXTURES.get((item.path, name))
            if why and item.get_closest_marker("slow") is None:
                raise pytest.UsageError(f"{item.nodeid} uses {name} ({why}): mark it slow")


def pytest_collection_finish(session: pytest.Session) -> None:
    """The Perl reference runs start now, in the background, when the parity tests will need them
    (tests/scoring/perl_reference.py); under pytest-xdist the parity fixture runs them itself."""
    parity = HERE / "test_perl_parity.py"
    wanted = any(
        item.path == parity and "parity_cases" in getattr(item, "fixturenames", ())
        for item in session.items
    )
    if (
        not wanted
        or session.config.option.collectonly
        or os.environ.get("PYTEST_XDIST_WORKER")
        or perl.missing_requirement()
    ):
        return
    directory = Path(tempfile.mkdtemp(prefix="bakeoff-perl-parity-"))
    perl_reference.STARTED = (perl_reference.start(directory), directory)


def pytest_sessionfinish(session: pytest.Session) -> None:
    if perl_reference.STARTED is not None:
        process, directory = perl_reference.STARTED
        perl_reference.stop(process)
        shutil.rmtree(directory, ignore_errors=True)
        perl_reference.STARTED = None


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    reports = [
        report
        for reports in terminalreporter.stats.values()
        for report in reports
        if getattr(report, "when", None) == "call"
    ]
    lines = [
        str(value)
        for report in sorted(reports, key=lambda report: report.nodeid)
        for name, value in report.user_properties
        if name == REPORT_PROPERTY
    ]
    if lines:
        terminalreporter.section("parity with the SIGHAN Perl scorer (ours/Perl)")
        for line in lines:
            terminalreporter.write_line(line)
