"""The library: every item any run reported or collected, kept across runs in one SQLite file, keyed by
identity (DOI, arXiv identifier, else normalised title and first author), with each sighting and its metadata.
"""
