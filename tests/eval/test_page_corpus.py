"""The page corpus reader and its scoring: an answer agrees with what a person read off the page, whatever its
spelling, and nothing else does. The corpus is in the repository (benchmarks/pagecorpus): a slice of its development
pages is read by the project and checked against the person's labels, and each development part it holds is held to
the shares measured on it (benchmarks/page_understanding.py prints them; the held-out parts are only measured
there). An older corpus named by $RESEARCH_CRAWLER_PAGECORPUS is checked on the parts it holds."""

from __future__ import annotations

import gzip
import json
import os
from pathlib import Path

import pytest

from research_crawler.config.settings import Settings
from research_crawler.context.urls import try_canonicalize_url
from research_crawler.errors import ConfigError
from research_crawler.eval.page_corpus import (
    PageLabels,
    Part,
    author_count_matches,
    corpus_parts,
    exact_date_matches,
    find_page_corpus,
    first_author_matches,
    read_page_corpus,
    title_matches,
    year_matches,
)
from research_crawler.pages.metadata import read_item_metadata
from research_crawler.web.page_building import page_from_file

REPO = Path(__file__).resolve().parents[2]
CORPUS = find_page_corpus(REPO)
if CORPUS is not None and not (CORPUS / "MANIFEST.tsv").is_file():
    CORPUS = None  # $RESEARCH_CRAWLER_PAGECORPUS names no corpus here
PARTS_HELD = corpus_parts(CORPUS) if CORPUS is not None else set()
#: Development pages of kinds the corpus has many of: a news story with its byline under the title ("by Rose
#: Orlik") and one with two writers, a blog post signed below it, a page that credits no writer (only its source),
#: a story whose byline is far below its title, a Google blog's "Posted by" under the post, an agency's credit
#: ("JIJI"), a writer's name beside a "View More Articles" link. (Never a held-out page.)
SLICE: tuple[tuple[Part, str], ...] = (
    ("development12", "d12-018"),
    ("development12", "d12-012"),
    ("development12", "d12-017"),
    ("development12", "d12-041"),
    ("development13", "d13-001"),
    ("development13", "d13-020"),
    ("development13", "d13-041"),
    ("development12", "d12-040"),
)


def test_titles_match_whatever_their_case_accents_and_punctuation() -> None:
    labels = PageLabels(page_kind="item", original_url="", title="Many-Body Localization: A Review", title_also=("X",))
    assert title_matches(labels, "many body localization — a review")
    assert title_matches(labels, "X") and not title_matches(labels, "Many-Body Localization")
    assert not title_matches(labels, None)


def test_first_author_count_and_year() -> None:
    labels = PageLabels(page_kind="item", original_url="", first_author="Van Hyning", authors_count=2, date="2017-05")
    assert first_author_matches(labels, ["Victoria Van Hyning", "Sam Blick"])
    assert first_author_matches(labels, ["van Hyning, V."]) and not first_author_matches(labels, ["Sam Blick"])
    assert author_count_matches(labels, ["a", "b"]) and not author_count_matches(labels, ["a"])
    assert year_matches(labels, "2017") and not year_matches(labels, "2016-05-01") and not year_matches(labels, None)
    nobody = PageLabels(page_kind="item", original_url="", authors_count=0, date=None, date_also=("none",))
    assert first_author_matches(nobody, []) and not first_author_matches(nobody, ["Someone Else"])
    assert year_matches(nobody, None) and not year_matches(nobody, "2020")


def test_exact_date_accepts_no_date_only_where_the_label_accepts_none() -> None:
    shown = PageLabels(page_kind="item", original_url="", date="2020-05-01")
    assert exact_date_matches(shown, "2020-05-01T10:00:00") and not exact_date_matches(shown, "2020-05-02")
    assert exact_date_matches(shown, None) is False
    either = PageLabels(page_kind="item", original_url="", date="2020-05-01", date_also=("none",))
    assert exact_date_matches(either, None) and not exact_date_matches(either, "2020-06-01")
    undated = PageLabels(page_kind="item", original_url="", date="none", date_also=("2020-05-01",))
    assert exact_date_matches(undated, None) and exact_date_matches(undated, "2020-05-01")
    assert not exact_date_matches(undated, "2020-06-01")
    assert exact_date_matches(PageLabels(page_kind="item", original_url="", date="2020-05"), "2020-05-01") is None


