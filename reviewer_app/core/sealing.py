"""Encryption at rest of the local store's user content: AES-256-GCM under the profile's key.

Every sealed value is ``version (1 byte) | nonce (12 random bytes) | ciphertext | tag``. The
associated data is where the value lives, ``<table>.<column>:<primary key>``, so a value
copied to another row or another column fails to open instead of showing the wrong post.
A value that does not open is a ``StoreError`` with a plain message; nothing half-read is
ever returned.

The key is 32 random bytes made on the profile's first use and kept in the OS keyring
(``Credentials.store_key``); it is never written to a file.
"""

from __future__ import annotations

import os

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from .errors import StoreError

KEY_BYTES = 32
NONCE_BYTES = 12
VERSION = 1
_PREFIX = bytes([VERSION])
#: binds the associated data to this format, so a later format cannot be confused with it
_AD_CONTEXT = b"reviewer-app store v1|"


class RowCipher:
    """Seals and opens the values of one profile's store."""

    def __init__(self, key: bytes) -> None:
        if len(key) != KEY_BYTES:
            raise ValueError(f"a store key is {KEY_BYTES} bytes, not {len(key)}")
        self._aead = AESGCM(key)

    @staticmethod
    def new_key() -> bytes:
        return os.urandom(KEY_BYTES)

    def seal(self, where: str, data: bytes) -> bytes:
        """``data`` encrypted for the place ``where`` (``table.column:primary key``)."""
        nonce = os.urandom(NONCE_BYTES)
        return _PREFIX + nonce + self._aead.encrypt(nonce, data, _AD_CONTEXT + where.encode())

    def open(self, where: str, sealed: object) -> bytes:
        """The data sealed for ``where``; StoreError when it is not that."""
        if not isinstance(sealed, bytes):
            raise StoreError(
                f"The local store holds unencrypted content where encrypted content belongs "
                f"({_place(where)}); it was not shown."
            )
        if len(sealed) < 1 + NONCE_BYTES + 16 or sealed[0] != VERSION:
            raise StoreError(
                f"The local store holds content in a form this release cannot read "
                f"({_place(where)}); it was not shown."
            )
        nonce, body = sealed[1 : 1 + NONCE_BYTES], sealed[1 + NONCE_BYTES :]
        try:
            return self._aead.decrypt(nonce, body, _AD_CONTEXT + where.encode())
        except InvalidTag:
            raise StoreError(
                f"Content in the local store could not be decrypted ({_place(where)}): it was "
                "changed, moved from another row, or encrypted with another key. It was not "
                "shown."
            ) from None


def _place(where: str) -> str:
    """The table and column only: row ids are not secret, but a message has no need of them."""
    return where.split(":", 1)[0]
