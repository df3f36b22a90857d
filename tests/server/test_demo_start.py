"""A demo that was killed left its prefetched posts leased to its own account: the next
demo takes the same port, where the client's store (kept per server address) picks them up
again; when that port is taken it starts on another, and releases what the last demo held
(that store is not opened, so nobody would review them until the leases ran out)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests
from argon2 import PasswordHasher
from argon2.profiles import RFC_9106_LOW_MEMORY
from sqlalchemy import select, update

from reviewer_app.core.errors import LocalServiceFailed
from reviewer_app.demo import (
    DEMO_ACCOUNTS,
    DemoProcess,
    DemoServer,
    demo_port,
    free_port,
    start_demo_server,
)
from reviewer_app.protocol import LeaseClaim, SessionCreate
from reviewer_app.server.demo.whole import SEEDING_SUFFIX, UNFINISHED_SUFFIX
from reviewer_app.server.domain.records import Principal
from reviewer_app.server.problems import ApiError
from reviewer_app.server.storage.tables import users
from tests.support.client import wait_until


def _reviewer(server: DemoServer) -> Principal:
    user, password = DEMO_ACCOUNTS["reviewer"]
    token = server.service.login(SessionCreate(username=user, password=password)).token
    found = server.service.authenticate(token)
    assert found is not None
    return found


def _leased(server: DemoServer) -> int:
    return sum(q.counts.leased for q in server.service.list_queues(_reviewer(server)).queues)


def test_the_demo_keeps_its_port_and_releases_what_it_cannot_pick_up(tmp_path: Path) -> None:
    database = tmp_path / "demo-server.db"
    first = start_demo_server(database)
    try:
        first.service.claim(_reviewer(first), "misinformation", LeaseClaim(count=5))
        assert _leased(first) == 5
    finally:
        first.stop()  # as a killed demo: nothing given back

    again = start_demo_server(database)
    try:
        assert again.port == first.port
        assert _leased(again) == 5  # the client's store on this address holds them
    finally:
        again.stop()

    with socket.socket() as squatter:
        squatter.bind(("127.0.0.1", first.port))
        squatter.listen()
        moved = start_demo_server(database)
        try:
            assert moved.port != first.port
            assert _leased(moved) == 0
        finally:
            moved.stop()
    assert demo_port(tmp_path) == (moved.port, True)


def test_a_port_given_is_used_and_remembered(tmp_path: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        asked = probe.getsockname()[1]
    assert demo_port(tmp_path, asked) == (asked, False)
    assert (tmp_path / "demo-port").read_text().strip() == str(asked)
    assert demo_port(tmp_path) == (asked, True)


def _gone(pid: int) -> bool:
    """The process ended (a zombie no one has reaped yet counts as ended)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return True
    return "\nState:\tZ" in status


def test_the_service_process_serves_then_ends_when_the_app_closes_its_end(
    tmp_path: Path,
) -> None:
    """`--demo` starts the service in a process of its own (``DemoProcess``): it is ready
    when it says so, serves the API, outlives a Ctrl+C, and ends cleanly when the app
    stops it."""
    port, _same = demo_port(tmp_path)
    service = DemoProcess(tmp_path / "demo-server.db", port, release_held=False)
    try:
        service.wait_ready(120)
        meta = requests.get(f"{service.url}/api/v1/meta", timeout=10)
        assert meta.status_code == 200 and meta.json()["api_version"]
        # Ctrl+C in a terminal reaches both processes: the app decides when this one ends
        os.kill(service.pid, signal.SIGINT)
        time.sleep(0.5)
        assert requests.get(f"{service.url}/api/v1/meta", timeout=10).status_code == 200
        assert service.exit_code is None
    finally:
        service.stop()
    assert service.exit_code == 0


APP_THAT_DIES = """
import os, sys
from pathlib import Path
from reviewer_app.demo import DemoProcess, demo_port
folder = Path(sys.argv[1])
port, _ = demo_port(folder)
service = DemoProcess(folder / "demo-server.db", port, release_held=False)
if sys.argv[2] == "after":
    service.wait_ready(120)
print(service.pid, flush=True)
os._exit(9)  # no stop(): as an app killed or crashed
"""


