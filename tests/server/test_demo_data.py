"""The demo: its generator is deterministic and well-formed; its queue file, its JSONL and
the generator agree; ``seed --demo`` brings it in through intake like any platform."""

from __future__ import annotations

import json
import struct
from collections import Counter
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import func, select

from reviewer_app.protocol import ActionKind, LeaseClaim, MediaKind, QueueReasonKind, Role
from reviewer_app.server.config import ServerSettings
from reviewer_app.server.demo import DEMO_SEED, DEMO_USERS, build_demo_dataset
from reviewer_app.server.demo.export_jsonl import GENERATED_AT, demo_jsonl
from reviewer_app.server.demo.files import POSTS_FILE, demo_file, media_file
from reviewer_app.server.demo.queues import DEMO_QUEUES, demo_queue_file
from reviewer_app.server.demo.records import SOURCE
from reviewer_app.server.demo.replay import DEMO_APPEALS, DemoSeeded, seed_demo
from reviewer_app.server.domain.queuefile.parse import parse_queue_file
from reviewer_app.server.domain.records import Principal
from reviewer_app.server.feeds.seed_types import Dataset
from reviewer_app.server.service import Service
from reviewer_app.server.storage.tables import events, items, media, posts, signals, users

NOW = GENERATED_AT
QUEUE_IDS = ("misinformation", "hate-harassment", "spam-scams", "inauthentic-accounts")
COUNT_RANGES = {
    "misinformation": (95, 125),
    "hate-harassment": (70, 90),
    "spam-scams": (70, 90),
    "inauthentic-accounts": (40, 60),
    "escalations": (10, 20),
}


@pytest.fixture(scope="module")
def dataset() -> Dataset:
    return build_demo_dataset(NOW)


# -- the generator ---------------------------------------------------------------------------


def test_same_now_and_seed_give_the_same_dataset(dataset: Dataset) -> None:
    assert build_demo_dataset(NOW, DEMO_SEED) == dataset


def test_another_seed_gives_another_dataset(dataset: Dataset) -> None:
    other = build_demo_dataset(NOW, DEMO_SEED + 1)
    assert other != dataset
    assert [i.post.text for i in other.items] != [i.post.text for i in dataset.items]


def test_naive_now_is_refused() -> None:
    with pytest.raises(ValueError, match="timezone-aware"):
        build_demo_dataset(datetime(2026, 11, 30, 9, 30))


def test_queues_and_counts(dataset: Dataset) -> None:
    ids = [q.id for q in dataset.queues]
    assert ids == ["escalations", *QUEUE_IDS, "appeals"]  # routing tries escalations first
    assert [q.id for q in dataset.queues if q.config.appeals] == ["appeals"]
    counts = Counter(i.queue_id for i in dataset.items)
    for queue_id, (lo, hi) in COUNT_RANGES.items():
        assert lo <= counts[queue_id] <= hi, (queue_id, counts[queue_id])
    assert 300 <= len(dataset.items) <= 400
    assert 60 <= len(dataset.authors) <= 90
    escalations = next(q for q in dataset.queues if q.id == "escalations")
    assert escalations.config.lead_only
    assert all(a.requires_note for a in escalations.config.actions)


def test_action_keys_are_unique_per_queue(dataset: Dataset) -> None:
    for queue in dataset.queues:
        keys = [a.key for a in queue.config.actions]
        assert None not in keys and len(set(keys)) == len(keys), queue.id
        kinds = {a.kind.value for a in queue.config.actions}
        # every review queue escalates; the leads' escalations and the appeals queue do not
        escalates = queue.id != "escalations" and not queue.config.appeals
        assert ("escalate" in kinds) == escalates, queue.id


def test_misinformation_labels_and_reduces_in_one_verdict() -> None:
    config = next(q.config for q in DEMO_QUEUES if q.id == "misinformation")
    actions = {a.key: (a.id, a.kind) for a in config.actions}
    assert actions == {
        "1": ("no-violation", ActionKind.keep),
        "2": ("label-reduce", ActionKind.label_and_reduce),
        "3": ("label", ActionKind.label),
        "4": ("reduce", ActionKind.reduce),
        "5": ("remove", ActionKind.remove),
        "9": ("escalate", ActionKind.escalate),
    }
    assert all(a.requires_rating for a in config.actions if a.id in ("label-reduce", "label"))
    reducing = {r.id for r in config.ratings if r.reduces}
    assert reducing == {"false", "partly_false"}
    escalations = next(q.config for q in DEMO_QUEUES if q.id == "escalations")
    assert escalations.action("label-reduce") is not None


