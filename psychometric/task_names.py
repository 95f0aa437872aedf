"""The names of the tasks that psychometric's services queue (``task_base.enqueue_on_commit``):
``psychometric.tasks`` imports the services it wraps, so the services name its tasks instead of
importing them. tests/bakeoff/test_task_base.py checks that every name here is a registered task.
"""

BUILD_COMMITTEE = "psychometric.tasks.build_committee"
TRAIN_MEMBER = "psychometric.tasks.train_member"
ASSEMBLE_COMMITTEE = "psychometric.tasks.assemble_committee"
APPLY_COMMITTEE = "psychometric.tasks.apply_committee"
