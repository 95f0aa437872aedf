"""The contest: bakeoffs, corpora and gold versions, tracks, sites, registrations, runs, scores.

Rules live in ``services``; the models hold data and the constraints the database enforces.
"""

from __future__ import annotations

import secrets
import unicodedata
import zoneinfo
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import RegexValidator
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower
from django.utils import translation
from django.utils.translation import gettext_lazy as _
from django_stubs_ext import StrOrPromise

from . import failures
from .errors import interpolate
from .phase_table import PhaseFacts
from .phase_table import SubmissionPhase as SubmissionPhase
from .phase_table import facts as phase_facts
from .zones import known_zones

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def validate_single_line(value: str) -> None:
    """Names (of bakeoffs, corpora, sites, institutions) are one line of printable text: no
    newline, carriage return, tab or other control character, which exports would carry onto a
    line of their own; nor half of a surrogate pair, which no database stores (JSON can send
    one)."""
    if any(unicodedata.category(char) in {"Cc", "Cs", "Zl", "Zp"} for char in value):
        raise ValidationError(_("A name is one line: no line break, tab or control character."))


def account_or_none(related_name: str = "+") -> models.ForeignKey[User | None, User | None]:
    """The account that did (or receives) something. The row outlives the account: deleting the
    account leaves the field empty, as it is when the platform itself did it."""
    return models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name=related_name,
    )


def validate_time_zone(value: str) -> None:
    if value not in known_zones():
        raise ValidationError(
            interpolate(
                _("%(value)s is not a time zone name (for example Asia/Shanghai)."),
                value=repr(value),
            )
        )


class Bakeoff(models.Model):
    name = models.CharField(max_length=200)
    slug = models.SlugField(max_length=60, unique=True)
    description = models.TextField(blank=True)
    time_zone = models.CharField(
        max_length=64,
        default="UTC",
        validators=[validate_time_zone],
        help_text=_("The zone the timetable is shown in, besides UTC (e.g. Asia/Shanghai)."),
    )
    registration_opens = models.DateTimeField()
    registration_closes = models.DateTimeField()
    training_released = models.DateTimeField()
    test_released = models.DateTimeField()
    submission_deadline = models.DateTimeField()
    results_published = models.DateTimeField(
        null=True, blank=True, help_text=_("Set when the organiser publishes the results.")
    )
    grace_minutes = models.PositiveSmallIntegerField(
        default=0,
        help_text=_(
            "Runs received up to this many minutes after the deadline are still accepted "
            "(for slow connections); 0 for none. Shown on the timetable."
        ),
    )
    auto_approve = models.BooleanField(
        default=False, help_text=_("Approve registrations without waiting for an organiser.")
    )
    hide_scores_until_publication = models.BooleanField(
        default=False,
        help_text=_("Participants see their own scores only once results are published."),
    )
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="organised_bakeoffs", blank=True
    )
    development_runs_per_day = models.PositiveSmallIntegerField(
        default=5,
        help_text=_("Development runs a site may upload per track and day (docs/phases.md)."),
    )
    development_table_public = models.BooleanField(
        default=False,
        help_text=_(
            "Everyone sees the development tables (otherwise each site sees its own runs)."
        ),
    )
    post_bakeoff_runs_per_day = models.PositiveSmallIntegerField(
        default=3,
        help_text=_(
            "Post-bakeoff runs a site may upload per track and day, once a track is open "
            "for them (docs/phases.md)."
        ),
    )
    opened_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text=_(
            "When the organiser opened the bakeoff; until then it is a draft that only "
            "its organisers see."
        ),
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("-submission_deadline",)
        constraints = (
            models.CheckConstraint(
                condition=Q(registration_opens__lte=models.F("registration_closes")),
                name="registration_opens_before_it_closes",
            ),
            models.CheckConstraint(
                condition=Q(test_released__lte=models.F("submission_deadline")),
                name="test_released_before_deadline",
            ),
        )

    def __str__(self) -> str:
        return self.name

    @property
    def zone(self) -> zoneinfo.ZoneInfo:
        return zoneinfo.ZoneInfo(self.time_zone)

    def timetable(self) -> list[tuple[StrOrPromise, datetime | None]]:
        label = interpolate(
            _("Grace period (%(minutes)s min): runs accepted until"), minutes=self.grace_minutes
        )
        grace = [(label, self.accepts_runs_until)] if self.grace_minutes else []
        return [
            (_("Registration opens"), self.registration_opens),
            (_("Registration closes"), self.registration_closes),
            (_("Training data released"), self.training_released),
            (_("Test data released"), self.test_released),
            (_("Submission deadline"), self.submission_deadline),
            *grace,
            (_("Results published"), self.results_published),
        ]

    @property
    def accepts_runs_until(self) -> datetime:
        """The last instant a run may arrive: the deadline and its grace period."""
        return self.submission_deadline + timedelta(minutes=self.grace_minutes)

    def is_published(self, now: datetime) -> bool:
        return self.results_published is not None and self.results_published <= now

    @property
    def is_draft(self) -> bool:
        return self.opened_at is None