def test_every_queue_routes_by_rules_and_the_rated_ones_come_back() -> None:
    for queue in DEMO_QUEUES:
        # appeals come from the platform, never by routing
        assert bool(queue.config.routing) is not queue.config.appeals, queue.id
    rereview = {q.id: q.config.rereview for q in DEMO_QUEUES}
    misinfo = rereview["misinformation"]
    assert misinfo is not None and misinfo.new_reports == 10
    assert set(misinfo.new_ratings) == {"false", "partly_false"}
    hate = rereview["hate-harassment"]
    assert hate is not None and hate.new_reports == 10


def test_the_queue_file_passes_the_queue_file_rules() -> None:
    text = demo_file("queues.toml").read_text("utf-8")
    assert parse_queue_file(text) == demo_queue_file()


def test_users() -> None:
    by_name = {u.username: u for u in DEMO_USERS}
    assert by_name["reviewer"].password == "review-desk-demo"
    assert by_name["reviewer"].role is Role.reviewer
    assert by_name["lead"].role is Role.lead and by_name["lead"].display_name == "Demo Lead"
    assert by_name["admin"].role is Role.admin


def test_items_are_well_formed(dataset: Dataset) -> None:
    authors = {a.id: a for a in dataset.authors}
    assert len({a.handle for a in dataset.authors}) == len(dataset.authors)
    ids = [i.id for i in dataset.items]
    assert ids[0] == "itm-000001" and len(set(ids)) == len(ids)
    assert len({i.post.id for i in dataset.items}) == len(dataset.items)
    for item in dataset.items:
        author = authors[item.author_id]
        post = item.post
        assert post.url == f"https://social.example/@{author.handle}/status/{post.id}"
        assert author.account_created_at < post.created_at < item.enqueued_at <= NOW
        assert not post.media
        assert item.thread.reply_count >= len(item.thread.replies)
        assert len(item.thread.parents) <= 3 and len(item.thread.replies) <= 4
        assert all(p.created_at < post.created_at for p in item.thread.parents)
        assert 10 <= item.reach.views <= 5_000_000
        assert sum(r.count for r in item.reports.by_reason) == item.reports.total
        assert len(item.reports.notes) <= 3
        if post.link_preview is not None:
            assert post.link_preview.url.startswith("https://")
            assert post.link_preview.domain.endswith(".example")
        for score in item.scores:
            for span in score.spans:
                assert 0 <= span.start < span.end <= len(post.text), (item.id, span)


def test_variety(dataset: Dataset) -> None:
    items_ = dataset.items
    languages = Counter(i.post.language for i in items_)
    assert languages["ar"] + languages["he"] >= 10
    assert all(languages[lang] > 0 for lang in ("de", "es", "fr", "pt"))
    assert sum(len(i.post.text) >= 1_400 for i in items_) >= 3
    assert 0.2 <= sum(bool(i.media) for i in items_) / len(items_) <= 0.5
    assert 0.2 <= sum(i.post.link_preview is not None for i in items_) / len(items_) <= 0.45
    assert any(m.sensitive for i in items_ for m in i.media)
    assert any(s.score >= s.threshold for i in items_ for s in i.scores)
    assert any(s.score < s.threshold for i in items_ for s in i.scores)
    assert any("[slur]" in i.post.text for i in items_)
    assert max(i.reports.total for i in items_) >= 50
    reasons = Counter(r.kind.value for i in items_ for r in i.reasons)
    assert {"classifier", "user_reports", "fact_check", "appeal", "escalation"} <= set(reasons)
    escalated = [i for i in items_ if i.queue_id == "escalations"]
    assert all(i.reasons[0].kind.value == "escalation" for i in escalated)
    assert all(any(s.model == "escalation-triage" for s in i.scores) for i in escalated)
    assert not any(
        s.model == "escalation-triage" for i in items_ if i not in escalated for s in i.scores
    )


