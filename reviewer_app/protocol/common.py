"""Shared types, limits and the error body of the wire contract."""

from __future__ import annotations

from datetime import UTC, datetime
from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    AwareDatetime,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    Strict,
    StringConstraints,
    ValidationError,
)
from pydantic_core import PydanticCustomError

API_VERSION = "1.0"
API_MAJOR = 1
API_PREFIX = "/api/v1"

# Limits that the server enforces and the client can rely on.
MAX_TEXT = 100_000
MAX_NOTE = 2_000
MAX_LABEL = 200
MAX_CLAIM = 200
MIN_LEASE_SECONDS = 30
MAX_LEASE_SECONDS = 3_600
MAX_VERDICTS_PER_BATCH = 100
MAX_TOKENS_PER_CALL = 500
MAX_PAGE = 500
# Years a time on the wire may have (as written; any offset keeps it inside UTC epochs).
MIN_YEAR = 1971
MAX_YEAR = 8999

#: the queue an escalate action moves its item to (lead-only; a configuration with an
#: escalate action must declare it)
ESCALATION_QUEUE = "escalations"


class WireModel(BaseModel):
    """Base of every wire model: unknown fields are refused, strings are not coerced."""

    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=False)


Slug = Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9_.-]{0,63}$")]
"""A lower-case identifier: actions, ratings, queue ids, report reasons."""

PolicyCode = Annotated[str, StringConstraints(pattern=r"^[A-Z][A-Z0-9_.-]{0,31}$")]


def _cited_once(codes: list[str]) -> list[str]:
    if len(set(codes)) != len(codes):
        raise PydanticCustomError("policy_cited_twice", "each policy code may be cited once")
    return codes


#: the policy codes a decision cites, each once (a code cited twice gave its author two
#: strikes, and a blind audit citing it once recorded an overturn)
PolicyCodes = Annotated[
    list[PolicyCode],
    AfterValidator(_cited_once),
    Field(max_length=16, json_schema_extra={"uniqueItems": True}),
]
"""A policy code such as ``HATE.2`` or ``SPAM.SCAM``."""

ItemId = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_-]{1,64}$")]
MediaId = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_-]{1,64}$")]
LeaseToken = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_.-]{16,128}$")]
Username = Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9_.-]{1,63}$")]
# Free text may hold anything a person can type, but never NUL (no database stores it).
_NO_NUL = r"^[^\x00]*$"
Label = Annotated[str, StringConstraints(min_length=1, max_length=MAX_LABEL, pattern=_NO_NUL)]
ShortText = Annotated[str, StringConstraints(max_length=MAX_LABEL, pattern=_NO_NUL)]
LongText = Annotated[str, StringConstraints(max_length=MAX_TEXT, pattern=_NO_NUL)]
NoteText = Annotated[str, StringConstraints(max_length=MAX_NOTE, pattern=_NO_NUL)]
#: a post's text in a row of a list (escalations, a bulk decision's posts, the reviewer's
#: own decisions) is cut to this many characters, an ellipsis after a cut
EXCERPT_CHARS = 280
Excerpt = Annotated[str, StringConstraints(max_length=EXCERPT_CHARS + 1, pattern=_NO_NUL)]
# No control character (NUL among them) and no white space of either regex dialect
# (Python's ``\s`` and JSON Schema's differ on U+001C-U+001F, U+0085 and U+FEFF): every
# such character is named, so the service and a client validating against the OpenAPI
# document agree on what a URL is.
_URL_SPACE = r"\x00-\x20\x7f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
HttpUrl = Annotated[str, StringConstraints(pattern=rf"^https?://[^{_URL_SPACE}]{{1,2040}}$")]
Language = Annotated[str, StringConstraints(pattern=r"^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$")]


def _json_datetime_only(value: Any) -> Any:
    """A time on the wire is an RFC 3339 string, never a number of seconds."""
    if isinstance(value, bool | int | float) or (isinstance(value, str) and value.isdigit()):
        raise ValueError("expected an RFC 3339 date-time string with a time zone")
    return value