class Encoding(models.TextChoices):
    UTF8 = "utf-8", "UTF-8"
    GB18030 = "gb18030", "GB18030 (GB2312, GBK)"
    BIG5HKSCS = "big5hkscs", "Big5-HKSCS (Big5)"


abbreviation_validator = RegexValidator(
    r"^[A-Za-z][A-Za-z0-9]{0,15}$", "Letters and digits, starting with a letter (e.g. PK, MSR)."
)


class Corpus(models.Model):
    """A corpus of one bakeoff. Its files are stored decoded, as UTF-8, each with a checksum."""

    bakeoff = models.ForeignKey(Bakeoff, on_delete=models.CASCADE, related_name="corpora")
    name = models.CharField(max_length=200)
    abbreviation = models.CharField(max_length=16, validators=[abbreviation_validator])
    institution = models.CharField(max_length=200, help_text=_("The institution that provides it."))
    standard = models.CharField(max_length=200, blank=True, help_text=_("Segmentation standard."))
    encoding = models.CharField(max_length=16, choices=Encoding.choices, default=Encoding.UTF8)
    notes = models.TextField(blank=True)
    training_text = models.FileField(upload_to="corpora", blank=True)
    training_text_checksum = models.CharField(max_length=80, blank=True)
    training_words = models.FileField(upload_to="corpora", blank=True)
    training_words_checksum = models.CharField(max_length=80, blank=True)
    test_text = models.FileField(upload_to="corpora")
    test_text_checksum = models.CharField(max_length=80)
    dictionary_checksum = models.CharField(max_length=80, blank=True)
    # Optional: a domain label for each test line (multi-domain corpora such as MuCPAD); every
    # score then has its figures per domain (docs/measures/scoring.md#domains).
    domain_labels = models.FileField(upload_to="corpora", blank=True)
    domain_labels_checksum = models.CharField(max_length=80, blank=True)
    domains = models.JSONField(
        default=list,
        blank=True,
        help_text=_(
            'The domains of the labels, in order of first appearance: [{"domain", "lines"}].'
        ),
    )
    licence = models.TextField(
        blank=True,
        help_text=_(
            "The data agreement: a member of each site accepts it before the first "
            "download of the corpus's files."
        ),
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name_plural = _("corpora")
        ordering = ("abbreviation",)
        constraints = (
            models.UniqueConstraint(
                "bakeoff", Lower("abbreviation"), name="one_abbreviation_per_bakeoff"
            ),
        )

    def __str__(self) -> str:
        return f"{self.abbreviation} ({self.name})"

    def current_gold(self) -> GoldVersion | None:
        return self.gold_versions.order_by("-number").first()

    def released_gold(self) -> GoldVersion | None:
        """The gold the published results were scored against (the newest results version's),
        what participants download: a newer gold is released only with an erratum."""
        released = self.gold_versions.filter(released_with_results=True).order_by("-number")
        return released.first() or self.current_gold()

    @property
    def domain_names(self) -> list[str]:
        return [str(d["domain"]) for d in self.domains]


class DevelopmentSet(models.Model):
    """A corpus's development text and gold, separate from the test set and released with the
    training data; development runs are scored against it (docs/phases.md)."""

    corpus = models.OneToOneField(Corpus, on_delete=models.CASCADE, related_name="development")
    text = models.FileField(upload_to="development")
    text_checksum = models.CharField(max_length=80)
    gold = models.FileField(upload_to="development")
    gold_checksum = models.CharField(max_length=80)
    added_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.corpus.abbreviation} development set"


