"""The packages' layering, read from the source: every import of a satlab
module by another (at the top, under `if TYPE_CHECKING:` or inside a
function) is an edge, and the graph must be acyclic and point down only:

    satlab.cli, satlab.api, satlab.studies -> satlab.service
        -> satlab.distributed (runs on other machines: Celery, Redis) -> satlab.engine
        -> satlab.scenario and the other top-level modules

(the service may use satlab.distributed or the engine directly).

A scenario is valid or not whatever the host: what this host can run is
satlab.engine.preflight's question, so the engine imports the scenario and
never the other way round.
"""

import ast
from pathlib import Path

import satlab

PACKAGE_DIR = Path(satlab.__file__).parent

# Top-level modules below the engine: the scenario, its vocabulary, where things are.
FOUNDATION = ("satlab.scenario", "satlab.transports", "satlab.tcp_congestion", "satlab.settings", "satlab.tools")
# (importer's prefix, prefixes it must not import)
FORBIDDEN = [
    ("satlab.engine", ("satlab.service", "satlab.distributed", "satlab.api", "satlab.studies", "satlab.cli")),
    ("satlab.distributed", ("satlab.service", "satlab.api", "satlab.studies", "satlab.cli")),
    ("satlab.service", ("satlab.api", "satlab.studies", "satlab.cli")),
    ("satlab.studies", ("satlab.api", "satlab.cli")),
    ("satlab.api", ("satlab.cli",)),
    *((module, ("satlab.engine", "satlab.service", "satlab.distributed", "satlab.api", "satlab.studies",
                "satlab.cli"))
      for module in FOUNDATION),
]


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE_DIR.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(tree: ast.Module, importer: str, is_package: bool, modules: set[str]) -> set[str]:
    """The satlab modules that `importer` imports anywhere in its source: for
    `from a.b import c`, a.b.c if that is a module, else a.b."""
    package = importer if is_package else importer.rpartition(".")[0]
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package
            for _ in range(node.level - 1):
                base = base.rpartition(".")[0]
            source = ".".join(filter(None, [base if node.level else "", node.module or ""]))
            for alias in node.names:
                names.add(f"{source}.{alias.name}" if f"{source}.{alias.name}" in modules else source)
    return {name for name in names if name in modules and name != importer}


def import_graph() -> dict[str, set[str]]:
    paths = {module_name(path): path for path in PACKAGE_DIR.rglob("*.py")}
    return {name: imported(ast.parse(path.read_text(), str(path)), name, path.name == "__init__.py", set(paths))
            for name, path in paths.items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of the graph as the modules along it (the first repeated at
    the end), or None."""
    done: set[str] = set()
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        if node in path:
            return path[path.index(node):] + [node]
        if node in done:
            return None
        path.append(node)
        for successor in sorted(graph.get(node, ())):
            if (cycle := visit(successor)) is not None:
                return cycle
        path.pop()
        done.add(node)
        return None

    for node in sorted(graph):
        if (cycle := visit(node)) is not None:
            return cycle
    return None


def within(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


def test_the_graph_is_read_from_every_kind_of_import() -> None:
    graph = import_graph()
    assert len(graph) >= 50, sorted(graph)
    known_edges = [
        ("satlab.scenario.models", "satlab.transports"),
        ("satlab.engine.plan", "satlab.scenario"),
        ("satlab.engine.preflight", "satlab.scenario"),
        ("satlab.engine.runner", "satlab.engine.plan"),
        ("satlab.engine.runner", "satlab.engine.preflight"),  # `from satlab.engine import preflight, ...`
        ("satlab.engine.flows.base", "satlab.transports"),
        ("satlab.service.queue", "satlab.engine.runner"),
        ("satlab.api.routes.runs", "satlab.service.export"),
        ("satlab.cli", "satlab.api.main"),  # imported inside a function
        ("satlab.distributed.messages", "satlab.scenario"),
    ]
    missing = [edge for edge in known_edges if edge[1] not in graph[edge[0]]]
    assert not missing, f"edges not found: {missing}"


def test_find_cycle_finds_one() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_an_import_under_type_checking_is_an_edge() -> None:
    tree = ast.parse("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from satlab.engine.plan import Plan\n")
    assert imported(tree, "satlab.scenario", False, {"satlab.scenario", "satlab.engine.plan"}) == {"satlab.engine.plan"}


def test_no_import_cycle() -> None:
    cycle = find_cycle(import_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_layers_import_downwards_only() -> None:
    graph = import_graph()
    violations = [f"{importer} imports {target}"
                  for importer, targets in sorted(graph.items())
                  for layer, forbidden in FORBIDDEN if within(importer, layer)
                  for target in sorted(targets) if any(within(target, prefix) for prefix in forbidden)]
    assert not violations, "\n".join(violations)


# What a QUIC flow's peer program (a process in each namespace of a flow) may
# load beyond its own package: modules of the standard library and nothing
# else, so that a peer starts without pydantic, YAML or the engine.
PEER_MAY_IMPORT = ("satlab.transports", "satlab.tcp_congestion", "satlab.engine.flows.tls")


def reachable(graph: dict[str, set[str]], start: str) -> set[str]:
    seen: set[str] = set()
    stack = [start]
    while stack:
        for successor in graph.get(stack.pop(), ()):
            if successor not in seen:
                seen.add(successor)
                stack.append(successor)
    return seen


def test_peer_programs_load_neither_the_scenario_nor_the_engine() -> None:
    graph = import_graph()
    peers = [name for name in graph if name.startswith("satlab.engine.flows.")
             and name.rpartition(".")[2] in ("peer", "protocol")]
    assert "satlab.engine.flows.picoquic.peer" in peers
    violations = [f"{peer} loads {module}" for peer in sorted(peers) for module in sorted(reachable(graph, peer))
                  if not within(module, peer.rpartition(".")[0]) and module not in PEER_MAY_IMPORT]
    assert not violations, "\n".join(violations)


# Packages whose modules are one concept each behind one public surface (the
# package's __init__): every other module imports the package, never a module
# inside it, so that a package can be reshaped without touching its users.
# A QUIC stack's package is entered through the transport registry alone
# (satlab.transports names its Flow class; engine.flows.base loads it).
ENTERED_THROUGH_THEIR_PACKAGE = ("satlab.scenario", "satlab.service.store", "satlab.studies",
                                 "satlab.engine.flows.picoquic", "satlab.engine.flows.ngtcp2")


def test_packages_are_entered_through_their_public_surface() -> None:
    graph = import_graph()
    violations = [f"{importer} imports {target}: import {package} instead"
                  for importer, targets in sorted(graph.items())
                  for package in ENTERED_THROUGH_THEIR_PACKAGE if not within(importer, package)
                  for target in sorted(targets) if target.startswith(package + ".")]
    assert not violations, "\n".join(violations)


def test_a_quic_stack_is_loaded_only_through_the_registry() -> None:
    graph = import_graph()
    stacks = ("satlab.engine.flows.picoquic", "satlab.engine.flows.ngtcp2")
    importers = sorted(importer for importer, targets in graph.items() for stack in stacks
                       if not within(importer, stack) and stack in targets)
    assert importers == [], importers
