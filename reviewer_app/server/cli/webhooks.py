"""``reviewer-app server webhook add|list|disable|enable|rotate-secret|replay``: webhook
endpoints of platform accounts (see webhooks.py for how they are delivered)."""

from __future__ import annotations

import argparse
import json
import sys
from datetime import UTC, datetime

from reviewer_app.protocol.enforcement import EnforcementKind
from reviewer_app.protocol.terminal import printable
from reviewer_app.protocol.webhooks import WebhookEndpoint
from reviewer_app.server.cli.args import LOG_LEVELS, cursor, log_level, row_id, seconds
from reviewer_app.server.cli.database import check, with_service
from reviewer_app.server.cli.queues import _USERNAME, _default_actor
from reviewer_app.server.config import ServerSettings
from reviewer_app.server.service import Service

#: uvicorn's ``trace`` level (``--log-level trace``)
TRACE = 5


def add_parser(actions: argparse._SubParsersAction) -> None:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--database-url",
        dest="command_database_url",
        default=None,
        help="the service's database (or give --database-url before webhook)",
    )
    common.add_argument(
        "--by",
        default=_default_actor(),
        help="who does it, for the event log (default: your user name)",
    )
    webhook = actions.add_parser(
        "webhook",
        help="webhook endpoints: platforms receive their enforcement actions as signed POSTs",
        description="Each endpoint belongs to a platform account and receives its "
        "enforcement actions in order (Standard Webhooks: webhook-id, webhook-timestamp, "
        "webhook-signature). A running service delivers them; these commands change the "
        "database it reads.",
    )
    commands = webhook.add_subparsers(dest="webhook_command", required=True)
    _add_endpoint_commands(commands, common)
    _add_delivery_commands(commands, common)


def _add_endpoint_commands(
    commands: argparse._SubParsersAction, common: argparse.ArgumentParser
) -> None:
    """add, list, disable, enable."""
    kinds = ", ".join(k.value for k in EnforcementKind)
    add = commands.add_parser(
        "add",
        parents=[common],
        help="add an endpoint; prints its signing secret, once",
        description="The endpoint receives the account's actions decided from now on "
        "(replay --from sends older ones). The secret is printed on stdout and never again.",
    )
    add.add_argument("url", help="http(s) URL the actions are POSTed to")
    add.add_argument("--account", required=True, help="the platform account (its API key's)")
    add.add_argument(
        "--events",
        default=None,
        metavar="KIND,...",
        help=f"only these action kinds (default: all): {kinds}",
    )
    listing = commands.add_parser(
        "list", parents=[common], help="endpoints and their health (never a secret)"
    )
    listing.add_argument("--json", action="store_true", help="one JSON document")
    for name, text in (
        ("disable", "stop delivering to an endpoint (its cursor stays where it is)"),
        ("enable", "deliver again, from where it stopped, with a fresh retry window"),
    ):
        command = commands.add_parser(name, parents=[common], help=text)
        command.add_argument("id", type=row_id)


def _add_delivery_commands(
    commands: argparse._SubParsersAction, common: argparse.ArgumentParser
) -> None:
    """rotate-secret, replay, run."""
    rotate = commands.add_parser(
        "rotate-secret",
        parents=[common],
        help="a new signing secret (printed once); the old one keeps signing for a while",
    )
    rotate.add_argument("id", type=row_id)
    # --finish ends a rotation: a grace beside it would be ignored, so it is refused
    how = rotate.add_mutually_exclusive_group()
    how.add_argument(
        "--grace",
        type=seconds,
        default=None,
        metavar="SECONDS",
        help="how long the old secret keeps signing too (default: "
        "REVIEWER_SERVER_WEBHOOK_ROTATION_GRACE_SECONDS, 24 h)",
    )
    how.add_argument(
        "--finish",
        action="store_true",
        help="end a rotation now: only the new secret signs (no new secret is made)",
    )
    replay = commands.add_parser(
        "replay",
        parents=[common],
        help="send an endpoint's actions again from a cursor",
        description="Moves the endpoint's cursor: every action of its account after seq "
        "CURSOR (the feed's cursor; 0 for all) is sent again, in order.",
    )
    replay.add_argument("id", type=row_id)
    replay.add_argument("--from", dest="from_seq", type=cursor, required=True, metavar="CURSOR")
    run_parser = commands.add_parser(
        "run",
        parents=[common],
        help="deliver webhooks in this process, serving no API (until SIGTERM or Ctrl+C)",
        description="Every API process delivers webhooks on a thread of its own, sharing "
        "the process (and Python's GIL) with the API. Under heavy load run the delivery "
        "here instead, with REVIEWER_SERVER_WEBHOOK_WORKERS=0 for the API processes; "
        "several of these may run at once (one delivers an endpoint at a time).",
    )
    run_parser.add_argument(
        "--log-level",
        dest="dispatcher_log_level",
        type=log_level,
        choices=LOG_LEVELS,
        default="info",
        help="how much to log",
    )


