"""Keeping a table's dice commitment and checking its log against it (issue 19 §9).

The server publishes a table's commitment, ``sha256(server_seed)``, before any die is rolled: in the
answers of ``POST /api/tables``, the join and play-now (:attr:`Seated.commitment`). A log re-rolled from
another seed carries that seed's own commitment and verifies against itself, so the check that matters is
against the commitment *kept* from before the game: the log must carry it, and its revealed server seed
must hash to it. That is this module (hashlib only: the client never imports the server). Every die is
then checked by ``dicepoker verify LOG --commitment HEX`` (the terminal client runs it at the game's end).
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass

from dicepoker.client.rest import Seated, ServerClient
from dicepoker.core.errors import CorruptLog
from dicepoker.core.log import EventLog


@dataclass(frozen=True, slots=True)
class CommitmentCheck:
    """A finished table's log against the commitment a player kept when joining."""

    kept: str
    logged: str | None
    """The commitment in the log's fairness record (``None``: the log has none)."""
    revealed: str | None
    """SHA-256 of the log's revealed server seed (``None``: not revealed, or not hex)."""

    @property
    def problem(self) -> str | None:
        if self.logged is None:
            return "the log has no fairness record"
        if not _same(self.logged, self.kept):
            return f"the log's commitment {self.logged} is not the one kept when the table was joined ({self.kept})"
        if self.revealed is None:
            return "the log does not reveal a server seed (hex) yet"
        if not _same(self.revealed, self.kept):
            return f"the revealed server seed hashes to {self.revealed}, not to the commitment kept ({self.kept})"
        return None

    @property
    def ok(self) -> bool:
        return self.problem is None


def check_commitment(log_text: str, kept: str) -> CommitmentCheck:
    """Whether ``log_text`` (a dicepoker log or hand history) carries the commitment ``kept`` and reveals
    the seed behind it. Raises :class:`CorruptLog` for a file that is not a log."""
    from dicepoker.games.history.format import is_history, read_history  # only for hand histories

    log = read_history(log_text) if is_history(log_text) else EventLog.from_jsonl(log_text)
    record = log.fairness
    if record is None:
        return CommitmentCheck(kept, None, None)
    revealed: str | None = None
    seed = record.get("server_seed")
    if isinstance(seed, str):
        try:
            revealed = hashlib.sha256(bytes.fromhex(seed)).hexdigest()
        except ValueError:
            revealed = None
    return CommitmentCheck(kept, str(record["commitment"]), revealed)


async def check_table(client: ServerClient, seated: Seated) -> CommitmentCheck:
    """Fetch the finished table's log and check it against the commitment kept from its join."""
    if seated.commitment is None:
        raise CorruptLog("no commitment was kept for this seat (the server's join answer had none)")
    return check_commitment(await client.log(seated.table), seated.commitment)


def _same(a: str, b: str) -> bool:
    return hmac.compare_digest(a.strip().lower().encode(), b.strip().lower().encode())
