"""Tokens in the OS keyring, keyed by server and user; in memory when there is no keyring.

The token never goes to a file or a log line. When no usable keyring backend exists the
token is kept for this session only and ``Saved.persistent`` is False with a reason the UI
shows ("you will have to log in again next time").

The keyring also holds each profile's local store key (``store_key``): 32 random bytes,
base64, under the service name ``"<token's service>:store-key"``. It is made on first use,
never written to a file, and deleted with the profile's local data (kept while a store of the
profile moved aside needs it). Without a keyring there is no key here: the session protects
its store with a key derived from the password (``keyfile``), or, when it has no password to
derive one from, keeps nothing on disk.
"""

from __future__ import annotations

import base64
import binascii
import logging
import os
from dataclasses import dataclass
from enum import StrEnum

import keyring
import keyring.errors
from keyring.backend import KeyringBackend

log = logging.getLogger("net")

SERVICE_PREFIX = "reviewer-app"
STORE_KEY_SUFFIX = ":store-key"
STORE_KEY_BYTES = 32


class KeyringProblem(StrEnum):
    """Why the keyring keeps nothing, as a stable code the UI words (``reason`` says the
    same in English, for logs)."""

    memory_only = "memory_only"  # this session was asked to keep its login in memory
    no_keyring = "no_keyring"  # no keyring service on this system
    unsafe = "unsafe"  # a backend that is no place for secrets (``culprit``: its name)
    unusable = "unusable"  # a backend that cannot be used (``culprit``: its or an error's)
    refused = "refused"  # the keyring refused to keep a secret (``culprit``: the error's)
    failed = "failed"  # the keyring failed to answer (``culprit``: the error's)


@dataclass(frozen=True)
class Saved:
    persistent: bool
    #: why the token is only in memory (None when it is in the keyring), in English
    reason: str | None = None
    #: the same as a code, and the type name it mentions (a backend's or an error's)
    problem: KeyringProblem | None = None
    culprit: str | None = None


@dataclass(frozen=True)
class _Why:
    problem: KeyringProblem
    reason: str
    culprit: str | None = None


def _usable(backend: KeyringBackend) -> _Why | None:
    """None when the backend can keep secrets; else why not."""
    name = f"{type(backend).__module__}.{type(backend).__name__}"
    kind = type(backend).__name__
    if name.startswith(("keyring.backends.fail", "keyring.backends.null")):
        return _Why(KeyringProblem.no_keyring, "no keyring service is available on this system")
    if name.startswith("keyrings.alt"):
        # plaintext files, or a password prompt on stdin: neither is a place for tokens
        return _Why(KeyringProblem.unsafe, f"the keyring backend {kind} is not a safe store", kind)
    try:
        if backend.priority < 1:
            return _Why(KeyringProblem.unusable, f"the keyring backend {kind} is not usable", kind)
    except Exception as err:
        error = type(err).__name__
        return _Why(KeyringProblem.unusable, f"the keyring backend failed ({error})", error)
    return None


