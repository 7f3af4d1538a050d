"""Consent interstitials: a page that only asks for consent is passed the way a person passes it (its continue link,
its form with the least consent, its international site, a researcher's answer to "who are you?"), the cookie kept
for that site alone and for the run alone; sign-in walls, paywalls and notices that cannot be passed end with their
reason said plainly."""

from __future__ import annotations

from pathlib import Path

import pytest
from fault_server import FaultServer

from research_crawler.config.settings import FetchSettings
from research_crawler.eval.reliability.consent_site import CONSENT_COOKIE, ConsentSite, journal_pages
from research_crawler.pages.page import Determination
from research_crawler.web.block_pages import detect_block_page
from research_crawler.web.fetcher import Fetcher
from research_crawler.web.html_body import decode_html
from research_crawler.web.interstitials import describe_ways_through, find_interstitial

REALWEB = Path(__file__).resolve().parents[3] / "shared" / "realweb" / "pages"
PAPERS = [("gnn", "Graph neural networks for molecules"), ("ssm", "State space models for long sequences")]


def journal(server: FaultServer, style: str) -> ConsentSite:
    return ConsentSite(server, journal_pages("Example Journal", PAPERS), style=style)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("style", "choice"),
    [
        ("link", "continue"),
        ("form", "necessary"),
        ("region", "intl"),
        ("audience", "researcher"),  # the researcher's answer, never the public's, never "sign in"
        (
            "audience_radio",
            "no-public",
        ),  # a radio button checked (never a profession it cannot declare), "Continue" pressed
    ],
)
async def test_a_notice_is_passed_and_the_page_behind_it_read(
    fault_server: FaultServer, fast_settings: FetchSettings, style: str, choice: str
) -> None:
    site = journal(fault_server, style)
    async with Fetcher(fast_settings) as fetcher:
        page = await fetcher.fetch(fault_server.url("/"), site_url=fault_server.url("/"))
    assert page.ok, page.reason
    assert page.title == "Example Journal" and "Graph neural networks for molecules" in page.markdown
    assert page.final_url == fault_server.url("/")
    assert "passed" in page.reason and "cookie kept for this site" in page.reason
    assert site.passes == 1 and site.choices == [choice]  # the form's "only necessary", the international site


async def test_an_audience_question_says_what_it_answered(
    fault_server: FaultServer, fast_settings: FetchSettings
) -> None:
    journal(fault_server, "audience")
    async with Fetcher(fast_settings) as fetcher:
        page = await fetcher.fetch(fault_server.url("/article/gnn"), site_url=fault_server.url("/"))
    assert page.ok and "State space" not in page.markdown and "Graph neural networks" in page.title
    assert "passed a page asking who the visitor is first (the crawler answered it as a researcher" in page.reason
    (post,) = fault_server.hits_for("/consent")
    assert post.method == "POST" and post.form == {"next": ["/article/gnn"], "choice": ["researcher"]}
    assert not fault_server.hits_for("/login")


def test_a_question_who_the_visitor_is_under_a_cookie_banner_is_answered() -> None:
    html = (
        "<html><head><title>Journal</title></head><body><main><h1>Welcome to the Journal</h1><p>Please tell us who "
        "you are to continue.</p><form method=post action='/role'><button name=r value=sci>I am a researcher</button>"
        "<button name=r value=pub>I am a member of the public</button></form></main><div id='cookie-banner'><p>We use "
        "cookies.</p><button>Accept all cookies</button></div></body></html>"
    )
    found = find_interstitial(html, url="https://example.org/paper/1")
    assert found is not None and found.kind == "audience" and found.action is not None
    assert dict(found.action.fields)["r"] == "sci"


@pytest.mark.parametrize(
    ("answers", "chosen"),
    [
        # no researcher's answer: the public's, never a profession the tool cannot declare for its user
        (
            "<button name=r value=hcp>I am a healthcare professional</button><button name=r value=pub>I am a "
            "member of the public</button>",
            "pub",
        ),
        # a no to the question, never a yes that would declare it
        ("<button name=r value=yes>Yes</button><button name=r value=no>No</button>", "no"),
        # an answer that declares nothing before a status ("student") or the public's
        (
            "<button name=r value=st>Student</button><button name=r value=pub>General public</button>"
            "<button name=r value=other>Other</button>",
            "other",
        ),
        # a drop-down list of roles sent by the form's button
        (
            "<select name=r><option value=''>Select your role</option><option value=pt>Patient</option>"
            "<option value=sci>Scientist</option></select><button>Continue</button>",
            "sci",
        ),
    ],
)
def test_the_answer_chosen_is_the_most_researcher_like(answers: str, chosen: str) -> None:
    html = (
        "<html><head><title>Journal</title></head><body><main><h1>Are you a healthcare professional?</h1>"
        f"<form method=post action='/answer'>{answers}</form></main></body></html>"
    )
    found = find_interstitial(html, url="https://example.org/paper/1")
    assert found is not None and found.kind == "audience" and found.action is not None
    assert dict(found.action.fields)["r"] == chosen and found.action.action == "https://example.org/answer"


