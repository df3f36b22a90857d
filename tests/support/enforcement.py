"""Enforcement for tests: a queue file with escalations and a remove-and-restrict action,
posts queued through intake, and a feed reader over HTTP."""

from __future__ import annotations

import copy
from typing import Any

import requests

from reviewer_app.protocol import QueueFile

from .api import ApiSession
from .intake import MISINFO, QUEUES, classifier, post, send

ESCALATIONS = "escalations"


def queue_file() -> dict[str, Any]:
    """tests.support.intake's queues, the misinformation queue with an escalate and a
    remove-and-restrict-author action, and a leads' escalations queue."""
    document = copy.deepcopy(QUEUES)
    misinfo = next(q for q in document["queues"] if q["id"] == MISINFO)
    misinfo["config"]["actions"] += [
        {"id": "escalate", "label": "Escalate", "kind": "escalate", "key": "5"},
        {
            "id": "remove-restrict",
            "label": "Remove and restrict author",
            "kind": "remove",
            "key": "6",
            "requires_policy": True,
            "author_action": "restrict",
        },
        {"id": "reduce", "label": "Reduce", "kind": "reduce", "key": "7"},
    ]
    misinfo["config"]["author_actions"] = ["restrict"]
    document["queues"].append(
        {
            "id": ESCALATIONS,
            "name": "Escalations",
            "config": {
                "lead_only": True,
                "actions": [
                    {"id": "keep", "label": "No violation", "kind": "keep", "key": "1"},
                    {
                        "id": "remove",
                        "label": "Remove",
                        "kind": "remove",
                        "key": "2",
                        "requires_policy": True,
                    },
                ],
                "policies": [
                    {
                        "code": "MISINFO.CIVIC",
                        "label": "Civic misinformation",
                        "terms_clause": "Community Guidelines 4.2",
                        "category": "negative_effects_on_civic_discourse_or_elections",
                    }
                ],
            },
        }
    )
    QueueFile.model_validate(document)
    return document


def queue_posts(platform: ApiSession, external_ids: list[str], **fields: Any) -> list[str]:
    """Posts sent and flagged by the civic classifier: each opens an item in the
    misinformation queue. Their item ids, in order."""
    send(platform, "posts", [post(e, **fields) for e in external_ids])
    results = send(platform, "signals", [classifier(e, 0.9) for e in external_ids])
    return [r["item_ids"][0] for r in results]


def read_feed(
    base_url: str, key: str, after: int = 0, limit: int = 500, wait: float = 0
) -> dict[str, Any]:
    response = requests.get(
        f"{base_url}/api/v1/enforcement",
        params={"after": after, "limit": limit, "wait": wait},
        headers={"Authorization": f"Bearer {key}"},
        timeout=wait + 30,
    )
    assert response.status_code == 200, response.text
    page: dict[str, Any] = response.json()
    return page


def read_all(base_url: str, key: str, after: int = 0, limit: int = 500) -> list[dict[str, Any]]:
    """Every action sealed so far after ``after``, page by page."""
    found: list[dict[str, Any]] = []
    while True:
        page = read_feed(base_url, key, after, limit)
        found += page["actions"]
        if not page["actions"]:
            return found
        assert page["next_cursor"] == page["actions"][-1]["seq"]
        after = page["next_cursor"]
