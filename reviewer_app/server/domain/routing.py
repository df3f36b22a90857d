"""What a post's signals add up to, and the queue rules that read it.

``Summary`` is kept on the post (``posts.signal_summary``) and updated as signals come in,
so a signal costs the same however many came before it: the newest score per (model,
label), report counts by reason with the newest reporter notes, and the fact-checks (the
newest per organisation and article). An open item shows it; routing and re-review rules
read it.

Routing (``route``): queues are tried in their order, each queue's rules in theirs; a rule
matches when any one of its conditions holds, and the first match takes the post. The
reasons of the new item are the conditions of that rule that hold.

Re-review (``rereview_reasons``): a post decided ``keep`` in a queue comes back to that
queue when the queue's re-review rule is met by what came in after the reviewer's copy of
the item was served (what the decision did not see).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson

from reviewer_app.protocol import QueueConfig, QueueReasonKind, RereviewRule, RoutingRule

# What an item can show (the wire's caps on Item and Reports).
MAX_SCORES = 16
MAX_FACT_CHECKS = 16
MAX_NOTES = 20
MAX_REASONS_SHOWN = 32
MAX_REASONS_KEPT = 64
"""Report reasons counted apart; reports with further reasons count as ``other``."""
OTHER_REASON = "other"
MAX_ITEM_REASONS = 8
DETAIL_LENGTH = 200
OWN = "own"
"""A fact-check entry's mark: the organisation's own key sent it (not a platform's relay)."""


def _detail(text: str) -> str:
    return text if len(text) <= DETAIL_LENGTH else text[: DETAIL_LENGTH - 1] + "…"


def reason(kind: QueueReasonKind, detail: str, **parts: Any) -> dict[str, Any]:
    """A ``QueueReason`` as the item stores it; ``parts``: its ``subject``, ``score``,
    ``threshold`` or ``count`` (the figures and names a client words itself)."""
    found = {"kind": kind.value, "detail": _detail(detail)}
    if "subject" in parts and parts["subject"] is not None:
        parts["subject"] = _detail(parts["subject"])
    return found | parts


@dataclass
class Summary:
    """What a post's signals add up to (see the module's docstring)."""

    scores: list[dict[str, Any]] = field(default_factory=list)
    """``ClassifierScore`` documents, the newest per (model, label), oldest first."""
    reports_total: int = 0
    by_reason: dict[str, int] = field(default_factory=dict)
    notes: list[dict[str, Any]] = field(default_factory=list)
    """``ReporterNote`` documents, newest first."""
    fact_checks: list[dict[str, Any]] = field(default_factory=list)
    """``FactCheck`` documents without ``rating_label``, with ``received_at`` (epoch) and
    ``own`` (true when the organisation's own key sent it; absent: relayed, or stored before
    it was recorded), the newest per (organisation, url), oldest first."""

    @classmethod
    def load(cls, text: str | None) -> Summary:
        raw = orjson.loads(text) if text else {}
        reports = raw.get("reports", {})
        return cls(
            scores=raw.get("scores", []),
            reports_total=reports.get("total", 0),
            by_reason=reports.get("by_reason", {}),
            notes=reports.get("notes", []),
            fact_checks=raw.get("fact_checks", []),
        )

    def dump(self) -> str:
        # compact, keys in the order built (nothing hashes it: sorting them cost a post's
        # write of every batch that touched it), by orjson (the standard module took 6% of
        # a batch of signals)
        return orjson.dumps(
            {
                "scores": self.scores,
                "reports": {
                    "total": self.reports_total,
                    "by_reason": self.by_reason,
                    "notes": self.notes,
                },
                "fact_checks": self.fact_checks,
            },
            option=orjson.OPT_NON_STR_KEYS,
        ).decode()

    @property
    def empty(self) -> bool:
        return not (self.scores or self.reports_total or self.fact_checks)

    # -- adding signals ------------------------------------------------------------------

    def add_score(self, score: dict[str, Any]) -> None:
        key = (score["model"], score["label"])
        self.scores = [s for s in self.scores if (s["model"], s["label"]) != key]
        self.scores.append(score)
        del self.scores[:-MAX_SCORES]

    def add_report(self, reason_id: str, note: str, created_at: str) -> None:
        self.reports_total += 1
        if reason_id not in self.by_reason and len(self.by_reason) >= MAX_REASONS_KEPT:
            reason_id = OTHER_REASON
        self.by_reason[reason_id] = self.by_reason.get(reason_id, 0) + 1
        if note.strip():
            self.notes.insert(0, {"reason": reason_id, "note": note, "created_at": created_at})
            del self.notes[MAX_NOTES:]

    def add_fact_check(
        self, check: dict[str, Any], received_at: float, *, own: bool = False
    ) -> None:
        """Add a rating (``check``: a ``FactCheck`` document without ``rating_label``), the
        organisation's own (``own``: sent with its fact-checker key) or relayed by a
        platform. It replaces the entry of the same organisation and article, except that a
        relay never replaces the organisation's own rating: a platform cannot speak over the
        fact-checker (a relay showed "true" on an item its fact-checker had rated false).
        The same rating again keeps its entry and the time it first came (nothing new came:
        a re-sent rating brought a kept post back to review as "new")."""
        key = (check["organisation"], check["url"])
        entry = {**check, "received_at": received_at}
        if own:
            entry[OWN] = True
        for n, f in enumerate(self.fact_checks):
            if (f["organisation"], f["url"]) != key:
                continue
            if f.get(OWN) and not own:
                return
            if all(f.get(k) == v for k, v in check.items()):
                self.fact_checks[n] = {**f, **({OWN: True} if own else {})}
                return
            del self.fact_checks[n]
            break
        self.fact_checks.append(entry)
        while len(self.fact_checks) > MAX_FACT_CHECKS:
            self._evict_fact_check()

    def _evict_fact_check(self) -> None:
        """Drop the oldest entry of the organisation with the most: one organisation's many
        articles cannot push another's rating off the item (sixteen ratings from one left
        none of another's, whose reason the item still gave)."""
        held: dict[str, int] = {}
        for f in self.fact_checks:
            held[f["organisation"]] = held.get(f["organisation"], 0) + 1
        most = max(held.values())
        for n, f in enumerate(self.fact_checks):
            if held[f["organisation"]] == most:
                del self.fact_checks[n]
                return

    # -- as an item shows it ---------------------------------------------------------------

    @property
    def top_score(self) -> float:
        return max((float(s["score"]) for s in self.scores), default=0.0)

    def reports_document(self) -> dict[str, Any]:
        """``Reports``: counts by reason (the largest first) and the newest notes."""
        ranked = sorted(self.by_reason.items(), key=lambda kv: (-kv[1], kv[0]))
        return {
            "total": self.reports_total,
            "by_reason": [{"reason": r, "count": n} for r, n in ranked[:MAX_REASONS_SHOWN]],
            "notes": self.notes,
        }

    def fact_check_documents(self, labels: Mapping[str, str]) -> list[dict[str, Any]]:
        """``FactCheck`` documents, each rating named as ``labels`` (the queue's scale) say."""
        return [
            {
                "rating": f["rating"],
                "rating_label": labels.get(f["rating"], f["rating"]),
                "organisation": f["organisation"],
                "url": f["url"],
                "claim": f["claim"],
                "published_at": f["published_at"],
            }
            for f in self.fact_checks
        ]


# -- routing -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Earlier:
    """The newest decided item of a post in one queue (the queue it was first queued in)."""

    item_id: str
    decision_id: int
    action: str
    kept: bool
    """The decision of record was of kind ``keep``: the only one that may come back."""
    decided_at: float
    reports_then: int
    """Reports the reviewer's copy of the item showed (the post's total then)."""
    seen_at: float | None = None
    """When the reviewer's copy of the item was served (the claim of the lease the decision
    came by); None: not known, the decision's arrival. A rating that came after it is new
    though it came before the decision: the reviewer did not see it (a client holds a
    lease for minutes before its verdict arrives)."""

    @property
    def basis_at(self) -> float:
        """What came after this time is new to the decision."""
        return self.decided_at if self.seen_at is None else min(self.seen_at, self.decided_at)


@dataclass(frozen=True)
class Match:
    queue_id: str
    rule: str
    """The routing rule's name, or ``rereview``."""
    reasons: list[dict[str, Any]]
    rereview_of: Earlier | None = None


def words(code: str, labels: Mapping[str, str] | None = None) -> str:
    """A code in a reason's words: its label in the queue's configuration (a rating's
    "Partly false"), else the code with spaces ("self_harm" -> "self harm"). The reasons
    are read by reviewers ("Why queued"): they showed "partly_false"."""
    return (labels or {}).get(code) or code.replace("_", " ")


def rule_reasons(
    rule: RoutingRule,
    summary: Summary,
    inauthenticity: float,
    ratings: Mapping[str, str] | None = None,
) -> list[dict[str, Any]]:
    """The reasons (``QueueReason`` documents) of the rule's conditions that hold; empty when
    none does (the rule does not match). ``ratings``: the queue's rating labels by id."""
    found: list[dict[str, Any]] = []
    for condition in rule.classifier:
        best: dict[str, Any] | None = None
        for s in summary.scores:
            if condition.model is not None and s["model"] != condition.model:
                continue
            if condition.label is not None and s["label"] != condition.label:
                continue
            if s["score"] >= condition.min_score and (best is None or s["score"] > best["score"]):
                best = s
        if best is not None:
            subject = f"{best['model']} {best['model_version']}: {words(best['label'])}"
            found.append(
                reason(
                    QueueReasonKind.classifier,
                    f"{subject} {best['score']:.2f} (rule: {condition.min_score:.2f})",
                    subject=subject,
                    score=best["score"],
                    threshold=condition.min_score,
                )
            )
    for reports in rule.reports:
        count = (
            summary.reports_total
            if reports.reason is None
            else summary.by_reason.get(reports.reason, 0)
        )
        if count >= reports.min_count:
            what = f"{words(reports.reason)} " if reports.reason else ""
            found.append(
                reason(
                    QueueReasonKind.user_reports,
                    f"{count} {what}reports",
                    subject=words(reports.reason) if reports.reason else None,
                    count=count,
                )
            )
    if rule.fact_check is not None:
        wanted = set(rule.fact_check.ratings)
        for f in summary.fact_checks:
            if f["rating"] in wanted:
                rated = words(f["rating"], ratings)
                found.append(reason(QueueReasonKind.fact_check, f"{rated} ({f['organisation']})"))
                break
    if rule.account is not None and inauthenticity >= rule.account.min_score:
        found.append(
            reason(
                QueueReasonKind.classifier,
                f"account inauthenticity {inauthenticity:.2f} (rule: {rule.account.min_score:.2f})",
                score=inauthenticity,
                threshold=rule.account.min_score,
            )
        )
    return found[:MAX_ITEM_REASONS]


def route(
    order: Sequence[str],
    configs: Mapping[str, QueueConfig],
    summary: Summary,
    inauthenticity: float,
    earlier: Mapping[str, Earlier] | None = None,
) -> Match | None:
    """Where a post with no open item goes, if anywhere: queues are tried in ``order``.

    A queue that decided the post before (``earlier``) takes it again only by its re-review
    rule, after a ``keep``, with what came in since the reviewer's copy was served; any
    other queue by its routing rules (the first rule that matches). The first queue that
    takes it wins.
    """
    earlier = earlier or {}
    for queue_id in order:
        config = configs.get(queue_id)
        if config is None:
            continue
        before = earlier.get(queue_id)
        if before is not None:
            if before.kept and config.rereview is not None:
                new_ratings = [f for f in summary.fact_checks if f["received_at"] > before.basis_at]
                reasons = rereview_reasons(
                    config.rereview,
                    summary.reports_total - before.reports_then,
                    new_ratings,
                    config.rating_labels(),
                )
                if reasons:
                    return Match(queue_id, "rereview", reasons, rereview_of=before)
            continue
        for rule in config.routing:
            reasons = rule_reasons(rule, summary, inauthenticity, config.rating_labels())
            if reasons:
                return Match(queue_id, rule.name, reasons)
    return None


def rereview_reasons(
    rule: RereviewRule | None,
    new_reports: int,
    new_ratings: Sequence[dict[str, Any]],
    ratings: Mapping[str, str] | None = None,
) -> list[dict[str, Any]]:
    """Why a post decided ``keep`` comes back (empty: it does not): ``new_reports`` reports
    and the fact-checks ``new_ratings`` came in after the reviewer's copy was served."""
    if rule is None:
        return []
    found: list[dict[str, Any]] = []
    if rule.new_reports is not None and new_reports >= rule.new_reports:
        found.append(
            reason(
                QueueReasonKind.user_reports,
                f"{new_reports} new reports since kept",
                count=new_reports,
                since_kept=True,
            )
        )
    wanted = set(rule.new_ratings)
    for f in new_ratings:
        if f["rating"] in wanted:
            rated = f"{words(f['rating'], ratings)} ({f['organisation']})"
            found.append(
                reason(
                    QueueReasonKind.fact_check,
                    f"new rating {rated} since kept",
                    subject=rated,
                    since_kept=True,
                )
            )
            break
    return found
