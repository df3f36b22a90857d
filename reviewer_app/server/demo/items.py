"""Demo items: posts from the topic templates, with media, thread, reach and evidence."""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from urllib.parse import urlsplit

from reviewer_app.protocol import LinkPreview, MediaKind, Post, Thread, ThreadPost
from reviewer_app.server.demo.authors import AuthorPool
from reviewer_app.server.demo.evidence import (
    make_fact_checks,
    make_reach,
    make_reasons,
    make_reports,
    make_scores,
    make_triage_score,
)
from reviewer_app.server.demo.queues import ESCALATIONS, HATE, INAUTHENTIC, MISINFORMATION, SPAM
from reviewer_app.server.demo.texts import FILLERS, LONG_POSTS, MISINFO_TOPICS, NUMBERS, Topic
from reviewer_app.server.demo.texts_abuse import (
    ESCALATION_CASES,
    HATE_TOPICS,
    INAUTH_TOPICS,
    SPAM_TOPICS,
)
from reviewer_app.server.demo.texts_context import PARENTS, REPLIES
from reviewer_app.server.feeds.seed_types import SeedAuthor, SeedItem, SeedMedia

PNG, GIF = (MediaKind.image, "image/png"), (MediaKind.gif, "image/gif")

MEDIA: dict[str, tuple[tuple[MediaKind, str], int, int, str]] = {
    "news_cure_screenshot.png": (
        PNG,
        600,
        420,
        "Screenshot of an article headline about a "
        "kitchen tonic that 'reverses diabetes in 9 days'",
    ),
    "news_ballots_screenshot.png": (
        PNG,
        600,
        420,
        "Screenshot of a 'Patriot Wire' story: ballot boxes in a river, photo marked unverified",
    ),
    "meme_weather_machine.png": (
        PNG,
        500,
        500,
        "Meme: storm cloud, lightning and a radio mast, caption 'the antenna was on for 3 days'",
    ),
    "weather_machine_diagram.png": (
        PNG,
        600,
        400,
        "Blueprint-style diagram of an 'emitter array' stamped CLASSIFIED",
    ),
    "chart_crime_truncated_axis.png": (
        PNG,
        560,
        380,
        "Bar chart 'crime up 400%' whose axis starts at 95",
    ),
    "rip_card.png": (PNG, 500, 500, "Black memorial card: 'R.I.P. Dana Whitlock 1971-2026'"),
    "flood_rooftops_photo.png": (
        PNG,
        640,
        400,
        "Houses with brown floodwater up to the windows under a grey sky",
    ),
    "leaked_memo_scan.png": (
        PNG,
        480,
        620,
        "Scan of a 'confidential memo' with redaction bars and a DO NOT DISTRIBUTE stamp",
    ),
    "pile_on_quotes_screenshot.png": (
        PNG,
        560,
        420,
        "Screenshot of five hostile quote replies aimed at one user",
    ),
    "street_fight_still.png": (
        PNG,
        480,
        360,
        "Dark phone-video still of three figures fighting in a street, a dark stain on the ground",
    ),
    "crypto_giveaway_banner.png": (
        PNG,
        640,
        320,
        "Banner: 'COINX GIVEAWAY send 0.1 get 1.0 back, only 48 spots left'",
    ),
    "coinx_giveaway_flash.gif": (GIF, 320, 160, "Flashing animation: 'FREE COINX, claim now'"),
    "parcel_sms_screenshot.png": (
        PNG,
        360,
        640,
        "Phone screenshot of a text asking for a EUR 1.99 customs fee via a link",
    ),
    "bank_phishing_login.png": (
        PNG,
        600,
        420,
        "Fake NorthBank login page asking for password and card PIN",
    ),
    "fake_shop_sneaker.png": (
        PNG,
        500,
        500,
        "Blue running shoe, '-80%', EUR 29.99 instead of 149.99",
    ),
    "sale_countdown.gif": (GIF, 300, 120, "Countdown animation: '-80% sale ends in 00:09'"),
    "stock_photo_avatar.png": (
        PNG,
        400,
        400,
        "Smiling portrait with a stock-photo watermark across it",
    ),
    "engagement_grid_default_avatars.png": (
        PNG,
        600,
        400,
        "Grid of 24 'liked by' accounts, all default avatars and numbered handles",
    ),
}
SENSITIVE = {"street_fight_still.png": 1.0, "flood_rooftops_photo.png": 0.3,
             "pile_on_quotes_screenshot.png": 0.4}  # fmt: skip

