"""Why an item is in its queue: reach, reports, classifier scores, fact-checks, reasons."""

from __future__ import annotations

import math
import random
import re
from datetime import datetime, timedelta

from reviewer_app.protocol import (
    ClassifierScore,
    FactCheck,
    QueueReason,
    QueueReasonKind,
    Reach,
    ReporterNote,
    ReportReasonCount,
    Reports,
    Span,
)
from reviewer_app.server.demo.queues import (
    ESCALATIONS,
    HATE,
    INAUTHENTIC,
    MISINFORMATION,
    RATING_LABELS,
    SPAM,
)
from reviewer_app.server.demo.texts import Topic
from reviewer_app.server.demo.texts_context import (
    APPEAL_DETAILS,
    CLASSIFIER_DETAILS,
    REPORTER_NOTES,
)

MODELS: dict[str, tuple[str, float]] = {
    "misinfo-claim-matcher": ("3.2.1", 0.75),
    "toxicity-xlmr": ("2026.10.2", 0.80),
    "spam-gbdt": ("14.0", 0.70),
    "inauthentic-graph": ("0.9.3", 0.65),
    "nsfw-vision": ("5.1", 0.85),
    "escalation-triage": ("1.4.0", 0.75),
}
"""model -> (version, threshold)"""

PRIMARY_MODEL = {
    MISINFORMATION: "misinfo-claim-matcher",
    HATE: "toxicity-xlmr",
    SPAM: "spam-gbdt",
    INAUTHENTIC: "inauthentic-graph",
}

FACT_CHECKERS = (
    ("VeriFact Desk", "verifact-desk.example", ("en", "ar", "he")),
    ("ClaimCheck Europe", "claimcheck-europe.example", ("en", "fr", "de")),
    ("Datos Verificados", "datos-verificados.example", ("es", "pt")),
    ("Faktenlage", "faktenlage.example", ("de",)),
)

# (lowest, highest) log10 of views, and (lowest, highest) log10 of reports, per queue
_VIEWS = {MISINFORMATION: (2.5, 6.7), HATE: (1.0, 5.0), SPAM: (1.0, 4.5), INAUTHENTIC: (1.0, 4.0)}
_VIEWS[ESCALATIONS] = (2.0, 6.5)
# (Each report is a signal of its own through intake: a shift of tens of thousands would
# make the demo slow to start, so the busiest posts have a hundred or so.)
_REPORTS = {MISINFORMATION: (0, 1.9), HATE: (0.3, 2.1), SPAM: (0, 1.5), INAUTHENTIC: (0, 1.2)}
_REPORTS[ESCALATIONS] = (0.5, 2.0)
_URL = re.compile(r"https?://\S+")
_MENTION = re.compile(r"@[\w.]+")
_PLACEHOLDER = re.compile(r"\[(slur|group)\]")


def _between(rng: random.Random, start: datetime, end: datetime) -> datetime:
    """A whole-second time in [start, end] (start when the range is empty)."""
    span = max(0, int((end - start).total_seconds()))
    return start + timedelta(seconds=rng.randint(0, span))


def make_reach(rng: random.Random, queue: str, viral: bool) -> Reach:
    lo, hi = _VIEWS[queue]
    mode = hi - 0.8 if viral or queue == MISINFORMATION else lo + 1.0
    views = min(5_000_000, max(10, int(10 ** rng.triangular(lo, hi, mode))))
    growth = rng.uniform(0.5, 4.0) if viral and rng.random() < 0.6 else rng.uniform(-0.4, 0.6)
    return Reach(
        views=views,
        shares=int(views * rng.uniform(0.002, 0.06)),
        likes=int(views * rng.uniform(0.01, 0.12)),
        views_last_hour=int(views * rng.uniform(0.002, 0.25)),
        growth_per_hour=round(growth, 3),
    )


def make_reports(
    rng: random.Random, queue: str, topic: Topic, created: datetime, now: datetime, least: int
) -> Reports:
    lo, hi = _REPORTS[queue]
    total = int(10 ** rng.uniform(lo, hi)) if rng.random() > 0.15 else 0
    total = max(total, least)
    if total == 0:
        return Reports()
    reasons = list(dict.fromkeys(topic.report_reasons))
    weights = [topic.report_reasons.count(r) * rng.random() + 0.05 for r in reasons]
    shares = [int(total * w / sum(weights)) for w in weights]
    shares[0] += total - sum(shares)
    # An item queued for its reports alone has ``least`` of them with the topic's main
    # reason: the reason its queue's routing rule counts (queues.toml).
    for i in sorted(range(1, len(shares)), key=lambda k: -shares[k]):
        moved = min(shares[i], max(0, least - shares[0]))
        shares[i] -= moved
        shares[0] += moved
    by_reason = [
        ReportReasonCount(reason=r, count=c)
        for r, c in sorted(zip(reasons, shares, strict=True), key=lambda rc: -rc[1])
        if c > 0
    ]
    notes = []
    for _ in range(min(total, rng.randint(0, 3))):
        reason = rng.choice([rc.reason for rc in by_reason])
        notes.append(
            ReporterNote(
                reason=reason,
                note=rng.choice(REPORTER_NOTES[reason]),
                created_at=_between(rng, created, now),
            )
        )
    notes.sort(key=lambda n: n.created_at)
    return Reports(total=total, by_reason=by_reason, notes=notes)


