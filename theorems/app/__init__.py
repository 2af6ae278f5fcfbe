"""Local shim (not for commit): the installed entry point names theorems.app.plugin, which main has."""
