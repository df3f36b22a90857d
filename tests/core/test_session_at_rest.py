"""What a whole session leaves on disk, through the app's own core (session, store, sync
engine) against the real service over HTTP: 100 known post texts and 100 known notes, and
the token and the store key, are found in no file under the data folder (store, WAL, SHM,
the log file, the settings ini) in any encoding; logging out and "clear local data" wipe
the profile; with memory-only credentials and no password nothing is written at all; with no
keyring but a password the store is on disk under a key wrapped with it, and survives a
crash, still unreadable."""

from __future__ import annotations

import base64
import logging
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from keyring.backends import fail

from reviewer_app.core import events as ev
from reviewer_app.core import keyfile
from reviewer_app.core.credentials import Credentials
from reviewer_app.core.errors import UnsentVerdicts
from reviewer_app.core.session import KeyMode, ReviewSession
from reviewer_app.core.store import Store
from reviewer_app.protocol import Role
from reviewer_app.server.feeds.seed import LOAD_QUEUE
from tests.support.at_rest import (
    forms,
    known_texts,
    needles_for,
    profile_secrets,
    scan,
    seed_known_posts,
)
from tests.support.client import EventLog, all_decisions, login, wait_until
from tests.support.keyring_memory import MemoryKeyring
from tests.support.servers import PASSWORD, LiveServer

QUEUE = LOAD_QUEUE.id
CLIENT_LOGGERS = ("net", "sync", "store", "ui", "urllib3")


