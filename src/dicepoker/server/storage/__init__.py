"""Storage: the protocol and its memory and SQL implementations, the schema and its migrations."""
