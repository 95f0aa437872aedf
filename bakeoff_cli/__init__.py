"""``bakeoff``: the participants' command-line client of the platform's REST API.

Installed with the scoring library (``pip install .`` puts ``bakeoff`` and ``bakeoff-score`` on
the path). It talks to the server named by ``BAKEOFF_URL`` with the token in ``BAKEOFF_TOKEN``,
or those ``bakeoff login`` stored in its configuration file. Standard library only (urllib), and
the scoring library for ``validate``, which checks a run locally, as the server will.

Every command prints for people, or JSON with ``--json``; an error is one line on stderr
(``bakeoff: CODE: message``) and a non-zero exit status: 1 for a refusal of the server or a
check that failed, 2 for a command that cannot run (no server, no token, a missing file).
"""
