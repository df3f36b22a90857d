"""Post templates for hate and harassment, spam and scams, and inauthentic accounts."""

from __future__ import annotations

from reviewer_app.server.demo.queues import HATE, INAUTHENTIC, SPAM
from reviewer_app.server.demo.texts import Topic

HATE_TOPICS = (
    Topic(
        key="pile-on",
        queue=HATE,
        policy="HARASS.TARGETED",
        label="insult",
        templates={
            "en": (
                "@{target} imagine posting this and thinking you're right. everyone go reply "
                "to her 🤡",
                "Quote this and tell @{target} what you think of her 'opinion'. Don't stop "
                "until she deletes her account.",
                "@{target} you're a joke. ratio + nobody asked + log off forever",
            ),
            "es": ("@{target} eres un chiste. Todos a responderle hasta que cierre la cuenta 🤡",),
            "pt": ("@{target} ninguém te perguntou. Bora todo mundo responder ela 🤡",),
        },
        media=("pile_on_quotes_screenshot.png",),
        report_reasons=("harassment", "harassment", "hate"),
        weight=1.3,
    ),
    Topic(
        key="slur",
        queue=HATE,
        policy="HATE.SLUR",
        label="identity_attack",
        templates={
            "en": (
                "@{target} nobody wants a [slur] like you here. go back where you came from",
                "another day, another [slur] crying online. @{target} log off",
                "lol the new guy at {employer} is a total [slur] {emoji}",
            ),
            "de": ("@{target} so ein [slur] wie du hat hier nichts verloren.",),
            "es": ("@{target} nadie quiere a un [slur] como tú aquí.",),
            "fr": ("@{target} personne ne veut d'un [slur] comme toi ici.",),
            "ar": ("@{target} لا أحد يريد [slur] مثلك هنا. ارحل.",),
            "he": ("@{target} אף אחד לא רוצה [slur] כמוך פה. תעוף מכאן.",),
        },
        report_reasons=("hate", "hate", "harassment"),
        weight=1.4,
    ),
    Topic(
        key="dehumanising",
        queue=HATE,
        policy="HATE.DEHUMANISING",
        label="identity_attack",
        templates={
            "en": (
                "[group] are vermin. Every town that lets them in ends up like {city}.",
                "[group] spread like a disease. Look at {city} now {emoji}",
            ),
            "de": ("[group] sind Ungeziefer. Schaut euch {city} an.",),
            "ar": ("[group] مثل المرض، انظروا إلى {city} الآن.",),
            "he": ("[group] הם מחלה. תסתכלו על {city} עכשיו.",),
        },
        report_reasons=("hate",),
    ),
    Topic(
        key="doxxing",
        queue=HATE,
        policy="HARASS.DOXXING",
        label="threat",
        templates={
            "en": (
                "This is the woman who reported my account. Lives at {n} {street}, "
                "{city}, works at {employer}. You know what to do.",
                "Found @{target}'s address: {street}, the blue door. Someone pay a visit.",
            ),
        },
        report_reasons=("harassment", "violence"),
        weight=0.7,
    ),
    Topic(
        key="street-fight",
        queue=HATE,
        policy="VIOLENCE.GLORIFICATION",
        label="threat",
        templates={
            "en": (
                "This is what happens to [slur] who walk through our neighbourhood. Next "
                "one's on camera too {emoji}",
                "lol {city} nightlife 💀 he had it coming",
            ),
            "fr": ("Voilà ce qui arrive aux [slur] dans notre quartier. 💀",),
        },
        media=("street_fight_still.png",),
        report_reasons=("violence", "hate"),
        weight=0.7,
    ),
    Topic(
        key="counter-speech",
        queue=HATE,
        policy="HATE.SLUR",
        label="identity_attack",
        templates={
            "en": (
                "Someone called me a [slur] on the bus in {city} today. Posting so people "
                "know this still happens.",
                "Reminder that calling people '[slur]' isn't 'banter'. Report it.",
            ),
            "es": ("Hoy en el autobús de {city} me llamaron [slur]. Lo cuento para que se sepa.",),
        },
        report_reasons=("hate",),
        weight=0.6,
    ),
)

