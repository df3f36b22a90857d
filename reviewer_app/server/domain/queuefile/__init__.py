"""Queue files: the queue configuration as a TOML file people edit, read and write.

``reviewer-app server queues apply FILE`` reads one (``parse_queue_file``), and
``queues export`` writes the running one (``dump_queue_file``). The layout::

    [[queues]]                          # one per queue, in the order routing tries them
    id = "misinformation"
    name = "Misinformation"
    description = "Posts matched to debunked claims"

    [queues.config]                     # the queue's own settings
    sla_minutes = 240
    author_actions = ["warn", "restrict"]
    notes_shareable = true              # the note is part of the statement of reasons
    default_policy = "MISINFO.HEALTH"   # what a decision without a policy code cites

    [queues.config.priority]            # ordering weights of its pending items
    score = 2.0
    reach = 1.5

    [[queues.config.actions]]           # one per action, in the verdict bar's order
    id = "label"
    label = "Label with fact-check"
    kind = "label"
    key = "2"
    requires_rating = true

    [[queues.config.policies]]
    code = "MISINFO.HEALTH"
    label = "Health misinformation"
    terms_clause = "Community Guidelines 4.1"   # or legal_ground = "..." (illegal content)
    category = "risk_for_public_security"       # its DSA statement category

    [[queues.config.escalation_reasons]] # what E offers (none: the service's defaults)
    id = "needs_fact_check"
    label = "Needs a fact-check first"
    requires_note = false               # true: the reviewer must say more in the note

    [[queues.config.ratings]]           # the fact-check rating scale
    id = "false"
    label = "False"
    reduces = true

    [[queues.config.routing]]           # signals that route a post here
    name = "civic-claims"
    classifier = [{ model = "civic-claim", min_score = 0.75 }]
    fact_check = { ratings = ["false", "partly_false"] }

    [queues.config.rereview]            # when a post decided keep comes back
    new_reports = 10

    [queues.config.breaks]              # break reminders in the review window
    after_minutes = 90                  # after this long since the shift began or the last break
    after_high_harm = 20                # or after this many high-harm items
    high_harm = ["graphic_violence", "self_harm"]   # which kinds count (a default set if left out)

with ``harm = ["hate"]`` in ``[queues.config]`` (what every post of the queue exposes a
reviewer to) and in a policy (what citing it adds): the kinds of harm counted per shift
(protocol.wellbeing).

A bad file is refused with every problem found and its line: the TOML syntax error (the
parser stops at the first), or else each field the protocol's models refuse and each
rule below that the models cannot see on their own (one queue's actions against its
ratings, policies and author actions; routing against the rating scale; escalation
against the escalation queue; each policy's ground and category for statements of
reasons). The file is typed TOML: ``sla_minutes = "600"`` or ``lead_only = "yes"`` is
refused (``give a whole number, not a string``), never read as a number or a boolean, and a
value of the wrong type hides no rule that can still be checked. A leading byte order mark
is read past. Qt-free, database-free.
"""
