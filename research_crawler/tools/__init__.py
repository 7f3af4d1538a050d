"""The functions agents call, and the page layer beneath them (fetch is the only module importing crawl4ai)."""
