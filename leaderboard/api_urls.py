from django.urls import path

from . import api

app_name = "leaderboard-api"

urlpatterns = [
    path(
        "bakeoffs/<slug:bakeoff>/tracks/<slug:track>/results/",
        api.track_results,
        name="track-results",
    ),
]