class Credentials:
    """Where tokens live. One instance per app; safe to call from any one thread at a time."""

    def __init__(self, backend: KeyringBackend | None = None, *, memory_only: bool = False) -> None:
        self._backend = backend
        self._memory_only = memory_only
        self._memory: dict[tuple[str, str], str] = {}
        #: why the keyring keeps nothing now, in English (for logs), as a code, and the
        #: type name it mentions
        self.reason: str | None = None
        self.problem: KeyringProblem | None = None
        self.culprit: str | None = None

    @staticmethod
    def service_name(server_url: str) -> str:
        return f"{SERVICE_PREFIX} {server_url}"

    @classmethod
    def store_key_service_name(cls, server_url: str) -> str:
        return cls.service_name(server_url) + STORE_KEY_SUFFIX

    def _why(self, why: _Why | None) -> None:
        self.reason = why.reason if why else None
        self.problem = why.problem if why else None
        self.culprit = why.culprit if why else None

    def _keyring(self) -> KeyringBackend | None:
        if self._memory_only:
            self._why(
                _Why(KeyringProblem.memory_only, "this session keeps its login in memory only")
            )
            return None
        backend = self._backend or keyring.get_keyring()
        self._why(_usable(backend))
        return None if self.reason else backend

    def save(self, server_url: str, username: str, token: str) -> Saved:
        backend = self._keyring()
        if backend is not None:
            try:
                backend.set_password(self.service_name(server_url), username, token)
                self._memory.pop((server_url, username), None)
                return Saved(True)
            except Exception as err:  # D-Bus and backend faults of every kind
                # the error's type only: a backend's message might quote the secret
                error = type(err).__name__
                self._why(
                    _Why(KeyringProblem.refused, f"the keyring refused the token ({error})", error)
                )
                self._forget_stale(backend, server_url, username)
        level = logging.INFO if self._memory_only else logging.WARNING
        log.log(level, "token kept in memory for this session only: %s", self.reason)
        self._memory[(server_url, username)] = token
        return Saved(False, self.reason, self.problem, self.culprit)

    def _forget_stale(self, backend: KeyringBackend, server_url: str, username: str) -> None:
        """After a failed save, an older token must not come back at the next start."""
        try:
            backend.delete_password(self.service_name(server_url), username)
        except Exception as err:
            log.debug("no older token removed (%s)", type(err).__name__)

    def load(self, server_url: str, username: str) -> str | None:
        if (server_url, username) in self._memory:
            return self._memory[(server_url, username)]
        backend = self._keyring()
        if backend is None:
            return None
        try:
            return backend.get_password(self.service_name(server_url), username)
        except Exception as err:
            error = type(err).__name__
            self._why(_Why(KeyringProblem.failed, f"the keyring failed ({error})", error))
            log.warning("could not read the token from the keyring: %s", self.reason)
            return None

    def delete(self, server_url: str, username: str) -> None:
        self._memory.pop((server_url, username), None)
        backend = self._keyring()
        if backend is None:
            return
        try:
            backend.delete_password(self.service_name(server_url), username)
        except keyring.errors.PasswordDeleteError:
            pass
        except Exception as err:
            log.warning("could not delete the token from the keyring (%s)", type(err).__name__)

    # --- the local store's key -----------------------------------------------------------

    def usable(self) -> bool:
        """Whether the keyring can keep secrets now (``reason`` says why not)."""
        return self._keyring() is not None

    def store_key(self, server_url: str, username: str, *, create: bool = True) -> bytes | None:
        """The profile's local store key, made and saved in the keyring on first use (unless
        ``create`` is false: a start with no network only opens what is there). None
        when no keyring can hold it (memory-only credentials, no backend, a backend that
        fails): then the store needs another key or nothing may be written to disk. A
        keyring that fails to answer never leads to a new key (that would orphan the
        store's content)."""
        backend = self._keyring()
        if backend is None:
            return None
        service = self.store_key_service_name(server_url)
        try:
            stored = backend.get_password(service, username)
        except Exception as err:
            error = type(err).__name__
            self._why(_Why(KeyringProblem.failed, f"the keyring failed ({error})", error))
            log.warning("could not read the local store key from the keyring: %s", self.reason)
            return None
        if stored:
            try:
                key = base64.b64decode(stored, validate=True)
            except (binascii.Error, ValueError):
                key = b""
            if len(key) == STORE_KEY_BYTES:
                return key
            if not create:
                return None
            log.warning("the local store key in the keyring is damaged; a new one is made")
        if not create:
            return None
        key = os.urandom(STORE_KEY_BYTES)
        encoded = base64.b64encode(key).decode("ascii")
        try:
            backend.set_password(service, username, encoded)
            ok = backend.get_password(service, username) == encoded
        except Exception as err:
            error = type(err).__name__
            self._why(
                _Why(
                    KeyringProblem.refused,
                    f"the keyring refused the local store key ({error})",
                    error,
                )
            )
            ok = False
        if not ok:
            if not self.reason:
                self._why(
                    _Why(KeyringProblem.refused, "the keyring did not keep the local store key")
                )
            log.warning("nothing will be kept on disk this session: %s", self.reason)
            self._delete(backend, service, username)
            return None
        return key

    def no_store_key(self) -> None:
        """The keyring answered but holds no key for a store kept here encrypted (another
        backend answers now, its collection was reset): noted as a failure to give the key
        (``reason``), so the store waits for it, as for a locked keyring; never a new key."""
        self._why(
            _Why(
                KeyringProblem.failed,
                "the keyring holds no key for the local store kept here",
                "no key for the saved work",
            )
        )

    def delete_store_key(self, server_url: str, username: str) -> None:
        """Forget the profile's store key: what is left of its store can no longer be read."""
        backend = self._keyring()
        if backend is not None:
            self._delete(backend, self.store_key_service_name(server_url), username)

    @staticmethod
    def _delete(backend: KeyringBackend, service: str, username: str) -> None:
        try:
            backend.delete_password(service, username)
        except keyring.errors.PasswordDeleteError:
            pass
        except Exception as err:
            log.warning("could not delete a key from the keyring (%s)", type(err).__name__)