def test_a_corpus_is_read_and_a_page_without_labels_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "pages").mkdir()
    (tmp_path / "labels").mkdir()
    header = "id\tfile\tsite\tkind\tpart\tsource_repo\tsource_path\tsource_commit\tlicence\tbytes\tsha1\tnote\n"
    row = "a__1\ta__1.html.gz\ta\tabstract\tdev\towner/repo\tt/a.html\t" + "0" * 40 + "\tMIT\t10\tx\t\n"
    (tmp_path / "MANIFEST.tsv").write_text(header + row + row.replace("a__1", "b__1").replace("\tdev\t", "\theldout\t"))
    (tmp_path / "pages" / "a__1.html.gz").write_bytes(gzip.compress("<h1>Héllo</h1>".encode()))
    # A page that names no address of its own is labelled with a null original_url: read as no address.
    labels = {"page_kind": "item", "original_url": None, "title": "Héllo", "date_also": "1999"}
    (tmp_path / "labels" / "a__1.json").write_text(json.dumps(labels))
    pages = read_page_corpus(tmp_path, parts=("dev",))
    assert [page.id for page in pages] == ["a__1"] and pages[0].html() == "<h1>Héllo</h1>"
    assert pages[0].labels.date_also == ("1999",) and pages[0].is_item and pages[0].labels.original_url == ""
    with pytest.raises(ConfigError, match="b__1"):
        read_page_corpus(tmp_path, parts=("heldout",))


def test_the_repository_holds_its_corpus_and_the_benchmark_finds_it(tmp_path: Path) -> None:
    own = REPO / "benchmarks" / "pagecorpus"
    assert {"development12", "development13"} <= corpus_parts(own)
    pages = read_page_corpus(own, parts=("development12", "development13"))
    assert len(pages) >= 70 and all(page.is_item and page.licence for page in pages)
    assert find_page_corpus(REPO, part="development12") == own or "RESEARCH_CRAWLER_PAGECORPUS" in os.environ
    # a corpus beside the project is found for a part only it holds
    (tmp_path / "project").mkdir()
    beside = tmp_path / "shared" / "pagecorpus"
    beside.mkdir(parents=True)
    (beside / "MANIFEST.tsv").write_text("id\tfile\tsite\tkind\tpart\n")
    assert corpus_parts(beside) == set()
    if "RESEARCH_CRAWLER_PAGECORPUS" not in os.environ:
        assert find_page_corpus(tmp_path / "project") == beside
        assert find_page_corpus(tmp_path / "project", part="heldout14") is None


@pytest.mark.skipif(CORPUS is None, reason="the page corpus is not on this machine (set RESEARCH_CRAWLER_PAGECORPUS)")
@pytest.mark.parametrize(("part", "page_id"), SLICE)
def test_a_slice_of_the_development_pages_reads_as_a_person_read_it(part: Part, page_id: str) -> None:
    assert CORPUS is not None
    if part not in PARTS_HELD:
        pytest.skip(f"the corpus at {CORPUS} holds no {part} part")
    page = next(page for page in read_page_corpus(CORPUS, parts=(part,)) if page.id == page_id)
    found = read_item_metadata(page.html(), url=page.labels.original_url)
    assert title_matches(page.labels, found.title), found.title
    assert first_author_matches(page.labels, found.authors) and author_count_matches(page.labels, found.authors)
    assert year_matches(page.labels, found.date), found.date


