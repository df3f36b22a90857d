"""The committed OpenAPI document is the one the service generates."""

from __future__ import annotations

import json

from reviewer_app.server.http.openapi import COMMITTED, openapi_text


def test_committed_openapi_document_is_current() -> None:
    assert COMMITTED.exists(), "run `make openapi` to write reviewer_app/protocol/openapi.json"
    committed = COMMITTED.read_text(encoding="utf-8")
    assert committed == openapi_text(), (
        "reviewer_app/protocol/openapi.json is stale: run `make openapi` and commit it"
    )


def test_every_error_response_is_problem_json() -> None:
    doc = json.loads(COMMITTED.read_text(encoding="utf-8"))
    for path, operations in doc["paths"].items():
        for method, operation in operations.items():
            for status, response in operation["responses"].items():
                if int(status) >= 400:
                    assert list(response["content"]) == ["application/problem+json"], (
                        f"{method.upper()} {path} {status}"
                    )
