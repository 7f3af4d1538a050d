"""`python -m research_crawler.eval.testbed`: serve the testbed in the foreground for manual exploration."""

from __future__ import annotations

import argparse
import logging
import threading

from research_crawler.eval.testbed.corpus import DEFAULT_SEED, generate_testbed
from research_crawler.eval.testbed.server import TestbedServer


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m research_crawler.eval.testbed", description=__doc__)
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help="corpus seed (default %(default)s)")
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default %(default)s)")
    parser.add_argument("--slow-seconds", type=float, default=3.0, help="delay of the slow page")
    parser.add_argument("--verbose", "-v", action="store_true", help="log every request")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.WARNING, format="%(message)s")
    testbed = generate_testbed(args.seed)
    with TestbedServer(testbed, host=args.host, slow_seconds=args.slow_seconds) as server:
        print(f"Testbed (seed {testbed.seed}): {len(testbed.items)} items, {len(testbed.queries)} queries")
        for name in server.site_names():
            spec = testbed.site(name)
            count = len(testbed.items_on(name))
            topics = len(spec.topics)
            print(f"  {name:<13} {server.base_url(name)}  {spec.title} ({count} items, {topics} topics)")
        print("Press Ctrl-C to stop.", flush=True)
        try:
            threading.Event().wait()
        except KeyboardInterrupt:
            print("\nstopped")


if __name__ == "__main__":
    main()
