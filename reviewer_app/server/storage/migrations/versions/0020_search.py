"""lead search: item search rows with trigram indexes, decision policies by index, saved views

Revision ID: 0020
Revises: 0019
Create Date: 2026-12-08

A snapshot: it names every table and column itself and imports nothing of the service.
The search rows of items already stored are written here with this revision's own reading
of an item (folded author and text, exact keys).
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any
from urllib.parse import urlsplit

import sqlalchemy as sa
from alembic import op

revision = "0020"
down_revision = "0019"
branch_labels = None
depends_on = None

_BATCH = 2_000
_LINK = re.compile(r"https?://([^/\s?#<>\"']+)", re.IGNORECASE)

_SQLITE_FTS = [
    "CREATE VIRTUAL TABLE item_search_fts USING fts5("
    "author, body, content='item_search', content_rowid='id', tokenize='trigram')",
    "CREATE TRIGGER item_search_fts_insert AFTER INSERT ON item_search BEGIN "
    "INSERT INTO item_search_fts(rowid, author, body) VALUES (new.id, new.author, new.body); "
    "END",
    "CREATE TRIGGER item_search_fts_delete AFTER DELETE ON item_search BEGIN "
    "INSERT INTO item_search_fts(item_search_fts, rowid, author, body) "
    "VALUES ('delete', old.id, old.author, old.body); END",
    "CREATE TRIGGER item_search_fts_update AFTER UPDATE ON item_search BEGIN "
    "INSERT INTO item_search_fts(item_search_fts, rowid, author, body) "
    "VALUES ('delete', old.id, old.author, old.body); "
    "INSERT INTO item_search_fts(rowid, author, body) VALUES (new.id, new.author, new.body); "
    "END",
    "CREATE TRIGGER decision_policies_insert AFTER INSERT ON decisions BEGIN "
    "INSERT OR IGNORE INTO decision_policies(policy, decision_id) "
    "SELECT value, new.id FROM json_each(new.policies); END",
]
_PG_SEARCH = [
    "CREATE EXTENSION IF NOT EXISTS pg_trgm",
    "CREATE INDEX ix_item_search_author_trgm ON item_search USING gin (author gin_trgm_ops)",
    "CREATE INDEX ix_item_search_body_trgm ON item_search USING gin (body gin_trgm_ops)",
    """CREATE FUNCTION decision_policies_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO decision_policies(policy, decision_id)
    SELECT p, NEW.id FROM jsonb_array_elements_text(NEW.policies::jsonb) AS p
    ON CONFLICT DO NOTHING;
    RETURN NULL;
