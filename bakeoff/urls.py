from django.urls import path

from .views import account, docs, invitations, manage, organiser, participant, public

B = "bakeoffs/<slug:slug>/"
C = B + "corpora/<str:abbreviation>/"

urlpatterns = [
    path("", public.home, name="home"),
    path("healthz/", public.health, name="health"),
    path("docs/", docs.page, name="docs-index"),
    path("docs/<path:path>", docs.page, name="docs"),
    path("account/", account.account, name="account"),
    path("account/token/", account.token_create, name="token-create"),
    path("account/token/revoke/", account.token_revoke, name="token-revoke"),
    path("i18n/setlang/", account.set_language, name="set_language"),
    path("bakeoffs/new/", organiser.bakeoff_create, name="bakeoff-create"),
    path(B, public.bakeoff_detail, name="bakeoff"),
    path(B + "edit/", organiser.bakeoff_edit, name="bakeoff-edit"),
    path(B + "register/", participant.register, name="register"),
    path(B + "organisers/", manage.organisers, name="organisers"),
    path(B + "organisers/<int:user>/remove/", manage.organiser_remove, name="organiser-remove"),
    path("invitations/<str:token>/", invitations.invitation, name="invitation"),
    path(B + "announcements/new/", organiser.announcement_create, name="announcement-create"),
    path(B + "participants/", invitations.participants, name="participants"),
    path(B + "participants/invite/", invitations.invite, name="invite"),
    path(B + "participants/invite-sites/", invitations.invite_sites, name="invite-sites"),
    path(
        B + "participants/<int:site>/members/<int:user>/remove/",
        invitations.remove_member,
        name="remove-member",
    ),
    path(B + "participants/<int:site>/edit/", manage.site_edit, name="site-edit"),
    path(B + "participants/<int:site>/register/", manage.site_register, name="site-register"),
    path(B + "registrations/", organiser.registrations, name="registrations"),
    path(
        B + "registrations/<int:pk>/decide/",
        organiser.registration_decide,
        name="registration-decide",
    ),
    path(B + "submissions/", participant.submissions, name="submissions"),
    path(B + "submissions/<int:pk>/", participant.submission_detail, name="submission"),
    path(B + "tracks/<slug:track>/upload/", participant.upload, name="upload"),
    path(B + "corpora/new/", organiser.corpus_create, name="corpus-create"),
    path(C, participant.corpus_detail, name="corpus"),
    path(C + "download/<str:kind>/", participant.download, name="download"),
    path(C + "agreement/", participant.agreement, name="agreement"),
    path(C + "agreement/edit/", organiser.licence_edit, name="licence-edit"),
    path(C + "edit/", manage.corpus_edit, name="corpus-edit"),
    path(C + "gold/new/", organiser.gold_create, name="gold-create"),
    path(C + "domains/", organiser.domain_labels_set, name="domain-labels"),
    path(C + "gold/<int:number>/accept/", organiser.gold_accept, name="gold-accept"),
    path(C + "tracks/new/", organiser.track_create, name="track-create"),
    path(C + "tracks/<slug:track>/edit/", organiser.track_edit, name="track-edit"),
]
