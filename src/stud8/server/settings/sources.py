"""Where the settings come from: flags, ``STUD8_*`` variables, a TOML file, defaults.

Each setting of :data:`~stud8.server.settings.SETTINGS` is read, in this order of
precedence, from its flag (``stud8 serve --port 9000``), its variable
(``STUD8_PORT=9000``), the file of ``--config`` (or ``STUD8_CONFIG``), whose keys are
the settings' names (``port = 9000``), and its default. An unknown key or a bad value
is refused with one line that names it, and nothing starts.

>>> load(environ={"STUD8_PORT": "9000"}, flags={"port": 9001}).port
9001
>>> load(environ={"STUD8_PORT": "nine"})
Traceback (most recent call last):
...
stud8.server.settings.sources.SettingsError: STUD8_PORT='nine': not a whole number

``python -m stud8.server.settings.sources --write docs/settings.md`` brings the table of
the settings up to date (a test checks that it is).
"""

from __future__ import annotations

import argparse
import difflib
import enum
import os
import tomllib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from stud8.server.settings import SETTINGS, SettingInfo, Settings

CONFIG_VARIABLE = "STUD8_CONFIG"
SWITCHES = {
    "1": True,
    "true": True,
    "yes": True,
    "on": True,
    "0": False,
    "false": False,
    "no": False,
    "off": False,
}
BY_NAME = {s.name: s for s in SETTINGS}

__all__ = ["SettingsError", "add_flags", "flag_values", "load", "settings_markdown"]


class SettingsError(ValueError):
    """A setting that cannot be taken: one line saying which, and why."""


# ------------------------------------------------------------------------ values
def _what(info: SettingInfo) -> str:
    base = info.base
    if isinstance(base, type) and issubclass(base, enum.Enum):
        return "one of " + ", ".join(m.value for m in base)
    return {
        int: "a whole number",
        float: "a number",
        bool: "yes or no",
        str: "text",
        tuple[str, ...]: "a list of names",
    }[base]


def from_text(info: SettingInfo, raw: str) -> Any:
    """A setting's value from a flag's or a variable's text (ValueError saying why)."""
    base = info.base
    text = raw.strip()
    if info.optional and text.lower() in ("", "none"):
        return None
    if base is int:
        try:
            return int(text)
        except ValueError:
            raise ValueError("not a whole number") from None
    if base is float:
        try:
            value = float(text)
        except ValueError:
            raise ValueError("not a number") from None
        if value != value or value in (float("inf"), float("-inf")):
            raise ValueError("not a number")
        return value
    if base is bool:
        if text.lower() not in SWITCHES:
            raise ValueError("not yes or no (1, true, on; 0, false, off)")
        return SWITCHES[text.lower()]
    if base == tuple[str, ...]:
        return tuple(n.strip() for n in text.split(",") if n.strip())
    if isinstance(base, type) and issubclass(base, enum.Enum):
        try:
            return base(text.lower())
        except ValueError:
            raise ValueError(_what(info)) from None
    return raw


def from_toml(info: SettingInfo, value: Any) -> Any:
    """A setting's value from the file's (ValueError saying why)."""
    base = info.base
    if isinstance(base, type) and issubclass(base, enum.Enum) and isinstance(value, str):
        return from_text(info, value)
    if base is float and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    if base == tuple[str, ...] and isinstance(value, list):
        if all(isinstance(v, str) for v in value):
            return tuple(value)
    elif isinstance(value, base) and not (base is int and isinstance(value, bool)):
        return value
    raise ValueError(f"not {_what(info)}")


def _shown(value: Any) -> str:
    return repr(value) if isinstance(value, str) else str(value)


# ------------------------------------------------------------------------ loading
def load(
    *,
    flags: Mapping[str, Any] | None = None,
    environ: Mapping[str, str] | None = None,
    config: Path | None = None,
) -> Settings:
    """The settings: ``flags`` (the values given, by name), then the variables of
    ``environ`` (``os.environ`` by default), then the file ``config`` (or that of
    ``STUD8_CONFIG``), then the defaults. :class:`SettingsError` for a bad one."""
    env = os.environ if environ is None else environ
    values: dict[str, Any] = {}
    if config is None and env.get(CONFIG_VARIABLE):
        config = Path(env[CONFIG_VARIABLE])
    if config is not None:
        values.update(read_config(config))
    for info in SETTINGS:
        raw = env.get(info.env)
        if raw is None or (raw.strip() == "" and not info.optional):
            continue
        try:
            values[info.name] = from_text(info, raw)
        except ValueError as exc:
            raise SettingsError(f"{info.env}={raw!r}: {exc}") from None
    values.update({k: v for k, v in (flags or {}).items() if v is not None})
    try:
        return Settings(**values)
    except ValueError as exc:
        raise SettingsError(str(exc)) from None


