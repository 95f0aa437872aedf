"""The edges of reading files and the messages about them (docs/validation.md, issue 14): byte
order marks, carriage returns, trailing empty lines, empty runs, and errors that name the file."""

from pathlib import Path

import pytest

from scoring import (
    Dictionary,
    LineCountError,
    RunValidationError,
    build_gold_index,
    score_run,
    validate_run,
)
from scoring.cli import main
from scoring.core.dictionary import EMPTY_DICTIONARY
from scoring.core.segmentation import parse
from scoring.core.text import split_lines, strip_separators, words_of

BOM = "\ufeff"
GOLD = "结婚 的 和 尚未 结婚 的\n"


def run_cli(capsys: pytest.CaptureFixture[str], *argv: object) -> tuple[int, str, str]:
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, out, err


# -- byte order marks -------------------------------------------------------------------------


def test_only_the_first_of_two_boms_is_dropped() -> None:
    data = (BOM + BOM + "的 一\n").encode()
    assert parse(data).line_words(0) == [BOM + "的", "一"]
    assert parse(data.decode()).line_words(0) == [BOM + "的", "一"]  # a str: the same rule
    gold = build_gold_index(data, Dictionary.from_words(["的", "一"]))
    assert gold.line_words(0) == [BOM + "的", "一"]
    assert gold.oov_words == 1  # U+FEFF的 is no word of the list
    assert score_run(data, gold).f == 1.0


def test_a_word_list_with_two_boms_reads_alike_with_lf_and_crlf() -> None:
    words = [BOM + "的", "一", "是"]
    gold = (BOM + BOM + "的 一 是\n").encode()
    oov = []
    for ending in ("\n", "\r\n"):
        listed = (BOM + ending.join(words) + ending).encode()
        dictionary = Dictionary.from_word_list(listed)
        assert dictionary.words == frozenset(words)
        oov.append(build_gold_index(gold, dictionary).oov_words)
    assert oov == [0, 0]


def test_the_command_line_keeps_a_second_bom(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "words").write_bytes((BOM + "的\n一\n").encode())
    (tmp_path / "gold").write_bytes((BOM + BOM + "的 一\n").encode())
    (tmp_path / "run").write_bytes((BOM + BOM + "的 一\n").encode())
    files = [tmp_path / name for name in ("gold", "run")]
    status, out, _ = run_cli(capsys, "score", "--dict", tmp_path / "words", *files)
    assert status == 0
    assert "=== F MEASURE:\t1.000" in out
    assert "=== OOV Rate:\t0.500" in out  # U+FEFF的 is OOV, 一 is not
    status, out, _ = run_cli(capsys, "table", "--dict", tmp_path / "words", *files)
    assert status == 0 and "TOP" in out


# -- carriage returns -------------------------------------------------------------------------


def test_a_lone_cr_is_a_character_not_a_separator() -> None:
    assert words_of("结婚\r的") == ["结婚\r的"]
    assert strip_separators("结婚\r的 和") == "结婚\r的和"
    gold = build_gold_index(GOLD, EMPTY_DICTIONARY)
    with pytest.raises(RunValidationError) as caught:
        score_run("结婚\r的 和 尚未 结婚 的\n", gold)
    assert (caught.value.line, caught.value.column, caught.value.found) == (1, 3, "\r")
    # Shown escaped, so that the message does not jump back to the start of the line.
    assert "found '\\r' (U+000D)" in str(caught.value)


def test_a_cr_that_ends_a_line_belongs_to_the_line_ending() -> None:
    crlf = "结婚 的 和 尚未 结婚 的 \r\n"
    assert score_run(crlf, build_gold_index(GOLD, EMPTY_DICTIONARY)).f == 1.0
    assert split_lines("a\r\r\nb\r") == ["a\r", "b"]
    assert words_of("a\r") == ["a"]
    # The last line of a file may end in a CR without its LF.
    assert parse("结婚 的\r".encode()).line_words(0) == ["结婚", "的"]
    assert parse("结婚 的\r\r\n").line_words(0) == ["结婚", "的\r"]


# -- lines ------------------------------------------------------------------------------------


def test_a_run_without_the_golds_trailing_empty_line_is_accepted() -> None:
    gold = build_gold_index(GOLD + "\n", EMPTY_DICTIONARY)
    assert gold.line_count == 2
    score = score_run(GOLD, gold)
    assert (score.true_words, score.test_words, score.correct) == (6, 6, 6)
    # Empty lines in excess at the end change nothing either.
    assert score_run(GOLD + "\n\n\n", gold) == score
    assert validate_run(GOLD, "结婚的和尚未结婚的\n\n").word_count == 6


