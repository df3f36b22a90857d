"""Lead figures: queue health and reviewer quality over a window of time."""

from __future__ import annotations

from enum import StrEnum

from pydantic import Field

from .accounts import HeldBack
from .common import Count, Fraction, JsonInt, Label, Slug, Timestamp, Username, WireModel

MAX_STATS_BUCKETS = 1_000
"""The most points a throughput series may have (hours or days in the window)."""
MAX_STATS_WINDOW_DAYS = 400


class StatsBucket(StrEnum):
    hour = "hour"
    day = "day"


class ActionCount(WireModel):
    action: Slug
    count: Count


class ThroughputPoint(WireModel):
    """Decisions recorded in one bucket (UTC hours or days; the first and last bucket may be
    cut by the window)."""

    start: Timestamp
    decided: Count


STALENESS = (
    "how far behind the primary database the figures may be, in seconds: 0 when read from "
    "the primary or from a read replica that had caught up with it; else the age of the "
    "last transaction the replica had replayed (at most the service's "
    "read_max_staleness_seconds)"
)
FROM_REPLICA = "read from the service's read replica (REVIEWER_SERVER_READ_DATABASE_URL)"


class QueueStats(WireModel):
    queue_id: Slug
    name: Label
    backlog: Count = Field(
        description="items waiting now (pending, or leased with the lease run out)"
    )
    leased: Count = Field(description="items under a live lease now")
    oldest_pending_age_seconds: Count | None = Field(
        default=None,
        description="age of the oldest undecided item now, leased or not (the SLA runs "
        "until a decision: a lease does not stop it)",
    )
    sla_seconds: Count = Field(description="the queue's SLA: no item should wait longer")
    sla_breached: bool = Field(description="the oldest undecided item is older than the SLA")
    pending_over_sla: Count = Field(
        description="undecided items older than the SLA, leased ones included"
    )
    decided: Count = Field(description="decisions in the window (escalations included)")
    decided_series: list[ThroughputPoint] = Field(max_length=MAX_STATS_BUCKETS)
    action_mix: list[ActionCount] = Field(max_length=64)
    escalations_open: Count = Field(
        description="items escalated from this queue that no lead has decided yet"
    )
    unservable: Count = Field(
        default=0,
        description="items parked because their stored document could not be served to a "
        "reviewer (see the log's unservable entries); never offered until repaired",
    )


class QueueStatsReport(WireModel):
    since: Timestamp
    until: Timestamp
    bucket: StatsBucket
    generated_at: Timestamp
    queues: list[QueueStats] = Field(max_length=1_000)
    held_back: HeldBack = Field(
        default=HeldBack(),
        description="posts of suspended or inauthentic accounts recorded and not queued",
    )
    staleness_seconds: float = Field(default=0.0, ge=0, description=STALENESS)
    from_replica: bool = Field(default=False, description=FROM_REPLICA)


class ReviewerStats(WireModel):
    reviewer: Username
    display_name: Label
    decisions: Count = Field(description="decisions made in the window")
    handle_time_median_ms: Count | None = Field(
        default=None,
        description="median time spent per decision (estimated from 10%-wide histogram buckets)",
    )
    handle_time_p90_ms: Count | None = Field(
        default=None, description="90th percentile of time spent (same estimate)"
    )
    action_mix: list[ActionCount] = Field(max_length=64)
    audited: Count = Field(description="decisions of the window that an auditor has judged")
    audit_agreed: Count
    audit_overturned: Count
    audit_agreement_rate: Fraction | None = Field(
        default=None, description="audit_agreed / audited (None without audits)"
    )
    appeals_upheld: Count = Field(
        default=0, description="decisions of the window whose appeal was upheld (no overturn)"
    )
    appeals_reversed: Count = Field(
        default=0, description="decisions of the window whose appeal reversed them (an overturn)"
    )
    overturn_rate: Fraction | None = Field(
        default=None,
        description="(audit_overturned + appeals_reversed) / decisions (None without decisions)",
    )
    kappa: float | None = Field(
        default=None,
        ge=-1.0,
        le=1.0,
        description="Cohen's kappa between the reviewer's actions and the auditors' actions on "
        "the audited decisions (None when undefined: no audits, or one action only on both sides)",
    )
    conflicts: Count = Field(
        description="verdicts sent in the window that lost to another reviewer's decision"
    )


