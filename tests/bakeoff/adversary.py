"""The bakeoff an adversary probes (tests/bakeoff/test_adversary_*.py): b2026 with its PK closed
and open tracks, a paper, a development set and a run, and a persona for each kind of reader.

Personas: ``pat`` approved on PK closed, ``penny`` pending, ``rufus`` refused, ``elsa`` approved on
PK open only, ``otto`` with no site, ``mal`` organiser of another bakeoff (``other``; ``olga`` also
has a draft, ``draft``), ``olga`` the organiser, and anonymous. The fixture ``probed`` is in
tests/bakeoff/conftest.py.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import User
from django.test import Client

from bakeoff.models import Bakeoff, Corpus, Site

B = "/bakeoffs/b2026/"
# A PDF by its first and last bytes, HTML and a script in between: a polyglot.
POLYGLOT = b"%PDF-1.4\n<html><script>alert(document.cookie)</script></html>\n%%EOF\n"
HUGE = "9" * 25  # more than any database integer holds
PAGES = ("", "results.csv", "results.json", "results.tex")


@dataclass
class ProbedBakeoff:
    bakeoff: Bakeoff
    corpus: Corpus
    site: Site
    run: int
    people: dict[str, User | None]


def client(user: User | None, *, csrf: bool = False) -> Client:
    c = Client(enforce_csrf_checks=csrf, raise_request_exception=False)
    if user is not None:
        c.force_login(user)
    return c
