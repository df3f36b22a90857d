"""``reviewer-app server``: run, seed and administer the reference queue service."""

from __future__ import annotations

import argparse
import json
import logging
import logging.config
import logging.handlers
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from datetime import datetime
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from sqlalchemy.exc import SQLAlchemyError

from reviewer_app.protocol import (
    KEY_ROLES,
    ApiKeyCreated,
    ApiKeyInfo,
    Role,
    UserCreate,
    describe_errors,
)
from reviewer_app.server.cli import database as database_cli
from reviewer_app.server.cli import import_file as import_cli
from reviewer_app.server.cli import people as people_cli
from reviewer_app.server.cli import queues as queue_cli
from reviewer_app.server.cli import sor_export
from reviewer_app.server.cli import webhooks as webhook_cli
from reviewer_app.server.cli.args import LOG_LEVELS, log_level, port, processes, row_id
from reviewer_app.server.cli.database import Unusable, check, with_service
from reviewer_app.server.config import (
    DEFAULT_DATABASE_URL,
    ENV_PREFIX,
    ServerSettings,
    SettingsError,
)
from reviewer_app.server.service import Service
from reviewer_app.server.storage.checkpoints import KeyFileError, load_private_key

log = logging.getLogger("server")

# Reviewers pause between requests for seconds at a time; keep their connections open
# longer than that so a request never races the server closing an idle connection.
KEEP_ALIVE_SECONDS = 75
#: the commands that start no Service (so read no signing key)
NO_SERVICE = frozenset({"openapi", "verify-log", "log-key", "sor"})


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    server = subparsers.add_parser("server", help="run or administer the reference queue service")
    server.add_argument(
        "--database-url",
        default=None,
        help=f"SQLAlchemy URL (default {DEFAULT_DATABASE_URL}, "
        "or postgresql://user:password@host/db)",
    )
    server.add_argument("--host", default="127.0.0.1", help="address to listen on")
    server.add_argument("--port", type=port, default=8765, help="port to listen on")
    server.add_argument(
        "--workers",
        type=processes,
        default=1,
        help="API processes (on SQLite they share its one writer: on a 2-core machine 3 "
        "were the fastest: benchmarks/README.md in the repository)",
    )
    server.add_argument(
        "--log-level", type=log_level, choices=LOG_LEVELS, default="info", help="how much to log"
    )
    server.add_argument(
        "--log-format",
        choices=["text", "json"],
        default=None,
        help="text lines or one JSON object per line (default: REVIEWER_SERVER_LOG_FORMAT or text)",
    )
    actions = server.add_subparsers(dest="server_command")
    people_cli.add_parsers(actions)
    seed = actions.add_parser("seed", help="put data in the service")
    seed.add_argument(
        "--demo",
        action="store_true",
        required=True,
        help="the deterministic demo shift (queues, users, items, media)",
    )
    verify = actions.add_parser(
        "verify-log",
        help="check the event log's hash chain and its published checkpoints; exits 1 at "
        "the first broken link",
    )
    verify.add_argument(
        "--database-url",
        dest="verify_database_url",
        default=None,
        help="the database to check (or give --database-url before verify-log)",
    )
    verify.add_argument(
        "--public-key",
        type=Path,
        action="append",
        default=None,
        help="the log's public key (PEM, from `log-key public`): checkpoints signed with it "
        "must verify, and every checkpoint after the first it signed must be signed by it; "
        "give it once per key after the service's key was changed",
    )
    log_key = actions.add_parser(
        "log-key", help="the Ed25519 key that signs the event log's checkpoints"
    )
    log_key_actions = log_key.add_subparsers(dest="log_key_command", required=True)
    create_key = log_key_actions.add_parser(
        "create",
        help="write a new private key file (readable by its owner only) and print its public "
        "key; point the service at it with REVIEWER_SERVER_LOG_SIGNING_KEY",
    )
    create_key.add_argument("path", type=Path)
    public_key = log_key_actions.add_parser(
        "public", help="print the public key of a key file (give it to auditors)"
    )
    public_key.add_argument("path", type=Path)
    _add_api_key_parser(actions)
    queue_cli.add_parser(actions)
    import_cli.add_parser(actions)
    webhook_cli.add_parser(actions)
    sor_export.add_parser(actions)
    openapi = actions.add_parser("openapi", help="print the OpenAPI document")
    openapi.add_argument("-o", "--output", type=Path, default=None)


