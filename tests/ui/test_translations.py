"""Every visible string goes through Qt's translation system, and the German and Spanish
catalogues are complete and load.

The pseudo-locale test installs a translator that wraps every source text in ⟪…⟫, opens
the real windows (reviewer and lead, on the demo service) and the dialogs, and walks every
widget: labels, buttons, tabs, window titles, menus, combo items, table headers, tooltips,
placeholders, and the names and descriptions screen readers speak. Whatever is left of a
text once the marked parts and the data from the server (post text, names, ids, queue
names, action labels) are taken out must hold no word: an unmarked English word there is a
string that cannot be translated.

The core's errors and the sync engine's events carry English messages (for logs); what the
reviewer reads of them is worded by the UI from their type or code, so it is checked here
too: every kind of core error through ``describe``, every failure code, and what the window
shows of each sync event, with only the server's own words left unmarked.
"""

from __future__ import annotations

import html
import importlib
import pkgutil
import re
import shutil
import subprocess
import sys
import uuid
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import (
    QAbstractItemModel,
    QAbstractListModel,
    QCoreApplication,
    QLocale,
    QModelIndex,
    QSettings,
    Qt,
    QTranslator,
)
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QApplication,
    QComboBox,
    QLabel,
    QLineEdit,
    QMenu,
    QPlainTextEdit,
    QTabBar,
    QTextEdit,
    QWidget,
)

import reviewer_app.core
from reviewer_app.core import events as ev
from reviewer_app.core.credentials import Credentials, KeyringProblem
from reviewer_app.core.decision_csv import ExportCancelled
from reviewer_app.core.errors import (
    ApiError,
    AuthenticationRequired,
    CertificateError,
    CoreError,
    FailureKind,
    Forbidden,
    IncompatibleServer,
    LocalServiceFailed,
    NetworkError,
    ProblemError,
    ProtocolError,
    ServiceUnavailable,
    StoreError,
    StoreInUse,
    StoreReplaced,
    StoreTooNew,
    StoreUnreadable,
    UnsentVerdicts,
)
from reviewer_app.core.keyfile import KeyFileUnusable, WrongPassword
from reviewer_app.core.paths import store_path
from reviewer_app.core.session import NothingSaved, ReviewSession
from reviewer_app.core.store import AlreadyDecided, JournalEntry, NothingToUndo
from reviewer_app.protocol import (
    Problem,
    RejectReason,
    Verdict,
    VerdictResult,
    VerdictStatus,
)
from reviewer_app.protocol.accounts import AuthorStatus
from reviewer_app.ui import i18n
from reviewer_app.ui import messages as M
from reviewer_app.ui import preferences as P
from reviewer_app.ui.app import keyring_note, open_window
from reviewer_app.ui.dialogs import (
    ConflictsView,
    LoginDialog,
    SettingsDialog,
    ShortcutsDialog,
)
from reviewer_app.ui.main_window import MainWindow
from reviewer_app.ui.plain import ElidedButton
from reviewer_app.ui.words import CODE, code_words, language_words, plural
from tests.support.keyring_memory import MemoryKeyring, RefusingKeyring
from tests.support.servers import LiveServer
from tests.ui.conftest import LEAD, Desk

ROOT = Path(__file__).resolve().parents[2]
TS_DIR = ROOT / "resources" / "translations"
LANGUAGES = ("de", "es")
OPEN, CLOSE = "⟪", "⟫"
MARKED = re.compile(f"{OPEN}[^{OPEN}{CLOSE}]*{CLOSE}")
WORD = re.compile(r"[A-Za-z]{3,}")
TAG = re.compile(r"<[^>]+>")
ENDONYMS = ("English", "Deutsch", "Español")
PLACEHOLDER = re.compile(r"\{[a-z_]*\}")


class PseudoTranslator(QTranslator):
    """A pseudo-locale: every source text comes back marked ⟪like this⟫."""

    def translate(
        self,
        context: str,
        source_text: str,
        disambiguation: str | None = None,
        n: int = -1,
    ) -> str:
        return f"{OPEN}{source_text}{CLOSE}"

    def isEmpty(self) -> bool:
        return False


@pytest.fixture
def pseudo_locale(qapp: QApplication) -> Iterator[None]:
    translator = PseudoTranslator()
    qapp.installTranslator(translator)
    try:
        yield
    finally:
        qapp.removeTranslator(translator)


# --- what the data from the server says --------------------------------------------------


#: what ``plain.isolate`` wrapped: untrusted data by construction
ISOLATED = re.compile("\u2068[^\u2069]*\u2069")
#: a language code as posts carry them (protocol.common.Language)
LANGUAGE = re.compile(r"^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$")


