"""``GET /meta``, sessions and users."""

from __future__ import annotations

from pydantic import Field

from .common import (
    JsonInt,
    Label,
    PersonRole,
    Role,
    ShortText,
    Slug,
    Timestamp,
    Username,
    WireModel,
)


class Limits(WireModel):
    """The service's limits; each at least 1 (a client sizes its requests by them: a limit
    of 0 sent no verdict at all, a negative one made requests the client itself refused)."""

    max_body_bytes: JsonInt = Field(ge=1)
    max_claim: JsonInt = Field(ge=1)
    max_lease_seconds: JsonInt = Field(ge=1)
    max_leased_per_reviewer: JsonInt = Field(ge=1)
    max_verdicts_per_batch: JsonInt = Field(ge=1)


class Meta(WireModel):
    api_version: str = Field(pattern=r"^\d+\.\d+$", description="major.minor of the wire contract")
    server_version: ShortText
    features: list[ShortText] = Field(max_length=64)
    limits: Limits


class SessionCreate(WireModel):
    username: Username
    password: str = Field(min_length=1, max_length=1_024)


class User(WireModel):
    id: int = Field(ge=1)
    username: Username
    display_name: Label
    role: Role
    access_ended: bool = Field(
        default=False,
        description="an admin ended this person's access: no password opens the account "
        "until an admin sets a new one (never true of a service account)",
    )


class SessionInfo(WireModel):
    token: str = Field(min_length=16, max_length=256)
    token_type: str = "bearer"  # noqa: S105 - the OAuth token type, not a secret
    expires_at: Timestamp
    user: User


class UserCreate(WireModel):
    username: Username
    display_name: Label | None = None
    password: str = Field(min_length=10, max_length=1_024)
    role: PersonRole = Field(
        default=Role.reviewer,
        description="a person's role; platform and fact-checker accounts have API keys "
        "(POST /admin/api-keys), not passwords",
    )


class PasswordSet(WireModel):
    password: str = Field(
        min_length=10,
        max_length=1_024,
        description="the person's new password: every session of theirs ends",
    )


class RoleChange(WireModel):
    role: PersonRole = Field(
        description="a person's role: people and service accounts do not change into each other"
    )


class UserList(WireModel):
    users: list[User] = Field(max_length=10_000)


MAX_QUEUE_FILE_CHARS = 4_000_000


class QueueFileVersion(WireModel):
    """One applied queue file (a configuration version): who applied it and when."""

    version: int = Field(ge=1)
    applied_at: Timestamp
    applied_by: ShortText | None = Field(
        default=None, description="who applied it (None: the service itself, e.g. the seed)"
    )
    sha256: str = Field(pattern=r"^[0-9a-f]{64}$", description="of the file as canonical JSON")
    queues: list[Slug] = Field(max_length=10_000, description="the queues it defines")


class QueueFileHistory(WireModel):
    """``GET /admin/queue-file/history``: every version, newest first."""

    versions: list[QueueFileVersion] = Field(max_length=100_000)


class RunningQueueFile(WireModel):
    """``GET /admin/queue-file``: the running queue configuration as a TOML queue file (what
    ``reviewer-app server queues export`` writes) and the newest version."""

    version: QueueFileVersion | None = Field(
        default=None, description="the newest configuration version (None before the first)"
    )
    toml: str = Field(
        max_length=MAX_QUEUE_FILE_CHARS,
        description="the running queues as a TOML queue file (empty when there are none)",
    )