TOPICS = {t.key: t for t in MISINFO_TOPICS + HATE_TOPICS + SPAM_TOPICS + INAUTH_TOPICS}
QUEUE_TOPICS = {
    MISINFORMATION: MISINFO_TOPICS,
    HATE: HATE_TOPICS,
    SPAM: SPAM_TOPICS,
    INAUTHENTIC: INAUTH_TOPICS,
}
PLAN = ((MISINFORMATION, 104, 116), (HATE, 74, 86), (SPAM, 74, 86), (INAUTHENTIC, 46, 54))
ESCALATION_COUNT = (13, 17)
# hours before ``now`` an item may have been enqueued, per queue
MAX_WAIT_HOURS = {MISINFORMATION: 30, HATE: 6, SPAM: 30, INAUTHENTIC: 72, ESCALATIONS: 8}
FLAGGED = {MISINFORMATION: 0.6, HATE: 0.55, SPAM: 0.8, INAUTHENTIC: 0.9}
AUTHOR_KINDS = {
    MISINFORMATION: ("influencer", "regular", "regular", "network"),
    HATE: ("troll", "troll", "regular"),
    SPAM: ("spammer", "spammer", "spammer", "regular"),
    INAUTHENTIC: ("network",),
    "counter-speech": ("regular",),
    "ordinary": ("regular",),
    "impersonation": ("spammer",),
    "stock-persona": ("network",),
}
LANGUAGES = {"en": 50, "es": 10, "de": 8, "ar": 9, "he": 8, "fr": 6, "pt": 6}
MEDIA_CHANCE = 0.5
LONG_CHANCE = 0.3


class _Fill(dict[str, str]):
    """Template fillers, drawn on first use so each post gets its own."""

    def __init__(self, rng: random.Random, fixed: dict[str, str]) -> None:
        super().__init__(fixed)
        self.rng = rng

    def __missing__(self, key: str) -> str:
        if key in NUMBERS:
            value = str(self.rng.randint(*NUMBERS[key]))
        else:
            value = self.rng.choice(FILLERS[key])
        self[key] = value
        return value


