"""What the leaderboard stores: each track's ranked rows, its significance record, the publication.

Ranks, intervals and the pairs that are not significantly different are computed by
``services.rank_track`` whenever a score is stored, and kept here; pages and exports only read
them (ARCHITECTURE: "ranks recomputed ad hoc in views" is what we avoid).
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from bakeoff.models import (
    Bakeoff,
    GoldVersion,
    Score,
    Site,
    Submission,
    SubmissionKind,
    Track,
    account_or_none,
)


class TrackRanking(models.Model):
    """The per-track record of the last ranking: the gold version ranked against, the pairs of
    runs that are not significantly different (docs/measures/intervals.md), and the summary figures
    (docs/track-table.md)."""

    track = models.OneToOneField(Track, on_delete=models.CASCADE, related_name="ranking")
    gold_version = models.ForeignKey(
        GoldVersion, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    computed_at = models.DateTimeField()
    # [[submission_pk, submission_pk], ...] among ranked runs, in table order.
    insignificant_pairs = models.JSONField(default=list, blank=True)
    ranked_runs = models.PositiveIntegerField(default=0)
    sites = models.PositiveIntegerField(default=0, help_text=_("Sites with a ranked run."))
    pending_runs = models.PositiveIntegerField(
        default=0, help_text=_("Runs of the track without a score against this gold version.")
    )
    best_f = models.FloatField(null=True, blank=True)
    baseline_f = models.FloatField(null=True, blank=True)
    topline_f = models.FloatField(null=True, blank=True)
    oov_rate = models.FloatField(null=True, blank=True)
    # The word scores this ranking read (``services.scores_fingerprint``): a process whose own
    # ranking was not stored ranks again after its commit until this matches the stored scores.
    fingerprint = models.CharField(max_length=64, blank=True, default="")
    # How many rankings were stored: a ranking computed without holding the track is stored only
    # if this is still what it read before it began (``services.rank_when_free``).
    revision = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return f"ranking of {self.track_id}"


class TrackStanding(models.Model):
    """One row of a track's table: a run's current score, its rank and its intervals.

    ``rank`` is None for BASE and TOP (shown, never ranked); ``position`` is the row's place in
    the default order (ranked runs by F, then BASE, then TOP).
    """

    track = models.ForeignKey(Track, on_delete=models.CASCADE, related_name="standings")
    submission = models.OneToOneField(Submission, on_delete=models.CASCADE, related_name="standing")
    score = models.ForeignKey(Score, on_delete=models.CASCADE, related_name="+")
    site = models.ForeignKey(
        Site, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    kind = models.CharField(max_length=10, choices=SubmissionKind.choices)
    run_number = models.PositiveSmallIntegerField()
    rank = models.PositiveIntegerField(null=True, blank=True)
    position = models.PositiveIntegerField()
    cr = models.FloatField(
        # xgettext:no-python-format
        help_text=_("Half-width of the 95% interval of R (docs/measures/intervals.md).")
    )
    # xgettext:no-python-format
    cp = models.FloatField(help_text=_("Half-width of the 95% interval of P (n = N)."))
    # xgettext:no-python-format
    cf = models.FloatField(help_text=_("Half-width of the 95% interval of F (n = N), for plots."))
    f_b = models.FloatField(
        null=True, blank=True, help_text=_("Balanced F (docs/measures/balanced-f.md), if rated.")
    )

    class Meta:
        ordering = ("track", "position")
        indexes = (models.Index(fields=["track", "position"]),)

    def __str__(self) -> str:
        return f"{self.track_id} #{self.position}"


# A system's output is segmented exactly as the gold on some of its lines: on the four SIGHAN
# 2005 tests the baseline has 21-61 % of them, the topline (F 0.983-0.992, maximum matching with
# the test's own words) 75-92 %. A run at or above this share is the published gold with a few
# lines changed, which the post-bakeoff table says beside its figures.
NEAR_GOLD = 0.99


class PostBakeoffStanding(models.Model):
    """One row of a track's post-bakeoff table (docs/phases.md): an unofficial run scored with
    the current gold after publication, with the same figures and intervals as an official row,
    its receipt date, and the official runs it is not significantly different from. It has no
    rank: post-bakeoff runs are never ranked among the official runs (``TrackStanding``, which
    the ranks, exports and analyses read, never holds them)."""

    track = models.ForeignKey(
        Track, on_delete=models.CASCADE, related_name="post_bakeoff_standings"
    )
    submission = models.OneToOneField(
        Submission, on_delete=models.CASCADE, related_name="post_bakeoff_standing"
    )
    score = models.ForeignKey(Score, on_delete=models.CASCADE, related_name="+")
    site = models.ForeignKey(Site, on_delete=models.CASCADE, related_name="+")
    run_number = models.PositiveSmallIntegerField()
    position = models.PositiveIntegerField(help_text=_("Place in the post-bakeoff table, by F."))
    received_at = models.DateTimeField()
    # xgettext:no-python-format
    cr = models.FloatField(help_text=_("Half-width of the 95% interval of R."))
    # xgettext:no-python-format
    cp = models.FloatField(help_text=_("Half-width of the 95% interval of P (n = N)."))
    # xgettext:no-python-format
    cf = models.FloatField(help_text=_("Half-width of the 95% interval of F (n = N), for plots."))
    f_b = models.FloatField(null=True, blank=True)
    # The share of the run's lines segmented exactly as the gold (scored runs store the counts,
    # ``Score.result["lines_as_gold"]``): at NEAR_GOLD or above, the table marks the run.
    lines_as_gold = models.FloatField(null=True, blank=True)
    # [submission_pk, ...]: the official rows (ranked runs, BASE, TOP) this run is not
    # significantly different from.
    insignificant_with = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ("track", "position")
        indexes = (models.Index(fields=["track", "position"]),)

    def __str__(self) -> str:
        return f"{self.track_id} post-bakeoff #{self.position}"

    @property
    def near_gold(self) -> bool:
        return self.lines_as_gold is not None and self.lines_as_gold >= NEAR_GOLD


class PublicationMode(models.TextChoices):
    NAMES = "names", _("With site names")
    ANONYMISED = "anonymised", _("Anonymised (P1, P2...)")


class Publication(models.Model):
    """How a bakeoff's results are published. The instant is ``Bakeoff.results_published`` (the
    gold standard is released then too); this row says by whom, and with names or codes."""

    bakeoff = models.OneToOneField(Bakeoff, on_delete=models.CASCADE, related_name="publication")
    mode = models.CharField(
        max_length=12, choices=PublicationMode.choices, default=PublicationMode.NAMES
    )
    # {site_pk: "P1", ...}: fixed when the organiser publishes, in the order of the site codes.
    aliases = models.JSONField(default=dict, blank=True)
    decided_at = models.DateTimeField()
    decided_by = account_or_none()

    def __str__(self) -> str:
        return f"publication of {self.bakeoff_id} ({self.mode})"

    @property
    def anonymised(self) -> bool:
        return self.mode == PublicationMode.ANONYMISED


class ResultsVersion(models.Model):
    """One published state of a bakeoff's results, frozen: version 1 is the publication, each
    later one an erratum. Readers see the newest version whose ``published_at`` has come; every
    version stays readable at ``results/v<number>/``. Nothing here changes once written: a new
    gold version, an accepted correction or a re-score changes the live standings only, until the
    organiser publishes an erratum (``services.do_publish_erratum``)."""

    bakeoff = models.ForeignKey(Bakeoff, on_delete=models.CASCADE, related_name="results_versions")
    number = models.PositiveIntegerField()
    published_at = models.DateTimeField(help_text=_("When this version is, or becomes, public."))
    created_at = models.DateTimeField()
    created_by = account_or_none()
    note = models.TextField(blank=True, help_text=_("The organiser's note shown with the version."))
    mode = models.CharField(
        max_length=12, choices=PublicationMode.choices, default=PublicationMode.NAMES
    )
    # {site_pk: "P1", ...} as published (see Publication.aliases).
    aliases = models.JSONField(default=dict, blank=True)
    # For an erratum: what moved since the version before (versions.changes_between).
    changes = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ("bakeoff", "number")
        constraints = (
            models.UniqueConstraint(fields=["bakeoff", "number"], name="one_results_version"),
        )

    def __str__(self) -> str:
        return f"results v{self.number} of {self.bakeoff_id}"

    @property
    def is_erratum(self) -> bool:
        return self.number > 1

    @property
    def anonymised(self) -> bool:
        return self.mode == PublicationMode.ANONYMISED


class FrozenTrack(models.Model):
    """A track's results as one version froze them: rows, ranks, intervals, significance pairs,
    F_b, the gold version and scorer, and what the apps above froze beside them
    (``data["sections"]``). The format is ``versions.FORMAT``."""

    version = models.ForeignKey(ResultsVersion, on_delete=models.CASCADE, related_name="tracks")
    track = models.ForeignKey(Track, on_delete=models.CASCADE, related_name="+")
    data = models.JSONField()

    class Meta:
        constraints = (
            models.UniqueConstraint(fields=["version", "track"], name="one_frozen_track"),
        )

    def __str__(self) -> str:
        return f"{self.track_id} in {self.version}"
