"""The context package re-exports its public names."""

from __future__ import annotations

import research_crawler.context as context


def test_every_public_name_is_exported_and_importable() -> None:
    assert sorted(context.__all__) == context.__all__
    for name in context.__all__:
        assert getattr(context, name) is not None
    core = {"WebContext", "SearchContext", "NavigationGraph", "RunStore", "canonicalize_url"}
    assert core <= set(context.__all__)
