"""Intake for tests: API-key sessions for platforms and fact-checkers, wire bodies of posts
and signals, and a small queue configuration with routing and re-review rules."""

from __future__ import annotations

import copy
import itertools
from datetime import UTC, datetime, timedelta
from typing import Any

from reviewer_app.protocol import QueueFile, Role

from .api import ApiSession
from .servers import LiveServer

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)

MISINFO = "misinfo"
HATE = "hate"
INAUTH = "inauth"

# Queues in the order routing tries them; each with its own kind of rule.
QUEUES: dict[str, Any] = {
    "queues": [
        {
            "id": MISINFO,
            "name": "Misinformation",
            "config": {
                "actions": [
                    {"id": "keep", "label": "No violation", "kind": "keep", "key": "1"},
                    {
                        "id": "label",
                        "label": "Label",
                        "kind": "label",
                        "key": "2",
                        "requires_rating": True,
                    },
                    {
                        "id": "label-reduce",
                        "label": "Label and reduce",
                        "kind": "label_and_reduce",
                        "key": "3",
                        "requires_rating": True,
                    },
                    {
                        "id": "remove",
                        "label": "Remove",
                        "kind": "remove",
                        "key": "4",
                        "requires_policy": True,
                        "strike": True,
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
                "ratings": [
                    {"id": "false", "label": "False", "reduces": True},
                    {"id": "partly_false", "label": "Partly false", "reduces": True},
                    {"id": "missing_context", "label": "Missing context"},
                    {"id": "satire", "label": "Satire"},
                ],
                "priority": {"score": 10, "reports": 1, "reach": 0.1},
                "routing": [
                    {
                        "name": "civic-claim",
                        "classifier": [{"model": "civic", "label": "claim", "min_score": 0.75}],
                    },
                    {"name": "fact-checked", "fact_check": {"ratings": ["false", "partly_false"]}},
                ],
                "rereview": {"new_reports": 3, "new_ratings": ["false"]},
            },
        },
        {
            "id": HATE,
            "name": "Hate and harassment",
            "config": {
                "actions": [
                    {"id": "keep", "label": "No violation", "kind": "keep", "key": "1"},
                    {
                        "id": "remove",
                        "label": "Remove",
                        "kind": "remove",
                        "key": "2",
                        "requires_policy": True,
                        "strike": True,
                    },
                ],
                "policies": [
                    {
                        "code": "HATE.SLUR",
                        "label": "Slurs",
                        "terms_clause": "Community Guidelines 2.1",
                        "category": "illegal_or_harmful_speech",
                    }
                ],
                "priority": {"score": 5, "reports": 2},
                "routing": [
                    {"name": "hate-reports", "reports": [{"reason": "hate", "min_count": 3}]},
                    {
                        "name": "hate-model",
                        "classifier": [{"model": "hate-bert", "min_score": 0.9}],
                    },
                ],
                "rereview": {"new_reports": 2},
            },
        },
        {
            "id": INAUTH,
            "name": "Inauthentic accounts",
            "config": {
                "actions": [
                    {"id": "authentic", "label": "Authentic", "kind": "keep", "key": "1"},
                    {
                        "id": "mark",
                        "label": "Mark inauthentic",
                        "kind": "author",
                        "key": "2",
                        "author_action": "mark_inauthentic",
                    },
                ],
                "author_actions": ["mark_inauthentic"],
                "routing": [{"name": "account-graph", "account": {"min_score": 0.8}}],
            },
        },
    ]
}


def apply_queues(server: LiveServer, document: dict[str, Any] | None = None) -> None:
    server.service.apply_queue_file(QueueFile.model_validate(document or QUEUES), actor=None)


def key_session(server: LiveServer, name: str, role: Role = Role.platform) -> ApiSession:
    """A session that calls with a new API key of the service account ``name``."""
    return ApiSession(server.url, server.service.create_api_key(role, name).key)


_serial = itertools.count()


def author(external_id: str = "author-1", **fields: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "external_id": external_id,
        "handle": f"@{external_id}",
        "account_created_at": (NOW - timedelta(days=400)).isoformat(),
    }
    body.update(fields)
    return body


def post(external_id: str, text: str = "A post about the election.", **fields: Any) -> dict:
    body: dict[str, Any] = {
        "external_id": external_id,
        "text": text,
        "language": "en",
        "created_at": (NOW - timedelta(hours=2)).isoformat(),
        "url": f"https://social.example/p/{external_id}",
        "author": author(),
        "reach": {"views": 1200, "shares": 30},
    }
    body.update(fields)
    return body


def classifier(
    post_id: str,
    score: float = 0.9,
    *,
    model: str = "civic",
    label: str = "claim",
    signal_id: str | None = None,
) -> dict[str, Any]:
    return {
        "kind": "classifier",
        "id": signal_id or f"cls-{next(_serial)}",
        "post_external_id": post_id,
        "model": model,
        "model_version": "3.1",
        "label": label,
        "score": score,
        "threshold": 0.7,
    }


def report(
    post_id: str,
    reason: str = "hate",
    *,
    signal_id: str | None = None,
    note: str = "",
    reporter_id: str | None = None,
) -> dict[str, Any]:
    body: dict[str, Any] = {
        "kind": "report",
        "id": signal_id or f"rep-{next(_serial)}",
        "post_external_id": post_id,
        "reason": reason,
        "note": note,
    }
    if reporter_id is not None:
        body["reporter_id"] = reporter_id
    return body


def fact_check(
    post_id: str,
    rating: str = "false",
    *,
    signal_id: str | None = None,
    organisation: str = "Check Desk",
    url: str = "https://factcheck.example/a/1",
) -> dict[str, Any]:
    return {
        "kind": "fact_check",
        "id": signal_id or f"fc-{next(_serial)}",
        "post_external_id": post_id,
        "organisation": organisation,
        "rating": rating,
        "claim": "The election was moved to Thursday",
        "url": url,
        "published_at": NOW.isoformat(),
    }


def send(session: ApiSession, kind: str, elements: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """POST a batch to /intake/{kind}; the results, which must be 200."""
    field = {"fact-checks": "ratings"}.get(kind, kind)
    response = session.post(f"/intake/{kind}", json={field: elements})
    assert response.status_code == 200, response.text
    results: list[dict[str, Any]] = response.json()["results"]
    assert len(results) == len(elements)
    return results


def statuses(results: list[dict[str, Any]]) -> list[str]:
    return [r["status"] for r in results]


ESCALATIONS = "escalations"


def account_queues() -> dict[str, Any]:
    """``QUEUES`` with account actions: the inauthentic-accounts queue may suspend authors
    too, misinformation may escalate, and a leads' escalation queue comes first."""
    document = copy.deepcopy(QUEUES)
    configs = {q["id"]: q["config"] for q in document["queues"]}
    configs[INAUTH]["actions"].append(
        {
            "id": "suspend",
            "label": "Suspend author",
            "kind": "author",
            "key": "3",
            "author_action": "suspend",
        }
    )
    configs[INAUTH]["author_actions"] = ["mark_inauthentic", "suspend"]
    # the policies leads cite on account actions (a code no queue has is refused)
    configs[INAUTH].setdefault("policies", []).extend(
        {
            "code": code,
            "label": label,
            "terms_clause": "Community Guidelines 7.1",
            "category": "scams_and_fraud",
        }
        for code, label in (("SPAM.NETWORK", "Spam networks"), ("SPAM.SCAM", "Scams"))
    )
    configs[MISINFO]["actions"].append({"id": "escalate", "label": "Escalate", "kind": "escalate"})
    document["queues"].insert(
        0,
        {
            "id": ESCALATIONS,
            "name": "Escalations",
            "config": {
                "lead_only": True,
                "actions": [
                    {"id": "keep", "label": "No violation", "kind": "keep", "key": "1"},
                    {"id": "remove", "label": "Remove", "kind": "remove", "key": "2"},
                ],
            },
        },
    )
    return document


def shady(external_id: str = "shady", handle: str | None = None, **signals: Any) -> dict:
    """An author whose account signals put their posts in the inauthentic-accounts queue
    (``signals``: more account signals, such as ``shared_signal_accounts``)."""
    account = {"posts_per_day": 80.0, "inauthenticity_score": 0.9, **signals}
    return author(external_id, handle=handle or f"@{external_id}", signals=account)