SPAM_TOPICS = (
    Topic(
        key="crypto-giveaway",
        queue=SPAM,
        policy="SPAM.SCAM",
        label="scam",
        templates={
            "en": (
                "🚀 {coin} OFFICIAL GIVEAWAY 🚀 Send 0.1 and get 1.0 back instantly! Only "
                "{spots} spots left → {crypto_url}?ref={ref}",
                "I just got 10x back from the {coin} event, it's real!! Hurry {crypto_url}",
            ),
            "de": ("🚀 {coin} GIVEAWAY: 0,1 senden, 1,0 zurück! Nur {spots} Plätze: {crypto_url}",),
            "es": ("🚀 SORTEO OFICIAL {coin}: envía 0.1 y recibe 1.0 al instante → {crypto_url}",),
            "pt": ("🚀 SORTEIO {coin}: envie 0.1 e receba 1.0 na hora! {crypto_url}?ref={ref}",),
            "ar": ("🚀 هدية {coin} الرسمية! أرسل 0.1 واحصل على 1.0 فوراً ← {crypto_url}",),
            "he": ("🚀 הגרלת {coin} רשמית! שלחו 0.1 וקבלו 1.0 מיד ← {crypto_url}",),
        },
        media=("crypto_giveaway_banner.png", "coinx_giveaway_flash.gif"),
        link=(
            "https://coinx-bonus.example/claim",
            "COINX Official Giveaway — 5,000 COINX pool",
            "Send 0.1, get 1.0 back. Instant payout. Limited spots.",
        ),
        report_reasons=("scam", "scam", "spam", "impersonation"),
        weight=1.4,
    ),
    Topic(
        key="parcel-phishing",
        queue=SPAM,
        policy="SPAM.PHISHING",
        label="phishing",
        templates={
            "en": (
                "ParcelPost: your parcel is held at our depot due to an unpaid customs fee "
                "(EUR 1.99). Pay within 24h to avoid return: {parcel_url}?id={ref}",
                "Anyone else get this text? ParcelPost says my package is stuck, fee EUR 1.99 "
                "{parcel_url}?id={ref} is it real??",
            ),
            "de": ("Ihr Paket wird wegen 1,99 EUR Zoll zurückgehalten. Zahlen: {parcel_url}",),
            "fr": ("Votre colis est bloqué (frais de douane 1,99 EUR). Payez ici : {parcel_url}",),
            "he": ("החבילה שלך מעוכבת בשל מכס של 1.99 אירו. לתשלום: {parcel_url}?id={ref}",),
            "ar": ("طردك محتجز بسبب رسوم جمركية 1.99 يورو. ادفع خلال 24 ساعة: {parcel_url}",),
        },
        media=("parcel_sms_screenshot.png",),
        report_reasons=("scam", "spam"),
        weight=1.1,
    ),
    Topic(
        key="bank-phishing",
        queue=SPAM,
        policy="SPAM.PHISHING",
        label="phishing",
        templates={
            "en": (
                "NorthBank security notice: your account has been suspended. Verify your "
                "identity within 12 hours: {bank_url}",
                "NorthBank customers: new security rules, confirm your card PIN at {bank_url}",
            ),
            "es": ("NorthBank: su cuenta ha sido suspendida. Verifique su identidad: {bank_url}",),
        },
        media=("bank_phishing_login.png",),
        report_reasons=("scam", "impersonation"),
    ),
    Topic(
        key="fake-shop",
        queue=SPAM,
        policy="SPAM.FAKE_SHOP",
        label="fake_shop",
        templates={
            "en": (
                "AirStride Pro Runner -80% TODAY ONLY €29.99 🔥 official clearance, free "
                "shipping → {shop_url}",
                "Warehouse closing!! Designer sneakers from €19, last {spots} pairs {shop_url}",
            ),
            "fr": ("AirStride Pro Runner -80% AUJOURD'HUI SEULEMENT 29,99 € 🔥 {shop_url}",),
            "pt": ("Tênis AirStride Pro -80% SÓ HOJE por €29,99 🔥 {shop_url}",),
        },
        media=("fake_shop_sneaker.png", "sale_countdown.gif"),
        link=(
            "https://airstride-outlet.example/sale",
            "AirStride Outlet — Official Clearance -80%",
            "Free shipping on all orders today. Sale ends at midnight.",
        ),
        report_reasons=("scam", "spam"),
    ),
    Topic(
        key="follow-spam",
        queue=SPAM,
        policy="SPAM.ENGAGEMENT",
        label="engagement_spam",
        templates={
            "en": (
                "Follow me and I follow back 💯 10k followers in 24h guaranteed {promo_url}",
                "Want to go viral? We boost your posts, real likes {promo_url} DM for prices",
            ),
            "es": ("Sígueme y te sigo 💯 10k seguidores en 24h {promo_url}",),
        },
        report_reasons=("spam",),
        weight=0.8,
    ),
)

