"""Routing: each kind of work has its queue, so a long task never holds the short ones' workers."""

from __future__ import annotations

import pytest
from celery.app import routes
from django.conf import settings

from config.celery import app


def queue_of(task_name: str) -> str:
    """Where the settings send a task (the live router may be the production tests')."""
    queues = app.amqp.Queues({})
    router = routes.Router(routes.prepare([settings.CELERY_TASK_ROUTES]), queues, True, app=app)
    return str(router.route({}, task_name)["queue"].name)


@pytest.mark.parametrize(
    ("task_name", "queue"),
    [
        ("bakeoff.tasks.score_submission", "scoring"),
        ("bakeoff.tasks.sweep_stuck_submissions", "scoring"),
        ("analysis.tasks.analyse_track", "analysis"),
        ("psychometric.tasks.balance_score", "analysis"),
        ("psychometric.tasks.apply_committee", "analysis"),
        ("psychometric.tasks.build_committee", "committee"),
        ("psychometric.tasks.train_member", "committee"),
        ("psychometric.tasks.assemble_committee", "committee"),
        ("notifications.tasks.send_mail", "mail"),
    ],
)
def test_each_task_goes_to_its_queue(task_name: str, queue: str) -> None:
    assert queue_of(task_name) == settings.QUEUES[queue]


def test_every_task_of_the_platform_has_a_route() -> None:
    app.loader.import_default_modules()
    ours = [
        name for name in app.tasks if name.split(".")[0] in {"bakeoff", "analysis", "psychometric"}
    ]
    assert ours
    default = settings.CELERY_TASK_DEFAULT_QUEUE
    for name in ours:
        routed = queue_of(name)
        assert routed in settings.QUEUES.values(), name
        assert routed != default or name.startswith("bakeoff."), name


def test_a_task_is_never_redelivered_while_it_may_still_run() -> None:
    """The broker gives an unacknowledged task to another worker after the visibility timeout:
    it must outlast the longest task, which the time limit bounds."""
    timeout = settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"]
    assert timeout > settings.CELERY_TASK_TIME_LIMIT
    assert timeout == 7200 and settings.CELERY_TASK_TIME_LIMIT == 3600


def test_docker_compose_runs_a_worker_per_queue() -> None:
    yaml = pytest.importorskip("yaml")
    from pathlib import Path

    compose = yaml.safe_load(
        (Path(__file__).resolve().parents[2] / "docker-compose.yml").read_text()
    )
    consumed = []
    for service in compose["services"].values():
        command = service.get("command") or []
        if command[:4] == ["celery", "-A", "config", "worker"]:
            consumed.append(command[command.index("-Q") + 1])
    assert sorted(consumed) == sorted(settings.QUEUES)
