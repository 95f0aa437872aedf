from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from scoring.cli import main

GOLD = "结婚 的 和 尚未 结婚 的\n他 说 ： “ 好 。\n"
RUN = "结婚 的 和尚 未结婚 的\n他 说 ： “ 好 。 ”\n"


@pytest.fixture
def files(tmp_path: Path) -> Path:
    (tmp_path / "words").write_text("结婚\n的\n和\n", encoding="utf-8")
    (tmp_path / "gold").write_text(GOLD, encoding="utf-8")
    (tmp_path / "run").write_text(RUN, encoding="utf-8")
    (tmp_path / "test").write_text("结婚的和尚未结婚的\n他说：“好。”\n", encoding="utf-8")
    return tmp_path


def run_cli(capsys: pytest.CaptureFixture[str], *argv: object) -> tuple[int, str, str]:
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, out, err


def score_run_file(
    capsys: pytest.CaptureFixture[str], files: Path, *options: str | Path
) -> tuple[int, str, str]:
    """``score --dict words gold run OPTIONS`` on the fixture's files."""
    return run_cli(
        capsys, "score", "--dict", files / "words", files / "gold", files / "run", *options
    )


def test_score_prints_the_sighan_summary_and_warns_about_aligned_lines(
    files: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = score_run_file(capsys, files)
    assert status == 0
    assert "=== TOTAL TRUE WORD COUNT:\t12" in out
    assert "=== TOTAL TEST WORD COUNT:\t12" in out
    assert "=== F MEASURE:\t0.750" in out
    assert "1 line(s) differ" in err and "lines 2" in err


def test_score_as_json(files: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = score_run_file(capsys, files, "--format", "json")
    data = json.loads(out)
    assert status == 0
    assert (data["true_words"], data["test_words"], data["correct"]) == (12, 12, 9)
    assert data["aligned_lines"] == [2]
    assert "gold_checksum" in data["signature"]


def test_strict_refuses_a_line_that_differs(
    files: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, err = score_run_file(capsys, files, "--strict")
    assert status == 1
    assert err.startswith("error: line 2, column 7:")
    assert err.count("\n") == 1


def test_a_run_checked_against_the_test_text(
    files: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (files / "bad").write_text("结婚 的 和尚 未结婚 的\n", encoding="utf-8")
    status, _, err = run_cli(
        capsys,
        "score",
        "--dict",
        files / "words",
        "--test",
        files / "test",
        files / "gold",
        files / "bad",
    )
    assert status == 1
    assert "line 2, column 1" in err and "the run has 1 lines and the test text 2" in err


def test_a_gbk_run_is_refused_as_utf8_and_read_with_encoding(
    files: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (files / "gbk").write_bytes(RUN.encode("gb18030"))
    status, _, err = run_cli(capsys, "validate", files / "test", files / "gbk")
    assert status == 1 and "line 1" in err and "utf-8" in err
    status, _, err = run_cli(capsys, "validate", files / "test", files / "gbk", "--encoding", "gbk")
    assert status == 0, err


def test_maxmatch_segments_line_for_line(files: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_cli(capsys, "maxmatch", "--dict", files / "words", files / "test")
    assert status == 0
    assert out.splitlines()[0] == "结婚 的 和 尚 未 结婚 的"
    assert len(out.splitlines()) == 2


def test_table_ranks_runs_with_base_and_top(
    files: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (files / "copy").write_text("结婚 的 和 尚未 结婚 的\n他 说 ： “ 好 。 ”\n", encoding="utf-8")
    status, out, _ = run_cli(
        capsys,
        "table",
        "--dict",
        files / "words",
        "--test",
        files / "test",
        files / "gold",
        files / "run",
        files / "copy",
    )
    assert status == 0
    lines = out.splitlines()
    assert lines[1].split()[:2] == ["1", "copy"]
    assert lines[2].split()[:2] == ["2", "run"]
    assert any(line.startswith("BASE") or " BASE " in line for line in lines)
    assert "significantly different" in out


def test_check_lists_gold_and_test_disagreements(
    files: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run_cli(capsys, "check", files / "gold", files / "test")
    assert status == 0
    assert out.startswith("line 2, column 7: gold has the end of the line, test text has '”'")


def test_a_missing_file_is_one_line_and_status_1(
    files: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, err = run_cli(
        capsys, "score", "--dict", files / "nope", files / "gold", files / "run"
    )
    assert status == 1 and err.startswith("error:") and "nope" in err


def test_python_dash_m_scoring_runs(files: Path) -> None:
    repo = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "scoring",
            "score",
            "--dict",
            files / "words",
            files / "gold",
            files / "run",
            "--format",
            "json",
        ],
        capture_output=True,
        cwd=repo,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["correct"] == 9


def test_score_adds_balanced_figures_from_a_difficulty_file(
    files: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from scoring import Dictionary, build_gold_index
    from scoring.core.score import score_run_details
    from scoring.psychometric.balanced import balanced_score
    from scoring.psychometric.committee import committee_from_runs

    gold = build_gold_index(GOLD, Dictionary.from_words(["结婚", "的", "和"]))
    members = {
        name: score_run_details(text, gold, aligned_lines="any")
        for name, text in {"a": RUN, "b": "结婚 的 和 尚未 结婚 的\n他 说 ： “ 好 。 ”\n"}.items()
    }
    committee = committee_from_runs(members)
    committee.save(files / "difficulty.json")
    status, out, _ = score_run_file(
        capsys, files, "--format", "json", "--difficulty", files / "difficulty.json"
    )
    data = json.loads(out)
    expected = balanced_score(members["a"], committee.difficulty)
    assert status == 0
    assert data["f_b"] == pytest.approx(expected.f_b)
    assert data["precision_b"] == pytest.approx(expected.precision_b)
    assert data["recall_b"] == pytest.approx(expected.recall_b)
    status, out, _ = score_run_file(capsys, files, "--difficulty", files / "difficulty.json")
    assert f"=== BALANCED F MEASURE:\t{expected.f_b:.3f}" in out


def test_score_reads_a_difficulty_vector_without_provenance(
    files: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Another committee's vector, or a paper's release: a plain JSON list, or one number a line.
    difficulty = [0.0, 0.0, 0.5, 1.0, 0.5, 0.0, 0.0, 0.25, 0.0, 0.0, 0.0, 0.75]
    (files / "plain.json").write_text(json.dumps({"difficulty": difficulty}), encoding="utf-8")
    (files / "lines.txt").write_text("".join(f"{d}\n" for d in difficulty), encoding="utf-8")
    results = []
    for name in ("plain.json", "lines.txt"):
        status, out, err = score_run_file(
            capsys, files, "--format", "json", "--difficulty", files / name
        )
        assert status == 0, err
        assert "without provenance" in err
        data = json.loads(out)
        assert data["difficulty_provenance"] == "none"
        assert data["committee"].startswith("committee:none|values:12|vector:sha256.")
        results.append(data)
    assert results[0] == results[1]
    status, out, _ = score_run_file(capsys, files, "--difficulty", files / "lines.txt")
    assert "=== BALANCED F MEASURE:" in out
    assert "=== DIFFICULTY:\tcommittee:none|values:12|" in out and "(no provenance)" in out


def test_a_difficulty_vector_of_the_wrong_length_or_values_is_refused(
    files: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (files / "short.txt").write_text("0.5\n0.25\n", encoding="utf-8")
    status, _, err = score_run_file(capsys, files, "--difficulty", files / "short.txt")
    assert status == 1 and "short.txt: the difficulty vector has 2 values" in err
    (files / "bad.txt").write_text("0.5\nhard\n", encoding="utf-8")
    status, _, err = score_run_file(capsys, files, "--difficulty", files / "bad.txt")
    assert "bad.txt: line 2: 'hard' is not a number" in err
    (files / "big.json").write_text('{"difficulty": [1.5]}', encoding="utf-8")
    status, _, err = score_run_file(capsys, files, "--difficulty", files / "big.json")
    assert "must be numbers in [0, 1]" in err
    (files / "other.json").write_text('{"format": "x/1", "difficulty": [0]}', encoding="utf-8")
    status, _, err = score_run_file(capsys, files, "--difficulty", files / "other.json")
    assert "a difficulty file of format 'x/1'" in err
