"""Demo authors: ordinary users, influencers, trolls, spammers and two fake-account networks."""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime, timedelta

from reviewer_app.protocol import AccountSignals
from reviewer_app.server.demo.queues import HATE_POLICIES, MISINFO_POLICIES, SPAM_POLICIES
from reviewer_app.server.feeds.seed_types import SeedAuthor

KINDS = ("influencer", "regular", "troll", "spammer", "network")

FIRST = (
    "Maya", "Andre", "Nina", "Priya", "Sam", "Jules", "Tomasz", "Aisha", "Lucas", "Mei",
    "Omar", "Hannah", "Diego", "Ines", "Yusuf", "Chloe", "Noam", "Leila", "Felix", "Rosa",
    "Kwame", "Sofia", "Ben", "Amara", "Jonas", "Elif",
)  # fmt: skip
LAST = (
    "Okafor", "Schmidt", "Haddad", "Levi", "Moreau", "Silva", "Kowalski", "Nguyen", "Brennan",
    "Ortiz", "Rahman", "Fischer", "Costa", "Dubois", "Cohen", "Yilmaz", "Park", "Adeyemi",
)  # fmt: skip
WORDS = (
    "reads", "runs", "cooks", "writes", "lens", "garden", "bikes", "notes", "films", "talks",
    "daily", "outdoors", "codes", "sings",
)  # fmt: skip
TROLL_HANDLES = (
    "grumpy_anchor", "realtalk_", "no_chill_neil", "east_end_ed", "vanilla_thunder",
    "truth_hammer", "based_and_bored", "keyboard_viking", "static_steve", "ratio_king",
    "salty_sailor", "unfiltered_uncle",
)  # fmt: skip
SPAM_PREFIXES = (
    "coinx_support", "crypto_gains", "parcel_notice", "northbank_help", "deals_daily",
    "sneaker_outlet", "airdrop_alerts", "follow4follow", "promo_boost", "lucky_wallet",
    "giveaway_official", "cheap_kicks", "fast_followers", "mega_sale",
)  # fmt: skip
NETWORK_ADJ = ("sunny", "lucky", "happy", "daily", "proud", "sweet", "brave", "true")
NETWORK_NOUN = ("daisy", "patriot", "mom", "eagle", "rose", "voter", "family", "heart")
NEWSY = (
    ("healthwatch_daily", "Health Watch Daily"),
    ("patriotwire", "Patriot Wire"),
    ("the_real_report", "The Real Report"),
    ("wakeup_news", "Wake Up News"),
    ("citizen_lens", "Citizen Lens"),
    ("daily_spoon", "The Daily Spoon (parody)"),
    ("weather_truths", "Weather Truths"),
)

BIOS = {
    "influencer": (
        "Independent news. Asking the questions they won't.",
        "Health freedom. Natural living. Not medical advice.",
        "Reporting what the mainstream ignores. DMs open.",
        "Satire. Nothing here is real news.",
    ),
    "regular": (
        "Teacher, runner, bad at gardening.",
        "Coffee first. Opinions my own.",
        "Nurse | mum | {city}",
        "Software person. Cat photos.",
        "Local history nerd in {city}.",
        "",
    ),
    "troll": ("Free speech absolutist.", "Just asking questions 🤷", "Banned 3x and counting", ""),
    "spammer": (
        "Official giveaways ✅ DM for support",
        "Best deals online 🔥 link below",
        "Grow your account fast 📈",
        "Customer care. We never ask for your password.",
    ),
    "network": (
        "Proud mom 🌸 family first",
        "Love my country 🇺🇸 and my family",
        "Positive vibes only ✨",
        "Nurse. Wife. Believer.",
        "",
    ),
}
CITIES = ("Riverton", "Millbrook", "Eastvale", "Port Ellery", "Northgate")

