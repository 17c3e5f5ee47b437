"""The table server: tables, lobby, clocks, fairness, persistence and the ASGI app (issue 9)."""
