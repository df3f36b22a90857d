"""The demo's misinformation queue (its queue file's configuration), and posts with the
fact-checks a test needs (for the fact-check rules of label verdicts), inserted as test
data (``seed_dataset``): the table of rules needs items with exactly these ratings."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, timedelta

from reviewer_app.protocol import (
    AccountSignals,
    FactCheck,
    Post,
    QueueReason,
    QueueReasonKind,
    Reach,
    Reports,
    Thread,
)
from reviewer_app.server.demo.queues import MISINFORMATION, demo_config
from reviewer_app.server.feeds.seed import seed_dataset
from reviewer_app.server.feeds.seed_types import Dataset, SeedAuthor, SeedItem, SeedQueue, SeedUser
from reviewer_app.server.service import Service

QUEUE_ID = MISINFORMATION

MISINFO_CONFIG = demo_config(MISINFORMATION)
"""The demo's misinformation queue as its queue file declares it: 1 keep, 2 label and
reduce, 3 label only (both need a rating), 4 reduce, 5 remove, 9 escalate; false and partly
false reduce."""
LABELS = {r.id: r.label for r in MISINFO_CONFIG.ratings}

MISINFO_QUEUE = SeedQueue(
    id=QUEUE_ID,
    name="Misinformation",
    description="Posts flagged as possibly false, with fact-checkers' ratings",
    config=MISINFO_CONFIG,
)

_AUTHOR = "fc-author"


def fact_check(rating: str, organisation: str = "Fact Desk", hours_ago: float = 2.0) -> FactCheck:
    return FactCheck(
        rating=rating,
        rating_label=LABELS.get(rating, rating),
        organisation=organisation,
        url=f"https://factdesk.example/checks/{rating}",
        claim="The claim the post makes",
        published_at=datetime.now(UTC) - timedelta(hours=hours_ago),
    )


def item(item_id: str, ratings: Sequence[str], *, minutes_ago: float = 30.0) -> SeedItem:
    """A post in the misinformation queue that fact-checkers rated ``ratings`` (none: no
    fact-check at all). Older posts come first in the queue (``minutes_ago``)."""
    now = datetime.now(UTC).replace(microsecond=0)
    created = now - timedelta(minutes=minutes_ago + 5)
    return SeedItem(
        id=item_id,
        queue_id=QUEUE_ID,
        enqueued_at=now - timedelta(minutes=minutes_ago),
        author_id=_AUTHOR,
        post=Post(
            id=f"post-{item_id}",
            text=f"Post {item_id}: the water supply is being poisoned, share before it is deleted",
            language="en",
            created_at=created,
            url=f"https://social.example/p/{item_id}",
        ),
        thread=Thread(),
        reach=Reach(views=1_000, shares=10),
        reports=Reports(),
        reasons=(
            QueueReason(kind=QueueReasonKind.fact_check, detail="fact-check")
            if ratings
            else QueueReason(kind=QueueReasonKind.classifier, detail="civic-claim 3.1"),
        ),
        fact_checks=tuple(
            fact_check(r, f"Checker {n}", hours_ago=1 + n) for n, r in enumerate(ratings)
        ),
    )


def seed_misinformation(
    service: Service,
    items: Mapping[str, Sequence[str]],
    users: Sequence[SeedUser] = (),
) -> None:
    """The misinformation queue with one item per entry of ``items`` (id -> the ratings
    fact-checkers gave it), in that order of age (the first is the oldest)."""
    now = datetime.now(UTC)
    author = SeedAuthor(
        id=_AUTHOR,
        handle="rumours",
        display_name="Rumour Mill",
        account_created_at=now - timedelta(days=400),
        followers=1_200,
        following=300,
        verified=False,
        signals=AccountSignals(posts_per_day=12.0),
    )
    count = len(items)
    seed_dataset(
        service,
        Dataset(
            queues=(MISINFO_QUEUE,),
            users=tuple(users),
            authors=(author,),
            items=tuple(
                item(item_id, ratings, minutes_ago=60.0 + count - n)
                for n, (item_id, ratings) in enumerate(items.items())
            ),
        ),
    )
