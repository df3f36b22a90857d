"""Settings of the reference service, declared once: each field's name, type, default
and what it does. ``ServerSettings(...)`` takes exactly what it is given (tests, tools);
``ServerSettings.from_env()`` reads ``REVIEWER_SERVER_<NAME>`` variables with
pydantic-settings (types, ranges and words checked: a bad value is a clear error naming the
variable; ``unknown_variables`` names those that are no setting)."""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from reviewer_app.protocol.common import MAX_LEASE_SECONDS, MIN_LEASE_SECONDS

DEFAULT_DATABASE_URL = "sqlite:///reviewer-server.db"
ENV_PREFIX = "REVIEWER_SERVER_"
#: ten years: longer than any time a setting needs
MAX_SECONDS = 10 * 365 * 86_400
#: what ``webhook_proxy`` may be (urllib3's ``ProxyManager``; SOCKS needs a package not here)
PROXY_SCHEMES = ("http", "https")


def _folded(case: str) -> Any:
    """A before-validator giving a string value in ``case`` ("upper" or "lower")."""
    return BeforeValidator(lambda v: getattr(v.strip(), case)() if isinstance(v, str) else v)


class SettingsError(ValueError):
    """A ``REVIEWER_SERVER_*`` variable (or an option) the service cannot use; the words
    name the variable and what is wrong with it."""


