"""The cluster: several processes on one PostgreSQL and one Redis (leases, Redis pub/sub)."""