def test_fact_checks_use_the_misinformation_ratings(dataset: Dataset) -> None:
    misinfo = next(q for q in dataset.queues if q.id == "misinformation")
    ratings = {r.id for r in misinfo.config.ratings}
    assert ratings == {"false", "partly_false", "missing_context", "altered", "satire", "true"}
    items_ = [i for i in dataset.items if i.queue_id == "misinformation"]
    checked = [i for i in items_ if i.fact_checks]
    assert 0.55 <= len(checked) / len(items_) <= 0.85
    for item in dataset.items:
        for fc in item.fact_checks:
            assert fc.rating in ratings
            assert fc.url.startswith("https://") and ".example/" in fc.url
            assert item.post.created_at < fc.published_at <= NOW


def test_policies_of_strikes_exist_in_the_queues(dataset: Dataset) -> None:
    codes = {p.code for q in dataset.queues for p in q.config.policies}
    strikes = [code for a in dataset.authors for code, _ in a.prior_strikes]
    assert strikes and set(strikes) <= codes
    handles = {a.handle for a in dataset.authors}
    shared = {h for a in dataset.authors for h in a.signals.shared_signal_accounts}
    assert shared and shared <= handles


def _image_size(content: bytes) -> tuple[int, int]:
    head = content[:32]
    if head.startswith(b"\x89PNG"):
        width, height = struct.unpack(">II", head[16:24])
    else:
        assert head.startswith(b"GIF8")
        width, height = struct.unpack("<HH", head[6:10])
    return int(width), int(height)


def test_media_files_are_package_data_and_small(dataset: Dataset) -> None:
    used = [m for i in dataset.items for m in i.media]
    assert used
    for m in used:
        content = media_file(m.file).read_bytes()  # importlib.resources, as a wheel reads it
        assert len(content) < 40 * 1024, m.file
        gif = m.file.endswith(".gif")
        assert (m.kind is MediaKind.gif) == gif
        assert m.mime_type == ("image/gif" if gif else "image/png")
        assert (m.width, m.height) == _image_size(content), m.file
        assert m.alt_text
    assert any(m.kind is MediaKind.gif for m in used)


def test_timestamps_follow_now(dataset: Dataset) -> None:
    later = build_demo_dataset(NOW + timedelta(days=1))
    shift = timedelta(days=1)
    assert [i.enqueued_at + shift for i in dataset.items] == [i.enqueued_at for i in later.items]


# -- the shipped JSONL -----------------------------------------------------------------------


def _shipped_lines() -> list[dict]:
    return [json.loads(line) for line in demo_file(POSTS_FILE).read_text("utf-8").splitlines()]


def test_the_shipped_jsonl_is_what_the_generator_and_the_queue_file_make() -> None:
    """Change the generator or the routing rules, and this fails until the file is made
    again (python -m reviewer_app.server.demo.export_jsonl): the export checks that the
    rules put every post where the generator did."""
    shipped = demo_file(POSTS_FILE).read_text("utf-8").splitlines()
    fresh = demo_jsonl().splitlines()
    if shipped != fresh:  # (named by its first stale line, not a diff of 1.7 MB)
        first = next(
            (n for n, (a, b) in enumerate(zip(shipped, fresh, strict=False), 1) if a != b),
            min(len(shipped), len(fresh)) + 1,
        )
        pytest.fail(
            f"{POSTS_FILE} is stale from line {first}: run "
            "python -m reviewer_app.server.demo.export_jsonl and commit the file"
        )


def test_the_jsonl_has_one_line_per_post_report_score_and_fact_check(dataset: Dataset) -> None:
    lines = _shipped_lines()
    assert lines[0]["type"] == "meta" and lines[0]["generated_at"] == "2026-11-30T09:30:00Z"
    kinds = Counter((x["type"], x.get("kind")) for x in lines[1:])
    assert kinds[("post", None)] == len(dataset.items)
    assert kinds[("signal", "report")] == sum(i.reports.total for i in dataset.items)
    assert kinds[("signal", "classifier")] == sum(len(i.scores) for i in dataset.items)
    assert kinds[("signal", "fact_check")] == sum(len(i.fact_checks) for i in dataset.items)
    assert kinds[("media", None)] == len({m.file for i in dataset.items for m in i.media})
    seen: set[str] = set()
    for line in lines[1:]:  # a post comes before its signals
        if line["type"] == "post":
            seen.add(line["external_id"])
        elif line["type"] == "signal":
            assert line["post_external_id"] in seen


