"""Every refusal of the API in one shape: FastAPI's 422 `{"detail": [{"loc",
"msg", "type"}]}`, `loc` the field's path in the body and `msg` a sentence
that starts with it; a body over the limit is a 413 with a sentence, refused
before it is read whole (FastAPI's own max_body_size answers "Content Too
Large" in plain text, and replaces any answer to a request whose
Content-Length is over it)."""

from __future__ import annotations

from fastapi import FastAPI, Request, status
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from satlab.scenario import ScenarioError, describe

Detail = list[dict[str, object]]


class BodyTooLarge(Exception):
    def __init__(self, max_bytes: int):
        super().__init__(f"The request body is larger than {max_bytes} bytes, the most the API accepts "
                         "(a scenario takes about 1 kB).")


def _too_large(error: BodyTooLarge) -> JSONResponse:
    return JSONResponse({"detail": str(error)}, status.HTTP_413_CONTENT_TOO_LARGE)


class BodyLimit:
    """A body over max_bytes is refused at once if its Content-Length says
    so, else as soon as the bytes received pass the limit (the route's
    parsing fails with BodyTooLarge, answered by install's handler)."""

    def __init__(self, app: ASGIApp, max_bytes: int):
        self.app, self.max_bytes = app, max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = Headers(scope=scope).get("content-length", "")
        if declared.isdecimal() and int(declared) > self.max_bytes:
            await _too_large(BodyTooLarge(self.max_bytes))(scope, receive, send)
            return
        received = 0

        async def receive_within_limit() -> Message:
            nonlocal received
            message = await receive()
            received += len(message.get("body", b""))
            if received > self.max_bytes:
                raise BodyTooLarge(self.max_bytes)
            return message
        await self.app(scope, receive_within_limit, send)


def _unprocessable(detail: Detail) -> JSONResponse:
    return JSONResponse({"detail": detail}, status.HTTP_422_UNPROCESSABLE_CONTENT)


def scenario_error_detail(error: ScenarioError) -> Detail:
    """One entry per problem: `loc` is the field's path in the scenario (or
    campaign) that the problem's sentence starts with."""
    detail: Detail = []
    for problem in error.problems:
        field, _, _ = problem.partition(": ")
        loc = ["body", *field.split(".")] if field and " " not in field else ["body"]
        detail.append({"loc": loc, "msg": problem, "type": "scenario_error"})
    return detail


def request_error_detail(error: RequestValidationError) -> Detail:
    """FastAPI's own refusals (the body's shape), with sentences like a
    scenario's: the body's fields named as dotted paths."""
    detail: Detail = []
    for problem in error.errors():
        loc = list(problem["loc"])
        if problem["type"] == "json_invalid":
            ctx = problem.get("ctx") or {}
            detail.append({"loc": ["body"], "type": "json_invalid",
                           "msg": f"body: not valid JSON ({ctx.get('error', 'a syntax error')} at character "
                                  f"{loc[1] if len(loc) > 1 else 0})"})
        elif loc[:1] == ["body"] and len(loc) > 1:
            detail.append({"loc": loc, "type": problem["type"],
                           "msg": describe({**problem, "loc": tuple(loc[1:])})})
        else:
            field = ".".join(str(part) for part in loc)
            detail.append({"loc": loc, "type": problem["type"], "msg": f"{field}: {problem['msg']}"})
    return detail


def install(app: FastAPI, max_body_bytes: int) -> None:
    """The handlers that give every refusal its shape, and the body limit."""
    app.add_middleware(BodyLimit, max_bytes=max_body_bytes)

    @app.exception_handler(ScenarioError)
    async def scenario_error(request: Request, error: ScenarioError) -> JSONResponse:
        return _unprocessable(scenario_error_detail(error))

    @app.exception_handler(RequestValidationError)
    async def request_error(request: Request, error: RequestValidationError) -> JSONResponse:
        return _unprocessable(request_error_detail(error))

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, error: HTTPException) -> Response:
        if isinstance(error.__cause__, BodyTooLarge):  # raised while the route read the body
            return _too_large(error.__cause__)
        if error.status_code == status.HTTP_400_BAD_REQUEST and isinstance(error.__cause__, RecursionError):
            # FastAPI's JSON parsing gave up on a body nested too deep for it.
            return _unprocessable([{"loc": ["body"], "type": "json_too_deep",
                                    "msg": "body: nests too deep to parse (a scenario nests 5 levels)"}])
        return await http_exception_handler(request, error)
