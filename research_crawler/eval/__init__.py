"""Testbed web, evaluators and benchmarks."""
