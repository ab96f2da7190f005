"""Who is asking, and what they may do.

- The instructor signs in with a secret token (SATLAB_INSTRUCTOR_TOKEN, or
  one generated at first start and printed once), kept only as an Argon2 hash
  (argon2-cffi); they see and control everything.
- Students sign in with the class code the instructor shows, and a name; they
  run the presets the instructor enabled, within the quotas of
  satlab.settings.Limits (the instructor may change them, up to their
  ceilings), and see their own runs and those shared with the class.
- Nobody else gets anything but the sign-in routes: 401, with a sentence.
- A server bound to loopback without a token needs no sign-in (open access):
  whoever reaches it acts as the instructor.

A session is a signed cookie (itsdangerous), HttpOnly and SameSite=Strict;
its signing key lives in the store, and changes when the instructor's token
does, which ends every session. Sign-in attempts are rate-limited per client
address (limits).
"""

from __future__ import annotations

import dataclasses
import logging
import secrets
import threading
from dataclasses import dataclass
from typing import Any, Literal

import argon2
from fastapi import HTTPException, status
from itsdangerous import BadSignature, URLSafeTimedSerializer
from limits import RateLimitItemPerMinute
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

from satlab.service.store import Store
from satlab.settings import Limits, Settings

log = logging.getLogger("satlab")

SESSION_COOKIE = "satlab_session"
SESSION_MAX_AGE_S = 12 * 3600  # a school day
# Class codes are read out loud and typed: no 0/O, 1/I/L.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 8

SIGN_IN_FIRST = ("Sign in first: the lab's API needs the instructor's token or the class code "
                 "(POST /api/auth/instructor or POST /api/auth/student).")
INSTRUCTOR_ONLY = "Only the instructor may do this; you are signed in as a student."
WRONG_TOKEN = "That is not the instructor's token."
WRONG_CODE = "That is not the class code: ask the instructor for the one on their screen."
NO_TOKEN_YET = "No instructor token is set: this server runs without sign-in (bound to loopback)."


@dataclass(frozen=True)
class Principal:
    role: Literal["instructor", "student"]
    id: str  # "instructor", "local" (open access) or a student's id: what runs record as their owner
    name: str

    @property
    def is_instructor(self) -> bool:
        return self.role == "instructor"

    @property
    def actor(self) -> str:
        """As the audit trail names them."""
        return self.id if self.is_instructor else f"student {self.name} ({self.id})"


INSTRUCTOR = Principal("instructor", "instructor", "instructor")
LOCAL = Principal("instructor", "local", "this machine's user")


