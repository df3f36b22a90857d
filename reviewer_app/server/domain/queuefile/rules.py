"""The rules of a queue file the protocol's models cannot see on their own: one queue's actions
against its ratings, policies and author actions, routing against the rating scale,
escalation against the escalation queue, the appeals queue, each policy's ground and
category for statements of reasons."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from reviewer_app.server.domain.queuefile.errors import FileProblem, Loc

#: the queue escalate actions move items to (see verdicts.ESCALATION_QUEUE)
ESCALATION_QUEUE = "escalations"
#: the action kinds that decide appeals (appeals queues only)
APPEAL_KINDS = frozenset({"uphold", "reverse"})
# Rules of the models' own validators that ``semantic_problems`` finds too, with the line of
# the very entry at fault: the models' one-line summary of them is left out.
COVERED = ("action ids must be unique", "action keys must be unique", "queue ids must be unique")


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _duplicates(entries: list[Any], field: str, base: Loc, what: str) -> Iterator[FileProblem]:
    """Each entry whose ``field`` an earlier entry already has."""
    seen: dict[str, int] = {}
    for index, entry in enumerate(entries):
        value = _dict(entry).get(field)
        if not isinstance(value, str):
            continue
        if value in seen:
            first = FileProblem((*base, seen[value]), "").where
            yield FileProblem(
                (*base, index, field),
                f"{what} {value!r} is used twice (first by {first})",
                code="duplicate",
            )
        else:
            seen[value] = index


def semantic_problems(data: Any) -> list[FileProblem]:
    """The rules a maintainer expects and the models cannot check field by field (they
    look across a queue or across queues). Works on the raw document, so a field the models
    refuse elsewhere does not hide these."""
    queues = _list(_dict(data).get("queues"))
    problems = list(_duplicates(queues, "id", ("queues",), "queue id"))
    ids = {q.get("id") for q in map(_dict, queues)}
    # Fact-checks arrive on the service's one scale, whichever queue the post is in: a
    # routing or re-review rule may name a rating of any queue's scale.
    scale = {
        r.get("id")
        for q in map(_dict, queues)
        for r in map(_dict, _list(_dict(q.get("config")).get("ratings")))
    }
    escalation = next(
        (
            (i, _dict(q.get("config")))
            for i, q in enumerate(map(_dict, queues))
            if q.get("id") == ESCALATION_QUEUE
        ),
        None,
    )
    escalates = False
    appeals_queues: list[int] = []
    for qi, queue in enumerate(map(_dict, queues)):
        base: Loc = ("queues", qi, "config")
        config = _dict(queue.get("config"))
        actions = _list(config.get("actions"))
        if config.get("appeals") is True:
            appeals_queues.append(qi)
            problems += _appeals_queue_problems(qi, queue, config, len(appeals_queues) > 1)
        else:
            problems += [
                FileProblem(
                    (*base, "actions", ai, "kind"),
                    f"{_dict(a).get('kind')} decides an appeal: it belongs in the appeals "
                    "queue (appeals = true) only",
                    code="appeal_action_outside_appeals",
                )
                for ai, a in enumerate(actions)
                if _dict(a).get("kind") in APPEAL_KINDS
            ]
        problems += _duplicates(actions, "id", (*base, "actions"), "action id")
        problems += _duplicates(actions, "key", (*base, "actions"), "key")
        problems += _duplicates(_list(config.get("policies")), "code", (*base, "policies"), "code")
        problems += _statement_problems(config, base)
        ratings = [_dict(r) for r in _list(config.get("ratings"))]
        problems += _duplicates(ratings, "id", (*base, "ratings"), "rating")
        routing = _list(config.get("routing"))
        problems += _duplicates(routing, "name", (*base, "routing"), "rule name")
        kinds = {_dict(a).get("kind") for a in actions}
        reasons = _list(config.get("escalation_reasons"))
        problems += _duplicates(reasons, "id", (*base, "escalation_reasons"), "escalation reason")
        if reasons and "escalate" not in kinds:
            problems.append(
                FileProblem(
                    (*base, "escalation_reasons"),
                    "escalation reasons are given when escalating, and this queue has no "
                    "escalate action",
                    code="escalation_reasons_unused",
                )
            )
        for ai, action in enumerate(map(_dict, actions)):
            problems += _action_problems(
                (*base, "actions", ai), action, queue, config, ratings, ids
            )
        if "escalate" in kinds:
            escalates = True
        problems += _scale_problems(base, config, ratings, routing, kinds, scale)
    if escalates and escalation is not None and escalation[1].get("lead_only") is not True:
        problems.append(
            FileProblem(
                ("queues", escalation[0], "config", "lead_only"),
                f"the {ESCALATION_QUEUE!r} queue receives escalated items, which leads "
                "decide: give it lead_only = true",
                code="escalations_not_lead_only",
            )
        )
    return problems


def _action_problems(
    at: Loc,
    action: dict[str, Any],
    queue: dict[str, Any],
    config: dict[str, Any],
    ratings: list[dict[str, Any]],
    ids: set[Any],
) -> list[FileProblem]:
    """One action against its queue: the ratings, policies and author actions it needs,
    and where an escalation goes."""
    found: list[FileProblem] = []
    allowed = {a for a in _list(config.get("author_actions")) if isinstance(a, str)}
    kind = action.get("kind")
    label_kind = kind in ("label", "label_and_reduce")  # protocol.takes_rating
    if (action.get("requires_rating") is True or label_kind) and not ratings:
        found.append(
            FileProblem(
                (*at, "requires_rating" if "requires_rating" in action else "kind"),
                "this action needs a fact-check rating, and the queue has no "
                "[[queues.config.ratings]]",
                code="no_ratings",
            )
        )
    reducing = any(r.get("reduces") is True for r in ratings)
    if kind == "label_and_reduce" and ratings and not reducing:
        found.append(
            FileProblem(
                (*at, "kind"),
                "label_and_reduce gives a rating that reduces distribution, and none "
                "of this queue's ratings has reduces = true",
                code="no_reducing_rating",
            )
        )
    if action.get("requires_policy") is True and not _list(config.get("policies")):
        found.append(
            FileProblem(
                (*at, "requires_policy"),
                "this action needs a policy code, and the queue has no [[queues.config.policies]]",
                code="no_policies",
            )
        )
    author_action = action.get("author_action")
    if isinstance(author_action, str) and author_action not in allowed:
        found.append(
            FileProblem(
                (*at, "author_action"),
                f"author action {author_action!r} is not in this queue's "
                f"author_actions {sorted(allowed)}",
                code="author_action_not_allowed",
            )
        )
    if kind == "escalate" and queue.get("id") == ESCALATION_QUEUE:
        found.append(
            FileProblem(
                (*at, "kind"),
                f"an escalate action in the {ESCALATION_QUEUE!r} queue would send "
                "items back into the same queue",
                code="escalation_loop",
            )
        )
    elif kind == "escalate" and ESCALATION_QUEUE not in ids:
        found.append(
            FileProblem(
                (*at, "kind"),
                f"escalate moves the item to the {ESCALATION_QUEUE!r} queue, and the file has none",
                code="no_escalation_queue",
            )
        )
    return found


def _scale_problems(
    base: Loc,
    config: dict[str, Any],
    ratings: list[dict[str, Any]],
    routing: list[Any],
    kinds: set[Any],
    scale: set[Any],
) -> list[FileProblem]:
    """A queue's ratings against its actions, and its routing and re-review rules against
    the rating scale."""
    found: list[FileProblem] = []
    for ri, rating in enumerate(ratings):
        if rating.get("reduces") is True and "label_and_reduce" not in kinds:
            found.append(
                FileProblem(
                    (*base, "ratings", ri, "reduces"),
                    f"rating {rating.get('id')!r} reduces distribution, so it is given "
                    "with a label_and_reduce action, and this queue has none",
                    code="no_label_and_reduce",
                )
            )
    for ri, rule in enumerate(map(_dict, routing)):
        names = _list(_dict(rule.get("fact_check")).get("ratings"))
        for ni, name in enumerate(names):
            if isinstance(name, str) and name not in scale:
                found.append(
                    FileProblem(
                        (*base, "routing", ri, "fact_check", "ratings", ni),
                        f"rating {name!r} is in no queue's rating scale "
                        f"({', '.join(sorted(str(s) for s in scale)) or 'none'})",
                        code="unknown_rating",
                    )
                )
    if isinstance(config.get("rereview"), dict):
        rereview = config["rereview"]
        if rereview.get("new_reports") is None and not _list(rereview.get("new_ratings")):
            found.append(
                FileProblem(
                    (*base, "rereview"),
                    "a re-review rule needs new_reports or new_ratings (it would never "
                    "bring a post back)",
                    code="rereview_never",
                )
            )
        for ni, name in enumerate(_list(rereview.get("new_ratings"))):
            if isinstance(name, str) and name not in scale:
                found.append(
                    FileProblem(
                        (*base, "rereview", "new_ratings", ni),
                        f"rating {name!r} is in no queue's rating scale",
                        code="unknown_rating",
                    )
                )
    return found


def _appeals_queue_problems(
    qi: int, queue: dict[str, Any], config: dict[str, Any], second: bool
) -> list[FileProblem]:
    """An appeals queue (appeals.py) decides appeals and nothing else: its actions uphold
    or reverse (both present; an uphold says why), no signals route posts to it, and
    there is one."""
    base: Loc = ("queues", qi, "config")
    found: list[FileProblem] = []
    if second:
        found.append(
            FileProblem(
                (*base, "appeals"),
                "another queue is the appeals queue already: appeals go to one queue",
                code="appeals_queue_twice",
            )
        )
    if queue.get("id") == ESCALATION_QUEUE:
        found.append(
            FileProblem(
                (*base, "appeals"),
                f"the {ESCALATION_QUEUE!r} queue takes escalations; give appeals a queue "
                "of their own",
                code="appeals_in_escalations",
            )
        )
    actions = [_dict(a) for a in _list(config.get("actions"))]
    kinds = {a.get("kind") for a in actions}
    for ai, action in enumerate(actions):
        at: Loc = (*base, "actions", ai)
        if action.get("kind") not in APPEAL_KINDS:
            found.append(
                FileProblem(
                    (*at, "kind"),
                    f"an appeals queue decides appeals: its actions are of kind uphold or "
                    f"reverse, not {action.get('kind')!r}",
                    code="appeals_action_kind",
                )
            )
        if action.get("author_action") is not None:
            found.append(
                FileProblem(
                    (*at, "author_action"),
                    "an appeal's outcome acts on no account by itself (a reversal undoes "
                    "what the contested decision did)",
                    code="appeals_author_action",
                )
            )
        if action.get("kind") == "uphold" and action.get("requires_note") is not True:
            found.append(
                FileProblem(
                    (*at, "requires_note"),
                    "an upheld appeal is answered with a reason: give uphold actions "
                    "requires_note = true",
                    code="uphold_needs_note",
                )
            )
    for kind in sorted(APPEAL_KINDS - kinds):
        found.append(
            FileProblem(
                (*base, "actions"),
                f"an appeals queue needs an action of kind {kind!r}",
                code="appeals_needs_outcomes",
            )
        )
    for key in ("routing", "rereview"):
        if config.get(key):
            found.append(
                FileProblem(
                    (*base, key),
                    "appeals come from the platform (intake), not from signals: an appeals "
                    "queue has no routing or re-review rules",
                    code="appeals_routing",
                )
            )
    return found


def _statement_problems(config: dict[str, Any], base: Loc) -> list[FileProblem]:
    """Statements of reasons need every policy's ground and category (a policy without them
    would make statements the Transparency Database refuses), and ``default_policy`` must
    be one of the queue's policies."""
    problems = []
    policies = [_dict(p) for p in _list(config.get("policies"))]
    for pi, policy in enumerate(policies):
        at: Loc = (*base, "policies", pi)
        code = policy.get("code")
        terms, legal = policy.get("terms_clause"), policy.get("legal_ground")
        if not terms and not legal:
            problems.append(
                FileProblem(
                    at,
                    f"policy {code!r} needs its ground for statements of reasons: "
                    "terms_clause (the clause of your terms it enforces) or legal_ground "
                    "(the law that makes the content illegal)",
                    code="policy_without_ground",
                )
            )
        elif terms and legal:
            problems.append(
                FileProblem(
                    (*at, "legal_ground"),
                    f"policy {code!r} has both terms_clause and legal_ground: give one",
                    code="policy_two_grounds",
                )
            )
        if not policy.get("category"):
            problems.append(
                FileProblem(
                    at,
                    f"policy {code!r} needs its DSA statement category (category = "
                    '"illegal_or_harmful_speech", say)',
                    code="policy_without_category",
                )
            )
    default = config.get("default_policy")
    codes = {p.get("code") for p in policies}
    if isinstance(default, str) and default not in codes:
        problems.append(
            FileProblem(
                (*base, "default_policy"),
                f"default_policy {default!r} is not one of this queue's policies",
                code="unknown_default_policy",
            )
        )
    return problems