#: The least share of each development part's item pages read as a person read them, field by field (title, first
#: author, number of authors, year): what benchmarks/page_understanding.py measured on the corpus in the repository
#: (the parts of the corpus lost in stop 40, dev to development7, are measured where a corpus holds them no more).
FLOORS: dict[Part, tuple[float, float, float, float]] = {
    # the rebuilt twelfth and thirteenth batches (in the repository). development12 misses no title since pages40d (a
    # JSON-LD headline with its photo credit in full-width brackets and the site's name after " ："), three writers (a
    # byline in a bar classed "comments_datetime", Libération's "Par …" far below the title, a subject's name under a
    # photo) and no year; development13 misses no title, two writers (a blog that names its owner only in its header,
    # a masthead's "Editor:" beside "CHQ Staff" far below the title) and no year.
    "development12": (1.0, 47 / 49, 48 / 49, 1.0),
    "development13": (1.0, 40 / 42, 41 / 42, 1.0),
    # the academic part misses two titles (a catalogue's result page headed "Suchergebnis", a record titled with its
    # year) and three years (a volume's year
    # where its contribution shows none, a catalogue's modification date); heldout14 (development material since its
    # first run) misses no writer (a blog footer's "Von israel news am …" is read since pages31a) and no date since
    # pages36d (a live page whose tags' title it does not show is dated under its one main heading; a JSON-LD day the
    # page writes only under other stories' teasers no longer outweighs the dateline under the title).
    "academic": (72 / 74, 1.0, 1.0, 71 / 74),
    "heldout14": (1.0, 1.0, 1.0, 1.0),
    # heldout15 (development material since its first run) misses two titles (a programme note whose headline is an
    # h3 under navigation h1s, a sports page whose story h1 sits below a sidebar of h1s and whose <title> is an older
    # headline), no year since pages33t (a JSON-LD date on a page that shows no date is no longer read; the Japanese
    # story dated in brackets with its time glued on and the essay whose heading is an image over "October 2010" are
    # read since pages32t) and twelve writers: a Blogger
    # post signed "Posted by @handle" in its footer (read since pages31a), a byline link hidden from screen readers, a
    # recipe under other recipes' "By" lines, a wire credit "Source PA News", two sites' own names credited (one after
    # "By"), two pages whose labels say no byline (a blog footer's owner, a navigation heading) and others a title
    # misread hides
    # pages42: b15-056's "Source PA News" relabelled no byline (README.md's "Source:" convention): 88, 92
    "heldout15": (92 / 94, 88 / 94, 92 / 94, 1.0),
    # heldout16 (development material since its first run) misses no title since pages32t (a listing's h2 with the
    # site's footer read as its "byline", a Dublin Core title that is the site's name, a notice with no heading or
    # <title> whose first lines are its title are read now), no year, and six writers: a credit "CBC News" beside its
    # date in the page's header, a site's name in its author element over a column's own "By", a clerk's office
    # signing a notice with no title, an agency's sign-off after editors' initials ("ap / kam / … / AFP"), a byline
    # only at the story's end "(By …)", and teasers' "Por <outlet>" on a page whose story is not shown
    # (pages36a: a wire story's "(By <name>) Enditem" after its last sentence is read)
    "heldout16": (1.0, 47 / 50, 47 / 50, 1.0),
    # heldout17 (development material since its first run, stop 43): since pages32a a post's signature by its date
    # ("Licat on <date>", a name over the date over the title, "Posted on <date> by <linked handle>", a closing
    # "<title> by <name>") and a tag's credit shown under the title are read, a reader's reply is no writer, and
    # b17-031's agency dateline counts no writer; a byline glued to its role ("Jane DoeProduct Manager, Example") is
    # read since pages33a. It misses two writers: two one-person sites whose owner is only the site's name (the
    # <title>'s "— <name>", a possessive "<name>'s Weblog"). No title and no year since pages32t
    # (a blog's name in a heading linking home over the post's h2, a React page streamed into hidden parts)
    "heldout17": (1.0, 39 / 41, 39 / 41, 1.0),
    # heldout18 (development material since its first run, stop 44: recipe pages of 45 sites): every title since
    # pages33t (a social card's title that is the heading with a shop's words added, a heading run on with a place
    # line), and every year but one (a JSON-LD date at odds with the "7/2/23" its byline line shows, now no date):
    # a web vocabulary's date the page writes nowhere a reader sees it is a CMS's stamp, not read; writers since
    # pages33a (a recipe card's buttons, related recipes, "My Favorites" and hRecipe's "fn" are no writers; "Author:
    # Shelly", "Posted By: ~Sani~" are); every year since pages34t ("By: A •7/2/23 43 Comments" is read as the day
    # shown). It misses five writers: a lower-case handle
    # under a star rating, a Hungarian name split across links, a team's "By" far below a page with no title read,
    # and two JSON-LD authors the post never credits but its comment replies and sidebar show (kept: dropping a tag's
    # author shown only in the chrome would lose eight writers elsewhere, in development13, heldout14/15/16)
    "heldout18": (1.0, 40 / 45, 40 / 45, 1.0),
    # heldout19 (development material since its first run, stop 45: news, forum, blog and poem pages of 50 sites
    # from magic-html's benchmark data, 14 of them Chinese): first author and count 32 and 35 at that first run, 44
    # of 49 since pages34a (bylines after labels, a table by language: "作者：", "来源：", "كتب", "Penulis"/"Editor"; a
    # wire story's "(Reporting by …; Editing by …)"; a Q&A user card's "asked …" over the poster; a blog's "posted @";
    # a tag's author by the date under the title; b19-011 and b19-038 relabelled by the convention). Still missed: a
    # provider's name in a Chinese portal's byline slot, a JSON-LD author shown only in the chrome's author box, a
    # Zhihu answerer, a forum poster under a title read from <title>, a blog's "<handle> 的个人博客" line, and (the
    # count) a second writer shown only in the page's script data. Every title and year since pages34t (a site's name
    # after a bullet, a blog's name heading over its Chinese post's heading; a JSON-LD day the page shows only in the
    # Solar Hijri calendar)
    "heldout19": (1.0, 44 / 49, 44 / 49, 1.0),
    # heldout20 (development material since its first run, stop 46: link-preview libraries' saved pages — videos,
    # music, photos, code, forum threads, news, app and event records — of 45 sites): first run 47, 27, 29, 43; raised
    # by pages35 (uploaders under the title, no button/pager words or film credits as writers; b20-085 relabelled),
    # pages36a (47 of 52 writers: a script-only player page's item inside <noscript>, "<title> by <uploader>";
    # "<date> <linked name> <count>" under the title; a <title>'s "<item> by <name>" the page shows alone; "[ITmedia]";
    # a commit's "<handle> authored <date>"; "Posted By" over "<handle> on <date>" in a box beside the item; an
    # event's host no writer) and pages36d (title 49, year 50: a two-digit-year dateline, "since 2001", an album's
    # "released …" line, a weekday date kept in a programme's title, an event's heading under its group's; b20-101
    # relabelled). Still missed: an encyclopedia's creation stamp, a PubMed record's "2014 Jul" citation line, three
    # titles of script-drawn pages (a forum post, a commit, a film record)
    # pages38d: title 50 and year 51 (a tag title with the work's kind and years in brackets after the heading; a
    # PubMed record's "2014 Jul;41(7)" source line)
    "heldout20": (50 / 52, 47 / 52, 47 / 52, 51 / 52),
    # heldout21 (collected blind by pagesb21, stop 47: 62 item pages of 62 sites drawn from a content-extraction
    # benchmark's pages saved from the live web in 2025-26 — company and practice blogs, magazines, documentation,
    # forum and Q&A threads, personal blogs, one arXiv abstract): its first run, development material since; then
    # pages37 (title 58, first author 54, count 56, year 58: a forum's DiscussionForumPosting or a QAPage's Question
    # names the thread's starter; "Started by <name>, <date>" and "<n> points by <handle> on <date>" lines; a
    # category link under a thread's heading is no subtitle; a member's "Join Date" dates no post); pages38a (first
    # author 56, count 58: a credit in words below the story, "This post was written by <name>, <role>" and an
    # "Article by" label over the name at a post's foot); pages38d (title 59, year 60: a one-word heading under a
    # documentation page's "<heading> | <site>" tag; the "Updated" day under the title where the JSON-LD's day is
    # written nowhere — a breadcrumb repeating the title's "2026", a theme that wraps the whole article in chrome);
    # pages38b (first author 57, count 59: a team's credit bearing the site's name is a byline); pages40e (title 61:
    # the first heading that says a tag title in other words, not an FAQ's question further down; a masthead's title
    # set over one-word h1s)
    "heldout21": (61 / 62, 57 / 62, 59 / 62, 61 / 62),  # pages46: b21-006 year
    # heldout22 (collected blind by pagesb22, stop 48: 48 item pages of 48 sites from Firefox Reader View's test pages —
    # news, magazines, blogs, web fiction, an encyclopedia article; eight languages): its first run; then pages39
    # (first author 42, count 43: a name's bracketed initials, "Richard (R.J.) Roe"; a headline shown again in parts
    # over "<date> <time> BY <DESK> STAFF"); pages40d (title 47: a portal's tag title crediting the outlet in
    # full-width brackets, "… （CNET Japan） - <portal>", over the heading that says the title alone); pages40a (first
    # author 44, count 44: an agency's credit alone after the story's last sentence; an empty "作者：" before the
    # editor's label, "作者︱<name>" with a full-width bar); pages40e (title 48: a breadcrumb trail written as a line,
    # "<site> > <series>", is no title)
    # pages42: b22-051's "来源：人民日报海外版" relabelled no byline (README.md's "Source:" convention): 45, 45
    # pages50 (year 46: a reading time glued to a day written without its year, "Mar 1711 min", is no date)
    "heldout22": (1.0, 45 / 48, 45 / 48, 46 / 48),
    # heldout23 (collected blind by pagesb23, stop 49: 77 item pages of 77 sites from scrapinghub's
    # article-extraction-benchmark — news, fact-checks, columns, reviews, press releases, blogs; seven languages):
    # its first run (4104c39), as main's code before the stop read it (12fb64e); then pages41 (first author 72, count
    # 72: a byline that gives its date ends there, the photo credit or widget label under it no co-writer; a JSON-LD
    # Person named by a whole byline, "By A and B, Associated Press"; "By <linked name>" glued to the writer's role)
    # pages42 (first author 76, count 76): a dateline's "TOWN, COUNTRY" and a run of caption headings are no writers;
    # a "By" line under the lead photo's credit and caption is the byline; a staff box's "Editor" does not unsay
    # "… by <name>" under the title
    "heldout23": (1.0, 76 / 77, 76 / 77, 76 / 77),  # pages46: b23-022 title
    # heldout24 (collected blind by pagesb24, stop 50: 84 item pages and one repository front page of 85 sites from
    # postlight/parser's fixtures, whose saving moved most <meta> values into value= — news, business, tech, blogs,
    # press releases, a preprint, a trial record; five languages): its first run (c9ac75a; main's code before the stop,
    # c884a47, read 78 years right); then pages44 (first author 68, count 69: a name glued to its date in sibling
    # elements, "<span class="writer">…</span><span class="date">2019年…</span>"; a name-marked Chinese name in an
    # author box; "Name | e-mail" linked as one byline); pages45 (first author 72, count 72: an author box read
    # without its Follow button, an aria-label byline over aria-hidden words, a handle linked beside the name, one
    # marked name of a "By A, B and C" line standing for the line, the teasers' "By" lines far from the title);
    # pages46 (title 82, year 82: b24-024, b24-061 titles; b24-012 year)
    "heldout24": (82 / 84, 72 / 84, 72 / 84, 82 / 84),
    # heldout25 (collected blind by pagesb25, stop 51: 79 item pages, a listing and a repository page of 81 sites from
    # microlinkhq/metascraper's test pages — tech and business news, blogs, press releases, podcasts, six scholarly
    # pages; English 79, Spanish, Russian): floor at what main's code before the stop read (db99aaf); then pages47
    # (first author 69, count 69: a dashed sign-off at the foot, "— Jane Doe", under a site-signed post) and pages48
    # (year 77: b25-065's dateline marked datePublished in a broken <aside>, b25-064's untagged dateline far above
    # the title); pages49 (first author 70, count 70: b25-014's bare byline under the headline, which the author box
    # at the foot sets over the writer's job, "Editor")
    "heldout25": (79 / 79, 70 / 79, 70 / 79, 77 / 79),
    # heldout26 (collected blind by pagesb26, stop 52: 64 item pages of 64 sites from smallrivers/snacktory's test
    # pages — US news 2010-2017, PR and company blogs, how-to pages; English 63, Russian 1): its first run (dab4fd2)
    # read as main's code before the stop (76094e8); pages52 (first author 53, count 54: outlets, roles and "Printable
    # Version" beside the writer are no co-writers)
    "heldout26": (61 / 64, 53 / 64, 54 / 64, 62 / 64),
}
#: Parts whose listings' item links are each kept among the page's numbered links, as `page FILE --url` numbers them
#: (heldout16's four Wayback captures kept none before their links into the archive were read as the pages copied).
LISTING_PARTS: tuple[Part, ...] = ("academic", "heldout16")


