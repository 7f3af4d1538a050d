"""Site search: forms and OpenSearch descriptions found on real saved pages, and the Planner's search_site tool."""

from __future__ import annotations

from urllib.parse import parse_qsl, urljoin, urlsplit

import lxml.html
import pytest
import realweb

from research_crawler.config.settings import Settings
from research_crawler.context.search_context import SearchContext, SiteRef
from research_crawler.context.urls import canonicalize_url
from research_crawler.errors import ToolInputError
from research_crawler.pages.html_forms import FormSubmission, submission_identity
from research_crawler.pages.page import Determination, Page
from research_crawler.pages.search_forms import (
    SearchMechanism,
    build_search_submission,
    build_search_url,
    find_search_mechanism,
    find_search_mechanisms,
    read_opensearch_description,
)
from research_crawler.run.trace import Trace
from research_crawler.tools.exploration import Exploration, PageAccess, ScrapeTarget
from research_crawler.tools.planner_tools import PlannerTools
from research_crawler.tools.site_search import usable_mechanisms

REALWEB = realweb.REALWEB
QUERY = "graph neural networks"


MANIFEST = realweb.manifest()
ROWS = {row["file"]: row for row in MANIFEST}
needs_realweb = realweb.needs_realweb
WITH_FORM = [row["file"] for row in MANIFEST if row["has_search_form"] == "yes"]
WITHOUT_FORM = [row["file"] for row in MANIFEST if row["has_search_form"] == "no"]

# Read off each page by hand: which <form> (0-based, document order) is the site's own search box and
# which field takes the query. None: the best mechanism is the page's OpenSearch description instead.
SEARCH_FORM = {
    "aclanthology__article__1.html": (0, "q"),
    "aclanthology__article__2.html": (0, "q"),
    "aclanthology__listing__1.html": (0, "q"),
    "acm__article__1.html": (0, "AllField"),
    "acm__search__1.html": (0, "AllField"),
    "aps__article__1.html": (0, "q"),
    "arxiv__abstract__1.html": (0, "query"),
    "arxiv__abstract__2.html": (0, "query"),
    "arxiv__abstract__3.html": (0, "query"),
    "arxiv__abstract__4.html": (0, "query"),
    "arxiv__listing__1.html": (0, "query"),
    "arxiv__listing__2.html": (0, "query"),
    "arxiv__listing__3.html": (0, "query"),
    "arxiv__search__1.html": (0, "query"),  # the header box, not the refine-this-search form
    "biorxiv__article__1.html": (0, "keywords"),
    "elife__article__1.html": (0, "for"),
    "firstmonday__article__1.html": (0, "query"),
    "googlescholar__search__1.html": (0, "q"),
    "hal__article__1.html": (2, "q"),
    "iop__article__1.html": (0, "terms"),
    "iospress__article__1.html": (1, "q"),
    "medrxiv__search__1.html": (0, "keywords"),
    "medrxiv__search__2.html": (0, "keywords"),
    "nature__article__1.html": (0, "q"),
    "nature__article__2.html": (3, "q"),  # after three newsletter sign-up forms
    "nature__listing__1.html": (0, "sp-q"),
    "nature__search__1.html": (0, "sp-q"),
    "nber__article__1.html": (0, "q"),
    "neurips__article__1.html": (0, "q"),
    "neurips__article__2.html": (0, "q"),
    "peerj__article__1.html": (0, "q"),
    "plos__article__1.html": (0, "q"),
    "plos__article__2.html": (0, "q"),
    "plos__search__1.html": (0, "query"),
    "pmc__article__1.html": (0, "term"),  # NCBI-wide search, not the script-driven PMC box
    "pmc__search__1.html": (0, "EntrezSystem2.PEntrez.Pmc.SearchBar.Term"),
    "pubmed__article__1.html": None,
    "sciencedirect__article__2.html": (0, "qs"),
    "sciencedirect__article__3.html": (0, "qs"),
    "sciencedirect__search__1.html": (1, "qs_all"),  # form 0 is a login form
    "semanticscholar__article__1.html": (0, "q"),
    "semanticscholar__article__2.html": (0, "q"),
    "springer__article__1.html": (1, "query"),
    "springer__article__2.html": (3, "query"),
    "springer__search__1.html": (
        0,
        "ctl00$PageSidebar$ctl00$Sidebarplaceholder1$ctl00$FindTextBox$MainTextBox",
    ),
}

