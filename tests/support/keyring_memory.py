"""Keyring backends for tests: one that keeps secrets in a dict, one in a file (for tests that
kill the app and start it again), and ones that refuse.

``MemoryKeyring`` is the normal test path: a real ``KeyringBackend`` (so the code under
test goes through the same calls as with the OS keyring) that never touches the
developer's keyring or the disk. ``installed()`` makes a backend keyring's default for a
block and puts the previous one back.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import keyring
import keyring.errors
from keyring.backend import KeyringBackend


class MemoryKeyring(KeyringBackend):
    """Secrets in a dict keyed by (service, username); one dict per instance."""

    priority = 1  # viable, but below any real keyring (the Secret Service is 5)

    def __init__(self) -> None:
        super().__init__()
        self.secrets: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.secrets.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.secrets[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        try:
            del self.secrets[(service, username)]
        except KeyError:
            raise keyring.errors.PasswordDeleteError("no such password") from None


class RefusingKeyring(MemoryKeyring):
    """A keyring that is there but will not store: a locked collection, a full disk,
    a D-Bus error. Every ``set_password`` raises ``error``; set it to None and the
    keyring stores again."""

    def __init__(self, error: BaseException | None) -> None:
        super().__init__()
        self.error = error
        self.set_attempts = 0

    def set_password(self, service: str, username: str, password: str) -> None:
        self.set_attempts += 1
        if self.error is not None:
            raise self.error
        super().set_password(service, username, password)


@contextmanager
def installed(backend: KeyringBackend) -> Iterator[KeyringBackend]:
    """``backend`` is what ``keyring.get_keyring()`` returns inside the block."""
    previous = keyring.get_keyring()
    keyring.set_keyring(backend)
    try:
        yield backend
    finally:
        keyring.set_keyring(previous)


class FileKeyring(MemoryKeyring):
    """Secrets in a JSON file the test chooses (outside the app's data folder): what an OS
    keyring gives a test that kills the app and starts it again in another process, its
    persistence. Every call reads or writes the file, so two processes see each other's
    secrets."""

    def __init__(self, path: Path) -> None:
        super().__init__()
        self.path = Path(path)

    def _load(self) -> dict[tuple[str, str], str]:
        if not self.path.exists():
            return {}
        return {(s, u): p for s, u, p in json.loads(self.path.read_text(encoding="utf-8"))}

    def _save(self, secrets: dict[tuple[str, str], str]) -> None:
        temporary = self.path.with_suffix(".tmp")
        temporary.write_text(
            json.dumps([[s, u, p] for (s, u), p in secrets.items()]), encoding="utf-8"
        )
        temporary.replace(self.path)

    def get_password(self, service: str, username: str) -> str | None:
        return self._load().get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        secrets = self._load()
        secrets[(service, username)] = password
        self._save(secrets)

    def delete_password(self, service: str, username: str) -> None:
        secrets = self._load()
        if (service, username) not in secrets:
            raise keyring.errors.PasswordDeleteError("no such password")
        del secrets[(service, username)]
        self._save(secrets)
