"""Who is asking, and what they may do.

- The instructor signs in with a secret token (SATLAB_INSTRUCTOR_TOKEN, or
  one generated at first start and printed once), kept only as an Argon2 hash
  (argon2-cffi); they see and control everything.
- Students sign in with the class code the instructor shows, and a name
  (student_names.py); they run the presets the instructor enabled, within
  the quotas of satlab.settings.Limits (the instructor may change them, up
  to their ceilings), and see their own runs and those shared with the class.
- Nobody else gets anything but the sign-in routes: 401, with a sentence.
- A server bound to loopback without a token needs no sign-in (open access):
  whoever reaches it acts as the instructor.

A student is a person, and their quotas are theirs: a name is one student
of the class whatever its case, and signing in again with it continues
that student, if the browser shows their personal key. The key is made at
their first sign-in, returned to them, and kept by their browser in an
HttpOnly cookie read by the sign-in routes only; from another browser they
type it (the instructor's page shows every student's key, and makes a new
one). Without the key a taken name is refused, so another person cannot
take a classmate's runs, quota or identity by typing their name; the
instructor can rename and remove students (which ends their sessions).
Why a key rather than the name alone: the class code is shared by the whole
room, so a name alone would let anyone in it act as anyone else; a key the
browser keeps costs the student nothing on their own machine, and the
instructor can always read it out when they change machines.

A session is a row of the store (sessions.py there): the cookie holds a
random token, HttpOnly and SameSite=Strict; every request looks it up, so
signing out, the removal of a student, or a new instructor token ends it at
once, and it expires after SESSION_MAX_AGE_S. Sign-in attempts are
rate-limited per client address (limits) before anything is written.
"""

from __future__ import annotations

import dataclasses
import hashlib
import secrets
import threading
import time
from dataclasses import dataclass
from typing import Any, Literal

import argon2
from fastapi import status
from limits import RateLimitItemPerMinute
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

from satlab.api.errors import Refusal
from satlab.api.student_names import name_key, tidy
from satlab.service.admission import Caller, Policy
from satlab.service.store import Store, StudentRow
from satlab.settings import Limits, Settings

SESSION_COOKIE = "satlab_session"
SESSION_MAX_AGE_S = 12 * 3600  # a school day
# The personal keys this browser was given (a shared lab machine holds a few), read by the sign-in routes only.
KEYS_COOKIE = "satlab_student_keys"
KEYS_COOKIE_PATH = "/api/auth"
KEYS_MAX_AGE_S = 365 * 86400
KEYS_KEPT = 8
# Class codes and keys are read out loud and typed: no 0/O, 1/I/L.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 8
KEY_LENGTH = 10

SIGN_IN_FIRST = ("Sign in first: the lab's API needs the instructor's token or the class code "
                 "(POST /api/auth/instructor or POST /api/auth/student).")
INSTRUCTOR_ONLY = "Only the instructor may do this; you are signed in as a student."
WRONG_TOKEN = "token: that is not the instructor's token."
WRONG_CODE = "class_code: that is not the class code; ask the instructor for the one on their screen."
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

    @property
    def caller(self) -> Caller:
        """Whom what they queue is for (satlab.service.admission)."""
        return Caller(self.id, student=not self.is_instructor)


INSTRUCTOR = Principal("instructor", "instructor", "instructor")
LOCAL = Principal("instructor", "local", "this machine's user")


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _new_secret(length: int) -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(length))


