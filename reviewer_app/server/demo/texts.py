"""Post templates and fillers for the demo queues, per topic and language.

Templates are ``str.format`` strings; every ``{name}`` is drawn from ``FILLERS`` (or
``NUMBERS`` for a random number). Slurs and group names are never spelled out: they
appear as ``[slur]`` and ``[group]``, the way a redacting classifier would show them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from reviewer_app.server.demo.queues import MISINFORMATION


@dataclass(frozen=True)
class Topic:
    key: str
    queue: str
    policy: str
    """the policy code a remove would most likely cite"""
    label: str
    """the label the queue's classifier gives this kind of post"""
    templates: dict[str, tuple[str, ...]]
    """language -> templates"""
    media: tuple[str, ...] = ()
    """files in media/ (package data) that fit the topic"""
    link: tuple[str, str, str] | None = None
    """link preview: (url, title, description)"""
    claim: str = ""
    """the fact-checked claim (misinformation only)"""
    ratings: tuple[str, ...] = ()
    report_reasons: tuple[str, ...] = ()
    span_terms: tuple[str, ...] = ()
    """words the claim matcher highlights when they occur in the text"""
    with_media: dict[str, str] = field(default_factory=dict)
    """filler values forced when the post carries media (so the picture matches)"""
    weight: float = 1.0


FILLERS: dict[str, tuple[str, ...]] = {
    "city": ("Riverton", "Millbrook", "Eastvale", "Port Ellery", "Northgate", "Ashford Bay"),
    "days": ("3", "7", "9", "10", "14"),
    "number": ("2,400", "6,800", "11,000", "38,000"),
    "emoji": ("🔥", "😡", "‼️", "👀", "🚨", "😱", "💯"),
    "cure": (
        "baking soda and lemon",
        "garlic tea",
        "a spoon of turmeric paste",
        "colloidal silver drops",
        "apple cider vinegar shots",
    ),
    "disease": ("diabetes", "high blood pressure", "asthma", "arthritis"),
    "celeb": ("Dana Whitlock", "Marco Reyes", "Lena Okafor", "Jonah Pryce"),
    "target": ("maya_reads", "coach_dre", "nina.k.writes", "priya_cooks", "sam_on_transit"),
    "street": ("Alder Lane", "Birch Road", "Harbour Street", "Mill Close"),
    "employer": ("Millbrook Dental", "the Eastvale library", "Northgate Primary"),
    "coin": ("COINX", "ETHX", "SOLARA"),
    "spots": ("9", "17", "48", "100"),
    "crypto_url": (
        "https://coinx-bonus.example/claim",
        "https://coinx-official-event.example/x10",
        "https://free-airdrop.example/coinx",
    ),
    "parcel_url": ("https://parcel-release.example/pay", "https://parcelpost-fees.example/id"),
    "bank_url": ("http://northbank-secure-verify.example/login", "https://nb-verify.example/auth"),
    "shop_url": ("https://airstride-outlet.example/sale", "https://sneaker-clearance.example/pro"),
    "promo_url": ("https://growfast-followers.example", "https://insta-boost.example/10k"),
    "candidate": ("Mayor Ortega", "Senator Hale", "Councillor Brandt"),
    "tag": ("#RenewalNow", "#HaleForAll", "#StandWithOrtega"),
    "first": ("Jessica", "Emily", "Sarah", "Amanda", "Megan"),
}
NUMBERS: dict[str, tuple[int, int]] = {"ref": (10_000, 99_999), "n": (2, 40)}

_MISINFO_REPORTS = ("false_information", "false_information", "spam", "hate")

