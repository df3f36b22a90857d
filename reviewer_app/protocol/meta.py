"""``GET /meta``, sessions and users."""

from __future__ import annotations

from pydantic import Field

from .common import Label, PersonRole, Role, ShortText, Timestamp, Username, WireModel


class Limits(WireModel):
    max_body_bytes: int
    max_claim: int
    max_lease_seconds: int
    max_leased_per_reviewer: int
    max_verdicts_per_batch: int


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


class RoleChange(WireModel):
    role: PersonRole = Field(
        description="a person's role: people and service accounts do not change into each other"
    )


class UserList(WireModel):
    users: list[User] = Field(max_length=10_000)
