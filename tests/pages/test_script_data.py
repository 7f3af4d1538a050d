"""A shell's own script data: the addresses its inline script fetches on its own origin, and the JSON document's
entries drawn as the listing the script would draw."""

from __future__ import annotations

from research_crawler.pages.script_data import (
    MAX_NEXT_BATCHES,
    data_listing_html,
    next_batch_urls,
    parse_script_data,
    script_data_urls,
    with_listing,
)

PAGE = "https://scholar.example/fields/computer-science"
SHELL = (
    "<html><body><main><h1>Computer Science</h1><div id='app'>Loading…</div><noscript>This site needs JavaScript."
    '</noscript><script>fetch("\\/api\\/v1\\/fields\\/cs\\/papers?offset=0").then(function (r) { return r.json(); })'
    ".then(function (data) { draw(data.data); if (data.next !== null) { more('/api/v1/fields/cs/papers?offset=' + "
    "data.next); } });</script><script src='/app.js'></script><script>fetch('https://cdn.other.example/x.json');"
    "fetch(`/api/v1/user/${id}`);</script></main><footer>About</footer></body></html>"
)
DATA = {
    "total": 8,
    "next": 6,
    "data": [
        {
            "paperId": "ab12",
            "title": "Fixing Flaky Tests with Templates",
            "url": "/paper/fixing-flaky-tests/ab12",
            "year": 2024,
            "venue": "ICSE",
            "authors": [{"name": "Ana Silva", "url": "/author/ana-silva/1"}, {"name": "Bo Li", "url": "/author/bo/2"}],
            "tldr": "Templates fix most flaky tests.",
        },
        {"title": "Elsewhere", "url": "https://other.example/paper/1"},
        {"title": "No address of its own"},
    ],
}


def test_the_addresses_a_shells_script_fetches_on_its_own_origin_are_found_as_written() -> None:
    # the literal handed whole to fetch(), JSON-escaped slashes and all; not the address it assembles for "more",
    # not a script of its own file, another origin or a template it fills in
    assert script_data_urls(SHELL, PAGE) == [
        ("https://scholar.example/api/v1/fields/cs/papers?offset=0", "\\/api\\/v1\\/fields\\/cs\\/papers?offset=0")
    ]
    assert script_data_urls("<html><body><p>No scripts</p></body></html>", PAGE) == []


def test_a_documents_entries_are_drawn_as_a_listing_with_what_it_says_beside_them() -> None:
    listing = data_listing_html(parse_script_data(__import__("json").dumps(DATA)), PAGE)
    assert listing.count("<li>") == 1  # one entry: the others lead off the site or name no address
    assert '<a href="https://scholar.example/paper/fixing-flaky-tests/ab12">Fixing Flaky Tests with Templates</a>' in (
        listing
    )
    assert "Ana Silva and Bo Li · ICSE · 2024" in listing and "Templates fix most flaky tests." in listing
    assert "/author/" not in listing  # an entry's authors are its names, never entries of their own
    assert data_listing_html({"total": 0, "data": []}, PAGE) == ""
    assert parse_script_data(b"<html>not json</html>") is None


def test_the_listing_is_drawn_where_the_script_that_fetches_it_stands() -> None:
    drawn = with_listing(SHELL, "\\/api\\/v1\\/fields\\/cs\\/papers?offset=0", "<ul><li>entry</li></ul>")
    assert drawn.index("<ul><li>entry</li></ul>") < drawn.index("<footer>")
    assert drawn.index("<ul><li>entry</li></ul>") > drawn.index("offset=0")
    assert with_listing("<html><body><p>x</p></body></html>", "/nowhere", "<ul></ul>").endswith(
        "<ul></ul></body></html>"
    )


#: An archive that shows its first twelve posts and scrolls the rest in from its data, as its configuration says.
SCROLLED = (
    "<html><body><h1>Archive</h1><div class='posts'><a href='/p/first'>First post</a></div>"
    '<script>window._preloads = {"archiveApi": "/api/v1/archive?sort=new&search=", "offset": 12, '
    "\"limit\": 12}; observeEnd(document.querySelector('.end'));</script><script src='/main.js'></script>"
    "</body></html>"
)


def test_a_list_shown_in_part_is_read_on_from_the_batches_its_script_names() -> None:
    urls = [url for url, _ in next_batch_urls(SCROLLED, "https://notes.example/archive")]
    assert urls == [
        f"https://notes.example/api/v1/archive?sort=new&search=&offset={start}&limit=12" for start in (12, 24, 36)
    ]
    assert len(urls) == MAX_NEXT_BATCHES


def test_no_next_batch_is_guessed() -> None:
    page = "https://notes.example/archive"
    assert next_batch_urls(SCROLLED.replace('"offset": 12', '"offset": 0'), page) == []  # the page's own batch
    assert next_batch_urls(SCROLLED.replace('"limit": 12', '"size": 12'), page) == []  # no batch length
    two = SCROLLED.replace("observeEnd(", "track('/api/v1/events'); observeEnd(")
    assert next_batch_urls(two, page) == []  # two addresses: which one is the list's is not guessed
    assert next_batch_urls(SCROLLED.replace("/api/v1/archive", "https://other.example/api"), page) == []
    assert next_batch_urls(SHELL, PAGE) == []  # a shell's first batch (offset=0), no batch length


def test_entries_the_page_shows_already_are_not_drawn_again() -> None:
    data = {"posts": [{"title": "Beaver Ponds and Flood Peaks", "canonical_url": "/p/beavers",
                       "post_date": "2024-06-30T07:00:00Z", "subtitle": "Ponds slowed the flood.",
                       "publishedBylines": [{"name": "Ines Costa"}]},
                      {"title": "First post", "canonical_url": "/p/first"}]}  # fmt: skip
    listing = data_listing_html(data, "https://notes.example/archive", shown={"https://notes.example/p/first"})
    assert "First post" not in listing
    assert 'href="https://notes.example/p/beavers"' in listing and "Beaver Ponds and Flood Peaks" in listing
    assert "<div>Ines Costa · 2024-06-30</div>" in listing and "Ponds slowed the flood." in listing