def typed_key(key: str) -> str:
    """A key as the store keeps it, from how a person types it (case, spaces and dashes aside)."""
    return "".join(key.split()).replace("-", "").upper()


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
        stored_hash: str | None = store.get_state("instructor_token_hash")
        if settings.instructor_token is not None:
            if stored_hash is None or not self._matches(stored_hash, settings.instructor_token):
                stored_hash = self._set_token(settings.instructor_token)
        elif stored_hash is None and settings.new_token:
            self.issued_token = secrets.token_urlsafe(24)
            stored_hash = self._set_token(self.issued_token)
        self._token_hash = stored_hash
        self.open_access = settings.open_access and stored_hash is None
        self._limiter = MovingWindowRateLimiter(MemoryStorage())
        self._login_rate = RateLimitItemPerMinute(self.limits.login_attempts_per_minute)
        # One change to the class at a time (quotas, a sign-in with a new name).
        self.lock = threading.Lock()

    def _state(self, key: str, make: Any) -> Any:
        value = self.store.get_state(key)
        if value is None:
            value = make()
            self.store.set_state(key, value)
        return value

    def _set_token(self, token: str) -> str:
        hashed = self._hasher.hash(token)
        self.store.set_state("instructor_token_hash", hashed)
        self.store.end_sessions()  # a new token ends every session
        return hashed

    def _matches(self, hashed: str, token: str) -> bool:
        try:
            return self._hasher.verify(hashed, token)
        except argon2.exceptions.VerificationError:
            return False

    def policy(self) -> Policy:
        """What admission checks against now (satlab.service.admission)."""
        return Policy(self.limits, self.enabled_labs)

    # -- signing in ------------------------------------------------------------

    def check_attempt(self, address: str) -> None:
        """429 once address has tried login_attempts_per_minute times in the last minute."""
        if not self._limiter.hit(self._login_rate, "sign-in", address):
            raise Refusal(status.HTTP_429_TOO_MANY_REQUESTS,
                          f"Too many sign-in attempts from {address}: at most {self.limits.login_attempts_per_minute} "
                          "a minute (login_attempts_per_minute); wait a minute.")

    def instructor(self, token: str) -> Principal:
        if self._token_hash is None:
            raise Refusal(status.HTTP_409_CONFLICT, NO_TOKEN_YET)
        if not self._matches(self._token_hash, token):
            raise Refusal(status.HTTP_401_UNAUTHORIZED, WRONG_TOKEN, ["body", "token"])
        return INSTRUCTOR

    def student(self, class_code: str, name: str, keys: list[str]) -> tuple[Principal, str]:
        """The student of that name (a new one if nobody has it yet) and their
        key: one of keys must be theirs if the name is taken. The name is
        printable already (the route's model)."""
        if not secrets.compare_digest(class_code.strip().upper().encode(), self.class_code.encode()):
            raise Refusal(status.HTTP_401_UNAUTHORIZED, WRONG_CODE, ["body", "class_code"])
        name = tidy(name)
        self._check_length(name)
        with self.lock:
            existing = self.store.find_student(name_key(name))
            if existing is not None:
                if not any(secrets.compare_digest(typed_key(key).encode(), existing.key.encode()) for key in keys):
                    raise Refusal(status.HTTP_409_CONFLICT,
                                  f"name: {existing.name} is taken in this class; signing in as them again needs "
                                  "their personal key (shown at their first sign-in and kept by their browser; the "
                                  "instructor's page shows it), or choose another name.", ["body", "name"])
                return Principal("student", existing.student_id, existing.name), existing.key
            if self.store.count_students() >= self.limits.max_students:
                raise Refusal(status.HTTP_403_FORBIDDEN,
                              f"The class has {self.limits.max_students} students, as many as it may "
                              "(max_students): the instructor removes some first.")
            student_id, key = f"s{secrets.token_hex(6)}", _new_secret(KEY_LENGTH)
            self.store.add_student(student_id, name, name_key(name), key)
            return Principal("student", student_id, name), key

    def _check_length(self, name: str) -> None:
        if len(name) > self.limits.max_name_chars:
            raise Refusal(status.HTTP_422_UNPROCESSABLE_CONTENT,
                          f"name: {len(name)} characters is more than {self.limits.max_name_chars} (max_name_chars).",
                          ["body", "name"], "too_long")

    # -- sessions --------------------------------------------------------------

    def start_session(self, principal: Principal) -> str:
        """A new session of principal: the cookie's value."""
        token = secrets.token_urlsafe(32)
        self.store.add_session(token_hash(token), principal.role,
                               None if principal.is_instructor else principal.id, time.time() + SESSION_MAX_AGE_S)
        return token

    def end_session(self, cookie: str | None) -> None:
        if cookie:
            self.store.end_session(token_hash(cookie))

    def principal(self, cookie: str | None) -> Principal | None:
        """Who the session cookie says (LOCAL with open access); None if
        nobody, or if the session ended, expired or never was."""
        if self.open_access:
            return LOCAL
        if not cookie or len(cookie) > 100:
            return None
        session = self.store.get_session(token_hash(cookie))
        if session is None:
            return None
        if session.role == "instructor":
            return INSTRUCTOR
        student = self.store.get_student(session.student_id or "")
        return None if student is None else Principal("student", student.student_id, student.name)

    # -- the students (the instructor's) ---------------------------------------

    def rename_student(self, student_id: str, name: str) -> StudentRow:
        """KeyError for an unknown student; 409 if another has the name."""
        name = tidy(name)
        self._check_length(name)
        with self.lock:
            if not self.store.rename_student(student_id, name, name_key(name)):
                raise Refusal(status.HTTP_409_CONFLICT, f"name: another student is called {name} already.",
                              ["body", "name"])
        return self._student(student_id)

    def new_student_key(self, student_id: str) -> StudentRow:
        """A new personal key (the old one no longer signs in); their sessions end."""
        self.store.set_student_key(student_id, _new_secret(KEY_LENGTH))
        self.store.end_sessions(student_id)
        return self._student(student_id)

    def _student(self, student_id: str) -> StudentRow:
        student = self.store.get_student(student_id)
        if student is None:
            raise KeyError(f"no student {student_id!r}")
        return student

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
        return _new_secret(CODE_LENGTH)

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
        with self.lock:
            changes = {name: (getattr(self.limits, name), value) for name, value in values.items()
                       if getattr(self.limits, name) != value}
            self.store.set_quotas({name: None if new == getattr(self._environment_limits, name) else new
                                   for name, (_, new) in changes.items()})
            self.limits = self._with_quotas(self.store.quotas())
        return changes
