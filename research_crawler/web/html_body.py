"""Is a response body an HTML page, and what text does it hold: content-type checks, sniffing, decoding.

A PDF or an image labelled text/html must never reach an LLM as text, and a wrong or unknown charset
must never crash the crawl: decoding follows the WHATWG order (BOM, header, ``<meta>``, UTF-8), with two
corrections where the bytes plainly contradict what is declared, or nothing is:

- a body declared in any other charset than UTF-8 (Latin-1, Windows-1252, EUC-KR, Shift_JIS, GBK…) whose non-ASCII
  bytes all form valid UTF-8 sequences is UTF-8. Servers' default ``charset=ISO-8859-1``, templates' stale
  ``<meta>`` declarations and archives that re-encode a page to UTF-8 but keep its ``<meta charset=euc-kr>``
  mislabel UTF-8 pages often, while text in another charset whose bytes happen to pair up as UTF-8 sequences
  ("Ã©" written on purpose) is vanishingly rare;
- a body that declares no charset at all and is not valid UTF-8 is decoded in the charset charset-normalizer
  detects (a page saved from an EUC-KR or Windows-1252 site without its header), not as UTF-8 full of U+FFFD.
"""

from __future__ import annotations

import codecs

from w3lib.encoding import html_body_declared_encoding, html_to_unicode, http_content_type_encoding, read_bom

__all__ = [
    "HTML_MEDIA_TYPES",
    "binary_kind",
    "decode_html",
    "decode_html_as",
    "is_textual",
    "media_type",
    "non_html_reason",
]

HTML_MEDIA_TYPES: frozenset[str] = frozenset({"text/html", "application/xhtml+xml"})

