"""``reviewer-app export``: the decision export to a CSV file, without the GUI.

Logs in with the token the app saved for that server and user (when it is still good) or
with a password (asked on the terminal, or read from standard input), streams the export
into a temporary file next to the output and renames it only when the whole export
arrived: a failure or Ctrl+C leaves no half file behind. Progress goes to standard error.

Exit codes: 0 done, 1 the file could not be written, 2 usage (bad arguments, or a request
the server refused as given), 3 not allowed (login failed, or the user is not a lead),
4 network or server trouble, 130 interrupted.
"""

from __future__ import annotations

import argparse
import contextlib
import getpass
import os
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TextIO

from pydantic import ValidationError

from reviewer_app.protocol import DecisionQuery
from reviewer_app.protocol.common import API_PREFIX
from reviewer_app.protocol.terminal import printable

from .api import ANY_DECISION, ApiClient, normalise_server_url
from .credentials import Credentials
from .errors import (
    ApiError,
    AuthenticationRequired,
    Forbidden,
    NetworkError,
    ProblemError,
    ProtocolError,
    ServiceUnavailable,
)

EXIT_OK = 0
EXIT_WRITE = 1
EXIT_USAGE = 2
EXIT_DENIED = 3
EXIT_NETWORK = 4
EXIT_INTERRUPTED = 130


class UsageError(ValueError):
    """An argument that cannot be used (exit code 2)."""


@dataclass(frozen=True)
class ExportRequest:
    server_url: str
    username: str
    since: datetime
    until: datetime
    output: Path
    #: the filters besides the window (``since`` and ``until`` above)
    query: DecisionQuery = ANY_DECISION
    password_stdin: bool = False
    ca_bundle: Path | None = None


@dataclass(frozen=True)
class ExportOutcome:
    rows: int
    seconds: float
    #: True when the export logged in with a password (and so logged out afterwards)
    logged_in: bool


def add_parser(subparsers: argparse._SubParsersAction, summary: str) -> None:
    """``export`` and its arguments; ``summary`` is its line in ``reviewer-app --help``."""
    export = subparsers.add_parser(
        "export",
        help=summary,
        description="Export the decisions of a time window to a CSV file a spreadsheet can "
        "open safely. Uses the login the app saved for this server and user, or asks for "
        "the password. Exit codes: 1 file not written, 2 usage, 3 not allowed, "
        "4 network or server trouble.",
    )
    export.add_argument("--server", required=True, help="the review service, https://host:port")
    export.add_argument("--user", required=True, help="your user name (a lead or an admin)")
    export.add_argument(
        "--since",
        required=True,
        type=_time_arg,
        help="decided at or after this time (ISO 8601 date or date-time; local time "
        "unless it carries a zone, e.g. 2025-06-01T00:00Z)",
    )
    export.add_argument(
        "--until", required=True, type=_time_arg, help="decided before this time (likewise)"
    )
    export.add_argument("--queue", dest="queue_id", default=None, help="only this queue")
    export.add_argument("--reviewer", default=None, help="only this reviewer's decisions")
    export.add_argument("--action", default=None, help="only decisions with this action")
    export.add_argument("--policy", default=None, help="only decisions citing this policy code")
    export.add_argument(
        "--audited",
        choices=["yes", "no"],
        default=None,
        help="only audited decisions (yes) or only those never audited (no)",
    )
    export.add_argument(
        "-o", "--output", required=True, type=Path, help="the CSV file to write (replaced)"
    )
    export.add_argument(
        "--password-stdin",
        action="store_true",
        help="read the password from standard input instead of asking for it",
    )
    export.add_argument(
        "--ca-bundle", type=Path, default=None, help="CA certificates to trust for https"
    )


