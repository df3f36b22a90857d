"""``reviewer-app``: the review desk's command line."""

from __future__ import annotations

import argparse
import logging
import os
import sys

from reviewer_app import __version__
from reviewer_app.argtypes import port

SERVER_HELP = "run or administer the reference queue service"
EXPORT_HELP = "export decisions to a CSV file (leads and admins)"
#: top-level options that take a value (skipped when looking for the subcommand)
_VALUED_OPTIONS = frozenset({"--role", "--port"})
QPA = "QT_QPA_PLATFORM"
#: ``reviewer_app.demo.SERVICE_PROCESS``, without importing it for every command
DEMO_SERVICE_PROCESS = "--demo-service-process"


def _subcommand(argv: list[str]) -> str | None:
    """The subcommand named in ``argv`` (the first word that is not an option), if any."""
    words = iter(argv)
    for word in words:
        if word == "--":
            return next(words, None)
        if word in _VALUED_OPTIONS:
            next(words, None)
        elif not word.startswith("-"):
            return word
    return None


NO_DISPLAY = (
    "reviewer-app: there is no display to open the window on (neither DISPLAY nor "
    "WAYLAND_DISPLAY is set, as in an SSH session). Start it in a desktop session, or "
    "under a virtual one: xvfb-run -a reviewer-app --demo. `reviewer-app --self-test` "
    "needs no display."
)


def _port_taken(wanted: int) -> str | None:
    """Why ``--port`` cannot be used (None when it can): the demo's service would fail
    to listen only once it started, in a process of its own."""
    from reviewer_app.demo import port_is_free

    if port_is_free(wanted):
        return None
    return (
        f"reviewer-app: port {wanted} on 127.0.0.1 is in use (another demo, or another "
        "program): pass another --port, or --port 0 for any free one."
    )


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The command line. A subcommand's arguments come from its own module, imported only
    when ``command`` names it: ``export`` stays free of the server and of Qt, and the app's
    start waits for neither the server's command-line modules nor the export's."""
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
    parser.add_argument("--port", type=port, default=0, help="with --demo: port (0: any free one)")
    parser.add_argument(
        "--self-test",
        action="store_true",
        help=(
            "open the window (offscreen without a display) on a temporary demo server, "
            "decide one post, check it arrived, print OK and exit 0"
        ),
    )
    subparsers = parser.add_subparsers(dest="command")
    if command == "server":
        from reviewer_app.server.cli.main import add_parser as add_server_parser

        add_server_parser(subparsers)
    else:  # its arguments for `reviewer-app server ...` only: they import the whole CLI
        subparsers.add_parser("server", help=SERVER_HELP)
    if command == "export":
        from reviewer_app.core.export import add_parser as add_export_parser

        add_export_parser(subparsers, EXPORT_HELP)
    else:
        subparsers.add_parser("export", help=EXPORT_HELP)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == [DEMO_SERVICE_PROCESS]:  # started by `--demo` (reviewer_app.demo)
        from reviewer_app.demo import serve_process

        return serve_process(argv[1:])
    command = _subcommand(argv)
    parser = build_parser(command)
    args = parser.parse_args(argv)
    if args.command == "export":
        from reviewer_app.core.export import run as run_export

        logging.basicConfig(level=logging.WARNING, format="%(name)s %(levelname)s %(message)s")
        return run_export(args)
    level = logging.WARNING if args.self_test else logging.INFO  # the self-test: one line
    logging.basicConfig(level=level, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    if args.command == "server":
        from reviewer_app.server.cli.main import run

        return run(args)
    from reviewer_app.ui.desktop_libs import check as check_desktop_libs

    no_display = not any(os.environ.get(v) for v in ("DISPLAY", "WAYLAND_DISPLAY"))
    no_display = no_display and sys.platform.startswith("linux") and not os.environ.get(QPA)
    if args.self_test and no_display:
        os.environ[QPA] = "offscreen"  # no display to open the window on
    elif no_display:  # Qt would abort, blaming a library that is there
        print(NO_DISPLAY, file=sys.stderr)
        return 2
    # before the demo seeds and serves: Qt would abort only once the window opens
    if (missing := check_desktop_libs()) is not None:
        print(missing, file=sys.stderr)
        return 2
    if args.demo and args.port and (busy := _port_taken(args.port)) is not None:
        print(busy, file=sys.stderr)
        return 2
    if args.self_test:
        from reviewer_app.demo import run_self_test

        return run_self_test()
    if args.demo:
        from reviewer_app.demo import run_demo

        return run_demo(role=args.role, port=args.port)
    from reviewer_app.ui.app import run_app

    return run_app(sys.argv[:1])


if __name__ == "__main__":
    sys.exit(main())
