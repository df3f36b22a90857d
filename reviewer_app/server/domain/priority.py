"""Queue order: a single stored number per item, highest first."""

from __future__ import annotations

import math
from collections.abc import Sequence

from reviewer_app.protocol import ClassifierScore, PriorityWeights


def priority(
    weights: PriorityWeights,
    scores: Sequence[ClassifierScore],
    reports: int,
    views: int,
    enqueued_at: float,
) -> float:
    """``score*max score + reports*ln(1+reports) + reach*ln(1+views) + age*hours waiting``.

    Hours waiting is ``(now - enqueued_at) / 3600``; ``now`` is the same for every item at
    claim time, so it is left out and the stored number still orders the queue exactly.
    """
    top_score = max((s.score for s in scores), default=0.0)
    return priority_value(weights, top_score, reports, views, enqueued_at)


def priority_value(
    weights: PriorityWeights, top_score: float, reports: int, views: int, enqueued_at: float
) -> float:
    """``priority`` from the highest classifier score alone (no score models to build)."""
    return (
        weights.score * top_score
        + weights.reports * math.log1p(reports)
        + weights.reach * math.log1p(views)
        - weights.age * enqueued_at / 3600.0
    )
