"""Files for Chinese desks (issue 28): a CSV that Excel on a Chinese Windows opens right (UTF-8
with a byte-order mark) beside the plain one, and a LaTeX table that says how to compile Chinese
names and compiles with XeLaTeX and xeCJK where XeLaTeX is installed."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.test import Client

from bakeoff.models import Bakeoff, Site, Track
from leaderboard.exports import BOM, for_excel
from tests.factories import WORKED_RUN, publish, upload
from tests.hints import OnCommit

TRACK = "/bakeoffs/b2026/tracks/pk-closed/"


def test_the_excel_csv_is_the_plain_one_with_a_bom_and_crlf() -> None:
    assert for_excel("a,b\n北京,1\n") == "\ufeffa,b\r\n北京,1\r\n"
    assert BOM.encode("utf-8") == b"\xef\xbb\xbf"


@pytest.fixture
def chinese_site(
    participant: User, site: Site, bakeoff: Bakeoff, closed: Track, on_commit: OnCommit
) -> Track:
    Site.objects.filter(pk=site.pk).update(name="北京大学计算语言学研究所", institution="北京大学")
    upload(participant, closed, WORKED_RUN, on_commit)
    publish(bakeoff)
    return closed


@pytest.mark.django_db
def test_the_track_page_offers_both_csvs(anonymous: Client, chinese_site: Track) -> None:
    page = anonymous.get(TRACK, headers={"accept-language": "zh-CN"}).content.decode()
    assert f'href="{TRACK}results-excel.csv"' in page and "用于 Excel" in page
    plain = anonymous.get(TRACK + "results.csv")
    excel = anonymous.get(TRACK + "results-excel.csv")
    assert not plain.content.startswith(b"\xef\xbb\xbf")
    assert excel.content.startswith(b"\xef\xbb\xbf")
    assert excel["Content-Disposition"].endswith('-results.excel.csv"')
    text = excel.content.decode("utf-8-sig")
    assert "北京大学计算语言学研究所" in text
    assert text.replace("\r\n", "\n") == plain.content.decode("utf-8")


@pytest.mark.django_db
def test_the_latex_table_compiles_with_chinese_names(
    anonymous: Client, chinese_site: Track, tmp_path: Path
) -> None:
    table = anonymous.get(TRACK + "results.tex").content.decode()
    assert "\\usepackage{xeCJK}" in table and "ctexart" in table  # the header says how
    assert "北京大学计算语言学研究所" in table
    xelatex = shutil.which("xelatex")
    if xelatex is None:
        pytest.skip("xelatex is not installed (apt-get install texlive-xetex texlive-lang-chinese)")
    document = tmp_path / "table.tex"
    document.write_text(
        "\\documentclass{article}\n\\usepackage{booktabs}\n\\usepackage{url}\n"
        "\\usepackage{xeCJK}\n\\setCJKmainfont{Noto Serif CJK SC}\n"
        f"\\begin{{document}}\n{table}\n\\end{{document}}\n",
        encoding="utf-8",
    )
    done = subprocess.run(
        [xelatex, "-interaction=nonstopmode", "-halt-on-error", document.name],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:]
    assert (tmp_path / "table.pdf").stat().st_size > 0