class ReviewerStatsReport(WireModel):
    since: Timestamp
    until: Timestamp
    generated_at: Timestamp
    reviewers: list[ReviewerStats] = Field(max_length=10_000)
    staleness_seconds: float = Field(default=0.0, ge=0, description=STALENESS)
    from_replica: bool = Field(default=False, description=FROM_REPLICA)


# -- quality signals ------------------------------------------------------------------------

MAX_TREND_DAYS = 92
"""The most days a reviewer's trend may span."""


class QualityFlag(StrEnum):
    fast = "fast"
    """median handle time under the lead's threshold"""
    mix = "mix"
    """action mix far from the rest of a queue's (total variation distance)"""
    overturns = "overturns"
    """overturn rate jumped against the window before"""


class QualityThresholds(WireModel):
    """What the lead counts as worth a look (sent with each request; kept in the lead's own
    settings). A reviewer is judged on a signal only with ``min_decisions`` behind it."""

    min_median_ms: Count = Field(
        default=2_000, le=3_600_000, description="flag a median handle time under this"
    )
    max_mix_distance: Fraction = Field(
        default=0.3,
        description="flag a total variation distance between the reviewer's action shares in "
        "a queue and the other reviewers' shares there above this",
    )
    min_decisions: JsonInt = Field(
        default=20,
        ge=1,
        le=1_000_000,
        description="decisions needed in the window (and, for the overturn jump, in the "
        "window before; for the mix, in the queue) before a signal is judged",
    )
    overturn_jump: Fraction = Field(
        default=0.1,
        description="flag an overturn rate this much higher than in the window before "
        "(absolute: 0.1 is ten percentage points)",
    )


class ReviewerQuality(WireModel):
    reviewer: Username
    display_name: Label
    decisions: Count = Field(description="decisions in the window")
    handle_time_median_ms: Count | None = Field(
        default=None, description="as in ReviewerStats (the same estimate)"
    )
    mix_distance: Fraction | None = Field(
        default=None,
        description="the largest total variation distance over the queues where the reviewer "
        "made at least min_decisions decisions and other reviewers decided too",
    )
    mix_queue_id: Slug | None = Field(default=None, description="the queue of mix_distance")
    overturn_rate: Fraction | None = None
    previous_decisions: Count = Field(description="decisions in the window before")
    previous_overturn_rate: Fraction | None = None
    flags: list[QualityFlag] = Field(default_factory=list, max_length=3)


class QualityReport(WireModel):
    since: Timestamp
    until: Timestamp
    previous_since: Timestamp = Field(
        description="the window before: as long as this one, ending where it starts "
        "(from 1971-01-01 at the earliest)"
    )
    thresholds: QualityThresholds
    generated_at: Timestamp
    reviewers: list[ReviewerQuality] = Field(max_length=10_000)
    staleness_seconds: float = Field(default=0.0, ge=0, description=STALENESS)
    from_replica: bool = Field(default=False, description=FROM_REPLICA)


class TrendDay(WireModel):
    start: Timestamp = Field(
        description="the day's start: its midnight in the trend's time_zone (the first cut "
        "by the window)"
    )
    decisions: Count
    handle_time_median_ms: Count | None = Field(
        default=None, description="exact median of the day's decisions"
    )
    overturned: Count = Field(
        description="the day's decisions overturned since (in an audit or on appeal)"
    )


class ReviewerTrend(WireModel):
    reviewer: Username
    since: Timestamp
    until: Timestamp
    days: list[TrendDay] = Field(max_length=MAX_TREND_DAYS + 1)
    time_zone: str = Field(
        default="UTC",
        max_length=64,
        description="the IANA time zone whose days these are (the one asked for; UTC "
        "without, and from a service that buckets by UTC days only)",
    )
    staleness_seconds: float = Field(default=0.0, ge=0, description=STALENESS)
    from_replica: bool = Field(default=False, description=FROM_REPLICA)