NETWORK_SIGNALS = (
    "shared device fingerprint",
    "default avatar",
    "stock-photo avatar",
    "posts within 30 s of cluster peers",
    "handle follows word_word_NNNN pattern",
    "same IP range as 12 other accounts",
    "follows the same 300 accounts as its peers",
)
SPAM_SIGNALS = (
    "links to newly registered domains",
    "posts the same URL 200+ times a day",
    "account less than 30 days old",
    "bulk direct messages to non-followers",
    "display name imitates a brand",
)


@dataclass(frozen=True)
class AuthorPool:
    authors: tuple[SeedAuthor, ...]
    by_kind: dict[str, tuple[SeedAuthor, ...]]
    clusters: tuple[tuple[SeedAuthor, ...], ...]


def _log_int(rng: random.Random, lo: float, hi: float) -> int:
    """A whole number spread evenly in log10 between ``10**lo`` and ``10**hi``."""
    return int(10 ** rng.uniform(lo, hi))


def _ago(now: datetime, rng: random.Random, lo_days: float, hi_days: float) -> datetime:
    return now - timedelta(seconds=int(rng.uniform(lo_days, hi_days) * 86_400))


def _strikes(
    rng: random.Random, now: datetime, created: datetime, codes: list[str], n: int
) -> tuple[tuple[str, datetime], ...]:
    age_days = (now - created).total_seconds() / 86_400
    if n <= 0 or age_days < 2:
        return ()
    picks = [(rng.choice(codes), _ago(now, rng, 1, age_days - 0.5)) for _ in range(n)]
    return tuple(sorted(picks, key=lambda p: p[1]))


def _unique(handle: str, taken: set[str]) -> str:
    base, n = handle, 2
    while handle in taken:
        handle = f"{base}{n}"
        n += 1
    taken.add(handle)
    return handle


