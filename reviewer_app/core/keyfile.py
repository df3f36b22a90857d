"""A store key protected by the reviewer's password, for workstations with no keyring.

The profile's store key is 32 random bytes, as in the keyring, but kept *wrapped* in a
small file beside the store (``<store>.key``, 0600): encrypted with AES-256-GCM under a
key-encryption key derived from the password with argon2id (RFC 9106's second
recommended parameters: 3 passes over 64 MiB, 4 lanes) and a random 16-byte salt made
for this profile. The file holds the format, the KDF's name and parameters, the salt, the
nonce and the wrapped key; the associated data binds them and the profile (server and
user), so a file copied to another profile, or with its parameters edited, does not open.

Opening the file with a password is the check of that password on this computer (the
tag of the wrapped key is an authenticated check value): a wrong one is ``WrongPassword``
and changes nothing. Nothing else is stored: the password itself never is, and the
derived keys live only in memory.

Against someone who copies the disk, the store is as strong as the password under
argon2id (each guess costs 64 MiB and some tenths of a second); the keyring, when there
is one, is stronger, which is why the app prefers it.
"""

from __future__ import annotations

import base64
import binascii
import json
import logging
import os
import secrets
import sqlite3
from contextlib import closing, suppress
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from argon2.low_level import Type, hash_secret_raw
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from .errors import CoreError
from .paths import FILE_MODE, narrow_file, private_folder

FORMAT = 1
KDF = "argon2id"
KEY_BYTES = 32
SALT_BYTES = 16
NONCE_BYTES = 12
SUFFIX = ".key"
_AD_CONTEXT = b"reviewer-app store key v1|"

log = logging.getLogger("net")


@dataclass(frozen=True)
class KdfParams:
    """argon2id's cost: passes, memory in KiB, lanes."""

    time_cost: int = 3
    memory_cost: int = 64 * 1024
    parallelism: int = 4

    def derive(self, password: str, salt: bytes) -> bytes:
        return hash_secret_raw(
            password.encode("utf-8"),
            salt,
            time_cost=self.time_cost,
            memory_cost=self.memory_cost,
            parallelism=self.parallelism,
            hash_len=KEY_BYTES,
            type=Type.ID,
        )


#: what new key files use; the file keeps its own, so these can rise in a later release
DEFAULT_PARAMS = KdfParams()
#: lowest costs a file may name (a file naming less was not written by this app)
_FLOOR = KdfParams(time_cost=1, memory_cost=8 * 1024, parallelism=1)
#: what a key wrapped under a published password uses (the demo's: its key protects
#: nothing against a reader of the disk, so a costly KDF would only slow its start)
PUBLISHED_PASSWORD_PARAMS = _FLOOR
_CEILING = KdfParams(time_cost=16, memory_cost=1024 * 1024, parallelism=16)


class WrongPassword(CoreError):
    """The password does not open this profile's saved work."""


class KeyFileUnusable(CoreError):
    """The key file is damaged or not one this release can read; the message says which."""


def key_file_path(store_path: Path) -> Path:
    """Where the wrapped key of the store at ``store_path`` lives: beside it."""
    return Path(str(store_path) + SUFFIX)


def _associated(server_url: str, username: str, params: KdfParams, salt: bytes) -> bytes:
    profile = json.dumps(
        {
            "server": server_url,
            "user": username,
            "kdf": KDF,
            "t": params.time_cost,
            "m": params.memory_cost,
            "p": params.parallelism,
            "salt": salt.hex(),
        },
        sort_keys=True,
    )
    return _AD_CONTEXT + profile.encode()


