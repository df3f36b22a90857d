"""API keys of service accounts (platform, fact_checker): made, listed, rotated and revoked
from the command line and the admin routes; hashed at rest; refused at once after
revocation in every process of the service; never a way to log in with a password.

Which routes a key may call is the role matrix's business (test_roles.py). Here a key
"works" when the service knows it: on a person's route it gets 403
``service_account_forbidden`` (the key was recognised, the route is not its), where an
unknown or revoked key gets 401 ``token_invalid``.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests
from sqlalchemy import MetaData, create_engine, select, text

from reviewer_app.__main__ import main
from reviewer_app.protocol import API_PREFIX, EventKind, Role
from reviewer_app.server.config import ServerSettings
from reviewer_app.server.domain.apikeys import LAST_USED_RESOLUTION_SECONDS
from reviewer_app.server.problems import ApiError
from reviewer_app.server.service import Service
from reviewer_app.server.storage.db import normalise_url
from reviewer_app.server.storage.tables import api_keys, users
from tests.support.api import ApiSession
from tests.support.at_rest import forms
from tests.support.clock import ManualClock
from tests.support.servers import PASSWORD, LiveServer, ServerProcess, running

KEY = re.compile(r"^rdk_[A-Za-z0-9_-]{43}$")


def cli(capsys: pytest.CaptureFixture[str], url: str, *args: str) -> tuple[int, str, str]:
    """``reviewer-app server api-key ARGS`` in this process: exit code, stdout, stderr."""
    capsys.readouterr()
    code = main(["server", "api-key", *args, "--database-url", url])
    out = capsys.readouterr()
    return code, out.out, out.err


def create_key(capsys: pytest.CaptureFixture[str], url: str, *args: str) -> str:
    code, out, err = cli(capsys, url, "create", *args)
    assert code == 0, err
    key = out.strip()
    assert KEY.match(key), f"stdout is not the key alone: {out!r}"
    assert "will not be shown again" in err
    assert key not in err
    return key


def listed(capsys: pytest.CaptureFixture[str], url: str) -> list[dict[str, Any]]:
    code, out, err = cli(capsys, url, "list", "--json")
    assert code == 0, err
    found: list[dict[str, Any]] = json.loads(out)
    return found


def call(base_url: str, key: str, path: str = "/me") -> requests.Response:
    return requests.get(
        f"{base_url}{API_PREFIX}{path}", headers={"Authorization": f"Bearer {key}"}, timeout=30
    )


def known(base_url: str, key: str) -> bool:
    """True when the service recognises the key (a person's route: 403 for a key),
    False when it refuses it as unknown or revoked (401); anything else fails."""
    response = call(base_url, key)
    code = response.json().get("code")
    if response.status_code == 403 and code == "service_account_forbidden":
        return True
    if response.status_code == 401 and code == "token_invalid":
        # a service account cannot log in: the answer speaks of the key, not of a login
        assert "API key is unknown or revoked" in response.json()["detail"], response.text
        return False
    raise AssertionError(f"unexpected answer to a key: {response.status_code} {response.text}")


def service_for(url: str, clock: ManualClock | None = None) -> Service:
    settings = ServerSettings(database_url=url, password_hash_profile="fast")
    service = Service(settings, clock=clock) if clock else Service(settings)
    service.start()
    return service


# -- the command line ------------------------------------------------------------------


def test_cli_key_is_a_bearer_and_is_listed_without_the_key(
    live_server: LiveServer, database_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    key = create_key(capsys, database_url, "--role", "platform", "--name", "feed-bridge")
    principal = live_server.service.authenticate(key)
    assert principal is not None
    assert (principal.username, principal.role) == ("feed-bridge", Role.platform)
    assert known(live_server.url, key)
    assert not known(live_server.url, "rdk_" + "A" * 43), "an unknown key is a 401"

    checker = create_key(
        capsys,
        database_url,
        "--role",
        "fact_checker",
        "--name",
        "Full Fact key",
        "--account",
        "full-fact",
    )
    assert known(live_server.url, checker)
    # and a route of its own answers it
    own = call(live_server.url, checker, "/intake/fact-checks")
    assert own.status_code == 200, own.text
    assert own.json()["ratings"] == []

    rows = listed(capsys, database_url)
    assert [(r["name"], r["account"], r["role"]) for r in rows] == [
        ("feed-bridge", "feed-bridge", "platform"),
        ("Full Fact key", "full-fact", "fact_checker"),
    ]
    assert [r["prefix"] for r in rows] == [key[:12], checker[:12]]
    assert all(r["revoked_at"] is None for r in rows)
    assert rows[0]["last_used_at"] is not None, "the key was used"
    code, table, err = cli(capsys, database_url, "list")
    assert code == 0, err
    assert "feed-bridge" in table and "full-fact" in table and key[:12] in table
    for output in (json.dumps(rows), table, err):
        assert key not in output and checker not in output
        assert key[12:20] not in output, "nothing past the prefix"

    # A name that is no account name needs --account; people are not key accounts.
    code, out, err = cli(capsys, database_url, "create", "--role", "platform", "--name", "My Bot")
    assert (code, out) == (1, "")
    assert "--account" in err
    live_server.add_user("a-person")
    code, out, err = cli(
        capsys, database_url, "create", "--role", "platform", "--name", "x", "--account", "a-person"
    )
    assert (code, out) == (1, "")
    assert "reviewer" in err
    code, _, err = cli(capsys, database_url, "rotate", "no-such-key")
    assert code == 1 and "no-such-key" in err
    code, _, err = cli(capsys, database_url, "revoke", "999")
    assert code == 1 and "999" in err
    # an id no row can have is a usage error, not an overflow out of the database
    for id_ in ("99999999999999999999", "2147483648", "0", "one"):
        with pytest.raises(SystemExit) as exited:
            cli(capsys, database_url, "revoke", id_)
        assert exited.value.code == 2
        assert f"{id_!r}" in capsys.readouterr().err


def test_add_user_refuses_service_roles(
    sqlite_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    for role in ("platform", "fact_checker"):
        argv = ["server", "--database-url", sqlite_url, "add-user", "bot", "--role", role]
        code = main([*argv, "--password-stdin"])
        err = capsys.readouterr().err
        assert code == 2
        assert f"api-key create --role {role}" in err


# -- several processes -------------------------------------------------------------------


@pytest.fixture
def two_processes(database_url: str, tmp_path: Path) -> Iterator[tuple[ServerProcess, ...]]:
    """Two service processes on one database (a SQLite file or PostgreSQL), logging at
    DEBUG to files under tmp_path/logs."""
    (tmp_path / "logs").mkdir()
    servers = [
        ServerProcess(database_url, log=tmp_path / "logs" / f"server-{i}.log", log_level="debug")
        for i in range(2)
    ]
    try:
        for server in servers:
            server.start()
        yield tuple(servers)
    finally:
        for server in servers:
            server.stop()


def test_rotation_and_revocation_reach_every_process_at_once(
    database_url: str,
    two_processes: tuple[ServerProcess, ...],
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    urls = [s.url for s in two_processes]
    old = create_key(capsys, database_url, "--role", "platform", "--name", "feed-bridge")
    assert all(known(url, old) for url in urls)

    # Rotation: a second live key for the same account; both work until the old one goes.
    code, out, err = cli(capsys, database_url, "rotate", "feed-bridge")
    assert code == 0, err
    new = out.strip()
    assert KEY.match(new) and new != old
    assert "revoke" in err
    assert all(known(url, key) for url in urls for key in (old, new))
    rows = listed(capsys, database_url)
    assert [(r["name"], r["account"], r["revoked_at"]) for r in rows] == [
        ("feed-bridge", "feed-bridge", None),
        ("feed-bridge", "feed-bridge", None),
    ]
    old_id = next(r["id"] for r in rows if r["prefix"] == old[:12])

    # Revoked in this process, refused by both others on their very next request.
    code, out, err = cli(capsys, database_url, "revoke", str(old_id))
    assert code == 0, err
    assert [known(url, old) for url in urls] == [False, False]
    assert [known(url, new) for url in urls] == [True, True]
    code, _, err = cli(capsys, database_url, "revoke", str(old_id))
    assert code == 0, "revoking again changes nothing and is no error"
    assert [r["revoked_at"] is not None for r in listed(capsys, database_url)] == [True, False]

    for server in two_processes:
        server.stop()
    _assert_keys_not_at_rest(database_url, tmp_path, [old, new])


def _assert_keys_not_at_rest(url: str, folder: Path, keys: list[str]) -> None:
    """No key anywhere: database (its files on SQLite, every row of every table on
    PostgreSQL), the server logs, the event log; and the stored hash is the key's SHA-256."""
    needles = {form for key in keys for form in forms(key)}
    hashes = {hashlib.sha256(k.encode()).hexdigest() for k in keys}

    engine = create_engine(normalise_url(url))
    try:
        with engine.connect() as conn:
            stored = set(conn.execute(select(api_keys.c.key_hash)).scalars())
            assert stored == hashes, "each key is stored as its SHA-256, and only so"
            events = conn.execute(
                text("SELECT kind, data FROM events WHERE kind IN (:a, :b)"),
                {"a": EventKind.api_key_created.value, "b": EventKind.api_key_revoked.value},
            ).all()
            if not url.startswith("sqlite"):
                tables = MetaData()
                tables.reflect(conn)
                dump = "\n".join(
                    repr(row)
                    for table in tables.sorted_tables
                    for row in conn.execute(select(table))
                ).encode()
                assert dump.count(b"feed-bridge") >= 2, "the dump holds the key rows"
                found = [n for n in needles if n in dump]
                assert not found, "a key is in a PostgreSQL table"
    finally:
        engine.dispose()
    assert sorted(kind for kind, _ in events) == [
        "api_key_created",
        "api_key_created",
        "api_key_revoked",
    ]
    for _, data in events:
        for secret in [*keys, *hashes]:
            assert secret not in data, "the event log holds a key or its hash"
        assert json.loads(data)["prefix"] in {k[:12] for k in keys}

    files = [p for p in folder.rglob("*") if p.is_file()]
    if url.startswith("sqlite"):
        database_files = [p for p in files if p.name.startswith("service.db")]
        assert database_files, "the SQLite files"
    logs = [p for p in files if p.suffix == ".log"]
    assert len(logs) == 2 and all(p.stat().st_size > 0 for p in logs), "the servers logged"
    for path in files:
        content = path.read_bytes()
        found = [n for n in needles if n in content]
        assert not found, f"a key is in {path.name}"


# -- the service -------------------------------------------------------------------------


def test_last_use_is_written_at_most_once_a_minute(database_url: str) -> None:
    clock = ManualClock(1_800_000_000.0)
    service = service_for(database_url, clock)
    try:
        made = service.create_api_key(Role.platform, "feed-bridge")

        def last_used() -> float | None:
            with service.db.read() as conn:
                value = conn.execute(
                    select(api_keys.c.last_used_at).where(api_keys.c.id == made.info.id)
                ).scalar()
            return None if value is None else float(value)

        assert last_used() is None
        assert service.authenticate(made.key) is not None
        first = clock.now
        assert last_used() == first
        clock.advance(LAST_USED_RESOLUTION_SECONDS - 1)
        assert service.authenticate(made.key) is not None
        assert last_used() == first, "not again within the minute"
        clock.advance(2)
        assert service.authenticate(made.key) is not None
        assert last_used() == clock.now
        listed_info = service.api_keys()[0]
        assert listed_info.last_used_at is not None
        assert listed_info.last_used_at.timestamp() == clock.now
    finally:
        service.close()


def test_service_accounts_never_log_in_with_a_password(live_server: LiveServer) -> None:
    service = live_server.service
    service.create_api_key(Role.platform, "feed-bridge")
    service.create_api_key(Role.fact_checker, "full-fact")
    with service.db.read() as conn:
        hashes = dict(conn.execute(select(users.c.username, users.c.password_hash)).all())
    for name in ("feed-bridge", "full-fact"):
        assert not hashes[name].startswith("$argon2"), "no password hash at all"
        for password in (PASSWORD, hashes[name], "", "!", "service-account"):
            response = requests.post(
                f"{live_server.url}{API_PREFIX}/sessions",
                json={"username": name, "password": password or "x"},
                timeout=30,
            )
            assert response.status_code == 401, response.text
            assert response.json()["code"] == "bad_credentials"


def test_service_account_is_got_or_made(database_url: str) -> None:
    service = service_for(database_url)
    try:
        made = service.service_account("feed-bridge", Role.platform)
        again = service.service_account("feed-bridge", Role.platform)
        assert made == again
        assert made.role is Role.platform and made.is_service_account
        with pytest.raises(ApiError) as refused:
            service.service_account("feed-bridge", Role.fact_checker)
        assert refused.value.code == "account_role_differs"
        with pytest.raises(ApiError) as not_a_key_role:
            service.service_account("someone", Role.reviewer)
        assert not_a_key_role.value.code == "not_a_key_role"
        key = service.create_api_key(Role.platform, "bridge-key", account="feed-bridge")
        assert key.info.account == "feed-bridge"
        assert service.authenticate(key.key) == made
        created = service.events(None, 100, EventKind.user_created).events
        assert [e.data["username"] for e in created] == ["feed-bridge"], "made once"
    finally:
        service.close()


# -- the admin routes ----------------------------------------------------------------------


def test_admin_routes_make_list_and_revoke_keys(live_server: LiveServer) -> None:
    admin = live_server.login("key-admin", Role.admin)
    made = admin.post("/admin/api-keys", json={"role": "fact_checker", "name": "full-fact"})
    assert made.status_code == 201, made.text
    assert "no-store" in made.headers.get("cache-control", "")
    body = made.json()
    key = body["key"]
    assert KEY.match(key)
    assert body["info"]["account"] == "full-fact" and body["info"]["role"] == "fact_checker"
    assert known(live_server.url, key)

    second = admin.post(
        "/admin/api-keys", json={"role": "fact_checker", "name": "ff-2", "account": "full-fact"}
    )
    assert second.status_code == 201, second.text

    page = admin.get("/admin/api-keys")
    assert page.status_code == 200, page.text
    assert key not in page.text and second.json()["key"] not in page.text
    assert [(k["name"], k["account"]) for k in page.json()["keys"]] == [
        ("full-fact", "full-fact"),
        ("ff-2", "full-fact"),
    ]

    clash = admin.post(
        "/admin/api-keys", json={"role": "platform", "name": "x", "account": "full-fact"}
    )
    assert clash.status_code == 409 and clash.json()["code"] == "account_role_differs"
    person = admin.post("/admin/api-keys", json={"role": "platform", "name": "key-admin"})
    assert person.status_code == 409, "a person's name is no service account"

    revoked = admin.request("DELETE", f"/admin/api-keys/{body['info']['id']}")
    assert revoked.status_code == 200, revoked.text
    assert revoked.json()["revoked_at"] is not None
    assert not known(live_server.url, key)
    assert known(live_server.url, second.json()["key"])
    assert admin.request("DELETE", "/admin/api-keys/999999").status_code == 404

    # People keep passwords, service accounts keys: neither becomes the other.
    for role in ("platform", "fact_checker"):
        refused = admin.post(
            "/users", json={"username": f"new-{role}", "password": PASSWORD, "role": role}
        )
        assert refused.status_code == 422, refused.text
    to_person = admin.request("PUT", "/users/full-fact/role", json={"role": "reviewer"})
    assert to_person.status_code == 422 and to_person.json()["code"] == "role_change_refused"
    live_server.add_user("plain-reviewer")
    to_key = admin.request("PUT", "/users/plain-reviewer/role", json={"role": "platform"})
    assert to_key.status_code == 422, to_key.text

    events = admin.get("/events", params={"kind": "api_key_created"}).json()["events"]
    assert [e["data"]["name"] for e in events] == ["full-fact", "ff-2"]
    assert all(e["actor"] == "key-admin" for e in events)


def test_a_key_never_opens_a_session(live_server: LiveServer) -> None:
    """Logging out with a key is a person's route: refused, and the key still works."""
    key = live_server.service.create_api_key(Role.platform, "feed-bridge").key
    session = ApiSession(live_server.url, key)
    response = session.request("DELETE", "/sessions/current")
    assert response.status_code == 403
    assert response.json()["code"] == "service_account_forbidden"
    assert known(live_server.url, key)


def test_keys_hashed_at_rest_with_an_in_process_server(
    sqlite_url: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The same scan as above for a key made over HTTP, with the service's log records
    captured in this process."""
    caplog.set_level("DEBUG")
    with running(sqlite_url) as server:
        admin = server.login("scan-admin", Role.admin)
        key = admin.post("/admin/api-keys", json={"role": "platform", "name": "feed-bridge"})
        secret = key.json()["key"]
        assert known(server.url, secret)
        admin.request("DELETE", f"/admin/api-keys/{key.json()['info']['id']}")
        assert not known(server.url, secret)
    assert secret not in caplog.text
    for path in tmp_path.iterdir():
        if path.is_file():
            content = path.read_bytes()
            assert not [n for n in forms(secret) if n in content], f"the key is in {path.name}"


def test_a_fact_checkers_organisation_is_named_when_its_key_is_made(
    live_server: LiveServer, database_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A fact-checker's ratings carry its organisation's name ("Full Fact"); it was the
    account's slug ("full-fact"), with nothing but the database to change it."""
    from tests.support.intake import apply_queues, key_session, post, send

    apply_queues(live_server)
    feed = key_session(live_server, "feed-bridge")
    send(feed, "posts", [post("p1"), post("p2")])
    made = ("--role", "fact_checker", "--account", "full-fact")
    first = create_key(capsys, database_url, *made, "--name", "k1", "--display-name", "Full Fact")
    lead = live_server.login("lena", Role.lead)

    def organisations(item_id: str) -> list[str]:
        return [f["organisation"] for f in lead.get(f"/items/{item_id}").json()["fact_checks"]]

    def rate(key: str, rating_id: str, post_id: str) -> str:
        """The item the rating went on."""
        body = {
            "id": rating_id,
            "post_external_ids": [post_id],
            "rating": "false",
            "claim": "Ballots posted after Friday are not counted",
            "url": f"https://fullfact.example/{rating_id}",
            "published_at": "2026-01-01T00:00:00Z",
        }
        [result] = send(ApiSession(live_server.url, key), "fact-checks", [body])
        [item_id] = result["item_ids"]
        return str(item_id)

    one = rate(first, "fc-1", "p1")
    assert organisations(one) == ["Full Fact"]
    # a new key naming the account anew renames it: its ratings from now on say so
    second = create_key(
        capsys, database_url, *made, "--name", "k2", "--display-name", "Full Fact UK"
    )
    assert organisations(rate(second, "fc-2", "p2")) == ["Full Fact UK"]
    assert organisations(one) == ["Full Fact"], "a rating keeps the name it came with"
    with live_server.service.db.read() as conn:
        data = [
            json.loads(r.data)
            for r in conn.execute(
                text("SELECT data FROM events WHERE kind = :k ORDER BY id"),
                {"k": EventKind.api_key_created.value},
            )
        ]
    named = [d["display_name"] for d in data if d["account"] == "full-fact"]
    assert named == ["Full Fact", "Full Fact UK"]

    code, _out, err = cli(
        capsys, database_url, "create", *made, "--name", "k3", "--display-name", "\u200b \u2066"
    )
    assert code != 0 and "display name" in err, err

    # the admin route names the account as the command does
    admin = live_server.login("key-admin", Role.admin)
    third = admin.post(
        "/admin/api-keys",
        json={"role": "fact_checker", "name": "k4", "account": "full-fact", "display_name": "FF"},
    )
    assert third.status_code == 201, third.text
    assert organisations(rate(third.json()["key"], "fc-3", "p2")) == ["Full Fact UK", "FF"]
    blank = admin.post(
        "/admin/api-keys",
        json={"role": "fact_checker", "name": "k5", "display_name": "\u200b \u2066"},
    )
    assert blank.status_code == 422 and blank.json()["code"] == "invalid_display_name", blank.text
