"""The store key wrapped under the reviewer's password (workstations with no keyring): the
password opens it and nothing else does; a wrong one changes nothing; the file is 0600,
holds neither the key nor the password, and is bound to its profile and its parameters."""

from __future__ import annotations

import base64
import json
import os
import stat
from pathlib import Path

import pytest

from reviewer_app.core import keyfile
from reviewer_app.core.keyfile import KeyFileUnusable, WrongPassword
from tests.support.at_rest import forms

SERVER = "https://queue.example.org"
PASSWORD = "correct horse battery staple"


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_the_password_opens_the_key_and_a_wrong_one_changes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "profile" / "rita.sqlite3.key"
    key = keyfile.create(path, PASSWORD, SERVER, "rita")
    assert len(key) == 32
    assert keyfile.unlock(path, PASSWORD, SERVER, "rita") == key
    written = path.read_bytes()
    for wrong in ("", PASSWORD + " ", PASSWORD.upper(), "correct horse battery stapler"):
        with pytest.raises(WrongPassword, match="does not open the store key"):
            keyfile.unlock(path, wrong, SERVER, "rita")
    assert path.read_bytes() == written, "a wrong password changes nothing"
    if os.name == "posix":
        assert _mode(path) == 0o600 and _mode(path.parent) == 0o700
    # neither the key nor the password is in the file, in any form
    needles = [key, base64.b64encode(key), key.hex().encode(), *forms(PASSWORD)]
    assert not any(n in written for n in needles)
    document = json.loads(written)
    assert document["kdf"] == "argon2id" and document["memory_cost"] >= 64 * 1024
    assert [p.name for p in path.parent.iterdir()] == [path.name], "no temporary file left"


def test_the_file_is_bound_to_its_profile_and_its_parameters(tmp_path: Path) -> None:
    path = tmp_path / "rita.key"
    keyfile.create(path, PASSWORD, SERVER, "rita")
    with pytest.raises(WrongPassword):
        keyfile.unlock(path, PASSWORD, SERVER, "rosa")  # copied to another user's profile
    with pytest.raises(WrongPassword):
        keyfile.unlock(path, PASSWORD, SERVER + ":8443", "rita")  # or another server
    document = json.loads(path.read_text())
    for field, value in (("time_cost", 2), ("parallelism", 1)):
        edited = tmp_path / f"edited-{field}.key"
        edited.write_text(json.dumps({**document, field: value}))
        with pytest.raises(WrongPassword):
            keyfile.unlock(edited, PASSWORD, SERVER, "rita")
    for broken in (
        "not json",
        json.dumps({**document, "format": 99}),
        json.dumps({**document, "memory_cost": 8}),  # below anything this app writes
        json.dumps({**document, "salt": "!!"}),
        json.dumps({k: v for k, v in document.items() if k != "nonce"}),
    ):
        damaged = tmp_path / "damaged.key"
        damaged.write_text(broken)
        with pytest.raises(KeyFileUnusable):
            keyfile.unlock(damaged, PASSWORD, SERVER, "rita")


def test_a_new_password_wraps_the_same_key_and_an_old_file_is_narrowed(tmp_path: Path) -> None:
    path = tmp_path / "rita.key"
    key = keyfile.create(path, PASSWORD, SERVER, "rita")
    first_salt = json.loads(path.read_text())["salt"]
    keyfile.rewrap(path, key, "a new password", SERVER, "rita")
    assert keyfile.unlock(path, "a new password", SERVER, "rita") == key
    assert json.loads(path.read_text())["salt"] != first_salt, "a fresh salt"
    with pytest.raises(WrongPassword):
        keyfile.unlock(path, PASSWORD, SERVER, "rita")
    if os.name == "posix":
        path.chmod(0o644)  # as an older release or a copy might leave it
        keyfile.unlock(path, "a new password", SERVER, "rita")
        assert _mode(path) == 0o600
