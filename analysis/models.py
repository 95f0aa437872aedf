"""What the analysis stores: per-run attribute buckets, per-track profile and bootstrap, Ψ.

``services.do_analyse_track`` computes them after a track's scores change (a Celery task queued by
``receivers.analyse_track`` when bakeoff announces a stored score); pages only read these rows.
Every result is stored with the signature that produced it (scheme checksum, gold, training
corpus, resamples and seed), so a number on a page can be reproduced.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _
from django_stubs_ext import StrOrPromise

from bakeoff.models import Corpus, GoldVersion, Score, Submission, Track

from . import failures

# What a results version keeps of a track's analysis (receivers.freeze_analysis).
FROZEN_FIELDS = (
    "scheme",
    "scheme_checksum",
    "signature",
    "unavailable",
    "profile",
    "adjacent",
    "pairs",
    "domain_labels",
    "error",
    "error_code",
    "error_params",
)
# What a results version keeps of each run's analysis (receivers.freeze_analysis).
FROZEN_RUN_FIELDS = ("buckets", "self_diagnosis", "scheme_checksum", "domains")


class TrackAnalysis(models.Model):
    """A track's bucket scheme, attribute profile (α^μ, α^ρ, Friedman) and paired bootstraps.

    ``pairs`` maps ``"a-b"`` (submission pks, a < b) to the paired bootstrap of the two runs;
    ``adjacent`` lists the pairs of adjacent ranks, best first (docs/measures/bootstrap.md).
    """

    track = models.OneToOneField(Track, on_delete=models.CASCADE, related_name="analysis")
    gold_version = models.ForeignKey(
        GoldVersion, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    started_at = models.DateTimeField(
        help_text=_("Scores stored before this instant are included.")
    )
    computed_at = models.DateTimeField()
    scheme = models.JSONField(default=dict, blank=True)
    scheme_checksum = models.CharField(max_length=80, blank=True)
    signature = models.JSONField(default=dict, blank=True)
    unavailable = models.JSONField(default=dict, blank=True)
    profile = models.JSONField(default=list, blank=True)
    adjacent = models.JSONField(default=list, blank=True)
    pairs = models.JSONField(default=dict, blank=True)
    scores = models.JSONField(
        default=list,
        blank=True,
        help_text=_("The pks of the scores analysed, in increasing order."),
    )
    domain_labels = models.CharField(
        max_length=80, blank=True, help_text=_("The checksum of the domain labels cut by, if any.")
    )
    error = models.TextField(blank=True, help_text=_("Why the last analysis failed, if it did."))
    # The reason's code and values (analysis/failures.py), shown in the reader's language.
    error_code = models.CharField(max_length=40, blank=True)
    error_params = models.JSONField(default=dict, blank=True)

    class Meta:
        verbose_name_plural = _("track analyses")

    def __str__(self) -> str:
        return f"analysis of track {self.track_id}"

    @property
    def error_shown(self) -> StrOrPromise:
        """Why the last analysis failed, in the reader's language."""
        return failures.shown(self.error_code, self.error_params, self.error)


class RunAnalysis(models.Model):
    """The attribute buckets and self-diagnosis of one score (a run against one gold version)."""

    score = models.OneToOneField(Score, on_delete=models.CASCADE, related_name="analysis")
    submission = models.ForeignKey(Submission, on_delete=models.CASCADE, related_name="+")
    buckets = models.JSONField(help_text=_("The scoring library's RunBuckets, signature included."))
    self_diagnosis = models.JSONField(default=dict, blank=True)
    scheme_checksum = models.CharField(max_length=80)
    # The run's F on each resample of the track's sentences (float64, in resample order): a new
    # run's paired bootstraps against this one need nothing else (docs/measures/bootstrap.md).
    resampled_f = models.BinaryField(null=True, blank=True)
    # Where the corpus labels its test lines with domains: the buckets and self-diagnosis on each
    # domain's lines alone, {"labels": checksum, "buckets": {domain: ...}, "self_diagnosis": ...}.
    domains = models.JSONField(default=dict, blank=True)
    computed_at = models.DateTimeField()

    class Meta:
        verbose_name_plural = _("run analyses")

    def __str__(self) -> str:
        return f"analysis of score {self.score_id}"


class CriterionDiscrepancy(models.Model):
    """Ψ between one corpus's training text and another corpus's test gold
    (docs/measures/criterion.md)."""

    training_corpus = models.ForeignKey(Corpus, on_delete=models.CASCADE, related_name="+")
    test_corpus = models.ForeignKey(Corpus, on_delete=models.CASCADE, related_name="+")
    test_gold = models.ForeignKey(GoldVersion, on_delete=models.CASCADE, related_name="+")
    training_checksum = models.CharField(max_length=80)
    value = models.FloatField()
    computed_at = models.DateTimeField()

    class Meta:
        verbose_name_plural = _("criterion discrepancies")
        constraints = (
            models.UniqueConstraint(
                fields=["training_corpus", "test_corpus"], name="one_psi_per_corpus_pair"
            ),
        )

    def __str__(self) -> str:
        return f"Ψ({self.training_corpus_id} → {self.test_corpus_id})"
