"""The demo dataset as intake records: the lines of ``demo_posts.jsonl``.

A platform sends a post, then the signals on it; the routing rules of the queue file put it
in a queue. Each demo item becomes that: a ``post`` line and ``signal`` lines (its
classifier scores, one ``report`` per user report, its fact-checks relayed by the platform),
plus one ``media`` line per media file the posts use.

Lines come in the order the demo replays them. First, in the order the items were queued,
each post with the signals that queued it (``received_at`` set to when it was queued: the
replay runs intake at that time, so the shift has items that waited); the signals that put
the post in its generator's queue come first, so whichever point intake routes it at, it
lands in that queue. Then the rest of the signals (no ``received_at``: sent at the end,
they attach to the open items).

Times are absolute, as of ``generated_at`` on the first (``meta``) line: the replay moves
every time by (now - generated_at).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import PurePosixPath
from typing import Any

from reviewer_app.protocol import (
    ClassifierSignal,
    FactCheckSignal,
    IntakeAuthor,
    IntakeMedia,
    IntakePost,
    IntakeStrike,
    QueueConfig,
    ReportSignal,
)
from reviewer_app.server.demo.files import MEDIA_FOLDER
from reviewer_app.server.domain.routing import Summary, route
from reviewer_app.server.feeds.seed_types import Dataset, SeedAuthor, SeedItem

FORMAT = "reviewer-app intake jsonl 1"
SOURCE = "demo-platform"
"""The platform account the demo's posts come from."""
WINDOW = timedelta(minutes=10)

Line = dict[str, Any]
IntakeSignal = ClassifierSignal | ReportSignal | FactCheckSignal


def media_ref(file: str) -> str:
    """The name a post's ``media_id`` gives a media line's file until it is uploaded."""
    return PurePosixPath(file).stem


def _time(at: datetime) -> str:
    return at.astimezone(UTC).isoformat().replace("+00:00", "Z")


def intake_author(author: SeedAuthor) -> IntakeAuthor:
    return IntakeAuthor(
        external_id=author.id,
        handle=author.handle,
        display_name=author.display_name,
        account_created_at=author.account_created_at,
        followers=author.followers,
        following=author.following,
        verified=author.verified,
        bio=author.bio,
        signals=author.signals,
        prior_strikes=[IntakeStrike(policy=p, at=at) for p, at in author.prior_strikes],
    )


def intake_post(item: SeedItem, author: SeedAuthor) -> IntakePost:
    return IntakePost(
        external_id=item.post.id,
        text=item.post.text,
        language=item.post.language,
        created_at=item.post.created_at,
        url=item.post.url,
        author=intake_author(author),
        link_preview=item.post.link_preview,
        thread=item.thread,
        reach=item.reach,
        media=[
            IntakeMedia(media_id=media_ref(m.file), alt_text=m.alt_text, sensitive=m.sensitive)
            for m in item.media
        ],
    )


def _between(rng: random.Random, start: datetime, end: datetime) -> datetime:
    span = max(0, int((end - start).total_seconds()))
    return start + timedelta(seconds=rng.randint(0, span))


def item_signals(rng: random.Random, item: SeedItem, now: datetime) -> list[IntakeSignal]:
    """Every signal of the item: its scores, one report per user report (the sample notes
    on as many of them), its fact-checks."""
    post_id = item.post.id
    found: list[IntakeSignal] = [
        ClassifierSignal(
            id=f"{post_id}-c{n}",
            post_external_id=post_id,
            model=s.model,
            model_version=s.model_version,
            label=s.label,
            score=s.score,
            threshold=s.threshold,
            spans=s.spans,
        )
        for n, s in enumerate(item.scores)
    ]
    found += [
        FactCheckSignal(
            id=f"{post_id}-f{n}",
            post_external_id=post_id,
            organisation=f.organisation,
            rating=f.rating,
            claim=f.claim,
            url=f.url,
            published_at=f.published_at,
        )
        for n, f in enumerate(item.fact_checks)
    ]
    notes: dict[str, list[tuple[str, datetime]]] = {}
    for note in item.reports.notes:
        notes.setdefault(note.reason, []).append((note.note, note.created_at))
    number = 0
    for count in item.reports.by_reason:
        with_notes = notes.get(count.reason, [])
        for k in range(count.count):
            text, at = with_notes[k] if k < len(with_notes) else ("", None)
            found.append(
                ReportSignal(
                    id=f"{post_id}-r{number}",
                    post_external_id=post_id,
                    reason=count.reason,
                    note=text,
                    created_at=at or _between(rng, item.post.created_at, now),
                )
            )
            number += 1
    return found


