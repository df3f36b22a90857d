"""An operator's command run twice says the second time that there was nothing left to do,
and logs nothing again: ``api-key revoke ID`` on a key already revoked, ``end-access
NAME`` on a person whose access already ended (exit 0 both: the state wanted holds)."""

from __future__ import annotations

import pytest

from reviewer_app.__main__ import main
from reviewer_app.protocol import Role, UserCreate
from reviewer_app.server.config import ServerSettings
from reviewer_app.server.service import Service


def server_cli(capsys: pytest.CaptureFixture[str], url: str, *args: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(["server", "--database-url", url, *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def events_of(url: str, kind: str) -> list[dict[str, object]]:
    service = Service(ServerSettings(database_url=url, password_hash_profile="fast"))
    service.start()
    try:
        service.seal_now()
        page = service.events(None, 500, None)
        return [e.model_dump(mode="json") for e in page.events if e.kind.value == kind]
    finally:
        service.close()


def test_revoking_a_revoked_key_says_so(
    sqlite_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = server_cli(
        capsys, sqlite_url, "api-key", "create", "--role", "platform", "--name", "feed-bridge"
    )
    assert code == 0, err
    code, out, err = server_cli(capsys, sqlite_url, "api-key", "revoke", "1")
    assert code == 0, err
    assert "Revoked key 1 " in out and "refused from now on" in out
    code, out, err = server_cli(capsys, sqlite_url, "api-key", "revoke", "1")
    assert code == 0, err
    assert "already revoked" in out and "Revoked key" not in out
    assert len(events_of(sqlite_url, "api_key_revoked")) == 1
    code, _, err = server_cli(capsys, sqlite_url, "api-key", "revoke", "9")
    assert code == 1 and "No API key 9" in err


def test_ending_access_twice_says_so_and_logs_it_once(
    sqlite_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    service = Service(ServerSettings(database_url=sqlite_url, password_hash_profile="fast"))
    service.start()
    try:
        service.create_user(
            UserCreate(username="bob", password="a-long-enough-password", role=Role.lead)
        )
    finally:
        service.close()
    code, out, err = server_cli(capsys, sqlite_url, "end-access", "bob")
    assert code == 0, err
    assert "Ended the access of bob" in out
    code, out, err = server_cli(capsys, sqlite_url, "end-access", "bob")
    assert code == 0, err
    assert "already ended" in out and "Ended the access" not in out
    assert [e["data"]["username"] for e in events_of(sqlite_url, "access_ended")] == ["bob"]

    # a password set again gives access back, and ending it then is logged again
    service = Service(ServerSettings(database_url=sqlite_url, password_hash_profile="fast"))
    service.start()
    try:
        service.set_password("bob", "another-long-password", None)
        assert service.end_access("bob", None) == 0
        assert service.end_access("bob", None) == 0
    finally:
        service.close()
    assert len(events_of(sqlite_url, "access_ended")) == 2
