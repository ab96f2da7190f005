"""compose.yaml, the Dockerfile and .dockerignore, checked without a Docker engine.

There is no Docker engine where satlab is developed (shared/PLATFORM.md), so
the instructor's stack must be right by construction. These tests validate
compose.yaml against the Compose Specification's JSON schema, read the
Dockerfile with BuildKit's own parser (the `dockerfile` package), and check
that the image builds with the Makefile's own build commands, from sources the
build context really holds, into the paths its environment names.

compose-spec.json is the Compose Specification's schema (compose-spec, Apache
2.0) byte for byte as the npm package dclint 3.1.0 ships it. To refresh it:
    npm pack dclint@VERSION
    tar -xzOf dclint-VERSION.tgz package/schemas/compose.schema.json > tests/compose/compose-spec.json
"""

from __future__ import annotations

import copy
import json
import os
import posixpath
import re
import shlex
import subprocess
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import dockerfile
import jsonschema
import pytest
import yaml
from satlab.engine.host import HYSTART

REPO = Path(__file__).resolve().parents[2]
SERVICE = "satlab"
TOOLS = ("satlink", "swf-tunnel", "satlab-pep")


@dataclass
class Stage:
    """One FROM of the Dockerfile and the instructions that follow it."""

    name: str | None
    workdir: str = "/"
    instructions: list[dockerfile.Command] = field(default_factory=list)

    def runs(self) -> list[str]:
        """Its RUN commands (shell form), whitespace collapsed."""
        return [" ".join(i.value[0].split()) for i in self.instructions if i.cmd == "RUN"]

    def copies(self, from_stage: str | None = None) -> list[tuple[list[str], str]]:
        """(sources, absolute destination) of its COPYs from `from_stage` (None: from the build context)."""
        found = []
        for instruction in self.instructions:
            flags = dict(flag.removeprefix("--").split("=", 1) for flag in instruction.flags)
            if instruction.cmd == "COPY" and flags.get("from") == from_stage:
                *sources, destination = instruction.value
                found.append((sources, posixpath.join(self.workdir, destination)))
        return found

    def env(self) -> dict[str, str]:
        values = [v for i in self.instructions if i.cmd == "ENV" for v in i.value]
        return dict(zip(values[::2], values[1::2], strict=True))


@cache
def compose() -> dict[str, Any]:
    return yaml.safe_load((REPO / "compose.yaml").read_text())


def service() -> dict[str, Any]:
    return compose()["services"][SERVICE]


def dockerfile_path() -> Path:
    build = service()["build"]
    return REPO / build["context"] / build["dockerfile"]


@cache
def stages() -> list[Stage]:
    parsed: list[Stage] = []
    for instruction in dockerfile.parse_file(str(dockerfile_path())):
        if instruction.cmd == "FROM":
            words = instruction.value  # IMAGE [AS NAME]
            parsed.append(Stage(words[2] if len(words) == 3 and words[1].upper() == "AS" else None))
            continue
        stage = parsed[-1]
        stage.instructions.append(instruction)
        if instruction.cmd == "WORKDIR":
            stage.workdir = posixpath.join(stage.workdir, instruction.value[0])
    return parsed


def final_stage() -> Stage:
    return stages()[-1]


def stage_running(command: str) -> Stage:
    """The stage with this RUN command."""
    matches = [stage for stage in stages() if command in stage.runs()]
    assert len(matches) == 1, f"{command!r} should be run by exactly one stage of the Dockerfile"
    return matches[0]


def copied_from(stage: Stage) -> tuple[list[str], str]:
    """The final stage's one COPY from `stage`."""
    assert stage.name is not None, "a stage the final stage copies from needs a name (FROM ... AS NAME)"
    copies = final_stage().copies(stage.name)
    assert len(copies) == 1, f"the final stage should copy once from stage {stage.name}, not {copies}"
    return copies[0]


@cache
def makefile_build_commands() -> list[str]:
    """What `make build-native build-frontend` runs, as make itself expands it:
    deps (installing packages) counted as done, JOBS as the Dockerfile computes
    it, output redirections to /dev/null dropped."""
    # Run from `make test`, a sub-make would inherit the parent's flags and print its directory.
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
    dry_run = subprocess.run(["make", "--dry-run", "--no-print-directory", "--old-file=deps", 'JOBS="$$(nproc)"',
                              "build-native", "build-frontend"], cwd=REPO, env=env, capture_output=True, text=True,
                             check=True).stdout
    return [" ".join(re.sub(r">\s*/dev/null", "", line).split()) for line in dry_run.splitlines() if line.strip()]


def cmake_configure() -> str:
    """The Makefile's configure command of the native build."""
    return next(command for command in makefile_build_commands() if command.startswith("cmake -S codec"))


