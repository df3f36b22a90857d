"""Appeals, audits, notes to reviewers and what they have seen."""

from __future__ import annotations

from sqlalchemy import (
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Table,
    Text,
    text,
)

from ._base import metadata

# -- appeals (see appeals.py) -------------------------------------------------------------------

# A user's appeal of a decision of record, relayed by the platform (``source``) and idempotent
# by its id there. The contested decision's item went to the appeals queue; ``reviewer_id`` and
# ``contested_at`` are the contested decision's (the reviewer figures need no join). One appeal
# per decision, not counting one that ended ``withdrawn`` (its post withdrawn while it waited:
# never decided). ``outcome`` (upheld / reversed) and its decision once a reviewer decided it.
_NOT_WITHDRAWN = text("outcome IS NULL OR outcome <> 'withdrawn'")
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
    Index("ix_appeals_decision", "decision_id"),
    # one appeal per decision, an appeal that ended withdrawn aside (migration 0027)
    Index(
        "ix_appeals_decision_once",
        "decision_id",
        unique=True,
        sqlite_where=_NOT_WITHDRAWN,
        postgresql_where=_NOT_WITHDRAWN,
    ),
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
    Index("ix_audit_items_recorded_at", "recorded_at"),  # a week's, whoever (migration 0026)
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