# Hand-checked against the pages' HTML.
EXACT_URLS = {
    "arxiv__abstract__1.html": "https://arxiv.org/search?query=graph+neural+networks&searchtype=all&source=header",
    "arxiv__abstract__2.html": "https://arxiv.org/search?query=graph+neural+networks&searchtype=all&source=header",
    "aclanthology__article__1.html": "https://aclanthology.org/search/?q=graph+neural+networks",
    "elife__article__1.html": "https://elifesciences.org/search?for=graph+neural+networks",
    "googlescholar__search__1.html": "https://scholar.google.co.jp/scholar?q=graph+neural+networks&btnG=&hl=en&as_sdt=0%2C5",
    "sciencedirect__article__2.html": "https://www.sciencedirect.com/search?qs=graph+neural+networks&origin=article&zone=qSearch",
    "springer__article__1.html": "https://link.springer.com/search?query=graph+neural+networks",
    "plos__article__1.html": "https://journals.plos.org/plosone/search?q=graph+neural+networks&filterJournals=PLoSONE",
    "pmc__article__1.html": "https://www.ncbi.nlm.nih.gov/search/all/?term=graph+neural+networks",
    "nature__article__1.html": "https://www.nature.com/search?q=graph+neural+networks&journal=",
    "hal__article__1.html": "https://hal.science/search/index?q=graph+neural+networks",
    "iop__article__1.html": "https://iopscience.iop.org/nsearch?terms=graph+neural+networks",
}


def _page(name: str) -> tuple[str, str]:
    """The page's text (as a fetcher would decode it) and the URL it was saved from."""
    text = (REALWEB / "pages" / name).read_bytes().decode("utf-8", errors="replace")
    url = ROWS[name]["original_url"].split()[0].rstrip(",")
    return text, url if url.startswith("http") else f"https://{ROWS[name]['site']}.example.org/"


def _tree(text: str) -> lxml.html.HtmlElement:
    return lxml.html.document_fromstring(text.encode("utf-8"), parser=lxml.html.HTMLParser(encoding="utf-8"))


def _expected_submission(tree: lxml.html.HtmlElement, url: str, index: int, field: str) -> tuple[str, list]:
    """What the form sends besides the query, computed with lxml's own form support: (action, pairs)."""
    form = tree.xpath("//form")[index]
    base = next(iter(tree.xpath("//base/@href") + tree.xpath("//link[@rel='canonical']/@href")), "")
    action = (form.get("action") or "").strip()
    action = urljoin(urljoin(url, base), action) if action else url
    pairs = [(name, value) for name, value in form.form_values() if name != field]
    submit = next(iter(form.xpath(".//input[@type='submit'] | .//button[not(@type) or @type='submit']")), None)
    if submit is not None and submit.get("name"):  # lxml leaves out the button a browser submits with
        pairs.append((submit.get("name"), submit.get("value", "")))
    parts = urlsplit(action)
    return f"{parts.scheme}://{parts.netloc}{parts.path}", sorted(p for p in pairs if p[1])


# ---------------------------------------------------------------------------------------------- real pages


@needs_realweb
def test_every_page_with_a_search_form_is_in_the_table() -> None:
    assert set(WITH_FORM) == set(SEARCH_FORM)


@needs_realweb
@pytest.mark.parametrize("name", WITH_FORM)
def test_search_form_of_real_page(name: str) -> None:
    text, url = _page(name)
    tree = _tree(text)
    best = find_search_mechanism(text, url=url)
    assert best is not None
    expected = SEARCH_FORM[name]
    if expected is None:
        assert best.kind == "opensearch" and best.usable
        return
    index, field = expected
    form = tree.xpath("//form")[index]
    if "return false" in " ".join((form.get("onsubmit") or "").lower().split()):
        # only its script sends it: typed into its box in the browser, as a person does
        assert best.method == "TYPE" and best.usable and "script" in best.note
        assert _selected(tree, best.query_field or "").get("name") == field
        assert build_search_submission(best, QUERY) == FormSubmission("TYPE", url, ((best.query_field or "", QUERY),))
        return
    if (form.get("method") or "get").lower() == "post":
        assert best.kind == "form" and best.method == "POST" and best.query_field == field
        with pytest.raises(ToolInputError):
            build_search_url(best, QUERY)  # a POST has no search URL
        assert best.usable, best.note
        search = build_search_submission(best, QUERY)
        assert search.method == "POST" and (field, QUERY) in search.fields
        assert [name for name, _ in search.fields] == [name for name, _ in best.fields]
        return
    assert (best.kind, best.method, best.usable, best.query_field) == ("form", "GET", True, field)
    search_url = build_search_url(best, QUERY)
    expected_action, expected_pairs = _expected_submission(tree, url, index, field)
    parts = urlsplit(search_url)
    assert f"{parts.scheme}://{parts.netloc}{parts.path}" == expected_action
    assert not parts.fragment
    sent = parse_qsl(parts.query, keep_blank_values=True)
    assert [value for name, value in sent if name == field] == [QUERY]
    assert sorted(p for p in sent if p[1] and p[0] != field) == expected_pairs
    if name in EXACT_URLS:
        assert search_url == EXACT_URLS[name]


