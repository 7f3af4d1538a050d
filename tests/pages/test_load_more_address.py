"""A "Load more" control that names, in its own attributes, where its script fetches the next part of its list gives
that address (on the page's site); any other control, or an attribute naming no address, gives none."""

from __future__ import annotations

import pytest

from research_crawler.pages.load_more_address import load_more_address

PAGE = "https://portal.example/channel/seminars/7"
LIST = "<ul><li><a href='/media/1'>Ash plumes over the North Atlantic</a></li></ul>"


@pytest.mark.parametrize(
    ("control", "address"),
    [
        ("<button data-url='/channel/7/page/2' onclick='x.more(this)'>Load More</button>",
         "https://portal.example/channel/7/page/2"),
        ("<a href='#' data-href='page/2'>Show more results</a>", "https://portal.example/channel/seminars/page/2"),
        ("<div role='button' data-next='https://portal.example/api/list?offset=12'>Load 12 more</div>",
         "https://portal.example/api/list?offset=12"),
        ("<button data-url='/channel/7/page/2'>Filter by year</button>", None),  # no "load more"
        ("<button data-url='12'>Load more</button>", None),  # a number, no address
        ("<button data-url='javascript:more()'>Load more</button>", None),
        ("<button data-url='https://cdn.example/list/2'>Load more</button>", None),  # another site
        ("<button onclick='more()'>Load more</button>", None),  # only its script knows where
    ],
)  # fmt: skip
def test_the_address_a_load_more_control_names(control: str, address: str | None) -> None:
    assert load_more_address(f"<html><body>{LIST}{control}</body></html>", PAGE) == address
