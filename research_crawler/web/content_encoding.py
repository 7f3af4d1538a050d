"""Decompressing a response body (gzip, deflate, br) without ever holding more than the size cap.

httpx's own decoders inflate each network chunk in full: one 64 KiB chunk of a gzip bomb becomes
~64 MB, of a brotli bomb gigabytes. These decoders are asked for at most the bytes still allowed.
"""

from __future__ import annotations

import zlib
from typing import Protocol

try:  # brotli is an optional extra of httpx; without it we simply do not advertise "br".
    import brotli as _brotli
except ImportError:  # pragma: no cover - brotli ships with crawl4ai's dependencies
    _brotli = None

__all__ = ["ACCEPT_ENCODING", "BoundedDecoder", "ContentDecodingError"]

ACCEPT_ENCODING = "gzip, deflate, br" if _brotli is not None else "gzip, deflate"


class ContentDecodingError(ValueError):
    """The body does not decompress with its declared Content-Encoding (corrupt or unsupported)."""


class _Stage(Protocol):
    def feed(self, data: bytes, limit: int) -> bytes: ...

    def finish(self, limit: int) -> bytes: ...


class _Identity:
    def feed(self, data: bytes, limit: int) -> bytes:
        return data[:limit]

    def finish(self, limit: int) -> bytes:
        return b""


class _Zlib:
    """gzip (wbits 16+), zlib-wrapped deflate, or raw deflate when the zlib header is missing."""

    def __init__(self, *, gzip: bool) -> None:
        self._gzip = gzip
        self._decompressor = zlib.decompressobj(zlib.MAX_WBITS | 16 if gzip else zlib.MAX_WBITS)
        self._first = True
        self._pending = b""

    def feed(self, data: bytes, limit: int) -> bytes:
        pending = self._pending + data
        try:
            out = self._decompressor.decompress(pending, limit)
        except zlib.error as exc:
            if self._gzip or not self._first:
                raise ContentDecodingError(f"corrupt {'gzip' if self._gzip else 'deflate'} body: {exc}") from exc
            # Some servers send raw deflate without the zlib header (httpx and browsers accept it).
            self._decompressor = zlib.decompressobj(-zlib.MAX_WBITS)
            try:
                out = self._decompressor.decompress(pending, limit)
            except zlib.error as exc2:
                raise ContentDecodingError(f"corrupt deflate body: {exc2}") from exc2
        self._first = False
        # Input not yet inflated because the output limit was reached waits for the next call.
        self._pending = self._decompressor.unconsumed_tail
        return out

    def finish(self, limit: int) -> bytes:
        if limit <= 0:
            return b""
        out = self.feed(b"", limit) if self._pending else b""
        if len(out) < limit:
            try:
                out += self._decompressor.flush(limit - len(out))
            except zlib.error as exc:  # pragma: no cover - flush rarely fails after a clean feed
                raise ContentDecodingError(f"corrupt compressed body: {exc}") from exc
        return out


class _Brotli:
    def __init__(self) -> None:
        assert _brotli is not None
        self._decompressor = _brotli.Decompressor()
        self._backlog = b""

    def feed(self, data: bytes, limit: int) -> bytes:
        assert _brotli is not None
        self._backlog += data
        out = bytearray()
        try:
            while len(out) < limit:
                if self._decompressor.can_accept_more_data():
                    if not self._backlog:
                        break
                    pending, self._backlog = self._backlog, b""
                    piece = self._decompressor.process(pending, output_buffer_limit=limit - len(out))
                else:
                    # Output held back by the last limit must be drained before new input is accepted.
                    piece = self._decompressor.process(b"", output_buffer_limit=limit - len(out))
                    if not piece:
                        break
                out += piece
        except _brotli.error as exc:
            raise ContentDecodingError(f"corrupt brotli body: {exc}") from exc
        return bytes(out)

    def finish(self, limit: int) -> bytes:
        return self.feed(b"", limit) if limit > 0 else b""


def _stage(encoding: str) -> _Stage:
    if encoding in ("", "identity"):
        return _Identity()
    if encoding in ("gzip", "x-gzip"):
        return _Zlib(gzip=True)
    if encoding == "deflate":
        return _Zlib(gzip=False)
    if encoding == "br" and _brotli is not None:
        return _Brotli()
    raise ContentDecodingError(f"unsupported Content-Encoding {encoding!r}")


class BoundedDecoder:
    """Decodes a body chunk by chunk through its Content-Encoding(s), producing at most `limit` + 1 bytes.

    The one byte beyond the limit tells the caller the body was too large without inflating more.
    """

    def __init__(self, content_encoding: str | None, *, limit: int) -> None:
        if limit < 0:
            raise ValueError("limit must be >= 0")
        names = [part.strip().lower() for part in (content_encoding or "").split(",")]
        # Encodings are listed in the order they were applied; undo them in reverse.
        self._stages = [_stage(name) for name in reversed(names) if name not in ("", "identity")] or [_Identity()]
        self._cap = limit + 1
        self._produced = 0

    @property
    def produced(self) -> int:
        """Decoded bytes handed out so far."""
        return self._produced

    @property
    def over_limit(self) -> bool:
        """True once more than `limit` decoded bytes exist."""
        return self._produced >= self._cap

    def feed(self, data: bytes) -> bytes:
        """Decode one raw chunk; returns the new decoded bytes (empty once over the limit)."""
        return self._run(data, final=False)

    def finish(self) -> bytes:
        """Flush what the decompressors still hold at the end of the body."""
        return self._run(b"", final=True)

    def _run(self, data: bytes, *, final: bool) -> bytes:
        room = self._cap - self._produced
        if room <= 0:
            return b""
        chunk = data
        for stage in self._stages:
            out = stage.feed(chunk, room) if chunk or not final else b""
            if final:
                out += stage.finish(room - len(out))
            chunk = out[:room]
        self._produced += len(chunk)
        return chunk
