"""``python -m research_crawler`` runs the command line."""

from research_crawler.cli import main

main()
