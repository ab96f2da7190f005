"""Signing in and out: the instructor with their token, students with the
class code, a name and (signing in again) their personal key."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Depends, Request, Response
from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from satlab.api.auth import (
    KEY_LENGTH,
    KEYS_COOKIE,
    KEYS_COOKIE_PATH,
    KEYS_KEPT,
    KEYS_MAX_AGE_S,
    SESSION_COOKIE,
    SESSION_MAX_AGE_S,
    Principal,
)
from satlab.api.deps import AuthDep, current_principal
from satlab.api.models.common import Message, Refused
from satlab.api.security import client_address
from satlab.api.student_names import name_problem

router = APIRouter(prefix="/auth", tags=["auth"])


def _a_name(name: str) -> str:
    if (problem := name_problem(name)) is not None:
        raise ValueError(problem)
    return name


StudentName = Annotated[str, Field(min_length=1, max_length=200, description="How the instructor sees you: "
                                   "printable text without < or >, at most max_name_chars characters; one "
                                   "student whatever its case."), AfterValidator(_a_name)]


class InstructorSignIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    token: str = Field(min_length=1, max_length=200, description="The instructor's secret token.")


class StudentSignIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    class_code: str = Field(min_length=1, max_length=40, description="The code on the instructor's screen.")
    name: StudentName
    key: str | None = Field(default=None, max_length=40,
                            description="Your personal key, to sign in again with your name from another browser "
                                        "(this browser keeps it; the instructor's page shows it).")


class Me(BaseModel):
    model_config = ConfigDict(json_schema_serialization_defaults_required=True)  # a response: `key` always sent
    role: Literal["instructor", "student", "anonymous"]
    id: str | None
    name: str | None
    open_access: bool = Field(description="True: this server needs no sign-in (bound to loopback, no token).")
    key: str | None = Field(default=None, description="A student's personal key: what signing in again with their "
                                                      "name from another browser needs (note it).")


def _signed_in(request: Request, response: Response, auth: AuthDep, principal: Principal,
               key: str | None = None) -> Me:
    request.state.principal = principal
    auth.end_session(request.cookies.get(SESSION_COOKIE))  # this browser's previous session, if any
    response.set_cookie(SESSION_COOKIE, auth.start_session(principal), max_age=SESSION_MAX_AGE_S, httponly=True,
                        samesite="strict", secure=request.url.scheme == "https", path="/")
    return Me(role=principal.role, id=principal.id, name=principal.name, open_access=auth.open_access, key=key)


def _attempt(request: Request, auth: AuthDep) -> None:
    """The rate limit first: only an attempt within it is recorded (security.Audit)."""
    auth.check_attempt(client_address(request.scope))
    request.state.sign_in_attempt = True


def _kept_keys(request: Request) -> list[str]:
    return [key for key in request.cookies.get(KEYS_COOKIE, "").split(".") if 0 < len(key) <= KEY_LENGTH][:KEYS_KEPT]


@router.get("/me")
def me(auth: AuthDep, principal: Annotated[Principal | None, Depends(current_principal)]) -> Me:
    """Who this session is (anonymous without one); the only route open to everyone."""
    if principal is None:
        return Me(role="anonymous", id=None, name=None, open_access=False)
    student = None if principal.is_instructor else auth.store.get_student(principal.id)
    return Me(role=principal.role, id=principal.id, name=principal.name, open_access=auth.open_access,
              key=None if student is None else student.key)


@router.post("/instructor", responses={401: {"model": Refused}, 429: {"model": Refused}})
def sign_in_instructor(body: InstructorSignIn, request: Request, response: Response, auth: AuthDep) -> Me:
    _attempt(request, auth)
    return _signed_in(request, response, auth, auth.instructor(body.token))


@router.post("/student", responses={401: {"model": Refused}, 409: {"model": Refused}, 429: {"model": Refused}})
def sign_in_student(body: StudentSignIn, request: Request, response: Response, auth: AuthDep) -> Me:
    """A new name makes a new student and their personal key; a name taken
    needs that key (from this browser's cookie, or `key`), else 409."""
    _attempt(request, auth)
    kept = _kept_keys(request)
    principal, key = auth.student(body.class_code, body.name, [*([body.key] if body.key else []), *kept])
    response.set_cookie(KEYS_COOKIE, ".".join(list(dict.fromkeys([key, *kept]))[:KEYS_KEPT]),
                        max_age=KEYS_MAX_AGE_S, httponly=True, samesite="strict",
                        secure=request.url.scheme == "https", path=KEYS_COOKIE_PATH)
    return _signed_in(request, response, auth, principal, key)


@router.post("/logout")
def sign_out(request: Request, response: Response, auth: AuthDep,
             principal: Annotated[Principal | None, Depends(current_principal)]) -> Message:
    """Ends this session on the server: its cookie no longer signs anything in."""
    auth.end_session(request.cookies.get(SESSION_COOKIE))
    response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="strict")
    return Message(message="Signed out.")