def strings_in(value: Any) -> Iterator[str]:
    """Every string in a JSON-like value (a model's ``model_dump(mode="json")``)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from strings_in(key)
            yield from strings_in(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from strings_in(item)


def data_strings(window: MainWindow) -> list[str]:
    """The data a window may show untranslated: the items it holds, the queues, the user,
    the server; longest first, so a name inside a longer text goes with that text."""
    store = window.store
    found: set[str] = {window.session.server_url, window.session.user.display_name}
    found.update(strings_in(window.session.user.model_dump(mode="json")))
    for queue in store.queues():
        found.update(strings_in(queue.model_dump(mode="json")))
        for row in store.worklist(queue.id):
            found.add(row.item_id)
            stored = store.stored_item(row.item_id)
            if stored is not None:
                found.update(strings_in(stored.item.model_dump(mode="json")))
    if window.review.current is not None:
        found.update(strings_in(window.review.current.item.model_dump(mode="json")))
    for lines in (s.splitlines() for s in list(found)):
        found.update(lines)
    # codes from the wire are shown in words ("health_claim" -> "health claim"): data still
    found.update(code_words(s) for s in list(found) if CODE.match(s))
    # ... and a post's language by its name (Qt's words, in English)
    found.update(language_words(s) for s in list(found) if LANGUAGE.match(s))
    # enum values of the protocol are shown in words, translated: not data here
    found -= {"user_reports", "fact_check", "classifier", "appeal", "escalation"}
    found -= {"enqueued", "claimed", "renewed", "released", "expired", "decided"}
    # each language is named in its own language in the language picker, by design
    found |= set(ENDONYMS)
    return sorted((s for s in found if len(s) >= 3), key=len, reverse=True)


def unmarked_words(text: str, data: Iterable[str]) -> list[str]:
    """The words of ``text`` outside every ⟪marked⟫ part and every data string."""
    rest = html.unescape(TAG.sub(" ", text)) if text.lstrip().startswith("<") else text
    rest = rest.replace("&&", "&").replace("&", "")
    previous = None
    while previous != rest:  # from the inside out: a template holds translated words
        previous, rest = rest, MARKED.sub(" ", rest)
    for value in data:
        if value in rest:
            rest = rest.replace(value, " ")
    return WORD.findall(rest)


# --- what a window shows -----------------------------------------------------------------


def header_texts(model: QAbstractItemModel | None) -> Iterator[str]:
    if model is None or isinstance(model, QAbstractListModel):  # a list has no headers
        return
    try:
        columns = model.columnCount(QModelIndex())
    except TypeError:  # Qt's own list models (QListWidget's) keep columnCount private
        return
    for column in range(columns):
        value = model.headerData(column, Qt.Orientation.Horizontal)
        if isinstance(value, str):
            yield value


def action_texts(actions: Iterable[QAction]) -> Iterator[tuple[str, str]]:
    for action in actions:
        if action.isSeparator():
            continue
        yield "menu action", action.text()
        menu = action.menu()
        if isinstance(menu, QMenu):
            yield from action_texts(menu.actions())


def visible_texts(root: QWidget) -> Iterator[tuple[str, str]]:
    """(where, text) for every user-visible string of ``root`` and its children."""
    for widget in [root, *root.findChildren(QWidget)]:
        where = f"{type(widget).__name__} {widget.objectName() or widget.accessibleName()!r}"
        if widget.isWindow() and widget.windowTitle():
            yield f"{where} title", widget.windowTitle()
        if widget.toolTip():
            yield f"{where} tooltip", widget.toolTip()
        if widget.accessibleName():
            yield f"{where} accessible name", widget.accessibleName()
        if widget.accessibleDescription():
            yield f"{where} accessible description", widget.accessibleDescription()
        if isinstance(widget, QLabel | QAbstractButton):
            # a button with a label from the queue's configuration shows it elided
            yield where, widget.full_text if isinstance(widget, ElidedButton) else widget.text()
        elif isinstance(widget, QTabBar):
            for index in range(widget.count()):
                yield f"{where} tab", widget.tabText(index)
        elif isinstance(widget, QComboBox):
            for index in range(widget.count()):
                yield f"{where} item", widget.itemText(index)
        elif isinstance(widget, QLineEdit | QPlainTextEdit | QTextEdit):
            yield f"{where} placeholder", widget.placeholderText()
        if isinstance(widget, QAbstractItemView):
            for text in header_texts(widget.model()):
                yield f"{where} header", text
        for kind, text in action_texts(a for a in widget.actions() if a.menu() or a.text()):
            yield f"{where} {kind}", text
    menu_bar = getattr(root, "menuBar", None)
    if callable(menu_bar):
        yield from action_texts(menu_bar().actions())


def untranslatable(root: QWidget, data: list[str]) -> list[str]:
    problems = []
    for where, text in visible_texts(root):
        words = unmarked_words(text, data)
        if words:
            problems.append(f"{where}: {text!r} (unmarked: {' '.join(words)})")
    return problems


def model_cells(model: QAbstractItemModel) -> Iterator[str]:
    columns = 1 if isinstance(model, QAbstractListModel) else model.columnCount(QModelIndex())
    for row in range(model.rowCount(QModelIndex())):
        for column in range(columns):
            value = model.index(row, column).data()
            if isinstance(value, str):
                yield value


# --- the pseudo-locale walk --------------------------------------------------------------


def test_every_visible_string_of_the_review_window_is_translatable(
    pseudo_locale: None, demo_server: LiveServer, desk_factory, qtbot, tmp_path: Path
) -> None:
    desk: Desk = desk_factory(demo_server.url)
    window = desk.window
    desk.wait(lambda: window.online is True and window.last_sync is not None)
    window._update_status()
    data = data_strings(window)
    problems = untranslatable(window, data)
    # the context tabs are filled when opened; the worklist's words are in its cells
    for title in window.context.boxes:
        problems += [
            f"context {title}: {w}" for w in unmarked_words(window.context.text_of(title), data)
        ]
    for cell in model_cells(window.worklist):
        # a cell names the post by its author and first words, cut: isolated data (FSI…PDI)
        words = unmarked_words(ISOLATED.sub(" ", cell), data)
        problems += [f"worklist cell {cell!r}: {w}" for w in words]
    for cell in model_cells(window.queues):
        problems += [f"queue item {cell!r}: {w}" for w in unmarked_words(cell, data)]

    prefs = P.Preferences(QSettings(str(tmp_path / "p.ini"), QSettings.Format.IniFormat))
    for dialog in (
        SettingsDialog(prefs, window.store, window),
        ShortcutsDialog(window),
        ConflictsView(window.store, window),
        LoginDialog(prefs, lambda *_: None),
    ):
        qtbot.addWidget(dialog)
        if isinstance(dialog, ConflictsView):
            dialog.reload()
        problems += untranslatable(dialog, data)
    assert not problems, "\n".join(problems)


def test_every_visible_string_of_the_lead_workspace_is_translatable(
    pseudo_locale: None, demo_server: LiveServer, desk_factory, qtbot
) -> None:
    desk: Desk = desk_factory(demo_server.url, user=LEAD)
    window = desk.window
    lead = window.lead
    assert lead is not None and window.modes is not None
    window.show_mode(1)
    lead.setCurrentWidget(lead.queues_view)
    qtbot.waitUntil(lambda: lead.queues_view.model.rowCount() > 0, timeout=20_000)
    lead.setCurrentWidget(lead.reviewers)
    qtbot.waitUntil(lambda: lead.reviewers.loaded_at is not None, timeout=20_000)
    lead.setCurrentWidget(lead.escalations)
    qtbot.waitUntil(lambda: OPEN in lead.escalations.summary.text(), timeout=20_000)
    lead.setCurrentWidget(lead.audits)
    lead.setCurrentWidget(lead.decisions)
    qtbot.waitUntil(
        lambda: (
            not lead.decisions.model.loading
            and "Loading decisions" not in lead.decisions.status.text()
        ),
        timeout=20_000,
    )
    data = data_strings(window)
    data += sorted(
        {
            *(r.reviewer for r in lead.reviewers.model.reviewers),
            *(r.display_name for r in lead.reviewers.model.reviewers),
            *(q.name for q in lead.queues_view.model.queues),
        },
        key=len,
        reverse=True,
    )
    problems = untranslatable(window, data)
    assert not problems, "\n".join(problems)


def test_the_pseudo_locale_finds_an_unmarked_string(
    pseudo_locale: None, qtbot, tmp_path: Path
) -> None:
    """The walk itself: an English label nobody marked is reported; data is not."""
    root = QWidget()
    qtbot.addWidget(root)
    QLabel("Choose a queue first.", root)
    QLabel(QCoreApplication.translate("MainWindow", "Choose a queue."), root)
    QLabel("Spam and scams", root)
    problems = untranslatable(root, ["Spam and scams"])
    assert len(problems) == 1 and "Choose a queue first." in problems[0]
    spoken = QLabel(root)
    spoken.setAccessibleName("Queue picker")
    described = QLabel(root)
    described.setAccessibleDescription("Pick the queue to review")
    problems = untranslatable(root, ["Spam and scams"])
    assert len(problems) == 3
    assert any("accessible name" in p and "Queue picker" in p for p in problems)
    assert any("accessible description" in p and "Pick the queue" in p for p in problems)


# --- what the core reports --------------------------------------------------------------

#: the server's own words in a refusal: data, shown as they are
SERVER_SAID = "Queue spam-scams is closed for maintenance until Monday"


def _problem(status: int, code: str, detail: str | None) -> Problem:
    return Problem(title="Refused by the service", status=status, code=code, detail=detail)


def core_errors() -> list[tuple[BaseException, str]]:
    """One error of each kind the core raises (with its English message), and the server's
    own words it carries ("" when none may be shown)."""
    return [
        (NetworkError("Could not connect to https://review.example (Connection refused)."), ""),
        (CertificateError("The certificate of https://review.example could not be verified."), ""),
        (ProtocolError("The server's reply to GET /queues is not JSON (Expecting value)."), ""),
        (IncompatibleServer("The server speaks API version 9.0; this client speaks 1.x."), ""),
        (AuthenticationRequired(401, _problem(401, "bad_credentials", "Wrong password.")), ""),
        (AuthenticationRequired(401, _problem(401, "token_expired", "Token expired.")), ""),
        (Forbidden(403, _problem(403, "forbidden", SERVER_SAID)), SERVER_SAID),
        (ServiceUnavailable(503, _problem(503, "busy", "Overloaded."), retry_after=30.0), ""),
        (ServiceUnavailable(502, _problem(502, "http_502", "GET /x answered HTTP 502.")), ""),
        (ProblemError(409, _problem(409, "queue_closed", SERVER_SAID)), SERVER_SAID),
        # a reply without a problem document: the words were made up by the client
        (ProblemError(404, _problem(404, "http_404", "GET /x answered HTTP 404 without")), ""),
        (StoreError("The local store /data/x.sqlite3 is locked: database is locked"), ""),
        (StoreUnreadable("The local store /data/x.sqlite3 cannot be read: damaged"), ""),
        (StoreTooNew("/data/x.sqlite3", 10, 9), ""),
        (StoreInUse("/data/x.sqlite3"), ""),
        (StoreReplaced("The local store was moved aside."), ""),
        (AlreadyDecided("Item post-1 is not waiting for a decision here."), ""),
        (NothingToUndo("There is no verdict left to undo: the window has passed."), ""),
        (WrongPassword("The password given does not open the store key in /x.key."), ""),
        (NothingSaved("Nothing is saved on this computer for x on y."), ""),
        (NothingSaved("x logged out of y on this computer.", logged_out=True), ""),
        (NothingSaved("Kept by a release before encryption.", before_encryption=True), ""),
        (NothingSaved("Its key is not in the keyring.", key_missing=True), ""),
        (KeyFileUnusable("The key file /data/x.key is damaged (ValueError)."), ""),
        (UnsentVerdicts(3), ""),
        (LocalServiceFailed(exit_code=1), ""),
        (LocalServiceFailed(timeout=180.0), ""),
        (UnsentVerdicts(1), ""),
        (ExportCancelled(2_500), ""),
        (CoreError("Something the core said in English."), ""),
        (ApiError("A call failed, said in English."), ""),
        (RuntimeError("Something a library said in English."), ""),
    ]


def every_core_error_class() -> set[type[BaseException]]:
    for module in pkgutil.walk_packages(reviewer_app.core.__path__, "reviewer_app.core."):
        importlib.import_module(module.name)
    found: set[type[BaseException]] = set()
    todo: list[type[BaseException]] = [CoreError]
    while todo:
        cls = todo.pop()
        found.add(cls)
        todo += cls.__subclasses__()
    return found


def test_every_kind_of_core_error_is_told_in_translated_words(pseudo_locale: None) -> None:
    """``describe`` words each error from its type; the core's English message is never
    shown, and the server's own reason only where it gave one, as what the server said."""
    examples = core_errors()
    assert every_core_error_class() <= {type(err) for err, _said in examples}
    during = QCoreApplication.translate("Test", "loading the queues")
    for err, said in examples:
        for message in (M.describe(err), M.describe(err, during=during)):
            text = message.text()
            assert message.title and message.line(), err
            assert not unmarked_words(text, [said] if said else []), (err, text)
            assert str(err) not in text, (err, text)
            if said:
                assert said in text and said in message.line()
            else:
                assert not message.server_said, err


