"""intake: API keys, configuration versions, posts, signals, fact-check ratings

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01

A snapshot: it names every table and column itself and imports nothing of the service.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Long because a migration is a frozen snapshot of the schema at its version."""
    with op.batch_alter_table("authors", schema=None) as batch_op:
        batch_op.add_column(sa.Column("source", sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column("external_id", sa.String(length=200), nullable=True))
        batch_op.create_index("ix_authors_external", ["source", "external_id"], unique=True)
    with op.batch_alter_table("items", schema=None) as batch_op:
        batch_op.add_column(sa.Column("post_id", sa.String(length=64), nullable=True))
        batch_op.create_index("ix_items_post", ["post_id", "state"], unique=False)
    with op.batch_alter_table("media", schema=None) as batch_op:
        batch_op.alter_column("item_id", existing_type=sa.String(length=64), nullable=True)
        batch_op.add_column(sa.Column("source", sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column("sha256", sa.String(length=64), nullable=True))
        batch_op.create_index("ix_media_sha256", ["source", "sha256"], unique=False)
    with op.batch_alter_table("leases", schema=None) as batch_op:
        batch_op.add_column(sa.Column("config_version", sa.Integer(), nullable=True))
    with op.batch_alter_table("decisions", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("config_version", sa.Integer(), server_default="0", nullable=False)
        )
    with op.batch_alter_table("queues", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("config_version", sa.Integer(), server_default="0", nullable=False)
        )
    op.create_table(
        "api_keys",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("key_hash", sa.String(length=64), nullable=False),
        sa.Column("prefix", sa.String(length=16), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("last_used_at", sa.Float(), nullable=True),
        sa.Column("revoked_at", sa.Float(), nullable=True),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("key_hash"),
    )
    op.create_index("ix_api_keys_user_id", "api_keys", ["user_id"], unique=False)
    op.create_table(
        "config_versions",
        sa.Column("version", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("applied_at", sa.Float(), nullable=False),
        sa.Column("applied_by", sa.String(length=64), nullable=True),
        sa.Column("document", sa.Text(), nullable=False),
        sa.Column("sha256", sa.String(length=64), nullable=False),
        sa.PrimaryKeyConstraint("version"),
    )
    op.create_table(
        "server_secrets",
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("value", sa.String(length=256), nullable=False),
        sa.PrimaryKeyConstraint("name"),
    )
    op.create_table(
        "posts",
        sa.Column("id", sa.String(length=64), nullable=False),
        sa.Column("source", sa.String(length=64), nullable=False),
        sa.Column("external_id", sa.String(length=200), nullable=False),
        sa.Column("author_id", sa.String(length=200), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("content_hash", sa.String(length=64), nullable=False),
        sa.Column("payload", sa.Text(), nullable=False),
        sa.Column("state", sa.String(length=16), nullable=False),
        sa.Column("received_at", sa.Float(), nullable=False),
        sa.Column("updated_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_posts_external", "posts", ["source", "external_id"], unique=True)
    op.create_table(
        "signals",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("source", sa.String(length=64), nullable=False),
        sa.Column("external_id", sa.String(length=200), nullable=False),
        sa.Column("post_id", sa.String(length=64), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("body_hash", sa.String(length=64), nullable=False),
        sa.Column("payload", sa.Text(), nullable=False),
        sa.Column("received_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_signals_external", "signals", ["source", "external_id"], unique=True)
    op.create_index("ix_signals_post", "signals", ["post_id", "id"], unique=False)
    op.create_table(
        "fact_check_ratings",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("external_id", sa.String(length=200), nullable=False),
        sa.Column("body_hash", sa.String(length=64), nullable=False),
        sa.Column("payload", sa.Text(), nullable=False),
        sa.Column("received_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(
        "ix_fact_check_ratings_external",
        "fact_check_ratings",
        ["user_id", "external_id"],
        unique=True,
    )


def downgrade() -> None:
    for table in ("fact_check_ratings", "signals", "posts", "server_secrets", "config_versions"):
        op.drop_table(table)
    op.drop_index("ix_api_keys_user_id", table_name="api_keys")
    op.drop_table("api_keys")
    with op.batch_alter_table("queues", schema=None) as batch_op:
        batch_op.drop_column("config_version")
    with op.batch_alter_table("decisions", schema=None) as batch_op:
        batch_op.drop_column("config_version")
    with op.batch_alter_table("leases", schema=None) as batch_op:
        batch_op.drop_column("config_version")
    with op.batch_alter_table("media", schema=None) as batch_op:
        batch_op.drop_index("ix_media_sha256")
        batch_op.drop_column("sha256")
        batch_op.drop_column("source")
    with op.batch_alter_table("items", schema=None) as batch_op:
        batch_op.drop_index("ix_items_post")
        batch_op.drop_column("post_id")
    with op.batch_alter_table("authors", schema=None) as batch_op:
        batch_op.drop_index("ix_authors_external")
        batch_op.drop_column("external_id")
        batch_op.drop_column("source")