MISINFO_TOPICS = (
    Topic(
        key="health-cure",
        queue=MISINFORMATION,
        policy="MISINFO.HEALTH",
        label="health_claim",
        templates={
            "en": (
                "Doctors don't want you to know this: {cure} reverses {disease} in {days} days. "
                "My aunt stopped her meds and has never felt better {emoji} Share before they "
                "delete it!",
                "BREAKING: the study big pharma buried shows {cure} cures {disease}. "
                "Read it before it's gone {emoji}",
                "I'm not a doctor but I can read. {cure} every morning and no more {disease}. "
                "Why is nobody talking about this??",
            ),
            "de": (
                "Ärzte verschweigen es: Natron mit Zitrone heilt Diabetes in {days} Tagen. "
                "Teilen, bevor es gelöscht wird! {emoji}",
            ),
            "es": (
                "Los médicos no quieren que lo sepas: el ajo con limón cura la diabetes en "
                "{days} días. ¡Compártelo antes de que lo borren! {emoji}",
            ),
            "pt": ("Os médicos escondem isso: chá de alho cura a diabetes em {days} dias. 🙏",),
            "ar": (
                "الأطباء لا يريدونك أن تعرف هذا: الثوم مع الليمون يعالج السكري خلال {days} "
                "أيام. انشرها قبل أن يحذفوها! {emoji}",
            ),
            "he": (
                "הרופאים לא רוצים שתדעו: שום עם לימון מרפא סוכרת תוך {days} ימים. שתפו! {emoji}",
            ),
        },
        media=("news_cure_screenshot.png",),
        link=(
            "https://real-health-truth.example/kitchen-tonic",
            "Doctors stunned: kitchen tonic 'reverses diabetes in 9 days'",
            "The remedy they don't want you to hear about. Share before it's gone.",
        ),
        claim="A kitchen remedy reverses diabetes in days",
        ratings=("false", "false", "partly_false"),
        report_reasons=_MISINFO_REPORTS,
        span_terms=("reverses", "cures", "heilt", "cura", "يعالج", "מרפא"),
        weight=1.4,
    ),
    Topic(
        key="ballots",
        queue=MISINFORMATION,
        policy="MISINFO.CIVIC",
        label="civic_claim",
        templates={
            "en": (
                "Ballot boxes found in the river outside {city}. {number} votes GONE and "
                "officials are silent. This is how they steal it {emoji}",
                "They're counting ballots in {city} with the windows covered. Poll workers "
                "told to 'lose' ballots. Repost until they answer!",
                "Reminder for {city}: this year you can vote by text message, just reply "
                "with your candidate's name. Polls close at 8!",
            ),
            "es": (
                "Encontraron urnas en el río cerca de {city}. {number} votos desaparecidos "
                "y nadie dice nada. {emoji}",
            ),
            "fr": ("Des urnes retrouvées dans la rivière près de {city}. Silence des autorités.",),
            "ar": (
                "عُثر على صناديق اقتراع في النهر قرب {city}. {number} صوت اختفت والمسؤولون صامتون.",
            ),
            "he": ("נמצאו קלפיות בנהר ליד {city}. {number} קולות נעלמו והפקידים שותקים. {emoji}",),
        },
        media=("news_ballots_screenshot.png",),
        link=(
            "https://patriot-wire.example/ballot-boxes-river",
            "BALLOT BOXES FOUND IN RIVER — OFFICIALS SILENT",
            "Exclusive: reader photos show hundreds of ballot boxes dumped overnight.",
        ),
        claim="Ballot boxes were dumped in a river before the count",
        ratings=("false", "altered", "missing_context"),
        report_reasons=_MISINFO_REPORTS,
        span_terms=("Ballot boxes", "vote by text", "urnas", "קלפיות"),
        weight=1.2,
    ),
    Topic(
        key="weather-machine",
        queue=MISINFORMATION,
        policy="MISINFO.CONSPIRACY",
        label="conspiracy",
        templates={
            "en": (
                "The storm over {city} was NOT natural. The antenna array was switched on "
                "for 3 days before it hit. Look at the diagram {emoji}",
                "Weather machine confirmed?? Same cloud pattern every time they test the "
                "emitters near {city}. Wake up.",
            ),
            "de": ("Der Sturm über {city} war kein Zufall. Die Wettermaschine lief drei Tage!",),
            "pt": ("A tempestade em {city} foi fabricada. A máquina do clima estava ligada. 👀",),
        },
        media=("meme_weather_machine.png", "weather_machine_diagram.png"),
        claim="A government weather machine steered the storm",
        ratings=("false",),
        report_reasons=_MISINFO_REPORTS,
        span_terms=("Weather machine", "Wettermaschine", "antenna array"),
    ),
    Topic(
        key="celebrity-death",
        queue=MISINFORMATION,
        policy="MISINFO.HOAX",
        label="hoax",
        templates={
            "en": (
                "RIP {celeb} 💔 confirmed dead this morning after a car crash, family asks "
                "for privacy. gone too soon",
                "Can't believe {celeb} is gone. Sources close to the family say it happened "
                "last night. Why is the media silent? {emoji}",
            ),
            "es": ("Descansa en paz {celeb} 💔 murió esta mañana según fuentes cercanas.",),
            "fr": ("RIP {celeb} 💔 décès confirmé cette nuit selon ses proches.",),
            "ar": ("وداعاً {celeb} 💔 تأكد خبر الوفاة هذا الصباح حسب مصادر مقربة من العائلة.",),
        },
        media=("rip_card.png",),
        claim="A well-known actor died in a car crash",
        ratings=("false",),
        report_reasons=("false_information", "impersonation"),
        span_terms=("confirmed dead", "murió", "décès"),
        with_media={"celeb": "Dana Whitlock"},
    ),
    Topic(
        key="flood-photo",
        queue=MISINFORMATION,
        policy="MISINFO.MANIPULATED_MEDIA",
        label="out_of_context_media",
        templates={
            "en": (
                "This is {city} RIGHT NOW. The dam failed and the government is hiding it. "
                "Pray for {city} 🙏",
                "Photo taken an hour ago in {city}: whole streets underwater and not a "
                "single news crew. Why?",
            ),
            "es": ("Así está {city} AHORA MISMO. La presa se rompió y lo ocultan. 🙏",),
            "pt": ("Isso é {city} AGORA. A barragem rompeu e ninguém fala nada. 🙏",),
            "ar": ("هذه {city} الآن. انهار السد والحكومة تخفي الأمر. ادعوا لأهلها 🙏",),
            "he": ("זו {city} עכשיו. הסכר קרס והממשלה מסתירה את זה. 🙏",),
        },
        media=("flood_rooftops_photo.png",),
        claim="Photo shows a dam failure today (it is from a 2019 flood elsewhere)",
        ratings=("missing_context", "missing_context", "altered"),
        report_reasons=("false_information", "violence"),
        span_terms=("RIGHT NOW", "dam failed", "AHORA MISMO"),
    ),
    Topic(
        key="crime-chart",
        queue=MISINFORMATION,
        policy="MISINFO.MANIPULATED_MEDIA",
        label="misleading_statistic",
        templates={
            "en": ("Crime in {city} up 400% since the new mayor took office. Charts don't lie.",),
            "de": ("Kriminalität in {city} um 400 % gestiegen seit dem neuen Bürgermeister.",),
        },
        media=("chart_crime_truncated_axis.png",),
        claim="Crime rose 400% under the new mayor",
        ratings=("partly_false", "missing_context"),
        report_reasons=("false_information",),
        span_terms=("400%", "400 %"),
        weight=0.6,
    ),
    Topic(
        key="leaked-memo",
        queue=MISINFORMATION,
        policy="MISINFO.MANIPULATED_MEDIA",
        label="fabricated_document",
        templates={
            "en": (
                "LEAKED: internal memo shows the ministry will ration tap water in {city} "
                "from next month ('Project Clearwater'). They blacked out the worst parts.",
            ),
            "fr": ("FUITE : une note interne prouve que l'eau sera rationnée à {city}.",),
        },
        media=("leaked_memo_scan.png",),
        claim="Leaked memo shows tap water will be rationed",
        ratings=("altered", "false"),
        report_reasons=("false_information",),
        span_terms=("LEAKED", "FUITE"),
        weight=0.6,
    ),
    Topic(
        key="satire",
        queue=MISINFORMATION,
        policy="MISINFO.HOAX",
        label="hoax",
        templates={
            "en": (
                "BREAKING: {city} council votes to replace all traffic lights with vibes. "
                "Mayor: 'Red means whatever you feel.' 😂",
            ),
        },
        link=(
            "https://the-daily-spoon.example/traffic-lights-vibes",
            "Council replaces traffic lights with vibes",
            "The Daily Spoon: news you can't use.",
        ),
        claim="A council replaced traffic lights with 'vibes'",
        ratings=("satire",),
        report_reasons=("false_information",),
        weight=0.5,
    ),
)