def build_authors(rng: random.Random, now: datetime) -> AuthorPool:
    """The demo's cast: influencers, regulars, trolls, spammers and two networks.

    Long because it is one recipe read top to bottom: every draw from ``rng`` comes in a
    fixed order that the demo's posts, routing and tests depend on; split, the order would
    be as fixed but harder to see."""
    taken: set[str] = set()
    specs: list[tuple[str, str, str]] = []  # kind, handle, display name

    for handle, name in rng.sample(NEWSY, 6):
        specs.append(("influencer", _unique(handle, taken), name))
    for _ in range(rng.randint(18, 26)):
        first, last = rng.choice(FIRST), rng.choice(LAST)
        style = rng.randrange(3)
        if style == 0:
            handle = f"{first.lower()}_{rng.choice(WORDS)}"
        elif style == 1:
            handle = f"{first.lower()}.{last.lower()}"
        else:
            handle = f"{first.lower()}{last[0].lower()}{rng.randint(1, 99)}"
        specs.append(("regular", _unique(handle, taken), f"{first} {last}"))
    for handle in rng.sample(TROLL_HANDLES, rng.randint(8, 11)):
        if handle.endswith("_"):
            handle = f"{handle}{rng.randint(1000, 9999)}"
        name = handle.replace("_", " ").strip().title()
        specs.append(("troll", _unique(handle, taken), name))
    for prefix in rng.sample(SPAM_PREFIXES, rng.randint(10, 13)):
        handle = _unique(f"{prefix}{rng.choice(('', '_', '.'))}{rng.randint(1, 999)}", taken)
        name = prefix.replace("_", " ").title() + rng.choice((" ✅", " Official", "", " 🔥"))
        specs.append(("spammer", handle, name))
    cluster_sizes = (rng.randint(12, 15), rng.randint(7, 9))
    for size in cluster_sizes:
        for _ in range(size):
            adj, noun = rng.choice(NETWORK_ADJ), rng.choice(NETWORK_NOUN)
            handle = _unique(f"{adj}_{noun}_{rng.randint(1000, 9999)}", taken)
            name = f"{rng.choice(FIRST)} {rng.choice(('🌸', '🇺🇸', '✨', '❤️', ''))}".strip()
            specs.append(("network", handle, name))

    network_handles = [h for k, h, _ in specs if k == "network"]
    split = cluster_sizes[0]
    cluster_handles = (network_handles[:split], network_handles[split:])
    cluster_births = (_ago(now, rng, 25, 60), _ago(now, rng, 8, 20))
    spam_handles = [h for k, h, _ in specs if k == "spammer"]

    authors: list[SeedAuthor] = []
    by_kind: dict[str, list[SeedAuthor]] = {k: [] for k in KINDS}
    network_index = 0
    for i, (kind, handle, name) in enumerate(specs, start=1):
        bio = rng.choice(BIOS[kind]).format(city=rng.choice(CITIES))
        signals: list[str] = []
        shared: list[str] = []
        if kind == "influencer":
            created = _ago(now, rng, 400, 4000)
            followers, following = _log_int(rng, 4.5, 6.4), _log_int(rng, 2, 3.5)
            verified = rng.random() < 0.5
            ppd, score = rng.uniform(4, 40), rng.uniform(0.01, 0.12)
            strikes = _strikes(
                rng, now, created, [p.code for p in MISINFO_POLICIES], rng.randint(0, 2)
            )
        elif kind == "regular":
            created = _ago(now, rng, 90, 5000)
            followers, following = _log_int(rng, 0.8, 4.3), _log_int(rng, 1.5, 3.2)
            verified = rng.random() < 0.05
            ppd, score = 10 ** rng.uniform(-1, 1.2), rng.uniform(0.01, 0.2)
            n = 1 if rng.random() < 0.1 else 0
            strikes = _strikes(rng, now, created, [p.code for p in HATE_POLICIES], n)
        elif kind == "troll":
            created = _ago(now, rng, 20, 2000)
            followers, following = _log_int(rng, 1.5, 4.0), _log_int(rng, 2, 3.5)
            verified = False
            ppd, score = rng.uniform(5, 60), rng.uniform(0.05, 0.4)
            codes = [p.code for p in HATE_POLICIES]
            strikes = _strikes(rng, now, created, codes, rng.randint(1, 4))
            if rng.random() < 0.3:
                signals = ["previously suspended account re-registered"]
        elif kind == "spammer":
            created = _ago(now, rng, 2, 28)
            followers, following = _log_int(rng, 0.5, 3.5), _log_int(rng, 2.5, 3.8)
            verified = False
            ppd, score = rng.uniform(50, 400), rng.uniform(0.4, 0.9)
            codes = [p.code for p in SPAM_POLICIES]
            strikes = _strikes(rng, now, created, codes, rng.randint(0, 2))
            signals = rng.sample(SPAM_SIGNALS, rng.randint(1, 3))
            others = [h for h in spam_handles if h != handle]
            shared = rng.sample(others, rng.randint(0, 3))
        else:
            cluster = 0 if network_index < split else 1
            network_index += 1
            created = cluster_births[cluster] + timedelta(minutes=rng.randint(0, 55))
            burst = 40 if cluster == 0 else 25
            followers, following = _log_int(rng, 0.3, 2.6), _log_int(rng, 2.5, 3.2)
            verified = False
            ppd, score = rng.uniform(30, 150), rng.uniform(0.7, 0.98)
            strikes = ()
            signals = [f"created in a burst of {burst} accounts"]
            signals += rng.sample(NETWORK_SIGNALS, rng.randint(2, 4))
            others = [h for h in cluster_handles[cluster] if h != handle]
            shared = rng.sample(others, min(len(others), rng.randint(3, 8)))
        author = SeedAuthor(
            id=f"author-{i:03d}",
            handle=handle,
            display_name=name,
            account_created_at=created,
            followers=followers,
            following=following,
            verified=verified,
            signals=AccountSignals(
                posts_per_day=round(ppd, 1),
                shared_signal_accounts=shared,
                signals=signals,
                inauthenticity_score=round(score, 3),
            ),
            bio=bio,
            prior_strikes=strikes,
        )
        authors.append(author)
        by_kind[kind].append(author)

    network = by_kind["network"]
    return AuthorPool(
        authors=tuple(authors),
        by_kind={k: tuple(v) for k, v in by_kind.items()},
        clusters=(tuple(network[:split]), tuple(network[split:])),
    )
