"""The log signing key's file: taken when others may read it (a container's secret mount is
often 0644), with a warning naming the file and the fix; quiet when it is the owner's only
(as ``log-key create`` writes it)."""

from __future__ import annotations

import logging
import os
from pathlib import Path

import pytest

from reviewer_app.server.storage.checkpoints import create_key_file, load_private_key

pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX file modes")


@pytest.mark.parametrize("mode", [0o644, 0o640, 0o604])
def test_a_key_others_may_read_is_used_with_a_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, mode: int
) -> None:
    path = tmp_path / "log-signing.pem"
    made = create_key_file(path)
    path.chmod(mode)
    with caplog.at_level(logging.WARNING):
        key = load_private_key(path)
    assert key.public_key() == made.public_key, "the key is used all the same"
    [warning] = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert str(path) in warning.getMessage() and "chmod 600" in warning.getMessage()


def test_a_key_only_its_owner_may_read_is_used_quietly(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "log-signing.pem"
    create_key_file(path)
    assert path.stat().st_mode & 0o777 == 0o600
    with caplog.at_level(logging.WARNING):
        load_private_key(path)
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]
