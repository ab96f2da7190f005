"""Every refusal of the API in one shape: FastAPI's 422 `{"detail": [{"loc",
"msg", "type"}]}`, `loc` the field's path in the body and `msg` a sentence
that starts with it; a body larger than the app's max_body_size is a 413
with a sentence, refused before it is read whole."""

from __future__ import annotations

from fastapi import FastAPI, Request, status
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException
from starlette.middleware.body_limit import MAX_BODY_SIZE_SCOPE_KEY

from satlab.scenario import ScenarioError, describe

Detail = list[dict[str, object]]


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


def install(app: FastAPI) -> None:
    """The handlers that give every refusal its shape."""

    @app.exception_handler(ScenarioError)
    async def scenario_error(request: Request, error: ScenarioError) -> JSONResponse:
        return _unprocessable(scenario_error_detail(error))

    @app.exception_handler(RequestValidationError)
    async def request_error(request: Request, error: RequestValidationError) -> JSONResponse:
        return _unprocessable(request_error_detail(error))

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, error: HTTPException) -> Response:
        if error.status_code == status.HTTP_413_CONTENT_TOO_LARGE:
            limit = request.scope.get(MAX_BODY_SIZE_SCOPE_KEY)
            return JSONResponse({"detail": f"The request body is larger than {limit} bytes, the most the API "
                                           "accepts (a scenario takes about 1 kB)."}, error.status_code)
        if error.status_code == status.HTTP_400_BAD_REQUEST and isinstance(error.__cause__, RecursionError):
            # FastAPI's JSON parsing gave up on a body nested too deep for it.
            return _unprocessable([{"loc": ["body"], "type": "json_too_deep",
                                    "msg": "body: nests too deep to parse (a scenario nests 5 levels)"}])
        return await http_exception_handler(request, error)
