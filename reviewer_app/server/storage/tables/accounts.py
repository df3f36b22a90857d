"""Accounts, their sessions and keys, the queues and their configuration."""

from __future__ import annotations

from sqlalchemy import (
    Column,
    Float,
    ForeignKey,
    Integer,
    String,
    Table,
    Text,
)

from ._base import metadata

users = Table(
    "users",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("username", String(64), nullable=False, unique=True),
    Column("display_name", String(200), nullable=False),
    Column("password_hash", String(256), nullable=False),
    Column("role", String(16), nullable=False),
    Column("created_at", Float, nullable=False),
)

login_attempts = Table(
    "login_attempts",
    metadata,
    Column("username", String(64), primary_key=True),
    Column("failures", Integer, nullable=False, default=0),
    Column("locked_until", Float, nullable=True),
)

sessions = Table(
    "sessions",
    metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id"), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("expires_at", Float, nullable=False),
    Column("revoked_at", Float, nullable=True),
)

queues = Table(
    "queues",
    metadata,
    Column("id", String(64), primary_key=True),
    Column("name", String(200), nullable=False),
    Column("description", String(200), nullable=False, default=""),
    Column("position", Integer, nullable=False, default=0),
    Column("config", Text, nullable=False),
    Column("config_version", Integer, nullable=False, server_default="0"),
    # When a queue file left the queue out. A retired queue keeps its row, since its
    # decided items and decisions name it, and is left out of routing, claims and lists.
    Column("retired_at", Float, nullable=True),
)

# -- service accounts, configuration, intake ---------------------------------------------------

api_keys = Table(
    "api_keys",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    # the service account (a users row with role platform or fact_checker) the key acts for
    Column("user_id", Integer, ForeignKey("users.id"), nullable=False, index=True),
    Column("name", String(200), nullable=False),
    # sha256 of the key (a random 256-bit secret): the key itself is never stored
    Column("key_hash", String(64), nullable=False, unique=True),
    Column("prefix", String(16), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("last_used_at", Float, nullable=True),
    Column("revoked_at", Float, nullable=True),
)

config_versions = Table(
    "config_versions",
    metadata,
    Column("version", Integer, primary_key=True, autoincrement=False),
    Column("applied_at", Float, nullable=False),
    Column("applied_by", String(64), nullable=True),
    # the whole queue file (protocol QueueFile as JSON) and its sha256
    Column("document", Text, nullable=False),
    Column("sha256", String(64), nullable=False),
)

server_secrets = Table(
    "server_secrets",
    metadata,
    Column("name", String(64), primary_key=True),
    Column("value", String(256), nullable=False),
)
