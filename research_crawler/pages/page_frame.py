"""The parts of a page that frame its content rather than being it: the landmarks a page marks as its site's
navigation, header, footer and sidebars (HTML5 sectioning elements, ARIA roles), consent banners and breadcrumbs, and
figures, whose captions illustrate an article at length but neither are nor name what the page lists.

The Item Collector's view leaves them out (`main_content`); a link the page shows both in its frame and in its
content is named by the content's anchor (`links`).
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["in_page_frame", "is_landmark"]

#: Landmarks that hold no content of the page itself, wherever they are; and figures.
_FRAME_TAGS = frozenset({"nav", "aside", "figure"})
#: The page's own header and footer; inside an article or main they are the article's (title, notes).
_PAGE_FRAME_TAGS = frozenset({"header", "footer"})
_CONTENT_CONTAINERS = frozenset({"article", "main"})
_FRAME_ROLES = frozenset(
    {"navigation", "banner", "contentinfo", "complementary", "search", "dialog", "alertdialog", "menubar"}
)
#: Class or id words of consent banners and breadcrumbs (cookie-banner, cc-window, onetrust-consent-sdk…).
_FRAME_NAMES = re.compile(
    r"(?:^|[\s_-])(?:cookies?|consent|gdpr|cc-(?:banner|window)|onetrust|tarteaucitron|cookiebot|breadcrumbs?)"
    r"(?:$|[\s_-])",
    re.IGNORECASE,
)


def is_landmark(element: Any) -> bool:
    """Whether `element` (of a parsed lxml tree) is itself one of the page's framing landmarks."""
    if not isinstance(element.tag, str):
        return False
    role = (element.get("role") or "").strip().lower()
    names = f"{element.get('class') or ''} {element.get('id') or ''}"
    return (
        element.tag in _FRAME_TAGS
        or role in _FRAME_ROLES
        or bool(_FRAME_NAMES.search(names))
        or (element.tag in _PAGE_FRAME_TAGS and not _inside_content(element))
    )


def in_page_frame(element: Any) -> bool:
    """Whether `element` is a framing landmark or sits inside one."""
    return is_landmark(element) or any(is_landmark(ancestor) for ancestor in element.iterancestors())


def _inside_content(element: Any) -> bool:
    return any(
        ancestor.tag in _CONTENT_CONTAINERS or (ancestor.get("role") or "").strip().lower() == "main"
        for ancestor in element.iterancestors()
    )
