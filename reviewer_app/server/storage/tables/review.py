"""The review: items, their media and leases, skips, breaks, decisions, search, saved
views and verdict keys."""

from __future__ import annotations

from sqlalchemy import (
    Boolean,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Table,
    Text,
    text,
)

from ._base import _OPEN_ITEM, _OPEN_POST_ITEM, _leased_only, metadata

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
    # The intake post this item reviews (NULL for items seeded before intake existed).
    Column("post_id", String(64), nullable=True),
    # An open escalation assigned to a lead (migration 0021): only their claim takes it.
    Column("assigned_user_id", Integer, nullable=True),
    Column("assigned_at", Float, nullable=True),
    Column("assigned_by_id", Integer, nullable=True),
    Index("ix_items_claim", "queue_id", "state", "priority"),
    # items with a post only (migration 0013: a full index's one NULL key of many items
    # misled SQLite's statistics into scanning items for intake's queries by post)
    Index(
        "ix_items_post",
        "post_id",
        "state",
        sqlite_where=text("post_id IS NOT NULL"),
        postgresql_where=text("post_id IS NOT NULL"),
    ),
    # The lease indexes hold leased items only (partial: the column is not NULL). A pending
    # or decided item has no entry, so a claim or a verdict adds or removes ten entries in
    # one place instead of also moving ten NULL entries at random places (fewer pages
    # written per transaction). Every query on them compares the column, which implies
    # "IS NOT NULL" to SQLite's and PostgreSQL's planners.
    # a claim's look for its queue's expired leases: the queue first (migration 0023), so
    # every condition bounds the range whatever the planner's statistics say
    _leased_only(
        "ix_items_lease_expiry",
        "queue_id",
        "state",
        "lease_expires_at",
        column="lease_expires_at",
    ),
    # a reviewer's live leases (the per-reviewer cap): equality on the user first, so the
    # count reads that reviewer's few rows, not every lease in the service
    _leased_only(
        "ix_items_lease_user", "lease_user_id", "state", "lease_expires_at", column="lease_user_id"
    ),
    _leased_only("ix_items_lease_token", "lease_token", column="lease_token"),
    Index("ix_items_waiting", "queue_id", "state", "enqueued_at"),
    # a post is never queued twice: at most one pending or leased item per post
    Index(
        "ix_items_open_post",
        "post_id",
        unique=True,
        sqlite_where=_OPEN_POST_ITEM,
        postgresql_where=_OPEN_POST_ITEM,
    ),
    # an author's open items (an account action closes them; linked accounts count them)
    Index(
        "ix_items_author_open", "author_id", sqlite_where=_OPEN_ITEM, postgresql_where=_OPEN_ITEM
    ),
)

media = Table(
    "media",
    metadata,
    Column("id", String(64), primary_key=True),
    # An intake upload belongs to no item until a post names it (see posts.payload).
    Column("item_id", String(64), nullable=True, index=True),
    Column("position", Integer, nullable=False, default=0),
    Column("kind", String(16), nullable=False),
    Column("mime_type", String(64), nullable=False),
    Column("size_bytes", Integer, nullable=False),
    Column("width", Integer, nullable=True),
    Column("height", Integer, nullable=True),
    Column("alt_text", String(200), nullable=False, default=""),
    Column("sensitive", Boolean, nullable=False, default=False),
    Column("content", LargeBinary, nullable=False),
    # intake uploads: the platform account that sent it, the bytes' sha256 (dedupe)
    Column("source", String(64), nullable=True),
    Column("sha256", String(64), nullable=True),
    Index("ix_media_sha256", "source", "sha256"),
)

leases = Table(
    "leases",
    metadata,
    Column("token", String(128), primary_key=True),
    # no index by item: nothing looks leases up by item (an item's story is its events)
    Column("item_id", String(64), nullable=False),
    Column("queue_id", String(64), nullable=False),
    Column("user_id", Integer, nullable=False),
    Column("epoch", Integer, nullable=False),
    Column("claimed_at", Float, nullable=False),
    Column("expires_at", Float, nullable=False),
    Column("ended_at", Float, nullable=True),
    # the queue configuration version in force when the item was leased: a verdict valid
    # under it stays valid while the lease lives, whatever was applied since
    Column("config_version", Integer, nullable=True),
)

# Items a reviewer skipped (a release marked ``skipped``), remembered until ``until``:
# their claims in that queue prefer other items (leasing.py).
skips = Table(
    "skips",
    metadata,
    Column("user_id", Integer, primary_key=True, autoincrement=False),
    Column("item_id", String(64), primary_key=True),
    Column("queue_id", String(64), nullable=False),
    Column("until", Float, nullable=False),
    Index("ix_skips_user_queue", "user_id", "queue_id", "until"),
)

