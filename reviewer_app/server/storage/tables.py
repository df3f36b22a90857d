"""The service's schema (SQLAlchemy Core). Times are UTC epoch seconds (float)."""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
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
    text,
)

metadata = MetaData()


def _leased_only(name: str, *columns: str, column: str) -> Index:
    """An index of the rows whose ``column`` is not NULL (on SQLite and PostgreSQL)."""
    where = text(f"{column} IS NOT NULL")
    return Index(name, *columns, sqlite_where=where, postgresql_where=where)


_UNSEALED = text("seq IS NULL")
_OPEN_POST_ITEM = text("post_id IS NOT NULL AND state IN ('pending', 'leased')")
_OPEN_ITEM = text("state IN ('pending', 'leased')")

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

posts = Table(
    "posts",
    metadata,
    Column("id", String(64), primary_key=True),
    Column("source", String(64), nullable=False),
    Column("external_id", String(200), nullable=False),
    Column("author_id", String(200), nullable=False),
    Column("version", Integer, nullable=False),
    Column("content_hash", String(64), nullable=False),
    # the post as the platform sent it (protocol IntakePost as JSON, author left out)
    Column("payload", Text, nullable=False),
    # live, deleted or private (upstream)
    Column("state", String(16), nullable=False),
    Column("received_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
    # what the post's signals add up to (see intake.Summary), kept on write
    Column("signal_summary", Text, nullable=False, server_default="{}"),
    Index("ix_posts_external", "source", "external_id", unique=True),
    # fact-checkers name posts by the platform's id alone
    Index("ix_posts_external_id", "external_id"),
)

# The media a post names (any version of it): who may see an intake upload.
post_media = Table(
    "post_media",
    metadata,
    Column("post_id", String(64), primary_key=True),
    Column("media_id", String(64), primary_key=True),
    Index("ix_post_media_media", "media_id"),
)

signals = Table(
    "signals",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("source", String(64), nullable=False),
    Column("external_id", String(200), nullable=False),
    Column("post_id", String(64), nullable=False),
    Column("kind", String(16), nullable=False),
    Column("body_hash", String(64), nullable=False),
    Column("payload", Text, nullable=False),
    Column("received_at", Float, nullable=False),
    Index("ix_signals_external", "source", "external_id", unique=True),
    Index("ix_signals_post", "post_id", "id"),
)

fact_check_ratings = Table(
    "fact_check_ratings",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    # the fact-checker account that sent it (its organisation)
    Column("user_id", Integer, nullable=False),
    Column("external_id", String(200), nullable=False),
    Column("body_hash", String(64), nullable=False),
    Column("payload", Text, nullable=False),
    Column("received_at", Float, nullable=False),
    Index("ix_fact_check_ratings_external", "user_id", "external_id", unique=True),
)

authors = Table(
    "authors",
    metadata,
    Column("id", String(200), primary_key=True),
    Column("handle", String(200), nullable=False),
    Column("payload", Text, nullable=False),
    # The platform account that sent the author in (intake) and the platform's own id for
    # them; NULL for authors seeded before intake existed.
    Column("source", String(64), nullable=True),
    Column("external_id", String(200), nullable=True),
    # What account actions made of the account (protocol AuthorStatus; see accounts.py) and
    # when it last changed.
    Column("status", String(16), nullable=False, server_default="active"),
    Column("status_at", Float, nullable=True),
    Index("ix_authors_external", "source", "external_id", unique=True),
    # linked accounts are named by handle (signals.shared_signal_accounts)
    Index("ix_authors_handle", "handle"),
    Index("ix_authors_status", "status"),
)

# Accounts that share account signals: one row per handle an author's signals name
# (``signals.shared_signal_accounts``), kept when the author is written. Read both ways:
# the accounts an author names, and the authors that name an account's handle.
author_links = Table(
    "author_links",
    metadata,
    Column("author_id", String(200), primary_key=True),
    Column("handle", String(200), primary_key=True),
    # the author's source: a handle means an account of the same platform
    Column("source", String(64), nullable=True),
    Index("ix_author_links_handle", "handle"),
)

# Account-level decisions (see accounts.py): one per account per account action, from a
# verdict whose action carries one (``decision_id``) or a lead's account action.
account_actions = Table(
    "account_actions",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("author_id", String(200), nullable=False),
    Column("action", String(32), nullable=False),  # protocol AuthorAction
    Column("status_before", String(16), nullable=False),
    Column("status_after", String(16), nullable=False),
    Column("user_id", Integer, nullable=False),
    # the verdict that carried it (its item's decision), NULL for a lead's account action
    Column("decision_id", Integer, nullable=True),
    Column("item_id", String(64), nullable=True),
    Column("policies", Text, nullable=False, server_default="[]"),
    Column("note", Text, nullable=True),
    Column("decided_at", Float, nullable=False),
    Column("closed_items", Integer, nullable=False, server_default="0"),
    Index("ix_account_actions_author", "author_id", "id"),
)

# Posts of suspended or inauthentic authors that met a routing rule and were not queued:
# recorded once per post (the post itself is in ``posts``), counted for leads.
held_posts = Table(
    "held_posts",
    metadata,
    Column("post_id", String(64), primary_key=True),
    Column("author_id", String(200), nullable=False),
    Column("source", String(64), nullable=False),
    Column("queue_id", String(64), nullable=True),  # the queue whose rule it met
    Column("author_status", String(16), nullable=False),
    Column("held_at", Float, nullable=False),
    Index("ix_held_posts_author", "author_id"),
    Index("ix_held_posts_time", "held_at"),
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
    _leased_only("ix_items_lease_expiry", "state", "lease_expires_at", column="lease_expires_at"),
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
# ``body`` (the post's text) hold folded text (lower case) for substring search: on SQLite
# an FTS5 trigram table over them (``item_search_fts``, kept in step by triggers), on
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

# -- rollups of decisions, kept by the roller (see rollups.py) ---------------------------------

queue_hourly = Table(
    "queue_hourly",
    metadata,
    Column("queue_id", String(64), primary_key=True),
    Column("hour", BigInteger, primary_key=True, autoincrement=False),  # epoch seconds, UTC hour
    Column("action", String(64), primary_key=True),
    Column("n", Integer, nullable=False),
)

reviewer_rollups = Table(
    "reviewer_rollups",
    metadata,
    Column("span", Integer, primary_key=True, autoincrement=False),  # 3600 or 86400
    Column("start", BigInteger, primary_key=True, autoincrement=False),  # epoch seconds, UTC
    Column("user_id", Integer, primary_key=True, autoincrement=False),
    Column("action", String(64), primary_key=True),
    Column("n", Integer, nullable=False),
)

handle_time_rollups = Table(
    "handle_time_rollups",
    metadata,
    Column("span", Integer, primary_key=True, autoincrement=False),
    Column("start", BigInteger, primary_key=True, autoincrement=False),
    Column("user_id", Integer, primary_key=True, autoincrement=False),
    Column("bucket", Integer, primary_key=True, autoincrement=False),  # see rollups.BOUNDS
    Column("n", Integer, nullable=False),
)

# Per reviewer, queue, decision kind, action and set of policies cited (``decisions.policies``
# as stored): the quality signals' action mixes and the exposure figures' harm counts (the
# harm rule runs per set of policies when read, so a mapping a lead corrects applies to the
# history at once). Every kind of decision, overturns included (migration 0022).
decision_mix_rollups = Table(
    "decision_mix_rollups",
    metadata,
    Column("span", Integer, primary_key=True, autoincrement=False),  # 3600 or 86400
    Column("start", BigInteger, primary_key=True, autoincrement=False),  # epoch seconds, UTC
    Column("user_id", Integer, primary_key=True, autoincrement=False),
    Column("queue_id", String(64), primary_key=True),
    Column("kind", String(16), primary_key=True),
    Column("action", String(64), primary_key=True),
    Column("policies", Text, primary_key=True),
    Column("n", Integer, nullable=False),
)

# Where the roller (rollups.py) stands in the sealed event log: the rollups hold the review
# decisions of the decided/escalated entries with seq <= last_seq, and every decision whose
# entries have ids <= counted_through_id (counted before the roller existed: migration 0014).
rollup_cursor = Table(
    "rollup_cursor",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=False),
    Column("last_seq", Integer, nullable=False),
    Column("counted_through_id", Integer, nullable=False),
    Column("rolled_at", Float, nullable=False),
)

# -- appeals (see appeals.py) -------------------------------------------------------------------

# A user's appeal of a decision of record, relayed by the platform (``source``) and idempotent
# by its id there. The contested decision's item went to the appeals queue; ``reviewer_id`` and
# ``contested_at`` are the contested decision's (the reviewer figures need no join). One appeal
# per decision. ``outcome`` (upheld / reversed) and its decision once a reviewer decided it.
appeals = Table(
    "appeals",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("source", String(64), nullable=False),
    Column("external_id", String(200), nullable=False),
    Column("body_hash", String(64), nullable=False),
    Column("subject", String(16), nullable=False),  # post or account
    Column("item_id", String(64), nullable=False),
    Column("queue_id", String(64), nullable=False),
    Column("decision_id", Integer, nullable=False),
    Column("reviewer_id", Integer, nullable=False),
    Column("contested_at", Float, nullable=False),
    Column("statement", Text, nullable=False),
    Column("submitted_at", Float, nullable=False),
    Column("received_at", Float, nullable=False),
    Column("outcome", String(16), nullable=True),
    Column("outcome_decision_id", Integer, nullable=True),
    Column("decided_at", Float, nullable=True),
    Index("ix_appeals_external", "source", "external_id", unique=True),
    Index("ix_appeals_decision", "decision_id", unique=True),
    Index("ix_appeals_item", "item_id", "id"),
    Index("ix_appeals_reviewer", "reviewer_id", "contested_at"),
)

# -- audits --------------------------------------------------------------------------------------

audit_samples = Table(
    "audit_samples",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("method", String(16), nullable=False),
    Column("requested_size", Integer, nullable=False),
    Column("size", Integer, nullable=False),
    Column("since", Float, nullable=False),
    Column("until", Float, nullable=False),
    Column("queue_id", String(64), nullable=True),
    Column("created_at", Float, nullable=False),
    Column("created_by", Integer, nullable=False),
)

audit_items = Table(
    "audit_items",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),  # the audit id
    Column("sample_id", Integer, ForeignKey("audit_samples.id"), nullable=False),
    Column("position", Integer, nullable=False),
    # The decision audited, and what the figures need of it (so they need no join).
    Column("decision_id", Integer, nullable=False),
    Column("item_id", String(64), nullable=False),
    Column("queue_id", String(64), nullable=False),
    Column("reviewer_id", Integer, nullable=False),
    Column("decided_at", Float, nullable=False),
    Column("action", String(64), nullable=False),
    # Who is judging it now (so two auditors of one sample get different items).
    Column("assigned_to", Integer, nullable=True),
    Column("assigned_until", Float, nullable=True),
    # The result, once recorded.
    Column("result", String(16), nullable=True),
    Column("auditor_id", Integer, nullable=True),
    Column("final_action", String(64), nullable=True),  # the auditor's action (for kappa)
    Column("note", Text, nullable=True),
    Column("recorded_at", Float, nullable=True),
    Column("overturn_decision_id", Integer, nullable=True),
    Index("ix_audit_items_sample", "sample_id", "position"),
    Index("ix_audit_items_decision", "decision_id", unique=True),
    Index("ix_audit_items_reviewer", "reviewer_id", "decided_at"),
    Index("ix_audit_items_recorded", "reviewer_id", "recorded_at"),
)

