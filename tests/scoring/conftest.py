"""Shows, after the session, what the Perl parity tests observed (every figure, ours and Perl's).

The tests record it as a user property, which pytest-xdist carries from its workers to the
controller, so the table appears with and without ``-n``.
"""

from __future__ import annotations

import pytest

from tests.scoring.perl import REPORT_PROPERTY


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