# -- the seed, through intake ------------------------------------------------------------------


@pytest.fixture
def seeded(database_url: str) -> Iterator[tuple[Service, DemoSeeded]]:
    service = Service(ServerSettings(database_url=database_url, password_hash_profile="fast"))
    service.start()
    try:
        yield service, seed_demo(service)
    finally:
        service.close()


def _lead(service: Service) -> Principal:
    with service.db.read() as conn:
        lead_id = conn.execute(select(users.c.id).where(users.c.username == "lead")).scalar()
    assert lead_id is not None
    return Principal(lead_id, "lead", "Demo Lead", Role.lead)


def test_the_demo_seed_goes_through_intake(
    dataset: Dataset, seeded: tuple[Service, DemoSeeded]
) -> None:
    service, outcome = seeded
    lines = _shipped_lines()
    signal_count = sum(1 for x in lines if x["type"] == "signal")
    assert outcome.tally.rejected == 0
    assert outcome.tally.counts == Counter(
        {
            "post.created": len(dataset.items),
            "signal.created": signal_count,
            "media.uploaded": sum(1 for x in lines if x["type"] == "media"),
        }
    )
    with service.db.read() as conn:
        assert conn.execute(select(func.count()).select_from(posts)).scalar() == len(dataset.items)
        assert set(conn.execute(select(posts.c.source).distinct()).scalars()) == {SOURCE}
        assert conn.execute(select(func.count()).select_from(signals)).scalar() == signal_count
        assert (
            conn.execute(
                select(func.count()).select_from(items).where(items.c.post_id.is_(None))
            ).scalar()
            == 0
        )
        assert set(conn.execute(select(media.c.source).distinct()).scalars()) == {SOURCE}
        kinds = Counter(conn.execute(select(events.c.kind)).scalars())
        rules = Counter(
            json.loads(data).get("rule")
            for data in conn.execute(
                select(events.c.data).where(events.c.kind == "enqueued")
            ).scalars()
        )
    assert kinds["enqueued"] == len(dataset.items)
    assert kinds["config_applied"] == 1
    assert None not in rules
    assert {
        "needs-a-lead",
        "claim-matched",
        "rated-by-fact-checkers",
        "toxic",
        "spam-model",
    } <= set(rules)


def test_every_demo_post_lands_in_the_generators_queue(
    dataset: Dataset, seeded: tuple[Service, DemoSeeded]
) -> None:
    service, _ = seeded
    with service.db.read() as conn:
        landed = dict(
            conn.execute(
                select(posts.c.external_id, items.c.origin_queue_id).join(
                    items, items.c.post_id == posts.c.id
                )
            ).all()
        )
    assert landed == {i.post.id: i.queue_id for i in dataset.items}
    # the demo's appeals (replay.seed_demo_appeals) took a few of them to the appeals queue,
    # each from the queue it landed in
    with service.db.read() as conn:
        now_in = dict(
            conn.execute(
                select(posts.c.external_id, items.c.queue_id).join(
                    items, items.c.post_id == posts.c.id
                )
            ).all()
        )
    moved = {p: q for p, q in now_in.items() if q != landed[p]}
    assert set(moved.values()) == {"appeals"} and len(moved) == len(DEMO_APPEALS)
    assert sorted(landed[p] for p in moved) == sorted(q for q, _ in DEMO_APPEALS)