class ItemMaker:
    def __init__(self, rng: random.Random, now: datetime, pool: AuthorPool) -> None:
        self.rng = rng
        self.now = now
        self.pool = pool
        self.items: list[SeedItem] = []

    def _media(self, topic: Topic) -> tuple[SeedMedia, ...]:
        rng = self.rng
        if not topic.media or rng.random() > MEDIA_CHANCE:
            return ()
        files = rng.sample(topic.media, rng.randint(1, len(topic.media)))
        media = []
        for f in files:
            (kind, mime), width, height, alt = MEDIA[f]
            sensitive = rng.random() < SENSITIVE.get(f, 0.0)
            media.append(SeedMedia(f, kind, mime, alt, sensitive, width, height))
        return tuple(media)

    def _text(self, topic: Topic, language: str, fill: _Fill) -> str:
        rng = self.rng
        if language == "en" and topic.key in LONG_POSTS and rng.random() < LONG_CHANCE:
            return "\n\n".join(p.format_map(fill) for p in LONG_POSTS[topic.key])
        return rng.choice(topic.templates[language]).format_map(fill)

    def _author(self, topic: Topic, verified: bool) -> SeedAuthor:
        if verified:
            known = [a for a in self.pool.by_kind["influencer"] if a.verified]
            if known:
                return self.rng.choice(known)
        kinds = AUTHOR_KINDS.get(topic.key) or AUTHOR_KINDS[topic.queue]
        return self.rng.choice(self.pool.by_kind[self.rng.choice(kinds)])

    def _thread(self, queue: str, post: Post, fill: _Fill) -> Thread:
        rng = self.rng
        parents: list[ThreadPost] = []
        n_parents = rng.choices((0, 1, 2, 3), weights=(50, 25, 15, 10))[0]
        when = post.created_at
        for k in range(n_parents):
            when -= timedelta(minutes=rng.randint(2, 240))
            pool = PARENTS[queue] if k == n_parents - 1 else REPLIES[queue]
            parents.append(self._thread_post(f"{post.id}-p{k}", pool, fill, when))
        parents.reverse()
        replies: list[ThreadPost] = []
        latest = max(post.created_at, self.now - timedelta(minutes=1))
        for k in range(rng.choices((0, 1, 2, 3, 4), weights=(25, 20, 20, 20, 15))[0]):
            at = post.created_at + (latest - post.created_at) * rng.random()
            replies.append(self._thread_post(f"{post.id}-r{k}", REPLIES[queue], fill, at))
        replies.sort(key=lambda r: r.created_at)
        extra = int(10 ** rng.uniform(0, 3)) if replies and rng.random() < 0.7 else 0
        return Thread(parents=parents, replies=replies, reply_count=len(replies) + extra)

    def _thread_post(
        self, post_id: str, texts: tuple[str, ...], fill: _Fill, at: datetime
    ) -> ThreadPost:
        author = self.rng.choice(self.pool.authors)
        return ThreadPost(
            id=post_id,
            author_handle=author.handle,
            text=self.rng.choice(texts).format_map(fill),
            language="en",
            created_at=at.replace(microsecond=0),
        )

    def _link(self, topic: Topic, text: str) -> LinkPreview | None:
        rng = self.rng
        if topic.link and rng.random() < 0.75:
            url, title, description = topic.link
        else:
            urls = [w.rstrip(".,!)") for w in text.split() if w.startswith(("http://", "https"))]
            if not urls or rng.random() < 0.35:
                return None
            url, title, description = urls[0], "", ""
        if not url.startswith("https://"):
            return None
        return LinkPreview(
            url=url, domain=urlsplit(url).netloc, title=title, description=description
        )

    def make(
        self,
        topic: Topic,
        queue: str,
        escalation: str | None = None,
        triage_label: str = "",
    ) -> SeedItem:
        rng, now = self.rng, self.now
        number = len(self.items) + 1
        item_id = f"itm-{number:06d}"
        detail = escalation or ""
        author = self._author(topic, verified="Verified" in detail)
        languages = [lang for lang in LANGUAGES if lang in topic.templates]
        if "Language" in detail and len(languages) > 1:
            languages = [lang for lang in languages if lang != "en"]
        language = rng.choices(languages, weights=[LANGUAGES[x] for x in languages])[0]
        media = self._media(topic)
        fill = _Fill(rng, topic.with_media if media else {})
        text = self._text(topic, language, fill)

        wait = MAX_WAIT_HOURS[queue] * rng.random() ** 1.5 * 3600
        enqueued = now - timedelta(seconds=int(wait) + 60)
        created = enqueued - timedelta(seconds=rng.randint(60, 36 * 3600))
        created = max(created, author.account_created_at + timedelta(hours=1))
        if created >= enqueued:
            created = enqueued - timedelta(minutes=1)

        status = 113_400_000_000_000 + number * 7_919 + rng.randrange(7_000)
        post = Post(
            id=str(status),
            text=text,
            language=language,
            created_at=created,
            url=f"https://social.example/@{author.handle}/status/{status}",
            link_preview=self._link(topic, text),
        )
        thread = self._thread(topic.queue, post, fill)
        viral = author.followers > 50_000 or escalation is not None
        reach = make_reach(rng, queue, viral)
        flagged = rng.random() < FLAGGED[topic.queue]
        fc_count = 0
        if topic.claim and (queue == MISINFORMATION or escalation):
            fc_count = rng.choices((0, 1, 2), weights=(30, 58, 12))[0]
        disagree = escalation is not None and "disagree" in escalation
        if disagree:
            fc_count = 2
        fact_checks = make_fact_checks(rng, topic, language, created, enqueued, fc_count, disagree)
        least = 0 if flagged or fact_checks else 3
        reports = make_reports(rng, queue, topic, created, now, least)
        media_files = tuple(m.file for m in media)
        scores = make_scores(rng, topic, text, flagged, media_files)
        if escalation:
            scores.append(make_triage_score(rng, triage_label))
        reasons = make_reasons(rng, scores, reports, fact_checks, created, enqueued, escalation)
        item = SeedItem(
            id=item_id,
            queue_id=queue,
            enqueued_at=enqueued,
            author_id=author.id,
            post=post,
            thread=thread,
            reach=reach,
            reports=reports,
            reasons=tuple(reasons),
            scores=tuple(scores),
            fact_checks=tuple(fact_checks),
            media=media,
        )
        self.items.append(item)
        return item


def build_items(rng: random.Random, now: datetime, pool: AuthorPool) -> tuple[SeedItem, ...]:
    maker = ItemMaker(rng, now, pool)
    for queue, lo, hi in PLAN:
        topics = QUEUE_TOPICS[queue]
        weights = [t.weight for t in topics]
        for _ in range(rng.randint(lo, hi)):
            maker.make(rng.choices(topics, weights=weights)[0], queue)
    for _ in range(rng.randint(*ESCALATION_COUNT)):
        key, detail, label = rng.choice(ESCALATION_CASES)
        maker.make(TOPICS[key], ESCALATIONS, escalation=detail, triage_label=label)
    return tuple(maker.items)
