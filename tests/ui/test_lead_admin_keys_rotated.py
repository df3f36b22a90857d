"""A rotated API key (a second key made under the same name, both live until the old one is
revoked) showed as two identical rows: the same name, account and role, created to the
minute, live; and Revoke asked about "the key feed-bridge of feed-bridge" either way, so an
admin could revoke the new key. Each key's first characters (``prefix``, on the wire to
tell keys apart) are a column now and named in the question, and the times have seconds."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from reviewer_app.ui.plain import isolate
from tests.support.servers import LiveServer
from tests.ui.test_admin_desk import answer, open_admin
from tests.ui.test_lead_admin import select


def test_a_rotated_keys_two_rows_and_its_revoke_question_tell_the_keys_apart(
    demo_server: LiveServer, desk_factory
) -> None:
    desk, admin = open_admin(demo_server, desk_factory)
    keys = admin.keys
    admin.setCurrentWidget(keys)
    made: list[str] = []
    for _ in range(2):  # made, Done, made again: the rotation
        keys.name.setText("feed-bridge")
        keys.create_button.click()
        desk.wait(
            lambda: keys.key_field.text().startswith("rdk_") and keys.key_field.text() not in made
        )
        made.append(keys.key_field.text())
        keys.forget_key()
    desk.wait(lambda: sum(k.name == "feed-bridge" for k in keys.model.keys) == 2)
    old, new = sorted((k for k in keys.model.keys if k.name == "feed-bridge"), key=lambda k: k.id)
    assert made[0].startswith(old.prefix) and made[1].startswith(new.prefix)

    proxy = keys.table.model()
    columns = proxy.columnCount()
    headers = [keys.model.headerData(c, Qt.Orientation.Horizontal) for c in range(columns)]
    rows = [
        tuple(proxy.index(r, c).data() for c in range(columns)) for r in range(proxy.rowCount())
    ]
    assert len(set(rows)) == len(rows), rows  # no two rows alike
    shown = {row[headers.index("Key starts")] for row in rows}
    assert {isolate(f"{old.prefix}…"), isolate(f"{new.prefix}…")} <= shown
    created = {row[headers.index("Created")] for row in rows}
    assert all(len(c) == len("2026-12-07 01:02:03") for c in created), created
    assert made[0] not in "\n".join(map(str, rows)) and made[1] not in "\n".join(map(str, rows))

    # the question names the selected key by its first characters: the old one, not the new
    select(keys.table, old.id)
    keys.revoke_button.click()
    asked = answer(desk, keys, QMessageBox.StandardButton.Cancel)
    assert old.prefix in asked and new.prefix not in asked
    select(keys.table, new.id)
    keys.revoke_button.click()
    asked = answer(desk, keys, QMessageBox.StandardButton.Cancel)
    assert new.prefix in asked and old.prefix not in asked
    assert all(k.revoked_at is None for k in demo_server.service.api_keys())  # Cancel: nothing