class GoldVersion(models.Model):
    """One version of a corpus's gold standard; a new upload adds a version, never replaces one."""

    corpus = models.ForeignKey(Corpus, on_delete=models.CASCADE, related_name="gold_versions")
    number = models.PositiveIntegerField()
    file = models.FileField(upload_to="gold")
    # Two checksums, each named for what it is (docs/signatures.md#gold-checksum):
    checksum = models.CharField(
        max_length=80, help_text=_("SHA-256 of the stored file (UTF-8), as sha256sum computes it.")
    )
    canonical_checksum = models.CharField(
        max_length=80,
        blank=True,
        help_text=_(
            "The canonical gold checksum the scores' signatures name, and the one "
            "python -m scoring score prints."
        ),
    )
    note = models.TextField(blank=True)
    released_with_results = models.BooleanField(
        default=False,
        help_text=_(
            "A published results version (publication or erratum) was scored against it: "
            "registered sites download it once the results are public."
        ),
    )
    uploaded_at = models.DateTimeField()
    uploaded_by = account_or_none()
    # docs/validation.md#when-gold-and-test-text-disagree: lines where the gold (whitespace removed)
    # differs from the test text.
    differences = models.JSONField(default=list, blank=True)
    accepted_at = models.DateTimeField(null=True, blank=True)
    accepted_by = account_or_none()

    class Meta:
        ordering = ("corpus", "-number")
        constraints = (
            models.UniqueConstraint(fields=["corpus", "number"], name="one_gold_per_number"),
        )

    def __str__(self) -> str:
        return f"{self.corpus.abbreviation} gold v{self.number}"

    @property
    def needs_review(self) -> bool:
        return bool(self.differences) and self.accepted_at is None

    @property
    def aligned_lines(self) -> list[int]:
        """The lines the organiser accepted as gold/test disagreements (docs/validation.md)."""
        if self.accepted_at is None:
            return []
        return sorted({int(d["line"]) for d in self.differences})


class Condition(models.TextChoices):
    CLOSED = "closed", _("Closed")
    OPEN = "open", _("Open")


class BucketScheme(models.TextChoices):
    """How a track's runs are cut into attribute buckets (docs/measures/buckets.md)."""

    DEFAULT = "default", _("The project's own definitions")
    INTERPRETEVAL = "interpreteval", _("InterpretEval's conventions (as in the RethinkCWS tables)")


class Track(models.Model):
    """A corpus in one condition (``PKc``, ``PKo``); its slug is ``pk-closed``, ``pk-open``."""

    corpus = models.ForeignKey(Corpus, on_delete=models.CASCADE, related_name="tracks")
    condition = models.CharField(max_length=8, choices=Condition.choices)
    slug = models.SlugField(max_length=40)
    max_runs = models.PositiveSmallIntegerField(default=2, help_text=_("Runs allowed per site."))
    bucket_scheme = models.CharField(
        max_length=16,
        choices=BucketScheme.choices,
        default=BucketScheme.DEFAULT,
        help_text=_("How the analysis cuts the runs into attribute buckets."),
    )
    post_bakeoff_open = models.BooleanField(
        default=False,
        help_text=_(
            "After publication: any signed-in user may register a site and upload "
            "post-bakeoff runs, shown unofficially under the official table."
        ),
    )

    class Meta:
        ordering = ("corpus__abbreviation", "condition")
        constraints = (
            models.UniqueConstraint(fields=["corpus", "condition"], name="one_track_per_condition"),
            models.CheckConstraint(condition=Q(max_runs__gte=1), name="track_allows_a_run"),
        )

    def __str__(self) -> str:
        return self.name

    @property
    def name(self) -> str:
        return f"{self.corpus.abbreviation}{self.condition[0]}"