# -- feedback to reviewers (see feedback.py) ----------------------------------------------------

# A lead's note on a decision, for the decision's reviewer (``reviewer_id``: the decision's
# ``user_id``, so a reviewer's notes need no join). Untrusted text: shown as plain text.
decision_notes = Table(
    "decision_notes",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("decision_id", Integer, nullable=False),
    Column("reviewer_id", Integer, nullable=False),
    Column("author_id", Integer, nullable=False),
    Column("note", Text, nullable=False),
    Column("created_at", Float, nullable=False),
    Index("ix_decision_notes_decision", "decision_id", "id"),
    Index("ix_decision_notes_reviewer", "reviewer_id", "created_at"),
)

# Up to when each reviewer has seen the feedback on their decisions (audit overturns,
# reversed appeals, leads' notes): the login notice counts what came after.
feedback_seen = Table(
    "feedback_seen",
    metadata,
    Column("user_id", Integer, primary_key=True, autoincrement=False),
    Column("seen_at", Float, nullable=False),
)

# -- webhooks: endpoints and their delivery state (see webhooks.py) ----------------------------

# An endpoint of a platform account (``source``: the account's username, as in
# ``enforcement_actions.source``): its actions are POSTed there, signed with ``secret``
# (``whsec_`` + base64 of random bytes; during a rotation ``previous_secret`` signs too until
# ``previous_secret_until``). ``event_kinds``: a JSON list of action kinds, NULL for all.
webhook_endpoints = Table(
    "webhook_endpoints",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("url", Text, nullable=False),
    Column("source", String(64), nullable=False, index=True),
    Column("event_kinds", Text, nullable=True),
    Column("secret", String(128), nullable=False),
    Column("previous_secret", String(128), nullable=True),
    Column("previous_secret_until", Float, nullable=True),
    # active, failing (deliveries keep being tried) or disabled (none until enabled)
    Column("status", String(16), nullable=False, server_default="active"),
    Column("disabled_reason", Text, nullable=True),
    Column("disabled_at", Float, nullable=True),
    Column("created_at", Float, nullable=False),
    Column("created_by", String(64), nullable=True),
)