END $$""",
    "CREATE TRIGGER decision_policies_insert AFTER INSERT ON decisions "
    "FOR EACH ROW EXECUTE FUNCTION decision_policies_insert()",
]


def upgrade() -> None:
    op.create_table(
        "decision_policies",
        sa.Column("policy", sa.String(64), primary_key=True),
        sa.Column("decision_id", sa.Integer, primary_key=True),
    )
    op.create_table(
        "item_search",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("item_id", sa.String(64), nullable=False),
        sa.Column("author", sa.Text, nullable=False),
        sa.Column("body", sa.Text, nullable=False),
    )
    op.create_index("ix_item_search_item", "item_search", ["item_id"], unique=True)
    op.create_table(
        "item_search_keys",
        sa.Column("kind", sa.String(16), primary_key=True),
        sa.Column("value", sa.String(200), primary_key=True),
        sa.Column("doc_id", sa.Integer, primary_key=True),
    )
    op.create_index("ix_item_search_keys_doc", "item_search_keys", ["doc_id"])
    op.create_table(
        "saved_views",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("user_id", sa.Integer, nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("query", sa.Text, nullable=False),
        sa.Column("shared", sa.Boolean, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_index("ix_saved_views_owner_name", "saved_views", ["user_id", "name"], unique=True)
    op.create_index("ix_saved_views_shared", "saved_views", ["shared"])
    conn = op.get_bind()
    postgres = conn.dialect.name == "postgresql"
    for statement in _PG_SEARCH if postgres else _SQLITE_FTS:
        conn.exec_driver_sql(statement)
    # the policies of the decisions already stored
    if postgres:
        conn.exec_driver_sql(
            "INSERT INTO decision_policies(policy, decision_id) "
            "SELECT DISTINCT p, d.id FROM decisions d, "
            "jsonb_array_elements_text(d.policies::jsonb) AS p"
        )
    else:
        conn.exec_driver_sql(
            "INSERT OR IGNORE INTO decision_policies(policy, decision_id) "
            "SELECT j.value, d.id FROM decisions d, json_each(d.policies) j"
        )
    _index_stored_items(conn)


def _domains(host: str) -> set[str]:
    host = host.strip().lower().rsplit("@", 1)[-1]
    if host.startswith("["):
        return set()
    host = host.split(":", 1)[0].rstrip(".").removeprefix("www.")
    if "." not in host or len(host) > 190:
        return set()
    labels = host.split(".")
    return {".".join(labels[i:]) for i in range(len(labels) - 1)}


def _doc(payload: dict[str, Any], author: Any) -> tuple[str, str, set[tuple[str, str]]]:
    post = payload.get("post") or {}
    names: list[str] = []
    if author is not None:
        details = json.loads(author.payload)
        names = [
            author.handle or "",
            author.external_id or "",
            str(details.get("display_name") or ""),
            author.id,
        ]
    keys: set[tuple[str, str]] = set()
    if post.get("id"):
        key = "id:" + str(post["id"]).strip().lower()
        if len(key) <= 200:
            keys.add(("post", key))
    if post.get("url"):
        normal = str(post["url"]).strip().lower().rstrip("/")
        keys.add(("post", "url:" + hashlib.sha256(normal.encode()).hexdigest()[:40]))
    hosts = [m.group(1) for m in _LINK.finditer(str(post.get("text") or ""))]
    preview = post.get("link_preview") or {}
    if preview.get("domain"):
        hosts.append(str(preview["domain"]))
    if preview.get("url"):
        hosts.append(urlsplit(str(preview["url"])).netloc)
    for host in hosts:
        keys |= {("domain", d) for d in _domains(host)}
    for reason in (payload.get("reports") or {}).get("by_reason") or []:
        if reason.get("reason"):
            keys.add(("reason", str(reason["reason"]).lower()[:200]))
    author_text = "\n".join(n for n in names if n).lower()
    return author_text, str(post.get("text") or "").lower(), keys


def _index_stored_items(conn: sa.Connection) -> None:
    items = sa.table("items", sa.column("id"), sa.column("author_id"), sa.column("payload"))
    authors = sa.table(
        "authors",
        sa.column("id"),
        sa.column("handle"),
        sa.column("external_id"),
        sa.column("payload"),
    )
    docs = sa.table(
        "item_search", sa.column("id"), sa.column("item_id"), sa.column("author"), sa.column("body")
    )
    keys = sa.table("item_search_keys", sa.column("kind"), sa.column("value"), sa.column("doc_id"))
    after = ""
    while True:
        rows = conn.execute(
            sa.select(items.c.id, items.c.author_id, items.c.payload)
            .where(items.c.id > after)
            .order_by(items.c.id)
            .limit(_BATCH)
        ).all()
        if not rows:
            return
        after = rows[-1].id
        found = {
            a.id: a
            for a in conn.execute(
                sa.select(authors).where(authors.c.id.in_({r.author_id for r in rows}))
            )
        }
        for r in rows:
            author_text, body, doc_keys = _doc(json.loads(r.payload), found.get(r.author_id))
            doc_id = conn.execute(
                sa.insert(docs)
                .values(item_id=r.id, author=author_text, body=body)
                .returning(docs.c.id)
            ).scalar_one()
            if doc_keys:
                conn.execute(
                    sa.insert(keys),
                    [{"kind": k, "value": v, "doc_id": doc_id} for k, v in sorted(doc_keys)],
                )


def downgrade() -> None:
    conn = op.get_bind()
    if conn.dialect.name == "postgresql":
        conn.exec_driver_sql("DROP TRIGGER decision_policies_insert ON decisions")
        conn.exec_driver_sql("DROP FUNCTION decision_policies_insert()")
        conn.exec_driver_sql("DROP INDEX ix_item_search_author_trgm")
        conn.exec_driver_sql("DROP INDEX ix_item_search_body_trgm")
    else:
        conn.exec_driver_sql("DROP TRIGGER decision_policies_insert")
        for name in ("insert", "delete", "update"):
            conn.exec_driver_sql(f"DROP TRIGGER item_search_fts_{name}")
        conn.exec_driver_sql("DROP TABLE item_search_fts")
    op.drop_index("ix_saved_views_shared", table_name="saved_views")
    op.drop_index("ix_saved_views_owner_name", table_name="saved_views")
    op.drop_table("saved_views")
    op.drop_index("ix_item_search_keys_doc", table_name="item_search_keys")
    op.drop_table("item_search_keys")
    op.drop_index("ix_item_search_item", table_name="item_search")
    op.drop_table("item_search")
    op.drop_table("decision_policies")
