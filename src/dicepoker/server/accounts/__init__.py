"""Optional player accounts (issue 20): names, passwords, sessions and the sign-in guard, without transport.

The HTTP routes over this package are in :mod:`dicepoker.server.transport.account_routes`; ``docs/accounts.md`` has the
threat model and the numbers (durations, limits).
"""
