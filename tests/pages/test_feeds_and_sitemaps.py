"""Feeds and sitemaps read as listings: entries newest first with their links, dates and authors; a sitemap's pages
newest first by their last change, named by their news title or the words of their address; bounded; documents that
declare entities refused; the feeds a page names found."""

from __future__ import annotations

from fault_server import FaultServer, Reply
from unlike_sites import Paper, atom_feed, sitemap

from research_crawler.config.settings import FetchSettings
from research_crawler.pages.feeds import MAX_ENTRIES, feed_html, feed_links
from research_crawler.pages.page import Determination
from research_crawler.pages.sitemaps import MAX_LINKS, sitemap_html
from research_crawler.pages.view import build_page_view
from research_crawler.web.fetcher import Fetcher

PAPERS = [
    Paper("old", "An older study of graph neural networks", "2023-05-01"),
    Paper("new", "The newest study of graph neural networks", "2025-02-01"),
    Paper("mid", "A middle study of graph neural networks", "2024-07-15"),
]
RSS = """<?xml version="1.0"?><rss version="2.0"><channel><title>Preprints &amp; more</title>
<link>https://example.org/</link><description>New preprints</description>
<item><title>Diffusion models for &lt;b&gt;protein&lt;/b&gt; design</title><link>https://example.org/p/1</link>
<pubDate>Tue, 04 Mar 2025 10:00:00 GMT</pubDate><description>&lt;p&gt;We design &lt;script&gt;x()&lt;/script&gt;
proteins.&lt;/p&gt;</description></item>
<item><title>Undated note</title><link>/p/2</link></item>
</channel></rss>"""


def test_an_atom_feed_reads_as_a_listing_newest_first() -> None:
    listing = feed_html(atom_feed("Latest papers", PAPERS).encode(), url="https://example.org/feed.atom")
    assert listing is not None
    view = build_page_view(listing, url="https://example.org/feed.atom", site_url="https://example.org/")
    assert view.title == "Latest papers"
    assert [link.url for link in view.links] == [
        "https://example.org/paper/new",
        "https://example.org/paper/mid",
        "https://example.org/paper/old",
    ]
    assert "Published 2025-02-01 · by Author of new" in view.markdown
    assert "We study the newest study of graph neural networks." in view.markdown


def test_an_rss_feed_keeps_text_never_markup() -> None:
    listing = feed_html(RSS.encode(), url="https://example.org/rss")
    assert listing is not None
    view = build_page_view(listing, url="https://example.org/rss", site_url="https://example.org/")
    assert view.title == "Preprints & more"
    assert "<script" not in listing and "<b>" not in listing
    assert "Diffusion models for protein design" in view.markdown and "Published 2025-03-04" in view.markdown
    assert [link.url for link in view.links] == ["https://example.org/p/1", "https://example.org/p/2"]


def test_a_long_feed_is_bounded_and_entities_are_refused() -> None:
    many = [Paper(f"p{n}", f"Paper {n} on graph learning", f"2024-01-{n % 28 + 1:02d}") for n in range(MAX_ENTRIES + 5)]
    listing = feed_html(atom_feed("All", many).encode(), url="https://example.org/f")
    assert listing is not None and listing.count("<li>") == MAX_ENTRIES and "the 5 oldest are left out" in listing
    bomb = (
        '<?xml version="1.0"?><!DOCTYPE feed [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;">]><feed><title>&b;</title></feed>'
    )
    assert feed_html(bomb.encode(), url="https://example.org/f") is None
    assert feed_html(b"<html><body>not a feed</body></html>", url="https://example.org/f") is None


def test_the_feeds_a_page_names_are_found() -> None:
    page = (
        "<html><head><link rel='alternate' type='application/atom+xml' title='Latest' href='/feed.atom'>"
        "<link rel='alternate' type='application/rss+xml' href='https://example.org/rss'>"
        "<link rel='alternate' hreflang='de' href='/de/'><link rel='alternate' type='application/atom+xml' "
        "href='javascript:alert(1)'></head><body></body></html>"
    )
    found = feed_links(page, url="https://example.org/journal/")
    assert [(f.url, f.title, f.format) for f in found] == [
        ("https://example.org/feed.atom", "Latest", "Atom"),
        ("https://example.org/rss", "", "RSS"),
    ]


