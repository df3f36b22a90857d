"""The database a server command is about to use, checked before it is opened: a URL that
is no database URL, a missing driver, a database that does not answer, and for the
commands that only read, a SQLite file that does not exist or a schema behind this
release; and the read replica's URL (``REVIEWER_SERVER_READ_DATABASE_URL``), which must
parse, be PostgreSQL and go with a PostgreSQL primary. Each is one sentence
(``Unusable``) instead of a traceback; a command that only reads never creates or migrates
a database."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path

from sqlalchemy import Connection, create_engine, inspect, text
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, SQLAlchemyError
from sqlalchemy.pool import NullPool

from reviewer_app.server.config import ENV_PREFIX, ServerSettings
from reviewer_app.server.problems import ApiError
from reviewer_app.server.service import Service
from reviewer_app.server.storage.db import (
    CONNECT_TIMEOUT_SECONDS,
    driver_reason,
    driver_said,
    normalise_url,
)
from reviewer_app.server.storage.migrations import HEAD

EXAMPLES = "sqlite:///path or postgresql://user:password@host/db"
POSTGRES_EXTRA = "install the postgres extra: pip install 'reviewer-app[postgres]'"
READ_URL_ENV = f"{ENV_PREFIX}READ_DATABASE_URL"
REPLICA_EXAMPLE = "postgresql://user:password@replica-host/db"


class Unusable(Exception):
    """A database a command cannot use; its text is the one line to print."""


def shown(url: str) -> str:
    """``url`` as it may be printed: never its password."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except (ArgumentError, ValueError):
        return "(the database URL)" if "@" in url else repr(url)


def check(url: str, *, read_only: bool, read_url: str | None = None) -> None:
    """Raise ``Unusable`` when the command cannot use the database at ``url``. With
    ``read_only`` a SQLite file must exist and every database must hold this release's
    schema; nothing is created (no file, no folder, no lock files) and nothing migrated.
    ``read_url`` (by default ``REVIEWER_SERVER_READ_DATABASE_URL``, where the settings
    take it from) must be empty or a PostgreSQL URL beside a PostgreSQL ``url``."""
    try:
        parsed = make_url(normalise_url(url))
    except (ArgumentError, ValueError):
        hint = f"; a SQLite file is sqlite:///{url}" if "://" not in url and "@" not in url else ""
        raise Unusable(f"{shown(url)} is not a database URL ({EXAMPLES}{hint})") from None
    backend = parsed.get_backend_name()
    if backend not in ("sqlite", "postgresql"):
        raise Unusable(
            f"{shown(url)}: the service keeps its data in SQLite or PostgreSQL, not {backend} "
            f"({EXAMPLES})"
        )
    _check_read_url(os.environ.get(READ_URL_ENV, "") if read_url is None else read_url, backend)
    if backend == "sqlite":
        _check_sqlite(url, parsed, read_only=read_only)
    else:
        _check_postgres(url, parsed, read_only=read_only)


def with_service(
    settings: ServerSettings,
    work: Callable[[Service], int],
    *,
    read_only: bool,
    writes: bool | None = None,
) -> int:
    """What a command does on the service: its database checked first (``check``), the
    service started and closed around ``work``, and a refusal (``ApiError``) said in its
    own words on standard error and exit status 1; else what ``work`` returns."""
    check(settings.database_url, read_only=read_only)
    service = Service(settings)
    service.start()
    try:
        return work(service)
    except ApiError as exc:
        print(exc.detail, file=sys.stderr)
        return 1
    finally:
        # a command that writes (``writes``; by default one that may make the database)
        # seals what it wrote; one that only reads leaves the log as it found it
        if (not read_only) if writes is None else writes:
            close_sealed(service)
        else:
            service.close()


#: from this many entries to seal a command says it is sealing them (about 30,000 a second)
SEALING_SAID = 20_000


def database_failure(exc: SQLAlchemyError) -> str:
    """What the database said, in one line: the driver's own message, never the statement
    or its values (a webhook's secrets, a password's hash)."""
    name, first = driver_said(exc)
    return f"{name}: {first}" if first else name


def close_sealed(service: Service) -> None:
    """Close ``service`` after sealing what a command wrote into the event log (no
    sequencer runs in a command: its entries would wait, out of the hash chain and of
    ``verify-log``, for a service to start). A database that fails now gets one sentence;
    the entries are sealed by the next service."""
    try:
        waiting = service.log_lag().unsealed
        if waiting >= SEALING_SAID:  # an import's: seconds, after its progress said 100%
            print(f"Sealing {waiting:,} new entries into the event log…", file=sys.stderr)
        service.seal_now()
    except SQLAlchemyError as exc:
        print(
            "The event log's new entries could not be sealed now "
            f"({type(exc).__name__}); the service seals them when it next runs.",
            file=sys.stderr,
        )
    finally:
        service.close()


