"""Report models, writers (Markdown, JSON, BibTeX) and the citation guard."""
