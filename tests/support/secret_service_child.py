"""One step of the Secret Service test, run in a private D-Bus session with its own
gnome-keyring-daemon (see tests/core/test_credentials.py, which starts both).

    python -m tests.support.secret_service_child save|load|delete

Reads the server, user and token from RK_SERVER, RK_USER and RK_TOKEN (and the directory
to search for the token in plain text from RK_SCAN_DIR), goes through
``Credentials`` with the Secret Service backend named explicitly (never whatever keyring
would pick), and prints one JSON line saying what happened. Each step is its own process,
so a token that ``load`` finds came from the keyring, not from ``Credentials``' memory.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

from keyring.backends import SecretService

from reviewer_app.core.credentials import Credentials


def _files_containing(root: Path, text: str) -> list[str]:
    needle = text.encode()
    return sorted(
        str(p.relative_to(root))
        for p in root.rglob("*")
        if p.is_file() and not p.is_symlink() and needle in p.read_bytes()
    )


def step(name: str) -> dict[str, Any]:
    server, user, token = os.environ["RK_SERVER"], os.environ["RK_USER"], os.environ["RK_TOKEN"]
    try:
        priority = SecretService.Keyring.priority
    except Exception as err:  # the backend says why it cannot be used
        return {"step": name, "error": f"Secret Service not usable: {err}"}
    credentials = Credentials(backend=SecretService.Keyring())
    if name == "save":
        saved = credentials.save(server, user, token)
        return {
            "step": name,
            "priority": priority,
            "persistent": saved.persistent,
            "reason": saved.reason,
        }
    if name == "load":
        loaded = credentials.load(server, user)
        return {
            "step": name,
            "token": loaded,
            "reason": credentials.reason,
            # while the keyring holds the token: which files show it in plain text
            "plain_text_in": _files_containing(Path(os.environ["RK_SCAN_DIR"]), token),
            "keyring_files": sorted(
                str(p.relative_to(os.environ["RK_SCAN_DIR"]))
                for p in Path(os.environ["RK_SCAN_DIR"]).rglob("*.keyring")
            ),
        }
    if name == "delete":
        credentials.delete(server, user)
        after = Credentials(backend=SecretService.Keyring()).load(server, user)
        return {"step": name, "token_after": after, "reason": credentials.reason}
    raise SystemExit(f"unknown step {name!r}")


if __name__ == "__main__":
    print(json.dumps(step(sys.argv[1])), flush=True)