# Breaks reviewers took (POST /breaks, by the client's id): the lead's exposure view counts
# them (wellbeing.py). ``ended_at`` is None while the break lasts.
breaks = Table(
    "breaks",
    metadata,
    Column("id", String(36), primary_key=True),
    Column("user_id", Integer, nullable=False),
    Column("started_at", Float, nullable=False),
    Column("ended_at", Float, nullable=True),
    Column("prompted", Boolean, nullable=False, default=False),
    Index("ix_breaks_user_time", "user_id", "started_at"),
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
    # "review" (the review flow) or "overturn" (an auditor's correction, see audits.py).
    Column("kind", String(16), nullable=False, server_default="review"),
    Column("overturns_id", Integer, nullable=True),
    Column("config_version", Integer, nullable=False, server_default="0"),
    # kind "appeal": the contested decision it upheld or reversed (see appeals.py)
    Column("appeal_of", Integer, nullable=True),
    # an escalation: the reason the reviewer gave (migration 0021)
    Column("escalation_reason", String(64), nullable=True),
    Index("ix_decisions_item_epoch", "item_id", "epoch", unique=True),
    Index("ix_decisions_author", "author_id", "id"),
    Index("ix_decisions_user", "user_id", "decided_at"),
    Index("ix_decisions_queue_time", "queue_id", "decided_at"),
    Index("ix_decisions_time", "decided_at"),
)

# The policy codes of each decision, one row per code, kept by triggers on ``decisions``
# (migration 0020), so the decision search filters by policy through an index instead of a
# LIKE over the stored JSON list.
decision_policies = Table(
    "decision_policies",
    metadata,
    Column("policy", String(64), primary_key=True),
    Column("decision_id", Integer, primary_key=True),
)

# Lead search (search_index.py): one row per item with what a lead searches it by, written
# by the writers of items (seed, intake). ``author`` (handle, platform id, display name) and
# ``body`` (the post's text) hold case-folded text (``fold_text``) for substring search: on
# SQLite an FTS5 trigram table over them (``item_search_fts``, kept in step by triggers), on
# PostgreSQL pg_trgm GIN indexes; both made by migration 0020 and named in
# SEARCH_INDEX_OBJECTS, not declared here (neither is a plain table or index).
item_search = Table(
    "item_search",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("item_id", String(64), nullable=False),
    Column("author", Text, nullable=False),
    Column("body", Text, nullable=False),
    Index("ix_item_search_item", "item_id", unique=True),
)

# Exact keys of a search row: ``post`` (``id:`` the post's platform id, ``url:`` a hash of
# its URL), ``domain`` (each domain a link names, and its parent domains), ``reason`` (a
# report reason). Read by (kind, value) newest row first.
item_search_keys = Table(
    "item_search_keys",
    metadata,
    Column("kind", String(16), primary_key=True),
    Column("value", String(200), primary_key=True),
    Column("doc_id", Integer, primary_key=True),
    Index("ix_item_search_keys_doc", "doc_id"),
)

SEARCH_INDEX_OBJECTS = frozenset(
    {
        # SQLite: the FTS5 table and its shadow tables
        "item_search_fts",
        "item_search_fts_data",
        "item_search_fts_idx",
        "item_search_fts_docsize",
        "item_search_fts_config",
        # PostgreSQL: the trigram indexes
        "ix_item_search_author_trgm",
        "ix_item_search_body_trgm",
    }
)
"""Database objects of the search index that migration 0020 makes per dialect."""

# A lead's saved search or decisions filter (views.py), private or shared with the team.
saved_views = Table(
    "saved_views",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("user_id", Integer, nullable=False),
    Column("name", String(200), nullable=False),
    Column("kind", String(16), nullable=False),
    # protocol SavedViewQuery as JSON
    Column("query", Text, nullable=False),
    Column("shared", Boolean, nullable=False),
    Column("created_at", Float, nullable=False),
    Index("ix_saved_views_owner_name", "user_id", "name", unique=True),
    Index("ix_saved_views_shared", "shared"),
)


verdict_keys = Table(
    "verdict_keys",
    metadata,
    Column("key", String(36), primary_key=True),
    Column("user_id", Integer, nullable=False),
    Column("body_hash", String(64), nullable=False),
    Column("result", Text, nullable=False),
    Column("created_at", Float, nullable=False),
    # The result's status (accepted, conflict, ...), so conflicts can be counted.
    Column("status", String(16), nullable=False, server_default="accepted"),
    Index("ix_verdict_keys_status", "status", "created_at", "user_id"),
)
