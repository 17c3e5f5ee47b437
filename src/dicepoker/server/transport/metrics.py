"""Prometheus metrics of one app (a registry per app, so that tests and several apps do not collide)."""

from __future__ import annotations

from collections.abc import Callable

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest

LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)


class ServerMetrics:
    def __init__(self, count_tables: Callable[[], dict[str, int]] | None = None) -> None:
        self.registry = CollectorRegistry()
        self.count_tables = count_tables
        self.tables = Gauge("dicepoker_tables", "Tables by status", ["status"], registry=self.registry)
        self.connections = Gauge(
            "dicepoker_connections", "Open WebSocket connections", ["role"], registry=self.registry
        )
        self.actions = Counter(
            "dicepoker_actions", "Actions sent by clients, by outcome", ["outcome"], registry=self.registry
        )
        self.latency = Histogram(
            "dicepoker_action_latency_seconds",
            "From an action's arrival to its durable commit and broadcast",
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )

    # the service's Metrics protocol
    def accepted(self, seconds: float) -> None:
        self.actions.labels("accepted").inc()
        self.latency.observe(seconds)

    def rejected(self, kind: str) -> None:
        self.actions.labels(f"rejected_{kind}").inc()

    def render(self) -> bytes:
        if self.count_tables is not None:
            for status, count in self.count_tables().items():
                self.tables.labels(status).set(count)
        return generate_latest(self.registry)
