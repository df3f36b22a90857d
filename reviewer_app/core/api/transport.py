"""The HTTP client of the review service: one ``requests.Session`` per server.

HTTPS is verified against the certificate authorities the operating system trusts (an
in-house authority IT installed too, through ``truststore``) and certifi's list, or against
the ``ca_bundle`` given instead. Every call has a connect and a read timeout. Connection
attempts that never reached the server are retried for any call; a call that may have
reached the server is retried only when repeating it is harmless (GET/PUT/DELETE, lease
renew/release, and verdict batches, which carry idempotency keys). Busy replies
(429/502/503/504) are retried a couple of times when ``Retry-After`` is short; a longer wait
is handed to the caller as ``ServiceUnavailable.retry_after``. Replies are parsed with the
``protocol`` models: a field this client does not know (a newer service of the same major
version only adds fields) is left out; anything else wrong becomes a typed error and
nothing of the reply is used.

This module is the machinery every call goes through (``HttpClient``); the calls themselves
are in ``review``, ``lead`` and ``admin``, joined in ``ApiClient``.
"""

from __future__ import annotations

import email.utils
import functools
import io
import json
import logging
import ssl
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from types import TracebackType
from typing import Any, Self, TypeVar
from urllib.parse import urlsplit

import certifi
import requests
import truststore
import urllib3.exceptions
from pydantic import BaseModel, ValidationError
from requests.adapters import HTTPAdapter
from urllib3 import BaseHTTPResponse
from urllib3.connectionpool import ConnectionPool
from urllib3.exceptions import MaxRetryError
from urllib3.util.retry import Retry

from reviewer_app.protocol import API_MAJOR, API_PREFIX, DecisionQuery, Problem

from ..errors import (
    ApiError,
    AuthenticationRequired,
    CertificateError,
    Forbidden,
    NetworkError,
    ProblemError,
    ProtocolError,
    ServiceUnavailable,
)

log = logging.getLogger("net")

M = TypeVar("M", bound=BaseModel)

#: The major versions of the wire contract this client speaks.
SUPPORTED_MAJORS = frozenset({API_MAJOR})
BUSY_STATUSES = frozenset({429, 502, 503, 504})
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "PUT", "DELETE"})
#: a decision query with no filter: every decision
ANY_DECISION = DecisionQuery()
#: POST routes that are safe to repeat: renew/release are idempotent, verdicts and bulk
#: decisions carry keys.
REPEATABLE_POSTS = ("/leases/", "/verdicts", "/decisions/bulk")


class _Adapter(HTTPAdapter):
    """An adapter whose connections verify with ``ssl_context`` (the system's trust store)
    when one is given."""

    def __init__(self, *, ssl_context: Any = None, **kwargs: Any) -> None:
        self._ssl_context = ssl_context
        super().__init__(**kwargs)

    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        if self._ssl_context is not None:
            kwargs["ssl_context"] = self._ssl_context
        super().init_poolmanager(*args, **kwargs)


@functools.cache
def system_trust() -> Any:
    """A TLS context that trusts what the operating system trusts (its store, ``SSL_CERT_FILE``,
    read at each connection), as browsers there do: one a process, for every session."""
    context = truststore.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.load_verify_locations(certifi.where())  # a machine with no store of its own
    return context


@dataclass(frozen=True)
class Timeouts:
    connect: float = 3.05
    read: float = 20.0
    #: for claims of many items and media downloads
    long_read: float = 90.0


class _Retry(Retry):
    """urllib3's Retry, except that a ``Retry-After`` longer than ``max_wait`` ends the
    retries at once (the caller then waits, interruptibly, instead of a blocked thread)."""

    max_wait: float = 5.0

    def new(self, **kw: Any) -> Self:
        made = super().new(**kw)
        made.max_wait = self.max_wait
        return made

    def increment(
        self,
        method: str | None = None,
        url: str | None = None,
        response: BaseHTTPResponse | None = None,
        error: Exception | None = None,
        _pool: ConnectionPool | None = None,
        _stacktrace: TracebackType | None = None,
    ) -> Self:
        if response is not None:
            wait = parse_retry_after(response.headers.get("Retry-After"))
            if wait is not None and wait > self.max_wait:
                raise MaxRetryError(_pool, url or "", None)  # type: ignore[arg-type]
        return super().increment(method, url, response, error, _pool, _stacktrace)


