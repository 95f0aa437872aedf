"""Forms: the validation boundary of the pages. They return typed values; services apply rules.

One module per subject: ``bakeoffs`` (settings, timetable, announcement, agreement, bundles),
``corpora`` (corpora and their tracks), ``registrations`` (sites, registrations, invitations,
organisers), ``runs`` (uploads, withdrawals, papers), ``account`` (a person's own settings) and
``audit_trail``; ``fields`` holds the validators they share.
"""

from django.utils.translation import gettext_noop

from .account import ReaderSettingsForm, UserNameForm
from .audit_trail import AuditFilterForm
from .bakeoffs import (
    TIMETABLE,
    AnnouncementForm,
    BakeoffForm,
    BundleForm,
    CloneForm,
    LicenceForm,
    LocalDateTimeInput,
)
from .corpora import (
    BUCKET_SCHEME_HELP,
    CorpusDescriptionForm,
    CorpusEditForm,
    CorpusForm,
    DomainLabelsForm,
    GoldForm,
    TrackForm,
    TrackSchemeForm,
)
from .fields import FREE_TEXT, ONE_LINE
from .registrations import (
    ADDRESS_SEPARATORS,
    MAX_ADDRESSES,
    DecisionForm,
    InvitedAccountForm,
    InviteForm,
    InviteSitesForm,
    OrganiserForm,
    RefusalReasonForm,
    RegistrationForm,
    SiteForm,
    SiteRegistrationForm,
    TracksForm,
)
from .runs import PaperForm, UploadForm, WithdrawForm

# Django's label suffix ("Name:"). Its simplified-Chinese catalogue keeps the Latin colon ("名称:")
# where the traditional one has the full-width "：": ours translate it for both.
gettext_noop(":")

__all__ = [
    "ADDRESS_SEPARATORS",
    "BUCKET_SCHEME_HELP",
    "FREE_TEXT",
    "MAX_ADDRESSES",
    "ONE_LINE",
    "TIMETABLE",
    "AnnouncementForm",
    "AuditFilterForm",
    "BakeoffForm",
    "BundleForm",
    "CloneForm",
    "CorpusDescriptionForm",
    "CorpusEditForm",
    "CorpusForm",
    "DecisionForm",
    "DomainLabelsForm",
    "GoldForm",
    "InviteForm",
    "InviteSitesForm",
    "InvitedAccountForm",
    "LicenceForm",
    "LocalDateTimeInput",
    "OrganiserForm",
    "PaperForm",
    "ReaderSettingsForm",
    "RefusalReasonForm",
    "RegistrationForm",
    "SiteForm",
    "SiteRegistrationForm",
    "TrackForm",
    "TrackSchemeForm",
    "TracksForm",
    "UploadForm",
    "UserNameForm",
    "WithdrawForm",
]