class Site(models.Model):
    """A participating team of one bakeoff."""

    bakeoff = models.ForeignKey(Bakeoff, on_delete=models.CASCADE, related_name="sites")
    name = models.CharField(max_length=200)
    institution = models.CharField(max_length=200)
    country = models.CharField(max_length=100)
    contact_email = models.EmailField(
        blank=True, help_text=_("Where the organisers write to the site (invitations go there).")
    )
    members = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="sites")
    commercial_product = models.BooleanField(
        help_text=_("Is the system part of a commercial product?")
    )
    number = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text=_("Assigned when a registration is first approved (S01...)."),
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("bakeoff", "number", "name")
        constraints = (
            models.UniqueConstraint(fields=["bakeoff", "number"], name="one_site_per_code"),
            models.UniqueConstraint("bakeoff", Lower("name"), name="one_site_per_name"),
        )

    def __str__(self) -> str:
        return f"{self.code} {self.name}" if self.number else self.name

    @property
    def code(self) -> str:
        return f"S{self.number:02d}" if self.number else ""


class RegistrationStatus(models.TextChoices):
    PENDING = "pending", _("Waiting for approval")
    APPROVED = "approved", _("Approved")
    REFUSED = "refused", _("Refused")


class Registration(models.Model):
    """A site's registration for one track."""

    site = models.ForeignKey(Site, on_delete=models.CASCADE, related_name="registrations")
    track = models.ForeignKey(Track, on_delete=models.CASCADE, related_name="registrations")
    resources_statement = models.TextField(
        blank=True, help_text=_("Required for an open track: the extra resources the system uses.")
    )
    status = models.CharField(
        max_length=10, choices=RegistrationStatus.choices, default=RegistrationStatus.PENDING
    )
    created_at = models.DateTimeField()
    decided_at = models.DateTimeField(null=True, blank=True)
    decided_by = account_or_none()
    refusal_reason = models.TextField(blank=True)
    post_bakeoff = models.BooleanField(
        default=False,
        help_text=_("Made after publication, for post-bakeoff runs only (approved automatically)."),
    )

    class Meta:
        ordering = ("site", "track")
        constraints = (
            models.UniqueConstraint(fields=["site", "track"], name="one_registration_per_track"),
        )

    def __str__(self) -> str:
        return f"{self.site} → {self.track}"


class SubmissionKind(models.TextChoices):
    RUN = "run", _("Participant run")
    BASELINE = "baseline", _("Baseline (BASE)")
    TOPLINE = "topline", _("Topline (TOP)")


# Run ids lie in [FIRST_RUN_ID, LAST_RUN_ID): at least 13 digits, so that an id never looks like a
# count, and below 2**53, so that a script reading the API's JSON as doubles keeps every digit.
FIRST_RUN_ID = 10**12
LAST_RUN_ID = 2**53


def new_run_id() -> int:
    """A random id for a new run: ids in the addresses and the API tell nobody how many runs
    other sites stored in between, as sequential ids would (the gap between two of one's own)."""
    return FIRST_RUN_ID + secrets.randbelow(LAST_RUN_ID - FIRST_RUN_ID)


class SubmissionStatus(models.TextChoices):
    QUEUED = "queued", _("Queued")
    SCORING = "scoring", _("Scoring")
    SCORED = "scored", _("Scored")
    FAILED = "failed", _("Failed")


