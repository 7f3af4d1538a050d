"""Crawler-trap URLs recognisable from the URL alone: a path that repeats itself (``/a/a/a/…``,
``/x/y/x/y/x/y/``), the mark of relative links that resolve one level deeper on every page.

Heritrix's PathologicalPathDecideRule rejects a path whose segment (or run of segments) repeats more than
twice in a row; so does this, in one place, for both the queue (`navigation.save_links`) and the fetcher
(`request_gate.RequestGate`, before any request and at every redirect hop). Only consecutive repetition
counts: ``/journals/1/volumes/1/issues/1`` names the same number three times and is a real page.
"""

from __future__ import annotations

from urllib.parse import unquote, urlsplit

from research_crawler.config.settings import FetchSettings

__all__ = ["DEFAULT_MAX_PATH_REPETITION", "path_repetition_refusal", "repeated_path_run"]

#: Heritrix's default, and the settings': a segment may appear twice in a row, not three times.
DEFAULT_MAX_PATH_REPETITION: int = FetchSettings.model_fields["max_path_repetition"].default


def repeated_path_run(path: str, *, max_repetition: int = DEFAULT_MAX_PATH_REPETITION) -> tuple[str, int] | None:
    """The first run of path segments repeated more than `max_repetition` times in a row, as
    (the repeated segments joined by '/', how many times), or None when there is none.

    Segments are compared percent-decoded; empty segments (``//``) are ignored.
    """
    if max_repetition < 1:
        raise ValueError(f"max_repetition must be at least 1, got {max_repetition}")
    segments = [unquote(segment) for segment in path.split("/") if segment]
    for period in range(1, len(segments) // (max_repetition + 1) + 1):
        needed = period * max_repetition  # equal pairs (i, i + period) in a row that make max + 1 copies
        streak = 0
        for index in range(len(segments) - period):
            streak = streak + 1 if segments[index] == segments[index + period] else 0
            if streak >= needed:
                start = index - needed + 1
                copies = 1 + streak // period
                while start + copies * period + period <= len(segments) and (
                    segments[start + copies * period : start + (copies + 1) * period]
                    == segments[start : start + period]
                ):
                    copies += 1
                return "/".join(segments[start : start + period]), copies
    return None


def path_repetition_refusal(url: str, *, max_repetition: int = DEFAULT_MAX_PATH_REPETITION) -> str | None:
    """Why `url` is refused as a crawler trap (its path repeats a segment more than `max_repetition` times in a
    row), or None when it is not. Only the path counts, not the query or fragment."""
    try:
        path = urlsplit(url).path
    except ValueError:
        return None  # not this check's business: the canonicaliser rejects malformed URLs
    run = repeated_path_run(path, max_repetition=max_repetition)
    if run is None:
        return None
    segment, copies = run
    return (
        f"crawler trap: the path repeats '{segment[:80]}' {copies} times in a row "
        f"(at most {max_repetition} allowed, fetch.max_path_repetition)"
    )
