"""Token counting offline: tiktoken's own loader reads the encodings from its cache directory, seeded from the
packaged copy, and never downloads (a download attempt fails these tests)."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
import tiktoken
import tiktoken.load
import tiktoken.registry

from research_crawler.text.tokens import count_tokens, encoding


@pytest.fixture
def fresh_tiktoken(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """No encoding loaded yet, and any download raises."""

    def no_download(blobpath: str) -> bytes:
        raise AssertionError(f"tiktoken tried to download {blobpath}")

    monkeypatch.setattr(tiktoken.load, "read_file", no_download)
    monkeypatch.setattr(tiktoken.registry, "ENCODINGS", {})
    encoding.cache_clear()
    yield
    encoding.cache_clear()


def cache_file(folder: Path, name: str) -> Path:
    url = f"https://openaipublic.blob.core.windows.net/encodings/{name}.tiktoken"
    return folder / hashlib.sha1(url.encode()).hexdigest()


def test_tokens_are_tiktokens() -> None:
    assert encoding("cl100k_base").encode("hello world") == [15339, 1917]
    assert count_tokens("hello world") == 2
    assert count_tokens("<|endoftext|>") > 1  # special-token text counted as plain text
    with pytest.raises(ValueError, match="unknown encoding"):
        encoding("p50k_base")


@pytest.mark.usefixtures("fresh_tiktoken")
def test_a_chosen_cache_directory_is_seeded_and_read_by_tiktoken(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tmp_path / "chosen"))
    assert encoding("o200k_base").encode("hello world") == [24912, 2375]
    assert cache_file(tmp_path / "chosen", "o200k_base").is_file()
    assert tiktoken.get_encoding("o200k_base") is encoding("o200k_base")  # the registry's own, for AG2 too
    assert tiktoken.encoding_for_model("gpt-4o") is encoding("o200k_base")


@pytest.mark.usefixtures("fresh_tiktoken")
def test_an_unwritable_cache_directory_falls_back_to_a_private_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(blocker / "cache"))
    assert encoding("cl100k_base").encode("hello world") == [15339, 1917]
    used = Path(os.environ["TIKTOKEN_CACHE_DIR"])
    assert used.name.startswith("research-crawler-tiktoken-") and cache_file(used, "cl100k_base").is_file()
