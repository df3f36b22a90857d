"""The rules of a queue file the protocol's models cannot see on their own: one queue's actions
against its ratings, policies and author actions, routing against the rating scale,
escalation against the escalation queue, the appeals queue, each policy's ground and
category for statements of reasons.

They read the raw document, so a field the models refuse elsewhere hides none of them; a
value of the wrong type (a list where a name belongs, ``"yes"`` where a boolean does) is the
models' problem, and a rule that would need it to be of its type is left out rather than
misread it."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from reviewer_app.protocol import ESCALATION_QUEUE
from reviewer_app.protocol.statements import clean_text
from reviewer_app.server.domain.queuefile.errors import FileProblem, Loc

#: the action kinds that decide appeals (appeals queues only)
APPEAL_KINDS = frozenset({"uphold", "reverse"})
# Rules of the models' own validators that ``semantic_problems`` finds too, with the line of
# the very entry at fault: the models' one-line summary of them is left out.
COVERED = (
    "action ids must be unique",
    "action keys must be unique",
    "queue ids must be unique",
    "escalation reason ids must be unique",
)


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _tables(value: Any) -> list[dict[str, Any]] | None:
    """An array of tables (none when left out); ``None`` when it, or one of its entries, is
    of another type: what it holds is unknown."""
    if value is None:
        return []
    if isinstance(value, list) and all(isinstance(entry, dict) for entry in value):
        return value
    return None


def _strings(values: Iterable[Any]) -> set[str] | None:
    """The values, each a string; ``None`` when one is not (or is left out): unknown."""
    found: set[str] = set()
    for value in values:
        if not isinstance(value, str):
            return None
        found.add(value)
    return found


def _flag(table: dict[str, Any], key: str) -> bool | None:
    """A boolean field (false when left out); ``None`` when it is not a boolean."""
    value = table.get(key, False)
    return value if isinstance(value, bool) else None


def _kinds(config: dict[str, Any]) -> set[str] | None:
    """The kinds of a queue's actions; ``None`` when one is not known."""
    actions = _tables(config.get("actions"))
    return None if actions is None else _strings(a.get("kind") for a in actions)


@dataclass(frozen=True)
class _Across:
    """What one queue's rules need of the whole file (``None``: unknown, a value of the
    wrong type the models refuse)."""

    ids: set[str] | None
    """the queue ids"""
    scale: set[str] | None
    """the rating scale: every queue's rating ids (fact-checks arrive on the service's one
    scale, whichever queue the post is in: a routing or re-review rule may name a rating of
    any queue's scale)"""

    @classmethod
    def of(cls, queues: list[Any]) -> _Across:
        entries = _tables(queues)
        if entries is None:
            return cls(None, None)
        configs = [q.get("config") for q in entries]
        ratings = [_tables(c.get("ratings")) if isinstance(c, dict) else None for c in configs]
        scale = (
            None
            if any(r is None for r in ratings)
            else _strings(r.get("id") for rs in ratings for r in rs or ())
        )
        return cls(_strings(q.get("id") for q in entries), scale)


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
    across = _Across.of(queues)
    escalates = False
    appeals_queues = 0
    for qi, queue in enumerate(map(_dict, queues)):
        config = _dict(queue.get("config"))
        appeals = _flag(config, "appeals")
        if appeals:
            appeals_queues += 1
            problems += _appeals_queue_problems(qi, queue, config, appeals_queues > 1)
        elif appeals is False:
            problems += _appeal_actions_outside(("queues", qi, "config"), config)
        problems += _queue_problems(qi, queue, config, across)
        escalates = escalates or any(
            _dict(a).get("kind") == "escalate" for a in _list(config.get("actions"))
        )
    # the escalation queue's place and its lead_only (None: unknown)
    escalation = next(
        (
            (i, _flag(q["config"], "lead_only") if isinstance(q.get("config"), dict) else None)
            for i, q in enumerate(map(_dict, queues))
            if q.get("id") == ESCALATION_QUEUE
        ),
        None,
    )
    if escalates and escalation is not None and escalation[1] is False:
        problems.append(
            FileProblem(
                ("queues", escalation[0], "config", "lead_only"),
                f"the {ESCALATION_QUEUE!r} queue receives escalated items, which leads "
                "decide: give it lead_only = true",
                code="escalations_not_lead_only",
            )
        )
    return problems


def _appeal_actions_outside(base: Loc, config: dict[str, Any]) -> list[FileProblem]:
    """Actions that decide appeals in a queue that takes none."""
    return [
        FileProblem(
            (*base, "actions", ai, "kind"),
            f"{_dict(a).get('kind')} decides an appeal: it belongs in the appeals "
            "queue (appeals = true) only",
            code="appeal_action_outside_appeals",
        )
        for ai, a in enumerate(_list(config.get("actions")))
        if isinstance(_dict(a).get("kind"), str) and _dict(a)["kind"] in APPEAL_KINDS
    ]