def test_every_failure_code_and_keyring_problem_is_told_in_translated_words(
    pseudo_locale: None, tmp_path: Path
) -> None:
    data = ["post-17", "spam-scams", "KeyringLocked", str(tmp_path), "ftp://review example"]
    texts = [M.failure_sentence(""), M.offline_batch_ended(10, 10, "")]
    texts.append(M.offline_batch_ended(3, 10, ""))
    for kind in FailureKind:
        texts += [
            M.failure_sentence(kind),
            M.failure_sentence(str(kind)),  # as it comes through a signal
            M.offline_batch_ended(3, 10, str(kind)),
            M.sync_problem(kind, None, None),
            M.sync_problem(kind, "post-17", "spam-scams"),
        ]
    for problem in (*KeyringProblem, None):
        texts.append(M.keyring_reason(problem, "KeyringLocked"))
    texts += [M.store_moved_aside(tmp_path / "x.unusable"), M.bad_address("ftp://review example")]
    for text in texts:
        assert text and not unmarked_words(text, data), text


def test_what_the_window_shows_of_the_sync_engine_is_translated(
    pseudo_locale: None, demo_server: LiveServer, desk_factory
) -> None:
    """The reason the window gives for being offline (the server really stopped), and what
    it shows of every other report of the engine, are in the user's language."""
    desk: Desk = desk_factory(demo_server.url)
    window = desk.window
    desk.wait(lambda: window.online is True)
    data = data_strings(window)
    demo_server.stop()
    desk.wait(lambda: window.online is False)
    offline = window.message.text()
    assert OPEN in offline and not unmarked_words(offline, data), offline
    assert not unmarked_words(window.net_label.text(), data)

    bridge = window.bridge
    shown: list[tuple[ev.SyncEvent, str]] = []
    for event in (
        ev.OnlineChanged(False, "The server at x broke the connection.", 2.0, FailureKind.busy),
        ev.Problem("The local store x could not save: disk I/O error", FailureKind.store),
        ev.Problem("Syncing stopped on an unexpected error: KeyError('x')"),
        ev.Problem(
            "Item post-17 from queue spam-scams cannot be shown (1 problem(s)).",
            FailureKind.bad_reply,
            item_id="post-17",
            queue_id="spam-scams",
        ),
        ev.AuthRequired("The server asks you to log in again (Token expired (HTTP 401))."),
        ev.Progress(
            "offline", 3, 10, True, error="GET /x failed: refused", kind=FailureKind.network
        ),
        ev.Progress("offline", 3, 10, True, error="Only 3 of 10 items could be leased."),
        ev.Progress("offline", 10, 10, True),
        ev.ItemsWithdrawn(("post-17",)),
        ev.ItemsWithdrawn(("post-17", "post-18")),
        ev.VerdictsSettled((_withdrawn_verdict("post-17"),)),
        ev.ItemsResolved((("post-17", "suspended"),)),
        ev.ItemsResolved((("post-17", "suspended"), ("post-18", "inauthentic"))),
        ev.VerdictsSettled((_withdrawn_verdict("post-17", "author_actioned"),)),
    ):
        window.notify("")
        window.say("")
        bridge(event)  # on the GUI thread here: delivered at once
        texts = [t for t in (window.message.text(), window.banner.text()) if t]
        assert texts, event
        shown += [(event, text) for text in texts]
    for event, text in shown:
        assert not unmarked_words(text, [*data, "post-17", "spam-scams"]), (event, text)