class Auth:
    """The class's secrets (kept in the store) and the sign-in rules."""

    def __init__(self, store: Store, settings: Settings):
        self.store = store
        self._environment_limits, self.ceilings = settings.limits, settings.ceilings
        # What every check reads: the environment's limits with the quotas the instructor set.
        self.limits = self._with_quotas(store.quotas())
        # OWASP's Argon2id minimum (19 MiB, 2 passes, 1 lane): a sign-in costs ~0.1 s of one core, not
        # the library default's 64 MiB on 4 lanes, which a rate-limited guesser could still turn into load.
        self._hasher = argon2.PasswordHasher(time_cost=2, memory_cost=19 * 1024, parallelism=1)
        self.issued_token: str | None = None  # generated at this start: the caller prints it once
        token_hash: str | None = store.get_state("instructor_token_hash")
        if settings.instructor_token is not None:
            if token_hash is None or not self._matches(token_hash, settings.instructor_token):
                token_hash = self._set_token(settings.instructor_token)
        elif token_hash is None and settings.new_token:
            self.issued_token = secrets.token_urlsafe(24)
            token_hash = self._set_token(self.issued_token)
        self._token_hash = token_hash
        self.open_access = settings.open_access and token_hash is None
        self._serializer = URLSafeTimedSerializer(self._state("session_key", lambda: secrets.token_urlsafe(32)),
                                                  salt="satlab-session")
        self._limiter = MovingWindowRateLimiter(MemoryStorage())
        self._login_rate = RateLimitItemPerMinute(self.limits.login_attempts_per_minute)
        # Held while a student's quota is checked and their run submitted, so
        # that concurrent requests cannot all pass the same check.
        self.quota_lock = threading.Lock()

    def _state(self, key: str, make: Any) -> Any:
        value = self.store.get_state(key)
        if value is None:
            value = make()
            self.store.set_state(key, value)
        return value

    def _set_token(self, token: str) -> str:
        token_hash = self._hasher.hash(token)
        self.store.set_state("instructor_token_hash", token_hash)
        self.store.set_state("session_key", secrets.token_urlsafe(32))  # a new token ends every session
        return token_hash

    def _matches(self, token_hash: str, token: str) -> bool:
        try:
            return self._hasher.verify(token_hash, token)
        except argon2.exceptions.VerificationError:
            return False

    # -- signing in ------------------------------------------------------------

    def check_attempt(self, address: str) -> None:
        """429 once address has tried login_attempts_per_minute times in the last minute."""
        if not self._limiter.hit(self._login_rate, "sign-in", address):
            raise HTTPException(status.HTTP_429_TOO_MANY_REQUESTS,
                                detail=f"Too many sign-in attempts from {address}: at most "
                                       f"{self.limits.login_attempts_per_minute} a minute "
                                       "(login_attempts_per_minute); wait a minute.")

    def instructor(self, token: str) -> Principal:
        if self._token_hash is None:
            raise HTTPException(status.HTTP_409_CONFLICT, detail=NO_TOKEN_YET)
        if not self._matches(self._token_hash, token):
            raise HTTPException(status.HTTP_401_UNAUTHORIZED, detail=WRONG_TOKEN)
        return INSTRUCTOR

    def student(self, class_code: str, name: str) -> Principal:
        if not secrets.compare_digest(class_code.strip().upper().encode(), self.class_code.encode()):
            raise HTTPException(status.HTTP_401_UNAUTHORIZED, detail=WRONG_CODE)
        if len(name) > self.limits.max_name_chars:
            raise HTTPException(status.HTTP_422_UNPROCESSABLE_CONTENT,
                                detail=f"name: {len(name)} characters is more than {self.limits.max_name_chars} "
                                       "(max_name_chars).")
        student = Principal("student", f"s{secrets.token_hex(6)}", name)
        self.store.add_student(student.id, name)
        return student

    def session(self, principal: Principal) -> str:
        """The signed cookie value of principal's session."""
        return self._serializer.dumps({"role": principal.role, "id": principal.id})

    def principal(self, cookie: str | None) -> Principal | None:
        """Who the session cookie says (LOCAL with open access); None if
        nobody, or if the cookie is forged, expired or of a removed student."""
        if self.open_access:
            return LOCAL
        if not cookie:
            return None
        try:
            session = self._serializer.loads(cookie, max_age=SESSION_MAX_AGE_S)
        except BadSignature:
            return None
        if session.get("role") == "instructor":
            return INSTRUCTOR
        student = self.store.get_student(str(session.get("id")))
        return None if student is None else Principal("student", student.student_id, student.name)

    # -- the class -------------------------------------------------------------

    @property
    def class_code(self) -> str:
        code: str = self._state("class_code", self._new_code)
        return code

    def new_class_code(self) -> str:
        """A new code; students signed in keep their sessions."""
        code = self._new_code()
        self.store.set_state("class_code", code)
        return code

    @staticmethod
    def _new_code() -> str:
        return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))

    @property
    def enabled_labs(self) -> list[str] | None:
        """The presets students may run; None: every preset."""
        labs: list[str] | None = self.store.get_state("enabled_labs")
        return labs

    def set_enabled_labs(self, labs: list[str] | None) -> None:
        self.store.set_state("enabled_labs", labs)

    # -- the quotas --------------------------------------------------------------

    def _with_quotas(self, quotas: dict[str, int]) -> Limits:
        """The environment's limits with the quotas set, each within its
        ceiling (which the environment may have lowered since)."""
        return dataclasses.replace(self._environment_limits, **{
            name: min(value, self.ceilings[name]) for name, value in quotas.items() if name in self.ceilings})

    def quotas(self) -> list[dict[str, Any]]:
        """Each quota: its value now, the environment's (default) and its ceiling."""
        return [{**limit, "default": getattr(self._environment_limits, limit["name"]),
                 "ceiling": self.ceilings[limit["name"]]}
                for limit in self.limits.table() if limit["name"] in self.ceilings]

    def set_quotas(self, values: dict[str, int]) -> dict[str, tuple[int, int]]:
        """Set quotas (each within its ceiling: the caller checks); those back
        at the environment's value are forgotten, so that a later change of
        the environment applies to them. What changed: name -> (old, new)."""
        with self.quota_lock:  # one change at a time, and none in the middle of a student's start
            changes = {name: (getattr(self.limits, name), value) for name, value in values.items()
                       if getattr(self.limits, name) != value}
            self.store.set_quotas({name: None if new == getattr(self._environment_limits, name) else new
                                   for name, (_, new) in changes.items()})
            self.limits = self._with_quotas(self.store.quotas())
        return changes
