"""The throwaway PostgreSQL cluster a newcomer's ``make test`` starts when no test server
is named: made, started, served and removed on this machine's real PostgreSQL."""

from __future__ import annotations

import pytest
from sqlalchemy import create_engine, text

from tests.support.pg_cluster import server_bin, throwaway_cluster


@pytest.mark.skipif(server_bin() is None, reason="PostgreSQL's server programs are not here")
def test_a_throwaway_cluster_serves_and_is_removed() -> None:
    cluster = throwaway_cluster()
    assert cluster is not None, "initdb and pg_ctl are here: the cluster must start"
    try:
        url = cluster.url.replace("postgresql://", "postgresql+psycopg://", 1)
        engine = create_engine(url, isolation_level="AUTOCOMMIT")
        with engine.connect() as conn:
            conn.execute(text('CREATE DATABASE "made_here"'))
            names = conn.execute(text("SELECT datname FROM pg_database")).scalars().all()
            superuser = conn.execute(
                text("SELECT rolsuper FROM pg_roles WHERE rolname = current_user")
            ).scalar()
        engine.dispose()
        assert "made_here" in names and superuser is True
    finally:
        cluster.stop()
    assert not cluster.folder.exists()
