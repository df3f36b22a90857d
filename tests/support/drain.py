"""A client process that only drains its outbox (killed at random by the crash test).

Usage: python -m tests.support.drain SERVER_URL STORE_PATH   (token in REVIEWER_TEST_TOKEN)
Prints "ready" once its store and HTTP session are open, "drained" when the outbox is empty.
"""

from __future__ import annotations

import os
import sys

from reviewer_app.core.sync import SyncEngine


def main() -> int:
    url, path = sys.argv[1], sys.argv[2]
    engine = SyncEngine(url, path, token=os.environ["REVIEWER_TEST_TOKEN"])
    engine.open()
    assert engine.store is not None
    print("ready", flush=True)
    while engine.store.counts().pending:
        engine.run_once()
    print("drained", flush=True)
    engine.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
