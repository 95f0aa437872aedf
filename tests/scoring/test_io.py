from __future__ import annotations

import pytest

from scoring import EncodingError, decode, normalise_encoding, split_lines, test_text_from_gold
from scoring.core.errors import CorpusFormatError
from scoring.core.text import words_of


def test_it_drops_a_utf8_bom() -> None:
    assert decode("\ufeff结婚".encode()) == "结婚"


def test_it_keeps_a_bom_that_is_not_at_the_start() -> None:
    assert decode("结\ufeff婚".encode()) == "结\ufeff婚"


@pytest.mark.parametrize(
    ("declared", "codec"),
    [("GBK", "gb18030"), ("gb2312", "gb18030"), ("Big5", "big5hkscs"), ("UTF8", "utf-8")],
)
def test_it_reads_each_encoding_family_with_one_codec(declared: str, codec: str) -> None:
    assert normalise_encoding(declared) == codec


def test_it_decodes_gb_and_big5() -> None:
    assert decode("和尚 未".encode("gbk"), "gbk") == "和尚 未"
    assert decode("臺灣 的".encode("big5"), "big5") == "臺灣 的"


def test_it_refuses_an_unknown_encoding() -> None:
    with pytest.raises(CorpusFormatError, match="unknown encoding 'latin-1'"):
        normalise_encoding("latin-1")


def test_it_names_line_and_byte_offset_of_bytes_that_do_not_decode() -> None:
    data = "第一 行\n第二 行\n".encode() + "中文".encode("gbk") + b"\n"
    with pytest.raises(EncodingError) as caught:
        decode(data, "utf-8")
    assert caught.value.line == 3
    assert caught.value.byte_offset == 0
    assert "line 3" in str(caught.value)


def test_a_gbk_run_read_as_utf8_is_an_encoding_error_at_its_first_chinese_byte() -> None:
    data = "ab 中国\n".encode("gbk")
    with pytest.raises(EncodingError) as caught:
        decode(data)
    assert (caught.value.line, caught.value.byte_offset) == (1, 3)


def test_it_splits_lines_at_lf_only() -> None:
    # U+2028 and U+0085 are characters of a corpus, not line breaks.
    assert split_lines("a\u2028b\r\nc\x85d\n\ne") == ["a\u2028b", "c\x85d", "", "e"]


def test_a_final_lf_does_not_make_an_extra_line() -> None:
    assert split_lines("a\nb\n") == ["a", "b"]
    assert split_lines("") == []


def test_words_are_separated_by_space_tab_and_ideographic_space_only() -> None:
    assert words_of(" 结婚\t的\u3000和尚 \r") == ["结婚", "的", "和尚"]
    assert words_of("a\u00a0b c") == ["a\u00a0b", "c"]  # NBSP is data


def test_the_test_text_is_the_gold_without_whitespace() -> None:
    assert test_text_from_gold("结婚 的\u3000和\r\n\n尚未  结婚\n") == "结婚的和\n\n尚未结婚\n"
