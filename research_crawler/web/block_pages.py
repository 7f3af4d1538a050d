"""Block pages served with a success status: bot challenges (Cloudflare, Imperva, PerimeterX, DataDome,
Akamai, CAPTCHA walls), login walls, paywalls and soft 404s. Their text is not the page that was asked for, so it
must never be read, scored or cited as if it were (crawl4ai #1757: block pages stored as content).

Detection is deliberately conservative, because a false "blocked" hides a real page: a signal (a vendor's
challenge markup or title, or a title/H1 that says the page was not found) counts only on a page with
little main text. Challenge pages are a few sentences; real articles, listings and search pages — even
those that load a vendor's bot-detection script, embed a reCAPTCHA in a comment form, or write *about*
404 errors — are not. The signals are searched in the raw HTML first (cheap); only a page with a signal
is parsed to count its words. A login wall is a sign-in form (a password field) on a page that says it wants a
sign-in and shows little else; a paywall says it wants a subscription or a purchase and shows little else, and has
no item tags (an article page that holds its title and abstract in ``citation_*`` tags is readable behind its
"buy this article" button). A licensed database's "all seats are in use" notice (a limit of concurrent users,
reached) on a page that shows little else is the site being busy: the page asked for is not there, and may be later.
A cookie notice is not a block: the fetcher passes it (`interstitials.py`).
"""

from __future__ import annotations

import html as html_entities
import re
from dataclasses import dataclass
from typing import Any, Literal

from research_crawler.pages.html_tree import parse_html

__all__ = ["MAX_CHALLENGE_WORDS", "MAX_SOFT_404_WORDS", "BlockPage", "detect_block_page", "main_text_words"]

#: A challenge page with more main text than this is taken for a real page that loads a vendor's script.
MAX_CHALLENGE_WORDS = 300
#: A CAPTCHA widget alone is weaker evidence (comment and login forms have one): a tighter limit.
MAX_CAPTCHA_WORDS = 120
#: A page whose title/H1 says "not found" but that has more main text than this is a real page.
MAX_SOFT_404_WORDS = 150
#: A sign-in or subscription wall with more main text than this is a page that also offers a sign-in.
MAX_WALL_WORDS = 150

BlockKind = Literal["challenge", "soft_404", "login_wall", "paywall", "busy"]

#: Patterns searched in the raw HTML are written in lower case and matched on the lower-cased HTML: a
#: case-sensitive search of a literal is many times faster than an IGNORECASE one on a megabyte page.
_FLAGS = re.DOTALL
_TITLE = re.compile(r"<title\b[^>]*>(.*?)</title\s*>", _FLAGS)
_H1 = re.compile(r"<h1\b[^>]*>(.*?)</h1\s*>", _FLAGS)
_TAG = re.compile(r"<[^>]*>")
_SPACE = re.compile(r"\s+")
_MAX_HEADING_CHARS = 300
_MAX_H1S = 5

#: Titles of challenge pages (matched whole, on the lower-cased title with spaces collapsed).
_CHALLENGE_TITLES: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), label)
    for pattern, label in (
        (r"just a moment(?:\.{0,3}|…)", "Cloudflare 'Just a moment…'"),
        (r"attention required!? \| cloudflare", "Cloudflare 'Attention Required!'"),
        (r"please wait\.{0,3} \| cloudflare", "Cloudflare 'Please wait'"),
        (r"access to this page has been denied\.?", "PerimeterX 'Access to this page has been denied'"),
        (r"pardon our interruption\.{0,3}", "Imperva/Distil 'Pardon Our Interruption'"),
        (r"(?:are you a robot|robot or human)\??", "an 'Are you a robot?' check"),
        (r"(?:verifying you are human|human verification|bot verification|security check)\.{0,3}", "a human check"),
        (r"ddos-guard", "DDoS-Guard"),
        (r"sucuri website firewall - access denied", "Sucuri firewall 'Access Denied'"),
        (r"access denied", "an 'Access Denied' page (Akamai style)"),
    )
)


@dataclass(frozen=True, slots=True)
class _Marker:
    """Markup or text that only challenge pages carry: any of `literals` (a fast substring search of the
    lower-cased HTML), confirmed by `confirm` when given."""

    label: str
    literals: tuple[str, ...]
    confirm: re.Pattern[str] | None = None

    def found_in(self, lowered: str) -> bool:
        if not any(literal in lowered for literal in self.literals):
            return False
        return self.confirm is None or self.confirm.search(lowered) is not None