@needs_realweb
@pytest.mark.parametrize("name", WITHOUT_FORM)
def test_pages_without_a_search_form(name: str) -> None:
    text, url = _page(name)
    mechanisms = find_search_mechanisms(text, url=url)
    assert [m for m in mechanisms if m.kind == "form"] == []
    opensearch_links = _tree(text).xpath("//link[@rel='search'][@type='application/opensearchdescription+xml']")
    best = find_search_mechanism(text, url=url)
    if opensearch_links:
        assert best is not None and best.kind == "opensearch"
        assert best.description_url == urljoin(url, opensearch_links[0].get("href"))
    else:
        assert best is None


@needs_realweb
def test_login_and_newsletter_forms_lose_to_the_search_box() -> None:
    text, url = _page("nature__article__2.html")  # three newsletter sign-ups come first
    mechanisms = find_search_mechanisms(text, url=url)
    assert mechanisms[0].url_template == "https://www.nature.com/search?q={query}"
    assert all("briefing" not in m.url_template for m in mechanisms)
    text, url = _page("ieee__article__1.html")  # its only form is a GET login form
    assert find_search_mechanisms(text, url=url) == []


@needs_realweb
def test_select_defaults_and_hidden_fields_are_kept() -> None:
    text, url = _page("arxiv__abstract__2.html")
    best = find_search_mechanism(text, url=url)
    assert best is not None
    assert best.hidden_fields == {"searchtype": "all", "source": "header"}  # <select> default + hidden input
    assert best.url_template == "https://arxiv.org/search?query={query}&searchtype=all&source=header"


@needs_realweb
def test_pubmed_script_form_loses_to_its_opensearch_description() -> None:
    text, url = _page("pubmed__article__1.html")
    opensearch, form = find_search_mechanisms(text, url=url)
    assert opensearch.kind == "opensearch" and opensearch.usable
    assert opensearch.description_url == "http://www.ncbi.nlm.nih.gov/corehtml/query/static/pubmedsearch.xml"
    assert opensearch.url_template == ""
    # a search that is a URL goes first; the form, which only its script sends, is typed into in the browser after
    assert form.kind == "form" and form.method == "TYPE" and form.usable


# ----------------------------------------------------------------------------------------- synthetic forms


def _doc(body: str, head: str = "") -> str:
    return f"<!doctype html><html><head>{head}</head><body>{body}</body></html>"


def test_role_search_beats_a_plain_text_form_and_empty_action_is_the_page_url() -> None:
    page = _doc(
        '<form action="/comments"><input name="nickname" placeholder="Search nickname"></form>'
        '<div role="search"><form><input type="search" name="q"></form></div>'
    )
    first, second = find_search_mechanisms(page, url="https://example.org/a/page?x=1")
    assert first.url_template == "https://example.org/a/page?q={query}"
    assert second.query_field == "nickname"


def test_form_attribute_disabled_fields_checked_radios_and_minified_markup() -> None:
    page = _doc(
        "<form id=s action=/find method=get role=search><input type=search name=q>"
        "<input type=hidden name=off value=1 disabled><input type=radio name=sort value=date checked>"
        "<input type=radio name=sort value=score><input type=checkbox name=oa value=yes>"
        "<select name=lang><option value=en>English<option value=fr selected>French</select>"
        "<fieldset disabled><input type=hidden name=gone value=x></fieldset></form>"
        "<input type=hidden name=outside value=2 form=s>"
    )
    best = find_search_mechanism(page, url="https://example.org/")
    assert best is not None
    assert best.url_template == "https://example.org/find?q={query}&sort=date&lang=fr&outside=2"
    assert best.hidden_fields == {"sort": "date", "lang": "fr", "outside": "2"}


