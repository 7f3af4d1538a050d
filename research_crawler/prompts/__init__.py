"""Prompts and hints as data files."""
