"""Context around a post: thread parents and replies, reporter notes, queue-reason details."""

from __future__ import annotations

from reviewer_app.server.demo.queues import ESCALATIONS, HATE, INAUTHENTIC, MISINFORMATION, SPAM

PARENTS: dict[str, tuple[str, ...]] = {
    MISINFORMATION: (
        "Anyone know what's going on in {city}? My feed is full of weird stuff today.",
        "The news is useless, who has actual information?",
        "Is it true what people are saying about the vote count?",
        "My doctor wants me on another prescription. Has anyone tried something natural?",
    ),
    HATE: (
        "Unpopular opinion: the new bike lanes in {city} are actually great.",
        "I wrote a thread about what it's like being the only woman on my team.",
        "Here's my review of the new season, spoilers ahead.",
        "Can we talk about how expensive rent in {city} has become?",
    ),
    SPAM: (
        "What's the best way to get started with crypto?",
        "My parcel has been 'in transit' for 9 days, anyone else?",
        "Looking for running shoes that don't cost a fortune, recommendations?",
    ),
    INAUTHENTIC: (
        "Debate tonight: who do you think won?",
        "Poll: what's the most important issue for {city} this year?",
        "{candidate} just announced the new housing plan.",
    ),
}
PARENTS[ESCALATIONS] = PARENTS[HATE] + PARENTS[MISINFORMATION]

REPLIES: dict[str, tuple[str, ...]] = {
    MISINFORMATION: (
        "Source?",
        "This was debunked last week, the photo is from 2019.",
        "My cousin said the same thing!! Sharing.",
        "Please talk to your doctor before stopping any medication.",
        "Why is this still up?",
        "wow 😱",
        "Reverse image search is your friend.",
        "They'll never report this on TV.",
    ),
    HATE: (
        "Leave her alone.",
        "Reported.",
        "lol 💀",
        "This is disgusting, what is wrong with you?",
        "Blocked and reported, everyone please do the same.",
        "You okay? DM me if you need anything.",
        "ratio",
    ),
    SPAM: (
        "Scam, don't click.",
        "Is this legit?",
        "I got my coins!! 🙌",
        "This account messaged me too, fake.",
        "Reported as phishing.",
        "The real company never texts links.",
    ),
    INAUTHENTIC: (
        "👏👏👏",
        "So true!!",
        "Why do all these accounts have the same default avatar?",
        "Bot.",
        "This exact text is on 40 accounts, look at the replies.",
        "100% agree",
    ),
}
REPLIES[ESCALATIONS] = REPLIES[HATE] + REPLIES[MISINFORMATION]

REPORTER_NOTES: dict[str, tuple[str, ...]] = {
    "false_information": (
        "This is fake, the fact-check came out yesterday.",
        "My mum is sharing this and believes it, please label it.",
        "Photo is old and from another country.",
        "Dangerous medical advice, people will stop their meds.",
    ),
    "hate": (
        "Slur aimed at a whole group.",
        "This is a slur, not a joke.",
        "Dehumanising language about refugees.",
    ),
    "harassment": (
        "They are sending their followers after this person.",
        "This is the fifth post about the same woman today.",
        "I am the person being targeted. Please help.",
    ),
    "violence": (
        "Video of a real assault, posted to mock the victim.",
        "Reads like a threat to me.",
        "Shares someone's address and says 'you know what to do'.",
    ),
    "scam": (
        "Crypto giveaway scam, I lost money to one of these.",
        "Fake link, the real site is different.",
        "This shop never delivers, see the reviews.",
    ),
    "spam": ("Same post every 5 minutes.", "Bot spam in every reply thread."),
    "impersonation": (
        "Pretending to be the bank's support account.",
        "Not the real person, check the handle.",
    ),
    "fake_account": (
        "Profile photo is a stock image.",
        "Part of a network posting the same text.",
        "Account is two weeks old and posts 200 times a day.",
    ),
}

CLASSIFIER_DETAILS = {
    "misinfo-claim-matcher": "Matched a debunked claim ({score:.2f} ≥ {threshold:.2f})",
    "toxicity-xlmr": "Toxicity above threshold ({score:.2f} ≥ {threshold:.2f})",
    "spam-gbdt": "Spam model above threshold ({score:.2f} ≥ {threshold:.2f})",
    "inauthentic-graph": "Account cluster flagged ({score:.2f} ≥ {threshold:.2f})",
    "nsfw-vision": "Graphic media detected ({score:.2f} ≥ {threshold:.2f})",
    "escalation-triage": "Needs a lead ({score:.2f} ≥ {threshold:.2f})",
}

APPEAL_DETAILS = (
    "Author appealed an earlier removal: 'it was satire'",
    "Author appealed: 'I was warning people about the scam'",
    "Author appealed: 'this is my real account'",
)
