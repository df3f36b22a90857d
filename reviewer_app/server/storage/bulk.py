"""Set-based statements for batches: one statement per batch, not one per row.

On PostgreSQL a batch's rows go as one JSON array of objects, spread back into typed rows
by ``json_to_recordset``: ``INSERT ... SELECT FROM json_to_recordset(...)`` and
``UPDATE ... FROM json_to_recordset(...)``; lists of keys go as an array, ``= ANY(:ids)``
instead of ``IN (a, b, ...)``. The statement's text is the same whatever the batch size,
so psycopg parses it once and prepares it (an ``IN`` list or a multi-row ``VALUES`` is a
new text for each size, parsed in Python every time), and a batch of 200 rows is one round
trip and one plan instead of 200 pipelined statements, each with its parameters converted
in Python. (JSON rather than one array per column: orjson encodes in Rust, while psycopg
escapes each element of a text array in Python, slow for long texts such as payloads.)

On SQLite (in process: no round trips) the same calls run sqlite3's ``executemany`` with
plain positional parameters (no per-row work in SQLAlchemy), an insert that returns what
it inserted a multi-row ``INSERT ... RETURNING``, and lists of keys expanding ``IN``.

The statements are built once per (table, columns) and kept (see assembly.py on why).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import orjson
from sqlalchemy import BindParameter, Column, Connection, Float, Table, any_, bindparam, text
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.sql.elements import ColumnElement

_PG = postgresql.dialect()
_LITE = sqlite.dialect()
_SQLITE_VARIABLES = 32_766
"""SQLite's most parameters in one statement (SQLITE_MAX_VARIABLE_NUMBER since 3.32)."""
_SQLITE_ROWS = 500


def any_of(column: Column[Any], postgres: bool, name: str = "ids") -> ColumnElement[bool]:
    """``column IN :name`` (a list): ``= ANY(array)`` on PostgreSQL, an expanding ``IN``
    on SQLite."""
    if postgres:
        array: BindParameter[Any] = bindparam(name, type_=postgresql.ARRAY(column.type))
        return column == any_(array)
    return column.in_(bindparam(name, expanding=True))


def rows_json(
    param: str, names: Sequence[str], rows: Sequence[Mapping[str, Any]]
) -> dict[str, str]:
    """The rows as one JSON array of objects (the parameter ``param`` of a ``recordset``):
    encoded by orjson, decoded in C by PostgreSQL (psycopg's text arrays escape each element
    in Python, slow for long texts). A string that is not Unicode (a lone surrogate) is
    refused here, as PostgreSQL would refuse its escape."""
    rows_as_objects = [{n: r.get(n) for n in names} for r in rows]
    return {param: orjson.dumps(rows_as_objects, option=orjson.OPT_NON_STR_KEYS).decode()}


def _tuples(names: Sequence[str], rows: Sequence[Mapping[str, Any]]) -> list[tuple[Any, ...]]:
    """Positional parameters for sqlite3's own ``executemany`` (SQLAlchemy's per-row
    processing of a compiled statement's parameters cost more than the statement)."""
    return [tuple(r.get(n) for n in names) for r in rows]


def recordset(table: Table, names: Sequence[str], param: str = "rows") -> str:
    """``json_to_recordset`` of the parameter ``param`` (``rows_json``) as typed rows ``v``
    with the columns ``names`` of ``table`` (PostgreSQL)."""
    columns = ", ".join(f"{n} {table.c[n].type.compile(dialect=_PG)}" for n in names)
    return f"json_to_recordset(CAST(:{param} AS json)) AS v({columns})"


