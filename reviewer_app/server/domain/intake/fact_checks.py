"""Fact-checks from fact-checker accounts: ratings stored and sent on as signals, and the
fact-checker's own ratings read back a page at a time."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
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
    LOCK_EXTERNAL_IDS,
    POST_IDS_BY_EXTERNAL_ID,
    POSTS_BY_EXTERNAL_ID,
    POSTS_BY_EXTERNAL_ID_NOWAIT,
    RATINGS_OF_EXTERNAL_IDS,
    SHARE_AUTHORS_OF_EXTERNAL_IDS,
    SHARE_AUTHORS_OF_EXTERNAL_IDS_NOWAIT,
    STORED_RATINGS,
    TARGET_LOCK,
    canonical_hash,
    compact_json,
    external_id_lock_key,
    rating_signal_id,
)
from reviewer_app.server.domain.intake.signals import (
    PUBLISHED_IN_FUTURE,
    PreparedSignal,
    id_reused_result,
    published_ahead,
    store_signals,
)
from reviewer_app.server.domain.records import Principal, decode_cursor, encode_cursor, iso
from reviewer_app.server.storage.tables import fact_check_ratings


def _hold_external_ids(ctx: Context, external_ids: Iterable[str], *, shared: bool) -> None:
    """Hold these platform post ids until this transaction ends (rows.LOCK_EXTERNAL_IDS),
    first waiting for the batches that hold any of them in a mode that conflicts: a post
    batch holds them ``shared``, a rating batch exclusive. PostgreSQL only: SQLite has one
    writer at a time already."""
    keys = sorted({external_id_lock_key(x) for x in external_ids})
    if ctx.postgres and keys:
        ctx.conn.execute(LOCK_EXTERNAL_IDS[shared], {"space": TARGET_LOCK, "keys": keys}).all()


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


def _lock_named(ctx: Context, named: list[str], *, nowait: bool = False) -> dict[str, PostRow]:
    """The posts of these platform ids, locked (their authors first on PostgreSQL: see
    SHARE_AUTHORS_OF_POSTS); with ``nowait``, a row another transaction holds fails the
    transaction (PostgreSQL), which is run again."""
    conn = ctx.conn
    params = {"ids": named}
    if not ctx.postgres:
        return {
            r.id: PostRow.from_row(r) for r in conn.execute(POSTS_BY_EXTERNAL_ID[False], params)
        }
    conn.execute(
        SHARE_AUTHORS_OF_EXTERNAL_IDS_NOWAIT if nowait else SHARE_AUTHORS_OF_EXTERNAL_IDS, params
    ).all()
    query = POSTS_BY_EXTERNAL_ID_NOWAIT if nowait else POSTS_BY_EXTERNAL_ID[True]
    return {r.id: PostRow.from_row(r) for r in conn.execute(query, params)}


def _named_posts(ctx: Context, named: list[str]) -> dict[str, PostRow]:
    """The posts the new ratings name (``named``: platform ids, sorted), locked, with those
    that a post batch holding their ids committed meanwhile (rows.LOCK_EXTERNAL_IDS).

    The ids are held after the posts are locked, not before: a post batch takes them last,
    holding its authors and posts, so a batch that held them and then waited for one of
    those would wait in a circle with it. For the same reason the posts that came meanwhile
    (read again only then) are locked without waiting: when another batch holds one (a post
    batch that changes it and waits for these ids, say), this transaction fails and is run
    again, and then waits for that batch before it holds the ids."""
    if not named:
        return {}
    rows = _lock_named(ctx, named)
    if ctx.postgres:
        _hold_external_ids(ctx, named, shared=False)
        found = ctx.conn.execute(POST_IDS_BY_EXTERNAL_ID, {"ids": named}).scalars()
        if any(post_id not in rows for post_id in found):
            rows = _lock_named(ctx, named, nowait=True)
    return rows


def _rating_signals(
    ctx: Context,
    batch: Sequence[FactCheckRating],
    new: list[int],
    documents: list[dict[str, Any]],
) -> tuple[list[PreparedSignal], dict[str, PostRow]]:
    """The fact-check signal each new rating becomes on each live post it names (of the
    rating's source, when it names one), and those posts' rows. The ratings' targets are
    written before (``_keep_targets``), so a post batch that reads them after this batch
    commits finds the ratings."""
    rows = _named_posts(ctx, sorted({pid for i in new for pid in batch[i].post_external_ids}))
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
    touched, per post id.

    The posts' ids are held first (rows.LOCK_EXTERNAL_IDS): a rating batch naming one of
    them that is under way commits its targets before they are read here, or looks for
    these posts after this batch commits."""
    if not arrived:
        return {}
    _hold_external_ids(ctx, arrived.values(), shared=True)
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


def _published_ahead(ctx: Context, rating: FactCheckRating) -> IntakeResult | None:
    """The refusal of a rating published too far after the service's clock, or None."""
    why = published_ahead(rating.published_at, ctx.now)
    return None if why is None else rejected_result(rating.id, PUBLISHED_IN_FUTURE, why)


def _insert_ratings(
    ctx: Context,
    caller: Principal,
    batch: Sequence[FactCheckRating],
    candidates: list[int],
    documents: list[dict[str, Any]],
    hashes: list[str],
) -> set[str]:
    """Store the ratings ``candidates`` (places in ``batch``); the ids of those new (one
    stored already is a replay, or its id reused)."""
    if not candidates:
        return set()
    return set(
        ctx.conn.execute(
            INSERT_RATINGS[ctx.postgres],
            [
                {
                    "user_id": caller.id,
                    "external_id": batch[i].id,
                    "body_hash": hashes[i],
                    "payload": compact_json(documents[i]),
                    "received_at": ctx.now,
                }
                # in the ids' order: two batches of one fact-checker naming the same ids
                # in other orders would each wait for the other's row (a deadlock)
                for i in sorted(candidates, key=lambda i: batch[i].id)
            ],
        ).scalars()
    )


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
    results: dict[int, IntakeResult] = {}
    for i in fresh:
        refused = _published_ahead(ctx, batch[i])
        if refused is not None:  # neither stored nor compared with one stored
            results[i] = refused
    known_ratings = ctx.known_ratings
    candidates = [i for i in fresh if i not in results and batch[i].rating in known_ratings]
    inserted = _insert_ratings(ctx, caller, batch, candidates, documents, hashes)
    others = [batch[i].id for i in fresh if i not in results and batch[i].id not in inserted]
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
    for i in fresh:
        rating = batch[i]
        if i in results:
            continue
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