# Where each endpoint's deliveries stand: the last action seq it acknowledged (2xx), the
# message being retried, its attempts, the next attempt's time, health figures, and the
# lease that lets one dispatcher (of any process) deliver to it at a time. ``version`` is
# raised by every operator change (replay, enable, disable): a dispatcher's cursor update
# names the version it read, so it cannot undo a change made while it was sending.
webhook_state = Table(
    "webhook_state",
    metadata,
    Column(
        "endpoint_id",
        Integer,
        ForeignKey("webhook_endpoints.id"),
        primary_key=True,
        autoincrement=False,
    ),
    Column("delivered_seq", BigInteger, nullable=False, server_default=text("0")),
    Column("version", Integer, nullable=False, server_default=text("0")),
    Column("next_attempt_at", Float, nullable=False, server_default=text("0")),
    Column("message_seq", BigInteger, nullable=True),
    Column("attempts", Integer, nullable=False, server_default=text("0")),
    Column("first_failure_at", Float, nullable=True),
    Column("last_attempt_at", Float, nullable=True),
    Column("last_error", Text, nullable=True),
    Column("last_success_at", Float, nullable=True),
    Column("consecutive_failures", Integer, nullable=False, server_default=text("0")),
    Column("delivered_total", BigInteger, nullable=False, server_default=text("0")),
    Column("lease_owner", String(128), nullable=True),
    Column("lease_until", Float, nullable=True),
)
