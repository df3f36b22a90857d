"""``reviewer-app server queues apply|export|versions``: the queue configuration from a file."""

from __future__ import annotations

import argparse
import getpass
import json
import re
import sys
from pathlib import Path

from reviewer_app.server.cli.database import with_service
from reviewer_app.server.config import ServerSettings
from reviewer_app.server.domain.queuefile.errors import QueueFileError
from reviewer_app.server.domain.queuefile.parse import parse_queue_file
from reviewer_app.server.domain.queuefile.text import applied_when, export_text
from reviewer_app.server.service import Service

_USERNAME = re.compile(r"^[a-z0-9][a-z0-9_.-]{1,63}$")


def _default_actor() -> str | None:
    try:
        name = getpass.getuser()
    except (OSError, KeyError):
        return None
    return name if _USERNAME.match(name) else None


def add_parser(actions: argparse._SubParsersAction) -> None:
    database = argparse.ArgumentParser(add_help=False)
    database.add_argument(
        "--database-url",
        dest="command_database_url",
        default=None,
        help="the service's database (or give --database-url before queues)",
    )
    queues = actions.add_parser(
        "queues",
        help="the queue configuration: apply a queue file, export the running one",
        description="Queues, their actions, policies, ratings, routing and re-review rules "
        "come from a TOML queue file. Every applied file is a configuration version.",
    )
    commands = queues.add_subparsers(dest="queues_command", required=True)
    apply = commands.add_parser(
        "apply",
        parents=[database],
        help="make FILE the running configuration (a new version, in one transaction)",
    )
    apply.add_argument("file", type=Path)
    apply.add_argument(
        "--dry-run", action="store_true", help="show what would change; change nothing"
    )
    apply.add_argument(
        "--drain-to",
        metavar="OTHER",
        default=None,
        help="move the open items of queues the file removes to queue OTHER (of the file)",
    )
    apply.add_argument(
        "--by",
        default=_default_actor(),
        help="who applies it, for the version and the event log (default: your user name)",
    )
    export = commands.add_parser(
        "export", parents=[database], help="write the running configuration as a queue file"
    )
    export.add_argument("-o", "--output", type=Path, default=None, help="(default: stdout)")
    versions = commands.add_parser(
        "versions", parents=[database], help="list the configuration versions, newest first"
    )
    versions.add_argument("--json", action="store_true", help="one JSON document")


def run(settings: ServerSettings, args: argparse.Namespace) -> int:
    """0 when done; 1 when the service refused (e.g. open items in a removed queue); 2 for a
    file that cannot be read or is not a valid queue file (every problem on stderr)."""
    command = args.queues_command
    if command == "apply":
        try:
            text = args.file.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            print(f"{args.file}: cannot read it: {exc}", file=sys.stderr)
            return 2
        try:
            queue_file = parse_queue_file(text)
        except QueueFileError as exc:
            for line in exc.describe(str(args.file)):
                print(line, file=sys.stderr)
            print(f"{args.file}: {exc.detail}", file=sys.stderr)
            return 2

    def work(service: Service) -> int:
        try:
            if command == "apply":
                if args.by is not None and not _USERNAME.match(args.by):
                    print(f"--by {args.by!r} is not a user name", file=sys.stderr)
                    return 2
                result = service.apply_queue_file(
                    queue_file, args.by, drain_to=args.drain_to, dry_run=args.dry_run
                )
                print("\n".join(result.describe()))
                if args.drain_to is not None and not result.drained:
                    print(
                        f"--drain-to {args.drain_to}: no queue with open items was removed, "
                        "so nothing was moved",
                        file=sys.stderr,
                    )
                return 0
            if command == "export":
                return _export(service, args.output)
            return _versions(service, as_json=args.json)
        except QueueFileError as exc:
            for line in exc.describe(str(getattr(args, "file", ""))):
                print(line, file=sys.stderr)
            return 2

    # export and versions only read: they never make (or migrate) a database
    return with_service(settings, work, read_only=command != "apply")


def _export(service: Service, output: Path | None) -> int:
    queue_file = service.running_queue_file()
    if queue_file is None:
        print("The service has no queues to export.", file=sys.stderr)
        return 1
    text = export_text(queue_file, next(iter(service.config_versions()), None))
    if output is None:
        sys.stdout.write(text)
    else:
        try:
            output.write_text(text, encoding="utf-8")
        except OSError as exc:
            print(f"Cannot write {output}: {exc.strerror or exc}", file=sys.stderr)
            return 2
        print(f"Wrote {len(queue_file.queues)} queues to {output}.", file=sys.stderr)
    return 0


def _versions(service: Service, *, as_json: bool) -> int:
    found = service.config_versions()
    if as_json:
        print(json.dumps(found, indent=2))
        return 0
    if not found:
        print("No configuration version yet (apply a queue file).")
        return 0
    print(f"{'version':>7}  {'applied (UTC)':<20} {'by':<20} {'queues':>6}  sha256")
    for v in found:
        print(
            f"{v['version']:>7}  {applied_when(v['applied_at']):<20} "
            f"{v['applied_by'] or '-':<20} {len(v['queues']):>6}  {v['sha256']}"
        )
    return 0