class Submission(models.Model):
    """One accepted run for one track: a site's run, or the track's BASE or TOP run.

    The run limit is the database's: ``run_number`` is unique per site, track and phase, and a
    test run's must lie between 1 and ``max_runs``, a copy of the track's limit when the run
    arrived. Development and post-bakeoff runs are limited per day instead (``max_runs`` then
    holds the day's limit when the run arrived; ``run_count`` names it with the phase), and BASE
    and TOP are test runs. A withdrawn run keeps its
    row (and its number) in the history, frees its slot (the uniqueness holds among runs not
    withdrawn) and is never ranked.
    """

    id = models.BigIntegerField(primary_key=True, default=new_run_id, editable=False)
    track = models.ForeignKey(Track, on_delete=models.CASCADE, related_name="submissions")
    site = models.ForeignKey(
        Site, null=True, blank=True, on_delete=models.CASCADE, related_name="submissions"
    )
    kind = models.CharField(max_length=10, choices=SubmissionKind.choices, default="run")
    phase = models.CharField(
        max_length=12, choices=SubmissionPhase.choices, default=SubmissionPhase.TEST
    )
    run_number = models.PositiveSmallIntegerField()
    max_runs = models.PositiveSmallIntegerField()
    file = models.FileField(upload_to="runs")
    checksum = models.CharField(max_length=80)
    size_bytes = models.PositiveIntegerField()
    original_name = models.CharField(max_length=255, blank=True)
    received_at = models.DateTimeField()
    submitted_by = account_or_none(related_name="submissions")
    status = models.CharField(
        max_length=10, choices=SubmissionStatus.choices, default=SubmissionStatus.QUEUED
    )
    reason = models.TextField(blank=True, help_text=_("Why scoring failed, for people."))
    # The same reason as a code and its values, shown in each reader's language (failures.py);
    # empty on rows from before, which show the English text.
    reason_code = models.CharField(max_length=40, blank=True)
    reason_params = models.JSONField(default=dict, blank=True)
    status_changed_at = models.DateTimeField()
    attempts = models.PositiveSmallIntegerField(default=0)
    # Who is scoring it (the task's id) and until when, renewed while the task runs: a run whose
    # lease ran out was held by a worker that died, and is queued again (services.recovery).
    claim = models.CharField(max_length=64, blank=True)
    lease_until = models.DateTimeField(null=True, blank=True)
    late = models.BooleanField(
        default=False,
        help_text=_(
            "Received after a deadline the organiser moved earlier, and marked late by "
            "them: kept, never ranked (services.timetable)."
        ),
    )
    description = models.TextField(
        blank=True,
        max_length=2000,
        help_text=_(
            "The system: its method and the resources it uses (on an open track, the "
            "statement of the extra resources)."
        ),
    )
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    withdrawn_by = account_or_none()

    class Meta:
        ordering = ("track", "kind", "site__number", "run_number")
        indexes = (models.Index(fields=["status", "status_changed_at"]),)
        constraints = (
            models.UniqueConstraint(
                fields=["site", "track", "phase", "run_number"],
                condition=Q(withdrawn_at__isnull=True),
                name="one_live_run_per_number",
            ),
            models.CheckConstraint(
                condition=Q(run_number__gte=1)
                & (Q(run_number__lte=models.F("max_runs")) | ~Q(phase="test")),
                name="run_number_within_limit",
            ),
            models.CheckConstraint(
                condition=Q(kind="run") | Q(phase="test"), name="references_are_test_runs"
            ),
            models.UniqueConstraint(
                fields=["track", "kind"],
                condition=~Q(kind="run"),
                name="one_reference_run_per_kind",
            ),
            models.CheckConstraint(
                condition=(Q(kind="run") & Q(site__isnull=False))
                | (~Q(kind="run") & Q(site__isnull=True)),
                name="runs_have_sites_references_do_not",
            ),
        )

    def __str__(self) -> str:
        return f"{self.track} {self.label}"

    @property
    def label(self) -> str:
        """In English: the audit trail and the API keep it."""
        with translation.override("en"):
            return self.shown_label

    @property
    def shown_label(self) -> str:
        """The run as a page names it, in the reader's language."""
        if self.kind == SubmissionKind.BASELINE:
            return "BASE"
        if self.kind == SubmissionKind.TOPLINE:
            return "TOP"
        assert self.site is not None
        return run_label(self.site.code or self.site.name, self.run_number, self.phase)

    @property
    def phase_facts(self) -> PhaseFacts:
        """Its phase's row of ``phase_table.FACTS``."""
        return phase_facts(self.phase)

    @property
    def official(self) -> bool:
        return self.phase_facts.official

    @property
    def run_name(self) -> StrOrPromise:
        """The run as its site's mails name it ("run 2", "development run 2")."""
        return interpolate(self.phase_facts.run_name, number=self.run_number)

    @property
    def run_count(self) -> StrOrPromise:
        """The receipt's line: the run's number and its phase's limit when it arrived
        ("development run 1; 5 development runs per day")."""
        return interpolate(self.phase_facts.run_count, number=self.run_number, limit=self.max_runs)

    @property
    def reason_shown(self) -> StrOrPromise:
        """Why the run failed, in the reader's language."""
        return failures.shown(self.reason_code, self.reason_params, self.reason)

    @property
    def is_withdrawn(self) -> bool:
        return self.withdrawn_at is not None

    def current_score(self, metric: str = "word") -> Score | None:
        return (
            self.scores.filter(metric=metric, superseded_at__isnull=True)
            .select_related("gold_version")
            .first()
        )