def test_base_href_and_canonical_resolve_the_action() -> None:
    form = '<form role="search" action="search"><input name="q"></form>'
    with_base = find_search_mechanism(_doc(form, '<base href="https://static.a.org/x/">'), url="https://a.org/")
    assert (
        with_base is not None
        and with_base.usable
        and with_base.url_template.startswith("https://static.a.org/x/search?")
    )
    canonical = _doc(form, '<link rel="canonical" href="https://a.org/papers/1">')
    # as a browser sends it: from where the page is, whatever address its canonical link prefers
    fetched = find_search_mechanism(canonical, url="https://a.org/q/r")
    assert fetched is not None and fetched.url_template == "https://a.org/q/search?q={query}"
    # a saved page whose address is unknown: its canonical link is the best guess of where it was
    saved = find_search_mechanism(canonical, url="file:///tmp/saved.html")
    assert saved is not None and saved.url_template == "https://a.org/papers/search?q={query}"


@pytest.mark.parametrize(
    ("form", "note"),
    [
        ('<form role="search" action="javascript:go()"><input name="q"></form>', "not an http(s) URL"),
        ('<form role="search" action="javascript:go()" method="post"><input name="q"></form>', "not an http(s) URL"),
        # a page cannot send the crawler (and the request's words) to another site
        ('<form role="search" action="https://search.other.net/find"><input name="q"></form>', "on another site"),
        ('<form role="search" action="http://127.0.0.1:8080/s" method="post"><input name="q"></form>', "another site"),
    ],
)
def test_unusable_forms_say_why(form: str, note: str) -> None:
    best = find_search_mechanism(_doc(form), url="https://example.org/")
    assert best is not None and not best.usable and note in best.note
    with pytest.raises(ToolInputError, match="cannot be used"):
        build_search_url(best, QUERY)


def test_a_search_on_a_subdomain_of_the_site_is_usable() -> None:
    form = '<form role="search" action="https://search.example.org/find"><input name="q"></form>'
    for page in ("https://example.org/", "https://www.example.org/journal/"):
        best = find_search_mechanism(_doc(form), url=page)
        assert best is not None and best.usable, (page, best)
    # a sibling host under the site's registrable domain (a publisher's scripts host beside its journals host)
    sibling = '<form role="search" action="https://scripts.example.org/search"><input name="q"></form>'
    assert (found := find_search_mechanism(_doc(sibling), url="https://journals.example.org/b/1")) and found.usable
    # two sites under one public suffix are two sites, not one registrable domain
    theirs = '<form role="search" action="https://other.github.io/s"><input name="q"></form>'
    assert (found := find_search_mechanism(_doc(theirs), url="https://mine.github.io/")) and not found.usable
    # a page read from a file with no known address has no site to leave
    assert (found := find_search_mechanism(_doc(sibling), url="")) and found.usable
    # the page's own address as it declares it (its canonical link, which relative addresses resolve against)
    relative = '<form role="search" action="/search"><input name="q"></form>'
    declared = find_search_mechanism(
        _doc(relative, '<link rel="canonical" href="https://dx.example.net/p/1">'), url=page
    )
    assert declared is not None and declared.usable, declared


def test_usable_form_is_preferred_over_a_better_scoring_unusable_one() -> None:
    page = _doc(
        '<form role="search" class="search" method="post" action="/search">'
        '<input type="search" name="q"></form>'
        '<form action="/lookup"><input name="q"></form>'
    )
    first, second = find_search_mechanisms(page, url="https://example.org/")
    assert first.usable and first.url_template == "https://example.org/lookup?q={query}"
    assert second.usable and second.method == "POST"  # usable too, after the search that is a URL


def test_a_usable_form_goes_before_a_better_scoring_one_driven_by_script() -> None:
    page = _doc(
        '<form role="search" class="search" action="/search" onsubmit="go(); return false">'
        '<input type="search" name="q"></form>'
        '<form action="/lookup"><input name="q"></form>'
    )
    first, second = find_search_mechanisms(page, url="https://example.org/")
    assert first.usable and first.url_template == "https://example.org/lookup?q={query}"
    assert second.usable and second.method == "TYPE"  # usable in the browser, tried after the search that is a URL


