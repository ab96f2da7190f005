"""Every refusal of the API in one shape: `{"detail": [{"loc", "msg",
"type"}]}`, FastAPI's own for a 422, with a 4xx (or 507) status. `loc` is
the field's path in the request (`["body", "flows", "0", "size_bytes"]`,
`["query", "offset"]`), or `["request"]` for a refusal of the request as a
whole (sign in first, not found, too many now); `msg` a sentence that
starts with the field's dotted path when there is one; `type` what kind of
refusal it is (the HTTP status's name in snake case, or the check's).

A body over the limit is a 413, refused before it is read whole (FastAPI's
own max_body_size answers "Content Too Large" in plain text, and replaces
any answer to a request whose Content-Length is over it); a body that is
not JSON, not UTF-8 or nested too deep is a 422 on `["body"]`. No answer a
student sees names a directory of the server: scenario problems name trace
files relative to the labs directory (`labs/nothere.txt`).
"""

from __future__ import annotations

from collections.abc import Sequence
from http import HTTPStatus
from pathlib import Path

from fastapi import FastAPI, Request, status
from fastapi import HTTPException as FastAPIHTTPException
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from satlab.scenario import ScenarioError, describe
from satlab.service.admission import RefusalKind, Refused
from satlab.tools import REPO

Detail = list[dict[str, object]]
# loc of a refusal that concerns no one field.
WHOLE_REQUEST = ("request",)
# An admission refusal's status: never as asked, a field too large, a count full now, the database full.
REFUSAL_STATUS: dict[RefusalKind, int] = {"not_allowed": status.HTTP_403_FORBIDDEN,
                                          "too_large": status.HTTP_422_UNPROCESSABLE_CONTENT,
                                          "too_many_now": status.HTTP_429_TOO_MANY_REQUESTS,
                                          "storage_full": status.HTTP_507_INSUFFICIENT_STORAGE}


def kind_of(status_code: int) -> str:
    """A status's name as a refusal's type: 404 -> not_found."""
    try:
        return HTTPStatus(status_code).phrase.lower().replace(" ", "_").replace("-", "_")
    except ValueError:
        return "refused"


def problem(msg: str, loc: Sequence[str | int] = WHOLE_REQUEST, kind: str = "refused") -> dict[str, object]:
    return {"loc": list(loc), "msg": msg, "type": kind}


class Refusal(FastAPIHTTPException):
    """A refusal with the field it is about: HTTPException(status_code,
    detail=[one problem]); a plain HTTPException's sentence gets loc
    ["request"] (install's handler)."""

    def __init__(self, status_code: int, msg: str, loc: Sequence[str | int] = WHOLE_REQUEST,
                 kind: str | None = None, headers: dict[str, str] | None = None):
        super().__init__(status_code, detail=[problem(msg, loc, kind or kind_of(status_code))], headers=headers)


def detail_of(error: HTTPException) -> Detail:
    """error's detail in the one shape (a sentence becomes one problem on the whole request)."""
    if isinstance(error.detail, list):
        return error.detail
    return [problem(str(error.detail), WHOLE_REQUEST, kind_of(error.status_code))]


def refusal_response(status_code: int, detail: Detail, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"detail": detail}, status_code, headers=headers)


def field_loc(field: str) -> list[str | int]:
    """A dotted field path of the body as a loc: flows.0.size_bytes -> ["body", "flows", "0", "size_bytes"]."""
    return ["body", *field.split(".")] if field else ["body"]


class BodyTooLarge(Exception):
    def __init__(self, max_bytes: int):
        super().__init__(f"body: larger than {max_bytes} bytes, the most the API accepts (max_request_bytes; a "
                         "scenario takes about 1 kB)")


def _too_large(error: BodyTooLarge) -> JSONResponse:
    return refusal_response(status.HTTP_413_CONTENT_TOO_LARGE, [problem(str(error), ["body"], "content_too_large")])


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