@pytest.mark.parametrize(
    "answers",
    [
        "<button name=r value=hcp>I am a healthcare professional</button><button name=r value=yes>Yes, I confirm"
        "</button>",
        "<button name=r value=hcp>Healthcare professional</button><button name=r value=pt>Patient or carer</button>",
    ],
)
def test_a_question_offering_only_declarations_is_not_passed(answers: str) -> None:
    html = (
        "<html><head><title>Journal</title></head><body><main><h1>Are you a healthcare professional?</h1>"
        f"<form method=post action='/answer'>{answers}</form></main></body></html>"
    )
    found = find_interstitial(html, url="https://example.org/paper/1")
    assert found is not None and found.kind == "audience"
    assert found.action is None and "never gives for you" in found.how


async def test_the_consent_form_is_posted_as_a_browser_would(
    fault_server: FaultServer, fast_settings: FetchSettings
) -> None:
    journal(fault_server, "form")
    async with Fetcher(fast_settings) as fetcher:
        await fetcher.fetch(fault_server.url("/article/gnn"), site_url=fault_server.url("/"))
    (post,) = [hit for hit in fault_server.hits_for("/consent")]
    assert post.method == "POST" and post.headers["content-type"] == "application/x-www-form-urlencoded"
    assert post.form == {"next": ["/article/gnn"], "choice": ["necessary"]}  # the hidden field and one button


async def test_the_cookie_is_kept_for_the_site_for_the_run(
    fault_server: FaultServer, fast_settings: FetchSettings
) -> None:
    site = journal(fault_server, "link")
    home = fault_server.url("/")
    async with Fetcher(fast_settings) as fetcher:
        assert (await fetcher.fetch(home, site_url=home)).ok
        second = await fetcher.fetch(fault_server.url("/article/gnn"), site_url=home)
    assert second.ok and "passed" not in second.reason  # no notice the second time
    assert site.passes == 1
    assert fault_server.hits_for("/article/gnn")[0].cookies == {CONSENT_COOKIE: "continue"}
    async with Fetcher(fast_settings) as later_run:  # a new run starts with no cookie
        assert (await later_run.fetch(fault_server.url("/article/ssm"), site_url=home)).ok
    assert site.passes == 2 and fault_server.hits_for("/article/ssm")[0].cookies == {}


async def test_a_cookie_never_goes_to_another_site(
    fault_server: FaultServer, other_server: FaultServer, fast_settings: FetchSettings
) -> None:
    journal(fault_server, "link")
    for path in ("/", "/again"):
        other_server.page(path, "<html><head><title>Other</title></head><body><p>Another site.</p></body></html>")
    async with Fetcher(fast_settings) as fetcher:
        assert (await fetcher.fetch(fault_server.url("/"), site_url=fault_server.url("/"))).ok
        assert (await fetcher.fetch(other_server.url("/"), site_url=other_server.url("/"))).ok
        # the same host on another port is another site, even when it is explored as part of the first
        assert (await fetcher.fetch(other_server.url("/again"), site_url=fault_server.url("/"))).ok
    assert all("cookie" not in hit.headers for hit in other_server.hits)


async def test_the_way_through_obeys_robots_txt(fault_server: FaultServer, fast_settings: FetchSettings) -> None:
    site = journal(fault_server, "link")
    fault_server.robots("User-agent: *\nDisallow: /consent\n")
    async with Fetcher(fast_settings) as fetcher:
        page = await fetcher.fetch(fault_server.url("/"), site_url=fault_server.url("/"))
    assert page.determination is Determination.BLOCKED
    assert "cookie consent page whose way through failed" in page.reason and "robots.txt" in page.reason
    assert site.passes == 0 and not fault_server.hits_for("/consent")


