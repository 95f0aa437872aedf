"""The table of mails in docs/accounts-and-mail.md lists every kind of mail the platform sends
(notifications/kinds.py), and no kind that does not exist: a new mail fails here until the
documentation names it, with when it is sent and to whom."""

from __future__ import annotations

import re
from pathlib import Path

from notifications.kinds import KINDS

DOC = Path(__file__).resolve().parents[2] / "docs" / "accounts-and-mail.md"
HEADER = "| mail | kind | sent when | to |"


def documented_kinds() -> list[str]:
    lines = DOC.read_text(encoding="utf-8").splitlines()
    start = lines.index(HEADER) + 2  # the header, then its --- line
    rows = []
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        rows.append(line)
    return [kind for row in rows for kind in re.findall(r"`([a-z_]+)`", row.split(" | ")[1])]


def test_the_mail_table_names_every_kind_of_mail_and_no_other() -> None:
    documented = documented_kinds()
    assert set(documented) == set(KINDS)


def test_every_row_of_the_mail_table_says_when_and_to_whom() -> None:
    lines = DOC.read_text(encoding="utf-8").splitlines()
    start = lines.index(HEADER) + 2
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        cells = [cell.strip() for cell in line.strip("|").split(" | ")]
        assert len(cells) == 4 and all(cells), line
