"""What the platform sends: posts, signals, fact-checks, authors and their accounts' standing."""

from __future__ import annotations

from sqlalchemy import (
    Column,
    Float,
    Index,
    Integer,
    String,
    Table,
    Text,
)

from ._base import metadata

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
    # the ``at`` of its last withdrawal, kept when it comes back (a withdrawal no later than
    # it is a replay: intake/signals.py); None: never withdrawn
    Column("withdrawn_at", Float, nullable=True),
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

# The posts each rating names (by the platform's id, and the platform account when the
# rating names one): a post that arrives after a rating of it gets the rating then.
fact_check_targets = Table(
    "fact_check_targets",
    metadata,
    Column("user_id", Integer, primary_key=True),
    Column("rating_external_id", String(200), primary_key=True),
    Column("post_external_id", String(200), primary_key=True),
    Column("source", String(64), nullable=True),
    Index("ix_fact_check_targets_post", "post_external_id"),
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
