"""The table service: tables, seats, the dealer, clocks, fairness and pub/sub (no transport, no I/O of its own)."""
