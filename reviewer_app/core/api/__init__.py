"""The HTTP client of the review service: one ``requests.Session`` per server.

Every call has a connect and a read timeout. Connection attempts that never reached the
server are retried for any call; a call that may have reached the server is retried only
when repeating it is harmless (GET/PUT/DELETE, lease renew/release, and verdict batches,
which carry idempotency keys). Busy replies (429/502/503/504) are retried a couple of times
when ``Retry-After`` is short; a longer wait is handed to the caller as
``ServiceUnavailable.retry_after``. Replies are parsed with the ``protocol`` models; anything
else becomes a typed error and nothing of it is used.

**Modules.** ``transport`` (the session, its retries and timeouts, replies read within
limits, errors typed), ``review`` (a reviewer's calls), ``lead`` (the Lead workspace's),
``admin`` (administration). ``ApiClient`` is all of them; import it from here.
"""

from __future__ import annotations

from ..decision_csv import ExportCancelled
from ..errors import ApiError
from .admin import AdminCalls
from .lead import LeadCalls
from .review import ReviewCalls
from .transport import (
    ANY_DECISION,
    SUPPORTED_MAJORS,
    HttpClient,
    Timeouts,
    normalise_server_url,
    parse_retry_after,
)


class ApiClient(ReviewCalls, LeadCalls, AdminCalls):
    """One server, its token and its retry policy. Safe to share between threads: each
    thread that calls gets its own ``requests.Session`` (requests does not promise a
    Session is thread-safe: its cookie jar and adapters are shared state), made on its
    first call and reused after, so the lead workspace's concurrent ops share one client
    without a lock that would queue a page load behind a long export. ``token`` may be
    replaced at any time (a new login); a call reads it once."""


__all__ = [
    "ANY_DECISION",
    "SUPPORTED_MAJORS",
    "ApiClient",
    "ApiError",
    "ExportCancelled",
    "HttpClient",
    "Timeouts",
    "normalise_server_url",
    "parse_retry_after",
]
