"""The demo's files, shipped as package data of ``reviewer_app.server.demo``.

Read through ``importlib.resources``, so they are found the same way in a source tree, an
installed wheel and the desktop bundle (never beside the package: issue 17).
"""

from __future__ import annotations

from importlib.resources import files
from importlib.resources.abc import Traversable

QUEUE_FILE = "queues.toml"
POSTS_FILE = "demo_posts.jsonl"
MEDIA_FOLDER = "media"


def demo_file(name: str) -> Traversable:
    """A file shipped with the demo (``queues.toml``, ``demo_posts.jsonl``)."""
    return files(__package__) / name


def media_file(name: str) -> Traversable:
    """One of the demo's media files (``media/<name>``)."""
    return files(__package__) / MEDIA_FOLDER / name


__all__ = ["MEDIA_FOLDER", "POSTS_FILE", "QUEUE_FILE", "demo_file", "media_file"]