@pytest.mark.parametrize(
    ("style", "reason"),
    [
        ("login", "a login wall: the site asks to sign in"),
        ("paywall", "a paywall: the site asks for a subscription or a purchase"),
        ("script", "offers no way through without a script"),
        ("stubborn", "was shown again after the crawler followed its continue link"),
    ],
)
async def test_walls_that_are_not_passed_say_why(
    fault_server: FaultServer, fast_settings: FetchSettings, style: str, reason: str
) -> None:
    journal(fault_server, style)
    async with Fetcher(fast_settings) as fetcher:
        page = await fetcher.fetch(fault_server.url("/"), site_url=fault_server.url("/"))
    assert page.determination is Determination.BLOCKED and reason in page.reason
    assert not page.markdown and not page.links and not page.html
    assert not fault_server.hits_for("/login")  # nobody signs in


async def test_a_notice_posting_to_another_site_is_not_followed(
    fault_server: FaultServer, other_server: FaultServer, fast_settings: FetchSettings
) -> None:
    fault_server.page(
        "/",
        "<html><head><title>Cookie consent</title></head><body><h1>Cookie consent</h1><p>We use cookies.</p>"
        f"<form method='post' action='{other_server.url('/consent')}'><button>Accept</button></form></body></html>",
    )
    async with Fetcher(fast_settings) as fetcher:
        page = await fetcher.fetch(fault_server.url("/"), site_url=fault_server.url("/"))
    assert page.determination is Determination.BLOCKED and "no way through" in page.reason
    assert other_server.hit_count == 0


def test_a_question_whose_answers_lead_to_another_site_says_so() -> None:
    html = (
        "<html><head><title>Journal</title></head><body><main><h1>Are you a healthcare professional?</h1>"
        "<form method=post action='https://gate.other.example/answer'><button name=r value=res>Researcher</button>"
        "<button name=r value=pub>Member of the public</button></form></main></body></html>"
    )
    found = find_interstitial(html, url="https://example.org/paper/1")
    assert found is not None and found.kind == "audience" and found.action is None
    assert found.how == "whose answers lead to another site, where the crawler does not follow them"


def test_a_way_through_taken_twice_is_said_once() -> None:
    twice = describe_ways_through(["answered it as a researcher"] * 2, "and then")
    assert twice == "answered it as a researcher, twice"
    thrice = describe_ways_through(["submitted its consent form"] * 3, "and")
    assert thrice == "submitted its consent form, 3 times"
    assert describe_ways_through(["submitted its consent form", "answered it as a researcher"], "and then") == (
        "submitted its consent form and then answered it as a researcher"
    )


async def test_a_page_with_a_cookie_banner_is_read_as_it_is(
    fault_server: FaultServer, fast_settings: FetchSettings
) -> None:
    items = "".join(f"<li><a href='/paper/{n}'>Paper number {n} on graph learning</a></li>" for n in range(12))
    fault_server.page(
        "/",
        "<html><head><title>Papers</title></head><body><div id='cookie-banner'><p>We use cookies.</p>"
        "<form method='post' action='/consent'><button>Accept</button></form></div>"
        f"<main><h1>Papers</h1><p>The newest papers of the archive, listed by date.</p><ul>{items}</ul></main>"
        "</body></html>",
    )
    async with Fetcher(fast_settings) as fetcher:
        page = await fetcher.fetch(fault_server.url("/"))
    assert page.ok and "passed" not in page.reason and len(page.links) == 12
    assert not fault_server.hits_for("/consent")


def test_no_saved_real_page_is_taken_for_a_notice_or_a_wall() -> None:
    pages = sorted(REALWEB.glob("*.html"))
    assert len(pages) >= 50
    for path in pages:
        html = decode_html(path.read_bytes(), None)
        assert find_interstitial(html, url="https://example.org/page") is None, path.name
        assert detect_block_page(html) is None, path.name