def _spans(model: str, text: str, topic: Topic) -> list[Span]:
    spans: list[Span] = []
    if model == "toxicity-xlmr":
        for m in _PLACEHOLDER.finditer(text):
            spans.append(Span(start=m.start(), end=m.end(), label=m.group(1)))
        for m in _MENTION.finditer(text):
            spans.append(Span(start=m.start(), end=m.end(), label="target"))
    elif model == "spam-gbdt":
        for m in _URL.finditer(text):
            url = m.group().rstrip(".,!)")
            spans.append(Span(start=m.start(), end=m.start() + len(url), label="suspicious link"))
    elif model == "misinfo-claim-matcher":
        for term in topic.span_terms:
            start = text.find(term)
            if start >= 0:
                spans.append(Span(start=start, end=start + len(term), label="claim"))
    return sorted(spans, key=lambda s: (s.start, s.end))


def _score(rng: random.Random, model: str, label: str, above: bool) -> ClassifierScore:
    version, threshold = MODELS[model]
    value = rng.uniform(threshold + 0.01, 0.995) if above else rng.uniform(0.05, threshold - 0.03)
    return ClassifierScore(
        model=model, model_version=version, label=label, score=round(value, 3), threshold=threshold
    )


def make_scores(
    rng: random.Random,
    topic: Topic,
    text: str,
    flagged: bool,
    media_files: tuple[str, ...],
) -> list[ClassifierScore]:
    """The topic queue's own model (above threshold when ``flagged``) and a few others."""
    model = PRIMARY_MODEL[topic.queue]
    primary = _score(rng, model, topic.label, flagged)
    if rng.random() < 0.85:
        spans = _spans(model, text, topic)
        if spans:
            primary = primary.model_copy(update={"spans": spans})
    scores = [primary]
    if topic.queue == MISINFORMATION and rng.random() < 0.3:
        scores.append(_score(rng, "toxicity-xlmr", "toxicity", False))
    if topic.queue == HATE and rng.random() < 0.2:
        scores.append(_score(rng, "spam-gbdt", "spam", False))
    if topic.queue == INAUTHENTIC and _URL.search(text):
        scores.append(_score(rng, "spam-gbdt", "scam", rng.random() < 0.5))
    if media_files:
        graphic = "street_fight_still.png" in media_files
        scores.append(_score(rng, "nsfw-vision", "graphic_violence", graphic))
    return scores


def make_triage_score(rng: random.Random, label: str) -> ClassifierScore:
    """The escalation-triage model's flag on a hard case (what routes it to the leads)."""
    return _score(rng, "escalation-triage", label, True)


def make_fact_checks(
    rng: random.Random,
    topic: Topic,
    language: str,
    created: datetime,
    enqueued: datetime,
    count: int,
    disagree: bool = False,
) -> list[FactCheck]:
    if not topic.claim or count <= 0:
        return []
    local = [f for f in FACT_CHECKERS if language in f[2]] or list(FACT_CHECKERS)
    others = [f for f in FACT_CHECKERS if f not in local]
    orgs = [rng.choice(local), *rng.sample(others, min(len(others), count - 1))][:count]
    first_rating = rng.choice(topic.ratings)
    checks = []
    for i, (org, domain, _) in enumerate(orgs):
        rating = first_rating
        if i > 0 and disagree:
            rating = rng.choice([r for r in RATING_LABELS if r not in (first_rating, "satire")])
        published = _between(rng, created + timedelta(minutes=20), enqueued)
        checks.append(
            FactCheck(
                rating=rating,
                rating_label=RATING_LABELS[rating],
                organisation=org,
                url=f"https://{domain}/checks/{topic.key}-{rng.randint(1000, 9999)}",
                claim=topic.claim,
                published_at=published,
            )
        )
    return checks


def make_reasons(
    rng: random.Random,
    scores: list[ClassifierScore],
    reports: Reports,
    fact_checks: list[FactCheck],
    created: datetime,
    enqueued: datetime,
    escalation: str | None = None,
) -> list[QueueReason]:
    reasons: list[QueueReason] = []
    if escalation:
        reasons.append(QueueReason(kind=QueueReasonKind.escalation, detail=escalation))
    for s in scores:
        if s.score >= s.threshold:
            detail = CLASSIFIER_DETAILS[s.model].format(score=s.score, threshold=s.threshold)
            reasons.append(
                QueueReason(kind=QueueReasonKind.classifier, detail=f"{s.model}: {detail}")
            )
            break
    if reports.total >= 3:
        hours = max(1, math.ceil((enqueued - created).total_seconds() / 3600))
        detail = f"{reports.total} reports in {hours}h"
        reasons.append(QueueReason(kind=QueueReasonKind.user_reports, detail=detail))
    if fact_checks:
        fc = fact_checks[0]
        detail = f"Rated {fc.rating_label.lower()} by {fc.organisation}"
        reasons.append(QueueReason(kind=QueueReasonKind.fact_check, detail=detail))
    if rng.random() < 0.04 or not reasons:
        reasons.append(QueueReason(kind=QueueReasonKind.appeal, detail=rng.choice(APPEAL_DETAILS)))
    return reasons