def docker_ignored(path: str) -> bool:
    """Whether .dockerignore keeps `path` (relative to the context) out of the
    build context. Docker's rules: `**` spans any number of directories, `*`
    and `?` stay within one; a path is excluded when a pattern matches it or a
    directory above it."""
    patterns = [line.strip().strip("/") for line in (REPO / ".dockerignore").read_text().splitlines()]
    patterns = [p for p in patterns if p and not p.startswith("#")]
    assert not any(p.startswith("!") or "[" in p for p in patterns), \
        ".dockerignore uses exceptions or character classes, which this test does not implement"
    regexes = [re.compile("".join(
        {"**/": "(?:.*/)?", "**": ".*", "*": "[^/]*", "?": "[^/]"}.get(part, re.escape(part))
        for part in re.split(r"(\*\*/?|\*|\?)", pattern))) for pattern in patterns]
    parts = path.split("/")
    prefixes = ["/".join(parts[:end]) for end in range(1, len(parts) + 1)]
    return any(regex.fullmatch(prefix) for regex in regexes for prefix in prefixes)


def compose_errors(document: dict[str, Any]) -> list[str]:
    schema = json.loads((Path(__file__).parent / "compose-spec.json").read_text())
    assert "draft-07" in schema["$schema"], f"the schema declares {schema['$schema']}; validate with that draft"
    jsonschema.Draft7Validator.check_schema(schema)
    return [f"{'/'.join(map(str, error.absolute_path))}: {error.message}"
            for error in jsonschema.Draft7Validator(schema).iter_errors(document)]


def test_validate_compose_against_compose_spec() -> None:
    assert compose_errors(compose()) == []


@pytest.mark.parametrize("spoil", [
    lambda s: s.update(cap_ad=s.pop("cap_add")),
    lambda s: s.update(ports="8000:8000"),
    lambda s: s["healthcheck"].update(intervall="30s"),
], ids=["misspelled key", "string for a list", "misspelled healthcheck key"])
def test_validate_compose_against_compose_spec_spoiled(spoil: Any) -> None:
    spoiled = copy.deepcopy(compose())
    spoil(spoiled["services"][SERVICE])
    assert compose_errors(spoiled) != []


def test_find_compose_build_context_and_dockerfile() -> None:
    # The context is the repository: the Dockerfile copies repository paths and
    # Docker reads .dockerignore from the context's root.
    assert (REPO / service()["build"]["context"]).resolve() == REPO
    assert dockerfile_path().is_file()


def test_keep_every_copied_source_in_build_context() -> None:
    for stage in stages():
        for sources, _ in stage.copies():
            for source in sources:
                tracked = subprocess.run(["git", "ls-files", "--", source], cwd=REPO, capture_output=True,
                                         text=True, check=True).stdout.split()
                assert tracked, f"the Dockerfile copies {source}, which holds no file git tracks"
                left_out = [path for path in tracked if docker_ignored(path)]
                assert left_out == [], f".dockerignore leaves these sources of COPY {source} out: {left_out}"


@pytest.mark.parametrize("path", [".git/HEAD", "build/codec/tools/satlink", "frontend/node_modules/vite",
                                  "codec/wasm/node_modules/typescript", "frontend/dist/index.html",
                                  ".venv/bin/python", "backend/.venv/bin/python", "frontend/test-output/x.png",
                                  "backend/satlab/__pycache__/host.cpython-312.pyc", "backend/satlab.egg-info"])
def test_exclude_local_builds_from_build_context(path: str) -> None:
    assert docker_ignored(path)


def test_run_the_makefiles_build_commands() -> None:
    runs = [run for stage in stages() for run in stage.runs()]
    missing = [command for command in makefile_build_commands() if command not in runs]
    assert len(makefile_build_commands()) >= 4 and missing == [], \
        f"the Dockerfile should run each build command of the Makefile as a RUN of its own; missing: {missing}"


def test_copy_the_tools_the_makefile_builds_to_the_tools_dir() -> None:
    words = shlex.split(cmake_configure())
    build_dir = words[words.index("-B") + 1]
    native = stage_running(cmake_configure())
    sources, destination = copied_from(native)
    assert sources == [posixpath.join(native.workdir, build_dir, "tools", tool) for tool in TOOLS]
    assert destination.rstrip("/") == final_stage().env()["SATLAB_TOOLS_DIR"]


def test_copy_the_frontend_the_makefile_builds_to_the_frontend_dir() -> None:
    web = stage_running("cd frontend && npm run build")
    out_dir = re.search(r"outDir:\s*'([^']+)'", (REPO / "frontend/vite.config.ts").read_text())
    assert out_dir, "frontend/vite.config.ts should name its outDir"
    assert copied_from(web) == ([posixpath.join(web.workdir, "frontend", out_dir.group(1))],
                                final_stage().env()["SATLAB_FRONTEND_DIR"])


