"""The demo seed: deterministic, well-formed, and accepted by the service."""

from __future__ import annotations

import struct
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import select

from reviewer_app.protocol import LeaseClaim, MediaKind, Role
from reviewer_app.server.config import ServerSettings
from reviewer_app.server.demo_data import DEMO_SEED, build_demo_dataset
from reviewer_app.server.records import Principal
from reviewer_app.server.seed import seed_dataset
from reviewer_app.server.seed_types import Dataset
from reviewer_app.server.service import Service
from reviewer_app.server.tables import users

NOW = datetime(2026, 11, 30, 9, 30, tzinfo=UTC)
MEDIA_DIR = Path(__file__).resolve().parents[2] / "reviewer_app" / "server" / "demo" / "media"
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
    assert ids == [*QUEUE_IDS, "escalations"]
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
        assert ("escalate" in kinds) == (queue.id != "escalations"), queue.id


def test_users(dataset: Dataset) -> None:
    by_name = {u.username: u for u in dataset.users}
    assert by_name["reviewer"].password == "review-desk-demo"
    assert by_name["reviewer"].role is Role.reviewer
    assert by_name["lead"].role is Role.lead and by_name["lead"].display_name == "Demo Lead"
    assert by_name["admin"].role is Role.admin


def test_items_are_well_formed(dataset: Dataset) -> None:
    authors = {a.id: a for a in dataset.authors}
    assert len({a.handle for a in dataset.authors}) == len(dataset.authors)
    ids = [i.id for i in dataset.items]
    assert ids[0] == "itm-000001" and len(set(ids)) == len(ids)
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
    items = dataset.items
    languages = Counter(i.post.language for i in items)
    assert languages["ar"] + languages["he"] >= 10
    assert all(languages[lang] > 0 for lang in ("de", "es", "fr", "pt"))
    assert sum(len(i.post.text) >= 1_400 for i in items) >= 3
    assert 0.2 <= sum(bool(i.media) for i in items) / len(items) <= 0.5
    assert 0.2 <= sum(i.post.link_preview is not None for i in items) / len(items) <= 0.45
    assert any(m.sensitive for i in items for m in i.media)
    assert any(s.score >= s.threshold for i in items for s in i.scores)
    assert any(s.score < s.threshold for i in items for s in i.scores)
    assert any("[slur]" in i.post.text for i in items)
    reasons = Counter(r.kind.value for i in items for r in i.reasons)
    assert {"classifier", "user_reports", "fact_check", "appeal", "escalation"} <= set(reasons)
    escalated = [i for i in items if i.queue_id == "escalations"]
    assert all(i.reasons[0].kind.value == "escalation" for i in escalated)


def test_fact_checks_use_the_misinformation_ratings(dataset: Dataset) -> None:
    misinfo = next(q for q in dataset.queues if q.id == "misinformation")
    ratings = {r.id for r in misinfo.config.ratings}
    assert ratings == {"false", "partly_false", "missing_context", "altered", "satire"}
    items = [i for i in dataset.items if i.queue_id == "misinformation"]
    checked = [i for i in items if i.fact_checks]
    assert 0.55 <= len(checked) / len(items) <= 0.85
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


def _image_size(path: Path) -> tuple[int, int]:
    head = path.read_bytes()[:32]
    if head.startswith(b"\x89PNG"):
        width, height = struct.unpack(">II", head[16:24])
    else:
        assert head.startswith(b"GIF8"), path
        width, height = struct.unpack("<HH", head[6:10])
    return int(width), int(height)


def test_media_files_exist_and_are_small(dataset: Dataset) -> None:
    used = [m for i in dataset.items for m in i.media]
    assert used
    for m in used:
        path = MEDIA_DIR / m.file
        assert path.is_file(), m.file
        assert path.stat().st_size < 40 * 1024, m.file
        gif = m.file.endswith(".gif")
        assert (m.kind is MediaKind.gif) == gif
        assert m.mime_type == ("image/gif" if gif else "image/png")
        assert (m.width, m.height) == _image_size(path), m.file
        assert m.alt_text
    assert any(m.kind is MediaKind.gif for m in used)


def test_timestamps_follow_now(dataset: Dataset) -> None:
    later = build_demo_dataset(NOW + timedelta(days=1))
    shift = timedelta(days=1)
    assert [i.enqueued_at + shift for i in dataset.items] == [i.enqueued_at for i in later.items]


def test_seeding_a_fresh_service(dataset: Dataset, tmp_path: Path) -> None:
    settings = ServerSettings(
        database_url=f"sqlite:///{tmp_path}/s.db", password_hash_profile="fast"
    )
    service = Service(settings)
    service.start()
    try:
        seed_dataset(service, dataset)
        with service.db.read() as conn:
            lead_id = conn.execute(select(users.c.id).where(users.c.username == "lead")).scalar()
        assert lead_id is not None
        lead = Principal(lead_id, "lead", "Demo Lead", Role.lead)
        queues = {q.id: q for q in service.list_queues(lead).queues}
        expected = Counter(i.queue_id for i in dataset.items)
        assert set(queues) == set(expected)
        for queue_id, count in expected.items():
            assert queues[queue_id].counts.pending == count
            assert queues[queue_id].counts.leased == 0
        for seeded in dataset.items:
            item = service.item(lead, seeded.id)
            assert item.post.text == seeded.post.text
            assert item.author.handle and item.author.signals
            assert [m.alt_text for m in item.post.media] == [m.alt_text for m in seeded.media]
            for m in item.post.media:
                content, mime = service.media(lead, m.id)
                assert mime == m.mime_type and len(content) == m.size_bytes
        reviewer = Principal(lead_id + 100, "reviewer", "Demo Reviewer", Role.reviewer)
        assert "escalations" not in {q.id for q in service.list_queues(reviewer).queues}
        grant = service.claim(lead, "misinformation", LeaseClaim(count=5))
        assert len(grant.items) == 5
    finally:
        service.close()