def read_config(path: Path) -> dict[str, Any]:
    """The settings a TOML file sets, by name (:class:`SettingsError` for a file that
    cannot be read, an unknown key or a bad value)."""
    try:
        with path.open("rb") as f:
            data = tomllib.load(f)
    except OSError as exc:
        raise SettingsError(f"{path}: cannot be read: {exc.strerror or exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise SettingsError(f"{path}: not TOML: {exc}") from None
    values: dict[str, Any] = {}
    for key, value in data.items():
        info = BY_NAME.get(key)
        if info is None:
            near = difflib.get_close_matches(key, BY_NAME, n=1)
            hint = f" (did you mean {near[0]}?)" if near else " (see docs/settings.md)"
            raise SettingsError(f"{path}: {key!r} is not a setting{hint}")
        try:
            values[key] = from_toml(info, value)
        except ValueError as exc:
            raise SettingsError(f"{path}: {key} = {_shown(value)}: {exc}") from None
    return values


# ------------------------------------------------------------------------ flags
def _flag_type(info: SettingInfo) -> Callable[[str], Any]:
    def parse(raw: str) -> Any:
        try:
            return from_text(info, raw)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(f"{exc}: {raw!r}") from None

    return parse


def _default_text(info: SettingInfo) -> str:
    if info.shown is not None:
        return info.shown
    value = info.default
    if isinstance(value, enum.Enum):
        return str(value.value)
    if isinstance(value, tuple):
        return ",".join(value) or "none"
    if isinstance(value, bool):
        return "off"
    return str(value)


def add_flags(parser: argparse.ArgumentParser) -> None:
    """A flag for every setting (each defaults to None: not given), and ``--config``."""
    parser.add_argument(
        "--config",
        type=Path,
        default=None,
        metavar="FILE",
        help=f"a TOML file of settings (env {CONFIG_VARIABLE}; docs/settings.md)",
    )
    for info in SETTINGS:
        text = f"{info.help} (env {info.env}; default {_default_text(info)})"
        if info.base is bool:
            parser.add_argument(
                info.flag,
                dest=info.name,
                action=argparse.BooleanOptionalAction,
                default=None,
                help=text,
            )
            continue
        metavar = info.metavar or (
            "N" if info.base in (int, float) else "TEXT" if info.base is str else None
        )
        if isinstance(info.base, type) and issubclass(info.base, enum.Enum):
            metavar = "{" + ",".join(m.value for m in info.base) + "}"
        parser.add_argument(
            info.flag,
            dest=info.name,
            type=_flag_type(info),
            default=None,
            metavar=metavar,
            help=text,
        )


def flag_values(args: argparse.Namespace) -> dict[str, Any]:
    """The settings' values given as flags (by name; None: not given)."""
    return {info.name: getattr(args, info.name, None) for info in SETTINGS}


# ------------------------------------------------------------------------ the docs
def settings_markdown() -> str:
    """The table of the settings, as docs/settings.md shows it."""
    lines = [
        "| setting (file key) | flag | variable | default | what it is |",
        "|---|---|---|---|---|",
    ]
    for info in SETTINGS:
        lines.append(
            f"| `{info.name}` | `{info.flag}` | `{info.env}` | {_default_text(info)} | "
            f"{info.help} |"
        )
    return "\n".join(lines) + "\n"


BEGIN = "<!-- settings: generated by python -m stud8.server.settings.sources -->\n"
END = "<!-- end of settings -->\n"


def updated_doc(text: str) -> str:
    """``text`` with the table between its markers replaced by the current one."""
    head, sep, rest = text.partition(BEGIN)
    if not sep:
        raise ValueError("the document has no settings marker")
    _, sep, tail = rest.partition(END)
    if not sep:
        raise ValueError("the document's settings table has no end marker")
    return head + BEGIN + settings_markdown() + END + tail


def main(argv: list[str] | None = None) -> int:
    """``python -m stud8.server.settings.sources [--write docs/settings.md]``."""
    import sys

    args = sys.argv[1:] if argv is None else argv
    if len(args) == 2 and args[0] == "--write":
        path = Path(args[1])
        path.write_text(updated_doc(path.read_text(encoding="utf-8")), encoding="utf-8")
        return 0
    if args:
        print("usage: python -m stud8.server.settings.sources [--write docs/settings.md]")
        return 2
    print(settings_markdown(), end="")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
