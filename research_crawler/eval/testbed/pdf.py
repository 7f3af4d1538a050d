"""A tiny but valid one-page PDF, so the testbed's "PDF" links return real `application/pdf` bodies."""

from __future__ import annotations

__all__ = ["tiny_pdf"]


def tiny_pdf(title: str, lines: list[str]) -> bytes:
    """A one-page PDF showing `title` and `lines` in Helvetica (non-Latin-1 characters become '?')."""
    text_ops = ["BT", "/F1 14 Tf", "72 760 Td", f"({_pdf_string(title[:90])}) Tj", "/F1 10 Tf"]
    for line in lines[:40]:
        text_ops += ["0 -16 Td", f"({_pdf_string(line[:110])}) Tj"]
    text_ops.append("ET")
    stream = "\n".join(text_ops).encode("latin-1")
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> "
        b"/Contents 5 0 R >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        b"<< /Length " + str(len(stream)).encode() + b" >>\nstream\n" + stream + b"\nendstream",
    ]
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets: list[int] = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref_at = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{offset:010d} 00000 n \n".encode() for offset in offsets)
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref_at}\n%%EOF\n".encode()
    return bytes(out)


def _pdf_string(text: str) -> str:
    latin = text.encode("latin-1", errors="replace").decode("latin-1")
    return latin.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
