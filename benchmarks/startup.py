"""Start-up cost of commands that need no model: CPU seconds (user + system) of each command against
`python -c "import httpx, rich, typer"`, the two alternated, the median of N runs each (issue 30's goal: `--help`
within 2x). CPU rather than wall time, so a busy machine changes the figures less.

    .venv/bin/python benchmarks/startup.py [--runs 7]
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from bench_output import print_table, ratio, write_json

ROOT = Path(__file__).resolve().parents[1]
EXE = Path(sys.executable).parent / "research-crawler"
REFERENCE = [sys.executable, "-c", "import httpx, rich, typer"]


def cpu_seconds(command: list[str], cwd: Path) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        work = Path(scratch)
        page = work / "paper.html"
        page.write_text("<html><head><title>A paper</title></head><body><h1>A paper</h1><p>by A. Author</p></body>")
        commands = {
            "--help": ["--help"],
            "a mistyped flag": ["ask", "--nope"],
            "config show": ["config", "show"],
            "library list": ["library", "list", "--library", str(work / "none.sqlite3")],
            "page FILE": ["page", str(page), "--url", "https://example.org/paper"],
        }
        rows, document = [], {}
        for name, arguments in commands.items():
            ours, reference = [], []
            for _ in range(args.runs):  # alternated: the machine's load touches both alike
                ours.append(cpu_seconds([str(EXE), *arguments], work))
                reference.append(cpu_seconds(REFERENCE, work))
            ours_median, reference_median = statistics.median(ours), statistics.median(reference)
            times = ratio(ours_median, reference_median)
            rows.append([name, round(ours_median, 3), round(reference_median, 3), times])
            document[name] = {"cpu_s": ours, "reference_cpu_s": reference, "ratio": times}
    print_table(["command", "CPU s (median)", "import httpx, rich, typer", "ratio"], rows)
    write_json(ROOT / "benchmarks" / "out" / "startup.json", {"runs": args.runs, "commands": document})


if __name__ == "__main__":
    main()
