"""Catalogue case of hostile markup in the Presenter's prose: raw HTML with event handlers, scripts and embeds, and
images hidden from a naive reader (a mismatched backtick run, an HTML block, a reference): the guarded report, as a
CommonMark viewer renders it, runs nothing and requests nothing outside the fetched set."""

from __future__ import annotations

import lxml.html
from markdown_it import MarkdownIt

from research_crawler.eval.reliability.catalogue import Outcome, case
from research_crawler.report.guard import guard_report
from research_crawler.report.models import ReportItem

_CANARY = "http://127.0.0.3/track?q=secret"
_ITEM = ReportItem(
    rank=1, title="Diffusion Models for Protein Design", url="https://papers.test/abs/1", site="https://papers.test/",
    found_on="https://papers.test/list", collector_score=8.0,
)  # fmt: skip
_PROSE = [
    "<details open ontoggle=alert(1)>x</details>",
    "<input autofocus onfocus=alert(1)>",
    "<div onmouseover=alert(1)>hover</div>",
    "<a onclick=alert(1)>click</a>",
    "<video><source onerror=alert(1)></video>",
    "<img src=x onerror=alert(1)>",
    "<svg onload=alert(1)>",
    "<iframe src=http://127.0.0.3/></iframe>",
    "<script>fetch('http://127.0.0.3/')</script>",
    "<object data=http://127.0.0.3/x></object>",
    f"``![p]({_CANARY})`",
    f"``` x`y\n![p]({_CANARY})\n```",
    f"<details>\n![p]({_CANARY})\n</details>",
    f"![p][r]\n\n[r]: {_CANARY}",
    f"[![p]({_CANARY})](https://papers.test/abs/1)",
]


def _live(markdown: str) -> list[str]:
    """What a CommonMark viewer (markdown-it, linkify) would run or request outside the item's page."""
    html = MarkdownIt("commonmark", {"linkify": True}).enable(["table", "linkify"]).render(markdown)
    found = []
    for element in lxml.html.fragment_fromstring(html, create_parent="div").iter():
        if isinstance(element.tag, str):
            if element.tag in ("script", "iframe", "object", "embed", "svg", "input"):
                found.append(element.tag)
            found += [f"{name}={value}" for name, value in element.attrib.items()
                      if name.startswith("on") or (name in ("src", "href", "data") and value != _ITEM.url)]  # fmt: skip
    return found


@case("hostile text and files", "raw HTML, scripts and hidden images in the model's prose never render live")
def _markup() -> Outcome:
    left = []
    for prose in _PROSE:
        draft = f"1. [{_ITEM.title}]({_ITEM.url})\n\n{prose}\n"
        guarded = guard_report(draft, items=[_ITEM], allowed_urls=[_ITEM.url], requested_count=None).markdown
        if _live(guarded):
            left.append(f"{prose!r} → {_live(guarded)}")
    detail = f"{len(_PROSE) - len(left)} of {len(_PROSE)} neutralised" + "".join(f"; {x}" for x in left)
    return Outcome(not left, detail)
