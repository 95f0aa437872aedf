from django.urls import path
from drf_spectacular.views import SpectacularAPIView

from . import reads, views
from .docs import SwaggerPage

app_name = "api"

urlpatterns = [
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SwaggerPage.as_view(url_name="api:schema"), name="docs"),
    path("bakeoffs/", reads.bakeoffs, name="bakeoffs"),
    path("bakeoffs/<slug:bakeoff>/", reads.bakeoff, name="bakeoff"),
    path("bakeoffs/<slug:bakeoff>/tracks/", reads.tracks, name="tracks"),
    path("bakeoffs/<slug:bakeoff>/corpora/", reads.corpora, name="corpora"),
    path(
        "bakeoffs/<slug:bakeoff>/corpora/<str:corpus>/agreement/",
        reads.agreement,
        name="agreement",
    ),
    path(
        "bakeoffs/<slug:bakeoff>/corpora/<str:corpus>/files/<str:kind>/",
        reads.data_file,
        name="file",
    ),
    path("bakeoffs/<slug:bakeoff>/sites/", reads.sites, name="sites"),
    path("bakeoffs/<slug:bakeoff>/runs/", reads.runs, name="runs"),
    path("bakeoffs/<slug:bakeoff>/registrations/", views.registrations, name="registrations"),
    path(
        "bakeoffs/<slug:bakeoff>/tracks/<slug:track>/submissions/",
        views.submissions,
        name="submissions",
    ),
    path(
        "bakeoffs/<slug:bakeoff>/tracks/<slug:track>/submissions/<id:pk>/",
        views.submission,
        name="submission",
    ),
    path(
        "bakeoffs/<slug:bakeoff>/tracks/<slug:track>/submissions/<id:pk>/withdraw/",
        views.withdraw,
        name="withdraw",
    ),
]