def _json_int_only(value: Any) -> Any:
    """An integer on the wire is a JSON number, never ``true`` or ``"5"``."""
    if isinstance(value, bool | str):
        raise ValueError("expected a JSON integer")
    return value


def _utc_within_range(value: datetime) -> datetime:
    """Times are kept as UTC epoch seconds: refuse years no clock of ours can mean (the
    year in UTC: 1971-01-01T00:30+01:00 is still 1970)."""
    problem = f"date-time must be between the years {MIN_YEAR} and {MAX_YEAR}"
    try:
        utc = value.astimezone(UTC)
    except OverflowError:  # year 1 at +14:00, say: before any year Python counts
        raise ValueError(problem) from None
    if not MIN_YEAR <= utc.year <= MAX_YEAR:
        raise ValueError(problem)
    return utc


Timestamp = Annotated[
    AwareDatetime,
    BeforeValidator(_json_datetime_only),
    AfterValidator(_utc_within_range),
    Field(json_schema_extra={"pattern": r"^(197[1-9]|19[89][0-9]|[2-8][0-9]{3})-"}),
]
JsonInt = Annotated[int, BeforeValidator(_json_int_only)]


def _json_number_only(value: Any) -> Any:
    """A number on the wire is a JSON number, never ``true`` or ``"0.5"``."""
    if isinstance(value, bool | str):
        raise ValueError("expected a JSON number")
    return value


JsonFloat = Annotated[float, BeforeValidator(_json_number_only)]
JsonBool = Annotated[bool, Strict()]
"""``true`` or ``false``, never ``0``, ``1`` or ``"yes"``."""
# (the bounds before the validator: so they stay JSON-schema minimum and maximum)
Count = Annotated[int, Field(ge=0, le=10**12), BeforeValidator(_json_int_only)]
Fraction = Annotated[float, Field(ge=0.0, le=1.0), BeforeValidator(_json_number_only)]


class Role(StrEnum):
    reviewer = "reviewer"
    lead = "lead"
    admin = "admin"
    platform = "platform"
    """A platform's backend (API key): intake of posts and signals, nothing else."""
    fact_checker = "fact_checker"
    """A fact-checking organisation (API key): submits and reads back its own ratings."""


PERSON_ROLES = (Role.reviewer, Role.lead, Role.admin)
"""Roles of people (password logins); the others are service accounts with API keys."""
KEY_ROLES = (Role.platform, Role.fact_checker)
PersonRole = Literal[Role.reviewer, Role.lead, Role.admin]
"""A role a password user may have (service accounts are made with API keys)."""
KeyRole = Literal[Role.platform, Role.fact_checker]
"""A service account's role."""


class ProblemDetail(WireModel):
    """One problem inside a request, e.g. one invalid field or one invalid verdict."""

    loc: list[str | int] = Field(default_factory=list, max_length=16)
    message: str = Field(max_length=2_000)
    code: str | None = Field(default=None, max_length=64)


class Problem(BaseModel):
    """RFC 9457 problem details, with a stable machine-readable ``code``."""

    model_config = ConfigDict(extra="allow")

    type: str = "about:blank"
    title: str
    status: int = Field(ge=400, le=599)
    detail: str | None = None
    instance: str | None = None
    code: str = Field(max_length=64)
    errors: list[ProblemDetail] | None = None


class Page(WireModel):
    """Paging fields shared by every list: pass ``next_cursor`` back as ``cursor``."""

    next_cursor: str | None = Field(default=None, max_length=512)


def describe_errors(exc: ValidationError, limit: int = 3) -> str:
    """A validation error in one line for a person: ``field: what is wrong`` for the first
    ``limit`` problems, without pydantic's type names, inputs or documentation links."""
    parts = []
    for error in exc.errors(include_url=False)[:limit]:
        where = ".".join(str(p) for p in error["loc"])
        parts.append(f"{where}: {error['msg']}" if where else error["msg"])
    more = exc.error_count() - limit
    return "; ".join(parts) + (f" (and {more} more)" if more > 0 else "")
