"""Codes, times and counts in words: one helper each (``reviewer_app/ui/words.py``), and the
places that show them (the item history, the lead's decisions and timelines) use it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

from PySide6.QtCore import QLocale

from reviewer_app.protocol import AuthorAction, Event, EventKind
from reviewer_app.ui.accounts import Selection, confirmation_question
from reviewer_app.ui.lead import decision_history as decisions
from reviewer_app.ui.my_decisions import when
from reviewer_app.ui.plain import count, isolate, local_day, whole
from reviewer_app.ui.words import code_words, local_time, plural, value_words

STAMP = "2026-12-01T13:14:21.893785+00:00"


def test_times_are_local_and_to_the_minute() -> None:
    moment = datetime.fromisoformat(STAMP)
    local = moment.astimezone()
    assert local_time(STAMP) == local.strftime("%Y-%m-%d %H:%M")
    assert local_time(moment) == local_time(STAMP)
    # the same instant from another zone is the same local time
    assert local_time(moment.astimezone(timezone(timedelta(hours=-5)))) == local_time(STAMP)
    assert "T" not in local_time(STAMP) and "+00:00" not in local_time(STAMP)


def test_codes_become_words_labels_first() -> None:
    assert code_words("false_information") == "false information"
    assert code_words("remove-restrict") == "remove restrict"
    labels = {"false_information": "False information"}
    assert code_words("false_information", labels) == isolate("False information")
    # anything that is not a plain code is shown as it is, isolated
    assert code_words("‮evil") == isolate("‮evil")


def test_event_values_in_words() -> None:
    assert value_words(STAMP) == local_time(STAMP)
    assert value_words("author_actioned") == "author actioned"
    assert value_words("p-1") == isolate("p-1")  # an id stays an id
    assert value_words("deleted") == isolate("deleted")


def test_plural_forms_without_a_catalogue() -> None:
    assert plural("1 decision(s)", 1) == "1 decision"
    assert plural("2 decision(s)", 2) == "2 decisions"
    assert plural("0 decision(s)", 0) == "0 decisions"


def test_plural_forms_from_a_catalogue_one_and_many() -> None:
    """A translation gives both forms split by '|' (lupdate marks no Python call numerus)."""
    assert plural("1 Entscheidung|1 Entscheidungen", 1) == "1 Entscheidung"
    assert plural("3 Entscheidungen wurden|3 Entscheidungen wurden", 3) == "3 Entscheidungen wurden"
    assert plural("2 cuenta|2 cuentas", 2) == "2 cuentas"
    assert plural("%Ln Entscheidung|%Ln Entscheidungen", 2500) == "2,500 Entscheidungen"
    assert plural("%n decision(s)", 1) == "1 decision"


def test_a_timeline_line_has_no_iso_stamp_and_no_raw_code() -> None:
    event = Event(
        id=3,
        at=datetime(2026, 12, 1, 12, 0, tzinfo=UTC),
        kind=EventKind.claimed,
        actor="reviewer",
        item_id="it-1",
        queue_id="misinformation",
        data={"lease_expires_at": STAMP, "rating": "false_information"},
    )
    line = decisions.event_line(event)
    assert STAMP not in line and "false_information" not in line, line
    assert f"lease until: {local_time(STAMP)}" in line
    assert "rating: false information" in line


def test_counts_in_sentences_take_their_own_plural_forms(qapp) -> None:
    """Each count in a sentence takes its own form ('1 open item in 2 queues'), never the
    form of another count or a fixed plural ('1 queues')."""
    one = Selection(author_ids=("a-1",), open_items=1, queues=1)
    assert confirmation_question(AuthorAction.warn, one) == "Warn 1 account?"
    assert (
        confirmation_question(AuthorAction.suspend, one)
        == "Suspend 1 account (1 open item in 1 queue)?"
    )
    many = Selection(author_ids=("a-1", "a-2"), open_items=1, queues=2)
    assert (
        confirmation_question(AuthorAction.mark_inauthentic, many)
        == "Mark 2 accounts inauthentic (1 open item in 2 queues)?"
    )


def test_no_context_tab_of_any_demo_post_shows_a_raw_code(demo_server) -> None:
    """Every context tab of items from every demo queue, as a lead sees them: no code with
    an underscore ("false_information: 4" in the Reports tab, "partly_false" in "Why
    queued") and no ISO time outside the untrusted strings (isolated: a handle may hold
    an underscore)."""
    import re

    from reviewer_app.core.api import ApiClient
    from reviewer_app.ui.context_panels import ContextPanels
    from tests.ui.conftest import LEAD

    isolated = re.compile("\u2068[^\u2068\u2069]*\u2069")
    code = re.compile(r"\b[a-z]+_[a-z0-9_]+\b")
    stamp = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d")
    found: list[str] = []
    seen = 0
    with ApiClient(demo_server.url) as api:
        api.login(*LEAD)
        for queue in api.queues().queues:
            grant = api.claim(queue.id, 20, 60)
            if grant.items:
                api.release([leased.lease_token for leased in grant.items])
            for leased in grant.items:
                seen += 1
                for title, render in ContextPanels.TABS:
                    text = render(leased.item, None, None)
                    while isolated.search(text):  # innermost first: isolates may nest
                        text = isolated.sub("", text)
                    found += [f"{queue.id} {title}: {m}" for m in code.findall(text)]
                    found += [f"{queue.id} {title}: {m}" for m in stamp.findall(text)]
    assert seen > 40
    assert not found, "\n".join(sorted(set(found)))


def test_a_language_code_in_words(qapp) -> None:
    from reviewer_app.ui.words import language_words

    assert [language_words(c) for c in ("en", "ar", "pt-BR", "he")] == [
        "English",
        "Arabic",
        "Portuguese",
        "Hebrew",
    ]
    assert language_words("und") == isolate("und")  # unknown to Qt: as it came


def test_numbers_days_and_months_follow_the_users_locale() -> None:
    """German words beside English "1,015 Follower" (about one, to a German reader), and
    "Sun 07:06" on the Wellbeing page."""
    moment = datetime(2026, 12, 6, 12, 0, tzinfo=UTC)
    before = QLocale()
    QLocale.setDefault(QLocale("de"))
    try:
        assert (whole(1015), whole(2_400_000), count(4764), count(2_300_000)) == (
            "1.015",
            "2.400.000",
            "4.764",
            "2,3 M",
        )
        assert local_day(moment, "ddd dd MMM").startswith("So")
        assert "Dez" in when(moment - timedelta(days=3), now=moment)
    finally:
        QLocale.setDefault(before)
    assert whole(1015) == before.toString(1015)


def test_the_pending_count_takes_the_form_of_its_number(qapp) -> None:
    """Spanish said "1 pendientes"."""
    from reviewer_app.ui import i18n
    from reviewer_app.ui.messages import pending_words

    assert (pending_words(1, 0), pending_words(3, 0)) == ("1 pending", "3 pending")
    installed = i18n.install_translators(qapp, "es")
    try:
        assert (pending_words(1, 0), pending_words(3, 0)) == ("1 pendiente", "3 pendientes")
    finally:
        for translator in installed:
            qapp.removeTranslator(translator)
