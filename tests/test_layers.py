"""The layers: dependencies point one way,
core <- tournament <- formats <- tools <- server <- cli.

The core may import only the standard library modules below (no I/O, no clock,
no asyncio, no global random) and nothing from the rest of stud8; the tournament
director (stud8.tournament) is as pure, and imports the core only.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "stud8"

# Each layer may import itself and the layers before it.
LAYERS = ["core", "tournament", "formats", "tools", "server", "cli"]

# What the core may use: pure computation only. `random` is allowed for the
# Random/SystemRandom classes passed in explicitly (see test_core_uses_no_global_random).
CORE_STDLIB = {
    "__future__",
    "collections",
    "dataclasses",
    "decimal",
    "enum",
    "fractions",
    "functools",
    "itertools",
    "math",
    "operator",
    "random",
    "threading",  # a lock around the lazy building of the evaluation tables
    "typing",
}

MAX_MODULE_LINES = 650
FMT_SKIP = "# fmt: " + "skip"  # (spelled so that this file is not counted)

# Modules of the command line layer besides cli.py: the terminal table.
CLI_MODULES = {"play": "cli", "terminal": "cli", "__main__": "cli"}


def _modules() -> list[Path]:
    return sorted(SRC.rglob("*.py"))


def _layer_of(path: Path) -> str:
    rel = path.relative_to(SRC)
    top = rel.parts[0]
    if top.endswith(".py"):
        top = top[:-3]
    if top in ("__init__", "__main__"):
        return "cli" if top == "__main__" else "root"
    return CLI_MODULES.get(top, top)


def _imports(path: Path) -> list[tuple[str, int]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[tuple[str, int]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((alias.name, node.lineno) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.module, node.lineno))
    return found


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(SRC)))
def test_dependencies_point_one_way(path: Path) -> None:
    layer = _layer_of(path)
    if layer == "root":
        allowed = set()  # the package root imports nothing of its own (fast import)
    elif layer in LAYERS:
        # every layer may read the package root (it holds only __version__)
        allowed = {"root", *LAYERS[: LAYERS.index(layer) + 1]}
    else:
        pytest.fail(f"{path} is in no known layer ({LAYERS})")
    for name, line in _imports(path):
        parts = name.split(".")
        if parts[0] != "stud8":
            continue
        target = CLI_MODULES.get(parts[1], parts[1]) if len(parts) > 1 else "root"
        assert target in allowed, f"{path.name}:{line} ({layer}) imports {name}, a higher layer"


@pytest.mark.parametrize(
    "path",
    sorted((SRC / "core").glob("*.py")),
    ids=lambda p: p.name,
)
def test_core_imports_only_the_standard_library(path: Path) -> None:
    for name, line in _imports(path):
        top = name.split(".")[0]
        if top == "stud8":
            assert name.startswith("stud8.core"), f"{path.name}:{line} imports {name}"
        else:
            assert top in CORE_STDLIB, f"{path.name}:{line}: the core may not import {name}"


@pytest.mark.parametrize(
    "path",
    sorted((SRC / "tournament").glob("*.py")),
    ids=lambda p: p.name,
)
def test_the_tournament_imports_only_the_core_and_pure_standard_library(path: Path) -> None:
    """The director is pure like the engine (the room will run it in an owner task and
    the simulator offline): no I/O, no clock; ``datetime`` only for a definition's
    scheduled start, which it never reads the clock for."""
    allowed = CORE_STDLIB | {"datetime"}
    for name, line in _imports(path):
        top = name.split(".")[0]
        if top == "stud8":
            assert name.startswith(("stud8.core", "stud8.tournament")), f"{path.name}:{line}"
        else:
            assert top in allowed, f"{path.name}:{line}: the tournament may not import {name}"


def test_the_tournament_reads_no_clock_and_no_global_random() -> None:
    for path in sorted((SRC / "tournament").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                if node.value.id == "random":
                    assert node.attr in ("Random",), (
                        f"{path.name}:{node.lineno}: random.{node.attr}"
                    )
                assert not (
                    node.value.id == "datetime" and node.attr in ("now", "utcnow", "today")
                ), f"{path.name}:{node.lineno} reads the clock"


def test_the_engine_loads_only_the_standard_library() -> None:
    """At run time, in the pure and in the compiled build (mypyc, setup.py) alike."""
    code = (
        "import sys; before = set(sys.modules); import stud8.core; "
        "print(' '.join(sorted({m.split('.')[0] for m in set(sys.modules) - before})))"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    # stud8__mypyc: the compiled build's shared library (group "stud8" in setup.py)
    outside = set(run.stdout.split()) - set(sys.stdlib_module_names) - {"stud8", "stud8__mypyc"}
    assert not outside, f"importing stud8.core loads {sorted(outside)}"


# The server's packages (its extra in pyproject.toml): the compiled build's venv in .ci/run
# has only the tools extra, and runs tests/core, tests/formats and tests/tools there.
SERVER_PACKAGES = [
    "sqlalchemy",
    "alembic",
    "psycopg",
    "argon2",
    "starlette",
    "uvicorn",
    "httpx",
    "websockets",
    "redis",
    "hiredis",
    "prometheus_client",
    "msgspec",
    "picows",
    "playwright",
]

_BLOCKER = """
import sys
class _Blocked:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ImportError(f"{name} is a package of the server (blocked by test_layers)")
        return None