def _withdrawn_verdict(item_id: str, code: str = "withdrawn") -> JournalEntry:
    """A verdict the service refused because the platform withdrew the post (or, with
    ``author_actioned``, because an account action closed it)."""
    verdict = Verdict(
        idempotency_key=uuid.uuid4(),
        item_id=item_id,
        lease_token="lease-token-0000000000000000",
        action="keep",
        time_spent_ms=1,
        decided_at=datetime.now(UTC),
    )
    reason = (
        RejectReason(code=code, message="withdrawn by the platform")
        if code == "withdrawn"
        else RejectReason(
            code=code,
            message="resolved by an account action: the author is suspended",
            author_status=AuthorStatus.suspended,
        )
    )
    result = VerdictResult(
        idempotency_key=verdict.idempotency_key,
        item_id=item_id,
        status=VerdictStatus.rejected,
        reason=reason,
    )
    return JournalEntry(
        str(verdict.idempotency_key), item_id, "spam-scams", "keep", verdict, 0.0,
        "rejected", result, 1.0,
    )  # fmt: skip


def test_the_notes_of_the_login_and_the_store_are_translated(
    pseudo_locale: None, demo_server: LiveServer, tmp_path: Path
) -> None:
    """The note on a login kept in memory only (naming the keyring's error, data), and the
    notice that a damaged store was moved aside (naming where, data)."""
    import keyring.errors

    refusing = Credentials(RefusingKeyring(keyring.errors.KeyringLocked("locked")))
    result, _token = ReviewSession.log_in(
        demo_server.url, "reviewer", "review-desk-demo", credentials=refusing
    )
    note = keyring_note(result)
    assert note and "KeyringLocked" in note
    assert not unmarked_words(note, ["KeyringLocked"]), note

    credentials = Credentials(MemoryKeyring())
    result, token = ReviewSession.log_in(
        demo_server.url, "reviewer", "review-desk-demo", credentials=credentials
    )
    damaged = store_path(demo_server.url.rstrip("/"), "reviewer", tmp_path)
    damaged.parent.mkdir(parents=True, exist_ok=True)
    damaged.write_bytes(b"not a database, not even close" * 100)
    prefs = P.Preferences(QSettings(str(tmp_path / "p.ini"), QSettings.Format.IniFormat))
    window = open_window(
        demo_server.url, result, token, credentials=credentials, prefs=prefs, data_root=tmp_path
    )
    try:
        aside = window.session.store.moved_aside_to
        assert aside is not None and str(aside) in window.banner.text()
        assert not unmarked_words(window.banner.text(), [str(aside)]), window.banner.text()
    finally:
        window.shutdown()
        window.close()