def test_copy_the_labs_to_the_labs_dir() -> None:
    assert (["labs"], final_stage().env()["SATLAB_LABS_DIR"]) in final_stage().copies()


def test_keep_the_database_on_the_compose_volume() -> None:
    env = final_stage().env()
    volume, target = next(v.split(":")[:2] for v in service()["volumes"]
                          if isinstance(v, str) and v.split(":")[0] in compose()["volumes"])
    assert posixpath.dirname(env["SATLAB_DB"]) == target, f"the volume {volume} should hold SATLAB_DB"
    assert f"mkdir -p {target}" in final_stage().runs(), "the image should create the volume's directory"


def test_share_the_hosts_lock_dir() -> None:
    """Hystart is one setting of the host kernel: the container claims it where the host's satlab does."""
    lock_dir = final_stage().env()["SATLAB_LOCK_DIR"]
    assert lock_dir == "/run/satlab", "where every satlab on the host locks its runs and claims Hystart"
    assert f"{lock_dir}:{lock_dir}" in service()["volumes"]


def test_publish_on_loopback_unless_told_and_require_sign_in() -> None:
    assert service()["ports"] == ["${SATLAB_ADDRESS:-127.0.0.1}:${SATLAB_PORT:-8000}:8000"]
    command = next(i for i in final_stage().instructions if i.cmd == "CMD").value
    assert command[command.index("--host") + 1] == "0.0.0.0" and "--new-token" in command
    assert set(service()["environment"]) >= {"SATLAB_INSTRUCTOR_TOKEN", "SATLAB_ALLOWED_HOSTS"}


def test_check_health_where_the_backend_listens() -> None:
    command = next(i for i in final_stage().instructions if i.cmd == "CMD")
    assert command.json, "CMD should be in exec form, so that the backend gets the stop signal"
    port = command.value[command.value.index("--port") + 1]
    assert [port] == [i.value[0] for i in final_stage().instructions if i.cmd == "EXPOSE"]
    assert any(mapping.endswith(f":{port}") for mapping in service()["ports"])
    # The one route that answers without sign-in.
    assert f"http://127.0.0.1:{port}/api/auth/me" in " ".join(service()["healthcheck"]["test"])


def test_bind_the_hystart_parameter_the_backend_writes() -> None:
    binds = [v for v in service()["volumes"] if isinstance(v, dict) and v["type"] == "bind"]
    assert {"source": str(HYSTART.parent), "target": str(HYSTART.parent)} in [
        {"source": b["source"], "target": b["target"]} for b in binds]
    assert "/dev/net/tun:/dev/net/tun" in service()["devices"]


SECRET = "${SATLAB_REDIS_PASSWORD:?"  # the secret from .env, and a refusal without one: never a default


def test_keep_redis_on_the_stack_network_and_behind_the_secret() -> None:
    redis = compose()["services"]["redis"]
    assert "ports" not in redis and "network_mode" not in redis, "Redis is published nowhere"
    assert redis["environment"]["SATLAB_REDIS_PASSWORD"].startswith(SECRET)
    shell = redis["command"][-1]
    # The secret goes to redis-server on its stdin (a here-document), on no command line.
    assert shell.startswith("exec redis-server - <<") and "\nrequirepass $$SATLAB_REDIS_PASSWORD\n" in shell
    assert "SATLAB_REDIS_PASSWORD" not in " ".join(redis["command"][:-1])
    assert "redis-server" in " ".join(final_stage().runs()), "the image holds Debian's redis-server"


def test_give_the_server_and_the_workers_the_same_broker() -> None:
    services = compose()["services"]
    urls = {name: services[name]["environment"]["SATLAB_BROKER_URL"] for name in ("satlab", "worker")}
    assert len(set(urls.values())) == 1 and next(iter(urls.values())).startswith(f"redis://:{SECRET}")
    assert next(iter(urls.values())).endswith("@redis:6379/0")


def test_let_workers_scale_with_what_runs_need() -> None:
    worker, server = compose()["services"]["worker"], service()
    assert worker["command"] == ["satlab", "worker"] and worker["image"] == server["image"]
    # A fixed name would make two of them one worker: each takes its container's host name.
    assert "container_name" not in worker and "hostname" not in worker
    for key in ("cap_add", "devices", "security_opt", "init", "stop_grace_period"):
        assert worker[key] == server[key], f"a worker runs runs: it needs the server's {key}"
    lock_dir = final_stage().env()["SATLAB_LOCK_DIR"]
    assert f"{lock_dir}:{lock_dir}" in worker["volumes"], "workers on one host share its capacity and Hystart"
    assert any(isinstance(v, dict) and v["target"] == str(HYSTART.parent) for v in worker["volumes"])
