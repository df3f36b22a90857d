"""Fact-checks from fact-checker accounts: ratings stored and sent on as signals, and the
fact-checker's own ratings read back a page at a time."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import Connection, bindparam, select

from reviewer_app.protocol import (
    FactCheckPage,
    FactCheckRating,
    FactCheckRecord,
    IntakeResult,
    IntakeStatus,
)
from reviewer_app.server.domain.intake.items import (
    Context,
    PostRow,
    element_result,
    lock_posts,
    rejected_result,
    replayed_result,
)
from reviewer_app.server.domain.intake.rows import (
    INSERT_RATING_TARGETS,
    INSERT_RATINGS,
    LIVE,
    POSTS_BY_EXTERNAL_ID,
    RATINGS_OF_EXTERNAL_IDS,
    SHARE_AUTHORS_OF_EXTERNAL_IDS,
    STORED_RATINGS,
    canonical_hash,
    compact_json,
    rating_signal_id,
)
from reviewer_app.server.domain.intake.signals import (
    PreparedSignal,
    id_reused_result,
    store_signals,
)
from reviewer_app.server.domain.records import Principal, decode_cursor, encode_cursor, iso
from reviewer_app.server.storage.tables import fact_check_ratings


def _rating_signal(index: int, document: dict[str, Any], post: PostRow) -> PreparedSignal:
    """The fact-check signal a rating (``document``: as stored) becomes on ``post``."""
    signal_id = rating_signal_id(document["id"], post.id)
    payload = {
        "kind": "fact_check",
        "id": signal_id,
        "post_external_id": post.external_id,
        "organisation": document["organisation"],
        "rating": document["rating"],
        "claim": document["claim"],
        "url": document["url"],
        "published_at": document["published_at"],
        "fact_check_id": document["id"],
    }
    return PreparedSignal(
        index,
        signal_id,
        post.id,
        "fact_check",
        payload,
        canonical_hash(payload),
        document["rating"],
    )


def _rating_signals(
    ctx: Context,
    batch: Sequence[FactCheckRating],
    new: list[int],
    documents: list[dict[str, Any]],
) -> tuple[list[PreparedSignal], dict[str, PostRow]]:
    """The fact-check signal each new rating becomes on each live post it names (of the
    rating's source, when it names one), and those posts' rows."""
    conn = ctx.conn
    named = sorted({pid for i in new for pid in batch[i].post_external_ids})
    rows: dict[str, PostRow] = {}
    if named:
        if ctx.postgres:  # authors before posts (see SHARE_AUTHORS_OF_POSTS)
            conn.execute(SHARE_AUTHORS_OF_EXTERNAL_IDS, {"ids": named}).all()
        rows = {
            r.id: PostRow.from_row(r)
            for r in conn.execute(POSTS_BY_EXTERNAL_ID[ctx.postgres], {"ids": named})
        }
    by_external: dict[str, list[PostRow]] = {}
    for post in rows.values():
        by_external.setdefault(post.external_id, []).append(post)
    prepared: list[PreparedSignal] = []
    for i in new:
        rating = batch[i]
        for external_id in dict.fromkeys(rating.post_external_ids):
            for post in by_external.get(external_id, []):
                if post.state != LIVE or (rating.source and post.source != rating.source):
                    continue
                prepared.append(_rating_signal(i, documents[i], post))
    return prepared, rows


def _keep_targets(
    ctx: Context, caller: Principal, batch: Sequence[FactCheckRating], new: list[int]
) -> None:
    """The posts each new rating names, kept to find it by when one of them arrives."""
    targets = [
        {
            "user_id": caller.id,
            "rating_external_id": batch[i].id,
            "post_external_id": post,
            "source": batch[i].source,
        }
        for i in new
        for post in dict.fromkeys(batch[i].post_external_ids)
    ]
    if targets:
        ctx.conn.execute(INSERT_RATING_TARGETS[ctx.postgres], targets)


def rate_arrivals(
    ctx: Context, arrived: Mapping[str, str]
) -> dict[str, tuple[list[str], list[str]]]:
    """Put on posts just received (``arrived``: post id -> the platform's id, all of
    ``ctx.actor``) the ratings sent before them that name them: a fact-check signal of each
    rating's fact-checker, as when a rating names a post the service has. What settling
    touched, per post id."""
    if not arrived:
        return {}
    found = ctx.conn.execute(RATINGS_OF_EXTERNAL_IDS, {"ids": sorted(set(arrived.values()))}).all()
    wanted = [r for r in found if (r.source is None or r.source == ctx.actor)]
    if not wanted:
        return {}
    post_of = {external: post_id for post_id, external in arrived.items()}
    rows = lock_posts(ctx, [post_of[r.post_external_id] for r in wanted])
    by_checker: dict[str, list[PreparedSignal]] = {}
    for r in wanted:
        document = json.loads(r.payload)
        post = rows.get(post_of[r.post_external_id])
        if post is None or post.state != LIVE or document["rating"] not in ctx.known_ratings:
            continue
        by_checker.setdefault(r.username, []).append(_rating_signal(0, document, post))
    touched: dict[str, tuple[list[str], list[str]]] = {}
    for checker, prepared in by_checker.items():
        _new, settled = store_signals(ctx, checker, prepared, rows)
        for post_id, (item_ids, queue_ids) in settled.items():
            have = touched.setdefault(post_id, ([], []))
            have[0].extend(x for x in item_ids if x not in have[0])
            have[1].extend(queue_ids)
    return touched


def intake_fact_checks(
    ctx: Context, caller: Principal, batch: Sequence[FactCheckRating]
) -> list[IntakeResult]:
    """Store a fact-checker's ratings and put each on the posts it names (see
    ``FactCheckRating``), as a fact-check signal of the fact-checker's own."""
    conn = ctx.conn
    organisation = caller.display_name
    documents = [{**r.model_dump(mode="json"), "organisation": organisation} for r in batch]
    hashes = [canonical_hash(d) for d in documents]
    first: dict[str, int] = {}
    copy_of: dict[int, int] = {}
    fresh: list[int] = []
    for i, rating in enumerate(batch):
        j = first.setdefault(rating.id, i)
        if j != i:
            copy_of[i] = j
        else:
            fresh.append(i)
    known_ratings = ctx.known_ratings
    candidates = [i for i in fresh if batch[i].rating in known_ratings]
    inserted: set[str] = set()
    if candidates:
        inserted = set(
            conn.execute(
                INSERT_RATINGS[ctx.postgres],
                [
                    {
                        "user_id": caller.id,
                        "external_id": batch[i].id,
                        "body_hash": hashes[i],
                        "payload": compact_json(documents[i]),
                        "received_at": ctx.now,
                    }
                    for i in candidates
                ],
            ).scalars()
        )
    others = [batch[i].id for i in fresh if batch[i].id not in inserted]
    stored = (
        {
            r.external_id: r.body_hash
            for r in conn.execute(STORED_RATINGS, {"user": caller.id, "ids": others})
        }
        if others
        else {}
    )
    new = [i for i in fresh if batch[i].id in inserted]
    _keep_targets(ctx, caller, batch, new)
    prepared, rows = _rating_signals(ctx, batch, new, documents)
    _new_signals, settled = store_signals(ctx, caller.username, prepared, rows)
    touched: dict[int, tuple[list[str], list[str]]] = {}
    for s in prepared:
        item_ids, queue_ids = settled.get(s.post_id, ([], []))
        have = touched.setdefault(s.index, ([], []))
        have[0].extend(x for x in item_ids if x not in have[0])
        have[1].extend(queue_ids)
    results: dict[int, IntakeResult] = {}
    for i in fresh:
        rating = batch[i]
        if rating.id in inserted:
            results[i] = element_result(rating.id, IntakeStatus.created, touched.get(i))
        elif rating.id in stored:
            results[i] = (
                element_result(rating.id, IntakeStatus.unchanged)
                if stored[rating.id] == hashes[i]
                else id_reused_result(rating.id)
            )
        else:
            results[i] = rejected_result(
                rating.id,
                "unknown_rating",
                f"Rating {rating.rating!r} is not on any queue's scale.",
            )
    for i, j in copy_of.items():
        results[i] = (
            replayed_result(results[j]) if hashes[i] == hashes[j] else id_reused_result(batch[i].id)
        )
    return [results[i] for i in range(len(batch))]


_RATINGS_PAGE = select(
    fact_check_ratings.c.id, fact_check_ratings.c.payload, fact_check_ratings.c.received_at
).where(fact_check_ratings.c.user_id == bindparam("user"))


def fact_check_page(
    conn: Connection, caller: Principal, cursor: str | None, limit: int
) -> FactCheckPage:
    after = decode_cursor(cursor)
    query = _RATINGS_PAGE
    if after is not None:
        query = query.where(fact_check_ratings.c.id > after)
    rows = conn.execute(
        query.order_by(fact_check_ratings.c.id).limit(limit + 1), {"user": caller.id}
    ).all()
    more = len(rows) > limit
    rows = rows[:limit]
    return FactCheckPage(
        ratings=[
            FactCheckRecord.model_validate(
                {**json.loads(r.payload), "received_at": iso(r.received_at)}
            )
            for r in rows
        ],
        next_cursor=encode_cursor(rows[-1].id) if more and rows else None,
    )
