"""account actions: author status, linked accounts, account-level decisions, held-back posts

``authors.status`` (active, warned, restricted, suspended, inauthentic) and when it changed;
``author_links``: the handles an author's account signals name (shared_signal_accounts),
filled here from the authors already stored; ``account_actions``: one row per account per
account-level decision; ``held_posts``: posts of suspended or inauthentic authors that were
not queued; an index of each author's open items.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-04

A snapshot: it names every table and column itself and imports nothing of the service.
"""

from __future__ import annotations

import json

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None

_OPEN = sa.text("state IN ('pending', 'leased')")
_CHUNK = 1_000


def upgrade() -> None:
    with op.batch_alter_table("authors", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("status", sa.String(length=16), server_default="active", nullable=False)
        )
        batch_op.add_column(sa.Column("status_at", sa.Float(), nullable=True))
        batch_op.create_index("ix_authors_handle", ["handle"], unique=False)
        batch_op.create_index("ix_authors_status", ["status"], unique=False)
    op.create_table(
        "author_links",
        sa.Column("author_id", sa.String(length=200), nullable=False),
        sa.Column("handle", sa.String(length=200), nullable=False),
        sa.Column("source", sa.String(length=64), nullable=True),
        sa.PrimaryKeyConstraint("author_id", "handle"),
    )
    op.create_index("ix_author_links_handle", "author_links", ["handle"], unique=False)
    op.create_table(
        "account_actions",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("author_id", sa.String(length=200), nullable=False),
        sa.Column("action", sa.String(length=32), nullable=False),
        sa.Column("status_before", sa.String(length=16), nullable=False),
        sa.Column("status_after", sa.String(length=16), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("decision_id", sa.Integer(), nullable=True),
        sa.Column("item_id", sa.String(length=64), nullable=True),
        sa.Column("policies", sa.Text(), server_default="[]", nullable=False),
        sa.Column("note", sa.Text(), nullable=True),
        sa.Column("decided_at", sa.Float(), nullable=False),
        sa.Column("closed_items", sa.Integer(), server_default="0", nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(
        "ix_account_actions_author", "account_actions", ["author_id", "id"], unique=False
    )
    op.create_table(
        "held_posts",
        sa.Column("post_id", sa.String(length=64), nullable=False),
        sa.Column("author_id", sa.String(length=200), nullable=False),
        sa.Column("source", sa.String(length=64), nullable=False),
        sa.Column("queue_id", sa.String(length=64), nullable=True),
        sa.Column("author_status", sa.String(length=16), nullable=False),
        sa.Column("held_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("post_id"),
    )
    op.create_index("ix_held_posts_author", "held_posts", ["author_id"], unique=False)
    op.create_index("ix_held_posts_time", "held_posts", ["held_at"], unique=False)
    op.create_index(
        "ix_items_author_open",
        "items",
        ["author_id"],
        unique=False,
        sqlite_where=_OPEN,
        postgresql_where=_OPEN,
    )
    _link_stored_authors()


def _link_stored_authors() -> None:
    """``author_links`` of the authors already stored, from their payloads."""
    conn = op.get_bind()
    links = sa.table(
        "author_links", sa.column("author_id"), sa.column("handle"), sa.column("source")
    )
    after = ""
    while True:
        rows = conn.execute(
            sa.text(
                "SELECT id, source, payload FROM authors WHERE id > :after ORDER BY id LIMIT :n"
            ),
            {"after": after, "n": _CHUNK},
        ).all()
        if not rows:
            return
        found = []
        for author_id, source, payload in rows:
            try:
                signals = json.loads(payload).get("signals") or {}
            except ValueError:
                continue
            handles = {
                h.strip().lstrip("@")
                for h in signals.get("shared_signal_accounts") or ()
                if isinstance(h, str) and h.strip().lstrip("@")
            }
            found += [
                {"author_id": author_id, "handle": h[:200], "source": source}
                for h in sorted(handles)
            ]
        if found:
            conn.execute(sa.insert(links), found)
        after = rows[-1][0]


def downgrade() -> None:
    op.drop_index("ix_items_author_open", table_name="items")
    op.drop_index("ix_held_posts_time", table_name="held_posts")
    op.drop_index("ix_held_posts_author", table_name="held_posts")
    op.drop_table("held_posts")
    op.drop_index("ix_account_actions_author", table_name="account_actions")
    op.drop_table("account_actions")
    op.drop_index("ix_author_links_handle", table_name="author_links")
    op.drop_table("author_links")
    with op.batch_alter_table("authors", schema=None) as batch_op:
        batch_op.drop_index("ix_authors_status")
        batch_op.drop_index("ix_authors_handle")
        batch_op.drop_column("status_at")
        batch_op.drop_column("status")