def _retry_policy(methods: frozenset[str] | None) -> _Retry:
    return _Retry(
        total=4,
        connect=2,
        read=2,
        status=2,
        other=0,
        redirect=0,
        allowed_methods=methods,
        status_forcelist=BUSY_STATUSES,
        backoff_factor=0.1,
        backoff_max=1.0,
        backoff_jitter=0.1,
        respect_retry_after_header=True,
        raise_on_status=False,
    )


def parse_retry_after(value: str | None) -> float | None:
    """Seconds from a ``Retry-After`` header (delta-seconds or an HTTP date), or None."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(min(int(value), 86_400))
    parsed = email.utils.parsedate_tz(value)
    if parsed is None:
        return None
    return max(0.0, min(86_400.0, email.utils.mktime_tz(parsed) - time.time()))


def normalise_server_url(url: str) -> str:
    """``https://host:port`` (no path, no trailing slash); raises ValueError when unusable."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"{url!r} is not an http(s) server address")
    if parts.username or parts.password or parts.query or parts.fragment:
        raise ValueError(f"{url!r}: give only the scheme, host and port")
    path = parts.path.rstrip("/")
    return f"{parts.scheme}://{parts.netloc.lower()}{path}"


class HttpClient:
    """One server, its token and its retry policy: sending a call, reading its reply within
    the limits, turning an error reply into a typed error. ``ApiClient`` adds the calls.
    Safe to share between threads: each thread that calls gets its own ``requests.Session``
    (see ``ApiClient``)."""

    def __init__(
        self,
        server_url: str,
        *,
        token: str | None = None,
        ca_bundle: str | Path | None = None,
        timeouts: Timeouts | None = None,
        max_reply_bytes: int = 64 * 1024 * 1024,
        user_agent: str = "reviewer-app",
        on_auth_required: Callable[[AuthenticationRequired], None] | None = None,
    ) -> None:
        self.server_url = normalise_server_url(server_url)
        self.base = self.server_url + API_PREFIX
        self.token = token
        self.timeouts = timeouts or Timeouts()
        self.max_reply_bytes = max_reply_bytes
        #: items the last claim left out because they break the contract: (id, why)
        self.unusable: list[tuple[str, str]] = []
        #: told of every 401 (on the calling thread) before it is raised
        self.on_auth_required = on_auth_required
        self._verify: str | bool = str(ca_bundle) if ca_bundle else True
        self._user_agent = user_agent
        #: one session per thread (by thread id: a pool thread keeps its own across jobs)
        self._sessions: dict[int, requests.Session] = {}
        self._sessions_lock = threading.Lock()

    @property
    def session(self) -> requests.Session:
        """The calling thread's session."""
        thread = threading.get_ident()
        with self._sessions_lock:
            made = self._sessions.get(thread)
            if made is None:
                made = self._sessions[thread] = self._new_session()
        return made

    def _new_session(self) -> requests.Session:
        session = requests.Session()
        session.trust_env = False  # no ~/.netrc credentials, no proxy surprises
        session.verify = self._verify
        session.headers.update({"User-Agent": self._user_agent, "Accept": "application/json"})
        # an explicit bundle is all that is trusted; else the system's store (and certifi's)
        trust = system_trust() if self._verify is True and self.base.startswith("https") else None
        session.mount("http://", _Adapter(max_retries=_retry_policy(SAFE_METHODS)))
        session.mount(
            "https://", _Adapter(ssl_context=trust, max_retries=_retry_policy(SAFE_METHODS))
        )
        for route in REPEATABLE_POSTS:
            # the longest matching prefix wins, so these routes also retry a POST
            session.mount(
                self.base + route, _Adapter(ssl_context=trust, max_retries=_retry_policy(None))
            )
        return session

    def close(self) -> None:
        """Close every thread's session (a later call opens a new one)."""
        with self._sessions_lock:
            sessions = list(self._sessions.values())
            self._sessions.clear()
        for session in sessions:
            session.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- the machinery ---------------------------------------------------------------

    def _call(
        self,
        method: str,
        path: str,
        *,
        reply: type[M] | None,
        body: BaseModel | None = None,
        params: Mapping[str, str | int] | None = None,
        auth: bool = True,
        read_timeout: float | None = None,
        parse: bool = False,
    ) -> Any:
        what = f"{method} {path}"
        data = body.model_dump_json(exclude_none=False).encode() if body is not None else None
        response = self._send(method, path, data, params, auth, read_timeout)
        raw = self._read(response, what, self.max_reply_bytes)
        if not 200 <= response.status_code < 300:
            raise self._problem(response, raw, what)
        if parse:
            return _loads(raw, what)
        if reply is None:
            return None
        try:
            return reply.model_validate_json(raw)
        except ValidationError as err:
            kinds = {e.get("type") for e in err.errors()}
            if "json_invalid" not in kinds and "extra_forbidden" not in kinds:
                raise ProtocolError(_broken(what, err)) from None
        # pydantic's parser refuses lone surrogates (legal JSON escapes); Python's takes them;
        # and fields a newer service added are left out there
        return self._validated(reply, _loads(raw, what), what)

    @staticmethod
    def _validated(model: type[M], doc: Any, what: str) -> M:
        try:
            return known_fields(model, doc)
        except ValidationError as err:
            raise ProtocolError(_broken(what, err)) from None

    def _send(
        self,
        method: str,
        path: str,
        data: bytes | None,
        params: Mapping[str, str | int] | None,
        auth: bool,
        read_timeout: float | None,
        accept: str | None = None,
    ) -> requests.Response:
        headers = {"Content-Type": "application/json"} if data is not None else {}
        if accept is not None:
            headers["Accept"] = accept
        if auth:
            if not self.token:
                raise AuthenticationRequired(
                    401,
                    Problem(
                        title="Not logged in",
                        status=401,
                        code="not_logged_in",
                        detail="Log in to the review service first.",
                    ),
                )
            headers["Authorization"] = f"Bearer {self.token}"
        timeout = (self.timeouts.connect, read_timeout or self.timeouts.read)
        what = f"{method} {path}"
        try:
            return self.session.request(
                method,
                self.base + path,
                data=data,
                params=params,
                headers=headers,
                timeout=timeout,
                stream=True,
                allow_redirects=False,
            )
        except requests.exceptions.SSLError as err:
            if _untrusted(err):
                raise CertificateError(
                    f"The certificate of {self.server_url} could not be verified ({_reason(err)})."
                ) from None
            reason = _reason(err)
            raise NetworkError(f"Could not connect to {self.server_url} ({reason}).") from None
        except requests.ConnectTimeout as err:
            raise NetworkError(
                f"Could not connect to {self.server_url} ({_reason(err)})."
            ) from None
        except requests.ConnectionError as err:
            connected = not _never_connected(err)
            raise NetworkError(
                f"The connection to {self.server_url} failed during {what} ({_reason(err)}).",
                maybe_applied=connected,
            ) from None
        except requests.Timeout:
            raise NetworkError(
                f"{self.server_url} did not answer {what} within {timeout[1]:g} s.",
                maybe_applied=True,
            ) from None
        except requests.RequestException as err:
            raise NetworkError(f"{what} failed: {_reason(err)}", maybe_applied=True) from None

    def _read(self, response: requests.Response, what: str, limit: int) -> bytes:
        try:
            declared = int(response.headers.get("Content-Length") or 0)
            if declared > limit:
                raise ProtocolError(
                    f"The reply to {what} would be {declared:,} bytes, over this client's "
                    f"limit of {limit:,}; it was not read."
                )
            chunks: list[bytes] = []
            size = 0
            started = time.monotonic()
            for chunk in _chunks_as_they_come(response):
                size += len(chunk)
                if size > limit:
                    raise ProtocolError(
                        f"The reply to {what} grew past this client's limit of {limit:,} bytes; "
                        "it was dropped."
                    )
                chunks.append(chunk)
                # a reply that trickles in (a byte now and then, each within the read
                # timeout) would hold this call, and the sync thread, for hours
                spent = time.monotonic() - started
                if spent > self.timeouts.read and size < MIN_REPLY_RATE * spent:
                    raise NetworkError(
                        f"The reply to {what} came too slowly ({size:,} bytes in "
                        f"{spent:.0f} s); nothing from it was used.",
                        maybe_applied=True,
                    )
            return b"".join(chunks)
        except requests.RequestException as err:
            raise NetworkError(
                f"The reply to {what} was cut off ({_reason(err)}); nothing from it was used.",
                maybe_applied=True,
            ) from None
        finally:
            response.close()

    def _problem(self, response: requests.Response, raw: bytes, what: str) -> ApiError:
        status = response.status_code
        retry_after = parse_retry_after(response.headers.get("Retry-After"))
        try:
            problem = Problem.model_validate_json(raw)
            from_service = True
        except ValidationError:
            problem = Problem(
                title=response.reason or "HTTP error",
                status=status if 400 <= status <= 599 else 502,
                code=f"http_{status}",
                detail=f"{what} answered HTTP {status} without a problem document.",
            )
            from_service = False
        if 400 <= status < 500 and status != 401 and not from_service:
            # the service answers every refusal with a problem document: a bare 4xx (an
            # HTML page) comes from something in between (a proxy, a gateway, a firewall),
            # and says nothing about the request itself. Like a 5xx it is tried again
            # later: a verdict it met stays in the outbox, never "rejected" for it.
            return ServiceUnavailable(status, problem, retry_after)
        if status == 401:
            refused = AuthenticationRequired(status, problem, retry_after)
            if self.on_auth_required is not None:
                self.on_auth_required(refused)
            return refused
        if status == 403:
            return Forbidden(status, problem, retry_after)
        if status in BUSY_STATUSES or status >= 500:
            return ServiceUnavailable(status, problem, retry_after)
        if 300 <= status < 400 or status < 200:
            return ProtocolError(f"{what} answered an unexpected HTTP {status}.")
        return ProblemError(status, problem, retry_after)