@pytest.mark.parametrize("when", ["before", "after"])
def test_the_service_process_ends_when_the_app_dies(tmp_path: Path, when: str) -> None:
    """Whether the app dies while its service starts (and seeds) or once it serves."""
    # the app's messages in a file: the service inherits it, and a pipe would make the
    # run wait for the service too
    errors = tmp_path / "app-stderr.txt"
    with errors.open("w") as stderr:
        app = subprocess.run(
            [sys.executable, "-c", APP_THAT_DIES, str(tmp_path), when],
            stdout=subprocess.PIPE,
            stderr=stderr,
            text=True,
            timeout=180,
        )
    assert app.returncode == 9, errors.read_text()
    pid = int(app.stdout.split()[-1])
    wait_until(lambda: _gone(pid), 30, "the orphaned demo service to end")


def test_a_service_that_cannot_start_says_so(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    port, _same = demo_port(tmp_path)
    service = DemoProcess(blocker / "demo-server.db", port, release_held=False)
    try:
        with pytest.raises(LocalServiceFailed, match="stopped") as failed:
            service.wait_ready(120)
    finally:
        service.stop()
    assert service.exit_code not in (None, 0)
    assert failed.value.exit_code == service.exit_code  # the window's message names it


def test_the_service_process_runs_the_apps_own_code_whatever_the_working_folder(
    tmp_path: Path,
) -> None:
    """Started from a folder holding another ``reviewer_app`` (another checkout), the
    service is still the app's own."""
    impostor = tmp_path / "reviewer_app"
    impostor.mkdir()
    (impostor / "__init__.py").write_text("")
    (impostor / "__main__.py").write_text("raise SystemExit(7)\n")
    port, _same = demo_port(tmp_path)
    here = os.getcwd()
    os.chdir(tmp_path)
    try:
        service = DemoProcess(tmp_path / "demo-server.db", port, release_held=False)
    finally:
        os.chdir(here)
    try:
        service.wait_ready(120)
        assert requests.get(f"{service.url}/api/v1/meta", timeout=10).status_code == 200
    finally:
        service.stop()


def _sizes(database: Path) -> int:
    parts = (database, database.with_name(database.name + "-wal"))
    return sum(p.stat().st_size for p in parts if p.exists())


def _seeded_counts(database: Path) -> tuple[dict[str, int], int]:
    server = DemoServer(database)
    try:
        return server.service.count_items(), _leased(server)
    finally:
        server.service.close()


def test_a_demo_killed_while_it_seeds_seeds_whole_next_time(tmp_path: Path) -> None:
    """The first start seeds in several transactions (people, queue file, posts through
    intake, appeals); a service killed meanwhile leaves no database the next start would
    take for a seeded one: that start seeds the whole demo again."""
    folder = tmp_path / "killed"
    folder.mkdir()
    database = folder / "demo-server.db"
    seeding = folder / f"demo-server.db{SEEDING_SUFFIX}"
    port, _same = demo_port(folder)
    service = DemoProcess(database, port, release_held=False)
    try:
        wait_until(lambda: _sizes(seeding) > 1_000_000, 120, "the seed to be under way")
        os.kill(service.pid, signal.SIGKILL)
        wait_until(lambda: service.exit_code is not None, 30, "the killed service to end")
    finally:
        service.stop()
    assert not database.exists()

    again = DemoProcess(database, port, release_held=False)
    try:
        again.wait_ready(120)
        user, password = DEMO_ACCOUNTS["reviewer"]
        login = requests.post(
            f"{again.url}/api/v1/sessions",
            json={"username": user, "password": password},
            timeout=10,
        )
        assert login.status_code == 201, login.text
    finally:
        again.stop()
    assert sorted(p.name for p in folder.iterdir() if "seeding" in p.name) == []
    assert _seeded_counts(database) == _seeded_counts(tmp_path / "fresh" / "demo-server.db")


def test_a_half_seeded_database_from_before_is_moved_aside_and_seeded_whole(
    tmp_path: Path,
) -> None:
    """A database with the demo's people but no queue (a seed cut short by an older
    version) is kept aside, not deleted, and the demo is seeded whole."""
    from reviewer_app.server.config import ServerSettings
    from reviewer_app.server.demo.replay import create_demo_users
    from reviewer_app.server.service import Service

    database = tmp_path / "demo-server.db"
    half = Service(ServerSettings(database_url=f"sqlite:///{database}"))
    half.start()
    create_demo_users(half)
    half.close()

    counts = _seeded_counts(database)
    assert counts[0]["pending"] > 0
    assert (tmp_path / f"demo-server.db{UNFINISHED_SUFFIX}").exists()
    assert counts == _seeded_counts(tmp_path / "fresh" / "demo-server.db")


def test_two_demos_started_at_once_on_one_folder_seed_it_once(tmp_path: Path) -> None:
    database = tmp_path / "demo-server.db"
    first = DemoProcess(database, free_port(), release_held=False)
    second = DemoProcess(database, free_port(), release_held=False)
    try:
        first.wait_ready(180)
        second.wait_ready(180)
    finally:
        first.stop()
        second.stop()
    left = [p.name for p in tmp_path.iterdir() if SEEDING_SUFFIX in p.name]
    assert left == [] and not (tmp_path / f"demo-server.db{UNFINISHED_SUFFIX}").exists()
    assert _seeded_counts(database) == _seeded_counts(tmp_path / "fresh" / "demo-server.db")


def test_the_demo_hashes_its_published_passwords_at_the_least_cost(tmp_path: Path) -> None:
    """The demo's passwords are in the README: argon2id at its least cost (about 0.15 s
    less for every demo start's login). A database an older version seeded keeps its
    hashes, checked at the cost each was made with."""
    database = tmp_path / "demo-server.db"
    server = DemoServer(database)
    try:
        with server.service.db.read() as conn:
            hashes = dict(conn.execute(select(users.c.username, users.c.password_hash)).all())
        for username, _password in DEMO_ACCOUNTS.values():
            assert hashes[username].startswith("$argon2id$v=19$m=8,t=1,p=1$"), username
        user, password = DEMO_ACCOUNTS["reviewer"]
        costly = PasswordHasher.from_parameters(RFC_9106_LOW_MEMORY).hash(password)
        with server.service.db.write() as conn:  # as an older version seeded it
            conn.execute(update(users).where(users.c.username == user).values(password_hash=costly))
        assert server.service.login(SessionCreate(username=user, password=password)).token
        with pytest.raises(ApiError):
            server.service.login(SessionCreate(username=user, password=password + "x"))
    finally:
        server.service.close()


def test_a_port_taken_is_said_and_the_service_ends_cleanly(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    """Two demos started at once could both pick one port: the one that could not listen
    printed a traceback, then aborted ("Fatal Python error", exit -6), and the window said
    only its exit code. It says the port is taken, before any seed, and ends with code 1."""
    with socket.socket() as squatter:
        squatter.bind(("127.0.0.1", 0))
        squatter.listen()
        port = squatter.getsockname()[1]
        service = DemoProcess(tmp_path / "demo-server.db", port, release_held=False)
        try:
            with pytest.raises(LocalServiceFailed) as failed:
                service.wait_ready(120)
        finally:
            service.stop()
    assert service.exit_code == 1
    assert f"port {port} on 127.0.0.1 is in use" in (failed.value.reason or "")
    assert (failed.value.reason or "-") in str(failed.value)
    said = capfd.readouterr().err  # forwarded to the terminal as well
    assert f"port {port} on 127.0.0.1 is in use" in said
    assert "Fatal Python error" not in said and "Traceback" not in said
    assert not (tmp_path / "demo-server.db").exists()


def test_a_service_that_fails_says_why_in_one_line_and_does_not_abort(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    """A data folder it cannot write (here a file where a folder should be; a read-only
    one, a full disk alike): the service's last line says why, the app's error carries it."""
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    service = DemoProcess(blocker / "demo-server.db", free_port(), release_held=False)
    try:
        with pytest.raises(LocalServiceFailed) as failed:
            service.wait_ready(120)
    finally:
        service.stop()
    assert service.exit_code == 1
    assert str(blocker) in (failed.value.reason or ""), failed.value  # "File exists: ..."
    said = capfd.readouterr().err
    assert "Fatal Python error" not in said and "Traceback" not in said


def test_a_database_failure_is_told_in_the_databases_words() -> None:
    import sqlite3

    from sqlalchemy.exc import OperationalError

    from reviewer_app.demo_state import failure_reason

    full = OperationalError(
        "INSERT INTO x", {}, sqlite3.OperationalError("database or disk is full")
    )
    assert failure_reason(full) == "database or disk is full"
    assert failure_reason(PermissionError(13, "Permission denied", "/x")) == "Permission denied: /x"


def test_a_demo_folder_that_cannot_be_made_is_said_in_one_line(tmp_path: Path) -> None:
    """A read-only home with no data folder yet: a traceback, and no window at all."""
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    env = {**os.environ, "REVIEWER_APP_DATA_DIR": str(blocker / "data"), "DISPLAY": ":99"}
    for name in ("QT_QPA_PLATFORM", "WAYLAND_DISPLAY"):
        env.pop(name, None)
    done = subprocess.run(
        [sys.executable, "-m", "reviewer_app", "--demo"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert done.returncode == 1, done.stderr
    assert "the demo cannot keep its data in" in done.stderr and "Not a directory" in done.stderr
    assert "Traceback" not in done.stderr