def _selected(tree: lxml.html.HtmlElement, selector: str) -> lxml.html.HtmlElement:
    """The one element `selector` (as `browser_selector` writes them: #id, input[name="…"] or xpath=…) names."""
    if selector.startswith("#"):
        found = tree.xpath("//*[@id=$v]", v=selector[1:])
    elif selector.startswith("xpath="):
        found = tree.getroottree().xpath(selector.removeprefix("xpath="))
    else:
        name = selector.removeprefix('input[name="').removesuffix('"]')
        found = tree.xpath("//input[@name=$v]", v=name)
    assert len(found) == 1, selector
    return found[0]


@pytest.mark.parametrize(
    ("body", "box"),
    [
        # a form only its script sends (ACS's quick search: onsubmit "validateSearch(); return false;"), its box
        # without a name (the script reads it by id)
        (
            '<form action="/action/doSearch" method="get" onsubmit="validateSearch(); return false;">'
            '<input type="search" id="qsSearchString"><input type="hidden" name="action" value="search">'
            '<select name="qsSearchArea"><option>Anywhere</option></select></form>',
            "qsSearchString",
        ),
        # a search box outside any form, which the page's script reads when Enter is pressed (a single-page app)
        ('<div role="search"><input type="text" id="site-search" placeholder="Search preprints"></div>', "site-search"),
        ('<header><input type="search" aria-label="Search"></header><main>text</main>', None),
    ],
)
def test_a_search_only_a_script_sends_is_typed_into_its_box(body: str, box: str | None) -> None:
    page = _doc(body)
    best = find_search_mechanism(page, url="https://example.org/toc/1#top")
    assert best is not None and best.method == "TYPE" and best.usable, best
    assert best.url_template == "https://example.org/toc/1" and "typed into the page in the browser" in best.note
    element = _selected(_tree(page), best.query_field or "")
    assert element.get("id") == box if box else element.get("aria-label") == "Search"
    typed = build_search_submission(best, "  graph networks ")
    assert typed == FormSubmission("TYPE", "https://example.org/toc/1", ((best.query_field or "", "graph networks"),))
    assert submission_identity(typed).startswith("https://example.org/toc/1?")
    assert build_search_submission(best, "other words") != typed


@pytest.mark.parametrize(
    "body",
    [
        '<input type="text" id="filter" placeholder="Filter by name">',  # a filter of the page's own list
        '<div><input type="text" name="username"><input type="password" name="pw"></div>',
        '<input type="search" name="author" placeholder="Author">',  # an author only: no place for a topic
        '<form action="/s" onsubmit="go(); return false;"><input name="email" type="email"></form>',
    ],
)
def test_boxes_that_are_no_site_search_are_not_typed_into(body: str) -> None:
    assert [m for m in find_search_mechanisms(_doc(body), url="https://example.org/") if m.method == "TYPE"] == []


def test_a_page_read_from_a_file_has_no_box_to_type_into() -> None:
    page = _doc('<input type="search" id="q" placeholder="Search">')
    assert find_search_mechanisms(page, url="file:///tmp/page.html") == []


def test_a_post_search_form_is_used_as_a_person_would() -> None:
    page = _doc(
        '<form method="post" action="/papers/search"><input type="hidden" name="csrf" value="t0k">'
        '<input type="search" name="q" placeholder="Search papers"><button name="go" value="1">Search</button></form>'
    )
    (best,) = find_search_mechanisms(page, url="https://example.org/")
    assert (best.kind, best.method, best.usable, best.url_template) == (
        "form",
        "POST",
        True,
        "https://example.org/papers/search",
    )
    search = build_search_submission(best, " graph networks ")
    assert search.fields == (("csrf", "t0k"), ("q", "graph networks"), ("go", "1"))
    assert search.body == b"csrf=t0k&q=graph+networks&go=1"


def test_an_advanced_search_with_title_and_author_boxes_is_found() -> None:
    # no "search" in its names: only its boxes and the heading above it say what it is for
    page = _doc(
        "<h2>Find articles</h2><form method='post' action='/articles'>"
        "<label for='t'>Title</label><input id='t' name='f_title'>"
        "<label for='a'>Author</label><input id='a' name='f_2'>"
        "<label for='y'>Year</label><input id='y' name='f_year'>"
        "<input type='submit' value='Go'></form>"
    )
    (best,) = find_search_mechanisms(page, url="https://example.org/")
    assert best.usable and best.method == "POST"
    assert best.query_field == "f_title" and best.author_field == "f_2"
    search = build_search_submission(best, "graph networks")
    assert ("f_title", "graph networks") in search.fields and ("f_2", "") in search.fields


