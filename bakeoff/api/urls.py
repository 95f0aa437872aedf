from django.urls import path
from drf_spectacular.views import SpectacularAPIView

from . import views
from .docs import SwaggerPage

app_name = "api"

urlpatterns = [
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SwaggerPage.as_view(url_name="api:schema"), name="docs"),
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
