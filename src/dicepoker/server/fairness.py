"""TEMPORARY stand-in for helper `fair`'s module (same interface as the contract); replaced on merge.

Dice of online tables: HMAC-SHA256(server seed, client seeds || counter), unbiased by rejection.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import random
import secrets
from collections.abc import Sequence

from dicepoker.core.types import JSON

SCHEME = "hmac-sha256-v1"


def new_server_seed() -> bytes:
    return secrets.token_bytes(32)


def commitment(server_seed: bytes) -> str:
    return hashlib.sha256(server_seed).hexdigest()


class FairRandom(random.Random):
    """A ``random.Random`` whose every bit comes from HMAC-SHA256(server_seed, client seeds || counter)."""

    def __init__(self, server_seed: bytes, client_seeds: Sequence[str] = (), counter: int = 0) -> None:
        self._key = bytes(server_seed)
        self._prefix = json.dumps(list(client_seeds), separators=(",", ":")).encode()
        self._counter = counter
        super().__init__()

    def seed(self, *args: object, **kwargs: object) -> None:  # the stream is fixed by the seeds alone
        return None

    @property
    def counter(self) -> int:
        return self._counter

    def _block(self) -> int:
        message = self._prefix + b"|" + str(self._counter).encode()
        self._counter += 1
        return int.from_bytes(hmac.new(self._key, message, hashlib.sha256).digest(), "big")

    def getrandbits(self, k: int, /) -> int:
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        value, bits = 0, 0
        while bits < k:
            value = (value << 256) | self._block()
            bits += 256
        return value >> (bits - k)

    def random(self) -> float:
        return self.getrandbits(53) / (1 << 53)


def fairness_header(server_seed: bytes | None, client_seeds: Sequence[str], commitment: str) -> dict[str, JSON]:
    return {
        "scheme": SCHEME,
        "commitment": commitment,
        "client_seeds": list(client_seeds),
        "server_seed": None if server_seed is None else server_seed.hex(),
    }
