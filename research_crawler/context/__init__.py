"""State of a search: Web Context per site, Search Context per query, URLs, navigation graph, persistence. Import
the module you need: this package imports nothing of its own."""
