"""A queue configured anew on the server while the window shows it: whether what deciding
uses changed (the verdict bar follows only then), the draft verdict kept through it, and
the words that tell the reviewer what changed."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence

from reviewer_app.protocol import Queue, QueueConfig

from .i18n import translate
from .plain import isolate
from .verdict_bar import VerdictBar

#: a queue's settings no part of a verdict uses: a change to them leaves the bar as it is
NOT_DECIDING = frozenset({"priority", "sla_minutes", "lead_only", "routing", "rereview", "breaks"})

#: modifiers that say nothing about which key was pressed (as ``keys`` ignores them)
_IGNORED = Qt.KeyboardModifier.KeypadModifier | Qt.KeyboardModifier.GroupSwitchModifier


def deciding_changed(old: QueueConfig, new: QueueConfig) -> bool:
    """Whether ``new`` changes what deciding uses (actions, their keys, policies, ratings,
    the statement's settings), not only the queue's order, deadlines or breaks."""
    return old.model_dump(exclude=set(NOT_DECIDING)) != new.model_dump(exclude=set(NOT_DECIDING))


def chord(seq: QKeySequence | None) -> tuple[int, int] | None:
    """A one-key sequence as (key, modifiers), comparable with a key press's."""
    if seq is None or seq.isEmpty():
        return None
    combo = seq[0]  # type: ignore[index]  # QKeySequence.operator[] (missing in the stubs)
    mods = combo.keyboardModifiers() & ~_IGNORED
    return (int(combo.key().value), int(mods.value))


def _names(labels: list[str]) -> str:
    return ", ".join(isolate(label) for label in labels)


def actions_change(queue: Queue, old: QueueConfig) -> str:
    """What the status line says of the actions added to or removed from ``queue`` (its
    name as the picker shows it), or "" when they are the same."""
    before = {a.id: a.label for a in old.actions}
    after = {a.id: a.label for a in queue.config.actions}
    added = [label for action_id, label in after.items() if action_id not in before]
    removed = [label for action_id, label in before.items() if action_id not in after]
    parts = []
    if added:
        parts.append(translate("MainWindow", "added {actions}").format(actions=_names(added)))
    if removed:
        parts.append(translate("MainWindow", "removed {actions}").format(actions=_names(removed)))
    if not parts:
        return ""
    return translate(
        "MainWindow", "The actions of {queue} changed on the server: {changes}."
    ).format(queue=isolate(queue.name), changes="; ".join(parts))


def keep_draft(bar: VerdictBar, config: QueueConfig, keys: dict[str, str]) -> str:
    """Show ``config`` in the bar keeping the draft verdict (the note, the policies ticked,
    a rating the reviewer chose) where it is still valid; returns what the status line
    says of what was taken off it (a policy or rating removed), or ""."""
    old = bar.config
    ticked = bar.selected_policies()
    rating = bar.selected_rating()
    chosen = rating if rating is not None and rating != bar.preset else None
    marked = bar.marked
    bar.set_config(config, keys=keys)  # the note stays; the item and its fact-checks too
    codes = {p.code for p in config.policies}
    for index in range(bar.policies.count()):
        row = bar.policies.item(index)
        if row.data(Qt.ItemDataRole.UserRole) in ticked:
            row.setCheckState(Qt.CheckState.Checked)
    bar.policies.setCurrentRow(0 if bar.policies.count() else -1)
    policy_names = {p.code: p.label for p in old.policies} if old else {}
    lost = [
        f"{code} — {isolate(policy_names.get(code, code))}" for code in ticked if code not in codes
    ]
    if chosen is not None:
        found = bar.rating.findData(chosen)
        if found >= 0:
            bar.rating.setCurrentIndex(found)
        else:
            ratings = old.rating_labels() if old else {}
            lost.append(isolate(ratings.get(chosen, chosen)))
    bar.mark(marked if marked in bar.buttons else None)
    if not lost:
        return ""
    return translate(
        "MainWindow", "No longer in this queue, so taken off your verdict: {what}."
    ).format(what=", ".join(lost))


def removed_keys(
    old: Queue, new: Queue, keys: dict[str, QKeySequence | None]
) -> dict[tuple[int, int], tuple[str, str]]:
    """The keys (``keys``: each old action's) of the actions ``new`` no longer has, each
    with its text and the removed action's label: such a key says it decides nothing."""
    kept = {a.id for a in new.config.actions}
    gone: dict[tuple[int, int], tuple[str, str]] = {}
    for action in old.config.actions:
        seq = keys.get(action.id)
        held = chord(seq)
        if action.id not in kept and seq is not None and held is not None:
            gone[held] = (seq.toString(QKeySequence.SequenceFormat.NativeText), action.label)
    return gone