def run(args: argparse.Namespace) -> int:
    url = (
        getattr(args, "verify_database_url", None)
        or getattr(args, "command_database_url", None)
        or args.database_url
    )
    try:
        settings = ServerSettings.from_env(
            database_url=url, log_format=getattr(args, "log_format", None)
        )
    except SettingsError as exc:
        print(exc, file=sys.stderr)
        return 2
    # serving: what is logged before its log is set up is held for it (one format)
    held: list[logging.LogRecord] = []
    try:
        with holding(held) if args.server_command is None else nullcontext():
            for warning in ServerSettings.unknown_variables(os.environ):
                log.warning("%s", warning)
            if args.server_command not in NO_SERVICE and settings.log_signing_key:
                load_private_key(settings.log_signing_key)  # before a database file is touched
        return _dispatch(settings, args, held)
    except Unusable as exc:  # the database (cli/database.py)
        replay(held)
        print(exc, file=sys.stderr)
        return 2
    except SQLAlchemyError as exc:  # the database failed a statement (a lock, a timeout…)
        replay(held)
        print(
            f"The database failed the command: {database_cli.database_failure(exc)}",
            file=sys.stderr,
        )
        return 2
    except KeyFileError as exc:  # the service's signing key, read as it starts
        replay(held)
        print(
            f"Cannot start: {ENV_PREFIX}LOG_SIGNING_KEY: {exc} (make a key with `reviewer-app "
            "server log-key create PATH`, or unset the variable)",
            file=sys.stderr,
        )
        return 2
    finally:
        replay(held)  # the service did not get as far as its log


@contextmanager
def holding(held: list[logging.LogRecord]) -> Iterator[None]:
    """The records logged meanwhile kept in ``held`` (not written), for ``replay`` once the
    process's logging is set up (in JSON mode every line is JSON)."""
    holder = logging.handlers.BufferingHandler(capacity=10_000)
    holder.buffer = held
    root = logging.getLogger()
    handlers, root.handlers = root.handlers, [holder]
    try:
        yield
    finally:
        root.handlers = handlers


def replay(held: list[logging.LogRecord]) -> None:
    """Log the ``held`` records now, through the logging set up since (or the one there
    was, when the service stopped before setting up its own)."""
    while held:
        record = held.pop(0)
        logger = logging.getLogger(record.name)
        if logger.isEnabledFor(record.levelno):
            logger.handle(record)


def _dispatch(
    settings: ServerSettings, args: argparse.Namespace, held: list[logging.LogRecord]
) -> int:
    command = args.server_command
    if command == "openapi":
        return write_openapi(args.output)
    if command == "verify-log":
        return verify_log(settings, getattr(args, "public_key", None))
    if command == "log-key":
        return log_key_command(args)
    if command == "add-user":
        return _add_user(settings, args)
    if command in ("set-password", "end-access"):
        return people_cli.run(settings, args)
    if command == "api-key":
        return api_key_command(settings, args)
    if command == "queues":
        return queue_cli.run(settings, args)
    if command == "import":
        return import_cli.run(settings, args)
    if command == "webhook":
        return webhook_cli.run(settings, args)
    if command == "sor":
        return sor_export.run(settings, args)
    if command == "seed":
        return _seed_demo(settings)
    return serve(
        settings,
        host=args.host,
        port=args.port,
        workers=args.workers,
        log_level=args.log_level,
        held=held,
    )


