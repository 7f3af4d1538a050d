"""Finds the weights of a reranker model on disk — a local directory, the Hugging Face cache, or a download.

Loading always happens from a local directory, so a missing model fails at once with a clear message
instead of after the minute of network retries that `transformers` spends on an unreachable Hub.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

from research_crawler.config.settings import RerankSettings
from research_crawler.errors import ConfigError

__all__ = ["WEIGHT_FILES_IGNORED", "download_reranker_weights", "resolve_model_dir"]

logger = logging.getLogger(__name__)

#: Files of a Hub repository that scoring never reads (other runtimes' exports, images); not downloaded.
WEIGHT_FILES_IGNORED = (
    "*.onnx",
    "onnx/*",
    "openvino/*",
    "*.h5",
    "*.msgpack",
    "*.ot",
    "*.gguf",
    "assets/*",
    "*.png",
    "*.jpg",
)


def resolve_model_dir(
    name: str,
    *,
    cache_dir: Path | None,
    download: bool,
    alternatives: str,
    marker_files: tuple[str, ...] = ("config.json",),
) -> Path:
    """The local directory holding the model `name` (a directory or a Hub id), downloading it if allowed.

    Args:
        name: a local directory, or a Hub id such as ``BAAI/bge-reranker-v2-m3``.
        cache_dir: the Hugging Face cache to look in and download to; None means the default cache.
        download: fetch a Hub model that is not cached yet (False: only the cache is looked at).
        alternatives: appended to every error, to say what the user can do instead.
        marker_files: a model directory holds at least one of these.

    Raises:
        ConfigError: the directory does not exist or holds no model, or the Hub model is neither cached
            nor downloadable.
    """
    candidate = Path(name).expanduser()
    if candidate.is_dir():
        path = candidate.resolve()
    elif _looks_like_path(name):
        raise ConfigError(f"the model directory {name!r} does not exist. {alternatives}")
    elif (cached := _cached_snapshot(name, cache_dir=cache_dir, alternatives=alternatives)) is not None:
        path = cached
    elif not download:
        raise ConfigError(f"the model {name!r} is not in the Hugging Face cache. {alternatives}")
    else:
        logger.info("model %s is not cached; downloading it from the Hugging Face Hub", name)
        path = _download(name, cache_dir=cache_dir, alternatives=alternatives)
    if not any((path / marker).is_file() for marker in marker_files):
        raise ConfigError(
            f"{path} is not a model directory: it holds none of {', '.join(marker_files)}. {alternatives}"
        )
    return path


def download_reranker_weights(settings: RerankSettings) -> Path:
    """Fetch the bge reranker's weights now (``research-crawler models download``) and return their directory.

    For users who want the weights ready before their first query, or on a machine that is online only
    sometimes. A `bge_model` that is already a local directory is returned as it is.

    Raises:
        ConfigError: the Hub cannot be reached (offline, ``HF_HUB_OFFLINE=1``), the model does not exist,
            or the files cannot be written; the message says why.
    """
    candidate = Path(settings.bge_model).expanduser()
    if candidate.is_dir():
        logger.info("bge_model %s is a local directory; nothing to download", candidate)
        return candidate.resolve()
    if _looks_like_path(settings.bge_model):
        raise ConfigError(f"rerank.bge_model {settings.bge_model!r} is a path to a directory that does not exist")
    return _download(
        settings.bge_model,
        cache_dir=settings.cache_dir,
        alternatives="The minilm and bm25 rerankers need no download: --reranker minilm or --reranker bm25.",
    )


def _looks_like_path(name: str) -> bool:
    """Whether `name` was meant as a directory rather than a Hub id (``owner/name`` has one slash)."""
    return name.startswith(("/", ".", "~")) or name.count("/") > 1 or (os.sep != "/" and os.sep in name)


def _cached_snapshot(name: str, *, cache_dir: Path | None, alternatives: str) -> Path | None:
    from huggingface_hub import snapshot_download
    from huggingface_hub.errors import HFValidationError, LocalEntryNotFoundError

    try:
        path = snapshot_download(
            name,
            cache_dir=cache_dir,
            local_files_only=True,
            ignore_patterns=list(WEIGHT_FILES_IGNORED),
        )
    except HFValidationError as exc:
        raise ConfigError(
            f"{name!r} is neither an existing directory nor a Hugging Face Hub id ({exc}). {alternatives}"
        ) from exc
    except (LocalEntryNotFoundError, FileNotFoundError):
        return None
    return Path(path)


def _download(name: str, *, cache_dir: Path | None, alternatives: str) -> Path:
    from huggingface_hub import snapshot_download
    from huggingface_hub.errors import (
        GatedRepoError,
        HFValidationError,
        LocalEntryNotFoundError,
        RepositoryNotFoundError,
    )

    where = f" into {cache_dir}" if cache_dir is not None else ""
    try:
        path = snapshot_download(name, cache_dir=cache_dir, ignore_patterns=list(WEIGHT_FILES_IGNORED))
    except LocalEntryNotFoundError as exc:
        raise ConfigError(
            f"cannot download the model {name!r}{where}: the Hugging Face Hub cannot be reached (no network, "
            f"or HF_HUB_OFFLINE=1) and no copy is cached. {alternatives}"
        ) from exc
    except RepositoryNotFoundError as exc:  # GatedRepoError too: the Hub answers "not found" to a missing token
        kind = "is gated and needs an access token" if isinstance(exc, GatedRepoError) else "does not exist"
        raise ConfigError(f"the Hugging Face Hub model {name!r} {kind}. {alternatives}") from exc
    except HFValidationError as exc:
        raise ConfigError(f"{name!r} is not a valid Hugging Face Hub id ({exc}). {alternatives}") from exc
    except Exception as exc:  # network, HTTP and disk errors of the download, translated at this boundary
        raise ConfigError(f"downloading the model {name!r}{where} failed: {exc}. {alternatives}") from exc
    logger.info("model %s is ready in %s", name, path)
    return Path(path)
