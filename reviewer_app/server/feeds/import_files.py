"""The files ``server import`` reads: the JSONL file itself (a regular file, UTF-8) and
the media files its lines name (regular files beside it). See bulk_import.py."""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import IO

from reviewer_app.protocol import MAX_MEDIA_BYTES


class ImportFileError(Exception):
    """The file cannot be imported (unreadable, or changed since its state was written)."""


def open_input(file: Path) -> IO[bytes]:
    """The file to import, opened without waiting (a FIFO blocked ``open``); refused if
    it is not a regular file, or names a descriptor (``/dev/stdin``): its state is written
    beside it."""
    refusal = ImportFileError(
        f"{file} is not a regular file: the import needs one, since it resumes from a state "
        f"file written beside it ({file.name}.import-state)"
    )
    if _names_a_descriptor(file):
        raise refusal
    try:
        fd = os.open(file, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as exc:
        raise ImportFileError(f"cannot read {file}: {exc.strerror or exc}") from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise refusal
    os.set_blocking(fd, True)
    return open(fd, "rb")


_DESCRIPTOR_NAMES = ("/dev/fd/", "/dev/stdin", "/dev/stdout", "/dev/stderr", "/proc/")


def _names_a_descriptor(file: Path) -> bool:
    """``/dev/stdin``, ``/dev/fd/0``, ``/proc/self/fd/0`` or a link to one of them: the
    name of whatever a descriptor is open on (``< ok.jsonl``), not of a file."""
    path = os.path.abspath(file)
    for _ in range(40):
        if path.startswith(_DESCRIPTOR_NAMES):  # (a file in /dev/shm is a file)
            return True
        try:
            target = os.readlink(path)
        except OSError:
            return False
        path = os.path.normpath(os.path.join(os.path.dirname(path), target))
    return True


_BOMS = (
    (b"\xff\xfe\x00\x00", "UTF-32"),
    (b"\x00\x00\xfe\xff", "UTF-32"),
    (b"\xff\xfe", "UTF-16"),
    (b"\xfe\xff", "UTF-16"),
)


def refuse_other_encodings(stream: IO[bytes], file: Path) -> None:
    """A UTF-16 or UTF-32 file was one line "not JSON" and "ends in part of a line":
    refused as a whole instead (a byte order mark, or NUL bytes in its first line)."""
    head = os.pread(stream.fileno(), 4096, 0)
    for bom, name in _BOMS:
        if head.startswith(bom):
            raise ImportFileError(
                f"{file.name} is {name} text (it starts with a byte order mark): the file "
                f"must be UTF-8 (iconv -f {name} -t UTF-8 converts it)"
            )
    if b"\x00" in head.split(b"\n", 1)[0]:
        raise ImportFileError(
            f"{file.name} has NUL bytes in its first line, as UTF-16 or UTF-32 text has: "
            "the file must be UTF-8"
        )


def same_file(path: Path, other: Path) -> bool:
    if path.resolve() == other.resolve():
        return True
    try:
        return os.path.samefile(path, other)
    except OSError:
        return False


def media_reader(folder: Path) -> Callable[[str], bytes]:
    """How a media line's file is read: a regular file in ``folder`` or a folder in it
    (an absolute path, or ``..`` out of it, is refused), and at most one byte over the
    cap (intake refuses it as too large; a 2 GB file was read whole first, and
    ``/dev/zero`` until memory ran out)."""
    root = folder.resolve()

    def read(name: str) -> bytes:
        path = (root / name).resolve()
        if not path.is_relative_to(root):
            raise ValueError(f"{name!r} is not a file beside the import file")
        # checked before it is opened, and opened without waiting: a FIFO (or a device)
        # named by a media line blocked the import for ever in open()
        if not stat.S_ISREG(os.stat(path).st_mode):
            raise ValueError(f"{name!r} is not a regular file")
        with open(os.open(path, os.O_RDONLY | os.O_NONBLOCK), "rb") as stream:
            if not stat.S_ISREG(os.fstat(stream.fileno()).st_mode):
                raise ValueError(f"{name!r} is not a regular file")
            return stream.read(MAX_MEDIA_BYTES + 1)

    return read


__all__ = [
    "ImportFileError",
    "media_reader",
    "open_input",
    "refuse_other_encodings",
    "same_file",
]
