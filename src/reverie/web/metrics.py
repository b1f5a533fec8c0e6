"""Prometheus metrics at ``/metrics``: what an operator watches across processes.

Gauges and counters are read from the room service when Prometheus scrapes (no
bookkeeping on the hot path); the one histogram, the time from a command arriving to
its change being handed to every connection of this process, is observed per command.
Each app has its own registry, so several apps in one process (tests) do not clash.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector
from starlette.requests import Request
from starlette.responses import Response

if TYPE_CHECKING:
    from reverie.rooms.listing import Lister
    from reverie.rooms.service import RoomService

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"

#: The counters the room service keeps (``RoomService.stats``), with their help text.
COUNTERS = {
    "actions": "Commands from players carried out.",
    "conflicts": "Writes refused because another process wrote that version first.",
    "catch_ups": "Times a room was brought up to date from the event log.",
    "bus_errors": "Messages or drawings the bus could not send or read.",
    "store_errors": "Writes the event store refused while unavailable.",
    "leases_taken": "Room leases this process took over (timers and bots moved here).",
    "leases_lost": "Room leases this process lost to another.",
    "leases_handed": "Room leases given up to the process holding the room's sockets.",
}


def _listed(state: object) -> bool:
    """A public table still open to players."""
    return (
        bool(getattr(state, "public", False))
        and not getattr(state, "closed", False)
        and getattr(state, "status", "") != "over"
    )


class ServiceCollector(Collector):
    """Reads rooms, sockets and the service's counters at scrape time."""

    def __init__(self, service: RoomService) -> None:
        self.service = service
        #: The open tables this process lists (None: not watched).
        self.lister: Lister | None = None

    def collect(self) -> Iterator[Metric]:
        """The current figures."""
        rooms = self.service.rooms.values()
        yield GaugeMetricFamily("reverie_rooms", "Rooms in this process's memory.", len(rooms))
        yield GaugeMetricFamily(
            "reverie_rooms_leased",
            "Rooms whose timers and bots this process runs.",
            sum(1 for r in rooms if r.leased),
        )
        yield GaugeMetricFamily(
            "reverie_public_tables",
            "Public tables in this process's memory (not over, not closed).",
            sum(1 for r in rooms if _listed(r.state)),
        )
        sockets = sum(sum(r.connections.values()) + r.spectators for r in rooms)
        yield GaugeMetricFamily("reverie_sockets", "Open room WebSockets here.", sockets)
        for name, help_text in COUNTERS.items():
            yield CounterMetricFamily(
                f"reverie_{name}", help_text, value=self.service.stats.get(name, 0)
            )
        removals = CounterMetricFamily(
            "reverie_removals",
            "People removed from a room here: by its host, or by a vote at a public table.",
            labels=["how"],
        )
        for how, count in self.service.removals.items():
            removals.add_metric([how], count)
        yield removals
        yield from self._open()

    def _open(self) -> Iterator[Metric]:
        lister = self.lister
        if lister is None:
            return
        from reverie.rooms.listing import present

        listed = [self.service.rooms[c] for c in lister.listed if c in self.service.rooms]
        yield GaugeMetricFamily(
            "reverie_open_tables",
            "Public tables this process has on the open tables list (every process's "
            "sum is the list).",
            len(listed),
        )
        yield GaugeMetricFamily(
            "reverie_people_waiting",
            "People present in the lobbies of the open tables this process lists.",
            sum(present(live) for live in listed if live.state.status == "lobby"),
        )
        seatings = CounterMetricFamily(
            "reverie_seatings",
            "People play now seated here: at a waiting table, at a table it opened, or queued"
            " for a bot's seat at a running table.",
            labels=["how"],
        )
        for how, count in lister.seatings.items():
            seatings.add_metric([how], count)
        yield seatings


class Metrics:
    """One app's metrics registry."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.fanout = Histogram(
            "reverie_action_fanout_seconds",
            "From a command's arrival to its change reaching this process's connections.",
            buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
            registry=self.registry,
        )
        self.gc_pause = Histogram(
            "reverie_gc_pause_seconds",
            "Garbage-collector passes by generation (2: a full pass over every object).",
            ["generation"],
            buckets=(0.0005, 0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0),
            registry=self.registry,
        )
        self.reports = Counter(
            "reverie_reports", "Reports players sent to the operator.", registry=self.registry
        )
        self._service: ServiceCollector | None = None

    def gc_observer(self, generation: int, seconds: float) -> None:
        """Record one collection (for :class:`reverie.web.gcpolicy.GcWatch`)."""
        self.gc_pause.labels(str(generation)).observe(seconds)

    def watch(self, service: RoomService) -> None:
        """Report ``service``'s rooms and counters."""
        if self._service is not None:
            self.registry.unregister(self._service)
        self._service = ServiceCollector(service)
        self.registry.register(self._service)

    def watch_open(self, lister: Lister) -> None:
        """Report the open tables ``lister`` keeps on the board (after :meth:`watch`)."""
        if self._service is not None:
            self._service.lister = lister

    async def endpoint(self, request: Request) -> Response:
        """``GET /metrics`` in Prometheus's text format."""
        return Response(generate_latest(self.registry), media_type=CONTENT_TYPE)