def test_a_box_that_mentions_authors_among_other_things_is_the_search_box() -> None:
    page = _doc("<form action='/search'><input name='q' placeholder='Search by title, keyword or author'></form>")
    (best,) = find_search_mechanisms(page, url="https://example.org/")
    assert best.query_field == "q" and best.author_field is None


def test_an_author_only_form_has_no_place_for_a_topic() -> None:
    page = _doc("<form action='/people/search'><label>Author <input name='author'></label></form>")
    assert find_search_mechanisms(page, url="https://example.org/") == []


def test_password_and_text_only_forms_are_not_search_forms() -> None:
    page = _doc(
        '<form action="/search"><input name="user"><input type="password" name="pw"></form>'
        '<form action="/comment"><input name="nickname"><textarea name="body"></textarea></form>'
    )
    assert find_search_mechanisms(page, url="https://example.org/") == []


@pytest.mark.parametrize("junk", ["", "   ", "\x00\xff\x00", "<form><input", '<?xml version="1.0"?><html/>'])
def test_junk_has_no_search(junk: str) -> None:
    assert find_search_mechanism(junk, url="https://example.org/") is None


# ---------------------------------------------------------------------------------------- build_search_url


def _form_mechanism(template: str) -> SearchMechanism:
    return SearchMechanism(kind="form", url_template=template, query_field="q", usable=True)


def test_query_is_url_encoded_into_the_query_string_and_the_path() -> None:
    in_query = _form_mechanism("https://example.org/s?q={query}&x=1")
    assert build_search_url(in_query, " C++ & graphs/ü ") == "https://example.org/s?q=C%2B%2B+%26+graphs%2F%C3%BC&x=1"
    in_path = _form_mechanism("https://example.org/search/{query}")
    assert build_search_url(in_path, "a b/c") == "https://example.org/search/a%20b%2Fc"


@pytest.mark.parametrize("query", ["", "   "])
def test_empty_query_is_a_tool_input_error(query: str) -> None:
    with pytest.raises(ToolInputError, match="empty"):
        build_search_url(_form_mechanism("https://example.org/s?q={query}"), query)


def test_unread_opensearch_description_cannot_build_a_url() -> None:
    mechanism = SearchMechanism(
        kind="opensearch", url_template="", usable=True, description_url="https://example.org/osd.xml"
    )
    with pytest.raises(ToolInputError, match="search_site"):
        build_search_url(mechanism, QUERY)


def test_overlong_query_is_a_tool_input_error() -> None:
    with pytest.raises(ToolInputError, match="shorter"):
        build_search_url(_form_mechanism("https://example.org/s?q={query}"), "x" * 5000)


# ---------------------------------------------------------------------------------------------- OpenSearch


OSD = """<?xml version="1.0" encoding="UTF-8"?>
<OpenSearchDescription xmlns="http://a9.com/-/spec/opensearch/1.1/">
  <ShortName>Example</ShortName>
  <Url type="application/rss+xml" template="https://example.org/rss?q={searchTerms}"/>
  <Url type="application/x-suggestions+json" rel="suggestions" template="https://example.org/s?q={searchTerms}"/>
  <Url type="text/html" indexOffset="0"
       template="/search?q={searchTerms}&amp;page={startPage?}&amp;n={count}&amp;from={startIndex}"/>
</OpenSearchDescription>"""


def test_opensearch_description_gives_the_html_template() -> None:
    mechanism = read_opensearch_description(OSD, url="https://example.org/meta/osd.xml")
    assert mechanism is not None and mechanism.usable and mechanism.kind == "opensearch"
    assert mechanism.url_template == "https://example.org/search?q={query}&page=1&n=20&from=0"
    assert mechanism.query_field == "q"
    assert build_search_url(mechanism, "a b") == "https://example.org/search?q=a+b&page=1&n=20&from=0"


@pytest.mark.parametrize(
    ("xml", "note"),
    [
        (OSD.replace('type="text/html"', 'type="text/html" method="post"'), "POST"),
        (OSD.replace("{count}", "{geo:box}"), "geo:box"),
    ],
)
def test_unusable_opensearch_templates_say_why(xml: str, note: str) -> None:
    mechanism = read_opensearch_description(xml, url="https://example.org/osd.xml")
    assert mechanism is not None and not mechanism.usable and note in mechanism.note


