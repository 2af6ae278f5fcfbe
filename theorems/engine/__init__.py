"""The engine: statements as data, the search, its certification, the ledger, the CLI and the pytest plugin."""
