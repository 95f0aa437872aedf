"""How an audit entry reads for people: its subject and the names of its details, in the reader's
language.

An entry keeps its subject as English text, the record. Beside it ``record`` stores the subject's
code and facts (a site's code, a track's name, a run's number and phase...), from which a page
says the same thing in its reader's language. The English text is made from the same facts and
the same template, so the two cannot say different things. An entry from before the codes, or one
whose facts do not fit its template, shows its stored text.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy, pgettext_lazy
from django_stubs_ext import StrOrPromise

from .errors import english
from .models import Submission, SubmissionKind, SubmissionPhase, run_label

RUN = "run"
UPLOAD_REFUSED = "upload_refused"
UPLOAD_REFUSED_DEVELOPMENT = "upload_refused.development"
UPLOAD_REFUSED_POST_BAKEOFF = "upload_refused.post_bakeoff"
LATENESS_KEPT = "lateness.kept"
LATENESS_LATE = "lateness.late"
PAPER = "paper"
REGISTRATION = "registration"
LICENCE = "licence"
GOLD = "gold"
GOLD_DIFFERENCES_ACCEPTED = "gold.differences_accepted"
RESCORED = "rescored"
DOMAIN_LABELS = "domain_labels"
DEVELOPMENT_SET = "development_set"
POST_BAKEOFF_OPENED = "post_bakeoff.opened"
POST_BAKEOFF_CLOSED = "post_bakeoff.closed"
COMMITTEE = "committee"
INVITATION_TO_SITE = "invitation.to_site"
INVITATION_ACCEPTED = "invitation.accepted"
INVITATION_ACCEPTED_MEMBER = "invitation.accepted_member"
TIMETABLE_CHANGED = "timetable"
RESULTS_PUBLISHED = "results.published"
RESULTS_SCHEDULED = "results.scheduled"
RESULTS_WITHDRAWN = "results.withdrawn"
RESULTS_FROZEN = "results.frozen"
ERRATUM = "erratum"

# A subject that is only a name (a bakeoff's, an account's, an announcement's title) has no code:
# it reads the same in every language.
TEXTS: dict[str, StrOrPromise] = {
    RUN: _("%(run)s of %(track)s"),
    UPLOAD_REFUSED: _("%(site)s upload to %(track)s"),
    UPLOAD_REFUSED_DEVELOPMENT: _("%(site)s upload to %(track)s (development)"),
    UPLOAD_REFUSED_POST_BAKEOFF: _("%(site)s upload to %(track)s (post-bakeoff)"),
    LATENESS_KEPT: _(
        "%(track)s %(run)s received %(received)s, after the new deadline: kept as on time"
    ),
    LATENESS_LATE: _(
        "%(track)s %(run)s received %(received)s, after the new deadline: marked late, not ranked"
    ),
    PAPER: _("%(site)s paper for %(track)s"),
    REGISTRATION: _("%(site)s for %(track)s"),
    LICENCE: _("%(site)s: licence of %(corpus)s"),
    GOLD: _("%(corpus)s gold v%(gold)d"),
    GOLD_DIFFERENCES_ACCEPTED: _("%(corpus)s gold v%(gold)d: gold/test differences accepted"),
    RESCORED: ngettext_lazy(
        "%(count)d run of %(corpus)s queued for scoring again",
        "%(count)d runs of %(corpus)s queued for scoring again",
        "count",
    ),
    DOMAIN_LABELS: _("domain labels of %(corpus)s"),
    DEVELOPMENT_SET: _("%(corpus)s development set"),
    POST_BAKEOFF_OPENED: _("%(track)s opened for post-bakeoff runs"),
    POST_BAKEOFF_CLOSED: _("%(track)s closed for post-bakeoff runs"),
    COMMITTEE: _("%(corpus)s gold v%(gold)d: committee %(committee)d"),
    INVITATION_TO_SITE: _("%(email)s to join %(site)s"),
    INVITATION_ACCEPTED: _("%(email)s by %(user)s"),
    INVITATION_ACCEPTED_MEMBER: _("%(email)s by %(user)s, now a member of %(site)s"),
    TIMETABLE_CHANGED: _("Timetable changed: %(changes)s"),
    RESULTS_PUBLISHED: _("Results version 1 published for %(at)s (%(mode)s)"),
    RESULTS_SCHEDULED: _("Results version 1 scheduled for %(at)s (%(mode)s)"),
    RESULTS_WITHDRAWN: _("Scheduled publication (%(at)s) withdrawn"),
    RESULTS_FROZEN: _(
        "Results version 1 frozen from the figures of %(day)s (published %(published)s, before "
        "results versions)"
    ),
    ERRATUM: _("Erratum: results version %(version)d"),
}

# The timetable's instants as a timetable change names them (the field names, spaced).
TIMETABLE_FIELDS: dict[str, StrOrPromise] = {
    "registration_opens": _("registration opens"),
    "registration_closes": _("registration closes"),
    "training_released": _("training released"),
    "test_released": _("test released"),
    "submission_deadline": _("submission deadline"),
    "grace_minutes": _("grace minutes"),
}

# How results are published (leaderboard.models.PublicationMode's values).
PUBLICATION_MODES: dict[str, StrOrPromise] = {
    "names": pgettext_lazy("publication mode", "names"),
    "anonymised": pgettext_lazy("publication mode", "anonymised"),
}


@dataclass(frozen=True)
class Subject:
    """What an entry happened to: a code of ``TEXTS`` and the facts its template names."""

    code: str
    params: dict[str, Any] = field(default_factory=dict)

    @property
    def english(self) -> str:
        shown = text(self.code, self.params)
        assert shown is not None, self.code  # a subject recorded must fit its template
        return english(shown)


def run_facts(submission: Submission) -> dict[str, Any]:
    """A run as its label is made of: BASE and TOP by their kind, a site's run by the site's code,
    its number and phase."""
    if submission.kind != SubmissionKind.RUN:
        return {"reference": submission.shown_label}
    assert submission.site is not None
    site = submission.site
    return {
        "site": site.code or site.name,
        "number": submission.run_number,
        "phase": submission.phase,
    }


def _shown_run(facts: dict[str, Any]) -> str:
    if "reference" in facts:
        return str(facts["reference"])
    phase = facts.get("phase", SubmissionPhase.TEST)
    return run_label(str(facts["site"]), int(facts["number"]), str(phase))


def _shown_changes(changes: list[list[Any]]) -> str:
    return "; ".join(
        f"{TIMETABLE_FIELDS.get(name, name.replace('_', ' '))} {old} → {new}"
        for name, old, new in changes
    )


def _shown_values(params: dict[str, Any]) -> dict[str, Any]:
    """The facts as the template takes them, in the active language."""
    values = dict(params)
    if "run" in values:
        values["run"] = _shown_run(values["run"])
    if "changes" in values:
        values["changes"] = _shown_changes(values["changes"])
    if "mode" in values:
        values["mode"] = PUBLICATION_MODES.get(values["mode"], values["mode"])
    return values


def text(code: str, params: dict[str, Any]) -> str | None:
    """The subject of ``code`` with ``params`` in the active language; None when the code is
    unknown (or empty) or the facts do not fit it."""
    if code not in TEXTS:
        return None
    try:
        # ``TEXTS[code] % ...``: a lazy plural picks its form from the values.
        return str(TEXTS[code] % _shown_values(params))
    except (KeyError, TypeError, ValueError, AttributeError):
        return None


def shown_subject(code: str, params: dict[str, Any], stored: str) -> str:
    """What a page shows as an entry's subject: in the reader's language, else the stored text."""
    return text(code, params) or stored


# The details most entries carry, named for people; any other detail shows its key.
DETAIL_LABELS: dict[str, StrOrPromise] = {
    "accepted": _("accepted"),
    "after_test_release": _("after the test release"),
    "again": _("applied again"),
    "announcement": _("announcement"),
    "archive_checksum": _("archive checksum"),
    "archive_made_at": _("archive written at"),
    "archive_version": _("archive format version"),
    "approve": _("approve"),
    "at": _("public from"),
    "attempts": _("attempts"),
    "automatic": _("automatic"),
    "bucket_scheme": _("bucket scheme"),
    "bundle_checksum": _("bundle checksum"),
    "bundle_version": _("bundle format version"),
    "cause": _("cause"),
    "changes": _("changes"),
    "cloned_from": _("cloned from"),
    "checksum": _("checksum"),
    "committee": _("committee"),
    "condition": _("condition"),
    "conditions": _("conditions"),
    "corpora": _("corpora"),
    "corpus": _("corpus"),
    "deadline": _("deadline"),
    "decision": _("decision"),
    "description": _("description"),
    "dictionary_checksum": _("dictionary checksum"),
    "differences": _("differences"),
    "domains": _("domains"),
    "expires_at": _("expires at"),
    "f": _("F"),
    "gold_checksum": _("gold checksum"),
    "gold_uploaded_since_publication": _("gold versions uploaded since the publication"),
    "gold_version": _("gold version"),
    "internal": _("internal"),
    "invitation": _("invitation"),
    "k": _("committee size (K)"),
    "kind": _("kind"),
    "licence_checksum": _("licence checksum"),
    "lines": _("lines"),
    "max_runs": _("maximum runs"),
    "mode": _("mode"),
    "new": _("new value"),
    "note": _("note"),
    "old": _("old value"),
    "original_name": _("file name"),
    "phase": _("phase"),
    "precision": _("precision"),
    "previous": _("previous value"),
    "published_at": _("published at"),
    "reason": _("reason"),
    "recall": _("recall"),
    "received_at": _("received at"),
    "reference_runs": _("reference runs (BASE, TOP)"),
    "refusal": _("refusal"),
    "replaced": _("replaced"),
    "resources_statement": _("statement of resources"),
    "rows": _("rows of the table"),
    "rule": _("rule"),
    "run_checksum": _("run checksum"),
    "run_number": _("run number"),
    "runs_after_new_deadline": _("runs after the new deadline"),
    "seed": _("seed"),
    "signature": _("signature"),
    "shift_days": _("timetable moved by (days)"),
    "site_code": _("site code"),
    "size_bytes": _("size (bytes)"),
    "source": _("source"),
    "status": _("status"),
    "submission": _("submission"),
    "submissions": _("submissions"),
    "test_text_checksum": _("test text checksum"),
    "text_checksum": _("text checksum"),
    "title": _("title"),
    "tracks": _("tracks"),
    "training_text_checksum": _("training text checksum"),
    "training_words_checksum": _("training words checksum"),
    "url": _("link"),
    "version": _("version"),
    "was": _("was public from"),
}


def detail_label(key: str) -> StrOrPromise:
    return DETAIL_LABELS.get(key, key)


# The detail that keeps, for details that are the platform's own words (a refusal, why a run
# failed), those words in every language of the pages: ``{"reason": {"zh-hans": "..."}}``. The
# English text stays the record; the trail shows its reader the words of their language.
IN_LANGUAGES = "in_languages"

# Details whose values are words of the platform, said in the reader's language.
DETAIL_VALUES: dict[str, dict[str, StrOrPromise]] = {
    "decision": {
        "keep": _("kept as on time"),
        "late": _("marked late, not ranked"),
        "approve": _("approve"),
        "refuse": _("refuse"),
    },
    "mode": PUBLICATION_MODES,
}


def detail_value(key: str, value: Any) -> StrOrPromise:
    """A detail's value as a sentence of the reader's language, never a raw list or dict: a
    timetable's changes by their fields' names, an erratum's by its tracks, yes and no."""
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, str):
        return DETAIL_VALUES.get(key, {}).get(value, value)
    if key == "changes" and isinstance(value, dict):  # a timetable's: {field: [old, new]}
        return str(_("; ")).join(
            f"{TIMETABLE_FIELDS.get(name, name)} {pair[0]} → {pair[1]}"
            for name, pair in value.items()
            if isinstance(pair, list | tuple) and len(pair) == 2
        )
    if key == "changes" and isinstance(value, list):  # an erratum's: one change per track
        return str(_("; ")).join(
            str(
                ngettext_lazy(
                    "%(track)s: %(count)d run moved", "%(track)s: %(count)d runs moved", "count"
                )
                % {"track": change.get("name", ""), "count": len(change.get("runs", []))}
            )
            for change in value
            if isinstance(change, dict)
        )
    if isinstance(value, list):
        return str(_(", ")).join(str(detail_value(key, item)) for item in value)
    if isinstance(value, dict):
        return str(_("; ")).join(
            f"{detail_label(k)}{_(': ')}{detail_value(k, v)}" for k, v in value.items()
        )
    return "" if value is None else str(value)


# Details whose values are for machines (checksums, signatures, codes): shown as code.
MACHINE_DETAILS = (
    "checksum",
    "signature",
    "bucket_scheme",
    "original_name",
    "seed",
    "url",
    "reference_runs",
    "rule",
)


def shown_details(
    details: dict[str, Any], language: str
) -> list[tuple[str, StrOrPromise, Any, bool]]:
    """An entry's details for its page, in ``language``: ``(key, label, value, machine)`` sorted
    by key; the platform's words kept in every language (``audit.IN_LANGUAGES``) are shown in
    the reader's, the stored English text otherwise; ``machine`` for a checksum, a signature or
    a code, shown as code."""
    said = details.get(IN_LANGUAGES) or {}
    shown = []
    for key, value in sorted(details.items()):
        if key == IN_LANGUAGES:
            continue
        translated = said.get(key, {}).get(language) if isinstance(said.get(key), dict) else None
        machine = key.endswith(MACHINE_DETAILS)
        shown.append((key, detail_label(key), translated or detail_value(key, value), machine))
    return shown
