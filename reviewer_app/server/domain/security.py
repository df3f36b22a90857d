"""Passwords (argon2id), login tokens and API keys (both stored as SHA-256) and failed-login
throttling."""

from __future__ import annotations

import contextlib
import hashlib
import secrets
import threading
from collections import OrderedDict

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from argon2.profiles import CHEAPEST, RFC_9106_LOW_MEMORY


def password_hasher(profile: str) -> PasswordHasher:
    if profile == "fast":  # tests, benchmarks, the demo: still argon2id, with tiny costs
        return PasswordHasher.from_parameters(CHEAPEST)
    if profile == "default":
        return PasswordHasher.from_parameters(RFC_9106_LOW_MEMORY)
    raise ValueError(f"unknown password_hash_profile {profile!r}")


UNUSABLE_PASSWORD = "!service-account"  # noqa: S105 - no argon2 hash: never matches
"""The password hash of a service account (platform, fact-checker): they log in with API
keys only. Any stored hash starting with ``!`` is unusable."""


def verify_password(hasher: PasswordHasher, stored_hash: str | None, password: str) -> bool:
    """Constant work whether or not the user exists, or has a password at all."""
    if stored_hash is None or stored_hash.startswith("!"):
        stored_hash = _dummy_hash(hasher)
        with contextlib.suppress(VerificationError, InvalidHashError):
            hasher.verify(stored_hash, password + "\x00no-such-user")
        return False
    try:
        return hasher.verify(stored_hash, password)
    except (VerificationError, InvalidHashError):
        return False


_DUMMY: dict[int, str] = {}


def _dummy_hash(hasher: PasswordHasher) -> str:
    key = id(hasher)
    if key not in _DUMMY:
        _DUMMY[key] = hasher.hash(secrets.token_urlsafe(16))
    return _DUMMY[key]


def new_token() -> str:
    return "rd1_" + secrets.token_urlsafe(32)


API_KEY_PREFIX = "rdk_"
API_KEY_SHOWN = 12
"""Characters of a key kept in the clear (``rdk_`` and 8 random ones) to tell keys apart."""


def new_api_key() -> str:
    """A service account's key: ``rdk_`` and 256 random bits (43 URL-safe characters)."""
    return API_KEY_PREFIX + secrets.token_urlsafe(32)


def is_api_key(token: str) -> bool:
    return token.startswith(API_KEY_PREFIX)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def lock_seconds(failures: int, max_failures: int, first_lock: int) -> int:
    """How long a name stays locked after ``failures`` consecutive failed logins."""
    if failures < max_failures:
        return 0
    return int(min(first_lock * 2 ** (failures - max_failures), 15 * 60))


def token_key(token: bytes) -> str:
    """A bearer token's rate-limit bucket key: a digest (the token itself is never kept)."""
    return "t:" + hashlib.sha256(token).hexdigest()[:32]


class KnownTokens:
    """The rate limit's bucket keys of the bearer tokens that authenticated in this process
    (the least recently seen forgotten first beyond ``size``): only those get a bucket of
    their own (ops/ratelimit.py). The authentication marks them (http/auth.py) and forgets
    one that is refused."""

    def __init__(self, size: int = 100_000) -> None:
        self.size = size
        self._seen: OrderedDict[str, None] = OrderedDict()
        self._lock = threading.Lock()

    def add(self, token: str) -> None:
        key = token_key(token.encode())
        with self._lock:
            self._seen[key] = None
            self._seen.move_to_end(key)
            while len(self._seen) > self.size:
                self._seen.popitem(last=False)

    def discard(self, token: str) -> None:
        with self._lock:
            self._seen.pop(token_key(token.encode()), None)

    def __contains__(self, key: object) -> bool:
        with self._lock:
            return key in self._seen
