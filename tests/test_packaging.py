"""The package as it is shipped: the sdist builds the wheel, and both say what stud8 is.

``python -m build`` makes the sdist, then the wheel *from the sdist* (as pip does
when it installs an sdist): the build backend (``_build``, pyproject's
``backend-path``) must travel in it. Built without isolation (no network: the
test extra installs build, setuptools and wheel), in a copy of the tree so that
the build leaves nothing in the working tree. CI (.ci/run) also installs the sdist
and the wheel, each in a fresh venv, and runs a command.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SKIP = {".git", ".venv", ".venv-compiled", "build", "dist", "__pycache__", ".mypy_cache"}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The sdist and the wheel built from it."""
    tree = tmp_path_factory.mktemp("tree") / "stud8"
    shutil.copytree(
        ROOT,
        tree,
        ignore=lambda _dir, names: [
            n for n in names if n in SKIP or n.endswith((".egg-info", "_cache"))
        ],
    )
    out = tree / "dist"
    done = subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), str(tree)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    (sdist,) = out.glob("stud8-*.tar.gz")
    (wheel,) = out.glob("stud8-*.whl")
    return sdist, wheel


def test_the_sdist_ships_what_building_it_needs(built: tuple[Path, Path]) -> None:
    sdist, _ = built
    with tarfile.open(sdist) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    for needed in ("_build/backend.py", "setup.py", "pyproject.toml", "LICENSE", "README.md"):
        assert needed in names, f"{needed} is not in the sdist"
    assert "src/stud8/core/hand.py" in names and "src/stud8/web/index.html" in names


def test_the_wheel_says_what_stud8_is(built: tuple[Path, Path]) -> None:
    _, wheel = built
    with zipfile.ZipFile(wheel) as archive:
        (meta_name,) = [n for n in archive.namelist() if n.endswith(".dist-info/METADATA")]
        metadata = Parser().parsestr(archive.read(meta_name).decode())
        licenses = [n for n in archive.namelist() if n.endswith(".dist-info/licenses/LICENSE")]
        assert licenses, "the LICENSE file is not in the wheel"
        license_text = archive.read(licenses[0]).decode()
        assert "stud8/web/index.html" in archive.namelist()
        assert "stud8/server/accounts/common-passwords.txt.gz" in archive.namelist()
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert metadata["License-Expression"] == project["license"] == "MIT"
    assert license_text.startswith("MIT License")
    assert metadata["License-File"] == "LICENSE"
    assert "maintainers" in (metadata["Author-email"] or "")
    classifiers = metadata.get_all("Classifier") or []
    assert "Topic :: Games/Entertainment" in classifiers
    assert "Programming Language :: Python :: 3.11" in classifiers
    assert "Typing :: Typed" in classifiers


# What each distribution of the server extra is, as src/ names it.
SERVER_IMPORTS = {
    "sqlalchemy": r"^\s*(from|import) sqlalchemy\b",
    "alembic": r"^\s*(from|import) alembic\b",
    "psycopg": r"postgresql\+psycopg",  # the driver SQLAlchemy loads for postgresql://
    "argon2-cffi": r"^\s*(from|import) argon2\b",
    "starlette": r"^\s*(from|import) starlette\b",
    "uvicorn": r"^\s*(from|import) uvicorn\b",
    # uvicorn's websockets-sansio protocol (extended in http/websocket.py) runs on it
    "websockets": r"uvicorn\.protocols\.websockets\.websockets_sansio_impl",
    "redis": r"^\s*(from|import) redis\b",
    "hiredis": r"^\s*(from|import) hiredis\b",
    "prometheus_client": r"^\s*(from|import) prometheus_client\b",  # GET /metrics
    "msgspec": r"^\s*(from|import) msgspec\b",
}


def test_the_server_extra_holds_only_what_src_uses() -> None:
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    names = {
        re.split(r"[\[<>=~!; ]", requirement, maxsplit=1)[0] for requirement in extras["server"]
    }
    unknown = names - set(SERVER_IMPORTS)
    assert not unknown, f"the server extra lists {sorted(unknown)}, which src/ never imports"
    source = "\n".join(p.read_text() for p in (ROOT / "src").rglob("*.py"))
    for name, pattern in SERVER_IMPORTS.items():
        if name in names:
            assert re.search(pattern, source, re.MULTILINE), f"src/ does not use {name}"
