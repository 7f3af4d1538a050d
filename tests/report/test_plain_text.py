from __future__ import annotations

from research_crawler.report.markdown_text import plain_text


def test_page_markdown_and_html_do_not_survive() -> None:
    text = (
        'We study GNNs ![leak](http://127.0.0.3/?q=secret) see [here](http://evil.test/x) <img src="http://x/">'
        " and http://127.0.0.3/ping <http://127.0.0.3/>\n[ref]: http://evil.test/"
    )
    cleaned = plain_text(text)
    assert cleaned == "We study GNNs leak see here and"
    assert plain_text(None) is None
