"""Nested chats: scraper (fetch → Crawler → Collector), supervisor, page selector, presenter (→ Critique)."""