#: Challenge and block pages' own markup and text. Cloudflare's ``challenge-platform`` counts only in the
#: challenge's ``…/orchestrate/`` path: Cloudflare injects its bot-detection scripts
#: (``…/challenge-platform/scripts/jsd/main.js``, ``…/scripts/precursor/…``) into ordinary pages (6 of the 51
#: real saved pages have one). Vendors' tags that ordinary pages also load (DataDome's ``tags.js``) are left out.
_CHALLENGE_MARKERS: tuple[_Marker, ...] = (
    _Marker(
        "Cloudflare challenge",
        (
            "_cf_chl_opt",
            "cf_chl_",
            "cf-chl-",
            "cf-challenge",
            "cf-browser-verification",
            "checking your browser before accessing",
            "checking if the site connection is secure",
            "needs to review the security of your connection before proceeding",
            "enable javascript and cookies to continue",
        ),
    ),
    _Marker(
        "Cloudflare challenge",
        ("/challenge-platform/",),
        re.compile(r"/cdn-cgi/challenge-platform/(?:h/\w+/)?orchestrate/"),
    ),
    _Marker("Cloudflare block page", ("sorry, you have been blocked",)),
    _Marker("Imperva Incapsula 'Request unsuccessful'", ("_incapsula_resource", "incapsula incident id")),
    _Marker("PerimeterX 'Press & Hold'", ("px-captcha", "captcha.px-cdn.net", "press & hold", "press &amp; hold")),
    _Marker("DataDome CAPTCHA", ("captcha-delivery.com",)),
    _Marker("AWS WAF challenge", ("awswafintegration", ".awswaf.com")),
    _Marker("Google 'unusual traffic'", ("our systems have detected unusual traffic from your computer network",)),
    _Marker(
        "Akamai 'Access Denied'",
        ("have permission to access",),
        re.compile(
            r"you don(?:'|&#39;|&#x27;|’)?t have permission to access\b.{0,400}?\breference\s*(?:#|&#35;)", _FLAGS
        ),
    ),
)
#: CAPTCHA widgets: a challenge only with words that ask for one, on a page with very little else.
_CAPTCHA_WIDGET = _Marker(
    "a CAPTCHA form (reCAPTCHA, hCaptcha or Turnstile)",
    (
        "g-recaptcha",
        "h-captcha",
        "cf-turnstile",
        "recaptcha/api.js",
        "hcaptcha.com/1/api.js",
        "challenges.cloudflare.com/turnstile",
    ),
)
_CAPTCHA_WORDS = re.compile(
    r"\b(?:captcha|are you a robot|not a robot|verify (?:that )?you(?:'re| are) (?:a )?human|human verification"
    r"|security check|unusual (?:traffic|activity)|automated (?:access|requests|queries))\b"
)

#: Words that open a not-found heading without changing its meaning ("Oops! That page can't be found.").
_INTERJECTIONS = re.compile(r"^(?:(?:oops|whoops|sorry|uh[- ]?oh|hmm+|ouch|error)\b\W*)+")
_THING = r"(?:page|article|document|file|content|resource|item|paper|record|url|link|post|entry)"
_NOT_FOUND = re.compile(
    r"(?:"
    r"404(?:\s*(?:error|page))*(?:\W*(?:page\s+)?not\s+found)?"
    rf"|(?:(?:the|this|that)\s+)?(?:{_THING}\s+)?not\s+found(?:\W*404)?(?:\s*error)?"
    rf"|(?:(?:the|this|that)\s+)?{_THING}\b[^.!?]{{0,60}}?\b(?:could\s*not|couldn't|can\s*not|cannot|can't)"
    r"\s+be\s+(?:found|located)"
    rf"|(?:(?:the|this|that)\s+)?{_THING}\b[^.!?]{{0,60}}?\b(?:does\s*not|doesn't|no\s+longer)\s+exists?"
    rf"|(?:(?:the|this|that)\s+)?{_THING}\b[^.!?]{{0,60}}?\bis\s+no\s+longer\s+available"
    r"|(?:we|i)\s+(?:can't|cannot|couldn't|could\s+not)\s+find\s+(?:that|this|the|your)\s+page"
    r"|(?:page|file)\s+(?:is\s+)?(?:missing|unavailable|gone)"
    r")\W*"
)
#: Where a title or heading splits into parts ("Page not found | Nature", "404 - Not Found").
_HEADING_PARTS = re.compile(r"\s+[-–—|·•»:]+\s+|\s*[|·•»]\s*|:\s+")
#: An item page's own tags: a page that has them is an item, whatever its heading says.
_ITEM_META = re.compile(r"<meta\b[^>]*\bname\s*=\s*[\"']?(?:citation_title|dc\.title)\b", _FLAGS)