# --- the catalogues ----------------------------------------------------------------------


def messages(ts: Path) -> Iterator[tuple[str, str, ET.Element]]:
    for context in ET.parse(ts).getroot().iter("context"):
        name = context.findtext("name") or ""
        for message in context.iter("message"):
            yield name, message.findtext("source") or "", message


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_is_translated(language: str) -> None:
    found = list(messages(TS_DIR / f"reviewer_app_{language}.ts"))
    assert len(found) > 300
    for context, source, message in found:
        translation = message.find("translation")
        assert translation is not None, (context, source)
        assert translation.get("type") not in ("unfinished", "obsolete", "vanished"), (
            context,
            source,
        )
        assert (translation.text or "").strip(), (context, source)
        # the values a template is formatted with must all be there, and no others (in each
        # of a counted string's forms: "one|many", see words.plural)
        for form in (translation.text or "").split("|"):
            assert sorted(PLACEHOLDER.findall(form)) == sorted(PLACEHOLDER.findall(source)), (
                context,
                source,
                translation.text,
            )


@pytest.mark.parametrize(
    ("language", "context", "source", "expected"),
    [
        ("de", "MainWindow", "Work offline…", "Offline arbeiten…"),
        ("es", "MainWindow", "Work offline…", "Trabajar sin conexión…"),
        ("de", "Dialogs", "Settings", "Einstellungen"),
        ("es", "LeadWorkspace", "Audits", "Auditorías"),
        ("de", "VerdictBar", "Verdict", "Entscheidung"),  # a name a screen reader speaks
        (
            "es",
            "Messages",
            "The server cannot be reached.",
            "No se puede contactar con el servidor.",
        ),
    ],
)
def test_the_compiled_catalogues_load_and_translate(
    qapp: QApplication, language: str, context: str, source: str, expected: str
) -> None:
    installed = i18n.install_translators(qapp, language)
    try:
        assert installed, f"no catalogue loaded for {language}"
        assert i18n.translate(context, source) == expected
    finally:
        for translator in installed:
            qapp.removeTranslator(translator)
    assert i18n.translate(context, source) == source  # English again


