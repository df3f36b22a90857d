"""The committed OpenAPI document of the wire contract, generated from the service."""

from __future__ import annotations

import json
from pathlib import Path

COMMITTED = Path(__file__).resolve().parents[2] / "protocol" / "openapi.json"


def openapi_text() -> str:
    from reviewer_app.server.config import ServerSettings
    from reviewer_app.server.http.app import create_app

    app = create_app(ServerSettings(database_url="sqlite:///:memory:"))
    return json.dumps(app.openapi(), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    COMMITTED.write_text(openapi_text(), encoding="utf-8")
    print(f"wrote {COMMITTED}")