def write_openapi(output: Path | None) -> int:
    from reviewer_app.server.http.openapi import openapi_text

    text = openapi_text()
    if output is None:
        sys.stdout.write(text)
        return 0
    try:
        output.write_text(text, encoding="utf-8")
    except OSError as exc:
        print(f"Cannot write {output}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    return 0


def verify_log(settings: ServerSettings, public_key_files: list[Path] | None = None) -> int:
    """Walk the event log's hash chain and checkpoints; 0 when intact, 1 at the first
    broken link, 2 when it cannot be read (or the key file cannot)."""
    from sqlalchemy.exc import DBAPIError

    from reviewer_app.server.storage.checkpoints import KeyFileError, load_public_key
    from reviewer_app.server.storage.db import Database
    from reviewer_app.server.storage.eventlog import verify

    try:
        public_keys = [load_public_key(path) for path in public_key_files or []]
    except KeyFileError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    check(settings.database_url, read_only=True)
    db = Database(settings.database_url)
    try:
        with db.snapshot() as conn:  # one snapshot: the walk and the head agree
            found = verify(conn, public_keys)
    except DBAPIError as exc:
        print(
            f"Cannot read an event log there (is the schema current? start the service once): "
            f"{exc.orig}",
            file=sys.stderr,
        )
        return 2
    finally:
        db.dispose()
    print(found.describe(), file=sys.stdout if found.intact else sys.stderr)
    return 0 if found.intact else 1


def log_key_command(args: argparse.Namespace) -> int:
    from reviewer_app.server.storage.checkpoints import (
        KeyFileError,
        create_key_file,
        key_id,
        load_public_key,
        public_pem,
    )

    if args.log_key_command == "create":
        try:
            signer = create_key_file(args.path)
        except FileExistsError:
            print(f"{args.path} exists; a signing key is never overwritten.", file=sys.stderr)
            return 2
        except OSError as exc:
            print(f"Cannot write {args.path}: {exc}", file=sys.stderr)
            return 2
        print(
            f"Wrote the private key to {args.path} (key id {signer.key_id}). Start the service "
            f"with REVIEWER_SERVER_LOG_SIGNING_KEY={args.path}; give auditors the public key:",
            file=sys.stderr,
        )
        sys.stdout.write(public_pem(signer.public_key))
        return 0
    try:
        key = load_public_key(args.path)
    except KeyFileError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    print(f"key id {key_id(key)}", file=sys.stderr)
    sys.stdout.write(public_pem(key))
    return 0


def _add_user(settings: ServerSettings, args: argparse.Namespace) -> int:
    if Role(args.role) in KEY_ROLES:
        print(
            f"A {args.role} account has no password: it calls with API keys. Make one with\n"
            f"  reviewer-app server api-key create --role {args.role} --name {args.name}",
            file=sys.stderr,
        )
        return 2
    password = people_cli.read_password(args.name, args.password_stdin, "add-user")
    if password is None:
        return 2
    try:
        new = UserCreate(
            username=args.name,
            display_name=args.display_name,
            password=password,
            role=Role(args.role),
        )
    except ValidationError as exc:
        print(f"Cannot create that user: {describe_errors(exc)}", file=sys.stderr)
        return 2

    def work(service: Service) -> int:
        user = service.create_user(new)
        print(f"Created {user.username} ({user.role.value}).")
        return 0

    return with_service(settings, work, read_only=False)


def _add_api_key_parser(actions: argparse._SubParsersAction) -> None:
    database = argparse.ArgumentParser(add_help=False)
    database.add_argument(
        "--database-url",
        dest="command_database_url",
        default=None,
        help="the service's database (or give --database-url before api-key)",
    )
    keys = actions.add_parser(
        "api-key",
        help="API keys of service accounts (platform, fact_checker)",
        description="Service accounts call the intake routes with API keys. The service keeps "
        "only a hash of each key: a key is shown once, when it is made.",
    )
    commands = keys.add_subparsers(dest="api_key_command", required=True)
    create = commands.add_parser(
        "create", parents=[database], help="make a key (and its account if missing)"
    )
    create.add_argument("--role", required=True, choices=[r.value for r in KEY_ROLES])
    create.add_argument("--name", required=True, help="the key's name, e.g. feed-bridge")
    create.add_argument(
        "--account", default=None, help="the service account (default: the key's name)"
    )
    create.add_argument(
        "--display-name",
        default=None,
        help="the account's name as people read it, e.g. a fact-checker's organisation "
        "('Full Fact'), shown on the ratings it sends from now on (default: the account's "
        "name; given again, it renames the account)",
    )
    listing = commands.add_parser("list", parents=[database], help="list keys (never the key)")
    listing.add_argument("--json", action="store_true", help="one JSON document")
    revoke = commands.add_parser(
        "revoke", parents=[database], help="revoke a key by id (at once, in every process)"
    )
    revoke.add_argument("id", type=row_id)
    rotate = commands.add_parser(
        "rotate",
        parents=[database],
        help="a second live key for the account of key NAME; revoke the old one once the "
        "caller uses the new one",
    )
    rotate.add_argument("name", help="a live key's name (or the account's)")


def api_key_command(settings: ServerSettings, args: argparse.Namespace) -> int:
    """``server api-key create|list|revoke|rotate``: 0 when done, 1 when refused."""
    return with_service(
        settings, lambda service: _api_key(service, args), read_only=args.api_key_command == "list"
    )


def _api_key(service: Service, args: argparse.Namespace) -> int:
    command = args.api_key_command
    if command == "list":
        keys = service.api_keys()
        if args.json:
            print(json.dumps([k.model_dump(mode="json") for k in keys], indent=2))
        else:
            print(_key_table(keys))
        return 0
    if command == "revoke":
        before = next((k for k in service.api_keys() if k.id == args.id), None)
        info = service.revoke_api_key(args.id)  # an unknown id: 404, said on stderr
        if before is not None and before.revoked_at is not None:
            print(f"Key {_describe(info)} was already revoked; nothing was changed.")
        else:
            print(f"Revoked key {_describe(info)}; it is refused from now on.")
        return 0
    if command == "rotate":
        made = service.rotate_api_key(args.name)
        _print_new_key(made)
        print(
            f"The account's older keys stay live: once {made.info.account} uses the new "
            "one, revoke them with `reviewer-app server api-key revoke ID` "
            "(ids: `reviewer-app server api-key list`).",
            file=sys.stderr,
        )
        return 0
    made = service.create_api_key(
        Role(args.role), args.name, args.account, display_name=args.display_name
    )
    _print_new_key(made)
    return 0


def _print_new_key(made: ApiKeyCreated) -> None:
    """The key alone on standard output (for ``KEY=$(...)``), the rest on standard error."""
    print(f"Created key {_describe(made.info)}:", file=sys.stderr)
    print(made.key, flush=True)
    print(
        "Store it now: it will not be shown again (the service keeps only its hash).",
        file=sys.stderr,
    )


def _describe(info: ApiKeyInfo) -> str:
    return f"{info.id} {info.name!r} ({info.role} account {info.account}, {info.prefix}...)"


def _key_table(keys: list[ApiKeyInfo]) -> str:
    def when(value: datetime | None) -> str:
        return value.strftime("%Y-%m-%d %H:%M") if value else "-"

    header = ("ID", "NAME", "ACCOUNT", "ROLE", "PREFIX", "CREATED", "LAST USED", "REVOKED")
    rows = [header] + [
        (
            str(k.id),
            k.name if k.name.isprintable() else repr(k.name),
            k.account,
            k.role,
            k.prefix,
            when(k.created_at),
            when(k.last_used_at),
            when(k.revoked_at),
        )
        for k in keys
    ]
    widths = [max(len(r[i]) for r in rows) for i in range(len(header))]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(r, widths, strict=True)) for r in rows]
    if not keys:
        lines.append("(no API keys)")
    return "\n".join(line.rstrip() for line in lines)