def test_a_counted_string_takes_the_catalogues_one_or_many_form(qapp: QApplication) -> None:
    """'1 Konto', '2 Konten': the catalogue's two forms, chosen by the count."""
    installed = i18n.install_translators(qapp, "de")
    try:
        words = {
            n: plural(QCoreApplication.translate("Accounts", "%Ln account(s)"), n) for n in (1, 2)
        }
    finally:
        for translator in installed:
            qapp.removeTranslator(translator)
    assert words == {1: "1 Konto", 2: "2 Konten"}


def test_the_language_follows_the_preference_then_the_system() -> None:
    german = QLocale(QLocale.Language.German, QLocale.Country.Germany)
    french = QLocale(QLocale.Language.French, QLocale.Country.France)
    assert i18n.language_for("system", german) == "de"
    assert i18n.language_for("system", french) == "en"
    assert i18n.language_for("es", german) == "es"
    assert i18n.language_for("en", german) == "en"
    assert P.LANGUAGE.default == "system" and set(P.LANGUAGES) == {"system", "en", "de", "es"}


def test_english_needs_no_catalogue(qapp: QApplication) -> None:
    assert i18n.install_translators(qapp, "en") == []


LUPDATE = shutil.which("pyside6-lupdate", path=str(Path(sys.executable).parent))
LRELEASE = shutil.which("pyside6-lrelease", path=str(Path(sys.executable).parent))


