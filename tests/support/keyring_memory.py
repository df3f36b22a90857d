"""Keyring backends for tests: one that keeps secrets in a dict, and ones that refuse.

``MemoryKeyring`` is the normal test path: a real ``KeyringBackend`` (so the code under
test goes through the same calls as with the OS keyring) that never touches the
developer's keyring or the disk. ``installed()`` makes a backend keyring's default for a
block and puts the previous one back.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

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
