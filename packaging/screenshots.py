"""The README's screenshots, taken from the real app on the demo dataset.

Run under Xvfb: ``xvfb-run -s "-screen 0 1440x900x24" python packaging/screenshots.py``
(``... screenshots.py offline`` takes only the offline sequence;
``xvfb-run -s "-screen 0 1920x1080x24" python packaging/screenshots.py sizes`` only the review
window at 1280 x 800 and 1920 x 1080, the README's first two pictures).
It starts the reference service in-process with the demo data, logs in as the demo
reviewer, waits for a post, grabs the review window, then makes a real conflict (the
reviewer's lease runs out on the server's clock, the demo lead decides the post first, the
reviewer's verdict comes back as a conflict) and grabs the conflicts view.

The offline sequence is a train ride through the login dialog, with no keyring (the store
under a key wrapped with the password): Ctrl+O, the service stopped, some decisions; the
app closed and started again with the service still down (the login dialog starts
offline); the service back (a login is asked for) and everything sent.
"""

from __future__ import annotations

import json
import random
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from PySide6.QtCore import QSettings, Qt  # noqa: E402
from PySide6.QtWidgets import QApplication, QDialogButtonBox  # noqa: E402

from reviewer_app.core.api import ApiClient  # noqa: E402
from reviewer_app.core.credentials import Credentials  # noqa: E402
from reviewer_app.core.session import ReviewSession  # noqa: E402
from reviewer_app.protocol import SearchKind  # noqa: E402
from reviewer_app.server.feeds.seed import seed_demo  # noqa: E402
from reviewer_app.ui import preferences as P  # noqa: E402
from reviewer_app.ui.app import (  # noqa: E402
    application,
    open_window,
    run_login,
)
from reviewer_app.ui.dialogs import LoginDialog  # noqa: E402
from reviewer_app.ui.main_window import MainWindow  # noqa: E402
from tests.support.api import ApiSession, verdict  # noqa: E402
from tests.support.clock import ManualClock  # noqa: E402
from tests.support.servers import LiveServer  # noqa: E402

OUT = ROOT / "resources" / "screenshots"
QUEUE = "misinformation"
SHIFT_HOURS = 8


def pump(seconds: float) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        QApplication.processEvents()
        time.sleep(0.01)


