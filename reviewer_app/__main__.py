"""``reviewer-app``: the review desk's command line."""

from __future__ import annotations

import argparse
import logging
import sys

from reviewer_app import __version__


def build_parser() -> argparse.ArgumentParser:
    from reviewer_app.server.cli import add_parser

    parser = argparse.ArgumentParser(
        prog="reviewer-app",
        description="The review desk: decide flagged posts one keypress at a time.",
    )
    parser.add_argument("--version", action="version", version=f"reviewer-app {__version__}")
    parser.add_argument(
        "--demo",
        action="store_true",
        help="run on the embedded demo server (seeded once, on 127.0.0.1)",
    )
    parser.add_argument(
        "--role",
        choices=["reviewer", "lead"],
        default="reviewer",
        help="with --demo: which demo account to use",
    )
    parser.add_argument("--port", type=int, default=0, help="with --demo: port (0: any free one)")
    subparsers = parser.add_subparsers(dest="command")
    add_parser(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    if args.command == "server":
        from reviewer_app.server.cli import run

        return run(args)
    if args.demo:
        from reviewer_app.demo import run_demo

        return run_demo(role=args.role, port=args.port)
    from reviewer_app.ui.app import run_app

    return run_app(sys.argv[:1])


if __name__ == "__main__":
    sys.exit(main())
