"""``reviewer-app export`` as an operator gets it wrong: no terminal to ask the password on
(a pipe, ``</dev/null``, cron) and the API's address (``.../api/v1``, which the demo
prints) given as the server. One sentence and exit 2, or the export as meant; never a
traceback, and never a password read from an echoing standard input."""

from __future__ import annotations

import getpass
import io
import os
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from reviewer_app.__main__ import build_parser, main
from reviewer_app.core import export as export_module
from reviewer_app.core.export import EXIT_OK, EXIT_USAGE, UsageError, request_from_args
from tests.support.servers import PASSWORD, LiveServer

NO_TERMINAL = (
    "The password is asked for on a terminal, and standard input is not one: pass --password-stdin"
)


def export_args(server_url: str, out: Path, *extra: str) -> list[str]:
    until = datetime.now(UTC) + timedelta(hours=1)
    return [
        "export",
        "--server",
        server_url,
        "--user",
        "lead",
        "--since",
        "2025-01-01T00:00Z",
        "--until",
        until.isoformat(),
        "-o",
        str(out),
        *extra,
    ]


def request(server_url: str, tmp_path: Path) -> export_module.ExportRequest:
    args = build_parser("export").parse_args(export_args(server_url, tmp_path / "x.csv"))
    return request_from_args(args)


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_no_password_is_read_from_a_stdin_that_is_not_a_terminal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked: list[str] = []
    monkeypatch.setattr(getpass, "getpass", lambda prompt="": asked.append(prompt) or "typed")
    wanted = request("http://127.0.0.1:9", tmp_path)
    with pytest.raises(UsageError) as refused:
        export_module._password(wanted, io.StringIO("a-piped-password\n"))
    assert str(refused.value) == NO_TERMINAL
    assert asked == [], "getpass would read the pipe, echoing, or fail at its end"


def test_a_terminal_closed_before_the_password_is_a_sentence(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def closed(prompt: str = "") -> str:
        raise EOFError

    monkeypatch.setattr(getpass, "getpass", closed)
    wanted = request("http://127.0.0.1:9", tmp_path)
    with pytest.raises(UsageError, match="no password was given"):
        export_module._password(wanted, Terminal())


def test_the_command_without_a_terminal_says_to_pass_password_stdin(
    server: LiveServer, tmp_path: Path
) -> None:
    out = tmp_path / "decisions.csv"
    env = {**os.environ, "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring"}
    done = subprocess.run(
        [sys.executable, "-m", "reviewer_app", *export_args(server.url, out)],
        stdin=subprocess.DEVNULL,  # as under cron: no terminal at all
        start_new_session=True,  # and no controlling terminal for getpass to open
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=120,
        check=False,
    )
    assert done.returncode == EXIT_USAGE, done.stderr
    assert NO_TERMINAL in done.stderr
    for noise in ("Traceback", "EOFError", "GetPassWarning"):
        assert noise not in done.stderr
    assert not out.exists()


@pytest.mark.parametrize("suffix", ["/api/v1", "/api/v1/"])
def test_the_api_address_is_taken_for_its_server(tmp_path: Path, suffix: str) -> None:
    assert request(f"http://127.0.0.1:8765{suffix}", tmp_path).server_url == (
        "http://127.0.0.1:8765"
    )
    # a server under a path of its own keeps that path
    assert request(f"https://desk.example/review{suffix}", tmp_path).server_url == (
        "https://desk.example/review"
    )


def test_the_export_works_from_the_address_the_demo_prints(
    server: LiveServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(PASSWORD + "\n"))
    out = tmp_path / "decisions.csv"
    assert main(export_args(server.url + "/api/v1", out, "--password-stdin")) == EXIT_OK
    assert out.exists()
