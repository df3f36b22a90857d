"""Write the demo's posts and signals (``demo_posts.jsonl``) from the demo generator.

    python -m reviewer_app.server.demo.export_jsonl [--output PATH]

Run once after changing the generator or the routing rules of ``queues.toml``, and commit
the file: the demo seed replays it through intake, it does not run the generator. The
output is the same for the same code (fixed seed and generation time); it fails when the
queue file's rules would route a demo post elsewhere than the generator put it.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path

from reviewer_app.server.demo import DEMO_SEED, build_demo_dataset
from reviewer_app.server.demo.queues import demo_queue_file
from reviewer_app.server.demo.records import Line, RoutingMismatch, demo_lines

GENERATED_AT = datetime(2026, 11, 30, 9, 30, tzinfo=UTC)
"""The demo's fixed 'now' of generation (the replay moves every time by now - this)."""


def default_output() -> Path:
    return Path(__file__).resolve().parent / "demo_posts.jsonl"


def render(lines: Iterable[Line]) -> str:
    return "".join(
        json.dumps(line, ensure_ascii=False, separators=(",", ":")) + "\n" for line in lines
    )


def demo_jsonl(seed: int = DEMO_SEED) -> str:
    """The file's text."""
    queue_file = demo_queue_file()
    order = [q.id for q in queue_file.queues]
    configs = {q.id: q.config for q in queue_file.queues}
    dataset = build_demo_dataset(GENERATED_AT, seed)
    return render(demo_lines(dataset, GENERATED_AT, order, configs))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", type=Path, default=default_output())
    args = parser.parse_args(argv)
    try:
        text = demo_jsonl()
    except RoutingMismatch as exc:
        print(f"The queue file and the generator disagree: {exc}", file=sys.stderr)
        return 1
    args.output.write_text(text, encoding="utf-8")
    print(f"wrote {text.count(chr(10))} lines ({len(text.encode()):,} bytes) to {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