def test_a_sitemap_reads_as_its_pages_newest_first() -> None:
    xml = sitemap(
        [
            ("https://example.org/articles/2023/graph-networks-for-molecules.html", "2023-01-02"),
            ("https://example.org/articles/2025/state-space-models", "2025-05-06"),
            ("https://example.org/about", ""),
            ("ftp://example.org/file", "2025-09-09"),
        ]
    )
    listing = sitemap_html(xml.encode(), url="https://example.org/sitemap.xml")
    assert listing is not None
    view = build_page_view(listing, url="https://example.org/sitemap.xml", site_url="https://example.org/")
    assert [link.url for link in view.links] == [
        "https://example.org/articles/2025/state-space-models",
        "https://example.org/articles/2023/graph-networks-for-molecules.html",
        "https://example.org/about",
    ]
    assert [link.text for link in view.links][:2] == [
        "articles 2025 state space models",
        "articles 2023 graph networks for molecules",
    ]
    assert "last changed 2025-05-06" in view.markdown and "3 pages listed" in view.markdown


def test_news_titles_an_index_and_the_bounds() -> None:
    news = (
        "<?xml version='1.0'?><urlset xmlns='http://www.sitemaps.org/schemas/sitemap/0.9' "
        "xmlns:news='http://www.google.com/schemas/sitemap-news/0.9'><url><loc>https://example.org/n/1</loc>"
        "<news:news><news:publication_date>2025-03-01</news:publication_date>"
        "<news:title>Graph networks predict floods</news:title></news:news></url></urlset>"
    )
    assert ">Graph networks predict floods</a> — last changed 2025-03-01" in (
        sitemap_html(news.encode(), url="https://example.org/s") or ""
    )
    index = (
        "<sitemapindex xmlns='http://www.sitemaps.org/schemas/sitemap/0.9'><sitemap><loc>https://example.org/s1.xml"
        "</loc><lastmod>2024-01-01</lastmod></sitemap></sitemapindex>"
    )
    assert "sitemap s1" in (sitemap_html(index.encode(), url="https://example.org/index.xml") or "")
    big = sitemap([(f"https://example.org/p/{n}", f"2024-01-{n % 28 + 1:02d}") for n in range(MAX_LINKS + 50)])
    listing = sitemap_html(big.encode()[: len(big) // 2], url="https://example.org/s", truncated=True)
    assert listing is not None and listing.count("<li>") <= MAX_LINKS and "only the first part" in listing
    bomb = '<?xml version="1.0"?><!DOCTYPE u [<!ENTITY a "a">]><urlset><url><loc>&a;</loc></url></urlset>'
    assert sitemap_html(bomb.encode(), url="https://example.org/s") is None


async def test_feeds_and_sitemaps_are_fetched_as_pages(fault_server: FaultServer, fast_settings: FetchSettings) -> None:
    fault_server.route("/feed", Reply(200, atom_feed("Latest", PAPERS), content_type="application/atom+xml"))
    fault_server.route("/feed-as-xml", Reply(200, atom_feed("Latest", PAPERS), content_type="text/xml"))
    many = [(fault_server.url(f"/p/{n}"), f"2024-01-{n % 28 + 1:02d}") for n in range(4000)]
    fault_server.route("/sitemap.xml", Reply(200, sitemap(many), content_type="application/xml"))
    fault_server.route("/other.xml", Reply(200, "<?xml version='1.0'?><data/>", content_type="application/xml"))
    settings = fast_settings.model_copy(update={"max_page_bytes": 64 * 1024})  # the sitemap is ~300 KB
    async with Fetcher(settings) as fetcher:
        feed = await fetcher.fetch(fault_server.url("/feed"))
        as_xml = await fetcher.fetch(fault_server.url("/feed-as-xml"))
        big = await fetcher.fetch(fault_server.url("/sitemap.xml"))
        other = await fetcher.fetch(fault_server.url("/other.xml"))
    assert feed.ok and feed.title == "Latest" and len(feed.links) == 3 and feed.content_type == "application/atom+xml"
    assert as_xml.ok and as_xml.title == "Latest"
    assert (
        big.ok and len(big.links) == MAX_LINKS and "only the first part of this large sitemap was read" in big.markdown
    )
    assert len(fault_server.hits_for("/sitemap.xml")) == 1
    assert other.determination is Determination.NON_HTML