def _wrap(
    key: bytes, password: str, server_url: str, username: str, params: KdfParams
) -> dict[str, object]:
    salt = secrets.token_bytes(SALT_BYTES)
    nonce = secrets.token_bytes(NONCE_BYTES)
    kek = params.derive(password, salt)
    wrapped = AESGCM(kek).encrypt(nonce, key, _associated(server_url, username, params, salt))
    return {
        "format": FORMAT,
        "kdf": KDF,
        "time_cost": params.time_cost,
        "memory_cost": params.memory_cost,
        "parallelism": params.parallelism,
        "salt": base64.b64encode(salt).decode(),
        "nonce": base64.b64encode(nonce).decode(),
        "wrapped_key": base64.b64encode(wrapped).decode(),
    }


def _write(path: Path, document: dict[str, object]) -> None:
    """Atomically, 0600 from the start, synced: a crash leaves the old file or the new one."""
    private_folder(path.parent)
    temporary = path.with_name(f"{path.name}.{secrets.token_hex(4)}.tmp")
    fd = os.open(temporary, os.O_CREAT | os.O_EXCL | os.O_WRONLY, FILE_MODE)
    try:
        with os.fdopen(fd, "w", encoding="ascii") as out:
            json.dump(document, out, sort_keys=True)
            out.flush()
            os.fsync(out.fileno())
        narrow_file(temporary)
        os.replace(temporary, path)
    except BaseException:
        with suppress(FileNotFoundError):
            temporary.unlink()
        raise
    if hasattr(os, "O_DIRECTORY"):
        dir_fd = os.open(path.parent, os.O_DIRECTORY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)


def create(
    path: Path,
    password: str,
    server_url: str,
    username: str,
    *,
    params: KdfParams = DEFAULT_PARAMS,
    key: bytes | None = None,
) -> bytes:
    """A new store key (or ``key``), wrapped under ``password`` in ``path``. Returns it."""
    key = key if key is not None else secrets.token_bytes(KEY_BYTES)
    if len(key) != KEY_BYTES:
        raise ValueError(f"a store key is {KEY_BYTES} bytes")
    _write(path, _wrap(key, password, server_url, username, params))
    return key


def _read(path: Path) -> tuple[KdfParams, bytes, bytes, bytes]:
    try:
        document = json.loads(path.read_text(encoding="ascii"))
        if document.get("format") != FORMAT or document.get("kdf") != KDF:
            raise KeyFileUnusable(
                f"The key file {path} is of a form this release cannot read; it was left as it is."
            )
        params = KdfParams(
            int(document["time_cost"]), int(document["memory_cost"]), int(document["parallelism"])
        )
        salt = base64.b64decode(document["salt"], validate=True)
        nonce = base64.b64decode(document["nonce"], validate=True)
        wrapped = base64.b64decode(document["wrapped_key"], validate=True)
    except KeyFileUnusable:
        raise
    except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError, binascii.Error) as err:
        raise KeyFileUnusable(
            f"The key file {path} is damaged ({type(err).__name__}); it was left as it is."
        ) from None
    if not all(
        low <= value <= high
        for low, value, high in zip(
            (_FLOOR.time_cost, _FLOOR.memory_cost, _FLOOR.parallelism),
            (params.time_cost, params.memory_cost, params.parallelism),
            (_CEILING.time_cost, _CEILING.memory_cost, _CEILING.parallelism),
            strict=True,
        )
    ) or (len(salt), len(nonce), len(wrapped)) != (SALT_BYTES, NONCE_BYTES, KEY_BYTES + 16):
        raise KeyFileUnusable(
            f"The key file {path} names costs or sizes this app never writes; it was left as it is."
        )
    return params, salt, nonce, wrapped


def unlock(path: Path, password: str, server_url: str, username: str) -> bytes:
    """The store key in ``path``, opened with ``password``. ``WrongPassword`` when it does
    not open it; ``KeyFileUnusable`` when the file is damaged. Costs one KDF run (some
    tenths of a second): never on the GUI thread."""
    narrow_file(path)
    params, salt, nonce, wrapped = _read(path)
    kek = params.derive(password, salt)
    try:
        return AESGCM(kek).decrypt(nonce, wrapped, _associated(server_url, username, params, salt))
    except InvalidTag:
        raise WrongPassword(f"The password given does not open the store key in {path}.") from None


