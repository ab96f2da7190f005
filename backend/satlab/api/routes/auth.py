"""Signing in and out: the instructor with their token, students with the class code."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Depends, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from satlab.api.auth import SESSION_COOKIE, SESSION_MAX_AGE_S, Principal
from satlab.api.deps import AuthDep, current_principal
from satlab.api.models.common import Message
from satlab.api.security import client_address

router = APIRouter(prefix="/auth", tags=["auth"])


class InstructorSignIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    token: str = Field(min_length=1, max_length=200, description="The instructor's secret token.")


class StudentSignIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    class_code: str = Field(min_length=1, max_length=40, description="The code on the instructor's screen.")
    name: str = Field(min_length=1, max_length=200, pattern=r"\S",
                      description="How the instructor sees you (max_name_chars).")


class Me(BaseModel):
    role: Literal["instructor", "student", "anonymous"]
    id: str | None
    name: str | None
    open_access: bool = Field(description="True: this server needs no sign-in (bound to loopback, no token).")


def _signed_in(request: Request, response: Response, auth: AuthDep, principal: Principal) -> Me:
    request.state.principal = principal
    response.set_cookie(SESSION_COOKIE, auth.session(principal), max_age=SESSION_MAX_AGE_S, httponly=True,
                        samesite="strict", secure=request.url.scheme == "https", path="/")
    return Me(role=principal.role, id=principal.id, name=principal.name, open_access=auth.open_access)


@router.get("/me")
def me(auth: AuthDep, principal: Annotated[Principal | None, Depends(current_principal)]) -> Me:
    """Who this session is (anonymous without one); the only route open to everyone."""
    if principal is None:
        return Me(role="anonymous", id=None, name=None, open_access=False)
    return Me(role=principal.role, id=principal.id, name=principal.name, open_access=auth.open_access)


@router.post("/instructor", responses={401: {"model": Message}, 429: {"model": Message}})
def sign_in_instructor(body: InstructorSignIn, request: Request, response: Response, auth: AuthDep) -> Me:
    auth.check_attempt(client_address(request.scope))
    return _signed_in(request, response, auth, auth.instructor(body.token))


@router.post("/student", responses={401: {"model": Message}, 429: {"model": Message}})
def sign_in_student(body: StudentSignIn, request: Request, response: Response, auth: AuthDep) -> Me:
    auth.check_attempt(client_address(request.scope))
    return _signed_in(request, response, auth, auth.student(body.class_code, body.name.strip()))


@router.post("/logout")
def sign_out(response: Response, principal: Annotated[Principal | None, Depends(current_principal)]) -> Message:
    response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="strict")
    return Message(message="Signed out.")
