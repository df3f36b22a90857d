"""The service's schema (SQLAlchemy Core). Times are UTC epoch seconds (float)."""

from __future__ import annotations

from sqlalchemy import (
    Boolean,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    Text,
)

metadata = MetaData()

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
)

authors = Table(
    "authors",
    metadata,
    Column("id", String(200), primary_key=True),
    Column("handle", String(200), nullable=False),
    Column("payload", Text, nullable=False),
)

strikes = Table(
    "strikes",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("author_id", String(200), nullable=False, index=True),
    Column("policy", String(32), nullable=False),
    Column("at", Float, nullable=False),
    Column("decision_id", Integer, nullable=True),
)

items = Table(
    "items",
    metadata,
    Column("id", String(64), primary_key=True),
    Column("queue_id", String(64), ForeignKey("queues.id"), nullable=False),
    Column("origin_queue_id", String(64), nullable=False),
    Column("state", String(16), nullable=False),
    Column("priority", Float, nullable=False),
    Column("enqueued_at", Float, nullable=False),
    Column("author_id", String(200), nullable=False),
    Column("payload", Text, nullable=False),
    Column("epoch", Integer, nullable=False, default=0),
    Column("lease_token", String(128), nullable=True),
    Column("lease_user_id", Integer, nullable=True),
    Column("lease_expires_at", Float, nullable=True),
    Column("decision_id", Integer, nullable=True),
    Index("ix_items_claim", "queue_id", "state", "priority"),
    Index("ix_items_lease_expiry", "state", "lease_expires_at"),
    Index("ix_items_lease_user", "lease_user_id"),
    Index("ix_items_lease_token", "lease_token"),
)

media = Table(
    "media",
    metadata,
    Column("id", String(64), primary_key=True),
    Column("item_id", String(64), nullable=False, index=True),
    Column("position", Integer, nullable=False, default=0),
    Column("kind", String(16), nullable=False),
    Column("mime_type", String(64), nullable=False),
    Column("size_bytes", Integer, nullable=False),
    Column("width", Integer, nullable=True),
    Column("height", Integer, nullable=True),
    Column("alt_text", String(200), nullable=False, default=""),
    Column("sensitive", Boolean, nullable=False, default=False),
    Column("content", LargeBinary, nullable=False),
)

leases = Table(
    "leases",
    metadata,
    Column("token", String(128), primary_key=True),
    Column("item_id", String(64), nullable=False, index=True),
    Column("queue_id", String(64), nullable=False),
    Column("user_id", Integer, nullable=False),
    Column("epoch", Integer, nullable=False),
    Column("claimed_at", Float, nullable=False),
    Column("expires_at", Float, nullable=False),
    Column("ended_at", Float, nullable=True),
)

decisions = Table(
    "decisions",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("item_id", String(64), nullable=False),
    Column("epoch", Integer, nullable=False),
    Column("queue_id", String(64), nullable=False),
    Column("user_id", Integer, nullable=False),
    Column("author_id", String(200), nullable=False),
    Column("action", String(64), nullable=False),
    Column("policies", Text, nullable=False, default="[]"),
    Column("rating", String(64), nullable=True),
    Column("note", Text, nullable=True),
    Column("author_action", String(32), nullable=True),
    Column("time_spent_ms", Integer, nullable=False),
    Column("decided_at", Float, nullable=False),
    Column("client_decided_at", Float, nullable=False),
    Index("ix_decisions_item_epoch", "item_id", "epoch", unique=True),
    Index("ix_decisions_author", "author_id", "id"),
    Index("ix_decisions_user", "user_id", "decided_at"),
    Index("ix_decisions_queue_time", "queue_id", "decided_at"),
)

verdict_keys = Table(
    "verdict_keys",
    metadata,
    Column("key", String(36), primary_key=True),
    Column("user_id", Integer, nullable=False),
    Column("body_hash", String(64), nullable=False),
    Column("result", Text, nullable=False),
    Column("created_at", Float, nullable=False),
)

events = Table(
    "events",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("at", Float, nullable=False),
    Column("kind", String(32), nullable=False),
    Column("actor", String(64), nullable=True),
    Column("item_id", String(64), nullable=True),
    Column("queue_id", String(64), nullable=True),
    Column("data", Text, nullable=False, default="{}"),
    Index("ix_events_item", "item_id", "id"),
)