def run_label(site: str, number: int, phase: str = SubmissionPhase.TEST) -> str:
    """A run as people name it ("S01 run 2", "S01 run 2 (development)"), in the active
    language."""
    return str(phase_facts(phase).label) % {"site": site, "number": number}


class SystemPaper(models.Model):
    """A site's system-description paper for one track: a PDF stored here, or a link."""

    site = models.ForeignKey(Site, on_delete=models.CASCADE, related_name="papers")
    track = models.ForeignKey(Track, on_delete=models.CASCADE, related_name="papers")
    file = models.FileField(upload_to="papers", blank=True)
    checksum = models.CharField(max_length=80, blank=True)
    url = models.URLField(blank=True, max_length=500)
    title = models.CharField(max_length=300, blank=True)
    attached_at = models.DateTimeField()
    attached_by = account_or_none()

    class Meta:
        ordering = ("track", "site")
        constraints = (
            models.UniqueConstraint(fields=["site", "track"], name="one_paper_per_site_and_track"),
            models.CheckConstraint(
                condition=~Q(file="") | ~Q(url=""), name="paper_is_a_file_or_a_link"
            ),
        )

    def __str__(self) -> str:
        return f"{self.site} paper for {self.track}"


class Score(models.Model):
    """The figures of one submission against one gold version, with the signature that made them.
    One column per figure of the library (``bakeoff.figures.LIBRARY_FIGURES``).

    One row per submission, metric and gold version. When a new gold version arrives, the run is
    scored again and the old row stays, marked superseded.
    """

    submission = models.ForeignKey(Submission, on_delete=models.CASCADE, related_name="scores")
    gold_version = models.ForeignKey(GoldVersion, on_delete=models.RESTRICT, related_name="scores")
    metric = models.CharField(max_length=32, default="word")
    recall = models.FloatField(null=True)
    precision = models.FloatField(null=True)
    f = models.FloatField(null=True)
    oov_rate = models.FloatField(null=True)
    oov_recall = models.FloatField(null=True)
    iv_recall = models.FloatField(null=True)
    true_words = models.PositiveIntegerField()
    test_words = models.PositiveIntegerField()
    correct = models.PositiveIntegerField()
    oov_words = models.PositiveIntegerField()
    correct_oov = models.PositiveIntegerField()
    result = models.JSONField(help_text=_("The scoring library's result, signature included."))
    signature = models.CharField(max_length=500)
    created_at = models.DateTimeField()
    superseded_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("submission", "metric", "-gold_version__number")
        constraints = (
            models.UniqueConstraint(
                fields=["submission", "metric", "gold_version"], name="one_score_per_gold_version"
            ),
        )
        indexes = (models.Index(fields=["metric", "superseded_at"]),)

    def __str__(self) -> str:
        return f"{self.submission} {self.metric} v{self.gold_version.number}"


