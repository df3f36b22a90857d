"""wellbeing: the blind audits of a week are read by when they were recorded

Revision ID: 0026
Revises: 0025
Create Date: 2026-12-06

The lead's exposure figures count every blind audit a lead recorded in the last 7 days
(the posts they saw), by ``audit_items.recorded_at`` whoever the auditor: its only index
started with the reviewer audited, so each report (every 30 s while the Wellbeing page is
shown) read the whole table.

A snapshot: it names every table and column itself and imports nothing of the service.
"""

from __future__ import annotations

from alembic import op

revision = "0026"
down_revision = "0025"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_audit_items_recorded_at", "audit_items", ["recorded_at"])


def downgrade() -> None:
    op.drop_index("ix_audit_items_recorded_at", table_name="audit_items")
