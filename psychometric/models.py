"""What the psychometric app stores: the committees of a corpus, one version per build.

A committee rates the gold words of one gold version (docs/measures/balanced-f.md#committees). Each
build is a new version, numbered per gold version; the newest complete one is current and every
run's balanced score (a ``bakeoff.Score`` row with metric ``balanced``) names the committee that
made it.
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django_stubs_ext import StrOrPromise

from bakeoff.models import Corpus, GoldVersion, account_or_none

from . import failures

BALANCED = "balanced"  # the metric of the Score rows holding P_b, R_b, F_b


class CommitteeKind(models.TextChoices):
    CRF = "crf", _("CRF taggers trained on the training text")
    RUNS = "runs", _("The corpus's scored runs")


class CommitteeStatus(models.TextChoices):
    QUEUED = "queued", _("Queued")
    RUNNING = "running", _("Running")
    COMPLETE = "complete", _("Complete")
    FAILED = "failed", _("Failed")


ACTIVE = (CommitteeStatus.QUEUED, CommitteeStatus.RUNNING)


class Committee(models.Model):
    """One committee version: its request, its progress, and once complete its difficulties.

    ``data`` is the scoring library's ``Committee.to_dict()`` (difficulty, misses, provenance);
    ``hardest`` lists the hardest gold word types ({word, count, difficulty}), hardest first.
    """

    corpus = models.ForeignKey(Corpus, on_delete=models.CASCADE, related_name="committees")
    gold_version = models.ForeignKey(
        GoldVersion, on_delete=models.CASCADE, related_name="committees"
    )
    number = models.PositiveIntegerField()
    kind = models.CharField(max_length=8, choices=CommitteeKind.choices)
    k = models.PositiveSmallIntegerField(help_text=_("Members asked for (runs: the runs found)."))
    seed = models.PositiveIntegerField(default=1)
    max_iterations = models.PositiveSmallIntegerField(null=True, blank=True)
    status = models.CharField(
        max_length=10, choices=CommitteeStatus.choices, default=CommitteeStatus.QUEUED
    )
    members_done = models.PositiveSmallIntegerField(default=0)
    attempts = models.PositiveSmallIntegerField(default=0)
    # The task building or assembling it (its id) and until when, renewed while it works
    # (bakeoff/lease.py); none while its members train, each under a lease of its own.
    claim = models.CharField(max_length=64, blank=True)
    lease_until = models.DateTimeField(null=True, blank=True)
    reason = models.TextField(blank=True, help_text=_("Why the build failed, for people."))
    # The same reason as a code and its values, shown in each reader's language (failures.py);
    # empty on rows from before, which show the English text.
    reason_code = models.CharField(max_length=40, blank=True)
    reason_params = models.JSONField(default=dict, blank=True)
    requested_at = models.DateTimeField()
    requested_by = account_or_none()
    finished_at = models.DateTimeField(null=True, blank=True)
    signature = models.CharField(max_length=300, blank=True)
    data = models.JSONField(null=True, blank=True)
    hardest = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ("corpus", "-gold_version__number", "-number")
        constraints = (
            models.UniqueConstraint(
                fields=["gold_version", "number"], name="one_committee_per_number"
            ),
            models.UniqueConstraint(
                fields=["corpus"],
                condition=Q(status__in=["queued", "running"]),
                name="one_active_committee_per_corpus",
            ),
        )

    def __str__(self) -> str:
        return (
            f"{self.corpus.abbreviation} gold v{self.gold_version.number} committee {self.number}"
        )

    @property
    def name_shown(self) -> str:
        """The committee as a mail names it, in the reader's language (``__str__`` is the admin's
        and the log's): "PK gold v1, committee 2", "PK 标准答案第 1 版，第 2 号委员会"."""
        return gettext("%(corpus)s gold v%(gold)s, committee %(number)s") % {
            "corpus": self.corpus.abbreviation,
            "gold": self.gold_version.number,
            "number": self.number,
        }

    @property
    def active(self) -> bool:
        return self.status in ACTIVE

    @property
    def reason_shown(self) -> StrOrPromise:
        """Why the build failed, in the reader's language."""
        return failures.shown(self.reason_code, self.reason_params, self.reason)

    @property
    def percent_done(self) -> int:
        return round(100 * self.members_done / self.k) if self.k else 0


class MemberStatus(models.TextChoices):
    QUEUED = "queued", _("Queued")
    RUNNING = "running", _("Training")
    DONE = "done", _("Done")


class CommitteeMember(models.Model):
    """One CRF member of a committee build, trained by a task of its own on any worker.

    Once done it holds its vote: the library's ``Member.to_dict()`` and, one bit per gold word in
    corpus order, whether it segmented that word exactly (``numpy.packbits``). The committee is
    assembled from the votes when every member is done; a member whose worker died is trained
    again alone.
    """

    committee = models.ForeignKey(Committee, on_delete=models.CASCADE, related_name="members")
    number = models.PositiveSmallIntegerField(help_text=_("1 to k, as the library plans them."))
    status = models.CharField(
        max_length=10, choices=MemberStatus.choices, default=MemberStatus.QUEUED
    )
    attempts = models.PositiveSmallIntegerField(default=0)
    # The task training it (its id) and until when, renewed while it trains (bakeoff/lease.py).
    claim = models.CharField(max_length=64, blank=True)
    lease_until = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    member = models.JSONField(null=True, blank=True)
    correct = models.BinaryField(null=True, blank=True)

    class Meta:
        ordering = ("committee", "number")
        constraints = (
            models.UniqueConstraint(fields=["committee", "number"], name="one_member_per_number"),
        )

    def __str__(self) -> str:
        return f"{self.committee} member {self.number}"