sys.meta_path.insert(0, _Blocked())
"""


def test_the_lower_layers_tests_collect_without_the_server_s_packages(tmp_path: Path) -> None:
    """The tests of the engine, the hand histories and the tools import no server module
    that needs a server package (a test of the replayer's upload belongs to tests/server):
    CI runs them on the compiled build, in a venv without the server extra."""
    (tmp_path / "sitecustomize.py").write_text(f"BLOCKED = {set(SERVER_PACKAGES)!r}\n{_BLOCKER}")
    root = SRC.parents[1]
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    dirs = ["tests/core", "tests/formats", "tests/tools"]
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "--collect-only", "-p", "no:cacheprovider", *dirs],
        capture_output=True,
        text=True,
        cwd=root,
        env=env,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    probe = [sys.executable, "-c", "import msgspec"]
    blocked = subprocess.run(probe, capture_output=True, text=True, env=env)
    assert blocked.returncode != 0  # the blocker works


def test_core_uses_no_global_random() -> None:
    """A live table never uses a seeded or global generator: the core calls no
    module-level function of `random` (random.shuffle, random.choice, ...)."""
    for path in sorted((SRC / "core").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id == "random"
            ):
                assert node.attr in ("Random", "SystemRandom"), (
                    f"{path.name}:{node.lineno} uses random.{node.attr}"
                )


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(SRC)))
def test_no_module_is_too_long(path: Path) -> None:
    """A module is one concept: at most MAX_MODULE_LINES lines."""
    rel = str(path.relative_to(SRC))
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_MODULE_LINES, f"{rel} has {lines} lines; split it by concept"


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(SRC)))
def test_no_lines_packed_to_meet_the_size_rule(path: Path) -> None:
    """`# fmt: skip` keeps the formatter from laying a statement out: it is how lines
    were packed to stay under the size rule. None in src/."""
    rel = str(path.relative_to(SRC))
    skips = path.read_text(encoding="utf-8").count(FMT_SKIP)
    assert skips == 0, f"{rel} has {skips} '{FMT_SKIP}'; unpack them"


# ---------------------------------------------------------------- inside the server
# Each part of the room may import itself and the parts listed (besides core,
# formats and tools, as the layers above allow). The table's owner task and its
# state are its own: outside the table package only its vocabulary is imported
# (TABLE_VOCABULARY), except by those that run tables (TABLE_HOSTS).
SERVER_PARTS: dict[str, set[str]] = {
    "settings": set(),
    "clock": set(),
    "collector": set(),
    "logs": set(),
    "storage": set(),
    "throwaway": set(),  # stud8 serve --memory's directory
    "tasks": set(),  # stopping background tasks for sure
    "table": {"clock", "tasks"},
    "bus": {"table", "tasks"},
    "wire": {"table"},
    # (wire: the console's kinds, ModerationAct and RakeBy, the protocol's vocabulary)
    "books": {"storage", "table", "wire"},
    "accounts": {"storage", "books", "wire"},
    "edge": {"bus", "wire", "table", "tasks"},
    "room": {"table", "bus", "books", "wire", "clock", "storage"},
    "http": {
        "edge",
        "room",
        "accounts",
        "wire",
        "books",
        "settings",
        "collector",
        "table",
        "tournaments",
    },
    # the tournaments: their owner tasks run the director and their tables
    "tournaments": {"table", "bus", "books", "wire", "clock", "storage", "tasks"},
    "admin": {"accounts", "books", "storage", "cluster"},
    "startup": {"settings", "storage"},  # stud8 serve's hold and port, before the room
    # stud8 admin's acts written to the moderation log (on admin's database access)
    "moderate": {"admin", "books"},
    # a room on several nodes: leases and heartbeats in Redis, the tables it runs
    "cluster": {
        "table",
        "bus",
        "books",
        "room",
        "storage",
        "wire",
        "clock",
        "tournaments",
        "tasks",
    },
    "runtime": {
        "accounts",
        "books",
        "bus",
        "clock",
        "cluster",
        "collector",
        "edge",
        "http",
        "logs",
        "room",
        "settings",
        "startup",
        "storage",
        "table",
        "throwaway",
        "tournaments",
    },
}
TABLE_VOCABULARY = {"commands", "events", "snapshot", "spec", "status", "books"}
TABLE_HOSTS = {
    ("bus", "local"),
    ("room", "lobby"),
    ("runtime", ""),
    ("tournaments", "runner"),
    ("tournaments", "manager"),
}


def _server_modules() -> list[Path]:
    return sorted((SRC / "server").rglob("*.py"))


def _part_of(path: Path) -> tuple[str, str]:
    rel = path.relative_to(SRC / "server").with_suffix("")
    parts = rel.parts
    return (parts[0], parts[1] if len(parts) > 1 else "")


@pytest.mark.parametrize("path", _server_modules(), ids=lambda p: str(p.relative_to(SRC)))
def test_the_server_s_parts_import_only_what_they_should(path: Path) -> None:
    part, module = _part_of(path)
    if part == "__init__":
        return
    assert part in SERVER_PARTS, (
        f"{path} is in no known part of the server ({sorted(SERVER_PARTS)})"
    )
    allowed = {part, *SERVER_PARTS[part]}
    for name, line in _imports(path):
        bits = name.split(".")
        if bits[:2] != ["stud8", "server"] or len(bits) < 3:
            continue
        target = bits[2]
        where = f"{path.relative_to(SRC)}:{line}"
        assert target in allowed, f"{where} ({part}) imports {name}"
        if target == "table" and part != "table" and len(bits) > 3:
            private = bits[3] not in TABLE_VOCABULARY
            assert not private or (part, module) in TABLE_HOSTS, (
                f"{where} imports {name}: outside the table package, only its vocabulary "
                f"({sorted(TABLE_VOCABULARY)}) is imported, but by those that run tables"
            )


def test_the_edge_reaches_the_tables_only_through_the_bus() -> None:
    """No module of the edge names the table's owner (the Table class) or its state."""
    for path in sorted((SRC / "server" / "edge").rglob("*.py")):
        for name, line in _imports(path):
            assert not name.startswith(("stud8.server.table.owner", "stud8.server.table.state")), (
                f"{path.name}:{line} imports {name}"
            )
            assert not name.startswith("stud8.server.room"), f"{path.name}:{line} imports {name}"
