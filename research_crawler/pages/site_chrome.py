"""Whether a link names only a part of a site's own chrome: the pages every site keeps about itself and for its
visitors ("About the Journal", "Contact", "FAQs", "Privacy Statement", "Terms of use", "Mirrors", "Downloads",
"Licence", "Log in"), which hold none of the works a site publishes.

A careful person looking for papers, reports or packages on a site opens its content first (its listings, its
issues, its sections) and such pages last, whatever words they share with the request. Read from the link's own
words only: a link counts when every word of it names chrome (with the small words between them), so "About" and
"Contact us" do, and "About the Authors of Sea-Level Studies" or "Downloads of climate data" do not.
"""

from __future__ import annotations

import re

__all__ = ["names_site_chrome"]

#: Words that name a page a site keeps about itself or for its visitors, never one listing its works.
_CHROME_WORDS = frozenset({
    # about the site and its owners
    "about", "contact", "contacts", "imprint", "impressum", "kontakt", "colophon", "careers", "jobs", "vacancies",
    "donate", "donations", "sponsors", "advertise", "advertising", "accessibility", "feedback",
    # help and rules
    "faq", "faqs", "frequently", "help", "privacy", "cookie", "cookies", "terms", "conditions", "disclaimer", "licence",
    "license", "licences", "licenses", "licensing", "copyright", "policies", "legal",
    # the visitor's own account
    "login", "logout", "log", "sign", "signin", "register", "registration", "account", "subscribe",
    # how software or files are distributed, not what is published
    "mirror", "mirrors", "downloads", "install", "installation", "installing", "binaries", "installers",
})  # fmt: skip
#: Words that may stand between chrome words or beside one ("Terms and conditions", "About the journal", "Contact
#: us", "Privacy Statement"); alone they name no chrome.
_SMALL_WORDS = frozenset({
    "the", "a", "an", "and", "of", "for", "to", "in", "on", "us", "our", "this", "site", "website", "page", "&",
    "out", "up", "use", "journal", "portal", "wiki", "archive", "repository", "network", "project", "statement",
    "notice", "settings", "preferences", "policy", "information", "info", "asked", "questions",
})  # fmt: skip


def names_site_chrome(text: str) -> bool:
    """Whether the link text `text` names only a page of the site's chrome (every word a chrome word or a small
    word between them, one chrome word at least): "About the Journal", "FAQs", "Privacy Statement", "Mirrors"."""
    words = re.findall(r"[^\W\d_]+|&", text.casefold())
    return (
        bool(words)
        and any(word in _CHROME_WORDS for word in words)
        and all(word in _CHROME_WORDS or word in _SMALL_WORDS for word in words)
    )
