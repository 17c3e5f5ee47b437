"""Server messages meant for people count seats from 1 (issue 21 §4: "Join: seat 1 is taken" for seat 2); the
protocol's seat numbers stay 0-based on the wire."""

from __future__ import annotations

import pytest

from dicepoker.server.errors import Conflict
from dicepoker.server.storage.records import MemoryStorage
from tests.server.conftest import FakeClock, new_service, run


def test_cm1_a_taken_seat_is_named_as_people_count() -> None:
    """CM-1: joining seat 1 (the wire's number) when it is taken says "seat 2 is taken"."""

    async def main() -> None:
        service = new_service(MemoryStorage(), FakeClock())
        await service.start(scheduler=False)
        table_id = str((await service.create_table("scorecard", {"players": 3}, ["open", "open", "open"], None))["id"])
        await service.join(table_id, 1, "ann")
        with pytest.raises(Conflict, match=r"^seat 2 is taken$"):
            await service.join(table_id, 1, "bob")
        summary = await service.summary(table_id)
        assert summary["seats"][1]["name"] == "ann"  # type: ignore[index]  # the refused join changed nothing

    run(main())
