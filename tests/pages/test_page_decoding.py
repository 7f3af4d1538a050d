"""A page's bytes read in the encoding they are written in: a declaration the bytes contradict, or none at all."""

from __future__ import annotations

import pytest

from research_crawler.web.html_body import decode_html_as

_KOREAN = "<html><head><title>{title}</title>{meta}</head><body><h1>{title}</h1><p>{body}</p></body></html>"
_TITLE = "[종합] 코로나19 신규확진 44명중 해외유입 24명"
_BODY = "경기 13명, 광주 6명, 서울 3명이 새로 확진됐다고 방역당국이 밝혔다."


@pytest.mark.parametrize(
    "meta",
    [
        '<meta http-equiv="Content-Type" content="text/html; charset=euc-kr">',
        '<meta charset="shift_jis">',
        '<meta charset="gb2312">',
    ],
)
def test_a_declared_legacy_charset_over_utf8_bytes_is_utf8(meta: str) -> None:
    """An archive's copy re-encoded to UTF-8 keeps the original's <meta charset=euc-kr>: the bytes, all valid UTF-8,
    say otherwise, and the page is read as UTF-8, not as mojibake."""
    body = _KOREAN.format(title=_TITLE, meta=meta, body=_BODY).encode("utf-8")
    encoding, text = decode_html_as(body, None)
    assert encoding == "utf-8"
    assert _TITLE in text and _BODY in text


def test_a_declared_legacy_charset_that_the_bytes_are_written_in_is_kept() -> None:
    body = _KOREAN.format(title=_TITLE, meta='<meta charset="euc-kr">', body=_BODY).encode("euc-kr")
    encoding, text = decode_html_as(body, None)
    assert encoding != "utf-8"
    assert _TITLE in text and _BODY in text


@pytest.mark.parametrize(
    ("codec", "title", "paragraph"),
    [
        ("euc-kr", _TITLE, _BODY),
        ("cp1251", "Президент заявил во вторник", "Граждане должны нести большие убытки, сказал он журналистам."),
        ("shift_jis", "日本語のニュース記事", "今日は東京で晴れの天気が続くと気象庁が発表しました。"),
        ("cp1252", "Le garçon était très âgé", "Café à côté de la gare, où l'été dure."),
        # Czech in Windows-1250, which Windows-1252 reads as well by charset-normalizer's measure ("øekl" for
        # "řekl"): the reading whose text more languages' letters make sense of
        ("cp1250", "Praha", "Ministr řekl, že rozpočet na příští rok bude vyrovnaný a že vláda chce snížit daně."),
    ],
)
def test_an_undeclared_charset_is_detected(codec: str, title: str, paragraph: str) -> None:
    """A page saved without its header and with no <meta charset>, not valid UTF-8: read in the charset its bytes
    are written in, not as UTF-8 full of replacement characters."""
    body = _KOREAN.format(title=title, meta="", body=paragraph).encode(codec)
    encoding, text = decode_html_as(body, None)
    assert title in text and paragraph in text
    assert "\ufffd" not in text and encoding != "utf-8"


def test_an_undeclared_utf8_page_stays_utf8() -> None:
    body = _KOREAN.format(title=_TITLE, meta="", body=_BODY).encode("utf-8")
    encoding, text = decode_html_as(body, None)
    assert encoding.replace("-", "") == "utf8" and text == body.decode("utf-8")
