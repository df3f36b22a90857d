"""PySide6 widgets and models of the desktop client. Never imports ``server``."""