class ServerSettings(BaseModel):
    """Every setting of the service: name, type, default, and what it does.

    Each can also be given as the environment variable ``REVIEWER_SERVER_<NAME>``.
    """

    model_config = ConfigDict(
        frozen=True, extra="forbid", use_attribute_docstrings=True, allow_inf_nan=False
    )

    database_url: str = Field(default=DEFAULT_DATABASE_URL, min_length=1)
    """SQLAlchemy URL: ``sqlite:///path.db`` or ``postgresql://user:pw@host/db``."""
    read_database_url: str = ""
    """A PostgreSQL streaming replica of ``database_url`` (``postgresql://...``): lead
    statistics, decision search, CSV export and the enforcement feed's catch-up reads go
    there while it is no more than ``read_max_staleness_seconds`` behind (else to the
    primary). Empty: every read goes to the primary."""
    read_max_staleness_seconds: float = Field(default=5.0, ge=0, le=86_400)
    """How far behind the primary the replica may be for a read to go there; the lead's
    figures say how far behind they were read."""
    max_body_bytes: int = Field(default=1_048_576, ge=1, le=2**30)
    """Requests with a larger body are refused with 413."""
    token_ttl_seconds: int = Field(default=12 * 3600, ge=60, le=MAX_SECONDS)
    """How long a login token lives (one shift)."""
    max_lease_seconds: int = Field(default=3_600, ge=MIN_LEASE_SECONDS, le=MAX_LEASE_SECONDS)
    """Server cap on the length of one lease."""
    max_leased_per_reviewer: int = Field(default=250, ge=1, le=1_000_000)
    """Server cap on the items one reviewer may hold at once."""
    skip_memory_seconds: int = Field(default=8 * 3600, ge=0, le=MAX_SECONDS)
    """How long an item a reviewer skipped is remembered for them: meanwhile their claims
    in its queue take every other item first (it comes back to them only when nothing else
    is left for them, so a queue with one reviewer still empties). 0: skips are not
    remembered."""
    login_max_failures: int = Field(default=5, ge=1, le=1_000)
    """Failed logins for a name before it is locked for a while."""
    login_lock_seconds: int = Field(default=30, ge=1, le=15 * 60)
    """First lock after too many failures; doubles on each further failure, up to 15 min."""
    rate_limit_per_minute: int = Field(default=6_000, ge=0, le=1_000_000_000)
    """Requests a minute one caller (a bearer token; an address without one) may send once
    its burst is spent; more are refused with 429 and ``Retry-After``. 0 turns it off. Far
    above what a reviewer's client sends (a few a second at most): it stops runaway loops
    and floods, not work."""
    rate_limit_burst: int = Field(default=1_000, ge=1, le=1_000_000_000)
    """Requests one caller may send at once before ``rate_limit_per_minute`` applies (at
    least 1: the limit is turned off with ``rate_limit_per_minute``, not here)."""
    password_hash_profile: Annotated[Literal["default", "fast"], _folded("lower")] = "default"  # noqa: S105
    """``default`` (RFC 9106 low-memory argon2id) or ``fast`` (argon2id at its least cost: for
    tests, benchmarks and the demo, whose passwords are published)."""
    sqlite_synchronous: Annotated[Literal["OFF", "NORMAL", "FULL", "EXTRA"], _folded("upper")] = (
        "NORMAL"
    )
    """SQLite ``synchronous`` pragma (WAL + NORMAL is durable against process crashes)."""
    log_format: Annotated[Literal["text", "json"], _folded("lower")] = "text"
    """``text`` (one readable line per record) or ``json`` (one JSON object per line: time,
    level, logger, message, and for access lines method, route, status, duration_ms,
    request_id)."""
    metrics_token: str = ""
    """When set, ``GET /metrics`` needs ``Authorization: Bearer <this>``. When empty, only
    clients on this machine (127.0.0.1 or ::1, after uvicorn's ``X-Forwarded-For``
    handling) may read it; everyone else gets 403."""

    log_signing_key: str = ""
    """Path of an Ed25519 private key file (``reviewer-app server log-key create PATH``):
    the event log's checkpoints are signed with it. Empty: published unsigned."""
    log_lag_limit_seconds: int = Field(default=10, ge=1, le=MAX_SECONDS)
    """``/readyz`` answers 503 while the event log's oldest unsealed entry is older than
    this (the sequencer is not keeping up, or not running)."""

    webhook_workers: int = Field(default=8, ge=0, le=256)
    """Threads of each API process that deliver webhooks, one endpoint each at a time (a
    slow receiver holds only its own). 0: this process delivers none (another must)."""
    webhook_timeout_seconds: float = Field(default=10.0, ge=0.1, le=600)
    """A delivery whose receiver has not connected, or not answered, in this long is a
    failed attempt (retried)."""
    webhook_backoff_base_seconds: float = Field(default=2.0, gt=0, le=86_400)
    """Retries of a message wait a random time (full jitter) up to this doubled per failed
    attempt, ..."""
    webhook_backoff_max_seconds: float = Field(default=3_600.0, gt=0, le=MAX_SECONDS)
    """... capped at this (an hour)."""
    webhook_retry_window_seconds: float = Field(default=86_400.0, gt=0, le=MAX_SECONDS)
    """A message failing for this long (24 h) disables its endpoint: nothing after it is
    sent out of order; ``webhook enable`` tries it again."""
    webhook_failing_after: int = Field(default=5, ge=1, le=1_000)
    """Consecutive failed attempts after which an endpoint is marked ``failing`` (a 4xx
    other than 410 and 429 marks it at once); a success makes it ``active`` again."""
    webhook_lanes: int = Field(default=1, ge=1, le=64)
    """Connections on which an endpoint's actions go out at once. 1: one at a time, in one
    total order (``seq``). N > 1: in order per author (so per post: a ``restore`` never
    overtakes the ``remove`` it undoes; an author's account actions keep their order
    with the author's posts' actions), N authors' actions at a time, for a receiver far
    enough away that one request at a time cannot keep up (at 20 ms a round trip, one
    connection delivers at most 50 actions a second)."""
    webhook_poll_seconds: float = Field(default=0.1, ge=0.01, le=60)
    """How often each process looks for endpoints with actions to deliver."""
    webhook_lease_seconds: float = Field(default=60.0, ge=1, le=86_400)
    """How long a process holds an endpoint (renewed while it delivers; at least twice a
    request's worst time). A process that dies holding one delays its endpoints this long."""
    webhook_rotation_grace_seconds: int = Field(default=86_400, ge=0, le=MAX_SECONDS)
    """After ``webhook rotate-secret``, the previous secret keeps signing for this long."""
    webhook_proxy: str = ""
    """Send webhooks through this HTTP proxy (``http://host:port``), e.g. one that refuses
    internal addresses (SSRF). Empty: directly. The environment's proxy variables are not
    used."""

    @field_validator("webhook_proxy")
    @classmethod
    def _proxy_url(cls, value: str) -> str:
        """An ``http://`` or ``https://`` URL with a host (checked as the service starts,
        not when the first webhook goes out and its thread dies)."""
        if not value:
            return value
        try:
            parts = urlsplit(value)
            parts.port  # noqa: B018 - raises on a port that is not a number
        except ValueError as exc:
            raise ValueError(f"not a proxy URL: {exc}") from None
        if parts.scheme.lower() not in PROXY_SCHEMES or not parts.hostname:
            # the value itself is not repeated: a proxy URL may hold a password
            raise ValueError(
                f"give {' or '.join(s + '://host:port' for s in PROXY_SCHEMES)} (a scheme "
                f"{', '.join(PROXY_SCHEMES)} and a host)"
            )
        return value

    @classmethod
    def from_env(cls, **overrides: object) -> ServerSettings:
        """The settings the environment gives, with ``overrides`` (those not ``None``) on
        top of them."""
        given: dict[str, Any] = {k: v for k, v in overrides.items() if v is not None}
        try:
            return cls(**_FromEnvironment(**given).model_dump())
        except ValidationError as exc:
            wrong = "; ".join(
                f"{ENV_PREFIX}{'.'.join(str(p) for p in e['loc']).upper()}: "
                f"{e['msg'].removeprefix('Value error, ')}"
                for e in exc.errors(include_url=False)
            )
            raise SettingsError(f"A setting of the service is not usable: {wrong}") from None

    @classmethod
    def unknown_variables(cls, environ: Mapping[str, str]) -> list[str]:
        """A warning for each ``REVIEWER_SERVER_*`` variable in ``environ`` that names no
        setting (a misspelling is otherwise silently ignored), with the closest name."""
        known = [name.upper() for name in cls.model_fields]
        warnings = []
        for name in sorted(environ):
            upper = name.upper()
            if not upper.startswith(ENV_PREFIX) or upper.removeprefix(ENV_PREFIX) in known:
                continue
            close = difflib.get_close_matches(upper.removeprefix(ENV_PREFIX), known, n=1)
            hint = f" (did you mean {ENV_PREFIX}{close[0]}?)" if close else ""
            warnings.append(f"{name} is not a setting of the service and is ignored{hint}")
        return warnings

    def replace(self, **changes: Any) -> ServerSettings:
        """A copy with ``changes``, checked like the original."""
        return type(self)(**{**self.model_dump(), **changes})

    def to_env(self) -> dict[str, str]:
        """The environment that gives these settings to another process (``from_env``)."""
        return {
            f"{ENV_PREFIX}{name.upper()}": str(value) for name, value in self.model_dump().items()
        }


class _FromEnvironment(BaseSettings, ServerSettings):
    """``ServerSettings`` read from ``REVIEWER_SERVER_*`` variables (pydantic-settings)."""

    model_config = SettingsConfigDict(
        env_prefix=ENV_PREFIX,
        frozen=True,
        extra="forbid",
        case_sensitive=False,
        allow_inf_nan=False,
    )
