"""A small journal on loopback that hides every page behind a notice — a cookie notice with a continue link, a
consent form, a region chooser, a question about who the visitor is (answered by buttons or by radio buttons), a
notice whose only button needs a script, a sign-in wall or a paywall — until its cookie is set, as many real
publishers do. The tests and the reliability catalogue pass (or refuse) it.

Built on `FaultServer.handle`, so every request is recorded with its cookies and its form.
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from typing import Literal
from urllib.parse import quote

from research_crawler.eval.reliability.fault_web import FaultServer, Hit, Reply

__all__ = ["CONSENT_COOKIE", "ConsentSite", "NoticeStyle", "journal_pages"]

NoticeStyle = Literal[
    "link", "form", "region", "audience", "audience_radio", "script", "login", "paywall", "stubborn"
]  # fmt: skip
CONSENT_COOKIE = "consent"

_POLICY = (
    "<p>We and our partners use cookies and similar technologies to keep this site working, to measure how it is "
    "used and to show you relevant content. You can accept all cookies, allow only the ones the site needs to work, "
    "or change your choice at any time in the cookie settings. Read our privacy policy for details.</p>"
)


def journal_pages(title: str, papers: list[tuple[str, str]]) -> dict[str, str]:
    """A home page listing `papers` ((slug, title) pairs) and one abstract page each."""
    items = "".join(f'<li><a href="/article/{slug}">{html.escape(name)}</a></li>' for slug, name in papers)
    pages = {
        "/": f"<html><head><title>{html.escape(title)}</title></head><body><main><h1>{html.escape(title)}</h1>"
        f"<h2>Latest articles</h2><ul>{items}</ul></main></body></html>"
    }
    for slug, name in papers:
        pages[f"/article/{slug}"] = (
            f"<html><head><title>{html.escape(name)}</title></head><body><main><h1>{html.escape(name)}</h1>"
            f"<p>Abstract. This article studies {html.escape(name.lower())} in depth and reports new results on "
            "several benchmarks, with a discussion of open problems.</p></main></body></html>"
        )
    return pages


@dataclass
class ConsentSite:
    """`pages` (path → HTML) behind a notice of `style` on `server`; `passes` counts the requests that set the
    cookie and `choices` what each chose."""

    server: FaultServer
    pages: dict[str, str]
    style: NoticeStyle = "link"
    passes: int = 0
    choices: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        for path in self.pages:
            self.server.handle(path, self._page)
        self.server.handle("/consent", self._consent)

    def _page(self, hit: Hit) -> Reply:
        path = hit.path.split("?", 1)[0]
        if hit.cookies.get(CONSENT_COOKIE) and self.style not in ("login", "paywall", "stubborn"):
            return Reply(200, self.pages[path])
        return Reply(200, self.notice(path))

    def _consent(self, hit: Hit) -> Reply:
        form = hit.form
        choice = (form.get("choice") or form.get("set") or ["continue"])[0]
        target = (form.get("next") or ["/"])[0]
        if not target.startswith("/") or target.startswith("//"):
            target = "/"
        self.passes += 1
        self.choices.append(choice)
        cookie = f"{CONSENT_COOKIE}={quote(choice)}; Path=/; HttpOnly; SameSite=Lax"
        return Reply(303, "", headers={"Location": target, "Set-Cookie": cookie})

    def notice(self, path: str) -> str:
        """The notice shown in place of `path`."""
        next_path = html.escape(quote(path), quote=True)
        head = '<html><head><title>{}</title></head><body><header><a href="/">Example Journal</a></header>'
        if self.style in ("link", "stubborn"):
            return (
                head.format("Cookie settings")
                + f"<main><h1>Cookie settings</h1>{_POLICY}<p><a href='/privacy'>Privacy policy</a></p>"
                f"<p><a href='/consent?next={next_path}'>Continue to site</a></p></main></body></html>"
            )
        if self.style == "form":
            return (
                head.format("Example Journal") + f"<div id='cookie-consent' class='consent-dialog'>{_POLICY}"
                "<form method='post' action='/consent'>"
                f"<input type='hidden' name='next' value='{next_path}'>"
                "<button type='submit' name='choice' value='all'>Accept all cookies</button>"
                "<button type='submit' name='choice' value='necessary'>Only necessary cookies</button>"
                "</form><a href='/cookie-settings'>Manage settings</a></div></body></html>"
            )
        if self.style == "region":
            return (
                head.format("Example Journal — choose your region") + "<main><h1>Choose your region</h1><ul>"
                f"<li><a href='/consent?set=de&amp;next={next_path}'>Deutschland</a></li>"
                f"<li><a href='/consent?set=fr&amp;next={next_path}'>France</a></li>"
                f"<li><a href='/consent?set=intl&amp;next={next_path}'>International</a></li>"
                "</ul></main></body></html>"
            )
        if self.style == "audience":
            return (
                head.format("Who are you? — Example Journal")
                + "<main><h1>Welcome to Example Journal</h1><p>This site publishes research for healthcare "
                "professionals and researchers. Please tell us who you are to continue.</p>"
                f"<form method='post' action='/consent'><input type='hidden' name='next' value='{next_path}'>"
                "<button name='choice' value='hcp'>I am a healthcare professional</button>"
                "<button name='choice' value='researcher'>I am a researcher</button>"
                "<button name='choice' value='public'>I am a patient or a member of the public</button>"
                "</form><p><a href='/login'>Members: sign in</a></p></main></body></html>"
            )
        if self.style == "audience_radio":
            return (
                head.format("Example Journal")
                + "<main><h1>Are you a healthcare professional?</h1><p>The information on this site is intended "
                f"for healthcare professionals.</p><form method='get' action='/consent'>"
                f"<input type='hidden' name='next' value='{next_path}'>"
                "<label><input type='radio' name='choice' value='yes-hcp'> Yes, I am a healthcare professional"
                "</label><label><input type='radio' name='choice' value='no-public'> No, I am a member of the "
                "public</label><button type='submit'>Continue</button></form></main></body></html>"
            )
        if self.style == "script":
            return (
                head.format("We value your privacy") + f"<main><h1>We value your privacy</h1>{_POLICY}"
                "<button onclick=\"document.cookie='consent=all';location.reload()\">Accept</button>"
                "</main></body></html>"
            )
        if self.style == "login":
            return (
                head.format("Sign in — Example Journal")
                + "<main><h1>Sign in to continue</h1><form method='post' action='/login'>"
                "<label>Email <input name='email'></label><label>Password <input type='password' name='password'>"
                "</label><button>Sign in</button></form></main></body></html>"
            )
        return (
            head.format("Subscribe — Example Journal")
            + "<main><h1>Subscribe to continue reading</h1><p>This article is available to subscribers only. "
            "Purchase this article for 39.95 USD or sign in through your institution.</p></main></body></html>"
        )
