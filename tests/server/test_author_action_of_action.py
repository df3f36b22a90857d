"""A verdict's author action is its action's own (both databases, over real HTTP): sent or
left out, the action's configured one applies; any other is refused for the whole batch
(``author_action_not_of_action``). "No violation" sent with "suspend" had been accepted:
the author suspended, their other items closed, and the platform told ``keep`` with an
account restriction and no statement of reasons; "Remove and restrict author" sent with
"warn" had recorded a warning."""

from __future__ import annotations

from reviewer_app.protocol import QueueFile, Role
from tests.support.api import ApiSession, claim, expect_problem, verdict
from tests.support.enforcement import queue_file, queue_posts
from tests.support.intake import MISINFO
from tests.support.servers import running


def test_a_verdict_takes_only_its_actions_own_author_action(database_url: str) -> None:
    document = queue_file()
    misinfo = next(q for q in document["queues"] if q["id"] == MISINFO)
    misinfo["config"]["author_actions"] = ["warn", "restrict", "suspend"]
    with running(database_url) as server:
        server.service.apply_queue_file(QueueFile.model_validate(document), actor=None)
        key = server.service.create_api_key(Role.platform, "feed").key
        queue_posts(ApiSession(server.url, key), ["aa-1", "aa-2"])
        rita = server.login("rita")
        first, second = claim(rita, MISINFO, 2)
        civic = {"policies": ["MISINFO.CIVIC"]}
        for body, own in (
            (verdict(first, "keep", author_action="suspend"), "takes none"),
            (verdict(first, "remove-restrict", author_action="warn", **civic), "'restrict'"),
        ):
            response = rita.post("/verdicts", json={"verdicts": [body]})
            problem = expect_problem(response, 422, "verdict_invalid")
            assert [(e["loc"], e["code"]) for e in problem["errors"]] == [
                (["verdicts", 0, "author_action"], "author_action_not_of_action")
            ], problem
            assert own in problem["errors"][0]["message"]
        # the action's own, sent or left out, is taken
        results = rita.decide(
            [
                verdict(first, "remove-restrict", author_action="restrict", **civic),
                verdict(second, "keep"),
            ]
        )
        assert [r["status"] for r in results] == ["accepted", "accepted"], results
        assert [r["decision"]["author_action"] for r in results] == ["restrict", None]