@pytest.mark.skipif(CORPUS is None, reason="the page corpus is not on this machine (set RESEARCH_CRAWLER_PAGECORPUS)")
@pytest.mark.parametrize("part", list(FLOORS))
def test_each_development_part_reads_as_a_person_read_it_at_the_measured_share(part: Part) -> None:
    assert CORPUS is not None
    if part not in PARTS_HELD:
        pytest.skip(f"the corpus at {CORPUS} holds no {part} part")
    items = [page for page in read_page_corpus(CORPUS, parts=(part,)) if page.is_item]
    assert items, f"no item pages in the {part} part"
    agreed = [0, 0, 0, 0]
    for page in items:
        found = read_item_metadata(page.html(), url=page.labels.original_url)
        checks = (
            title_matches(page.labels, found.title),
            first_author_matches(page.labels, found.authors),
            author_count_matches(page.labels, found.authors),
            year_matches(page.labels, found.date),
        )
        agreed = [count + int(ok) for count, ok in zip(agreed, checks, strict=True)]
    shares = [count / len(items) for count in agreed]
    assert all(share >= floor - 1e-9 for share, floor in zip(shares, FLOORS[part], strict=True)), (part, shares)


@pytest.mark.skipif(CORPUS is None, reason="the page corpus is not on this machine (set RESEARCH_CRAWLER_PAGECORPUS)")
@pytest.mark.parametrize("part", LISTING_PARTS)
def test_each_listing_keeps_every_item_link_a_person_counted(part: Part, tmp_path: Path) -> None:
    assert CORPUS is not None
    if part not in PARTS_HELD:
        pytest.skip(f"the corpus at {CORPUS} holds no {part} part")
    listings = [page for page in read_page_corpus(CORPUS, parts=(part,)) if page.is_listing and page.labels.item_links]
    assert listings, f"no listings in the {part} part"
    settings = Settings()
    missing = {}
    for page in listings:
        saved = tmp_path / f"{page.id}.html"
        saved.write_text(page.html(), encoding="utf-8")
        built = page_from_file(
            saved,
            url=page.labels.original_url or None,
            settings=settings.page_view,
            max_links=settings.fetch.max_links_per_page,
        )
        kept = {link.url for link in built.links}
        lost = [url for url in page.labels.item_links if (try_canonicalize_url(url) or url) not in kept]
        if lost:
            missing[page.id] = lost
    assert not missing, missing