@pytest.mark.parametrize(
    "xml",
    [
        "",
        "not xml at all",
        "<html><body>Not found</body></html>",
        '<?xml version="1.0"?><!DOCTYPE d [<!ENTITY e "x">]><OpenSearchDescription>&e;</OpenSearchDescription>',
        '<OpenSearchDescription xmlns="http://a9.com/-/spec/opensearch/1.1/">'
        '<Url type="application/rss+xml" template="https://e.org/?q={searchTerms}"/></OpenSearchDescription>',
    ],
)
def test_unreadable_or_template_less_descriptions_give_none(xml: str) -> None:
    assert read_opensearch_description(xml, url="https://example.org/osd.xml") is None


# ---------------------------------------------------------------------------------- the search_site tool


class FakeWeb:
    """Returns canned pages by URL and records every fetch (the run's page source, for one site)."""

    def __init__(self, pages: dict[str, Page]) -> None:
        self.pages = pages
        self.fetched: list[str] = []

    def __call__(self, url: str, _site: SiteRef, /, *, form: FormSubmission | None = None) -> Page:
        self.fetched.append(url)
        if url in self.pages:
            return self.pages[url]
        return _fetched(url, Determination.NOT_FOUND, status=404, reason="no page")


def _fetched(
    url: str, determination: Determination, *, status: int | None = None, html: str = "", reason: str = ""
) -> Page:
    return Page(
        url=url,
        final_url=url,
        status=status,
        determination=determination,
        reason=reason,
        html=html,
        markdown="",
    )


def _exploring(site_url: str, page_html: str, web: FakeWeb) -> Exploration:
    """An exploration of the site at `site_url` after the Scraper read a page holding `page_html`."""
    search = SearchContext(query=QUERY)
    search.add_site(SiteRef(name="site", url=site_url))
    x = Exploration(settings=Settings(), search=search, pages=PageAccess(web), trace=Trace(None))
    x.start_next_site(None)
    mechanisms = usable_mechanisms(find_search_mechanisms(page_html, url=site_url))
    if mechanisms:
        x.findings.site_search[site_url] = mechanisms
    return x


@needs_realweb
def test_search_site_submits_a_get_form() -> None:
    text, url = _page("arxiv__abstract__1.html")
    results = EXACT_URLS["arxiv__abstract__1.html"]
    web = FakeWeb({})
    x = _exploring(url, text, web)
    message = PlannerTools(x).search_site(QUERY)
    assert web.fetched == []  # the results page is the Scraper's to read
    assert x.flow.planner_action == "scrape" and x.flow.scrape_target == ScrapeTarget(results, "search", QUERY)
    assert not x.web.is_visited(results)  # visited when the Scraper starts reading it, not before
    x.start_scrape(x.flow.scrape_target)
    assert x.web.is_visited(results) and x.web.unfinished_scrapes() == [results]
    assert "search form" in message and results in message


@needs_realweb
def test_search_site_reads_the_opensearch_description_then_searches() -> None:
    text, url = _page("peerj__article__2.html")  # no search form, only an OpenSearch link
    description = "https://peerj.com/articles/osd.xml"
    osd = OSD.replace(
        "/search?q={searchTerms}&amp;page={startPage?}&amp;n={count}&amp;from={startIndex}",
        "/search/?q={searchTerms}",
    )
    results = "https://peerj.com/search/?q=graph+neural+networks"
    web = FakeWeb({description: _fetched(description, Determination.NON_HTML, html=osd)})
    x = _exploring(url, text, web)
    message = PlannerTools(x).search_site(QUERY)
    assert web.fetched == [description]
    assert x.flow.scrape_target is not None and x.flow.scrape_target.url == results
    assert "OpenSearch" in message
    # The description is read once per site: a second search builds its URL without fetching it again.
    x.flow.planner_action = "none"
    PlannerTools(x).search_site("message passing")
    assert web.fetched == [description]
    assert (
        x.flow.scrape_target is not None and x.flow.scrape_target.url == "https://peerj.com/search/?q=message+passing"
    )


@needs_realweb
def test_search_site_posts_a_post_form_for_the_scraper() -> None:
    text, url = _page("biorxiv__article__1.html")
    web = FakeWeb({})
    x = _exploring(url, text, web)
    message = PlannerTools(x).search_site(QUERY)
    assert web.fetched == [] and x.flow.planner_action == "scrape"  # the Scraper sends it
    target = x.flow.scrape_target
    assert target is not None and target.kind == "search" and target.form is not None
    assert target.form.method == "POST" and ("keywords", QUERY) in target.form.fields
    assert target.url == canonicalize_url(submission_identity(target.form)) and "sent by POST" in message
    x.start_scrape(target)
    x.flow.planner_action = "none"
    assert PlannerTools(x).search_site(QUERY).startswith("Error: this search was already made")


