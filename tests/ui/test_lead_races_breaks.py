"""The Break reminders dialog never silently undoes another lead's change (real demo
service over HTTP, offscreen): a save made from the rule read when it opened, after another
lead changed it, is refused; the dialog says so and shows the rule as it is now. Turning a
queue's reminders off and on again keeps its own high-harm kinds."""

from __future__ import annotations

from reviewer_app.core.api import ApiClient
from reviewer_app.protocol import BreakRule, HarmKind
from reviewer_app.ui.lead.breaks import BreaksDialog
from tests.support.servers import LiveServer
from tests.ui.conftest import LEAD

QUEUE = "misinformation"


def _lead(server: LiveServer) -> ApiClient:
    client = ApiClient(server.url)
    client.login(*LEAD)
    return client


def _rule(server: LiveServer) -> BreakRule | None:
    with _lead(server) as api:
        return next(q for q in api.queues().queues if q.id == QUEUE).config.breaks


def _opened(server: LiveServer, qtbot) -> BreaksDialog:  # type: ignore[no-untyped-def]
    dialog = BreaksDialog(lambda: _lead(server), QUEUE)
    qtbot.addWidget(dialog)
    qtbot.waitUntil(lambda: not dialog.busy and dialog.picker.count() > 0, timeout=20_000)
    return dialog


def test_a_save_after_another_leads_change_is_refused_and_shows_theirs(
    demo_server: LiveServer, qtbot
) -> None:
    with _lead(demo_server) as api:
        api.set_breaks(QUEUE, BreakRule(after_minutes=60, high_harm=[HarmKind.hate]))
    dialog = _opened(demo_server, qtbot)
    assert (dialog.minutes.value(), dialog.items.value()) == (60, 0)
    theirs = BreakRule(after_minutes=45, after_high_harm=9, high_harm=[HarmKind.child_safety])
    with _lead(demo_server) as api:  # lead B, meanwhile (over HTTP, as any client)
        api.set_breaks(QUEUE, theirs)

    saved: list[int] = []
    dialog.saved.connect(lambda _queue, version: saved.append(version))
    dialog.minutes.setValue(30)  # A changes only the minutes
    dialog.save()
    qtbot.waitUntil(lambda: not dialog.busy and "nothing was saved" in dialog.status.text())
    assert saved == [], "nothing saved, the dialog stays"
    assert _rule(demo_server) == theirs, "B's post count and kinds are kept"
    qtbot.waitUntil(lambda: (dialog.minutes.value(), dialog.items.value()) == (45, 9))
    assert dialog.picker.currentData() == QUEUE

    dialog.minutes.setValue(30)  # from what it shows now, the change goes through
    with qtbot.waitSignal(dialog.saved, timeout=20_000):
        dialog.save()
    assert len(saved) == 1
    assert _rule(demo_server) == theirs.model_copy(update={"after_minutes": 30})


def test_reminders_off_then_on_again_keep_the_queues_kinds(demo_server: LiveServer, qtbot) -> None:
    own = [HarmKind.self_harm, HarmKind.graphic_violence]
    with _lead(demo_server) as api:
        api.set_breaks(QUEUE, BreakRule(after_minutes=60, after_high_harm=10, high_harm=own))
    dialog = _opened(demo_server, qtbot)
    dialog.minutes.setValue(0)
    dialog.items.setValue(0)  # never for both: no reminders
    with qtbot.waitSignal(dialog.saved, timeout=20_000):
        dialog.save()
    assert _rule(demo_server) is None

    again = _opened(demo_server, qtbot)
    again.minutes.setValue(60)
    with qtbot.waitSignal(again.saved, timeout=20_000):
        again.save()
    assert _rule(demo_server) == BreakRule(after_minutes=60, high_harm=own)
