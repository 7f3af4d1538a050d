"""python -m research_crawler.eval.reliability: the reliability report (see report.py)."""

from __future__ import annotations

import sys

from research_crawler.eval.reliability.report import main

sys.exit(main())