def main() -> int:
    app = application()
    work = Path(tempfile.mkdtemp(prefix="screenshots-"))
    # the look the app starts with (its style and 11-point text), as `reviewer-app` does
    P.apply_look(P.Preferences(QSettings(str(work / "look.ini"), QSettings.Format.IniFormat)))
    OUT.mkdir(parents=True, exist_ok=True)
    if sys.argv[1:] == ["sizes"]:
        size_screenshots(work)
        print(f"wrote the review window at each size in {OUT}")
        app.quit()
        return 0
    if sys.argv[1:] == ["offline"]:
        offline_screenshots(work)
        print(f"wrote the offline screenshots in {OUT}")
        app.quit()
        return 0
    # the service's clock starts a working day ago, so the lead's charts have a shift to show
    clock = ManualClock(time.time() - SHIFT_HOURS * 3_600)
    server = LiveServer(f"sqlite:///{work / 'demo.db'}", clock=clock).start()
    seed_demo(server.service, datetime.now(UTC))
    decide_a_shift(server, clock)
    credentials = Credentials(memory_only=True)
    result, token = ReviewSession.log_in(
        server.url, "reviewer", "review-desk-demo", credentials=credentials
    )
    prefs = P.Preferences(QSettings(str(work / "ui.ini"), QSettings.Format.IniFormat))
    window = open_window(
        server.url, result, token, credentials=credentials, prefs=prefs, data_root=work
    )
    window.resize(1440, 880)
    window.move(0, 0)
    deadline = time.monotonic() + 30
    while window.review.current is None and time.monotonic() < deadline:
        pump(0.1)
    window.queue_picker.setCurrentIndex(window.queues.row_of(QUEUE))
    pump(1.0)
    # a post with media and several scores makes the better picture
    for _ in range(30):
        item = window.review.current.item
        if item.post.media and len(item.scores) > 1 and item.fact_checks:
            break
        window.review.skip()
        pump(0.3)
    pump(0.5)
    OUT.mkdir(parents=True, exist_ok=True)
    window.grab().save(str(OUT / "review-window.png"))

    # a real conflict: the lease runs out, the lead decides first, our verdict comes back
    target = window.review.current.item.id
    clock.advance(3_600)
    lead = ApiClient(server.url)
    lead.login("lead", "review-desk-lead")
    grant = lead.claim(QUEUE, 200, 600)
    rival = next(i for i in grant.items if i.item.id == target)
    rating = rival.item.fact_checks[0].rating  # the fact-checkers' rating, as a lead gives it
    ApiSession(server.url, lead.token).decide(
        [
            verdict(
                json.loads(rival.model_dump_json()),
                "label-reduce" if rating in ("false", "partly_false") else "label",
                rating=rating,
                policies=["MISINFO.CIVIC"],
            )
        ]
    )
    window.store.settings.set("undo_window_seconds", 0.0)
    window.review.guard_seconds = 0
    window.verdicts.choose("no-violation")
    deadline = time.monotonic() + 30
    while window.store.counts().conflicts_open == 0 and time.monotonic() < deadline:
        window.session.engine.nudge()
        pump(0.2)
    window.show_conflicts()
    pump(0.5)
    assert window.conflicts_view is not None
    window.conflicts_view.grab().save(str(OUT / "conflicts-view.png"))
    window.shutdown()
    lead_screenshots(server, work)
    server.stop()
    offline_screenshots(work)
    print(f"wrote the screenshots in {OUT}")
    app.quit()
    return 0


#: the screens the README shows the review window on (a laptop's and a desktop monitor's)
SIZES = ((1280, 800), (1920, 1080))


def size_screenshots(work: Path) -> None:
    """The demo reviewer's window filling a 1280 x 800 and a 1920 x 1080 screen (less a
    title bar and a desktop panel), on a post with media and several scores; saved with a
    256-colour palette so each picture stays small."""
    from PySide6.QtGui import QImage

    server = LiveServer(f"sqlite:///{work / 'sizes.db'}").start()
    seed_demo(server.service, datetime.now(UTC))
    credentials = Credentials(memory_only=True)
    # as `reviewer-app --demo` opens it: the store on disk under a key from the password,
    # so the window shows what a reviewer meets (no memory-only banner)
    result, token, key = ReviewSession.log_in_with_key(
        server.url,
        "reviewer",
        "review-desk-demo",
        credentials=credentials,
        data_root=work / "sizes",
    )
    prefs = P.Preferences(QSettings(str(work / "sizes.ini"), QSettings.Format.IniFormat))
    window = open_window(
        server.url,
        result,
        token,
        credentials=credentials,
        prefs=prefs,
        data_root=work / "sizes",
        key=key,
        quiet=True,
    )
    window.move(0, 0)
    pump_until(lambda: window.review.current is not None, "a post")
    window.queue_picker.setCurrentIndex(window.queues.row_of(QUEUE))
    pump(1.0)
    for _ in range(30):
        item = window.review.current.item
        if item.post.media and len(item.scores) > 1 and item.fact_checks:
            break
        window.review.skip()
        pump(0.3)
    for width, height in SIZES:
        window.resize(width, height - 64)
        pump(1.0)
        image = (
            window.grab()
            .toImage()
            .convertToFormat(QImage.Format.Format_Indexed8, Qt.ImageConversionFlag.AvoidDither)
        )
        image.save(str(OUT / f"review-{width}x{height}.png"), "PNG", 0)  # 0: most compressed
    window.shutdown()
    server.stop()