def _seed_demo(settings: ServerSettings) -> int:
    """The demo's people, its queue file and its posts and signals through intake."""
    from reviewer_app.server.feeds.seed import is_seeded, seed_demo

    check(settings.database_url, read_only=False)
    service = Service(settings)
    service.start()
    try:
        if is_seeded(service):
            print("The database already holds queues; the demo seed was not added again.")
            return 0
        seed_demo(service)
        print(json.dumps(service.count_items()))
    finally:
        database_cli.close_sealed(service)
    return 0


def _signing_key_refusal(service: Service) -> str | None:
    """Why the service must not start with the signing key it was given (None: it may). An
    unsigned checkpoint after signed ones reads as a signature removed for good (they are
    append-only); a new key is a rotation auditors must be told of."""
    from reviewer_app.server.storage.eventlog import last_key_id

    with service.db.read() as conn:
        last = last_key_id(conn)
    signer = service.event_chain.signer
    if last is None:
        return None
    if signer is None:
        return (
            f"the event log's checkpoints are signed (key id {last}) and no signing key is "
            f"set: set {ENV_PREFIX}LOG_SIGNING_KEY to its key file (unsigned checkpoints "
            "after signed ones would read as signatures removed, for good)"
        )
    if signer.key_id != last:
        log.warning(
            "the event log's checkpoints were signed by key %s; from now on key %s signs "
            "them: give auditors its public key too (verify-log takes --public-key once per "
            "key)",
            last,
            signer.key_id,
        )
    return None


