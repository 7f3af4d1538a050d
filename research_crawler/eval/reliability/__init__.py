"""Reliability and security under faults, bad input and hostile pages: the fault web, the prompt-injection
site, and the reliability report (``python -m research_crawler.eval.reliability``).
"""
