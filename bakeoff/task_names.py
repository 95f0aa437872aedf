"""The names of the tasks that `bakeoff`'s services queue (``task_base.enqueue_on_commit``).

A service names the task it queues instead of importing it: ``bakeoff.tasks`` imports the
services it wraps, so the two import in one direction. The names are also what the outbox stores
and what the settings route by, so a task keeps its name when its code moves.
tests/bakeoff/test_task_base.py checks that every name here is a registered task.
"""

SCORE_SUBMISSION = "bakeoff.tasks.score_submission"
SCORE_DOMAINS = "bakeoff.tasks.score_domains"
