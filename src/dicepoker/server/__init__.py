"""The table server in four rooms: transport, tables, storage, cluster (docs/architecture.md, "The server's rooms")."""
