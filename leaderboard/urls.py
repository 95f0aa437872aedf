from django.urls import path

from . import views
from .archive import views as archive_views

app_name = "leaderboard"

B = "bakeoffs/<slug:slug>/"
T = B + "tracks/<slug:track>/"
# A results version, frozen: results/v1/ is the publication, v2... the errata.
V = B + "results/v<id:number>/"
VT = V + "tracks/<slug:track>/"

urlpatterns = [
    path(B + "results/", views.bakeoff_results, name="results"),
    path(B + "results/release.zip", archive_views.release, name="release"),
    path(B + "results/all-tracks.csv", archive_views.whole_csv, name="whole-csv"),
    path(B + "results/all-tracks.json", archive_views.whole_json, name="whole-json"),
    path(B + "results/all-tracks.tex", archive_views.whole_tex, name="whole-tex"),
    path(B + "archive.zip", archive_views.organisers_archive, name="archive"),
    path(B + "archive-public.zip", archive_views.public_archive, name="public-archive"),
    path(B + "results/publish/", views.publish, name="publish"),
    path(B + "results/withdraw/", views.withdraw, name="withdraw"),
    path(B + "results/erratum/", views.erratum, name="erratum"),
    path(V, views.bakeoff_results, name="version"),
    path(V + "f.svg", views.bakeoff_plot, {"metric": "f"}, name="version-f-plot"),
    path(V + "oov.svg", views.bakeoff_plot, {"metric": "oov"}, name="version-oov-plot"),
    path(VT, views.track_results, name="version-track"),
    path(VT + "results.csv", views.results_csv, name="version-csv"),
    path(
        VT + "results-excel.csv",
        views.results_csv,
        {"excel": True},
        name="version-excel-csv",
    ),
    path(VT + "results.json", views.results_json, name="version-json"),
    path(VT + "results.tex", views.results_tex, name="version-tex"),
    path(VT + "f.svg", views.track_plot, name="version-plot"),
    path(VT + "runs/<id:pk>/", views.run_results, name="version-run"),
    path(B + "results/f.svg", views.bakeoff_plot, {"metric": "f"}, name="f-plot"),
    path(B + "results/oov.svg", views.bakeoff_plot, {"metric": "oov"}, name="oov-plot"),
    path(T, views.track_results, name="track"),
    path(T + "domains/", views.track_domains, name="track-domains"),
    path(T + "results.csv", views.results_csv, name="csv"),
    path(T + "results-excel.csv", views.results_csv, {"excel": True}, name="excel-csv"),
    path(T + "results.json", views.results_json, name="json"),
    path(T + "results.tex", views.results_tex, name="tex"),
    path(T + "f.svg", views.track_plot, name="track-plot"),
    path(T + "runs/<id:pk>/", views.run_results, name="run"),
    path(T + "runs/<id:pk>/comparison.txt", views.run_comparison, name="comparison"),
]
