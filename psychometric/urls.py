from django.urls import path

from . import views

app_name = "psychometric"

C = "bakeoffs/<slug:slug>/corpora/<str:abbreviation>/"

urlpatterns = [
    path(C + "committees/", views.committee_start, name="committee-start"),
]
