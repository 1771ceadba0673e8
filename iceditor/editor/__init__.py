"""The PySide6 editor: it draws and edits; every answer it shows comes from `engine`."""
