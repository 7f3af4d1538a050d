"""A news post that announces a work: its heading names the news, its text shows the work as a reference does (title
in bold, authors' names below), and the post is signed by an office. Written for the test in the shape of a kind of
real page (a lab's or a centre's blog); none is a copy of one."""

from __future__ import annotations

import pytest

from research_crawler.pages.metadata import read_item_metadata

URL = "https://lab.example.net/2025/02/03/our-new-paper/"
WORK = "Tidal Mixing Shapes Plankton Blooms in Shallow Fjords"
TEXT = "<p>" + "A sentence about the study that goes on for a while to make a paragraph of it. " * 3 + "</p>"


def _post(heading: str, reference: str, *, head: str = "", aside: str = "") -> str:
    return (
        f"<!doctype html><html><head><title>{heading} – Fjord Lab</title>{head}"
        f'<meta property="og:title" content="{heading}"></head><body><header><a href="/">Fjord Lab</a></header>'
        f"<main><article><header><h1>{heading}</h1><div>Posted on February 3, 2025 by <span class='author'>Media "
        f"Team</span></div></header><div class='entry-content'><p>We are glad to share a new paper.</p>{reference}"
        f"{TEXT}</div></article></main><aside>{aside}</aside></body></html>"
    )


@pytest.mark.parametrize(
    "reference",
    [
        f"<p><strong>{WORK}</strong><br>Ana Lopes, Jon Berg and Mia Sato</p>",
        f"<p><b>{WORK}</b><br><a href='/people/ana'>Ana Lopes</a>, Jon Berg and Mia Sato</p>",
        f"<p><strong>{WORK}</strong></p><p>Ana Lopes, Jon Berg and Mia Sato</p>",
    ],
)
@pytest.mark.parametrize("heading", [f"New paper: {WORK}", "Congratulations to Ana Lopes on a new paper"])
def test_the_work_a_post_shows_as_a_reference_is_the_item_not_the_post(heading: str, reference: str) -> None:
    found = read_item_metadata(_post(heading, reference), url=URL)
    assert found.title == WORK
    assert found.authors == ["Ana Lopes", "Jon Berg", "Mia Sato"]
    assert found.date == "2025-02-03"


def test_a_post_with_no_reference_or_two_of_them_or_a_work_s_own_tags_keeps_its_own_reading() -> None:
    plain = read_item_metadata(_post("Summer school: applications open", ""), url=URL)
    assert plain.title == "Summer school: applications open"
    two = f"<p><strong>{WORK}</strong><br>Ana Lopes</p>"
    two += "<p><strong>Winter Ice and Diatom Succession</strong><br>Jon Berg</p>"
    assert read_item_metadata(_post("Two new papers", two), url=URL).title == "Two new papers"
    # a bold line over a line that is no list of names is no reference
    emphasis = f"<p><strong>{WORK}</strong><br>Read the whole story in our newsletter</p>"
    assert read_item_metadata(_post("News", emphasis), url=URL).title == "News"
    # references in the page's sidebar are the site's, not the post's
    aside = f"<p><strong>{WORK}</strong><br>Ana Lopes, Jon Berg and Mia Sato</p>"
    assert read_item_metadata(_post("News from the lab", "", aside=aside), url=URL).title == "News from the lab"
    # a work's own page, whose citation tags name it, is read from them
    tags = '<meta name="citation_title" content="A New Paper"><meta name="citation_author" content="Ana Lopes">'
    own = read_item_metadata(_post("A New Paper", f"<p><strong>{WORK}</strong><br>Jon Berg</p>", head=tags), url=URL)
    assert own.title == "A New Paper"


def _message(subject: str, body: str) -> str:
    """A mailing list's message as its web archive keeps it: the subject over the poster and the time, the body as
    preformatted text."""
    return (
        f"<html><head><title>{subject}</title></head><body><h1>{subject}</h1><b>Ana Lopes</b> "
        "<a href='mailto:list@lists.example.org'>ana.lopes at fjord.example</a><br><i>Mon Feb  3 09:12:44 UTC 2025</i>"
        f"<ul><li>Next message: <a href='000124.html'>[Fjords] Re: Sampling season</a></li></ul><hr><pre>{body}</pre>"
        "<hr><a href='/mailman/listinfo/fjords'>More information about the Fjords mailing list</a></body></html>"
    )


@pytest.mark.parametrize(
    "subject", [f"[Fjords] New paper: {WORK}", f"[Fjords] {WORK} (new article)", f"Publication announcement: {WORK}"]
)
def test_a_message_announcing_a_paper_gives_the_paper_its_body_shows(subject: str) -> None:
    body = f"Dear all,\n\nwe are happy to share a new paper:\n\n  {WORK}\n  Jon Berg, Mia Sato and Ana Lopes\n\n"
    body += "Abstract:\nA sentence about the study.\n\nBest wishes,\nAna Lopes\n"
    found = read_item_metadata(_message(subject, body), url="https://lists.example.org/pipermail/fjords/000123.html")
    assert found.title == WORK
    assert found.authors == ["Jon Berg", "Mia Sato", "Ana Lopes"]
    assert found.date == "2025-02-03"


def test_a_message_whose_body_shows_no_reference_keeps_its_subject() -> None:
    # the subject's words on a line of their own, with no names under them, are no reference
    body = f"Dear all,\n\n  {WORK}\n\nis the title of my talk next week.\n"
    found = read_item_metadata(_message(f"Talk: {WORK}", body), url="https://lists.example.org/p/000125.html")
    assert found.title == f"Talk: {WORK}"


_POSTING = '<script type="application/ld+json">{"@type": "BlogPosting", "author": {"name": "Media Team"}}</script>'


def test_a_blog_post_crediting_its_paper_to_people_gives_them_as_the_authors() -> None:
    credit = "<p>Our paper by Ana Lopes, Jon Berg and Mia Sato has just come out in <em>Limnology</em>.</p>"
    found = read_item_metadata(_post(WORK, credit, head=_POSTING), url=URL)
    assert found.authors == ["Ana Lopes", "Jon Berg", "Mia Sato"]
    # a page that is no post, or a post crediting two sets of people (a roundup), keeps its byline
    assert read_item_metadata(_post(WORK, credit), url=URL).authors == ["Media Team"]
    two = credit + "<p>A study by Lena Holm and Omar Diaz appeared too.</p>"
    assert read_item_metadata(_post(WORK, two, head=_POSTING), url=URL).authors == ["Media Team"]