class ServerPaths:
    """Directories of the server, as a student may see them: the labs
    directory as `labs`, the repository's other files relative to it."""

    def __init__(self, labs_dir: Path):
        self.replacements = sorted({(str(directory), shown) for path, shown in ((labs_dir, "labs"), (REPO, "."))
                                    for directory in {path, path.resolve()}},
                                   key=lambda pair: -len(pair[0]))

    def hidden(self, text: str) -> str:
        for directory, shown in self.replacements:
            text = text.replace(f"{directory}/", f"{shown}/").replace(directory, shown)
        return text


def scenario_error_detail(error: ScenarioError, paths: ServerPaths | None = None) -> Detail:
    """One entry per problem: `loc` is the field's path in the scenario (or
    campaign) that the problem's sentence starts with."""
    detail: Detail = []
    for sentence in error.problems:
        if paths is not None:
            sentence = paths.hidden(sentence)
        field, _, _ = sentence.partition(": ")
        is_field = bool(field) and " " not in field and "/" not in field
        detail.append(problem(sentence, field_loc(field) if is_field else ["body"], "scenario_error"))
    return detail


def request_error_detail(error: RequestValidationError) -> Detail:
    """FastAPI's own refusals (the body's shape), with sentences like a
    scenario's: the body's fields named as dotted paths."""
    detail: Detail = []
    for found in error.errors():
        loc = list(found["loc"])
        if found["type"] == "json_invalid":
            ctx = found.get("ctx") or {}
            detail.append(problem(f"body: not valid JSON ({ctx.get('error', 'a syntax error')} at character "
                                  f"{loc[1] if len(loc) > 1 else 0})", ["body"], "json_invalid"))
        elif loc[:1] == ["body"] and len(loc) > 1:
            detail.append(problem(describe({**found, "loc": tuple(loc[1:])}), loc, found["type"]))
        else:
            field = ".".join(str(part) for part in loc)
            detail.append(problem(f"{field}: {found['msg']}", loc, found["type"]))
    return detail


def _unparsable_body(cause: BaseException | None) -> Detail | None:
    """Why FastAPI could not read a body as JSON (its 400), as a 422's detail."""
    if isinstance(cause, UnicodeDecodeError):
        return [problem(f"body: not UTF-8 text (byte {cause.start} is 0x{cause.object[cause.start]:02x}); JSON "
                        "is UTF-8", ["body"], "json_invalid")]
    if isinstance(cause, RecursionError):  # FastAPI's JSON parsing gave up on a body nested too deep for it
        return [problem("body: nests too deep to parse (a scenario nests 5 levels)", ["body"], "json_too_deep")]
    if cause is not None:
        return [problem("body: cannot be read as JSON", ["body"], "json_invalid")]
    return None


def install(app: FastAPI, max_body_bytes: int, labs_dir: Path) -> None:
    """The handlers that give every refusal its shape, and the body limit."""
    app.add_middleware(BodyLimit, max_bytes=max_body_bytes)
    paths = ServerPaths(labs_dir)

    @app.exception_handler(ScenarioError)
    async def scenario_error(request: Request, error: ScenarioError) -> JSONResponse:
        return refusal_response(status.HTTP_422_UNPROCESSABLE_CONTENT, scenario_error_detail(error, paths))

    @app.exception_handler(Refused)
    async def refused(request: Request, error: Refused) -> JSONResponse:
        return refusal_response(REFUSAL_STATUS[error.kind], [
            problem(paths.hidden(found.sentence), field_loc(found.field) if found.field else WHOLE_REQUEST, error.kind)
            for found in error.problems])

    @app.exception_handler(RequestValidationError)
    async def request_error(request: Request, error: RequestValidationError) -> JSONResponse:
        return refusal_response(status.HTTP_422_UNPROCESSABLE_CONTENT, request_error_detail(error))

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, error: HTTPException) -> JSONResponse:
        if isinstance(error.__cause__, BodyTooLarge):  # raised while the route read the body
            return _too_large(error.__cause__)
        if error.status_code == status.HTTP_400_BAD_REQUEST and (unparsable := _unparsable_body(error.__cause__)):
            return refusal_response(status.HTTP_422_UNPROCESSABLE_CONTENT, unparsable)
        return refusal_response(error.status_code, detail_of(error),
                                headers=None if error.headers is None else dict(error.headers))
