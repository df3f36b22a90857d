"""``reviewer-app server add-user`` as a new operator meets it: a piped password without
``--password-stdin`` and a password the rules refuse get one plain sentence, no traceback
and no pydantic text. Run as a real process with a real pipe on standard input."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from reviewer_app.server.config import ENV_PREFIX


def add_user(database: Path, *args: str, stdin: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, f"{ENV_PREFIX}DATABASE_URL": f"sqlite:///{database}"}
    return subprocess.run(
        [sys.executable, "-m", "reviewer_app", "server", "add-user", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        cwd=database.parent,  # the default database is a file in the working folder
        timeout=60,
        check=False,
    )


def test_a_piped_password_without_the_flag_names_the_flag(tmp_path: Path) -> None:
    done = add_user(tmp_path / "s.db", "bob", stdin="a-long-enough-password\n")
    assert done.returncode == 2
    assert "--password-stdin" in done.stderr
    assert "Traceback" not in done.stderr and "EOFError" not in done.stderr


def test_a_refused_password_is_said_in_words(tmp_path: Path) -> None:
    done = add_user(tmp_path / "s.db", "bob", "--password-stdin", stdin="short\n")
    assert done.returncode == 2
    assert "password: " in done.stderr and "at least 10 characters" in done.stderr
    for noise in ("pydantic", "errors.pydantic.dev", "type=", "input_value", "Traceback"):
        assert noise not in done.stderr


def test_a_piped_password_with_the_flag_creates_the_user(tmp_path: Path) -> None:
    done = add_user(tmp_path / "s.db", "bob", "--password-stdin", stdin="a-long-enough-password\n")
    assert done.returncode == 0, done.stderr
    assert "Created bob (reviewer)." in done.stdout


def server_command(database: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, f"{ENV_PREFIX}DATABASE_URL": f"sqlite:///{database}"}
    return subprocess.run(
        [sys.executable, "-m", "reviewer_app", "server", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        cwd=database.parent,
        timeout=60,
        check=False,
    )


def test_an_operator_sets_a_password_and_ends_access_from_the_command_line(
    tmp_path: Path,
) -> None:
    """With no admin at hand (or the only one locked out), the command line sets a
    person's password and ends a person's access, as the admin routes do."""
    from reviewer_app.protocol import SessionCreate
    from reviewer_app.server.config import ServerSettings
    from reviewer_app.server.problems import ApiError
    from reviewer_app.server.service import Service

    database = tmp_path / "s.db"
    made = add_user(database, "bob", "--password-stdin", stdin="a-long-enough-password\n")
    assert made.returncode == 0, made.stderr
    piped = server_command(database, "set-password", "bob", stdin="another-long-password\n")
    assert piped.returncode == 2 and "--password-stdin" in piped.stderr
    short = server_command(database, "set-password", "bob", "--password-stdin", stdin="short\n")
    assert short.returncode == 2 and "at least 10 characters" in short.stderr
    done = server_command(
        database, "set-password", "bob", "--password-stdin", stdin="another-long-password\n"
    )
    assert done.returncode == 0, done.stderr
    assert "Set the password of bob" in done.stdout

    service = Service(ServerSettings(database_url=f"sqlite:///{database}"))
    service.start()
    try:
        assert service.login(SessionCreate(username="bob", password="another-long-password"))
        ended = server_command(database, "end-access", "bob")
        assert ended.returncode == 0, ended.stderr
        try:
            service.login(SessionCreate(username="bob", password="another-long-password"))
            raise AssertionError("a login after the access ended")
        except ApiError as refused:
            assert refused.status == 401
    finally:
        service.close()
    unknown = server_command(database, "end-access", "nobody")
    assert unknown.returncode == 1 and "No user 'nobody'" in unknown.stderr