def rewrap(path: Path, key: bytes, password: str, server_url: str, username: str) -> None:
    """Protect the open ``key`` with a new password (the reviewer's password changed on the
    server while a session held the key): a fresh salt, the same key."""
    create(path, password, server_url, username, key=key)


def reopen(path: Path, previous: str, password: str, server_url: str, username: str) -> bytes:
    """The store key in ``path``, opened with the ``previous`` password and wrapped under
    ``password`` in its place (the password changed on the server while no session held
    the key), with a fresh salt and the file's own costs. The file is replaced atomically:
    there is never a moment without one, and a crash leaves the old or the new.
    ``WrongPassword`` when ``previous`` does not open it: nothing is changed. Two KDF runs:
    never on the GUI thread."""
    key = unlock(path, previous, server_url, username)
    _write(path, _wrap(key, password, server_url, username, _read(path)[0]))
    log.info("the password changed: the local store key is wrapped under the new one")
    return key


def keep_under(path: Path, key: bytes, password: str, server_url: str, username: str) -> None:
    """The open ``key`` kept in ``path`` under ``password``: wrapped anew (``rewrap``) when
    the file does not open with it (the password changed while a session held the key)."""
    try:
        unlock(path, password, server_url, username)
    except (WrongPassword, KeyFileUnusable, OSError):
        log.info("the password changed: the local store key is wrapped under the new one")
        rewrap(path, key, password, server_url, username)


def has_store(store: Path) -> bool:
    """A store file is kept at ``store`` (not a new, empty one)."""
    return store.is_file() and store.stat().st_size > 0


def exists(path: Path) -> bool:
    return Path(path).is_file()


def stores_moved_aside(store: Path) -> list[Path]:
    """The stores of the profile whose store is at ``store`` that were moved aside
    (``<store>.unusable-<time>``, without their -wal, -shm or .key companions)."""
    if not store.parent.is_dir():
        return []
    found = store.parent.glob(f"{store.name}.unusable-*")
    return sorted(p for p in found if p.is_file() and p.name.endswith("Z"))


def move_aside(store: Path) -> Path:
    """A store and its key file that cannot be opened now, moved aside together (named as
    the store moves a damaged file aside) so support can open them with the old password.
    Where the store went. Under the store's lock (``StoreInUse`` while another copy of the
    app has it open: its live files are never renamed from under it)."""
    from .store.hold import hold  # here: the store package reads this module's SUFFIX

    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    aside = store.with_name(f"{store.name}.unusable-{stamp}")
    lock = hold(store)
    try:
        for suffix in ("", "-wal", "-shm", SUFFIX):
            source = Path(str(store) + suffix)
            if source.exists():
                source.replace(Path(str(aside) + suffix))
    finally:
        if lock is not None:
            lock.release()
    log.error("the saved work at %s was moved aside to %s", store, aside)
    return aside


def unsent_unopened(store: Path) -> int | None:
    """What the store at ``store`` holds not yet sent (its outbox, the posts of its held bulk
    decisions: counts kept in plain text), read without its key (a key file that does not
    open with the password given) and changing nothing; None when it cannot be read so."""
    companions = [Path(f"{store}{suffix}") for suffix in ("-wal", "-shm")]
    absent = [p for p in companions if not p.exists()]
    try:
        with closing(sqlite3.connect(f"{store.resolve().as_uri()}?mode=ro", uri=True)) as conn:
            row = conn.execute(
                "SELECT (SELECT COUNT(*) FROM outbox), "
                "(SELECT COALESCE(SUM(item_count), 0) FROM held_bulk)"
            ).fetchone()
    except sqlite3.Error:
        return None
    finally:
        wal, shm = companions
        if len(absent) == 2 and (not wal.exists() or not wal.stat().st_size):
            wal.unlink(missing_ok=True)  # the empty WAL and SHM a read-only look left
            shm.unlink(missing_ok=True)
    return int(row[0]) + int(row[1])
