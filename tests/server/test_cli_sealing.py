"""What a server command writes into the event log is sealed before it exits: no
sequencer runs in a command, and an entry left unsealed is outside the hash chain (and
``verify-log``) until a service next starts, maybe days later."""

from __future__ import annotations

from pathlib import Path

from reviewer_app.server.config import ServerSettings
from reviewer_app.server.service import Service
from tests.server.test_add_user_cli import server_command


def unsealed(database: Path) -> int:
    service = Service(ServerSettings(database_url=f"sqlite:///{database}"))
    try:
        return service.log_lag().unsealed
    finally:
        service.close()


def test_commands_leave_no_entry_unsealed(tmp_path: Path) -> None:
    database = tmp_path / "s.db"
    made = server_command(
        database, "add-user", "ann", "--password-stdin", stdin="a-long-password\n"
    )
    assert made.returncode == 0, made.stderr
    assert unsealed(database) == 0
    key = server_command(database, "api-key", "create", "--role", "platform", "--name", "bridge")
    assert key.returncode == 0, key.stderr
    ended = server_command(database, "end-access", "ann")
    assert ended.returncode == 0, ended.stderr
    assert unsealed(database) == 0
    checked = server_command(database, "verify-log")
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_the_demo_seed_is_sealed(tmp_path: Path) -> None:
    database = tmp_path / "s.db"
    seeded = server_command(database, "seed", "--demo")
    assert seeded.returncode == 0, seeded.stderr
    assert unsealed(database) == 0
