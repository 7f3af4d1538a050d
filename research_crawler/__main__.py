"""``python -m research_crawler`` runs the command line."""

from research_crawler.cli.app import main

main()
