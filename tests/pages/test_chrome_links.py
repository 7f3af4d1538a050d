"""A link that names only the site's own chrome, told from one that names content."""

from __future__ import annotations

import pytest

from research_crawler.pages.site_chrome import names_site_chrome


@pytest.mark.parametrize(
    "text",
    [
        "About",
        "About the Journal",
        "Contact us",
        "FAQs",
        "Frequently Asked Questions",
        "Privacy Statement",
        "Terms and conditions",
        "Cookie settings",
        "Mirrors",
        "Downloads",
        "Log in",
        "Register",
        "Licence",
        "Impressum",
    ],
)
def test_the_pages_a_site_keeps_about_itself_are_chrome(text: str) -> None:
    assert names_site_chrome(text)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "Packages",
        "Archives",
        "Current issue",
        "Task Views",
        "Technical Reports",
        "Newsletter",
        "Download PDF",
        "About the Authors of Sea-Level Studies",
        "Licence Plate Recognition in Traffic Cameras",
        "Policy",
        "2024",
    ],
)
def test_content_and_a_works_title_are_no_chrome(text: str) -> None:
    assert not names_site_chrome(text)
