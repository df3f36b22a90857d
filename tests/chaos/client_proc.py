"""A reviewer's client as its own process, for the chaos test (which kills it at random).

Usage: python -m tests.chaos.client_proc decide|drain SERVER_URL STORE_PATH QUEUE_ID SEED
(the token in REVIEWER_TEST_TOKEN)

``decide``: the real client core -- the sync engine on its thread (prefetching, delivering,
renewing) and, on the main thread, the local store deciding the next local item with a
random valid action, now and then undoing the last verdict or skipping an item, with a
short random pause between decisions. It runs until it is killed.

``drain``: a clean exit, as the app makes one: end every undo window, deliver the outbox
until it is empty, give back what was not decided, print "drained" and exit 0.

Either exits 3 when the sync engine stops on an unexpected error (a crash on a bad reply).
"""

from __future__ import annotations

import contextlib
import os
import random
import sys
import time

from reviewer_app.core import events as ev
from reviewer_app.core.store import AlreadyDecided, NothingToUndo, Store
from reviewer_app.core.sync import SyncEngine

#: (action, policy codes, weight): every action of the load-test queue in a valid form
ACTIONS = (("keep", (), 0.5), ("remove", ("SPAM.SCAM",), 0.45), ("escalate", (), 0.05))
UNDO_SHARE = 0.04
SKIP_SHARE = 0.01
#: seconds between decisions (a fast reviewer, still many decisions inside an undo window)
PAUSE = (0.005, 0.07)
DRAIN_LIMIT = 150.0


def _problem(event: ev.SyncEvent) -> None:
    if isinstance(event, ev.Problem):
        print(f"sync problem: {event.message}", file=sys.stderr, flush=True)


def decide(url: str, path: str, queue_id: str, seed: int, token: str) -> int:
    rng = random.Random(seed)
    engine = SyncEngine(url, path, token=token, listener=_problem, rng=random.Random(seed + 1))
    engine.set_active_queues([queue_id])
    engine.start()
    store = Store(path)
    print("ready", flush=True)
    actions = [a for a, _, _ in ACTIONS]
    weights = [w for _, _, w in ACTIONS]
    policies = {a: p for a, p, _ in ACTIONS}
    while True:
        if not engine.running:
            print("the sync engine stopped", file=sys.stderr, flush=True)
            return 3
        roll = rng.random()
        if roll < UNDO_SHARE:
            with contextlib.suppress(NothingToUndo):
                store.undo()
            engine.nudge()
            continue
        item = store.next_item(queue_id)
        if item is None:
            time.sleep(0.02)
            continue
        try:
            if roll < UNDO_SHARE + SKIP_SHARE:
                store.skip(item.item.id)
            else:
                action = rng.choices(actions, weights=weights)[0]
                store.record_verdict(
                    item.item.id,
                    action=action,
                    policies=policies[action],
                    time_spent_ms=rng.randint(500, 20_000),
                )
        except AlreadyDecided:
            pass
        engine.nudge()
        time.sleep(rng.uniform(*PAUSE))


def drain(url: str, path: str, token: str) -> int:
    engine = SyncEngine(url, path, token=token, listener=_problem)
    engine.open()
    assert engine.store is not None
    deadline = time.monotonic() + DRAIN_LIMIT
    while engine.store.counts().pending:
        if time.monotonic() > deadline:
            print(f"not drained: {engine.store.counts()}", file=sys.stderr, flush=True)
            return 2
        # a clean exit ends every undo window, and a retry-later wait with it
        engine.store.flush_all(engine.clock())
        wait = engine.run_once()
        if engine.store.counts().pending:
            time.sleep(min(max(wait, 0.05), 0.5))
    engine.shutdown_pass()
    engine.close()
    print("drained", flush=True)
    return 0


def main() -> int:
    mode, url, path, queue_id, seed = sys.argv[1:6]
    token = os.environ["REVIEWER_TEST_TOKEN"]
    if mode == "decide":
        return decide(url, path, queue_id, int(seed), token)
    if mode == "drain":
        return drain(url, path, token)
    raise SystemExit(f"unknown mode {mode!r}")


if __name__ == "__main__":
    sys.exit(main())
