"""Appeals for tests: the enforcement tests' queue file with an appeals queue, and appeal
bodies as a platform sends them."""

from __future__ import annotations

import itertools
from typing import Any

from reviewer_app.protocol import QueueFile

from .enforcement import queue_file as enforcement_queues
from .intake import INAUTH, NOW, QUEUES

APPEALS = "appeals"

_serial = itertools.count()

APPEALS_QUEUE: dict[str, Any] = {
    "id": APPEALS,
    "name": "Appeals",
    "config": {
        "appeals": True,
        "sla_minutes": 60,
        "actions": [
            {
                "id": "uphold",
                "label": "Uphold",
                "kind": "uphold",
                "key": "1",
                "requires_note": True,
            },
            {"id": "reverse", "label": "Reverse", "kind": "reverse", "key": "2"},
        ],
    },
}


def queue_file() -> dict[str, Any]:
    """The enforcement tests' queues (misinformation with remove-and-restrict, escalations),
    the inauthentic accounts queue, and an appeals queue."""
    document = enforcement_queues()
    if not any(q["id"] == INAUTH for q in document["queues"]):
        document["queues"].append(next(q for q in QUEUES["queues"] if q["id"] == INAUTH))
    document["queues"].append(APPEALS_QUEUE)
    QueueFile.model_validate(document)
    return document


def appeal(
    post_id: str | None = None,
    *,
    author_id: str | None = None,
    statement: str = "My post was about the weather, not the election.",
    appeal_id: str | None = None,
) -> dict[str, Any]:
    body: dict[str, Any] = {
        "id": appeal_id or f"appeal-{next(_serial)}",
        "statement": statement,
        "submitted_at": NOW.isoformat(),
    }
    if post_id is not None:
        body["post_external_id"] = post_id
    if author_id is not None:
        body["author_external_id"] = author_id
    return body
