"""Qt-free client logic: API client, local store, sync engine, credentials.

Imports ``reviewer_app.protocol`` only (checked by import-linter).
"""
