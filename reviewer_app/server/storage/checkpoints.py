"""Checkpoints of the event log and their Ed25519 signatures.

A checkpoint says: "the log had ``size`` entries, the last of them hashed to ``head_hash``,
at ``at``". Because every entry's hash covers the hash of the entry before it, the head
hash commits to the whole log up to ``size``: a log that later disagrees with any entry up
to there cannot produce that hash again. The sequencer publishes one every few seconds
while the log grows (``log_checkpoints``), signed when the service has a signing key
(setting ``log_signing_key``: a file made by ``reviewer-app server log-key create``).

Whoever holds the public key can then hold the service to its log: a signed checkpoint
copied out of the service (or read from the table at any time) is a promise the service
cannot take back without the private key, and ``reviewer-app server verify-log
--public-key`` checks that the log still extends every checkpoint.

What is signed is the checkpoint's text (UTF-8), one field a line::

    review-desk event log
    <size>
    <head hash, 64 hex digits>
    <at, RFC 3339 UTC with microseconds>

The key id is the first 16 hex digits of sha256 over the raw 32-byte public key.
"""

from __future__ import annotations

import base64
import hashlib
import logging
import os
import stat
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

ORIGIN = "review-desk event log"

log = logging.getLogger("server")


class KeyFileError(ValueError):
    """A key file that is missing, unreadable or holds no Ed25519 key."""


@dataclass(frozen=True)
class Checkpoint:
    size: int
    head_hash: str
    at: float
    key_id: str | None = None
    signature: str | None = None

    def body(self) -> bytes:
        return checkpoint_body(self.size, self.head_hash, self.at)


def checkpoint_body(size: int, head_hash: str, at: float) -> bytes:
    when = datetime.fromtimestamp(at, tz=UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    return f"{ORIGIN}\n{size}\n{head_hash}\n{when}\n".encode()


def key_id(public_key: Ed25519PublicKey) -> str:
    raw = public_key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return hashlib.sha256(raw).hexdigest()[:16]


class Signer:
    """Signs checkpoints with the service's private key."""

    def __init__(self, private_key: Ed25519PrivateKey) -> None:
        self._key = private_key
        self.public_key = private_key.public_key()
        self.key_id = key_id(self.public_key)

    @classmethod
    def from_file(cls, path: str | Path) -> Signer:
        return cls(load_private_key(path))

    def sign(self, size: int, head_hash: str, at: float) -> Checkpoint:
        signature = self._key.sign(checkpoint_body(size, head_hash, at))
        return Checkpoint(
            size, head_hash, at, self.key_id, base64.b64encode(signature).decode("ascii")
        )


def signature_holds(checkpoint: Checkpoint, public_key: Ed25519PublicKey) -> bool:
    if checkpoint.signature is None:
        return False
    try:
        public_key.verify(base64.b64decode(checkpoint.signature, validate=True), checkpoint.body())
    except (InvalidSignature, ValueError):
        return False
    return True


def create_key_file(path: str | Path) -> Signer:
    """A new private key in ``path`` (PEM, PKCS#8, readable by its owner only); refuses to
    overwrite a file that exists."""
    target = Path(path).expanduser()
    key = Ed25519PrivateKey.generate()
    pem = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    target.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as out:
        out.write(pem)
    return Signer(key)


def load_private_key(path: str | Path) -> Ed25519PrivateKey:
    """The private key in ``path``; on POSIX a warning when others than its owner may read
    it (taken all the same: a container's secret mount is often 0644)."""
    try:
        with Path(path).expanduser().open("rb") as file:
            data = file.read()
            mode = os.fstat(file.fileno()).st_mode
    except OSError as exc:
        raise KeyFileError(f"cannot read {path}: {exc.strerror or exc}") from exc
    try:
        key = serialization.load_pem_private_key(data, password=None)
    except (ValueError, TypeError) as exc:
        raise KeyFileError(f"no Ed25519 private key in {path} (not a PEM key file)") from exc
    if not isinstance(key, Ed25519PrivateKey):
        raise KeyFileError(f"{path} holds no Ed25519 private key")
    if os.name == "posix" and mode & (stat.S_IRGRP | stat.S_IROTH):
        log.warning(
            "the log signing key %s is readable by group or others (mode %s): whoever reads "
            "it can sign checkpoints as this service; make it the owner's only with "
            "`chmod 600 %s`",
            path,
            oct(stat.S_IMODE(mode)),
            path,
        )
    return key


def load_public_key(path: str | Path) -> Ed25519PublicKey:
    """A public key file (PEM), or a private key file (its public half)."""
    try:
        data = Path(path).expanduser().read_bytes()
    except OSError as exc:
        raise KeyFileError(f"cannot read {path}: {exc.strerror or exc}") from exc
    try:
        key = serialization.load_pem_public_key(data)
    except ValueError:
        try:
            return load_private_key(path).public_key()
        except KeyFileError:
            raise KeyFileError(f"no Ed25519 public or private key in {path}") from None
    if not isinstance(key, Ed25519PublicKey):
        raise KeyFileError(f"{path} holds no Ed25519 public key")
    return key


def public_pem(public_key: Ed25519PublicKey) -> str:
    return public_key.public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    ).decode("ascii")