def _time_arg(text: str) -> datetime:
    try:
        value = datetime.fromisoformat(text.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not an ISO 8601 date or date-time (e.g. 2025-06-01 or "
            "2025-06-01T08:00:00+02:00)"
        ) from None
    return value if value.tzinfo is not None else value.astimezone()


def request_from_args(args: argparse.Namespace) -> ExportRequest:
    """The parsed arguments as an ExportRequest; UsageError for a combination that cannot
    work."""
    try:
        server_url = normalise_server_url(args.server)
    except ValueError as err:
        raise UsageError(str(err)) from None
    if server_url.endswith(API_PREFIX):  # the API's address (the demo prints it): its server
        server_url = server_url.removesuffix(API_PREFIX)
    if args.until <= args.since:
        raise UsageError("--until must be later than --since")
    output: Path = args.output
    if output.is_dir():
        raise UsageError(f"{output} is a folder; give a file name with -o")
    if not output.absolute().parent.is_dir():
        raise UsageError(f"the folder of {output} does not exist")
    if args.ca_bundle is not None and not args.ca_bundle.is_file():
        raise UsageError(f"the CA bundle {args.ca_bundle} is not a file")
    try:
        query = DecisionQuery(
            queue_id=args.queue_id,
            reviewer=args.reviewer,
            action=args.action,
            policy=args.policy,
            audited=None if args.audited is None else args.audited == "yes",
        )
    except ValidationError as err:
        wrong = "--" + str(err.errors()[0]["loc"][0]).replace("_id", "").replace("_", "-")
        raise UsageError(f"{wrong} cannot match any decision as written") from None
    return ExportRequest(
        server_url=server_url,
        username=args.user,
        since=args.since,
        until=args.until,
        output=output,
        query=query,
        password_stdin=args.password_stdin,
        ca_bundle=args.ca_bundle,
    )


class Progress:
    """Rows so far and rows per second on standard error: one line redrawn on a terminal,
    a line every few seconds otherwise."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.tty = stream.isatty()
        self.every = 0.25 if self.tty else 5.0
        self.started = time.monotonic()
        self._shown = self.started

    def rate(self, rows: int) -> float:
        elapsed = time.monotonic() - self.started
        return rows / elapsed if elapsed > 0 else 0.0

    def __call__(self, rows: int) -> None:
        now = time.monotonic()
        if now - self._shown < self.every:
            return
        self._shown = now
        line = f"{rows:,} decisions, {self.rate(rows):,.0f} rows/s"
        if self.tty:
            self.stream.write("\r" + line + "\x1b[K")
        else:
            self.stream.write(line + "\n")
        self.stream.flush()

    def end(self) -> None:
        if self.tty and self._shown != self.started:
            self.stream.write("\r\x1b[K")
            self.stream.flush()


def _password(request: ExportRequest, stdin: TextIO) -> str:
    if request.password_stdin:
        password = stdin.readline().rstrip("\r\n")
    elif not stdin.isatty():  # getpass would read it from there, echoed, or fail at its end
        raise UsageError(
            "The password is asked for on a terminal, and standard input is not one: "
            "pass --password-stdin"
        )
    else:
        try:
            password = getpass.getpass(f"Password for {request.username} at {request.server_url}: ")
        except EOFError:
            raise UsageError("no password was given") from None
    if not password:
        raise UsageError("no password was given")
    return password


def _log_in(
    api: ApiClient, request: ExportRequest, credentials: Credentials, stdin: TextIO
) -> bool:
    """Put a working token on ``api``: the app's saved one if the server still takes it,
    else a new one from the password. True when it logged in here (so must log out)."""
    api.check_compatible()
    token = credentials.load(request.server_url, request.username)
    if token:
        api.token = token
        try:
            api.me()
            return False
        except AuthenticationRequired:
            api.token = None  # expired or revoked: the app will ask for a login itself
    api.login(request.username, _password(request, stdin))
    return True


def export(
    request: ExportRequest,
    *,
    credentials: Credentials | None = None,
    stdin: TextIO | None = None,
    stderr: TextIO | None = None,
) -> ExportOutcome:
    """Log in, stream the export into a temporary file beside ``request.output`` and
    rename it; logs out again if it logged in. Raises the core's errors, UsageError and
    OSError (the file); on any of them, and on KeyboardInterrupt, no file is left."""
    credentials = credentials or Credentials()
    progress = Progress(stderr or sys.stderr)
    with ApiClient(request.server_url, ca_bundle=request.ca_bundle) as api:
        logged_in = _log_in(api, request, credentials, stdin or sys.stdin)
        try:
            started = time.monotonic()
            rows = _export_to_file(api, request, progress)
            return ExportOutcome(rows, time.monotonic() - started, logged_in)
        finally:
            progress.end()
            if logged_in:
                with contextlib.suppress(ApiError):
                    api.logout()


def _export_to_file(api: ApiClient, request: ExportRequest, progress: Progress) -> int:
    with replaced_atomically(request.output) as out:
        query = request.query.model_copy(update={"since": request.since, "until": request.until})
        return api.export_decisions(out, query, progress=progress)


@contextlib.contextmanager
def replaced_atomically(path: Path) -> Iterator[TextIO]:
    """A text file written beside ``path`` and renamed over it once the block ends
    without an error (after an fsync, with the permissions ``open()`` would give): a
    reader sees the old file or the whole new one, never a part; on any error, a cancel
    included, the partial file is removed and ``path`` is untouched."""
    target = path.absolute()
    handle, temp_name = tempfile.mkstemp(
        prefix=f".{target.name}.", suffix=".part", dir=target.parent
    )
    temp = Path(temp_name)
    try:
        # utf-8-sig: a byte-order mark first, or Excel reads the file in the ANSI code page
        # (a note in Hebrew, accents, CJK came out garbled)
        with open(handle, "w", encoding="utf-8-sig", newline="") as out:
            yield out
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temp, 0o666 & ~_umask())  # as a file made by open(); mkstemp's is 0600
        os.replace(temp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            temp.unlink()
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def explain(err: BaseException, request: ExportRequest | None = None) -> tuple[int, str]:
    """The exit code and the words for an error of the export."""
    user = request.username if request else "this user"
    if isinstance(err, UsageError):
        return EXIT_USAGE, str(err)
    if isinstance(err, Forbidden):
        return EXIT_DENIED, (
            f"{user} may not export decisions: only leads and admins can export. "
            f"(The server said: {err})"
        )
    if isinstance(err, AuthenticationRequired):
        return EXIT_DENIED, f"Could not log in as {user}: {err}"
    if isinstance(err, NetworkError | ServiceUnavailable | ProtocolError):
        return EXIT_NETWORK, str(err)
    if isinstance(err, ProblemError):
        # 4xx other than 401/403: the server refused the request as given (a bad filter)
        return (EXIT_USAGE if err.status < 500 else EXIT_NETWORK), f"The server refused: {err}"
    if isinstance(err, ApiError):
        return EXIT_NETWORK, str(err)
    if isinstance(err, OSError):
        where = request.output if request else "the output file"
        return EXIT_WRITE, f"Could not write {where}: {err.strerror or err}"
    raise err


def run(
    args: argparse.Namespace,
    *,
    credentials: Credentials | None = None,
    stdin: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """The ``export`` subcommand: returns the exit code, says what happened on stderr."""
    err_out = stderr or sys.stderr
    request: ExportRequest | None = None
    try:
        request = request_from_args(args)
        outcome = export(request, credentials=credentials, stdin=stdin, stderr=err_out)
    except KeyboardInterrupt:
        err_out.write("\nreviewer-app export: interrupted; no file was written.\n")
        return EXIT_INTERRUPTED
    except (ApiError, UsageError, OSError) as err:
        code, message = explain(err, request)
        err_out.write(f"reviewer-app export: {printable(message)}\n")
        if code != EXIT_USAGE or request is not None:
            err_out.write("reviewer-app export: no file was written.\n")
        return code
    rate = outcome.rows / outcome.seconds if outcome.seconds > 0 else 0.0
    err_out.write(
        f"Exported {outcome.rows:,} decisions to {request.output} in {outcome.seconds:.1f} s "
        f"({rate:,.0f} rows/s).\n"
    )
    return EXIT_OK