class DevelopmentScore(models.Model):
    """The figures of one development run against its corpus's development set. Kept apart from
    ``Score``: nothing that ranks, exports or analyses the official runs can read them. It stores
    every figure of the library that ``Score`` stores (``bakeoff.figures.LIBRARY_FIGURES``)."""

    submission = models.OneToOneField(
        Submission, on_delete=models.CASCADE, related_name="development_score"
    )
    recall = models.FloatField(null=True)
    precision = models.FloatField(null=True)
    f = models.FloatField(null=True)
    oov_rate = models.FloatField(null=True)
    oov_recall = models.FloatField(null=True)
    iv_recall = models.FloatField(null=True)
    true_words = models.PositiveIntegerField()
    test_words = models.PositiveIntegerField()
    correct = models.PositiveIntegerField()
    oov_words = models.PositiveIntegerField()
    correct_oov = models.PositiveIntegerField()
    # xgettext:no-python-format
    cr = models.FloatField(help_text=_("Half-width of the 95% interval of R."))
    # xgettext:no-python-format
    cp = models.FloatField(help_text=_("Half-width of the 95% interval of P."))
    gold_checksum = models.CharField(max_length=80)
    result = models.JSONField(help_text=_("The scoring library's result, signature included."))
    signature = models.CharField(max_length=500)
    created_at = models.DateTimeField()

    class Meta:
        ordering = ("-f",)

    def __str__(self) -> str:
        return f"{self.submission} development"


class Milestone(models.Model):
    """A moment of a bakeoff's timetable that was announced (``signals.milestone_reached``): one
    row per bakeoff and milestone, so that each is announced once."""

    bakeoff = models.ForeignKey(Bakeoff, on_delete=models.CASCADE, related_name="milestones")
    name = models.CharField(max_length=40)
    at = models.DateTimeField(help_text=_("The moment of the timetable."))
    announced_at = models.DateTimeField()

    class Meta:
        ordering = ("bakeoff", "at")
        constraints = (
            models.UniqueConstraint(fields=["bakeoff", "name"], name="one_milestone_per_name"),
        )

    def __str__(self) -> str:
        return f"{self.bakeoff.slug} {self.name}"


class Invitation(models.Model):
    """A one-time link that makes or links an account and puts it in a site of the bakeoff (or,
    without a site, lets it register one). The link is signed (``services.invitations``); the
    row says whether it was used and until when it is valid."""

    bakeoff = models.ForeignKey(Bakeoff, on_delete=models.CASCADE, related_name="invitations")
    site = models.ForeignKey(
        Site, null=True, blank=True, on_delete=models.CASCADE, related_name="invitations"
    )
    email = models.EmailField()
    created_at = models.DateTimeField()
    expires_at = models.DateTimeField()
    invited_by = account_or_none()
    accepted_at = models.DateTimeField(null=True, blank=True)
    accepted_by = account_or_none()

    class Meta:
        ordering = ("bakeoff", "-created_at")

    def __str__(self) -> str:
        return f"{self.email} to {self.site or self.bakeoff}"

    def state(self, now: datetime) -> str:
        if self.accepted_at is not None:
            return "accepted"
        return "expired" if now >= self.expires_at else "pending"


class Announcement(models.Model):
    """News from the organisers: listed on the bakeoff page and mailed to the members of every
    registered site, or of the sites registered for ``tracks`` when some are chosen."""

    bakeoff = models.ForeignKey(Bakeoff, on_delete=models.CASCADE, related_name="announcements")
    subject = models.CharField(max_length=200)
    text = models.TextField()
    tracks = models.ManyToManyField(Track, blank=True, related_name="announcements")
    created_at = models.DateTimeField()
    created_by = account_or_none()

    class Meta:
        ordering = ("bakeoff", "-created_at")

    def __str__(self) -> str:
        return self.subject


class LicenceAcceptance(models.Model):
    """A site's acceptance of a corpus's licence text (the text's checksum: a changed licence is
    accepted again): who accepted it, and when."""

    corpus = models.ForeignKey(Corpus, on_delete=models.CASCADE, related_name="acceptances")
    site = models.ForeignKey(Site, on_delete=models.CASCADE, related_name="acceptances")
    licence_checksum = models.CharField(max_length=80)
    accepted_by = account_or_none()
    accepted_at = models.DateTimeField()

    class Meta:
        ordering = ("corpus", "accepted_at")
        constraints = (
            models.UniqueConstraint(
                fields=["corpus", "site", "licence_checksum"], name="one_acceptance_per_licence"
            ),
        )

    def __str__(self) -> str:
        return f"{self.site} accepted the licence of {self.corpus.abbreviation}"


