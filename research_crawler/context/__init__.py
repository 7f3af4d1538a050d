"""State of a search: Web Context per site, Search Context per query, URLs, navigation graph, persistence."""