#: bytes a second a reply must average once its read timeout has passed
MIN_REPLY_RATE = 1024


def _chunks_as_they_come(response: requests.Response) -> Iterator[bytes]:
    """The reply's body in the pieces the network gives (``read1``): a caller sees each as
    it arrives, and can stop a reply that trickles in."""
    raw = response.raw
    read1 = getattr(raw, "read1", None)
    if read1 is None:  # an older urllib3: whole chunks
        yield from response.iter_content(256 * 1024)
        return
    try:
        while chunk := read1(256 * 1024, decode_content=True):
            yield chunk
    except urllib3.exceptions.HTTPError as err:  # as iter_content says it
        raise requests.exceptions.ChunkedEncodingError(err) from None


class _ChunkStream(io.RawIOBase):
    """A readable raw stream over the chunks of a streamed reply (for io.BufferedReader)."""

    def __init__(self, chunks: Iterator[bytes]) -> None:
        super().__init__()
        self._chunks = chunks
        self._left = memoryview(b"")

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        while not self._left:
            chunk = next(self._chunks, None)
            if chunk is None:
                return 0
            self._left = memoryview(chunk)
        size = min(len(buffer), len(self._left))
        buffer[:size] = self._left[:size]
        self._left = self._left[size:]
        return size


def _wire_time(value: datetime, name: str) -> str:
    """A query time as RFC 3339; a time without a zone is refused (it would be a guess)."""
    if value.tzinfo is None or value.utcoffset() is None:
        raise ValueError(f"{name} must carry a time zone (e.g. datetime.now(UTC))")
    return value.isoformat()


