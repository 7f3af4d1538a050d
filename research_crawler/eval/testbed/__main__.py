"""`python -m research_crawler.eval.testbed`: serve the testbed in the foreground, to try ask, chat and batch on
it; prints each site's URL and the exact `--set fetch.allowed_hosts=…` that lets the crawler reach them."""

from __future__ import annotations

import argparse
import logging
import threading

from research_crawler.errors import ConfigError
from research_crawler.eval.testbed.corpus import DEFAULT_SEED, generate_testbed
from research_crawler.eval.testbed.server import TestbedServer


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m research_crawler.eval.testbed", description=__doc__)
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help="corpus seed (default %(default)s)")
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default %(default)s)")
    parser.add_argument(
        "--port",
        type=int,
        default=None,
        help="serve the sites on consecutive ports from this one (default: free ports, new at each start)",
    )
    parser.add_argument("--slow-seconds", type=float, default=3.0, help="delay of the slow page")
    parser.add_argument(
        "--unfamiliar",
        action="store_true",
        help="also serve the unfamiliar web (sites built as real publishers are: consent wall, POST search, feeds…)",
    )
    parser.add_argument("--verbose", "-v", action="store_true", help="log every request")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.WARNING, format="%(message)s")
    testbed = generate_testbed(args.seed, unfamiliar=args.unfamiliar)
    try:
        server = TestbedServer(testbed, host=args.host, slow_seconds=args.slow_seconds, port=args.port).start()
    except ConfigError as exc:
        parser.exit(1, f"error: {exc}\n")
    with server:
        print(f"Testbed (seed {testbed.seed}): {len(testbed.items)} items, {len(testbed.queries)} queries")
        for name in server.site_names():
            spec = testbed.site(name)
            count = len(testbed.items_on(name))
            topics = len(spec.topics)
            print(f"  {name:<17} {server.base_url(name)}  {spec.title} ({count} items, {topics} topics)")
        hosts = ",".join(server.allowed_hosts())
        first = server.base_url(server.site_names()[0])
        print("\nThe crawler refuses loopback addresses unless allowed; to try it on these sites:")
        print(f"  research-crawler --set fetch.allowed_hosts={hosts} \\")
        print(f'    ask "Find papers on graph neural networks" --site {first} --model simulated --reranker bm25')
        print("Press Ctrl-C to stop.", flush=True)
        try:
            threading.Event().wait()
        except KeyboardInterrupt:
            print("\nstopped")


if __name__ == "__main__":
    main()