@pytest.mark.parametrize(
    "html",
    [
        # an article about cookie consent is an article
        "<html><head><title>Cookie consent banners and the GDPR</title>"
        "<meta name='citation_title' content='Cookie consent banners and the GDPR'></head>"
        "<body><h1>Cookie consent banners and the GDPR</h1><p>Abstract.</p></body></html>",
        # a short page with a sign-in form in its header is not a login wall
        "<html><head><title>Search results</title></head><body><header><form><input name=u>"
        "<input type=password name=p></form></header><main><h1>Search results</h1>"
        + "".join(f"<p><a href='/p/{n}'>A result about protein folding number {n}</a></p>" for n in range(15))
        + "</main></body></html>",
        # an empty listing under a cookie banner (a dialog labelled "Cookie consent") is an empty listing
        "<html><head><title>Optics recent submissions | Archive</title></head><body><header><a href='/'>Archive"
        "</a></header><main><h1>Optics</h1><h2>Recent submissions</h2><p>No entries in this listing.</p></main>"
        "<div id='cookie-consent' class='cookie-banner' role='dialog' aria-label='Cookie consent'><p>We use cookies "
        "to keep you signed in and measure how the site is used.</p><button>Accept all cookies</button>"
        "<button>Reject optional cookies</button></div></body></html>",
        # a privacy and cookie policy explains; it asks nothing
        "<html><head><title>Privacy | Archive</title></head><body><main><h1>Privacy and cookie policy</h1><h2>Cookies"
        "</h2><p>Essential cookies keep you signed in. Optional analytics cookies are only set after you accept them."
        "</p></main><div class='cookie-banner' role='dialog' aria-label='Cookie consent'><p>We use cookies.</p>"
        "<button>Accept all cookies</button></div></body></html>",
        # a sign-in for healthcare professionals is a login wall, never answered
        "<html><head><title>Who are you?</title></head><body><main><h1>Are you a healthcare professional?</h1>"
        "<form method=post action='/login'><input name=email><input type=password name=pw>"
        "<button>I am a healthcare professional: sign in</button></form></main></body></html>",
        # an article that asks the question in its text, with a role selector beside it, is an article
        "<html><head><title>Who are you? Identity in clinical teams</title></head><body><main><h1>Who are you? "
        "Identity in clinical teams</h1><p>"
        + "Clinicians and researchers describe their roles at work. "
        * 40
        + "</p><form action='/prefs'><select name=role><option>Researcher</option><option>Patient</option></select>"
        "<button>Save</button></form></main></body></html>",
        # a page offering nothing but links to sign in or register asks nothing a researcher answers
        "<html><head><title>Are you a healthcare professional?</title></head><body><main><h1>Are you a healthcare "
        "professional?</h1><p><a href='/login'>Sign in</a> <a href='/register'>Register</a></p></main></body>"
        "</html>",
    ],
)
def test_look_alikes_are_ordinary_pages(html: str) -> None:
    assert find_interstitial(html, url="https://example.org/") is None
    assert detect_block_page(html) is None


@pytest.mark.browser
async def test_a_notice_met_in_the_browser_is_passed_and_the_page_rendered_with_the_cookie(
    fault_server: FaultServer, fast_settings: FetchSettings
) -> None:
    site = journal(fault_server, "form")
    settings = fast_settings.model_copy(update={"render": "browser", "page_deadline_s": 30.0, "browser_wait_s": 0.2})
    async with Fetcher(settings) as fetcher:
        page = await fetcher.fetch(fault_server.url("/"), site_url=fault_server.url("/"))
    assert page.ok and page.render == "browser", page.reason
    assert "Graph neural networks for molecules" in page.markdown and "passed a cookie consent page" in page.reason
    assert site.passes == 1 and site.choices == ["necessary"]
    rendered_again = [hit for hit in fault_server.hits_for("/") if CONSENT_COOKIE in hit.cookies]
    assert rendered_again and rendered_again[-1].cookies[CONSENT_COOKIE] == "necessary"


@pytest.mark.browser
async def test_a_cookie_a_page_sets_in_the_browser_stays_with_its_site(
    fault_server: FaultServer, other_server: FaultServer, fast_settings: FetchSettings
) -> None:
    fault_server.page(
        "/",
        "<html><head><title>Home</title></head><body><p>Welcome to the archive of papers.</p>"
        "<script>document.cookie = 'seen=yes; path=/';</script></body></html>",
    )
    fault_server.page("/next", "<html><head><title>Next</title></head><body><p>More papers.</p></body></html>")
    other_server.page("/", "<html><head><title>Other</title></head><body><p>Another site.</p></body></html>")
    home = fault_server.url("/")
    async with Fetcher(fast_settings.model_copy(update={"page_deadline_s": 30.0})) as fetcher:
        assert (await fetcher.fetch(home, render="browser", site_url=home)).ok
        assert (await fetcher.fetch(fault_server.url("/next"), render="http", site_url=home)).ok
        assert (await fetcher.fetch(other_server.url("/"), render="http", site_url=other_server.url("/"))).ok
    assert fault_server.hits_for("/next")[0].cookies == {"seen": "yes"}
    assert "cookie" not in other_server.hits_for("/")[0].headers
