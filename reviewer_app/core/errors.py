"""Typed errors of the client core: every failure the UI can meet has a class and a message
that says what happened in plain words.

The messages are English, for logs and the command line. Each class also names its
``kind`` (a ``FailureKind``), a stable code the desktop UI words in the user's language;
events that report a failure without the error itself carry that code.
"""

from __future__ import annotations

from enum import StrEnum
from typing import ClassVar

from reviewer_app.protocol import Problem


class FailureKind(StrEnum):
    """What kind of failure an error is, as a stable code (never shown as it is)."""

    network = "network"
    busy = "busy"
    bad_reply = "bad_reply"
    incompatible = "incompatible"
    login_required = "login_required"
    forbidden = "forbidden"
    refused = "refused"
    store = "store"
    unexpected = "unexpected"


class CoreError(Exception):
    """Base of every error the core raises on purpose."""

    kind: ClassVar[FailureKind] = FailureKind.unexpected


class ApiError(CoreError):
    """A call to the review service failed."""

    #: Seconds the server asked us to wait (``Retry-After``), when it said so.
    retry_after: float | None = None


class NetworkError(ApiError):
    """The server could not be reached, or the connection broke before a whole reply arrived.

    ``maybe_applied`` is true when the request may have reached the server (a reset or a cut
    reply after sending); only calls that are safe to repeat may then be retried.
    """

    kind = FailureKind.network

    def __init__(self, message: str, *, maybe_applied: bool = False) -> None:
        super().__init__(message)
        self.maybe_applied = maybe_applied


class CertificateError(NetworkError):
    """The server's TLS certificate could not be verified: signed by an authority this
    computer does not trust, expired, or made out to another name. Nothing was sent."""


class ProtocolError(ApiError):
    """The server answered something this client cannot use: not JSON, cut off, too large,
    or JSON that breaks the wire contract. Nothing from such a reply is applied."""

    kind = FailureKind.bad_reply


class ProblemError(ApiError):
    """The server answered with an RFC 9457 problem (4xx or 5xx)."""

    kind = FailureKind.refused

    def __init__(self, status: int, problem: Problem, retry_after: float | None = None) -> None:
        detail = problem.detail or problem.title
        super().__init__(f"{detail} (HTTP {status}, {problem.code})")
        self.status = status
        self.problem = problem
        self.code = problem.code
        self.retry_after = retry_after


class AuthenticationRequired(ProblemError):
    """401: no token, a wrong password, or a token that expired or was revoked."""

    kind = FailureKind.login_required


class Forbidden(ProblemError):
    """403: the user's role does not allow this."""

    kind = FailureKind.forbidden


class ServiceUnavailable(ProblemError):
    """429 or 5xx: the server is busy or failing; try again later (``retry_after``)."""

    kind = FailureKind.busy


class IncompatibleServer(ApiError):
    """The server speaks a major API version this client does not."""

    kind = FailureKind.incompatible


class StoreError(CoreError):
    """The local store failed for a reason of the environment (disk full, locked, read-only)."""

    kind = FailureKind.store


class StoreUnreadable(StoreError):
    """The store file cannot be read (damaged, not this app's): raised where it is opened
    without the checks that would move it aside (a start with no network), so nothing is
    moved behind the reviewer's back; the next login moves it aside and says so."""


class StoreInUse(StoreError):
    """The store file is open in another copy of the app on this computer (the same
    account on the same server): one at a time, or two sync engines would work one store
    and each window would offer posts the other decides."""

    def __init__(self, path: object) -> None:
        super().__init__(
            f"The local store {path} is open in another copy of the app on this computer."
        )


class StoreTooNew(StoreError):
    """The store file was written by a newer release of the app (its schema, ``found``, is
    past the one this release knows, ``known``): it is left as it is, never read or changed;
    the app must be updated to open it."""

    def __init__(self, path: object, found: int, known: int) -> None:
        super().__init__(
            f"The local store {path} was written by a newer release of the app (schema "
            f"{found}, this release knows {known}). Update the app; the file was left as it is."
        )
        self.found = found
        self.known = known


class StoreReplaced(CoreError):
    """Not raised: the message the store gives when it moved a damaged or foreign file aside."""


class UnsentVerdicts(CoreError):
    """Clearing local data would lose verdicts not yet delivered; ``count`` says how many."""

    def __init__(self, count: int) -> None:
        super().__init__(
            f"{count} verdict{'s' if count != 1 else ''} saved here ha"
            f"{'ve' if count != 1 else 's'} not been sent yet and would be lost."
        )
        self.count = count


class LocalServiceFailed(CoreError, RuntimeError):
    """The service this app started on this computer (the demo's) did not serve: it ended
    first (``exit_code``, and ``reason``, its own last words, when it said why) or did not
    answer within ``timeout`` seconds."""

    def __init__(
        self,
        *,
        exit_code: int | None = None,
        timeout: float | None = None,
        reason: str | None = None,
    ) -> None:
        if timeout is not None:
            said = f"The demo service did not start within {timeout:g} s."
        elif reason:
            said = f"The demo service stopped (exit code {exit_code}) before it served: {reason}"
        else:
            said = (
                f"The demo service stopped (exit code {exit_code}) before it served; its "
                "messages are in the terminal."
            )
        super().__init__(said)
        self.exit_code = exit_code
        self.timeout = timeout
        self.reason = reason