def test_search_site_types_into_a_box_only_the_page_s_script_reads() -> None:
    url = "https://journal.example/toc/7"
    text = _doc('<form action="/s" onsubmit="go(); return false;"><input type="search" id="qs"></form><h1>Issue 7</h1>')
    web = FakeWeb({})
    x = _exploring(url, text, web)
    message = PlannerTools(x).search_site(QUERY)
    assert web.fetched == [] and x.flow.planner_action == "scrape"  # the Scraper's page source types it
    target = x.flow.scrape_target
    assert (
        target is not None and target.kind == "search" and target.form == FormSubmission("TYPE", url, (("#qs", QUERY),))
    )
    assert target.url == canonicalize_url(submission_identity(target.form))
    assert "typed into its search box in the browser" in message


@needs_realweb
def test_search_site_without_any_search() -> None:
    text, url = _page("frontiers__article__1.html")
    x = _exploring(url, text, FakeWeb({}))
    message = PlannerTools(x).search_site(QUERY)
    assert x.flow.scrape_target is None and "No usable search form" in message


def test_search_site_falls_back_when_the_description_cannot_be_fetched() -> None:
    page = _doc(
        '<form action="/lookup"><input name="q"></form>',
        '<link rel="search" type="application/opensearchdescription+xml" href="/osd.xml">',
    )
    web = FakeWeb({})
    x = _exploring("https://example.org/", page, web)
    PlannerTools(x).search_site(QUERY)
    # The weak form ranks below the OpenSearch link; the description is missing, so the form is used.
    assert web.fetched == ["https://example.org/osd.xml"]
    assert x.flow.scrape_target is not None
    assert x.flow.scrape_target.url == "https://example.org/lookup?q=graph+neural+networks"


def test_search_site_reports_an_unreachable_description() -> None:
    page = _doc("", '<link rel="search" type="application/opensearchdescription+xml" href="/osd.xml">')
    web = FakeWeb({})
    x = _exploring("https://example.org/", page, web)
    message = PlannerTools(x).search_site(QUERY)
    assert web.fetched == ["https://example.org/osd.xml"]
    assert x.flow.scrape_target is None and x.flow.planner_action == "none"
    assert "could not be fetched (not_found: no page)" in message and "Nothing was submitted" in message


def test_search_site_refuses_a_search_already_made() -> None:
    page = _doc('<form role="search" action="/search"><input name="q"></form>')
    x = _exploring("https://example.org/", page, FakeWeb({}))
    PlannerTools(x).search_site(QUERY)
    assert x.flow.scrape_target is not None
    x.start_scrape(x.flow.scrape_target)
    x.flow.planner_action, x.flow.scrape_target = "none", None
    message = PlannerTools(x).search_site(QUERY)
    assert message.startswith("Error: this search was already made") and x.flow.scrape_target is None


@pytest.mark.parametrize("query", ["", "   "])
def test_search_site_rejects_an_empty_query_before_fetching(query: str) -> None:
    page = _doc("", '<link rel="search" type="application/opensearchdescription+xml" href="/osd.xml">')
    web = FakeWeb({})
    x = _exploring("https://example.org/", page, web)
    assert PlannerTools(x).search_site(query).startswith("Error: the search query is empty")
    assert web.fetched == [] and x.flow.scrape_target is None


def test_search_site_costs_a_subpage_and_refuses_when_none_is_left() -> None:
    page = _doc('<form role="search" action="/search"><input name="q"></form>')
    x = _exploring("https://example.org/", page, FakeWeb({}))
    before = x.subpages_left
    PlannerTools(x).search_site(QUERY)
    assert x.flow.scrape_target is not None
    x.start_scrape(x.flow.scrape_target)
    assert x.subpages_left == before - 1
    x.flow.planner_action, x.flow.scrape_target = "none", None
    x.findings.subpage_offsets[x.site.url] = 1 - before  # every subpage used
    assert x.subpages_left == 0
    assert PlannerTools(x).search_site("other words").startswith("Error: no subpages are left")
    assert x.flow.scrape_target is None