#: Elements whose text a reader does not see as the page's content.
_INVISIBLE_TAGS = frozenset({"script", "style", "noscript", "template", "svg", "select", "option", "head"})
_FRAME_TAGS = frozenset({"nav", "header", "footer", "aside"})
_FRAME_ROLES = frozenset({"navigation", "banner", "contentinfo", "complementary", "search", "menubar"})
_PASSWORD_FIELD = re.compile(r"<input\b[^>]*\btype\s*=\s*[\"']?password\b", _FLAGS)
_SIGN_IN = re.compile(
    r"\b(?:sign|log)\s*-?\s*in\b|\blogin\b|\bauthenticat|\bmembers? only\b|\bregistered users\b|\byour account\b"
)
_PAYWALL = re.compile(
    r"\bsubscribe (?:to|now to) (?:continue|read|access|view)\b|\bsubscribers? only\b|\bfor subscribers\b"
    r"|\b(?:purchase|buy|rent) (?:this |the )?(?:article|paper|chapter|access|pdf|issue)\b|\bpaywall\b"
    r"|\bto (?:continue|keep) reading\b|\byou (?:do not|don't) have access\b|\bget (?:full )?access (?:to|now)\b"
)
#: A licensed site's notice that its concurrent users' limit is reached (searched in the lower-cased HTML).
_BUSY = re.compile(
    r"\b(?:all|no) (?:(?:online|available|licensed|concurrent) )*(?:seats|licen[cs]es) (?:are )?(?:in use|available)\b"
    r"|\bmaximum (?:number of )?(?:concurrent|simultaneous) (?:users|sessions|logins)\b"
    r"|\b(?:concurrent|simultaneous) (?:user|session|login) limit\b"
)
_PAYWALL_LITERALS = re.compile(r"subscri|purchase|buy |rent |paywall|reading|have access|get access")
_SCRIPTS = re.compile(r"<(script|style|noscript|template)\b.*?</\1\s*>", _FLAGS)
_CONSENT = re.compile(r"(?:^|[\s_-])(?:cookies?|consent|gdpr|onetrust|cookiebot)(?:$|[\s_-])", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class BlockPage:
    """Why a page that came with a success status is not the page that was asked for."""

    kind: BlockKind
    signal: str
    words: int

    @property
    def reason(self) -> str:
        """One line for the page's reason (fixed text: nothing of the page's own words is quoted)."""
        if self.kind == "challenge":
            return f"a bot-challenge page ({self.signal}): the site answered with a robot check, not the page"
        if self.kind == "login_wall":
            return "a login wall: the site asks to sign in before it shows the page, and the crawler does not sign in"
        if self.kind == "paywall":
            return "a paywall: the site asks for a subscription or a purchase before it shows the page"
        if self.kind == "busy":
            return "a busy notice: the site says all its seats for concurrent users are taken; the page may open later"
        return f"a soft 404: the page says it was not found (its {self.signal}) and has almost no content"


def detect_block_page(html: str) -> BlockPage | None:
    """The bot challenge or soft 404 that `html` is, or None for an ordinary page (never raises)."""
    if not isinstance(html, str) or not html:
        return None
    lowered = html.lower()
    title_tag = _TITLE.search(lowered)
    title = _heading_text(title_tag.group(1)) if title_tag else ""
    challenge = _challenge_signal(lowered, title)
    item_page = _ITEM_META.search(lowered) is not None
    not_found = None if item_page else _not_found_signal(lowered, title)
    wall = None if item_page or challenge is not None else _wall_signal(lowered, title)
    busy = None if item_page else _BUSY.search(_TAG.sub(" ", _SCRIPTS.sub(" ", lowered)))
    if challenge is None and not_found is None and wall is None and busy is None:
        return None
    words = main_text_words(html)
    if challenge is not None and words <= challenge[1]:
        return BlockPage("challenge", challenge[0], words)
    if not_found is not None and words <= MAX_SOFT_404_WORDS:
        return BlockPage("soft_404", not_found, words)
    if wall is not None and words <= MAX_WALL_WORDS:
        return BlockPage(wall, "title or heading", words)
    if busy is not None and words <= MAX_CHALLENGE_WORDS:
        return BlockPage("busy", "a notice that all seats are in use", words)
    return None


def main_text_words(html: str) -> int:
    """Words of visible text outside navigation, headers, footers, sidebars and consent banners.

    Inside a ``<main>`` (or role=main) element when the page has one.
    """
    root = parse_html(html)
    if root is None:
        return 0
    mains = root.xpath("//main | //*[@role='main']")
    scope = mains[0] if mains else (root.find("body") if root.find("body") is not None else root)
    return len(" ".join(_visible_text(scope)).split())


def _challenge_signal(lowered: str, title: str) -> tuple[str, int] | None:
    """(label, word limit) of the first challenge signal in the lower-cased HTML and title, or None."""
    for pattern, label in _CHALLENGE_TITLES:
        if pattern.fullmatch(title):
            return label, MAX_CHALLENGE_WORDS
    for marker in _CHALLENGE_MARKERS:
        if marker.found_in(lowered):
            return marker.label, MAX_CHALLENGE_WORDS
    if _CAPTCHA_WIDGET.found_in(lowered) and _CAPTCHA_WORDS.search(f"{title} {_TAG.sub(' ', lowered)}"):
        return _CAPTCHA_WIDGET.label, MAX_CAPTCHA_WORDS
    return None


def _wall_signal(lowered: str, title: str) -> BlockKind | None:
    """'login_wall' when the page has a sign-in form and its title or a main heading asks for a sign-in; 'paywall'
    when its title, a heading or its text asks for a subscription or a purchase; else None."""
    h1s = zip(range(_MAX_H1S), _H1.finditer(lowered), strict=False)
    headings = [title, *(_heading_text(found.group(1)) for _, found in h1s)]
    if _PASSWORD_FIELD.search(lowered) and any(_SIGN_IN.search(heading) for heading in headings if heading):
        return "login_wall"
    if any(_PAYWALL.search(heading) for heading in headings if heading):
        return "paywall"
    if _PAYWALL_LITERALS.search(lowered) and _PAYWALL.search(_TAG.sub(" ", _SCRIPTS.sub(" ", lowered))):
        return "paywall"
    return None


def _not_found_signal(lowered: str, title: str) -> str | None:
    """'title' or 'main heading' when that heading says the page was not found, else None."""
    if _says_not_found(title):
        return "title"
    h1s = (_heading_text(found.group(1)) for _, found in zip(range(_MAX_H1S), _H1.finditer(lowered), strict=False))
    if any(_says_not_found(heading) for heading in h1s):
        return "main heading"
    return None


def _says_not_found(heading: str) -> bool:
    """True when a part of `heading`, as a whole, says "not found" ("Page not found | Site", "Error 404")."""
    if not heading:
        return False
    for part in _HEADING_PARTS.split(heading.replace("’", "'")):
        text = _INTERJECTIONS.sub("", part.strip(" \t!.?¡¿\"'()[]")).strip()
        if text and _NOT_FOUND.fullmatch(text):
            return True
    return False


def _heading_text(markup: str) -> str:
    """The lower-cased text of a title or heading's markup, entities decoded, spaces collapsed."""
    text = html_entities.unescape(_TAG.sub(" ", markup[: _MAX_HEADING_CHARS * 4])).lower()
    return _SPACE.sub(" ", text).strip()[:_MAX_HEADING_CHARS]


def _visible_text(element: Any) -> list[str]:
    """The text of `element` a reader sees as content (tails of skipped elements are kept: they follow them)."""
    texts: list[str] = []
    stack: list[tuple[Any, bool]] = [(element, True)]
    while stack:  # iterative: a very deep DOM must not exhaust the recursion limit
        node, is_scope = stack.pop()
        if not is_scope:
            if node.tail:
                texts.append(node.tail)
            continue
        if node is not element and node.tail:
            stack.append((node, False))
        if not isinstance(node.tag, str) or _skipped(node):
            continue
        if node.text:
            texts.append(node.text)
        stack.extend((child, True) for child in reversed(node))
    return texts


def _skipped(node: Any) -> bool:
    tag = node.tag.lower()
    if tag in _INVISIBLE_TAGS or tag in _FRAME_TAGS:
        return True
    if (node.get("role") or "").strip().lower() in _FRAME_ROLES:
        return True
    return bool(_CONSENT.search(f"{node.get('id') or ''} {node.get('class') or ''}"))
