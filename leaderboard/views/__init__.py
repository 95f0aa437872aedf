"""Pages and exports of the results, by what they show: ``tables`` (a track's table, by domain,
the bakeoff's summary), ``runs`` (a run's page and comparison), ``exports`` (CSV, JSON, LaTeX,
plots) and ``publication`` (publish, withdraw, erratum); ``reading`` is what they all read first.
They read stored standings; nothing is ranked here.
"""

from .exports import bakeoff_plot, results_csv, results_json, results_tex, track_plot
from .publication import erratum, publish, withdraw
from .runs import run_comparison, run_results
from .tables import bakeoff_results, track_domains, track_results

__all__ = [
    "bakeoff_plot",
    "bakeoff_results",
    "erratum",
    "publish",
    "results_csv",
    "results_json",
    "results_tex",
    "run_comparison",
    "run_results",
    "track_domains",
    "track_plot",
    "track_results",
    "withdraw",
]