@pytest.mark.skipif(LUPDATE is None or LRELEASE is None, reason="PySide6 tools not installed")
def test_the_catalogues_are_up_to_date(tmp_path: Path) -> None:
    """The .ts files hold exactly the strings the code marks (run ``make translations``
    after changing a string), and the committed .qm files are compiled from them."""
    assert LUPDATE is not None and LRELEASE is not None
    fresh = tmp_path / "fresh.ts"
    subprocess.run(
        [
            LUPDATE,
            *("-extensions", "py", "-no-obsolete", "-locations", "none"),
            *(str(ROOT / "reviewer_app" / "ui"), "-ts", str(fresh)),
        ],
        check=True,
        capture_output=True,
    )
    wanted = {(c, s) for c, s, _m in messages(fresh)}
    for language in LANGUAGES:
        ts = TS_DIR / f"reviewer_app_{language}.ts"
        assert {(c, s) for c, s, _m in messages(ts)} == wanted, language
        qm = tmp_path / f"{language}.qm"
        subprocess.run([LRELEASE, str(ts), "-qm", str(qm)], check=True, capture_output=True)
        shipped = i18n.TRANSLATIONS_DIR / f"reviewer_app_{language}.qm"
        assert shipped.read_bytes() == qm.read_bytes(), f"{shipped} is stale"


def test_no_count_is_given_to_qt() -> None:
    """A counted string is translated without its count and resolved by ``words.plural``:
    Qt's numerus lookup wants numerus messages, which pyside6-lupdate never writes for
    Python, so ``translate(ctx, text, None, n)`` came back in English for every count but
    one in German (and lupdate missed the string altogether when ``n`` was no plain name)."""
    import ast

    given = []
    for path in sorted((ROOT / "reviewer_app" / "ui").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "translate"
                and len(node.args) >= 4
            ):
                given.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not given, "translate without the count; plural() writes it in:\n" + "\n".join(given)


def test_decimals_follow_the_users_locale(qapp: QApplication) -> None:
    """ "älteste 29.4 h" beside "5,00 s": a figure with decimals is written the locale's way
    everywhere (the queue picker, the lead's durations and handle times)."""
    from PySide6.QtCore import QLocale

    from reviewer_app.ui.lead.stats_views import duration
    from reviewer_app.ui.words import decimal

    before = QLocale()
    try:
        QLocale.setDefault(QLocale(QLocale.Language.German, QLocale.Country.Germany))
        assert decimal(29.44) == "29,4" and duration(5 * 3600 + 1800) == "5,5 h"
        QLocale.setDefault(QLocale(QLocale.Language.English, QLocale.Country.UnitedStates))
        assert decimal(29.44) == "29.4"
    finally:
        QLocale.setDefault(before)


def test_percentages_are_written_the_languages_way(qapp: QApplication) -> None:
    """A German lead read "77%" beside "29,4 h": a share is written with the sign where the
    language puts it ("77 %", a no-break space before the sign) and the locale's digits."""
    from PySide6.QtCore import QLocale

    from reviewer_app.ui.lead.quality import share
    from reviewer_app.ui.words import percent

    before = QLocale()
    try:
        QLocale.setDefault(QLocale(QLocale.Language.English, QLocale.Country.UnitedStates))
        assert (percent(0.771), percent(0.124, signed=True), share(None)) == ("77%", "+12%", "—")
        assert percent(-0.03, signed=True) == "-3%"
        for language in ("de", "es"):
            QLocale.setDefault(QLocale(language))
            installed = i18n.install_translators(qapp, language)
            try:
                assert percent(0.771) == "77\u00a0%", (language, percent(0.771))
                assert percent(0.124, signed=True) == "+12\u00a0%"
            finally:
                for translator in installed:
                    qapp.removeTranslator(translator)
    finally:
        QLocale.setDefault(before)


