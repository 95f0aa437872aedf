from django.urls import path

from . import views

app_name = "api"

urlpatterns = [
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