LONG_POSTS: dict[str, tuple[str, ...]] = {
    "weather-machine": (
        "THREAD (please read to the end, this is important and they will take it down).",
        "For three days before the storm hit {city}, people living near the old radar site "
        "reported a humming noise at night. Two of them filmed the lights on the mast.",
        "The same thing happened before the floods last spring. Same site, same humming, "
        "same 'unexpected' storm track that turned at the last minute toward the town.",
        "The diagram below was posted on a forum by someone who says they worked on the "
        "emitter array. It shows how the feed line seeds the clouds and how the underground "
        "plant powers it. Nobody has ever explained what that plant is for.",
        "Meteorologists on TV keep saying 'warm water' and 'a stalled front'. Funny how the "
        "front always stalls over the same towns, the ones that voted the wrong way.",
        "And before anyone says 'tinfoil hat': the patent for steering rain with radio waves "
        "is public. Look it up. They told us it was only a theory. So was everything else.",
        "I asked the council three times for the power bills of the site. No answer. I asked "
        "the weather office why their model missed the turn. 'Uncertainty.' Sure.",
        "Look at the satellite loop from that night. The clouds form a ring around the mast "
        "before the rain starts. Rings like that do not happen by themselves, ask any pilot.",
        "I am not saying everything is certain. I am saying the questions are real and that "
        "people deserve answers before the next storm. Share this with everyone in {city}.",
        "If this post disappears, you know why. Save the picture. {emoji}",
    ),
    "health-cure": (
        "My story, long post, sorry. Two years ago I was told I'd be on pills for life.",
        "Then a friend told me about {cure}. Every morning, empty stomach, for {days} days. "
        "I was sceptical. I'm a practical person, I don't believe in miracles.",
        "The recipe is simple: mix it in warm water, drink it slowly, and wait twenty minutes "
        "before breakfast. Some people add honey but that defeats the purpose. No sugar at all "
        "for the first week, your body needs to reset.",
        "After the first week my readings went down. After the second my doctor was "
        "confused and asked what I had changed. I didn't tell him, he'd only laugh.",
        "I have since stopped my medication completely. I feel better than I have in ten "
        "years. More energy, better sleep, no more cravings.",
        "I also cut out bread and started walking after dinner, but everyone I know who did "
        "only that saw nothing. It's the tonic. Three weeks in, my feet stopped tingling.",
        "Why don't you hear about this? Because nobody can patent a kitchen cupboard. The "
        "companies that sell the pills also fund the studies and the news.",
        "My sister tried it for her blood pressure and her results were the same. A man in "
        "my support group came off his insulin after a month. His doctor called it 'a "
        "miracle' but of course wrote nothing down. They never do.",
        "I'm sharing because my neighbour is about to start injections and I wish someone "
        "had told me earlier. Try it for yourself before you let them put you on drugs.",
        "Do your own research. Ask questions. Your body knows how to heal itself. {emoji}",
    ),
}