class InsertMany:
    """Insert rows (dicts with ``columns``), skipping those that conflict with a unique
    key when ``ignore_conflicts`` (a replay), and returning ``returning`` of the rows
    inserted.

    With ``key`` (a column unique among the rows of one call) the ``returning`` values
    come back in the rows' order, each matched to its row by the key: neither database
    promises the order of ``RETURNING``, and asking SQLAlchemy to sort them costs one
    statement per row on SQLite."""

    def __init__(
        self,
        table: Table,
        columns: Sequence[str],
        *,
        returning: str | None = None,
        ignore_conflicts: bool = True,
        key: str | None = None,
    ) -> None:
        self.table = table
        self.columns = tuple(columns)
        self.returning = returning
        self.key = key
        assert key is None or (returning is not None and key in self.columns)
        names = ", ".join(self.columns)
        # names from the table's own metadata (table.c[...] refuses any other), no input
        source = recordset(table, columns)
        pg = f"INSERT INTO {table.name} ({names}) SELECT {names} FROM {source}"  # noqa: S608
        if ignore_conflicts:
            pg += " ON CONFLICT DO NOTHING"
        if returning is not None:
            pg += f" RETURNING {returning}" + (f", {key}" if key else "")
        self._pg = text(pg)
        lite: Any = sqlite.insert(table)
        if ignore_conflicts:
            lite = lite.on_conflict_do_nothing()
        if returning is not None:
            lite = lite.returning(table.c[returning], *([table.c[key]] if key is not None else []))
        self._sqlite = lite
        marks = ", ".join("?" for _ in self.columns)
        self._sqlite_many = f"INSERT INTO {table.name} ({names}) VALUES ({marks})"  # noqa: S608
        if ignore_conflicts:
            self._sqlite_many += " ON CONFLICT DO NOTHING"
        # with returning: one multi-row VALUES per part, its text the same for a part's size
        self._sqlite_head = f"INSERT INTO {table.name} ({names}) VALUES "  # noqa: S608
        self._sqlite_row = f"({marks})"
        self._sqlite_tail = (" ON CONFLICT DO NOTHING" if ignore_conflicts else "") + (
            f" RETURNING {returning}" + (f", {key}" if key else "") if returning else ""
        )
        self._sqlite_part = max(1, min(_SQLITE_ROWS, _SQLITE_VARIABLES // len(self.columns)))
        # plain only where SQLAlchemy would not change a value (a FLOAT column's REAL
        # affinity makes a float of an int, as its to_float would)
        lite_types = [table.c[c].type for c in self.columns]
        self._sqlite_raw = all(
            isinstance(t, Float) or t.bind_processor(_LITE) is None for t in lite_types
        )

    def __call__(
        self, conn: Connection, rows: Sequence[Mapping[str, Any]], postgres: bool
    ) -> list[Any]:
        """The ``returning`` values of the rows inserted (empty without ``returning``)."""
        if not rows:
            return []
        if self.key is not None and len({r[self.key] for r in rows}) < len(rows):
            # a key twice: rows one at a time (each alone is unique)
            return [value for r in rows for value in self(conn, [r], postgres)]
        result: Iterable[Any]
        if postgres:
            result = conn.execute(self._pg, rows_json("rows", self.columns, rows))
        elif self.returning is None:
            conn.exec_driver_sql(self._sqlite_many, _tuples(self.columns, rows))
            return []
        elif self._sqlite_raw:
            result = self._sqlite_returning(conn, rows)
        else:
            result = conn.execute(self._sqlite, list(rows))
        if self.key is not None:
            found = {k: value for value, k in result}
            return [found[r[self.key]] for r in rows]
        return [row[0] for row in result] if self.returning is not None else []

    def _sqlite_returning(self, conn: Connection, rows: Sequence[Mapping[str, Any]]) -> list[Any]:
        """A multi-row ``INSERT ... RETURNING`` per part of the rows, its parameters plain
        (SQLAlchemy's insertmanyvalues processed each row's parameters in Python, which cost
        about as much as the insert)."""
        out: list[Any] = []
        for start in range(0, len(rows), self._sqlite_part):
            part = rows[start : start + self._sqlite_part]
            values = ", ".join([self._sqlite_row] * len(part))
            flat = tuple(r.get(n) for r in part for n in self.columns)
            sql = self._sqlite_head + values + self._sqlite_tail
            out += conn.exec_driver_sql(sql, flat).all()
        return out


class UpdateMany:
    """Set ``columns`` of the rows whose ``key`` is given, each row its own values: rows
    are dicts with the key and the columns. With ``unless_set``, only rows whose column of
    that name is still NULL are changed."""

    def __init__(
        self, table: Table, key: str, columns: Sequence[str], *, unless_set: str | None = None
    ) -> None:
        self.table = table
        self.key = key
        self.columns = tuple(columns)
        names = (key, *self.columns)
        sets = ", ".join(f"{c} = v.{c}" for c in self.columns)
        guard = f" AND {table.name}.{table.c[unless_set].name} IS NULL" if unless_set else ""
        self._pg = text(
            f"UPDATE {table.name} SET {sets} FROM {recordset(table, names)} "  # noqa: S608
            f"WHERE {table.name}.{key} = v.{key}{guard}"
        )
        sets = ", ".join(f"{c} = ?" for c in self.columns)
        guard = f" AND {unless_set} IS NULL" if unless_set else ""
        self._sqlite = f"UPDATE {table.name} SET {sets} WHERE {key} = ?{guard}"  # noqa: S608

    def __call__(self, conn: Connection, rows: Sequence[Mapping[str, Any]], postgres: bool) -> int:
        """The number of rows changed."""
        if not rows:
            return 0
        if postgres:
            result = conn.execute(self._pg, rows_json("rows", (self.key, *self.columns), rows))
        else:
            result = conn.exec_driver_sql(self._sqlite, _tuples((*self.columns, self.key), rows))
        return int(result.rowcount)


__all__ = ["InsertMany", "UpdateMany", "any_of"]
