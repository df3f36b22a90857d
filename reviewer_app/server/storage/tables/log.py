"""The event log and what the sequencer seals: events, the chain head, checkpoints,
enforcement actions and statements of reasons."""

from __future__ import annotations

from sqlalchemy import (
    Column,
    Float,
    Index,
    Integer,
    String,
    Table,
    Text,
    text,
)

from ._base import _UNSEALED, metadata

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
    # Set by the sequencer when it seals the entry (see eventlog.py and sequencer.py), NULL
    # until then: the place in the log, the hash of the entry before and this entry's, and
    # the entry's time in the log (``at``, raised to the entry before's when that is later).
    Column("prev_hash", String(64), nullable=True),
    Column("hash", String(64), nullable=True),
    Column("seq", Integer, nullable=True),
    Column("logged_at", Float, nullable=True),
    Index("ix_events_item", "item_id", "id"),
    Index("ix_events_seq", "seq", unique=True),
    Index("ix_events_unsealed", "id", sqlite_where=_UNSEALED, postgresql_where=_UNSEALED),
)

# The head of the sealed log (one row): the last entry's seq, id, hash and log time.
event_chain = Table(
    "event_chain",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=False),
    Column("last_id", Integer, nullable=False),
    Column("last_hash", String(64), nullable=False),
    Column("last_seq", Integer, nullable=False, server_default=text("0")),
    Column("last_at", Float, nullable=False, server_default=text("0")),
)

# Checkpoints the sequencer published: the log's size (its last seq), the hash of that
# entry and the time, signed with Ed25519 when the service has a signing key. Append-only.
log_checkpoints = Table(
    "log_checkpoints",
    metadata,
    Column("log", String(32), primary_key=True),
    Column("size", Integer, primary_key=True, autoincrement=False),
    Column("head_hash", String(64), nullable=False),
    Column("at", Float, nullable=False),
    Column("key_id", String(16), nullable=True),
    Column("signature", Text, nullable=True),
)

# -- enforcement (see enforcement.py) ----------------------------------------------------------

_DECIDED = text("decision_id IS NOT NULL")

# What the platform is to do: one row per decision of record (and per withdrawal that closed
# review), inserted unsealed in the decision's transaction; the sequencer gives committed
# rows their ``seq`` (the feed's order) and ``sealed_at``. Append-only (migration 0010).
enforcement_actions = Table(
    "enforcement_actions",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("seq", Integer, nullable=True),
    Column("created_at", Float, nullable=False),  # when the decision's request wrote it
    Column("sealed_at", Float, nullable=True),
    Column("kind", String(32), nullable=False),  # protocol EnforcementKind
    # the platform account whose post it is (NULL: an item from before intake, in no feed)
    Column("source", String(64), nullable=True),
    Column("post_id", String(64), nullable=True),
    Column("post_external_id", String(200), nullable=True),
    Column("author_id", String(200), nullable=True),
    Column("author_external_id", String(200), nullable=True),
    Column("item_id", String(64), nullable=True),
    Column("decision_id", Integer, nullable=True),
    Column("queue_id", String(64), nullable=True),
    Column("config_version", Integer, nullable=False, server_default="0"),
    Column("decided_at", Float, nullable=False),
    Column("reverses_action_id", Integer, nullable=True),
    # the details (label, policies, author action, withdrawal reason) as JSON
    Column("payload", Text, nullable=False, server_default="{}"),
    Index("ix_enforcement_actions_seq", "seq", unique=True),
    Index("ix_enforcement_actions_source_seq", "source", "seq"),
    Index(
        "ix_enforcement_actions_unsealed", "id", sqlite_where=_UNSEALED, postgresql_where=_UNSEALED
    ),
    # one action per decision
    Index(
        "ix_enforcement_actions_decision",
        "decision_id",
        unique=True,
        sqlite_where=_DECIDED,
        postgresql_where=_DECIDED,
    ),
    Index("ix_enforcement_actions_post", "post_id", "id"),
)

# -- statements of reasons (statements.py) -----------------------------------------------------

statements = Table(
    "statements",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("created_at", Float, nullable=False),  # when its decision was recorded
    Column("decision_id", Integer, nullable=True),  # NULL: a lead's account action
    Column("item_id", String(64), nullable=True),
    Column("post_id", String(64), nullable=True),
    Column("author_id", String(200), nullable=True),
    Column("source", String(64), nullable=True),  # the platform account (intake)
    Column("queue_id", String(64), nullable=True),
    Column("content_date", Float, nullable=True),  # when the post was made
    # what the export needs beyond the statement: the post's content types and language,
    # and whether user reports (notices) put it up for review (JSON)
    Column("context", Text, nullable=False, server_default="{}"),
    # the statement as protocol Statement JSON (its id and puid included)
    Column("payload", Text, nullable=False),
    Index("ix_statements_created", "created_at", "id"),
    Index("ix_statements_item", "item_id", "id"),
    Index("ix_statements_post", "post_id", "id"),
    Index(
        "ix_statements_decision",
        "decision_id",
        unique=True,
        sqlite_where=_DECIDED,
        postgresql_where=_DECIDED,
    ),
)
