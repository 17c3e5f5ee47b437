"""The error answers in the OpenAPI document (issue 19, item 12).

Every refusal is ``{"detail": "reason"}`` (:mod:`.app` maps each error to it), but FastAPI documents only
its own 422 shape (``HTTPValidationError``, which this server never sends) and none of the 400, 404, 409,
413 and 429 answers. :func:`document_errors` rewrites the generated document once: one ``ErrorBody``
schema, and on each operation the refusals it can give, from what the routes and the service raise.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from pydantic import BaseModel

ERROR_REF = {"$ref": "#/components/schemas/ErrorBody"}
WHY = {
    400: "Malformed request, or a Host name this server does not answer to.",
    404: "No such table (or seat, or hand history for this game).",
    409: "Conflict: the seat is taken, the table is busy or not in the state this needs.",
    413: "The request body is larger than the server's limit.",
    422: "The input does not validate (the reason names the field).",
    429: "Too many requests from this address (when the server sets a rate limit); see Retry-After.",
}
CONFLICTS = {
    ("post", "/api/tables/{table_id}/join"),
    ("post", "/api/play-now"),
    ("post", "/api/tables/{table_id}/rematch"),
    ("get", "/api/tables/{table_id}/log"),
}


class ErrorBody(BaseModel):
    """Every 4xx and 5xx answer of the server."""

    detail: str


def statuses(method: str, path: str, *, has_input: bool = True) -> list[int]:
    """The refusals an operation can answer with."""
    codes = [400, 422] if has_input else [400]
    if "{table_id}" in path:
        codes.append(404)
    if (method, path) in CONFLICTS:
        codes.append(409)
    if method == "post":
        codes += [413, 429]
    return sorted(codes)


def document_errors(app: FastAPI) -> None:
    """Make ``app.openapi()`` describe the error answers (generated once, on first use)."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is not None:
            return app.openapi_schema
        schema = get_openapi(
            title=app.title, version=app.version, summary=app.summary, description=app.description, routes=app.routes
        )
        schemas = schema.setdefault("components", {}).setdefault("schemas", {})
        schemas["ErrorBody"] = ErrorBody.model_json_schema()
        for name in ("HTTPValidationError", "ValidationError"):  # shapes this server never sends
            schemas.pop(name, None)
        for path, operations in schema.get("paths", {}).items():
            for method, operation in operations.items():
                responses = operation.setdefault("responses", {})
                has_input = "parameters" in operation or "requestBody" in operation
                for code in statuses(method, path, has_input=has_input):
                    responses[str(code)] = {
                        "description": WHY[code],
                        "content": {"application/json": {"schema": ERROR_REF}},
                    }
        app.openapi_schema = schema
        return schema

    app.openapi = openapi  # type: ignore[method-assign]
