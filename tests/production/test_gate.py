"""The production pass cannot go green without its broker where tools are required, and only the
tests that read the SIGHAN data need it."""

from __future__ import annotations

import pytest
from pytest_django import Settings

from .conftest import require_broker
from .stack import free_port

# Kept in the PostgreSQL pass, which keeps the tests that ask for the database: its gate.
pytestmark = [pytest.mark.production, pytest.mark.django_db]


def test_a_broker_that_does_not_answer_fails_where_tools_are_required(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.CELERY_BROKER_URL = f"redis://127.0.0.1:{free_port()}/0"
    monkeypatch.setenv("BAKEOFF_REQUIRE_TOOLS", "1")
    with pytest.raises(pytest.fail.Exception, match="does not answer"):
        require_broker()
    monkeypatch.setenv("BAKEOFF_REQUIRE_TOOLS", "0")
    with pytest.raises(pytest.skip.Exception, match="does not answer"):
        require_broker()


def test_the_broker_of_this_pass_answers() -> None:
    require_broker()


def test_only_the_files_that_read_the_data_ask_for_it() -> None:
    """The rest of the pass runs without the SIGHAN data: a new file that asks for it is named
    here, on purpose."""
    from pathlib import Path

    here = Path(__file__).parent
    others = [p for p in here.glob("test_*.py") if p.name != Path(__file__).name]
    asking = sorted(p.name for p in others if '"icwb2_data"' in p.read_text())
    assert asking == ["test_concurrent_ranking.py", "test_queues.py", "test_worker.py"]
