"""Posts from platforms: upserted by (source, external_id), a replay told from a new version
by the content hash, authors merged (see the package's docstring)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from reviewer_app.protocol import (
    IntakeAuthor,
    IntakePost,
    IntakeResult,
    IntakeStatus,
    WithdrawalReason,
)
from reviewer_app.server.domain import account_links, search_index
from reviewer_app.server.domain.intake.fact_checks import rate_arrivals
from reviewer_app.server.domain.intake.items import (
    Context,
    PostRow,
    Touch,
    element_result,
    rejected_result,
    settle,
)
from reviewer_app.server.domain.intake.rows import (
    AUTHOR_FIELDS,
    AUTHORS_BY_ID,
    INSERT_AUTHORS,
    INSERT_POST_MEDIA,
    INSERT_POSTS,
    INSERT_STRIKES,
    ITEMS_OF_AUTHORS,
    LIVE,
    MEDIA_OF_SOURCE,
    NO_ACCOUNT_SIGNALS,
    POSTS_WITH_TIMES_BY_ID,
    PRIOR_STRIKES,
    SHARE_AUTHORS_OF_POSTS,
    UPDATE_AUTHOR,
    UPDATE_POST,
    author_id_for,
    canonical_hash,
    compact_json,
    post_id_for,
)

POST_DELETED = "post_deleted"
"""The code of a deleted post sent again with other content (the same is ``unchanged``)."""


@dataclass
class _PreparedPost:
    index: int
    post: IntakePost
    id: str
    author_id: str
    payload: dict[str, Any]
    content_hash: str


def post_document(post: IntakePost) -> tuple[dict[str, Any], str]:
    """A post as stored (its author's platform id in, the author's fields out) and its
    content hash (before the uploads' details are added). ``updated_at`` is left out of
    both: it says when the post changed, not what it is (a live post sent again with
    another is a replay, and earlier hashes stay comparable)."""
    payload = post.model_dump(mode="json", exclude={"author", "updated_at"})
    payload["author_external_id"] = post.author.external_id
    return payload, canonical_hash(payload)


def intake_posts(
    ctx: Context,
    batch: Sequence[IntakePost],
    documents: Sequence[tuple[dict[str, Any], str]] | None = None,
) -> list[IntakeResult]:
    """Apply posts (``documents``: their ``post_document``, when worked out already)."""
    results: list[IntakeResult | None] = [None] * len(batch)
    # Copies of a post in one batch are applied one after the other, as if sent apart.
    rounds: list[list[int]] = []
    seen: dict[str, int] = {}
    for index, post in enumerate(batch):
        n = seen.get(post.external_id, 0)
        seen[post.external_id] = n + 1
        if n == len(rounds):
            rounds.append([])
        rounds[n].append(index)
    for indexes in rounds:
        done = _posts_round(ctx, [(i, batch[i]) for i in indexes], documents)
        for index, result in done.items():
            results[index] = result
    return [r for r in results if r is not None]


def _prepare_posts(
    ctx: Context,
    batch: list[tuple[int, IntakePost]],
    documents: Sequence[tuple[dict[str, Any], str]] | None,
    results: dict[int, IntakeResult],
) -> list[_PreparedPost]:
    """The batch's posts with their ids, documents and uploads' details; a post naming
    media this account did not upload is rejected (in ``results``)."""
    conn = ctx.conn
    source = ctx.actor
    wanted_media = sorted({m.media_id for _, p in batch for m in p.media})
    known_media = (
        {r.id: r for r in conn.execute(MEDIA_OF_SOURCE, {"ids": wanted_media, "source": source})}
        if wanted_media
        else {}
    )
    prepared: list[_PreparedPost] = []
    for index, post in batch:
        missing = [m.media_id for m in post.media if m.media_id not in known_media]
        if missing:
            results[index] = rejected_result(
                post.external_id,
                "unknown_media",
                f"Media {missing[0]!r} was not uploaded by this account (POST /intake/media).",
            )
            continue
        payload, content_hash = documents[index] if documents else post_document(post)
        # a copy: the uploads' details are added below (and a retried transaction runs again)
        payload = {**payload, "media": [dict(m) for m in payload["media"]]}
        for m in payload["media"]:
            upload = known_media[m["media_id"]]
            m.update(
                kind=upload.kind,
                mime_type=upload.mime_type,
                size_bytes=upload.size_bytes,
                width=upload.width,
                height=upload.height,
            )
        prepared.append(
            _PreparedPost(
                index,
                post,
                post_id_for(source, post.external_id),
                author_id_for(source, post.author.external_id),
                payload,
                content_hash,
            )
        )
    return prepared


def _posts_round(
    ctx: Context,
    batch: list[tuple[int, IntakePost]],
    documents: Sequence[tuple[dict[str, Any], str]] | None,
) -> dict[int, IntakeResult]:
    conn = ctx.conn
    source = ctx.actor
    results: dict[int, IntakeResult] = {}
    prepared = _prepare_posts(ctx, batch, documents, results)
    if not prepared:
        return results
    _upsert_authors(ctx, [(p.author_id, p.post.author) for p in prepared])

    new_rows = [
        {
            "id": p.id,
            "source": source,
            "external_id": p.post.external_id,
            "author_id": p.author_id,
            "version": 1,
            "content_hash": p.content_hash,
            "payload": compact_json(p.payload),
            "state": LIVE,
            "received_at": ctx.now,
            "updated_at": ctx.now,
            "signal_summary": "{}",
        }
        for p in sorted(prepared, key=lambda p: p.id)
    ]
    created = set(INSERT_POSTS(conn, new_rows, ctx.postgres))
    stored, changed_at = _lock_posts(ctx, [p.id for p in prepared if p.id not in created])
    changed: list[dict[str, Any]] = []
    touched: dict[str, Touch] = {}
    linked: list[dict[str, str]] = []
    for p in prepared:
        if p.id in created:
            results[p.index] = element_result(p.post.external_id, IntakeStatus.created)
            linked += [{"post_id": p.id, "media_id": m.media_id} for m in p.post.media]
            continue
        row = stored[p.id]
        if (kept := _kept(row, p, changed_at[p.id])) is not None:
            results[p.index] = kept
            continue
        bumped = row.content_hash != p.content_hash
        new_version = row.version + 1 if bumped else row.version
        changed.append(
            {
                "id": p.id,
                "version": new_version,
                "content_hash": p.content_hash,
                "payload": compact_json(p.payload),
                "author_id": p.author_id,
                "state": LIVE,
                "updated_at": ctx.now,
            }
        )
        row.version = new_version
        row.content_hash = p.content_hash
        row.author_id = p.author_id
        row.state = LIVE
        row._payload = p.payload
        touched[p.id] = Touch(new_version=new_version if bumped else None, route=True)
        linked += [{"post_id": p.id, "media_id": m.media_id} for m in p.post.media]
    UPDATE_POST(conn, changed, ctx.postgres)
    if linked:
        conn.execute(INSERT_POST_MEDIA[ctx.postgres], linked)
    settled = settle(ctx, stored, touched)
    # ratings sent before their post: it gets them now
    rated = rate_arrivals(ctx, {p.id: p.post.external_id for p in prepared if p.id in created})
    for p in prepared:
        if p.id in rated:
            results[p.index] = element_result(p.post.external_id, IntakeStatus.created, rated[p.id])
        elif p.index not in results:
            results[p.index] = element_result(
                p.post.external_id, IntakeStatus.updated, settled.get(p.id)
            )
    return results


def _kept(row: PostRow, p: _PreparedPost, changed_at: float) -> IntakeResult | None:
    """The answer for a stored post sent again that stays as it is, or None when the post
    changes (a new version, or live again). A live post stays when its content is the
    same. A withdrawn post comes back only when it was made private and the platform says
    it changed after the withdrawal (``changed_at``): else it is a replay (``unchanged``),
    but a deleted post sent with other content is refused (``post_deleted``)."""
    if row.state == LIVE:
        same = row.content_hash == p.content_hash
        return element_result(p.post.external_id, IntakeStatus.unchanged) if same else None
    sent_at = p.post.updated_at
    if row.state == WithdrawalReason.private and sent_at and sent_at.timestamp() > changed_at:
        return None
    if row.state == WithdrawalReason.deleted and row.content_hash != p.content_hash:
        return rejected_result(
            p.post.external_id,
            POST_DELETED,
            "The post was deleted upstream: it does not come back (a new post needs a new id).",
        )
    return element_result(p.post.external_id, IntakeStatus.unchanged)


def _lock_posts(
    ctx: Context, post_ids: Iterable[str]
) -> tuple[dict[str, PostRow], dict[str, float]]:
    """``items.lock_posts`` (the same statements), with when each post last changed here:
    for a withdrawn post, its withdrawal's time (rows.WITHDRAW_POST)."""
    ids = sorted(set(post_ids))
    if not ids:
        return {}, {}
    if ctx.postgres:
        ctx.conn.execute(SHARE_AUTHORS_OF_POSTS, {"ids": ids}).all()
    found = ctx.conn.execute(POSTS_WITH_TIMES_BY_ID[ctx.postgres], {"ids": ids}).all()
    return {r.id: PostRow.from_row(r) for r in found}, {r.id: r.updated_at for r in found}


def _author_document(author_id: str, author: IntakeAuthor) -> dict[str, Any]:
    sent = author.model_dump(mode="json")
    doc = {"id": author_id, **{f: sent[f] for f in AUTHOR_FIELDS}}
    if doc["signals"] is None:
        doc["signals"] = dict(NO_ACCOUNT_SIGNALS)
    return doc


def _merged(doc: dict[str, Any], author: IntakeAuthor) -> dict[str, Any]:
    """``doc`` with the fields this copy of the author sends (the newer ones win)."""
    sent = author.model_dump(mode="json")
    merged = dict(doc)
    for name in AUTHOR_FIELDS:
        if name in author.model_fields_set and not (name == "signals" and sent[name] is None):
            merged[name] = sent[name]
    merged["handle"] = sent["handle"]
    merged["account_created_at"] = sent["account_created_at"]
    return merged


#: an author's fields a lead's search finds their posts by (``search_index.doc_for``)
SEARCHED_AUTHOR_FIELDS = ("handle", "display_name")


def _upsert_authors(ctx: Context, sent: list[tuple[str, IntakeAuthor]]) -> None:
    """Insert new authors, merge the fields sent into known ones, and add prior strikes
    not seen before. The authors stay locked (PostgreSQL) until the batch commits."""
    conn = ctx.conn
    docs: dict[str, dict[str, Any]] = {}
    copies: dict[str, list[IntakeAuthor]] = {}
    for author_id, author in sent:
        copies.setdefault(author_id, []).append(author)
        docs[author_id] = (
            _merged(docs[author_id], author)
            if author_id in docs
            else _author_document(author_id, author)
        )
    rows = [
        {
            "id": author_id,
            "handle": docs[author_id]["handle"],
            "payload": compact_json(docs[author_id]),
            "source": ctx.actor,
            "external_id": copies[author_id][0].external_id,
        }
        for author_id in sorted(docs)
    ]
    inserted = set(INSERT_AUTHORS(conn, rows, ctx.postgres))
    # the accounts each new or changed author shares signals with (accounts.py)
    relinked = {a: (ctx.actor, docs[a]) for a in inserted}
    known = sorted(set(docs) - inserted)
    if known:
        changes = []
        renamed: list[str] = []
        for r in conn.execute(AUTHORS_BY_ID[ctx.postgres], {"ids": known}):
            before = json.loads(r.payload)
            after = before
            for author in copies[r.id]:
                after = _merged(after, author)
            if after != before:
                changes.append(
                    {"id": r.id, "handle": after["handle"], "payload": compact_json(after)}
                )
                if after.get("signals") != before.get("signals"):
                    relinked[r.id] = (ctx.actor, after)
                if any(after.get(f) != before.get(f) for f in SEARCHED_AUTHOR_FIELDS):
                    renamed.append(r.id)
        UPDATE_AUTHOR(conn, changes, ctx.postgres)
        if renamed:  # their posts are found by the new name, not the old one
            search_index.refresh(
                conn,
                list(
                    conn.execute(
                        ITEMS_OF_AUTHORS[ctx.postgres], {"ids": renamed, "ids2": renamed}
                    ).scalars()
                ),
                ctx.postgres,
            )
    account_links.replace_links(conn, relinked)
    wanted = {
        (author_id, s.policy, s.at.timestamp())
        for author_id, author in sent
        for s in author.prior_strikes
    }
    if wanted:
        have = {
            (r.author_id, r.policy, r.at)
            for r in conn.execute(PRIOR_STRIKES, {"ids": sorted({w[0] for w in wanted})})
        }
        new = sorted(wanted - have)
        if new:
            conn.execute(
                INSERT_STRIKES,
                [{"author_id": a, "policy": p, "at": at, "decision_id": None} for a, p, at in new],
            )