def _helps(signal: IntakeSignal, config: QueueConfig) -> bool:
    """Whether a condition of one of the queue's routing rules counts this signal."""
    for rule in config.routing:
        if isinstance(signal, ClassifierSignal):
            if any(
                c.model in (None, signal.model)
                and c.label in (None, signal.label)
                and signal.score >= c.min_score
                for c in rule.classifier
            ):
                return True
        elif isinstance(signal, ReportSignal):
            if any(c.reason in (None, signal.reason) for c in rule.reports):
                return True
        elif rule.fact_check is not None and signal.rating in rule.fact_check.ratings:
            return True
    return False


def _add(summary: Summary, signal: IntakeSignal, at: float) -> None:
    if isinstance(signal, ClassifierSignal):
        summary.add_score(signal.model_dump(mode="json", exclude={"kind", "id"}))
    elif isinstance(signal, ReportSignal):
        created = _time(signal.created_at) if signal.created_at else ""
        summary.add_report(signal.reason, signal.note, created)
    else:
        summary.add_fact_check(
            signal.model_dump(
                mode="json", include={"organisation", "rating", "claim", "url", "published_at"}
            ),
            at,
        )


@dataclass(frozen=True)
class Routed:
    """An item's signals split in two: those that route it (sent with the post) and the rest."""

    routing: list[IntakeSignal]
    rest: list[IntakeSignal]


class RoutingMismatch(ValueError):
    """The queue file's rules would put a demo post elsewhere than the generator did."""


def split_signals(
    item: SeedItem,
    signals: Sequence[IntakeSignal],
    inauthenticity: float,
    order: Sequence[str],
    configs: dict[str, QueueConfig],
) -> Routed:
    """The shortest run of the item's signals, those its own queue's rules count first, after
    which routing takes it to ``item.queue_id``; never routed elsewhere on the way."""
    own = configs[item.queue_id]
    ranked = sorted(signals, key=lambda s: not _helps(s, own))  # stable: helpers first
    summary = Summary()
    at = item.enqueued_at.timestamp()
    for taken in range(len(ranked) + 1):
        match = route(order, configs, summary, inauthenticity)
        if match is not None:
            if match.queue_id != item.queue_id:
                raise RoutingMismatch(
                    f"post {item.post.id} of {item.queue_id} would be routed to "
                    f"{match.queue_id} ({match.rule}) after {taken} signals"
                )
            return Routed(ranked[:taken], ranked[taken:])
        if taken < len(ranked):
            _add(summary, ranked[taken], at)
    raise RoutingMismatch(f"no rule routes post {item.post.id} to {item.queue_id}")


def demo_lines(
    dataset: Dataset,
    generated_at: datetime,
    order: Sequence[str],
    configs: dict[str, QueueConfig],
    *,
    seed: int = 1,
) -> Iterator[Line]:
    """The lines of the demo's JSONL (see the module's docstring)."""
    rng = random.Random(seed)
    authors = {a.id: a for a in dataset.authors}
    yield {
        "type": "meta",
        "format": FORMAT,
        "generated_at": _time(generated_at),
        "source": SOURCE,
        "items": len(dataset.items),
    }
    files = sorted(
        {m.file: m for i in dataset.items for m in i.media}.values(), key=lambda m: m.file
    )
    for m in files:
        yield {
            "type": "media",
            "ref": media_ref(m.file),
            "file": f"{MEDIA_FOLDER}/{m.file}",
            "mime_type": m.mime_type,
        }
    later: list[IntakeSignal] = []
    for group in _windows(sorted(dataset.items, key=lambda i: i.enqueued_at)):
        posts: list[Line] = []
        routing: list[Line] = []
        for item in group:
            author = authors[item.author_id]
            signals = item_signals(rng, item, generated_at)
            routed = split_signals(
                item, signals, author.signals.inauthenticity_score, order, configs
            )
            at = _time(item.enqueued_at)
            # the demo's posts are never changed upstream: no updated_at on the line
            post = intake_post(item, author).model_dump(mode="json", exclude={"updated_at"})
            posts.append({"type": "post", "received_at": at, **post})
            routing += [
                {"type": "signal", "received_at": at, **s.model_dump(mode="json")}
                for s in routed.routing
            ]
            later += routed.rest
        yield from posts
        yield from routing
    for signal in later:
        yield {"type": "signal", **signal.model_dump(mode="json")}


def _windows(items: Sequence[SeedItem]) -> Iterator[list[SeedItem]]:
    """Items queued within ``WINDOW`` of the first of each group: one intake call each for
    their posts and their routing signals (the replay's clock moves per call)."""
    group: list[SeedItem] = []
    for item in items:
        if group and item.enqueued_at - group[0].enqueued_at > WINDOW:
            yield group
            group = []
        group.append(item)
    if group:
        yield group


__all__ = [
    "FORMAT",
    "SOURCE",
    "Line",
    "Routed",
    "RoutingMismatch",
    "demo_lines",
    "intake_post",
    "item_signals",
    "media_ref",
    "split_signals",
]