#: Leading bytes of formats that are never HTML, whatever the Content-Type says.
_SIGNATURES: tuple[tuple[bytes, str], ...] = (
    (b"%PDF", "a PDF document"),
    (b"\x89PNG", "a PNG image"),
    (b"GIF8", "a GIF image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"RIFF", "a RIFF file (WebP, WAV or AVI)"),
    (b"PK\x03\x04", "a ZIP archive (or an Office document)"),
    (b"\x1f\x8b", "gzip-compressed data"),
    (b"7z\xbc\xaf\x27\x1c", "a 7z archive"),
    (b"Rar!", "a RAR archive"),
    (b"\x7fELF", "an executable"),
    (b"%!PS", "a PostScript document"),
    (b"\xd0\xcf\x11\xe0", "an old Office document"),
    (b"{\\rtf", "an RTF document"),
    (b"OggS", "an Ogg media file"),
    (b"ID3", "an MP3 file"),
)
_UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")
_HTML_MARKERS = (
    b"<!doctype html",
    b"<html",
    b"<head",
    b"<body",
    b"<title",
    b"<meta",
    b"<div",
    b"<p>",
    b"<a ",
)
_SNIFF_BYTES = 1024
#: The legacy encodings web pages are written in (the WHATWG Encoding Standard's, as Python names them): a detector
#: asked about these alone never takes a page for a DOS or Mac code page.
_WEB_LEGACY_ENCODINGS: tuple[str, ...] = (
    *(f"cp{number}" for number in (1252, 1250, 1251, 1253, 1254, 1255, 1256, 1257, 1258, 874, 866)),
    *(f"iso8859_{number}" for number in (2, 3, 4, 5, 6, 7, 8, 10, 13, 14, 15, 16)),
    *("koi8_r", "koi8_u", "gb18030", "big5", "euc_jp", "iso2022_jp", "shift_jis", "cp949"),
)


def media_type(content_type: str | None) -> str:
    """The media type of a Content-Type header, lower-cased, without parameters ('' when absent)."""
    return (content_type or "").split(";", 1)[0].strip().lower()


def binary_kind(body: bytes) -> str | None:
    """What binary format `body` starts with ("a PDF document", …), or None when it may be text."""
    head = body[:_SNIFF_BYTES].lstrip(b"\t\n\r \xef\xbb\xbf")
    for signature, what in _SIGNATURES:
        if head.startswith(signature):
            return what
    if b"\x00" in body[:_SNIFF_BYTES] and not body.startswith(_UTF16_BOMS):
        return "binary data (NUL bytes)"
    return None


def is_textual(body: bytes, content_type: str | None) -> bool:
    """True for text that is not HTML but still worth keeping for tools (XML, JSON, plain text)."""
    declared = media_type(content_type)
    textual_type = not declared or declared.startswith("text/") or declared.endswith(("/xml", "+xml", "/json", "+json"))
    return textual_type and binary_kind(body) is None


def non_html_reason(body: bytes, content_type: str | None) -> str | None:
    """Why `body` is not an HTML page we may read, or None when it is.

    The declared type must be HTML (or absent, then the bytes must look like HTML), and the first bytes
    must not be a known binary signature or contain NUL bytes (UTF-16 text with a BOM excepted).
    """
    declared = media_type(content_type)
    binary = binary_kind(body)
    if binary is not None:
        label = f" labelled {declared}" if declared else ""
        return f"the body is {binary}{label}, not HTML"
    head = body[:_SNIFF_BYTES].lstrip(b"\t\n\r \xef\xbb\xbf")
    if declared in HTML_MEDIA_TYPES:
        return None
    if not declared:
        if any(marker in head.lower() for marker in _HTML_MARKERS):
            return None
        return "no Content-Type and the body does not look like HTML"
    return f"Content-Type {declared} is not HTML"


def decode_html(body: bytes, content_type: str | None) -> str:
    """Decode an HTML body: BOM, then the header's charset, then ``<meta charset>``, then UTF-8 (a Western
    single-byte label over valid UTF-8 bytes yields to UTF-8).

    Unknown charset names are skipped, and undecodable bytes become U+FFFD, so this never raises.
    """
    return decode_html_as(body, content_type)[1]


def decode_html_as(body: bytes, content_type: str | None) -> tuple[str, str]:
    """`decode_html`, with the name of the encoding it used (``utf8``, ``cp1252``…)."""
    encoding, text = html_to_unicode(content_type, body)
    if not body.isascii() and not _is_utf(encoding):
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError:
            pass
        else:
            encoding = "utf-8"
    elif _is_utf(encoding) and not _declares_charset(body, content_type) and (detected := _detected(body)):
        encoding, text = detected
    return encoding, text.replace("\x00", "\ufffd")


def _is_utf(encoding: str) -> bool:
    """Whether a codec name is one of the Unicode encodings (UTF-8, UTF-16, UTF-32)."""
    try:
        return codecs.lookup(encoding).name.startswith("utf")
    except LookupError:
        return False


def _declares_charset(body: bytes, content_type: str | None) -> bool:
    """Whether the body's charset is declared: a byte-order mark, the header's charset or a ``<meta>``'s."""
    return bool(read_bom(body)[0] or http_content_type_encoding(content_type) or html_body_declared_encoding(body))


def _detected(body: bytes) -> tuple[str, str] | None:
    """(encoding, text) for a body that declares no charset and is not valid UTF-8, in the charset
    charset-normalizer finds; None when the body is valid UTF-8 or nothing better is found."""
    try:
        body.decode("utf-8")
    except UnicodeDecodeError:
        pass
    else:
        return None
    from charset_normalizer import from_bytes

    matches = from_bytes(body, cp_isolation=list(_WEB_LEGACY_ENCODINGS))
    best = matches.best()
    if best is None or _is_utf(best.encoding):
        return None
    # where several read the bytes equally well, the one whose text reads as the most languages' words (Czech in
    # Windows-1250 gives "řekl", in -1252 "øekl", which only Danish and Norwegian spell so), then the more common
    # on the web (French reads the same in Windows-1250 and -1252)
    ties = [m for m in matches if (m.chaos, m.coherence) == (best.chaos, best.coherence)]
    chosen = min(ties, key=lambda m: (-_coherence_over_languages(str(m)), _WEB_LEGACY_ENCODINGS.index(m.encoding)))
    return chosen.encoding, str(chosen)


def _coherence_over_languages(text: str) -> float:
    """charset-normalizer's coherence of `text` with each language it may be written in, summed."""
    from charset_normalizer.cd import coherence_ratio

    return round(sum(ratio for _, ratio in coherence_ratio(text)), 6)