def test_a_missing_line_with_characters_is_still_refused_and_named() -> None:
    gold = build_gold_index(GOLD + "\n我们 走\n", EMPTY_DICTIONARY)
    with pytest.raises(LineCountError) as caught:
        score_run(GOLD, gold)
    error = caught.value
    assert (error.line, error.column, error.expected, error.found) == (3, 1, "我", "")
    assert "the run has 1 lines and the test text 3" in str(error)


def test_an_empty_run_says_so() -> None:
    gold = build_gold_index(GOLD, EMPTY_DICTIONARY)
    with pytest.raises(LineCountError, match="the run is an empty file, and the test text has 1"):
        score_run(b"", gold)


# -- the command line -------------------------------------------------------------------------


@pytest.fixture
def files(tmp_path: Path) -> Path:
    (tmp_path / "words").write_text("结婚\n的\n", encoding="utf-8")
    (tmp_path / "gold").write_text(GOLD, encoding="utf-8")
    (tmp_path / "run").write_text("结婚 的 和尚 未结婚 的\n", encoding="utf-8")
    (tmp_path / "gbk").write_bytes("结婚 的 和尚 未结婚 的\n".encode("gb18030"))
    return tmp_path


def test_a_decoding_error_names_the_file_and_what_it_is(
    files: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, err = run_cli(
        capsys, "score", "--dict", files / "words", files / "gold", files / "gbk"
    )
    assert status == 1
    assert err.startswith(f"error: {files / 'gbk'} (the run): line 1: the bytes at offset 0")
    (files / "gold_gbk").write_bytes(GOLD.encode("gb18030"))
    status, _, err = run_cli(
        capsys, "score", "--dict", files / "words", files / "gold_gbk", files / "run"
    )
    assert err.startswith(f"error: {files / 'gold_gbk'} (the gold standard): line 1")


def test_each_file_can_have_its_own_encoding(
    files: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (files / "words_big5").write_bytes("結婚\n".encode("big5hkscs"))
    argv = ["score", "--dict", files / "words", files / "gold", files / "gbk"]
    status, out, err = run_cli(capsys, *argv, "--run-encoding", "gbk")
    assert status == 0, err
    assert "=== F MEASURE:\t0.545" in out
    # --encoding for every file, and one file's own option over it.
    status, _, err = run_cli(capsys, *argv, "--encoding", "gbk", "--gold-encoding", "utf-8")
    assert "(the word list)" in err  # the word list is UTF-8, read as GBK
    status, _, err = run_cli(
        capsys, *argv, "--encoding", "gbk", "--gold-encoding", "utf-8", "--dict-encoding", "utf8"
    )
    assert status == 0, err


def test_table_names_the_run_that_fails(files: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run_cli(
        capsys, "table", "--dict", files / "words", files / "gold", files / "run", files / "gbk"
    )
    assert status == 1 and err.startswith(f"error: {files / 'gbk'} (the run): line 1")
    (files / "short").write_text("", encoding="utf-8")
    status, _, err = run_cli(
        capsys, "table", "--dict", files / "words", files / "gold", files / "run", files / "short"
    )
    assert err.startswith(f"error: {files / 'short'} (a run): line 1, column 1:")
    assert "the run is an empty file" in err


def test_maxmatch_warns_about_an_empty_word_list(
    files: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (files / "none").write_text("\n", encoding="utf-8")
    (files / "text").write_text("结婚的\n", encoding="utf-8")
    status, out, err = run_cli(capsys, "maxmatch", "--dict", files / "none", files / "text")
    assert (status, out) == (0, "结 婚 的\n")
    assert err.startswith(f"warning: {files / 'none'}: the word list has no words")


def test_help_explains_every_argument_without_markup(capsys: pytest.CaptureFixture[str]) -> None:
    for command, expected in (
        ("table", ["the runs to rank", "the gold standard (segmented)"]),
        ("validate", ["the run to check", "the test text (one unsegmented sentence a line)"]),
        ("buckets", ["Print the F of RUN in every bucket"]),
        ("score", ["--run-encoding", "--gold-encoding", "--dict-encoding"]),
    ):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        out = capsys.readouterr().out
        for text in expected:
            assert text in out, (command, text)
        assert "``" not in out