def _queue_problems(
    qi: int, queue: dict[str, Any], config: dict[str, Any], across: _Across
) -> list[FileProblem]:
    """One queue's rules: names used twice, statements of reasons, escalation reasons, its
    actions and its ratings."""
    base: Loc = ("queues", qi, "config")
    actions = _list(config.get("actions"))
    problems = list(_duplicates(actions, "id", (*base, "actions"), "action id"))
    problems += _duplicates(actions, "key", (*base, "actions"), "key")
    problems += _duplicates(_list(config.get("policies")), "code", (*base, "policies"), "code")
    problems += _statement_problems(config, base)
    problems += _duplicates(_list(config.get("ratings")), "id", (*base, "ratings"), "rating")
    ratings = _tables(config.get("ratings"))
    routing = _list(config.get("routing"))
    problems += _duplicates(routing, "name", (*base, "routing"), "rule name")
    kinds = _kinds(config)
    reasons = _list(config.get("escalation_reasons"))
    problems += _duplicates(reasons, "id", (*base, "escalation_reasons"), "escalation reason")
    if reasons and kinds is not None and "escalate" not in kinds:
        problems.append(
            FileProblem(
                (*base, "escalation_reasons"),
                "escalation reasons are given when escalating, and this queue has no "
                "escalate action",
                code="escalation_reasons_unused",
            )
        )
    for ai, action in enumerate(actions):
        if isinstance(action, dict):
            at: Loc = (*base, "actions", ai)
            problems += _action_problems(at, action, queue, config, ratings, across.ids)
    problems += _scale_problems(base, config, ratings, routing, kinds, across.scale)
    return problems


def _action_problems(
    at: Loc,
    action: dict[str, Any],
    queue: dict[str, Any],
    config: dict[str, Any],
    ratings: list[dict[str, Any]] | None,
    ids: set[str] | None,
) -> list[FileProblem]:
    """One action against its queue: the ratings, policies and author actions it needs,
    and where an escalation goes."""
    found: list[FileProblem] = []
    kind = action.get("kind")
    label_kind = kind in ("label", "label_and_reduce")  # protocol.takes_rating
    if (action.get("requires_rating") is True or label_kind) and ratings == []:
        found.append(
            FileProblem(
                (*at, "requires_rating" if "requires_rating" in action else "kind"),
                "this action needs a fact-check rating, and the queue has no "
                "[[queues.config.ratings]]",
                code="no_ratings",
            )
        )
    reduces = [_flag(r, "reduces") for r in ratings or ()]
    if kind == "label_and_reduce" and reduces and not any(reduces) and None not in reduces:
        found.append(
            FileProblem(
                (*at, "kind"),
                "label_and_reduce gives a rating that reduces distribution, and none "
                "of this queue's ratings has reduces = true",
                code="no_reducing_rating",
            )
        )
    if action.get("requires_policy") is True and _tables(config.get("policies")) == []:
        found.append(
            FileProblem(
                (*at, "requires_policy"),
                "this action needs a policy code, and the queue has no [[queues.config.policies]]",
                code="no_policies",
            )
        )
    found += _author_action_problems(at, action, config)
    if kind == "escalate" and queue.get("id") == ESCALATION_QUEUE:
        found.append(
            FileProblem(
                (*at, "kind"),
                f"an escalate action in the {ESCALATION_QUEUE!r} queue would send "
                "items back into the same queue",
                code="escalation_loop",
            )
        )
    elif kind == "escalate" and ids is not None and ESCALATION_QUEUE not in ids:
        found.append(
            FileProblem(
                (*at, "kind"),
                f"escalate moves the item to the {ESCALATION_QUEUE!r} queue, and the file has none",
                code="no_escalation_queue",
            )
        )
    return found


def _author_action_problems(
    at: Loc, action: dict[str, Any], config: dict[str, Any]
) -> list[FileProblem]:
    """An action's author action must be one its queue allows."""
    author_action = action.get("author_action")
    listed = config.get("author_actions", [])
    allowed = _strings(listed) if isinstance(listed, list) else None
    if not isinstance(author_action, str) or allowed is None or author_action in allowed:
        return []
    return [
        FileProblem(
            (*at, "author_action"),
            f"author action {author_action!r} is not in this queue's "
            f"author_actions {sorted(allowed)}",
            code="author_action_not_allowed",
        )
    ]