class OutboxEntry(models.Model):
    """A task to publish to the broker, written in the transaction that asks for it.

    Deleted once the broker has it. While the broker is away the entry waits, and the recovery
    loop of every worker publishes it again within seconds of the broker's return
    (``bakeoff.outbox``). ``claimed_until``: a process is publishing it (a lease, so that two do
    not, and one that died does not hold it for ever).
    """

    task = models.CharField(max_length=200)
    args = models.JSONField(default=list)
    kwargs = models.JSONField(default=dict)
    options = models.JSONField(default=dict)
    created_at = models.DateTimeField()
    claimed_until = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ("pk",)
        indexes = (models.Index(fields=["created_at"]),)

    def __str__(self) -> str:
        return f"{self.task}{tuple(self.args)!r}"


class AuditQuerySet(models.QuerySet["AuditEntry"]):
    """The trail is append-only: bulk changes are refused as loudly as single ones."""

    def update(self, **kwargs: object) -> int:
        raise PermissionError("The audit trail is append-only: entries are never updated.")

    def delete(self) -> tuple[int, dict[str, int]]:
        raise PermissionError("The audit trail is append-only: entries are never deleted.")


class AuditEntry(models.Model):
    """One thing that happened to a bakeoff: who, when, what (``bakeoff.audit.record``).

    Append-only. The references carry no database constraint and are never cascaded, so that
    deleting a bakeoff, a site or an account leaves the record of what they did; the labels keep
    the names as they were at the time. On PostgreSQL a trigger refuses UPDATE and DELETE too.
    """

    bakeoff = models.ForeignKey(
        Bakeoff,
        on_delete=models.DO_NOTHING,
        db_constraint=False,
        related_name="audit_entries",
    )
    at = models.DateTimeField(db_index=True)
    action = models.CharField(max_length=40, db_index=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.DO_NOTHING,
        db_constraint=False,
        related_name="+",
    )
    actor_label = models.CharField(
        max_length=150, blank=True, help_text=_("The account's name then.")
    )
    track = models.ForeignKey(
        "Track",
        null=True,
        blank=True,
        on_delete=models.DO_NOTHING,
        db_constraint=False,
        related_name="+",
    )
    site = models.ForeignKey(
        "Site",
        null=True,
        blank=True,
        on_delete=models.DO_NOTHING,
        db_constraint=False,
        related_name="+",
    )
    subject = models.CharField(max_length=300, help_text=_("What it happened to, for people."))
    # The subject's facts, so that a page says it in its reader's language (``bakeoff.audit_text``);
    # entries from before them have only the English ``subject`` and show it.
    subject_code = models.CharField(max_length=40, blank=True)
    subject_params = models.JSONField(default=dict, blank=True)
    details = models.JSONField(default=dict, blank=True)

    objects = AuditQuerySet.as_manager()

    class Meta:
        ordering = ("at", "id")
        indexes = (models.Index(fields=["bakeoff", "at"]),)

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M:%S} {self.action} {self.subject}"

    def save(self, *args: object, **kwargs: object) -> None:
        if not self._state.adding:
            raise PermissionError("The audit trail is append-only: entries are never updated.")
        super().save(*args, **kwargs)  # type: ignore[arg-type]

    def delete(self, *args: object, **kwargs: object) -> tuple[int, dict[str, int]]:
        raise PermissionError("The audit trail is append-only: entries are never deleted.")


class ReaderSettings(models.Model):
    """What a logged-in reader chose for the pages: a language and a time zone. Blank means: as
    the browser says (Accept-Language, the zone the browser reports). Also the language the pages
    were read in at the reader's last login, which mail uses when no language was chosen."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reader_settings"
    )
    language = models.CharField(max_length=10, blank=True, choices=settings.LANGUAGES)
    time_zone = models.CharField(max_length=64, blank=True, validators=[validate_time_zone])
    # Apart from ``language``: what the browser asked for is not a choice, and a blank choice
    # must keep meaning "as the browser says" for the pages. Blank: no login through a page yet.
    pages_language = models.CharField(max_length=10, blank=True, choices=settings.LANGUAGES)

    def __str__(self) -> str:
        return f"{self.user}: {self.language or '-'} {self.time_zone or '-'}"
