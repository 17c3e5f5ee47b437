"""The table server in rooms: transport, tables, accounts, storage, cluster (docs/architecture.md)."""