INAUTH_TOPICS = (
    Topic(
        key="copy-paste-praise",
        queue=INAUTHENTIC,
        policy="INAUTH.COORDINATED",
        label="coordinated_cluster",
        templates={
            "en": (
                "Proud to support {candidate}! Finally a leader who listens to hardworking "
                "families. {tag}",
                "So true!! 👏👏 {candidate} is the only one who really cares about {city}. {tag}",
            ),
            "es": ("¡Orgullosa de apoyar a {candidate}! Por fin alguien que escucha. {tag}",),
            "pt": (
                "Orgulho de apoiar {candidate}! Finalmente alguém que escuta as famílias. {tag}",
            ),
            "ar": ("فخور بدعم {candidate}! أخيراً قائد يستمع للعائلات العاملة. {tag}",),
            "he": ("גאה לתמוך ב-{candidate}! סוף סוף מנהיג שמקשיב למשפחות עובדות. {tag}",),
        },
        media=("engagement_grid_default_avatars.png",),
        report_reasons=("fake_account", "impersonation"),
        weight=1.6,
    ),
    Topic(
        key="stock-persona",
        queue=INAUTHENTIC,
        policy="INAUTH.FAKE_ACCOUNT",
        label="fake_persona",
        templates={
            "en": (
                "Hi I'm {first}, nurse and mom of two 🌸 just here to share positive news "
                "about {candidate}!",
                "{first} here, small business owner in {city}. {candidate} gets my vote {tag}",
            ),
        },
        media=("stock_photo_avatar.png",),
        report_reasons=("fake_account", "impersonation"),
    ),
    Topic(
        key="impersonation",
        queue=INAUTHENTIC,
        policy="INAUTH.IMPERSONATION",
        label="impersonation",
        templates={
            "en": (
                "NorthBank Support here 👋 sorry for the trouble! DM us your customer number "
                "and we'll sort it out right away.",
            ),
        },
        report_reasons=("impersonation", "fake_account"),
        weight=0.6,
    ),
    Topic(
        key="ordinary",
        queue=INAUTHENTIC,
        policy="INAUTH.FAKE_ACCOUNT",
        label="coordinated_cluster",
        templates={
            "en": (
                "Morning run done, 10k in the rain ☔ who else is training for the {city} "
                "marathon?",
                "Third post today about the {city} bridge works, sorry, but the traffic is "
                "unreal {emoji}",
            ),
            "de": ("Heute 10 km im Regen gelaufen ☔ wer trainiert noch für {city}?",),
        },
        report_reasons=("fake_account",),
        weight=0.6,
    ),
)

ESCALATION_CASES: tuple[tuple[str, str, str], ...] = (
    ("street-fight", "Reviewer unsure: satire or threat?", "unclear_intent"),
    ("pile-on", "Reviewer unsure: satire or threat?", "unclear_intent"),
    ("doxxing", "Possible credible threat with a real address", "credible_threat"),
    ("ballots", "Fact-checks disagree on the rating", "fact_check_conflict"),
    (
        "health-cure",
        "Verified account with a large following: newsworthiness exception?",
        "newsworthy_account",
    ),
    ("satire", "Author appealed: says the post is satire", "satire_claim"),
    ("slur", "Language outside the reviewer's coverage", "language_coverage"),
    (
        "celebrity-death",
        "Public figure's family asked for removal: remove or label?",
        "family_request",
    ),
    (
        "copy-paste-praise",
        "Looks like part of a wider network: takedown of the cluster?",
        "network_takedown",
    ),
    (
        "parcel-phishing",
        "Victim warning others or spreading the link? Reviewer unsure",
        "unclear_intent",
    ),
    ("counter-speech", "Quoting a slur to report it: keep?", "counter_speech"),
)
"""(topic key, why it needs a lead, the label the escalation-triage model gives it) for the
leads' escalation queue; the triage model's flag is what routes it there (queues.toml)"""
