# The two commands of the README: `make demo` (set up, then the main job) and `make test`.
.PHONY: setup demo test lint

setup:
	@bash scripts/setup.sh

demo: setup
	@.venv/bin/research-crawler demo

test: setup
	@.venv/bin/python -m pytest -q

lint: setup
	@.venv/bin/ruff check research_crawler tests benchmarks && .venv/bin/mypy
