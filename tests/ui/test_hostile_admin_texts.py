"""Strings the admin pages and the Settings dialog show that others chose (a person's
display name, an API key's name, a webhook receiver's reason phrase, a queue's name and
its actions' labels from the queue file) are plain text in their tooltips too: those
tables gave their cells' text to Qt as tooltips, which Qt reads as HTML."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from PySide6.QtCore import QSettings

from reviewer_app.protocol import (
    ApiKeyInfo,
    ApiKeyList,
    Queue,
    QueueCounts,
    Role,
    User,
    UserList,
)
from reviewer_app.protocol.webhooks import WebhookEndpoint, WebhookList, WebhookStatus
from reviewer_app.server.demo.queues import DEMO_QUEUES
from reviewer_app.ui import preferences as P
from reviewer_app.ui.keys import Keymap
from reviewer_app.ui.lead.admin_keys import KeysModel
from reviewer_app.ui.lead.admin_users import UsersModel
from reviewer_app.ui.lead.webhooks import WebhookModel
from reviewer_app.ui.shortcuts_page import ShortcutsPage
from tests.ui.test_hostile_everywhere import model_problems, widget_problems

HTML = "<b>BIG</b><img src=x>"
NOW = datetime(2026, 12, 6, tzinfo=UTC)


def test_admin_tables_show_others_strings_literally_in_tooltips(qtbot) -> None:
    users = UsersModel()
    users.set_users(
        UserList(users=[User(id=1, username="ada", display_name=HTML, role=Role.admin)])
    )
    keys = KeysModel()
    keys.set_keys(
        ApiKeyList(
            keys=[
                ApiKeyInfo(
                    id=1, name=HTML, account=HTML, role="platform", prefix="rd1_x", created_at=NOW
                )
            ]
        )
    )
    hooks = WebhookModel()
    endpoint = WebhookEndpoint(
        id=1,
        url="https://receiver.example/hook",
        account="bridge",
        status=WebhookStatus.failing,
        created_at=NOW,
        delivered_seq=0,
        backlog=3,
        delivered_total=0,
        consecutive_failures=2,
        attempts=2,
        last_error=f"HTTP 500 {HTML}",
    )
    hooks.set_list(WebhookList(endpoints=[endpoint]))
    bad = [
        *model_problems(users, "users"),
        *model_problems(keys, "keys"),
        *model_problems(hooks, "webhooks"),
    ]
    assert bad == []


def test_the_shortcuts_page_shows_queue_names_and_labels_literally(qtbot, tmp_path: Path) -> None:
    seed = DEMO_QUEUES[0]
    config = seed.config.model_copy(
        update={
            "actions": [
                a.model_copy(update={"label": HTML}) if n == 0 else a
                for n, a in enumerate(seed.config.actions)
            ]
        }
    )
    queue = Queue(
        id=seed.id,
        name=f"<i>{seed.name}</i>",
        counts=QueueCounts(pending=0, leased=0, decided_today=0),
        config=config,
    )
    prefs = P.Preferences(QSettings(str(tmp_path / "ui.ini"), QSettings.Format.IniFormat))
    page = ShortcutsPage(Keymap(prefs, "https://review.example", "reviewer"), [queue])
    qtbot.addWidget(page)
    assert widget_problems(page) == []
