"""Fault-web pages for the "bot-challenge page or soft 404 with status 200" case: challenge and block pages
modelled on what the vendors serve, soft 404s, look-alikes that must stay ``ok``, and a small site that
mixes them for whole runs.

Challenge pages follow the vendors' published markup (Cloudflare's managed challenge and block page,
Akamai's "Access Denied", Imperva Incapsula, PerimeterX, DataDome, AWS WAF, Google's "unusual traffic"
page, a reCAPTCHA wall); each is served with status 200, as they are when a site answers a crawler.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "BLOCK_SITE_QUERY",
    "CHALLENGE_PAGES",
    "LOOKALIKE_PAGES",
    "SOFT_404_PAGES",
    "BlockSite",
    "block_page_site",
]

_RAY = "8a1b2c3d4e5f6a7b"

CHALLENGE_PAGES: dict[str, str] = {
    "cloudflare_managed": (
        "<!DOCTYPE html><html lang='en-US'><head><title>Just a moment...</title>"
        "<meta name='robots' content='noindex,nofollow'><style>*{box-sizing:border-box}</style></head><body>"
        "<div class='main-wrapper' role='main'><div class='main-content'>"
        "<h1 class='zone-name-title h1'>papers.example.org</h1>"
        "<h2 id='challenge-running' class='h2'>Verifying you are human. This may take a few seconds.</h2>"
        "<div id='challenge-stage'></div><div id='challenge-body-text' class='core-msg spacer'>papers.example.org "
        "needs to review the security of your connection before proceeding.</div></div></div>"
        f"<script>(function(){{window._cf_chl_opt={{cvId: '3',cZone: 'papers.example.org',cType: 'managed',"
        f"cRay: '{_RAY}'}};var cpo = document.createElement('script');"
        f"cpo.src = '/cdn-cgi/challenge-platform/h/b/orchestrate/chl_page/v1?ray={_RAY}';"
        "document.getElementsByTagName('head')[0].appendChild(cpo);}());</script>"
        f"<div class='footer' role='contentinfo'><div class='ray-id'>Ray ID: <code>{_RAY}</code></div>"
        "<div id='footer-text'>Performance &amp; security by <a href='https://www.cloudflare.com/'>Cloudflare</a>"
        "</div></div><noscript>Enable JavaScript and cookies to continue</noscript></body></html>"
    ),
    "cloudflare_legacy": (
        "<html><head><title>Just a moment...</title></head><body><table width='100%' height='100%'><tr><td>"
        "<div class='cf-browser-verification cf-im-under-attack'><noscript><h1>Please turn JavaScript on and "
        "reload the page.</h1></noscript><div id='cf-content'><h1><span>Checking your browser before accessing"
        "</span> papers.example.org.</h1><p>This process is automatic. Your browser will redirect to your "
        "requested content shortly.</p><p>Please allow up to 5 seconds&hellip;</p></div>"
        "<form id='challenge-form' action='/list/recent?__cf_chl_jschl_tk__=abc' method='POST'>"
        "<input type='hidden' name='r' value='x'></form></div></td></tr></table></body></html>"
    ),
    "cloudflare_blocked": (
        "<!DOCTYPE html><html><head><title>Attention Required! | Cloudflare</title></head><body>"
        "<div id='cf-wrapper'><div id='cf-error-details' class='cf-error-details-wrapper'>"
        "<h1 data-translate='block_headline'>Sorry, you have been blocked</h1>"
        "<h2 class='cf-subheadline'>You are unable to access papers.example.org</h2>"
        "<h2 data-translate='blocked_why_headline'>Why have I been blocked?</h2><p>This website is using a "
        "security service to protect itself from online attacks. The action you just performed triggered the "
        "security solution.</p><h2>What can I do to resolve this?</h2><p>You can email the site owner to let "
        f"them know you were blocked.</p><p>Cloudflare Ray ID: {_RAY}</p></div></div></body></html>"
    ),
    "akamai_access_denied": (
        "<HTML><HEAD>\n<TITLE>Access Denied</TITLE>\n</HEAD><BODY>\n<H1>Access Denied</H1>\n \n"
        'You don\'t have permission to access "http&#58;&#47;&#47;papers&#46;example&#46;org&#47;list&#47;" on '
        "this server.<P>\nReference&#32;&#35;18&#46;4f2e1002&#46;1700000000&#46;5a6b7c8\n</BODY>\n</HTML>\n"
    ),
    "incapsula": (
        "<html style='height:100%'><head><META NAME='ROBOTS' CONTENT='NOINDEX, NOFOLLOW'>"
        "<meta name='format-detection' content='telephone=no'></head><body style='margin:0px;height:100%'>"
        "<iframe id='main-iframe' src='/_Incapsula_Resource?CWUDNSAI=23&xinfo=9-123-0%200NNN&incident_id=1' "
        "frameborder=0 width='100%' height='100%'>Request unsuccessful. Incapsula incident ID: "
        "1234000560123456789-123456789012345678</iframe></body></html>"
    ),
    "perimeterx": (
        "<!DOCTYPE html><html lang='en'><head><title>Access to this page has been denied.</title>"
        "<script>window._pxAppId = 'PXabc123';</script></head><body><section class='px-container'>"
        "<div class='px-inner'><h1>Before we continue...</h1><p>Press &amp; Hold to confirm you are a human "
        "(and not a bot).</p><div id='px-captcha'></div><p>Reference ID 4a1b-77c2</p></div></section>"
        "</body></html>"
    ),
    "datadome": (
        "<html><head><title>papers.example.org</title><style>#cmsg{animation: A 1.5s;}</style></head>"
        "<body style='margin:0'><p id='cmsg'>Please enable JS and disable any ad blocker</p>"
        "<script data-cfasync='false'>var dd={'rt':'c','cid':'AHrlqAAAAAMA','hsh':'2211F522B61E269B869FA6EAFF',"
        "'t':'fe','s':17434,'e':'6b8d','host':'geo.captcha-delivery.com'}</script>"
        "<script data-cfasync='false' src='https://ct.captcha-delivery.com/c.js'></script></body></html>"
    ),
    "aws_waf": (
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title></title>"
        "<script src='https://a1b2c3d4e5f6.edge.sdk.awswaf.com/a1b2c3d4e5f6/b7c8d9/challenge.js'></script>"
        "<script>AwsWafIntegration.saveReferrer();AwsWafIntegration.checkForceRefresh().then((r) => "
        "{ if (r) { window.location.reload(true); } });</script></head><body><div id='challenge-container'>"
        "</div><noscript><h1>JavaScript is disabled</h1>In order to continue, we need to verify that you're "
        "not a robot.</noscript></body></html>"
    ),
    "google_unusual_traffic": (
        "<html><head><title>https://scholar.example.org/scholar?q=graph</title></head><body><div>"
        "<form id='captcha-form' action='index' method='post'><div class='g-recaptcha' data-sitekey='6Le'></div>"
        "</form><hr><div><b>About this page</b><br><br>Our systems have detected unusual traffic from your "
        "computer network. This page checks to see if it's really you sending the requests, and not a robot."
        "</div></div><script src='https://www.google.com/recaptcha/api.js' async defer></script></body></html>"
    ),
    "recaptcha_wall": (
        "<!DOCTYPE html><html><head><title>Papers Example</title>"
        "<script src='https://www.google.com/recaptcha/api.js'></script></head><body><main><h1>One more step</h1>"
        "<p>Please complete the security check to access papers.example.org.</p><form method='post'>"
        "<div class='g-recaptcha' data-sitekey='6LcXyz'></div><button>Continue</button></form></main>"
        "</body></html>"
    ),
}

_CHROME_NAV = "".join(f"<li><a href='/subjects/{n}'>Subject area {n}</a></li>" for n in range(40))
_CHROME_FOOTER = "".join(f"<a href='/info/{n}'>Information page {n}</a> " for n in range(25))

SOFT_404_PAGES: dict[str, str] = {
    "plain": (
        "<!DOCTYPE html><html><head><title>Page not found</title></head><body><h1>404</h1>"
        "<p>Sorry, the page you were looking for does not exist.</p><p><a href='/'>Home</a></p></body></html>"
    ),
    "with_site_chrome": (
        "<!DOCTYPE html><html><head><title>Page Not Found | Papers Example</title></head><body>"
        f"<header><a href='/'>Papers Example</a><nav><ul>{_CHROME_NAV}</ul></nav>"
        "<form action='/search'><input name='q'><button>Search</button></form></header>"
        "<main><h1>Page Not Found</h1><p>We could not find the page you asked for. It may have been moved or "
        "removed. Try the search box above or browse the subject areas.</p></main>"
        f"<footer>{_CHROME_FOOTER}<p>© Papers Example. All rights reserved.</p></footer></body></html>"
    ),
    "wordpress": (
        "<!DOCTYPE html><html lang='en-US'><head><title>Page not found &#8211; Example Journal</title></head>"
        "<body class='error404'><div id='page' class='site'><div id='content' class='site-content'>"
        "<section class='error-404 not-found'><header class='page-header'><h1 class='page-title'>Oops! That "
        "page can&rsquo;t be found.</h1></header><div class='page-content'><p>It looks like nothing was found "
        "at this location. Maybe try one of the links below or a search?</p></div></section></div></div>"
        "</body></html>"
    ),
    "heading_only": (
        "<!DOCTYPE html><html><head><title>Example Preprints</title></head><body><div class='container'>"
        "<h1>The article you requested could not be found</h1><p>It may have been withdrawn, or the link may "
        "be mistyped.</p><a href='/'>Back to the front page</a></div></body></html>"
    ),
    "error_404_title": (
        "<html><head><title>Error 404 - Not Found</title></head><body><div><h2>Not Found</h2>"
        "<p>The requested URL was not found on this server.</p></div></body></html>"
    ),
}

_ARTICLE_404 = " ".join(
    [
        "A 404 status code means the server could not find the requested resource. Broken links are a",
        "common cause: a page was moved without a redirect, a slug was renamed, or a typo crept into a link.",
        "Search engines treat a soft 404 as a page that says it was not found but answers with status 200,",
        "which wastes crawl budget and confuses analytics. To find broken links, crawl your own site and",
        "collect every response with a 4xx status, then check your server logs for the most requested",
        "missing paths. Fix internal links first, then add permanent redirects for pages that moved, and",
        "return a real 404 or 410 status for content that is gone for good.",
    ]
    * 3
)

LOOKALIKE_PAGES: dict[str, str] = {
    "article_about_404_errors": (
        "<!DOCTYPE html><html><head><title>How to fix 404 errors and soft 404s | Web Craft Blog</title></head>"
        "<body><article><h1>How to fix 404 errors and soft 404s</h1>"
        f"<p>{_ARTICLE_404}</p><h2>Page not found pages that help</h2><p>{_ARTICLE_404}</p></article>"
        "</body></html>"
    ),
    "paper_titled_page_not_found": (
        "<!DOCTYPE html><html><head><title>Page not found: link rot in scholarly references | Example "
        "Preprints</title><meta name='citation_title' content='Page not found: link rot in scholarly references'>"
        "<meta name='citation_author' content='Rivera, Ana'><meta name='citation_date' content='2024/03/02'>"
        "</head><body><h1>Page not found: link rot in scholarly references</h1><p>Abstract: We follow 12,000 "
        "references from preprints to the web pages they cite and measure how many still resolve after five "
        "years. One in four is gone.</p><a href='/pdf/2403.1'>PDF</a></body></html>"
    ),
    "listing_mentioning_not_found": (
        "<!DOCTYPE html><html><head><title>Astrophysics — new submissions</title></head><body>"
        "<h1>Astrophysics — new submissions</h1><ul>"
        "<li><a href='/abs/1'>Dark matter subhaloes not found in deep imaging of dwarf galaxies</a></li>"
        "<li><a href='/abs/2'>Missing baryons found in the warm-hot intergalactic medium</a></li>"
        "<li><a href='/abs/3'>Why the expected gravitational-wave background was not found by pulsar timing"
        "</a></li><li><a href='/abs/4'>Error 404: a catalogue of lost exoplanet candidates</a></li>"
        "</ul></body></html>"
    ),
    "article_with_bot_detection_script_and_comment_captcha": (
        "<!DOCTYPE html><html><head><title>Graph neural networks for protein design | Example Journal</title>"
        "<script src='https://www.google.com/recaptcha/api.js'></script></head><body><article>"
        "<h1>Graph neural networks for protein design</h1>"
        f"<p>{' '.join(['Message passing over residue graphs predicts stable folds for designed sequences.'] * 40)}"
        "</p></article><section id='comments'><h2>Comments</h2><form><textarea name='c'></textarea>"
        "<div class='g-recaptcha' data-sitekey='6L'></div><p>Please verify you are human before posting.</p>"
        "</form></section><script>(function(){var a=document.createElement('script');"
        "a.src='/cdn-cgi/challenge-platform/scripts/jsd/main.js';document.head.appendChild(a);})();</script>"
        "</body></html>"
    ),
    "search_without_results": (
        "<!DOCTYPE html><html><head><title>Search results | Example Preprints</title></head><body>"
        "<h1>Search results</h1><p>No results found for “zzyzx quantum kale”.</p>"
        "<form action='/search'><input name='q' value='zzyzx quantum kale'></form></body></html>"
    ),
    "short_about_page": (
        "<!DOCTYPE html><html><head><title>About Example Preprints</title></head><body><h1>About us</h1>"
        "<p>Example Preprints is a free archive for early research in the life sciences.</p></body></html>"
    ),
}

#: The request whose items the block-page site holds.
BLOCK_SITE_QUERY = "graph neural networks for protein design"


@dataclass(frozen=True)
class BlockSite:
    """A small site (path -> HTML) whose listing links to item pages, a challenge page and soft 404s.

    `ok_items` are item paths whose pages are real; `blocked_items` are item paths listed on the real
    listing whose own pages are soft 404s (kept as items, no metadata from them); `blocked_paths` are
    every path served as a challenge or soft 404; `challenge_only_items` are item paths that appear only
    on a blocked page and so must never be collected.
    """

    pages: dict[str, str]
    ok_items: tuple[str, ...]
    blocked_items: tuple[str, ...]
    blocked_paths: tuple[str, ...]
    challenge_only_items: tuple[str, ...]


def _abstract(title: str, number: int) -> str:
    return (
        f"<!DOCTYPE html><html><head><title>{title}</title><meta name='citation_title' content='{title}'>"
        f"<meta name='citation_author' content='Okafor, Ngozi'><meta name='citation_date' content='2024/05/0{number}'>"
        f"<meta name='citation_doi' content='10.5555/block.{number}'></head><body><h1>{title}</h1>"
        "<h2>Abstract</h2><p>We study graph neural networks for protein design: message passing over residue "
        "contact graphs proposes sequences that fold into the target backbone.</p></body></html>"
    )


def block_page_site() -> BlockSite:
    """The site: `/` lists one real item and one whose page is a soft 404, and links to a "next page" that
    is a Cloudflare challenge (whose own links name items that must never be collected) and a "recent" page
    that is a soft 404."""
    real = {"/abs/1": "Graph neural networks for protein design with equivariant message passing"}
    dead = {"/abs/3": "Scalable graph neural networks for de novo protein design"}
    hidden = {
        "/abs/8": "Graph neural networks for protein design hidden behind a challenge page",
        "/abs/9": "Protein design with graph neural networks seen only by a blocked crawler",
    }

    def listing(title: str, items: dict[str, str], more: str = "") -> str:
        entries = "".join(
            f"<li><a href='{path}'>{name}</a><p>Graph neural networks for protein design.</p></li>"
            for path, name in items.items()
        )
        return (
            f"<!DOCTYPE html><html><head><title>{title}</title></head><body><h1>{title}</h1>"
            f"<ul>{entries}</ul>{more}</body></html>"
        )

    home = listing(
        "Example Preprints: protein design",
        {**real, **dead},
        "<p>More graph neural networks for protein design: <a href='/list/more'>next page</a> · "
        "<a href='/list/recent'>recent</a></p>",
    )
    challenge = CHALLENGE_PAGES["cloudflare_managed"].replace(
        "</noscript>",
        "</noscript>" + "".join(f"<p><a href='{path}'>{title}</a></p>" for path, title in hidden.items()),
    )
    pages = {
        "/": home,
        "/list/more": challenge,
        "/list/recent": SOFT_404_PAGES["with_site_chrome"],
        "/abs/3": SOFT_404_PAGES["wordpress"],
        **{path: _abstract(title, number) for number, (path, title) in enumerate(real.items(), 1)},
        **{path: _abstract(title, number) for number, (path, title) in enumerate(hidden.items(), 8)},
    }
    return BlockSite(
        pages=pages,
        ok_items=tuple(real),
        blocked_items=tuple(dead),
        blocked_paths=("/list/more", "/list/recent", "/abs/3"),
        challenge_only_items=tuple(hidden),
    )