def _check_read_url(read_url: str, primary_backend: str) -> None:
    """The read replica's URL, before anything is opened: parseable, PostgreSQL, and only
    beside a PostgreSQL primary (its WAL position is what the replica is measured by)."""
    if not read_url.strip():
        return
    try:
        backend = make_url(normalise_url(read_url)).get_backend_name()
    except (ArgumentError, ValueError):
        raise Unusable(
            f"{READ_URL_ENV}: {shown(read_url)} is not a database URL (a PostgreSQL streaming "
            f"replica: {REPLICA_EXAMPLE})"
        ) from None
    if backend != "postgresql":
        raise Unusable(
            f"{READ_URL_ENV}: {shown(read_url)} is {backend}, not PostgreSQL; reads off the "
            f"primary need a PostgreSQL streaming replica ({REPLICA_EXAMPLE})"
        )
    if primary_backend != "postgresql":
        raise Unusable(
            f"{READ_URL_ENV} is set but the database is {primary_backend}: a read replica "
            "needs a PostgreSQL primary (unset it, or use PostgreSQL)"
        )


def _check_sqlite(url: str, parsed: URL, *, read_only: bool) -> None:
    database = parsed.database
    if not database or database == ":memory:":
        return
    path = Path(database).expanduser().absolute()
    if not read_only:  # a command that writes makes the file (and its folder) when missing
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise Unusable(f"Cannot make the database at {path}: {exc.strerror or exc}") from None
        if path.is_dir():
            raise Unusable(f"{path} is a folder: give the database file's path")
        if not path.is_file() or path.stat().st_size == 0:
            return
    elif not path.is_file():
        raise Unusable(_nothing_at(str(path)))
    engine = create_engine(parsed, poolclass=NullPool)
    try:
        with engine.connect() as conn:
            revision = _revision(conn)
    except DBAPIError as exc:
        raise Unusable(f"Cannot read the database at {path}: {driver_reason(exc, url)}") from None
    finally:
        engine.dispose()
    if read_only:
        _check_revision(revision, str(path))
    else:
        _check_known(revision, str(path))


def _check_postgres(url: str, parsed: URL, *, read_only: bool) -> None:
    try:
        engine = create_engine(
            parsed,
            poolclass=NullPool,
            connect_args={"connect_timeout": CONNECT_TIMEOUT_SECONDS},
        )
    except ImportError as exc:
        raise Unusable(
            f"PostgreSQL needs its driver ({exc.name or exc} is not installed): {POSTGRES_EXTRA}"
        ) from None
    try:
        with engine.connect() as conn:
            revision = _revision(conn)
    except DBAPIError as exc:
        reason = driver_reason(exc, url)
        raise Unusable(f"Cannot reach the database at {shown(url)}: {reason}") from None
    finally:
        engine.dispose()
    if read_only:
        _check_revision(revision, shown(url))
    else:
        _check_known(revision, shown(url))


def _revision(conn: Connection) -> str | None:
    if not inspect(conn).has_table("alembic_version"):
        return None
    value = conn.execute(text("SELECT version_num FROM alembic_version")).scalar()
    return None if value is None else str(value)


def _check_revision(revision: str | None, where: str) -> None:
    if revision is None:
        raise Unusable(_nothing_at(where))
    if revision == HEAD:
        return
    if revision.isdigit() and HEAD.isdigit() and int(revision) < int(HEAD):
        raise Unusable(
            f"The database's schema is older than this release (revision {revision}, this "
            f"release needs {HEAD}): start the service once to upgrade it"
        )
    raise Unusable(
        f"The database's schema (revision {revision}) is not one this release knows (it "
        f"ends at {HEAD}): use the release that wrote it"
    )


def _check_known(revision: str | None, where: str) -> None:
    """A command that writes may make or upgrade the schema, never run on a newer one (its
    migrations would fail with a traceback, or the service misread what it does not know)."""
    if revision is None or revision == HEAD:
        return
    if revision.isdigit() and HEAD.isdigit() and int(revision) < int(HEAD):
        return
    _check_revision(revision, where)


def _nothing_at(where: str) -> str:
    return f"No review-desk database at {where} (start the service once, or pass --database-url)"


__all__ = ["Unusable", "check", "shown"]