def _query_params(query: DecisionQuery) -> dict[str, str | int]:
    """The query string of a decision search or export (times checked as ``_wire_time``)."""
    for name in ("since", "until"):
        if (value := getattr(query, name)) is not None:
            _wire_time(value, name)
    return dict(query.params())


def _clean(value: Any) -> Any:
    """JSON data with lone surrogates in its strings replaced by U+FFFD."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
            return value
        except UnicodeEncodeError:
            return value.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
    if isinstance(value, list):
        return [_clean(v) for v in value]
    if isinstance(value, dict):
        return {_clean(k): _clean(v) for k, v in value.items()}
    return value


def known_fields(model: type[M], doc: Any) -> M:
    """``doc`` (parsed JSON, changed in place) as ``model``, without the fields this client
    does not know: a service of the same major version only ever adds fields (a newer
    service's reply is read by an older client). Anything else wrong is still refused."""
    for _ in range(3):
        try:
            return model.model_validate(doc)
        except ValidationError as err:
            unknown = [e["loc"] for e in err.errors() if e.get("type") == "extra_forbidden"]
            if not unknown or not _left_out(doc, unknown):
                raise
            if not _told_unknown:  # once a process: a newer service sends them every time
                _told_unknown.append(True)
                log.info("the service sends fields this client does not know: left out")
    return model.model_validate(doc)


_told_unknown: list[bool] = []


def _left_out(doc: Any, places: list[tuple[int | str, ...]]) -> int:
    """Delete the fields at these places (pydantic's error locations); how many were
    deleted. A place that is not a path in the document (it names a union's member: the
    field may belong to another member) is left alone."""
    deleted = 0
    for place in places:
        node = doc
        for step in place[:-1]:
            into_dict = isinstance(node, dict) and step in node
            into_list = isinstance(node, list) and isinstance(step, int) and 0 <= step < len(node)
            if not (into_dict or into_list):
                break
            node = node[step]
        else:
            if isinstance(node, dict) and place and place[-1] in node:
                del node[place[-1]]
                deleted += 1
    return deleted


def _loads(raw: bytes, what: str) -> Any:
    try:
        return _clean(json.loads(raw))
    except (ValueError, RecursionError) as err:
        raise ProtocolError(
            f"The server's reply to {what} is not JSON ({err}). Nothing from it was used."
        ) from None


def _summary(err: ValidationError) -> str:
    first = err.errors()[0]
    where = ".".join(str(p) for p in first.get("loc", ())) or "the reply"
    return f"{err.error_count()} problem(s); first at {where}: {first.get('msg')}"


def _broken(what: str, err: ValidationError) -> str:
    return (
        f"The server's reply to {what} breaks the contract ({_summary(err)}). "
        "Nothing from it was used."
    )


def _name_of(raw_item: Any) -> str:
    if isinstance(raw_item, dict):
        item = raw_item.get("item")
        if isinstance(item, dict) and isinstance(item.get("id"), str):
            return item["id"][:100]
    return "(unknown item)"


def _reason(err: BaseException) -> str:
    """The innermost cause, in words, without the URL noise of requests' messages."""
    inner: BaseException = err
    while True:
        nxt = getattr(inner, "reason", None) or inner.__context__
        if not isinstance(nxt, BaseException) or nxt is inner:
            break
        inner = nxt
    text = str(inner) or type(inner).__name__
    return text if len(text) < 200 else text[:197] + "..."


def _untrusted(err: BaseException) -> bool:
    """True when a TLS failure is the server's certificate (not a handshake that broke)."""
    inner: object = err
    for _ in range(10):
        if not isinstance(inner, BaseException) or isinstance(inner, ssl.SSLCertVerificationError):
            break
        inner = getattr(inner, "reason", None) or inner.__cause__ or inner.__context__
    return isinstance(inner, ssl.SSLCertVerificationError)


def _never_connected(err: requests.ConnectionError) -> bool:
    """True when the request surely never reached the server (refused, no route, DNS)."""
    from urllib3.exceptions import NameResolutionError, NewConnectionError

    inner: BaseException | None = err
    seen = 0
    while inner is not None and seen < 10:
        if isinstance(inner, NewConnectionError | NameResolutionError | ConnectionRefusedError):
            return True
        inner = getattr(inner, "reason", None) or inner.__context__
        seen += 1
    return False
