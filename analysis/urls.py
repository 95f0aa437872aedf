from django.urls import path

from . import views

app_name = "analysis"

RUN = "bakeoffs/<slug:slug>/tracks/<slug:track>/runs/<id:pk>/"

urlpatterns = [
    path(RUN + "analysis/", views.run_analysis, name="run"),
]
