"""The verdict bar, built from the queue's decision config: a button per action with its
key, policy codes and fact-check ratings selectable by keyboard, a note, and an inline
prompt when the chosen action needs something more (never a modal dialog).

What a verdict needs is the protocol's rule (``verdict_problems``), the same one the
service applies. The item on screen (``set_item``) brings its fact-checks: the rating starts
at the fact-checkers' (``preset_rating``: the most severe they gave), so a label is one key;
another rating needs a note; with no fact-check at all the label actions are disabled,
saying why."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeyEvent, QResizeEvent
from PySide6.QtWidgets import (
    QComboBox,
    QGridLayout,
    QHBoxLayout,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from reviewer_app.protocol import (
    LABEL_KINDS,
    UPHELD,
    ActionConfig,
    ActionKind,
    DraftVerdict,
    Item,
    QueueConfig,
    VerdictProblem,
    draft_statement,
    lift,
    preset_rating,
    restate,
    restrictive,
    takes_rating,
    verdict_problems,
)

from .i18n import translate
from .plain import ElidedButton, bounded, clean, isolate, label, named, set_text, tooltip
from .review import NEEDS, Selection
from .theme import Tone, set_tone

#: Actions that take a post down or act on its author: their buttons look different
DESTRUCTIVE = frozenset({ActionKind.remove, ActionKind.author})
#: ... in red type with a red edge, in light and dark palettes alike (theme.Tone.destructive)

#: What the reviewer can give for each problem code of the rule (the rest are refusals or
#: a config the reviewer cannot change).
NEED_OF = {
    "policy_required": "policy",
    "unknown_policy": "policy",
    "rating_required": "rating",
    "unknown_rating": "rating",
    "rating_needs_reduce": "rating",
    "rating_does_not_reduce": "rating",
    "note_required": "note",
    "rating_not_given": "note",
}


class NoteEdit(QPlainTextEdit):
    """The note; Ctrl+Enter submits instead of adding a line."""

    submit_requested = Signal()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and (
            event.modifiers() & Qt.KeyboardModifier.ControlModifier
        ):
            self.submit_requested.emit()
            return
        super().keyPressEvent(event)


class PolicyList(QListWidget):
    """Policy codes as checkable rows: arrows move, Space or Enter ticks."""

    def keyPressEvent(self, event: QKeyEvent) -> None:
        item = self.currentItem()
        if (
            item is not None
            and event.key() in (Qt.Key.Key_Space, Qt.Key.Key_Return, Qt.Key.Key_Enter)
            and not event.modifiers() & Qt.KeyboardModifier.ControlModifier
        ):
            checked = item.checkState() == Qt.CheckState.Checked
            item.setCheckState(Qt.CheckState.Unchecked if checked else Qt.CheckState.Checked)
            return
        super().keyPressEvent(event)


class VerdictBar(QWidget):
    """The verdict being made: choosing an action (its key or button) pushes the bar's
    draft for it (``drafted``, a ``review.Selection``) to the review controller."""

    drafted = Signal(object)  # Selection
    submit_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        named(self, "verdictBar", translate("VerdictBar", "Verdict"))
        self.config: QueueConfig | None = None
        self.item: Item | None = None
        #: the ratings fact-checkers gave the item on screen, and the one the rating starts at
        self.given: frozenset[str] = frozenset()
        self.preset: str | None = None
        self._tooltips: dict[str, str] = {}
        #: the action chosen last (bold), whose statement of reasons is shown
        self.marked: str | None = None
        outer = QVBoxLayout(self)
        self.prompt = label("")
        named(self.prompt, "verdictPrompt", translate("VerdictBar", "What the verdict still needs"))
        set_tone(self.prompt, Tone.prompt)
        self.prompt.hide()
        #: the action buttons, in as many rows as the bar's width needs (``_arrange``)
        self.buttons_row = QGridLayout()
        self._columns = 0
        self.buttons: dict[str, QPushButton] = {}
        outer.addWidget(self.prompt)
        outer.addLayout(self.buttons_row)
        outer.addLayout(self._build_details())

    def _build_fields(self) -> None:
        """The policy codes, the rating with what the fact-checkers said, and the note."""
        self.policies = PolicyList()
        named(
            self.policies,
            "policyCodes",
            translate("VerdictBar", "Policy codes (P; arrows, Space to tick)"),
        )
        # long policy names wrap instead of scrolling sideways
        self.policies.setWordWrap(True)
        self.policies.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        line = self.policies.fontMetrics().lineSpacing()
        self.policies.setMinimumHeight(line * 4)
        self.policies.setMaximumHeight(line * 7)
        self.rating = bounded(QComboBox())
        named(self.rating, "rating", translate("VerdictBar", "Fact-check rating (R)"))
        self.note = NoteEdit()
        named(self.note, "note", translate("VerdictBar", "Note (N; Ctrl+Enter submits)"))
        self.note.setPlaceholderText(
            translate("VerdictBar", "Note (N to write, Ctrl+Enter to submit)")
        )
        self.note.setMaximumHeight(self.note.fontMetrics().lineSpacing() * 3 + 12)
        self.note.setTabChangesFocus(True)
        self.note.submit_requested.connect(self.submit_requested)
        self.policy_label = label(translate("VerdictBar", "Policy codes (P):"), wrap=False)
        self.rating_label = label(translate("VerdictBar", "Rating (R):"), wrap=False)
        self.fact_hint = label("")
        named(
            self.fact_hint,
            "factCheckHint",
            translate("VerdictBar", "What the fact-checkers said, for the label actions"),
        )
        self.fact_hint.setMaximumWidth(320)
        self.fact_hint.hide()
        self.rating_box = QVBoxLayout()
        self.rating_box.addWidget(self.rating)
        self.rating_box.addWidget(self.fact_hint)
        self.rating_box.addStretch(1)

    def _build_statement(self) -> None:
        """The statement of reasons the author will read (read-only, three lines)."""
        # the statement of reasons the author will read for the chosen action, policy codes
        # and note (protocol.draft_statement: the words the service will send), under the
        # note: the bar stays low enough for the post above to keep its space at 1280 x 800
        self.statement_label = label(
            translate("VerdictBar", "What the author will read (statement of reasons):"),
            wrap=False,
        )
        self.statement = QPlainTextEdit()
        named(
            self.statement,
            "statementPreview",
            translate("VerdictBar", "What the author will read (statement of reasons)"),
        )
        self.statement.setReadOnly(True)
        # three lines, scrolled for the rest
        lines = self.statement.fontMetrics().lineSpacing() * 3
        self.statement.setMaximumHeight(lines + 2 * self.statement.frameWidth() + 8)
        self.statement.setFocusPolicy(Qt.FocusPolicy.ClickFocus)

    def _build_details(self) -> QHBoxLayout:
        """Three columns, each packed from the top: policy codes, rating, note and the
        statement of reasons."""
        self._build_fields()
        self._build_statement()
        details = QHBoxLayout()
        policy_column = QVBoxLayout()
        policy_column.addWidget(self.policy_label)
        policy_column.addWidget(self.policies)
        policy_column.addStretch(1)
        rating_column = QVBoxLayout()
        rating_column.addWidget(self.rating_label)
        rating_column.addLayout(self.rating_box)
        rating_column.addStretch(1)
        note_column = QVBoxLayout()
        note_column.addWidget(label(translate("VerdictBar", "Note (N):"), wrap=False))
        note_column.addWidget(self.note)
        note_column.addWidget(self.statement_label)
        note_column.addWidget(self.statement)
        note_column.addStretch(1)
        details.addLayout(policy_column, 3)
        details.addLayout(rating_column, 0)
        details.addLayout(note_column, 4)
        self.policies.itemChanged.connect(lambda _item: self.show_statement())
        self.note.textChanged.connect(self.show_statement)
        return details

    def set_config(self, config: QueueConfig | None, *, keys: dict[str, str] | None = None) -> None:
        """Show ``config``'s actions; ``keys``: each action's key where the reviewer gave
        it another (``ui.keys``), else the queue's."""
        self.config = config
        for button in self.buttons.values():
            button.deleteLater()
        self.buttons = {}
        self._tooltips = {}
        while self.buttons_row.count():
            self.buttons_row.takeAt(0)
        self.policies.clear()
        self.rating.clear()
        if config is None:
            return
        for action in config.actions:
            shown_key = keys.get(action.id, "") if keys is not None else (action.key or "")
            key = f"{shown_key} " if shown_key else ""
            extra = "E" if action.kind.value == "escalate" else ""
            name = isolate(action.label)
            text = f"{key}{name}" + (f"  ({extra})" if extra else "")
            button = ElidedButton(text)  # elided; a "&" is shown, not a mnemonic
            button.setObjectName(f"action:{action.id}")
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # keys decide; focus stays put
            needs = [
                word
                for flag, word in (
                    (action.requires_policy, translate("VerdictBar", "a policy code")),
                    (action.requires_rating, translate("VerdictBar", "a rating")),
                    (action.requires_note, translate("VerdictBar", "a note")),
                )
                if flag
            ]
            button.setAccessibleName(
                translate("VerdictBar", "{action}, key {key}").format(
                    action=name, key=shown_key or translate("VerdictBar", "none")
                )
                + (
                    translate("VerdictBar", ", needs {what}").format(
                        what=translate("VerdictBar", " and ").join(needs)
                    )
                    if needs
                    else ""
                )
            )
            self._tooltips[action.id] = tooltip(button.accessibleName())  # tooltips guess HTML
            button.setToolTip(self._tooltips[action.id])
            button.clicked.connect(lambda _=False, a=action.id: self.choose(a))
            # what takes a post down or acts on its author looks unlike what does not
            destructive = action.kind in DESTRUCTIVE or action.author_action is not None
            button.setProperty("destructive", destructive)
            if destructive:
                set_tone(button, Tone.destructive)
            self.buttons[action.id] = button
        self._columns = 0
        self._arrange()
        for policy in config.policies:
            row = QListWidgetItem(f"{policy.code} — {isolate(policy.label)}")
            row.setData(Qt.ItemDataRole.UserRole, policy.code)
            row.setFlags(row.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            row.setCheckState(Qt.CheckState.Unchecked)
            self.policies.addItem(row)
        self.rating.addItem(translate("VerdictBar", "(no rating)"), None)
        for rating in config.ratings:
            self.rating.addItem(isolate(rating.label), rating.id)
        has_policies, has_ratings = bool(config.policies), bool(config.ratings)
        self.policies.setVisible(has_policies)
        self.policy_label.setVisible(has_policies)
        self.rating.setVisible(has_ratings)
        self.rating_label.setVisible(has_ratings)
        self._show_fact_checks()
        self.rating.setCurrentIndex(max(0, self.rating.findData(self.preset)))

    def _arrange(self) -> None:
        """The buttons in rows of as many as fit the bar's width at their whole text (one
        row when they fit; eight long labels at 1280 px take two rows, none elided)."""
        buttons = list(self.buttons.values())
        if not buttons:
            return
        spacing = max(self.buttons_row.horizontalSpacing(), 8)  # -1: the style's
        widest = max(b.sizeHint().width() for b in buttons) + spacing
        room = max(self.width() - 40, widest)  # the bar's margins
        columns = max(1, min(len(buttons), room // widest))
        rows = -(-len(buttons) // columns)
        columns = -(-len(buttons) // rows)  # balanced rows: 4 + 4, not 7 + 1
        if columns == self._columns:
            return
        self._columns = columns
        while self.buttons_row.count():
            self.buttons_row.takeAt(0)
        for column in range(self.buttons_row.columnCount()):
            self.buttons_row.setColumnStretch(column, 0)
        for index, button in enumerate(buttons):
            self.buttons_row.addWidget(button, index // columns, index % columns)
        for column in range(columns):
            self.buttons_row.setColumnStretch(column, 1)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._arrange()

    def set_item(self, item: Item | None) -> None:
        """The item on screen, and a fresh verdict for it: its fact-checks preset the
        rating and decide whether the label actions can be used."""
        self.item = item
        self._show_fact_checks()
        self.reset()

    def _show_fact_checks(self) -> None:
        config, item = self.config, self.item
        self.given = frozenset(f.rating for f in item.fact_checks) if item else frozenset()
        self.preset = preset_rating(config, self.given) if config else None
        if config is None:
            self.fact_hint.hide()
            return
        for index, rating in enumerate(config.ratings, start=1):
            name = isolate(rating.label)
            self.rating.setItemText(
                index,
                translate("VerdictBar", "{rating} (fact-checkers')").format(rating=name)
                if rating.id in self.given
                else name,
            )
        labels = [a for a in config.actions if a.kind in LABEL_KINDS]
        for action in labels:
            button = self.buttons[action.id]
            why = self.refusal(action) if item is not None else None
            button.setEnabled(why is None)
            button.setToolTip(tooltip(why) if why else self._tooltips[action.id])
            button.setAccessibleDescription(why or "")
        if not labels or item is None:
            self.fact_hint.hide()
            return
        if not self.given:
            hint = translate(
                "VerdictBar", "No fact-check on this post: the label actions need one."
            )
        else:
            names = config.rating_labels()
            newest_first = sorted(item.fact_checks, key=lambda f: f.published_at, reverse=True)
            rated = ", ".join(
                dict.fromkeys(isolate(names.get(f.rating, f.rating_label)) for f in newest_first)
            )
            hint = (
                translate(
                    "VerdictBar",
                    "Fact-checkers rated this post: {ratings}. A label starts with {preset}; "
                    "another rating needs a note.",
                ).format(ratings=rated, preset=isolate(names[self.preset]))
                if self.preset
                else translate(
                    "VerdictBar",
                    "Fact-checkers rated this post: {ratings} (none of them on this queue's "
                    "scale). A label needs a rating and a note.",
                ).format(ratings=rated)
            )
        set_text(self.fact_hint, hint)
        self.fact_hint.show()

    def reset(self) -> None:
        for index in range(self.policies.count()):
            item = self.policies.item(index)
            if item.checkState() != Qt.CheckState.Unchecked:
                item.setCheckState(Qt.CheckState.Unchecked)
        self.policies.setCurrentRow(0 if self.policies.count() else -1)
        self.rating.setCurrentIndex(max(0, self.rating.findData(self.preset)))
        if not self.note.document().isEmpty():  # clearing an empty note still lays it out
            self.note.clear()
        self.ask("")
        self.show_statement()

    def selected_policies(self) -> list[str]:
        return [
            self.policies.item(i).data(Qt.ItemDataRole.UserRole)
            for i in range(self.policies.count())
            if self.policies.item(i).checkState() == Qt.CheckState.Checked
        ]

    def selected_rating(self) -> str | None:
        value = self.rating.currentData()
        return str(value) if value else None

    def note_text(self) -> str:
        return self.note.toPlainText().strip()

    def draft(self, action: ActionConfig) -> DraftVerdict:
        """The verdict the bar holds for ``action``. The preset rating goes only with the
        actions that apply a rating; a rating the reviewer chose goes with any action."""
        rating = self.selected_rating()
        if not takes_rating(action) and rating == self.preset:
            rating = None
        return DraftVerdict(
            action=action.id,
            policies=self.selected_policies(),
            rating=rating,
            note=self.note_text() or None,
            author_action=action.author_action,
        )

    def problems(
        self, action: ActionConfig, draft: DraftVerdict | None = None
    ) -> list[VerdictProblem]:
        """Why the bar's verdict for ``action`` (``draft``, when it is already made) cannot
        be recorded (the service's rule, with the fact-checks of the item on screen)."""
        if self.config is None:
            return []
        given = self.given if self.item is not None else None
        return verdict_problems(self.config, draft or self.draft(action), given)

    def missing(
        self, action: ActionConfig, problems: list[VerdictProblem] | None = None
    ) -> list[str]:
        """What the reviewer still has to give: "policy", "rating", "note" (``problems``:
        ``problems(action)``, when already known)."""
        found = self.problems(action) if problems is None else problems
        codes = {NEED_OF.get(p.code) for p in found}
        return [need for need in NEEDS if need in codes]

    def refusal(
        self, action: ActionConfig, problems: list[VerdictProblem] | None = None
    ) -> str | None:
        """Why ``action`` cannot be used on this item at all (None: it can)."""
        found = self.problems(action) if problems is None else problems
        if any(p.code == "fact_check_required" for p in found):
            return translate(
                "VerdictBar",
                "{action} is not available: no fact-checker has rated this post, and a label "
                "needs a fact-check.",
            ).format(action=isolate(action.label))
        return None

    def reasons(
        self, action: ActionConfig, problems: list[VerdictProblem] | None = None
    ) -> list[str]:
        """Why the bar asks for more than the action's own needs (the fact-check rules)."""
        if self.config is None:
            return []
        found = []
        names = {r.id: isolate(r.label) for r in self.config.ratings}
        rating = self.selected_rating()
        for problem in self.problems(action) if problems is None else problems:
            if problem.code == "rating_needs_reduce" and rating:
                found.append(
                    self._use_instead(
                        ActionKind.label_and_reduce,
                        translate(
                            "VerdictBar",
                            "{rating} ratings are labelled and reduced: use {action} (key {key}) "
                            "or choose another rating.",
                        ),
                        translate(
                            "VerdictBar",
                            "{rating} ratings are labelled and reduced: choose another rating.",
                        ),
                        names[rating],
                    )
                )
            elif problem.code == "rating_does_not_reduce" and rating:
                found.append(
                    self._use_instead(
                        ActionKind.label,
                        translate(
                            "VerdictBar",
                            "{rating} ratings are labelled, not reduced: use {action} (key {key}) "
                            "or choose a rating that reduces.",
                        ),
                        translate(
                            "VerdictBar",
                            "{rating} ratings are labelled, not reduced: choose a rating "
                            "that reduces.",
                        ),
                        names[rating],
                    )
                )
            elif problem.code == "rating_not_given" and rating:
                found.append(
                    translate(
                        "VerdictBar",
                        "No fact-checker gave this post the rating {rating}: keep theirs, or "
                        "say in a note why yours differs.",
                    ).format(rating=names.get(rating, rating))
                )
        return found

    def _use_instead(self, kind: ActionKind, use: str, otherwise: str, rating: str) -> str:
        """``use`` naming the queue's action of ``kind`` (its label and key) for ``rating``;
        ``otherwise`` when the queue has no such action."""
        actions = self.config.actions if self.config is not None else []
        other = next((a for a in actions if a.kind is kind), None)
        if other is None:
            return otherwise.format(rating=rating)
        key = other.key or translate("VerdictBar", "none")
        return use.format(rating=rating, action=isolate(other.label), key=key)

    def selection(self, action: ActionConfig) -> Selection:
        """The bar's draft verdict for ``action``, with what it still needs (the draft made
        and checked once: this runs at every verdict key)."""
        draft = self.draft(action)
        problems = self.problems(action, draft)
        return Selection(
            action=action.id,
            needs=self.missing(action, problems),
            policies=draft.policies,
            rating=draft.rating,
            note=draft.note or "",
            refusal=self.refusal(action, problems),
            reasons=self.reasons(action, problems),
        )

    def choose(self, action_id: str) -> None:
        """An action's key or button: push the bar's draft for it (``drafted``)."""
        action = self.config.action(action_id) if self.config is not None else None
        if action is not None:
            self.drafted.emit(self.selection(action))

    def ask(self, text: str) -> None:
        set_text(self.prompt, text)
        self.prompt.setVisible(bool(text))

    def focus_for(self, need: str) -> None:
        widget = {"policy": self.policies, "rating": self.rating, "note": self.note}[need]
        widget.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def mark(self, action_id: str | None) -> None:
        self.marked = action_id
        for key, button in self.buttons.items():
            font = button.font()
            font.setBold(key == action_id)
            button.setFont(font)
        self.show_statement()

    def statement_text(self) -> str:
        """What the author would read if the chosen action were submitted now, or why there
        is nothing to read."""
        config = self.config
        action = config.action(self.marked) if config is not None and self.marked else None
        if config is None or action is None:
            return translate(
                "VerdictBar",
                "Choose an action: the statement of reasons the author will read shows here "
                "before you submit.",
            )
        if action.kind is ActionKind.uphold and self.item is not None and self.item.statements:
            # the contested decision stands: its statement again, saying so first
            note = self.note_text() if config.notes_shareable else None
            return clean(restate(self.item.statements[-1], UPHELD, note or None).text)
        if action.kind is ActionKind.reverse and self.item is not None and self.item.statements:
            # the restriction is lifted: the contested statement again, saying so first
            note = self.note_text() if config.notes_shareable else None
            stays = self.item.appeal.account_stays if self.item.appeal is not None else None
            return clean(lift(self.item.statements[-1], note or None, account_stays=stays).text)
        if not restrictive(action.kind, action.author_action):
            return translate(
                "VerdictBar", "{action} restricts nothing: the author gets no statement of reasons."
            ).format(action=isolate(action.label))
        automated = self.item is not None and any(
            r.kind.value == "classifier" for r in self.item.reasons
        )
        statement = draft_statement(
            config,
            action.kind,
            policies=self.selected_policies(),
            note=self.note_text() or None,
            author_action=action.author_action,
            automated_detection=automated,
        )
        return clean(statement.text) if statement is not None else ""

    def show_statement(self) -> None:
        text = self.statement_text()
        if self.statement.toPlainText() != text:
            self.statement.setPlainText(text)