def test_why_queued_is_said_in_the_reviewers_language(qapp: QApplication) -> None:
    """A German reviewer read "health claim 0.80 (rule: 0.75)" and "52 hate reports" under
    "Grund": the service's English words. A reason that carries its parts (score, rule,
    count) is worded by the desk; one without (an item stored before) shows its detail."""
    from PySide6.QtCore import QLocale

    from reviewer_app.protocol import Item, QueueReason, QueueReasonKind
    from reviewer_app.ui.context_panels import reason_words, why_text

    scored = QueueReason(
        kind=QueueReasonKind.classifier,
        detail="claims 3.2.1: health claim 0.80 (rule: 0.75)",
        subject="claims 3.2.1: health claim",
        score=0.8,
        threshold=0.75,
    )
    account = QueueReason(
        kind=QueueReasonKind.classifier,
        detail="account inauthenticity 0.91 (rule: 0.80)",
        score=0.91,
        threshold=0.8,
    )
    reported = QueueReason(
        kind=QueueReasonKind.user_reports, detail="52 hate reports", subject="hate", count=52
    )
    one = QueueReason(kind=QueueReasonKind.user_reports, detail="1 reports", count=1)
    old = QueueReason(kind=QueueReasonKind.user_reports, detail="3 hate reports")
    again = QueueReason(
        kind=QueueReasonKind.user_reports,
        detail="12 new reports since kept",
        count=12,
        since_kept=True,
    )
    rated = QueueReason(
        kind=QueueReasonKind.fact_check,
        detail="new rating False (Desk) since kept",
        subject="False (Desk)",
        since_kept=True,
    )
    reasons = (scored, account, reported, one, old, again, rated)
    # the tab's lines isolate what came from the service once: a second isolate would show
    # the first's marks as visible markers
    # (what ``why_text`` reads of an item)
    item = Item.model_construct(
        queue_id="q", origin_queue_id="q", reasons=list(reasons), escalation=None
    )
    tab = why_text(item)
    assert tab.count("\u2068") == 4 and "U+2068" not in tab, tab
    before = QLocale()
    try:
        QLocale.setDefault(QLocale(QLocale.Language.English, QLocale.Country.UnitedStates))
        assert [reason_words(r) for r in reasons] == [
            "\u2068claims 3.2.1: health claim\u2069 0.80 (rule: 0.75)",
            "account inauthenticity 0.91 (rule: 0.80)",
            "52 reports of \u2068hate\u2069",
            "1 report",
            "\u20683 hate reports\u2069",
            "12 new reports since it was kept",
            "new rating \u2068False (Desk)\u2069 since it was kept",
        ]
        QLocale.setDefault(QLocale(QLocale.Language.German, QLocale.Country.Germany))
        installed = i18n.install_translators(qapp, "de")
        try:
            assert [reason_words(r) for r in reasons] == [
                "\u2068claims 3.2.1: health claim\u2069 0,80 (Regel: 0,75)",
                "Unechtheit des Kontos 0,91 (Regel: 0,80)",
                "52 Meldungen wegen \u2068hate\u2069",
                "1 Meldung",
                "\u20683 hate reports\u2069",
                "12 neue Meldungen, seit er behalten wurde",
                "neue Bewertung \u2068False (Desk)\u2069, seit er behalten wurde",
            ]
        finally:
            for translator in installed:
                qapp.removeTranslator(translator)
    finally:
        QLocale.setDefault(before)


def test_scores_are_written_the_locales_way(qapp: QApplication, qtbot) -> None:
    """A German reviewer read "0.77 / 0.75" beside "29,4 h": the scores panel writes its
    figures, and their spoken words, with the locale's decimal mark."""
    from PySide6.QtCore import QLocale

    from reviewer_app.protocol import ClassifierScore
    from reviewer_app.ui.scores import ScoresPanel

    before = QLocale()
    try:
        QLocale.setDefault(QLocale(QLocale.Language.German, QLocale.Country.Germany))
        panel = ScoresPanel()
        qtbot.addWidget(panel)
        score = ClassifierScore(
            model="civic-bert", model_version="3", label="civic_claim", score=0.7712, threshold=0.75
        )
        panel.show_scores([score])
        _name, bar, figure, _version = panel.rows[0]
        assert figure.text().startswith("0,77 / 0,75"), figure.text()
        assert "score 0,771, threshold 0,750" in bar.accessibleName()
    finally:
        QLocale.setDefault(before)


#: figures written for programs, not people (the first-paint time ``--exit-after-first-post``
#: prints for benchmarks/ui_latency.py)
MACHINE_FIGURES = {("reviewer_app/ui/app.py", ".6f")}


def test_no_figure_is_formatted_the_python_way() -> None:
    """An f-string's ``{x:.2f}`` writes "0.77" and ``{n:,}`` "1,000" whatever the locale:
    the desk's figures go through ``words.decimal`` (or ``shortest``, ``plain.whole``)."""
    import ast

    found = []
    for path in sorted((ROOT / "reviewer_app" / "ui").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FormattedValue) and isinstance(node.format_spec, ast.JoinedStr):
                spec = "".join(
                    str(v.value) for v in node.format_spec.values if isinstance(v, ast.Constant)
                )
                source = path.relative_to(ROOT).as_posix()
                # a decimal mark, a thousands separator ("1,000" is about one in German),
                # or a percentage ("77%" is "77 %" in German)
                decimals = re.search(r"\.[1-9]\d*[fFeE%]$|[gG%]$|[,_]", spec)
                if decimals and (source, spec) not in MACHINE_FIGURES:
                    found.append(f"{source}:{node.lineno} :{spec}")
            if isinstance(node, ast.JoinedStr):
                # "{value * 100:.0f}%": a percent sign written after a figure
                for before, after in zip(node.values, node.values[1:], strict=False):
                    if (
                        isinstance(before, ast.FormattedValue)
                        and isinstance(after, ast.Constant)
                        and str(after.value).startswith("%")
                    ):
                        found.append(f"{path.relative_to(ROOT).as_posix()}:{node.lineno} %")
    assert not found, "figures formatted by Python, not the locale:\n" + "\n".join(found)