def _scale_problems(
    base: Loc,
    config: dict[str, Any],
    ratings: list[dict[str, Any]] | None,
    routing: list[Any],
    kinds: set[str] | None,
    scale: set[str] | None,
) -> list[FileProblem]:
    """A queue's ratings against its actions, and its routing and re-review rules against
    the rating scale."""
    found: list[FileProblem] = []
    for ri, rating in enumerate(ratings or ()):
        if rating.get("reduces") is True and kinds is not None and "label_and_reduce" not in kinds:
            found.append(
                FileProblem(
                    (*base, "ratings", ri, "reduces"),
                    f"rating {rating.get('id')!r} reduces distribution, so it is given "
                    "with a label_and_reduce action, and this queue has none",
                    code="no_label_and_reduce",
                )
            )
    known = scale if scale is not None else set()
    for ri, rule in enumerate(map(_dict, routing)):
        names = _list(_dict(rule.get("fact_check")).get("ratings"))
        for ni, name in enumerate(names):
            if scale is not None and isinstance(name, str) and name not in scale:
                found.append(
                    FileProblem(
                        (*base, "routing", ri, "fact_check", "ratings", ni),
                        f"rating {name!r} is in no queue's rating scale "
                        f"({', '.join(sorted(known)) or 'none'})",
                        code="unknown_rating",
                    )
                )
    rereview = config.get("rereview")
    if isinstance(rereview, dict):
        new_ratings = rereview.get("new_ratings")
        if rereview.get("new_reports") is None and new_ratings in (None, []):
            found.append(
                FileProblem(
                    (*base, "rereview"),
                    "a re-review rule needs new_reports or new_ratings (it would never "
                    "bring a post back)",
                    code="rereview_never",
                )
            )
        for ni, name in enumerate(_list(new_ratings)):
            if scale is not None and isinstance(name, str) and name not in scale:
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
    for ai, action in enumerate(_list(config.get("actions"))):
        if isinstance(action, dict):
            found += _appeal_action_problems((*base, "actions", ai), action)
    kinds = _kinds(config)
    for kind in sorted(APPEAL_KINDS - kinds) if kinds is not None else ():
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


def _appeal_action_problems(at: Loc, action: dict[str, Any]) -> list[FileProblem]:
    """One action of the appeals queue: an appeal's outcome, a reason for an uphold."""
    found: list[FileProblem] = []
    kind = action.get("kind")
    if isinstance(kind, str) and kind not in APPEAL_KINDS:
        found.append(
            FileProblem(
                (*at, "kind"),
                f"an appeals queue decides appeals: its actions are of kind uphold or "
                f"reverse, not {kind!r}",
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
    if kind == "uphold" and _flag(action, "requires_note") is False:
        found.append(
            FileProblem(
                (*at, "requires_note"),
                "an upheld appeal is answered with a reason: give uphold actions "
                "requires_note = true",
                code="uphold_needs_note",
            )
        )
    return found


def _statement_problems(config: dict[str, Any], base: Loc) -> list[FileProblem]:
    """Statements of reasons need every policy's ground and category (a policy without them
    would make statements the Transparency Database refuses), and ``default_policy`` must
    be one of the queue's policies."""
    problems = []
    policies = _list(config.get("policies"))
    for pi, policy in enumerate(policies):
        if not isinstance(policy, dict):
            continue
        at: Loc = (*base, "policies", pi)
        code = policy.get("code")
        terms, legal = policy.get("terms_clause"), policy.get("legal_ground")
        typed = all(v is None or isinstance(v, str) for v in (terms, legal))
        for name, value in (("terms_clause", terms), ("legal_ground", legal)):
            if isinstance(value, str) and value and not clean_text(value):
                # only spaces or invisible characters: a statement "our terms of service, ."
                # that the Transparency Database refuses, with every export of its window
                problems.append(
                    FileProblem(
                        (*at, name),
                        f"policy {code!r}: {name} is blank (only spaces or invisible "
                        "characters): give its words, or leave it out",
                        code="blank_ground",
                    )
                )
        if typed and not terms and not legal:
            problems.append(
                FileProblem(
                    at,
                    f"policy {code!r} needs its ground for statements of reasons: "
                    "terms_clause (the clause of your terms it enforces) or legal_ground "
                    "(the law that makes the content illegal)",
                    code="policy_without_ground",
                )
            )
        elif typed and terms and legal:
            problems.append(
                FileProblem(
                    (*at, "legal_ground"),
                    f"policy {code!r} has both terms_clause and legal_ground: give one",
                    code="policy_two_grounds",
                )
            )
        if policy.get("category") in (None, ""):
            problems.append(
                FileProblem(
                    at,
                    f"policy {code!r} needs its DSA statement category (category = "
                    '"illegal_or_harmful_speech", say)',
                    code="policy_without_category",
                )
            )
    default = config.get("default_policy")
    tables = _tables(config.get("policies"))
    codes = None if tables is None else _strings(p.get("code") for p in tables)
    if isinstance(default, str) and codes is not None and default not in codes:
        problems.append(
            FileProblem(
                (*base, "default_policy"),
                f"default_policy {default!r} is not one of this queue's policies",
                code="unknown_default_policy",
            )
        )
    return problems