def test_the_seeded_demo_shows_the_generators_content_as_a_current_shift(
    dataset: Dataset, seeded: tuple[Service, DemoSeeded]
) -> None:
    service, outcome = seeded
    lead = _lead(service)
    now = datetime.fromtimestamp(service.clock(), tz=UTC)
    assert abs(outcome.shift - (now - NOW)) < timedelta(minutes=1)
    queues = {q.id: q for q in service.list_queues(lead).queues}
    expected = Counter(i.queue_id for i in dataset.items)
    assert list(queues) == [q.id for q in DEMO_QUEUES]
    appealed_from = Counter(q for q, _ in DEMO_APPEALS)  # see replay.seed_demo_appeals
    assert queues["appeals"].counts.pending == len(DEMO_APPEALS)
    for queue_id, count in expected.items():
        assert queues[queue_id].counts.pending == count - appealed_from[queue_id]
        assert queues[queue_id].counts.leased == 0
    # items waited as long as the generator says (to the replay's 10-minute batches)
    oldest = max(i.enqueued_at for i in dataset.items if i.queue_id == "hate-harassment")
    waited = queues["hate-harassment"].counts.oldest_pending_age_seconds
    assert waited is not None
    first = min(i.enqueued_at for i in dataset.items if i.queue_id == "hate-harassment")
    assert abs(waited - (NOW - first).total_seconds()) <= 11 * 60, (waited, oldest)
    by_post = {i.post.id: i for i in dataset.items}
    with service.db.read() as conn:
        made = conn.execute(
            select(items.c.id, posts.c.external_id).join(posts, items.c.post_id == posts.c.id)
        ).all()
    removed_by_lead: Counter[str] = Counter()  # the demo's appealed decisions' strikes
    for item_id, external_id in made:
        seeded_item = by_post[external_id]
        item = service.item(lead, item_id)
        assert item.origin_queue_id == seeded_item.queue_id
        if item.appeal is not None:
            assert item.queue_id == "appeals" and item.reasons[0].kind is QueueReasonKind.appeal
            item.reasons.pop(0)
            removed_by_lead[item.author.handle] += len(item.appeal.contested.policies)
        else:
            assert item.queue_id == seeded_item.queue_id
        assert item.post.text == seeded_item.post.text
        assert item.post.created_at == seeded_item.post.created_at + outcome.shift
        assert item.author.handle and item.author.signals
        assert item.reports.total == seeded_item.reports.total
        assert {r.reason: r.count for r in item.reports.by_reason} == {
            r.reason: r.count for r in seeded_item.reports.by_reason
        }
        assert {(s.model, s.label, s.score) for s in item.scores} == {
            (s.model, s.label, s.score) for s in seeded_item.scores
        }
        assert sorted(f.rating for f in item.fact_checks) == sorted(
            f.rating for f in seeded_item.fact_checks
        )
        assert [m.alt_text for m in item.post.media] == [m.alt_text for m in seeded_item.media]
        for m in item.post.media:
            content, mime = service.media(lead, m.id)
            assert mime == m.mime_type and len(content) == m.size_bytes
        assert item.reasons and item.reasons[0].kind in (
            QueueReasonKind.classifier,
            QueueReasonKind.user_reports,
            QueueReasonKind.fact_check,
        )
    strikes = {a.handle: len(a.prior_strikes) for a in dataset.authors}
    struck = [service.item(lead, item_id).author for item_id, _ in made[:60]]
    assert any(a.strikes for a in struck)
    for author in struck:
        assert sum(s.count for s in author.strikes) == (
            strikes[author.handle] + removed_by_lead[author.handle]
        )
    reviewer = Principal(lead.id + 100, "reviewer", "Demo Reviewer", Role.reviewer)
    assert "escalations" not in {q.id for q in service.list_queues(reviewer).queues}
    grant = service.claim(lead, "misinformation", LeaseClaim(count=5))
    assert len(grant.items) == 5


def test_seeding_twice_is_refused_by_the_cli_but_replaying_adds_nothing(
    seeded: tuple[Service, DemoSeeded],
) -> None:
    """The replay is intake: sent again, every post and signal is ``unchanged``."""
    from reviewer_app.server.demo.replay import replay_demo_posts

    service, first = seeded
    again = replay_demo_posts(service, NOW + first.shift)
    assert again.tally.rejected == 0
    assert set(again.tally.counts) <= {"post.unchanged", "signal.unchanged", "media.uploaded"}
    with service.db.read() as conn:
        assert conn.execute(select(func.count()).select_from(items)).scalar() == sum(
            1 for x in _shipped_lines() if x["type"] == "post"
        )


def test_export_writes_the_file(tmp_path: Path) -> None:
    from reviewer_app.server.demo.export_jsonl import main

    out = tmp_path / "demo.jsonl"
    assert main(["--output", str(out)]) == 0
    assert out.read_text("utf-8") == demo_file(POSTS_FILE).read_text("utf-8")