def pump_until(condition: Callable[[], bool], what: str, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise RuntimeError(f"timed out waiting for {what}")
        pump(0.05)


def log_in(prefs: P.Preferences, root: Path, url: str, windows: list[MainWindow]) -> LoginDialog:
    """The login dialog, filled in and sent as the reviewer would (no keyring here)."""
    dialog = run_login(prefs, Credentials(memory_only=True), windows.append, data_root=root)
    dialog.move(420, 300)
    dialog.server.setText(url)
    dialog.username.setText("reviewer")
    dialog.password.setText("review-desk-demo")
    return dialog


def decide_plainly(window: MainWindow, count: int) -> None:
    """``count`` posts decided with the first action that needs nothing more."""
    review = window.review
    review.guard_seconds = 0
    for _ in range(count):
        pump_until(lambda: review.current is not None, "a post")
        queue = review.queue
        assert queue is not None
        action = next(
            a
            for a in queue.config.actions
            if a.key
            and not window.verdicts.selection(a).needs
            and not window.verdicts.selection(a).refusal
        )
        window.verdicts.choose(action.id)
        pump(0.2)


def offline_screenshots(work: Path) -> None:
    """A train ride: Ctrl+O, the network gone, decisions; the app started again with the
    service still down; the service back, a login, everything sent."""
    database = work / "offline.db"
    server = LiveServer(f"sqlite:///{database}").start()
    seed_demo(server.service, datetime.now(UTC))
    port = server.port
    root = work / "offline-client"
    prefs = P.Preferences(QSettings(str(work / "offline.ini"), QSettings.Format.IniFormat))
    windows: list[MainWindow] = []
    dialog = log_in(prefs, root, server.url, windows)
    dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    pump_until(lambda: bool(windows) and windows[0].review.current is not None, "the window")
    window = windows[0]
    window.resize(1440, 880)
    window.move(0, 0)
    window.queue_picker.setCurrentIndex(window.queues.row_of(QUEUE))
    pump(1.0)
    window.work_offline()
    pump_until(lambda: not window.progress.isVisible(), "the offline batch")
    server.stop()  # the train leaves the station
    window.session.engine.nudge()
    pump_until(lambda: window.online is False, "offline")
    decide_plainly(window, 5)
    pump(1.0)
    window.grab().save(str(OUT / "offline-1-working.png"))
    window.shutdown()  # offline, nothing can be given back: everything stays
    window.close()

    # the app again, the service still down
    dialog = log_in(prefs, root, server.url, windows)

    def on_status(text: str) -> None:
        if "working offline with" in text:
            dialog.grab().save(str(OUT / "offline-2-start.png"))

    dialog.status_shown.connect(on_status)
    dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    pump_until(lambda: len(windows) == 2 and windows[1].review.current is not None, "offline")
    window = windows[1]
    window.resize(1440, 880)
    window.move(0, 0)
    window.store.settings.set("queue_refresh_seconds", 2.0)  # the counts follow quickly
    decide_plainly(window, 3)

    # the network is back: no saved login here, so the app asks for one
    server = LiveServer(f"sqlite:///{database}", port=port).start()
    pump_until(lambda: window.relogin is not None, "the login again")
    relogin = window.relogin
    assert relogin is not None
    relogin.password.setText("review-desk-demo")
    pump(0.5)
    relogin.grab().save(str(OUT / "offline-3-login-again.png"))
    relogin.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    pump_until(lambda: window.store.pending_count() == 0 and window.pending == 0, "delivery")
    pump(3.0)
    window.grab().save(str(OUT / "offline-4-synced.png"))
    window.shutdown()
    window.close()
    server.stop()


def decide_a_shift(server: LiveServer, clock: ManualClock) -> None:
    """An hour at a time over the last working day, decisions by four reviewers across the
    queues, so the lead's figures and charts say something; the clock ends at now."""
    rng = random.Random(7)
    sessions = [ApiSession.login(server.url, "reviewer", "review-desk-demo")]
    sessions += [server.login(name) for name in ("amara", "jonas", "li-wei")]
    for _hour in range(SHIFT_HOURS):
        for session in sessions:
            decide_some(session, rng, count=rng.randint(1, 3))
        clock.advance(3_600)
    clock.now = time.time()


def decide_some(session: ApiSession, rng: random.Random, count: int) -> None:
    """``count`` decisions in each queue a reviewer works, with what each action needs."""
    for queue in session.get("/queues").json()["queues"]:
        config = queue["config"]
        if config.get("lead_only"):
            continue
        leased = session.post(
            f"/queues/{queue['id']}/leases", json={"count": count, "lease_seconds": 300}
        ).json()["items"]
        verdicts = []
        reducing = {r["id"] for r in config.get("ratings", []) if r.get("reduces")}
        for x in leased:
            given = [f["rating"] for f in x["item"]["fact_checks"]]
            # a rating is one the fact-checkers gave; false and partly false label and reduce
            usable = [
                a
                for a in config["actions"]
                if a["kind"] != "escalate"
                and (not a.get("requires_rating") or given)
                and (a["kind"] != "label" or (given[:1] and given[0] not in reducing))
                and (a["kind"] != "label_and_reduce" or (given[:1] and given[0] in reducing))
            ]
            action = rng.choice(usable)
            fields: dict[str, object] = {"time_spent_ms": rng.randint(2_000, 40_000)}
            if action.get("requires_policy"):
                fields["policies"] = [rng.choice(config["policies"])["code"]]
            if action.get("requires_rating"):
                fields["rating"] = given[0]
            if action.get("requires_note"):
                fields["note"] = "context in the thread"
            verdicts.append(verdict(x, action["id"], **fields))
        if verdicts:
            session.decide(verdicts)


def lead_screenshots(server: LiveServer, work: Path) -> None:
    """The Lead workspace: queue health, reviewer figures, decisions, escalations,
    wellbeing, search and a blind audit."""
    credentials = Credentials(memory_only=True)
    result, token = ReviewSession.log_in(
        server.url, "lead", "review-desk-lead", credentials=credentials
    )
    prefs = P.Preferences(QSettings(str(work / "lead.ini"), QSettings.Format.IniFormat))
    window = open_window(
        server.url, result, token, credentials=credentials, prefs=prefs, data_root=work / "lead"
    )
    window.resize(1440, 880)
    window.move(0, 0)
    pump(2.0)
    lead = window.lead
    assert lead is not None
    window.show_mode(1)
    for tab, name in (
        (lead.queues_view, "lead-queues.png"),
        (lead.reviewers, "lead-reviewers.png"),
        (lead.decisions, "lead-decisions.png"),
        (lead.escalations, "lead-escalations.png"),
        (lead.exposure, "lead-wellbeing.png"),
        (lead.search, "lead-search.png"),
    ):
        lead.setCurrentWidget(tab)
        pump(2.5)
        if tab is lead.decisions:
            lead.decisions.table.selectRow(0)
            pump(1.5)
        if tab is lead.escalations:
            lead.escalations.table.selectRow(0)
            pump(0.5)
        if tab is lead.search:
            lead.search.kind.setCurrentIndex(lead.search.kind.findData(SearchKind.text))
            lead.search.query.setText("cure")
            lead.search.search()
            pump(2.5)
        window.grab().save(str(OUT / name))
    lead.setCurrentWidget(lead.audits)
    pump(1.0)
    lead.audits.sample_size.setValue(10)
    lead.audits.create_sample()
    pump(2.0)
    lead.audits.start_selected()
    pump(2.0)
    window.grab().save(str(OUT / "lead-audit-blind.png"))
    window.shutdown()


if __name__ == "__main__":
    sys.exit(main())
