"""The schema's migrations (alembic), one file per revision in ``versions/``."""

#: the newest revision in ``versions/``: a service whose database is already there starts
#: without loading alembic and the scripts (tests/server/test_migrations.py holds it to
#: alembic's own answer; a new migration moves it)
HEAD = "0028"
