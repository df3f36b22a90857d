"""The queue picker's counts say how old they are while the desk is offline (real demo
service over HTTP through a proxy that goes away, offscreen): each row ends in "counts as
of 10:42" (the local time the service gave them), and the plain live form comes back with
the network. Counts kept from an earlier start are "last known"."""

from __future__ import annotations

import re
from datetime import datetime

from PySide6.QtCore import Qt

from reviewer_app.ui.models import QueueListModel
from reviewer_app.ui.plain import isolate
from tests.support.proxy import FaultProxy
from tests.support.servers import LiveServer
from tests.ui.conftest import Desk

AS_OF = re.compile(r" \(counts as of (\d\d:\d\d)\)$")


def rows(desk: Desk) -> list[str]:
    picker = desk.window.queue_picker
    return [picker.itemText(i) for i in range(picker.count())]


def test_offline_the_pickers_counts_say_as_of_when(demo_server: LiveServer, desk_factory) -> None:
    proxy = FaultProxy(demo_server.port).start()
    try:
        start = datetime.now()
        desk: Desk = desk_factory(proxy.url)
        window = desk.window
        desk.wait(lambda: window.online is True)
        live = rows(desk)
        assert live and not any("as of" in r or "last known" in r for r in live)

        proxy.offline()
        desk.wait(lambda: window.online is False, 20_000)
        old = rows(desk)
        assert len(old) == len(live)
        for row in old:
            found = AS_OF.search(row)
            assert found, f"offline, the counts look live: {row!r}"
            # the last time the service gave the counts: since the desk opened
            assert f"{start:%H:%M}" <= found[1] <= f"{datetime.now():%H:%M}", row
        name = window.queues.queues[0].name
        assert old[0].startswith(f"{isolate(name)} — "), "the queue's name as plain text"
        assert AS_OF.search(window.queue_picker.currentText()), "the closed picker says it"
        accessible = window.queues.index(0, 0).data(Qt.ItemDataRole.AccessibleTextRole)
        assert AS_OF.search(accessible), "and a screen reader says it"

        proxy.online()
        desk.wait(lambda: window.online is True, 20_000)
        desk.wait(lambda: not any(AS_OF.search(r) for r in rows(desk)), 20_000)
    finally:
        proxy.stop()


def test_counts_kept_from_an_earlier_start_are_last_known(demo_server: LiveServer) -> None:
    from reviewer_app.core.api import ApiClient
    from tests.ui.conftest import REVIEWER

    with ApiClient(demo_server.url) as api:
        api.login(*REVIEWER)
        queues = api.queues().queues
    model = QueueListModel()
    model.set_queues(queues)  # from the store, as a start offline shows them
    assert "(counts" not in model.index(0, 0).data()
    model.set_live(False)
    assert model.index(0, 0).data().endswith(" (last known counts)")
    model.set_queues(queues, counted_at=datetime(2020, 5, 4, 9, 7).timestamp())
    assert model.index(0, 0).data().endswith(" (counts as of 2020-05-04 09:07)")
    model.set_live(True)
    assert "(counts" not in model.index(0, 0).data()
