"""lead search: names and post texts are kept case-folded, not lower-cased

Revision ID: 0025
Revises: 0024
Create Date: 2026-12-06

Searching a part of a name or a post's text compared lower-cased text: "ΟΔΟΣ" was kept as
"οδος" (Greek's final sigma), so a lead typing "οδοσ" found it on SQLite's full-text path
and not on its other path nor on PostgreSQL, and "STRASSE" never found "Straße". Rows and
queries are now case-folded (``str.casefold``). Folding what was kept lower-cased gives
what folding the original gives, so the rows are folded here in place (SQLite's full-text
table follows by its update trigger); their ids, by which a lead pages, stay.

A snapshot: it names every table and column itself and imports nothing of the service.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0025"
down_revision = "0024"
branch_labels = None
depends_on = None

BATCH = 2_000


def upgrade() -> None:
    rows = sa.table(
        "item_search",
        sa.column("id", sa.Integer),
        sa.column("author", sa.Text),
        sa.column("body", sa.Text),
    )
    change = (
        sa.update(rows)
        .where(rows.c.id == sa.bindparam("b_id"))
        .values(author=sa.bindparam("b_author"), body=sa.bindparam("b_body"))
    )
    conn = op.get_bind()
    after = -1
    while True:
        batch = conn.execute(
            sa.select(rows.c.id, rows.c.author, rows.c.body)
            .where(rows.c.id > after)
            .order_by(rows.c.id)
            .limit(BATCH)
        ).all()
        if not batch:
            break
        after = batch[-1].id
        changed = [
            {"b_id": r.id, "b_author": r.author.casefold(), "b_body": r.body.casefold()}
            for r in batch
            if (r.author, r.body) != (r.author.casefold(), r.body.casefold())
        ]
        if changed:
            conn.execute(change, changed)


def downgrade() -> None:
    """Case-folded rows are still found by lower-cased queries of plain letters; nothing
    to undo."""