@pytest.fixture
def service(tmp_path: Path) -> Iterator[LiveServer]:
    """The service with nothing in its queue but what a test seeds (its database is outside
    the data folder that is scanned)."""
    srv = LiveServer(f"sqlite:///{tmp_path / 'service.db'}").start()
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture
def log_file(tmp_path: Path) -> Iterator[Path]:
    """The client's log categories written to a file under the data folder, at DEBUG."""
    path = tmp_path / "data" / "logs" / "review-desk.log"
    path.parent.mkdir(parents=True)
    handler = logging.FileHandler(path, encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(asctime)s %(name)s %(levelname)s %(message)s"))
    saved = []
    for name in CLIENT_LOGGERS:
        logger = logging.getLogger(name)
        saved.append((logger, logger.level))
        logger.setLevel(logging.DEBUG)
        logger.addHandler(handler)
    try:
        yield path
    finally:
        for logger, level in saved:
            logger.removeHandler(handler)
            logger.setLevel(level)
        handler.close()


def _ui_settings(data: Path, server_url: str, username: str) -> Path:
    """The settings ini the desktop app keeps beside the store (what the login saves)."""
    qtcore = pytest.importorskip("PySide6.QtCore")
    from reviewer_app.ui import preferences as P

    path = data / "ui.ini"
    prefs = P.Preferences(qtcore.QSettings(str(path), qtcore.QSettings.Format.IniFormat))
    prefs.set(P.SERVER, server_url)
    prefs.set(P.USERNAME, username)
    return path


def _key_forms(key: bytes) -> list[bytes]:
    encoded = base64.b64encode(key)
    return [key, encoded, key.hex().encode(), *forms(encoded.decode())]


def _decide(session: ReviewSession, notes: list[str], undo: float) -> list[str]:
    """Decide the next posts, one per note, as the reviewer would; returns the item ids."""
    decided = []
    for note in notes:
        wait_until(lambda: session.store.next_item(QUEUE) is not None, 30, "a post to review")
        item = session.store.next_item(QUEUE)
        assert item is not None
        session.store.record_verdict(item.item.id, action="keep", note=note, undo_window=undo)
        session.engine.nudge()
        decided.append(item.item.id)
    return decided


def test_no_post_text_note_token_or_key_in_any_file_under_the_data_folder(
    service: LiveServer, tmp_path: Path, log_file: Path
) -> None:
    texts = known_texts(100, "POST")
    notes = known_texts(100, "NOTE")
    seed_known_posts(service.service, texts)
    service.add_user("nina")
    keyring = MemoryKeyring()
    credentials = Credentials(keyring)
    data = tmp_path / "data"
    ini = _ui_settings(data, service.url, "nina")

    result, token = ReviewSession.log_in(service.url, "nina", PASSWORD, credentials=credentials)
    session = ReviewSession(
        service.url,
        result.user,
        token,
        credentials=credentials,
        data_root=data,
        listener=EventLog(),
    )
    assert not session.memory_only and session.store.encrypted
    key = base64.b64decode(
        keyring.secrets[(Credentials.store_key_service_name(session.server_url), "nina")]
    )
    secrets = {
        **needles_for(texts),
        **needles_for(notes),
        "token": forms(token),
        "store key": _key_forms(key),
    }
    # the search finds what is there: the service's own database holds every text
    served = b"".join(p.read_bytes() for p in tmp_path.glob("service.db*"))
    assert all(any(n in served for n in forms(t)) for t in texts)

    def leaks() -> list[tuple[str, Path]]:
        return scan(data, secrets)

    session.store.settings.set("prefetch_target", 60)
    session.start([QUEUE])
    wait_until(lambda: len(session.store.worklist(QUEUE)) >= 30, 30, "posts leased ahead")
    assert leaks() == [], "posts cached for review"

    # 50 verdicts with notes, still inside a long undo window: in the outbox, on disk
    first = _decide(session, notes[:50], undo=600)
    assert session.store.counts().pending == 50
    assert leaks() == [], "verdicts with notes waiting to be sent"

    # sent, and 50 more sent as they are made
    session.store.flush_all(time.time())
    session.engine.nudge()
    second = _decide(session, notes[50:], undo=0)
    wait_until(lambda: session.store.counts().pending == 0, 60, "every verdict delivered")
    assert len(set(first + second)) == 100
    assert leaks() == [], "after delivery"
    store_files = sorted(p.name for p in session.path.parent.iterdir())
    assert session.path.name in store_files and session.path.stat().st_size > 0

    session.close()  # a clean exit keeps the store (and its key) for the next start
    assert session.path.exists()
    assert leaks() == [], "after a clean exit"
    assert log_file.stat().st_size > 0 and ini.exists()

    lead = login(service, "lena", Role.lead)
    decided = all_decisions(lead, "nina")
    lead.close()
    assert sorted(d.note or "" for d in decided) == sorted(notes), "all 100 delivered"


def test_the_store_key_lives_only_in_the_keyring_and_logging_out_wipes_the_profile(
    service: LiveServer, tmp_path: Path
) -> None:
    texts = known_texts(10, "POST")
    seed_known_posts(service.service, texts)
    service.add_user("omar")
    keyring = MemoryKeyring()
    credentials = Credentials(keyring)
    data = tmp_path / "data"
    result, token = ReviewSession.log_in(service.url, "omar", PASSWORD, credentials=credentials)
    session = ReviewSession(
        service.url, result.user, token, credentials=credentials, data_root=data
    )
    service_name = Credentials.store_key_service_name(session.server_url)
    assert service_name.endswith(":store-key")
    stored = keyring.secrets[(service_name, "omar")]
    key = base64.b64decode(stored)
    assert len(key) == 32 and stored != token
    session.store.settings.set("undo_window_seconds", 0.0)
    session.start([QUEUE])
    _decide(session, ["a note"] * 3, undo=0)
    wait_until(lambda: session.store.counts().pending == 0, 30, "delivery")
    assert scan(data, {"key": _key_forms(key)}) == []
    # the same key opens the store at the next start; it is not made again
    assert credentials.store_key(session.server_url, "omar") == key

    session.log_out()
    assert not session.path.exists()
    assert [p for p in data.rglob("*") if p.is_file()] == []
    assert keyring.secrets == {}, "token and store key both gone"


def test_logging_out_offline_keeps_only_the_unsent_verdicts_for_the_next_login(
    service: LiveServer, tmp_path: Path
) -> None:
    texts = known_texts(10, "POST")
    seed_known_posts(service.service, texts)
    service.add_user("pia")
    keyring = MemoryKeyring()
    credentials = Credentials(keyring)
    data = tmp_path / "data"
    result, token = ReviewSession.log_in(service.url, "pia", PASSWORD, credentials=credentials)
    session = ReviewSession(
        service.url, result.user, token, credentials=credentials, data_root=data
    )
    session.start([QUEUE])
    _decide(session, ["kept for later"] * 2, undo=600)
    wait_until(lambda: len(session.store.worklist(QUEUE)) == 10, 30, "all posts leased")
    service.stop()  # the network is gone

    assert session.log_out() == 2
    key = credentials.store_key(session.server_url, "pia")  # kept: the verdicts need it
    assert key is not None
    with Store(session.path, key=key) as store:
        assert store.pending_count() == 2
        assert len(store.worklist()) == 2, "only the rows the unsent verdicts need"
        assert all(store.stored_item(r.item_id) is None for r in store.worklist())
        assert {o.verdict.note for o in store.take_due(time.time() + 10**6, 10)} == {
            "kept for later"
        }
    assert scan(data, needles_for(texts)) == []

    # "clear local data" refuses while they are unsent, unless told to drop them
    again = ReviewSession(service.url, result.user, "t", credentials=credentials, data_root=data)
    with pytest.raises(UnsentVerdicts) as refused:
        again.clear_local_data()
    assert refused.value.count == 2 and again.path.exists()
    again.clear_local_data(discard_unsent=True)
    assert not again.path.exists()
    assert (Credentials.store_key_service_name(again.server_url), "pia") not in keyring.secrets


def test_a_leads_held_bulk_decision_survives_logging_out_and_counts_as_unsent(
    service: LiveServer, tmp_path: Path
) -> None:
    """A bulk decision held here (its undo window, or no network) is unsent work: logging
    out keeps the store for it and "clear local data" counts it. Both deleted it without a
    word when no single verdict was waiting too."""
    from reviewer_app.core.bulk import Candidate, new_request

    seed_known_posts(service.service, known_texts(4, "POST"))
    service.add_user("lena", Role.lead)
    keyring = MemoryKeyring()
    credentials = Credentials(keyring)
    data = tmp_path / "data"
    result, token = ReviewSession.log_in(service.url, "lena", PASSWORD, credentials=credentials)
    session = ReviewSession(
        service.url, result.user, token, credentials=credentials, data_root=data
    )
    session.start([QUEUE])
    wait_until(lambda: len(session.store.worklist(QUEUE)) >= 2, 30, "posts leased")
    ids = [r.item_id for r in session.store.worklist(QUEUE)[:2]]
    request = new_request([Candidate(i, QUEUE) for i in ids], "keep", at=time.time())
    session.store.hold_bulk(request, undo_window=600)
    assert session.store.pending_count() == 0 and session.unsent_count() == 2
    with pytest.raises(UnsentVerdicts) as refused:
        session.clear_local_data()
    assert refused.value.count == 2

    assert session.log_out() == 2
    key = credentials.store_key(session.server_url, "lena")
    assert key is not None and session.path.exists()
    with Store(session.path, key=key) as store:
        [held] = store.held_bulks()
        assert [i.item_id for i in held.request.items] == ids


def test_with_no_keyring_the_session_writes_nothing_to_disk(
    service: LiveServer, tmp_path: Path, log_file: Path
) -> None:
    texts = known_texts(20, "POST")
    seed_known_posts(service.service, texts)
    service.add_user("quin")
    credentials = Credentials(memory_only=True)
    data = tmp_path / "data"
    result, token = ReviewSession.log_in(service.url, "quin", PASSWORD, credentials=credentials)
    assert not result.saved.persistent
    session = ReviewSession(
        service.url, result.user, token, credentials=credentials, data_root=data
    )
    assert session.memory_only and not session.store.encrypted
    session.start([QUEUE])
    notes = known_texts(20, "NOTE")
    _decide(session, notes, undo=0)  # the engine's own connection sees the same memory store
    wait_until(lambda: session.store.counts().pending == 0, 30, "delivery")
    assert len(session.store.journal(status="accepted")) == 20
    written = [p for p in data.rglob("*") if p.is_file() and p != log_file]
    assert written == [], "no store, WAL or SHM file"
    assert not session.path.exists()
    assert scan(data, {**needles_for(texts), **needles_for(notes), "token": forms(token)}) == []
    session.close()


def test_with_no_keyring_the_store_survives_a_crash_under_the_password_and_nothing_is_readable(
    tmp_path: Path, log_file: Path
) -> None:
    """A workstation with no keyring (the ``fail`` backend): the store is on disk under a key
    wrapped with the password; offline work, the app dies, a start with no network opens it
    with the password, more work, the service is back and a login sends it all, once. At
    every step no post text, note, token, the password or the store key is in any file."""
    database = f"sqlite:///{tmp_path / 'service.db'}"
    service = LiveServer(database).start()
    port = service.port
    texts = known_texts(80, "POST")
    notes = known_texts(60, "NOTE")
    seed_known_posts(service.service, texts)
    service.add_user("rhea")
    data = tmp_path / "data"
    ini = _ui_settings(data, service.url, "rhea")
    credentials = Credentials(fail.Keyring())
    result, token = ReviewSession.log_in(service.url, "rhea", PASSWORD, credentials=credentials)
    assert not result.saved.persistent
    key = ReviewSession.profile_key(
        service.url, "rhea", PASSWORD, credentials=credentials, data_root=data
    )
    assert key.mode is KeyMode.password and key.key is not None
    secrets = {
        **needles_for(texts),
        **needles_for(notes),
        **profile_secrets(tokens=[token], password=PASSWORD, key=key.key),
    }
    session = ReviewSession(
        service.url, result.user, token, credentials=credentials, data_root=data, key=key
    )
    session.store.settings.set("backoff_cap_seconds", 1.0)
    session.start([QUEUE])
    session.engine.work_offline(QUEUE, 80)
    wait_until(lambda: len(session.store.worklist(QUEUE)) == 80, 60, "the offline batch")
    assert scan(data, secrets) == [], "the offline batch on disk"

    service.stop()  # the network goes
    first = _decide(session, notes[:30], undo=0)
    assert session.store.pending_count() == 30
    session.engine.stop(release=False)  # the app dies
    session.store.close()
    wrapped = keyfile.key_file_path(session.path)
    assert wrapped.exists() and session.path.exists()
    assert scan(data, secrets) == [], "after the crash: store, WAL, key file, log, ini"

    again_credentials = Credentials(fail.Keyring())
    start = ReviewSession.open_offline(
        service.url, "rhea", PASSWORD, credentials=again_credentials, data_root=data
    )
    assert start.token is None and (start.summary.unsent, start.summary.posts) == (30, 50)
    log = EventLog()
    again = ReviewSession(
        service.url,
        start.user,
        None,
        credentials=again_credentials,
        data_root=data,
        listener=log,
        key=start.key,
        offline=True,
    )
    again.start([QUEUE])
    second = _decide_offline(again, notes[30:])
    assert scan(data, secrets) == [], "offline again"

    service = LiveServer(database, port=port).start()  # the network is back
    try:
        log.wait(lambda: any(e.server_back for e in log.of(ev.AuthRequired)), 60, "a login")
        _result, new_token = again.log_in_again(PASSWORD)
        again.relogged_in(new_token)
        wait_until(lambda: again.store.pending_count() == 0, 60, "every verdict delivered")
        again.close()
        secrets.update(profile_secrets(tokens=[token, new_token]))
        assert scan(data, secrets) == [], "after delivery and a clean exit"
        assert log_file.stat().st_size > 0 and ini.exists()
        lead = login(service, "lena", Role.lead)
        decided = all_decisions(lead, "rhea")
        lead.close()
        assert sorted(d.item_id for d in decided) == sorted(first + second), "each once"
        assert sorted(d.note or "" for d in decided) == sorted(notes)
    finally:
        service.stop()


def _decide_offline(session: ReviewSession, notes: list[str]) -> list[str]:
    """Decide the next posts with no network (their leases may have run out here)."""
    decided = []
    for note in notes:
        item = session.store.next_item(QUEUE, include_expired=True)
        assert item is not None
        session.store.record_verdict(item.item.id, action="keep", note=note, undo_window=0)
        decided.append(item.item.id)
    return decided
