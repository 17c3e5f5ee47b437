"""Placeholder: helper `web` replaces this module with the browser client's extra endpoints."""

from __future__ import annotations

from fastapi import APIRouter

router = APIRouter()