def run(settings: ServerSettings, args: argparse.Namespace) -> int:
    """0 when done; 1 when the service refused (an unknown endpoint, not a platform
    account, ...); 2 for arguments it cannot use."""
    command = args.webhook_command
    if command == "run":
        return run_dispatcher(settings, args.dispatcher_log_level)
    actor = args.by
    if actor is not None and not _USERNAME.match(actor):
        print(f"--by {actor!r} is not a user name", file=sys.stderr)
        return 2
    return with_service(
        settings, lambda service: _webhook(service, args, actor), read_only=command == "list"
    )


def _webhook(service: Service, args: argparse.Namespace, actor: str | None) -> int:
    command = args.webhook_command
    if command == "add":
        kinds = args.events.split(",") if args.events is not None else None
        endpoint, secret = service.add_webhook(args.url, args.account, kinds, actor)
        print(
            f"Added webhook {endpoint.id}: {endpoint.url} receives the actions of "
            f"{endpoint.account} ({_kinds(endpoint)}) from cursor {endpoint.delivered_seq}. "
            "Its signing secret (shown once; give it to the receiver):",
            file=sys.stderr,
        )
        print(secret)
        return 0
    if command == "list":
        return _list(service, as_json=args.json)
    if command == "disable":
        _show(service.disable_webhook(args.id, actor))
        return 0
    if command == "enable":
        _show(service.enable_webhook(args.id, actor))
        return 0
    if command == "rotate-secret":
        if args.finish:
            _show(service.finish_webhook_rotation(args.id, actor))
            return 0
        if args.grace is not None and args.grace < 0:
            print("--grace is a number of seconds, 0 or more", file=sys.stderr)
            return 2
        endpoint, secret = service.rotate_webhook_secret(args.id, actor, args.grace)
        until = endpoint.previous_secret_until
        print(
            f"New signing secret of webhook {endpoint.id} (shown once). "
            + (
                f"The previous one signs too until {_when(until)} (or --finish)."
                if until is not None
                else "The previous one no longer signs."
            ),
            file=sys.stderr,
        )
        print(secret)
        return 0
    endpoint = service.replay_webhook(args.id, args.from_seq, actor)
    print(
        f"Webhook {endpoint.id} sends again from cursor {endpoint.delivered_seq}: "
        f"{endpoint.backlog} actions to deliver.",
        file=sys.stderr,
    )
    return 0


def run_dispatcher(settings: ServerSettings, log_level: str) -> int:
    """A process that only delivers webhooks (see webhooks.py), until SIGTERM or SIGINT."""
    import logging.config
    import signal
    import threading

    from reviewer_app.server.ops.logs import logging_config

    check(settings.database_url, read_only=False)
    logging.addLevelName(TRACE, "TRACE")  # uvicorn's level below DEBUG (no uvicorn here)
    logging.config.dictConfig(logging_config(settings.log_format, log_level))
    if settings.webhook_workers <= 0:
        settings = settings.replace(webhook_workers=8)
    service = Service(settings)
    service.start()
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    service.dispatcher.start()
    logging.getLogger("server.webhooks").info(
        "delivering webhooks (%d endpoints at a time) until stopped",
        service.dispatcher.workers,
    )
    try:
        stop.wait()
    finally:
        service.close()  # stops the dispatcher first, giving the leases back
    return 0


def _list(service: Service, *, as_json: bool) -> int:
    found = service.webhooks().endpoints
    if as_json:
        print(json.dumps([e.model_dump(mode="json") for e in found], indent=2))
        return 0
    if not found:
        print("No webhook endpoints (add one: reviewer-app server webhook add URL --account NAME).")
        return 0
    print(
        f"{'id':>4}  {'status':<8} {'account':<20} {'last success (UTC)':<20} "
        f"{'backlog':>8} {'failures':>8}  url"
    )
    for e in found:
        print(
            f"{e.id:>4}  {e.status.value:<8} {e.account:<20} {_when(e.last_success_at):<20} "
            f"{e.backlog:>8} {e.consecutive_failures:>8}  {e.url}"
        )
        # what a receiver answered is theirs: its control characters as code points
        if e.disabled_reason:
            print(f"{'':>6}disabled: {printable(e.disabled_reason, newlines=False)}")
        elif e.last_error and e.attempts:
            error = printable(e.last_error, newlines=False)
            print(f"{'':>6}retrying: {error}; next attempt {_when(e.next_attempt_at)}")
    return 0


def _show(endpoint: WebhookEndpoint) -> None:
    line = f"Webhook {endpoint.id} ({endpoint.url}) is {endpoint.status.value}"
    if endpoint.disabled_reason:
        line += f": {printable(endpoint.disabled_reason, newlines=False)}"
    print(line + f"; {endpoint.backlog} actions waiting.")


def _kinds(endpoint: WebhookEndpoint) -> str:
    if endpoint.event_kinds is None:
        return "every kind"
    return ", ".join(k.value for k in endpoint.event_kinds)


def _when(value: datetime | None) -> str:
    if value is None:
        return "-"
    return value.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S")