def serve(
    settings: ServerSettings,
    *,
    host: str,
    port: int,
    workers: int = 1,
    log_level: str = "info",
    held: list[logging.LogRecord] | None = None,
) -> int:
    """Serve until stopped; ``held``: records logged before the log was set up."""
    import uvicorn

    from reviewer_app.server.ops.logs import logging_config
    from reviewer_app.server.ops.metrics import metrics_directory

    try:
        log_config = logging_config(settings.log_format, log_level)
    except ValueError as exc:
        print(f"Cannot start: {exc}", file=sys.stderr)
        return 2
    check(settings.database_url, read_only=False)
    logging.config.dictConfig(log_config)
    replay(held or [])
    service = Service(settings)
    service.start()  # migrate once, before any worker starts
    try:
        refusal = _signing_key_refusal(service)
    finally:
        service.close()
    if refusal:
        print(f"Cannot start: {refusal}", file=sys.stderr)
        return 2
    if not settings.metrics_token and host not in ("127.0.0.1", "::1", "localhost"):
        log.warning(
            "GET /metrics answers only clients on this machine; set "
            "REVIEWER_SERVER_METRICS_TOKEN to let Prometheus scrape it from elsewhere"
        )
    common: dict[str, Any] = {
        "host": host,
        "port": port,
        "log_level": log_level,
        "log_config": log_config,
        "access_log": False,  # the service writes its own (server.access, see observe.py)
        "timeout_keep_alive": KEEP_ALIVE_SECONDS,
    }
    if workers > 1:
        # the cores this process may use (a container's limit), where the OS says
        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
        if service.db.is_sqlite and workers > (cores or 1) + 1:
            log.warning(
                "%d workers on SQLite share one writer: on 2 cores 4 were no faster than 3; "
                "use PostgreSQL to scale further",
                workers,
            )
        os.environ.update(settings.to_env())
        with metrics_directory():
            # the workers' factory ends long polls when told to stop (as StoppingServer)
            factory = "reviewer_app.server.http.shutdown:worker_app"
            uvicorn.run(factory, factory=True, workers=workers, **common)
    else:
        from reviewer_app.server.http.app import create_app, tune_server_process
        from reviewer_app.server.http.shutdown import serve as serve_one

        app = create_app(settings)
        tune_server_process()
        serve_one(app, **common)  # uvicorn.run, with a server that ends long polls at a stop
    return 0
