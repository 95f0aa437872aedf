"""The rules of a bakeoff: ``check_*`` functions decide, ``do_*`` functions change data.

Views, the API, commands and tasks stay thin and call these. Every function that depends on the
time takes ``now`` (default: the server's clock), so tests pin it.
"""

from .agreements import do_accept_licence, licence_checksum, needs_agreement
from .announcements import do_post_announcement
from .bakeoffs import check_can_open, do_create_bakeoff, do_open_bakeoff
from .corpora import (
    CorpusFiles,
    check_corpus_files,
    do_accept_differences,
    do_add_gold_version,
    do_add_track,
    do_create_corpus,
    do_rescore_corpus,
    do_set_bucket_scheme,
)
from .development import do_add_development_set
from .domains import (
    check_domain_labels,
    do_set_domain_labels,
    domain_labels_for,
    figures_per_domain,
)
from .gold_index import dictionary_for, gold_index_for
from .invitations import (
    do_accept_invitation,
    do_create_invited_account,
    do_invite,
    do_invite_sites,
    invitation_for,
    read_sites_csv,
)
from .milestones import do_announce_milestones
from .organising import (
    do_add_organiser,
    do_add_site_registrations,
    do_edit_corpus,
    do_edit_site,
    do_remove_organiser,
    do_set_max_runs,
)
from .papers import PAPER_MAX_BYTES, do_attach_paper
from .phases import check_can_submit, check_run, do_open_post_bakeoff
from .recovery import (
    do_claim,
    do_mark_failed,
    do_republish_lost,
    do_requeue_abandoned,
    do_score_domains,
    do_score_submission,
    do_store_score,
    do_sweep_stuck,
)
from .reference_runs import do_add_reference_runs
from .registration import (
    ENTRANCES,
    Entrance,
    RegistrationChanges,
    RegistrationTerms,
    check_registration,
    do_add_registrations,
    do_approve_registration,
    do_assign_site_code,
    do_give_refusal_reason,
    do_refuse_registration,
    do_register_site,
    registrable_tracks,
)
from .submissions import (
    check_can_withdraw,
    check_description,
    do_accept_run,
    do_withdraw_run,
    live_runs,
    open_unofficial_phases,
    submit_run,
    upload_refusal,
)

__all__ = [
    "ENTRANCES",
    "PAPER_MAX_BYTES",
    "CorpusFiles",
    "Entrance",
    "RegistrationChanges",
    "RegistrationTerms",
    "check_can_open",
    "check_can_submit",
    "check_can_withdraw",
    "check_corpus_files",
    "check_description",
    "check_domain_labels",
    "check_registration",
    "check_run",
    "dictionary_for",
    "do_accept_differences",
    "do_accept_invitation",
    "do_accept_licence",
    "do_accept_run",
    "do_add_development_set",
    "do_add_gold_version",
    "do_add_organiser",
    "do_add_reference_runs",
    "do_add_registrations",
    "do_add_site_registrations",
    "do_add_track",
    "do_announce_milestones",
    "do_approve_registration",
    "do_assign_site_code",
    "do_attach_paper",
    "do_claim",
    "do_create_bakeoff",
    "do_create_corpus",
    "do_create_invited_account",
    "do_edit_corpus",
    "do_edit_site",
    "do_give_refusal_reason",
    "do_invite",
    "do_invite_sites",
    "do_mark_failed",
    "do_open_bakeoff",
    "do_open_post_bakeoff",
    "do_post_announcement",
    "do_refuse_registration",
    "do_register_site",
    "do_remove_organiser",
    "do_republish_lost",
    "do_requeue_abandoned",
    "do_rescore_corpus",
    "do_score_domains",
    "do_score_submission",
    "do_set_bucket_scheme",
    "do_set_domain_labels",
    "do_set_max_runs",
    "do_store_score",
    "do_sweep_stuck",
    "do_withdraw_run",
    "domain_labels_for",
    "figures_per_domain",
    "gold_index_for",
    "invitation_for",
    "licence_checksum",
    "live_runs",
    "needs_agreement",
    "open_unofficial_phases",
    "read_sites_csv",
    "registrable_tracks",
    "submit_run",
    "upload_refusal",
]
