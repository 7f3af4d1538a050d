"""Files a user hands us are read as data: within a size limit, as UTF-8, YAML without aliases; each problem is one
line naming the file (and the line or byte)."""

from __future__ import annotations

import os
import resource
import threading
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from research_crawler.config.user_files import load_yaml, read_user_file, user_file_lines
from research_crawler.errors import ConfigError

#: Nine nested anchors, 9 copies each: 9**9 (387 million) strings once expanded, from a file under 700 bytes.
ALIAS_BOMB = "\n".join(
    [
        "- query: graph neural networks",
        "  settings:",
        '    a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
        *[
            f"    {name}: &{name} [{','.join([f'*{previous}'] * 9)}]"
            for previous, name in zip("abcdefgh", "bcdefghi", strict=True)
        ],
    ]
)


def test_an_alias_bomb_is_refused_before_anything_expands(tmp_path: Path) -> None:
    path = tmp_path / "bomb.yaml"
    path.write_text(ALIAS_BOMB, encoding="utf-8")
    assert path.stat().st_size < 700
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    with pytest.raises(ConfigError) as refused:
        load_yaml(read_user_file(path, what="the batch file"), path=path, what="the batch file")
    message = str(refused.value)
    assert "aliases (*a) are not accepted" in message and "line 4" in message and str(path) in message
    assert "\n" not in message
    grown_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    assert grown_kib < 50 * 1024, f"the process grew by {grown_kib} KiB"


def test_plain_yaml_and_anchors_without_aliases_still_load(tmp_path: Path) -> None:
    text = "- query: x\n  settings: &s {explore: {max_subpages: 2}}\n- y\n"
    assert load_yaml(text, path=tmp_path / "q.yaml", what="the batch file") == [
        {"query": "x", "settings": {"explore": {"max_subpages": 2}}},
        "y",
    ]


def test_merge_keys_are_aliases_too(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="aliases"):
        load_yaml("a: &a {x: 1}\nb:\n  <<: *a\n", path=tmp_path / "q.yaml", what="the batch file")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("- [unclosed\n", "not valid YAML at line 2, column 1"),
        ("a: 1\n  b: 2\n", "not valid YAML at line 2, column 4"),
        ("[" * 20000, "nested too deeply"),
        ("!!python/object:os.system {}\n", "not valid YAML"),
    ],
)
def test_bad_yaml_is_one_line_with_its_place(tmp_path: Path, text: str, expected: str) -> None:
    with pytest.raises(ConfigError) as refused:
        load_yaml(text, path=tmp_path / "q.yaml", what="the batch file")
    assert expected in str(refused.value) and "\n" not in str(refused.value)


def test_a_file_that_is_not_utf8_names_the_byte_and_its_offset(tmp_path: Path) -> None:
    path = tmp_path / "q.yaml"
    path.write_bytes("- query: é\n".encode() + b"- query: caf\xe9\n")
    with pytest.raises(ConfigError) as refused:
        read_user_file(path, what="the batch file")
    message = str(refused.value)
    assert "not UTF-8 text: byte 0xe9 at offset 24 (line 2)" in message
    assert f"iconv -f latin1 -t utf-8 {path}" in message


def test_a_bom_is_allowed(tmp_path: Path) -> None:
    path = tmp_path / "q.yaml"
    path.write_bytes(b"\xef\xbb\xbf- x\n")
    assert read_user_file(path, what="the batch file") == "- x\n"


def test_size_directories_devices_and_missing_files(tmp_path: Path) -> None:
    big = tmp_path / "big.yaml"
    big.write_bytes(b"#" * 2049)
    with pytest.raises(ConfigError, match="larger than"):
        read_user_file(big, what="the batch file", max_bytes=2048)
    with pytest.raises(ConfigError, match="is a directory, not a file"):
        read_user_file(tmp_path, what="the batch file")
    with pytest.raises(ConfigError, match="not a regular file"):
        read_user_file(Path("/dev/zero"), what="the settings file")
    with pytest.raises(ConfigError, match="does not exist"):
        read_user_file(tmp_path / "absent.yaml", what="the batch file")


def test_a_pipe_is_read_within_the_limit(tmp_path: Path) -> None:
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)

    def endless_writer() -> None:
        try:
            with pipe.open("wb") as handle:
                while True:
                    handle.write(b"x" * 65536)
        except (BrokenPipeError, ValueError):
            pass

    writer = threading.Thread(target=endless_writer, daemon=True)
    writer.start()
    with pytest.raises(ConfigError, match="larger than"):
        read_user_file(pipe, what="the batch file", max_bytes=1024 * 1024)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=200))
def test_any_bytes_give_text_or_one_config_error_line(data: bytes) -> None:
    path = Path(f"/tmp/research-crawler-hypothesis-{os.getpid()}.yaml")
    path.write_bytes(data)
    try:
        text = read_user_file(path, what="the batch file")
        load_yaml(text, path=path, what="the batch file")
    except ConfigError as exc:
        assert "\n" not in str(exc)
    except yaml.YAMLError as exc:  # pragma: no cover — the loader must translate every YAML error
        pytest.fail(f"untranslated YAML error: {exc}")
    finally:
        path.unlink(missing_ok=True)


def test_a_file_read_line_by_line_is_never_read_whole(tmp_path: Path) -> None:
    path = tmp_path / "queries.jsonl"
    path.write_bytes(b"\xef\xbb\xbffirst\r\nsecond\n" + b"x" * 100 + b"\n" + b"caf\xe9\n")
    lines = user_file_lines(path, what="the batch file", max_line_bytes=200)
    assert next(lines) == (1, "first") and next(lines) == (2, "second") and next(lines) == (3, "x" * 100)
    with pytest.raises(ConfigError, match=r"byte 0xe9 at offset 121 \(line 4\)"):
        next(lines)
    path.write_bytes(b"short\n" + b"y" * 201 + b"\n")
    with pytest.raises(ConfigError, match="line 2: longer than 0 KiB, more than any entry holds"):
        list(user_file_lines(path, what="the batch file", max_line_bytes=200))
    path.write_bytes(b"y" * 200 + b"\n")
    assert list(user_file_lines(path, what="the batch file", max_line_bytes=200)) == [(1, "y" * 200)]
    with pytest.raises(ConfigError, match="is a directory"):
        list(user_file_lines(tmp_path, what="the batch file"))
