"""The settings, each defined once: its flag, its variable, the file, the docs' table."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from stud8.cli import build_parser, main
from stud8.server.settings import SETTINGS, LogFormat, Settings
from stud8.server.settings.sources import (
    SettingsError,
    flag_values,
    load,
    settings_markdown,
    updated_doc,
)

DOC = Path(__file__).resolve().parents[2] / "docs" / "settings.md"

# a value other than the default for each kind of setting, as text and as its value
OTHER = {
    int: ("7", 7),
    float: ("2.5", 2.5),
    str: ("other", "other"),
    tuple[str, ...]: ("10.0.0.1, 10.0.1.0/24", ("10.0.0.1", "10.0.1.0/24")),
    LogFormat: ("json", LogFormat.JSON),
}
SPECIAL = {  # where any value of the kind is not a valid one
    "port": ("9001", 9001),
    "metrics_port": ("9002", 9002),
    "redis_url": ("redis://127.0.0.1:1/0", "redis://127.0.0.1:1/0"),
    "node": ("web1", "web1"),
    "public_url": ("https://web1.example", "https://web1.example"),
    "operators": ("root, ops", ("root", "ops")),
}


def _other(name: str) -> tuple[str, object]:
    info = next(s for s in SETTINGS if s.name == name)
    return SPECIAL.get(name) or OTHER[info.base]


def _serve_args(argv: list[str]) -> dict[str, object]:
    return flag_values(build_parser().parse_args(["serve", *argv]))


@pytest.mark.parametrize("info", [s for s in SETTINGS if s.base is not bool], ids=lambda s: s.name)
def test_every_setting_has_a_flag_and_a_variable(info: object) -> None:
    from stud8.server.settings import SettingInfo

    assert isinstance(info, SettingInfo)
    text, value = _other(info.name)
    assert value != info.default
    by_flag = load(flags=_serve_args([info.flag, text]), environ={})
    by_variable = load(environ={info.env: text})
    assert getattr(by_flag, info.name) == value == getattr(by_variable, info.name)


def test_a_switch_has_a_flag_both_ways_and_a_variable() -> None:
    assert load(flags=_serve_args(["--players-create-private"]), environ={}).players_create_private
    on = {"STUD8_PLAYERS_CREATE_PRIVATE": "yes"}
    assert load(environ=on).players_create_private
    off = _serve_args(["--no-players-create-private"])
    assert not load(flags=off, environ=on).players_create_private


def test_the_nine_settings_that_had_neither_have_both_now() -> None:
    nine = {
        "rate_per_second": "--rate-per-second",
        "rate_burst": "--rate-burst",
        "account_rate": "--account-rate",
        "account_burst": "--account-burst",
        "login_period": "--login-period",
        "address_period": "--address-period",
        "signup_period": "--signup-period",
        "replay_period": "--replay-period",
        "private_tables_per_player": "--private-tables-per-player",
    }
    assert {s.name: s.flag for s in SETTINGS if s.name in nine} == nine
    settings = load(flags=_serve_args(["--signup-period", "30", "--rate-burst", "9"]), environ={})
    assert (settings.signup_period, settings.rate_burst) == (30.0, 9)
    assert load(environ={"STUD8_PRIVATE_TABLES_PER_PLAYER": "1"}).private_tables_per_player == 1


def test_the_older_names_stay() -> None:
    names = {s.name: (s.flag, s.env) for s in SETTINGS}
    assert names["database_url"] == ("--database", "STUD8_DATABASE_URL")
    assert names["default_tables"] == ("--tables", "STUD8_DEFAULT_TABLES")
    assert names["redis_url"] == ("--redis", "STUD8_REDIS")
    assert names["node"] == ("--node", "STUD8_NODE")


def test_a_flag_beats_a_variable_beats_the_file_beats_the_default(tmp_path: Path) -> None:
    config = tmp_path / "stud8.toml"
    config.write_text('port = 7001\nsignups = 11\naddress_rate = 5\noperators = ["root"]\n')
    env = {"STUD8_PORT": "7002", "STUD8_SIGNUPS": "12"}
    flags = _serve_args(["--port", "7003"])
    s = load(flags=flags, environ=env, config=config)
    assert (s.port, s.signups, s.address_rate, s.operators) == (7003, 12, 5.0, ("root",))
    assert s.login_failures == Settings().login_failures  # the default
    s = load(environ={**env, "STUD8_CONFIG": str(config)})
    assert (s.port, s.signups, s.address_rate) == (7002, 12, 5.0)


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("prot = 80\n", "'prot' is not a setting (did you mean port?)"),
        ("zzz = 1\n", "'zzz' is not a setting (see docs/settings.md)"),
        ('port = "eighty"\n', "port = 'eighty': not a whole number"),
        ("port = 80.5\n", "port = 80.5: not a whole number"),
        ("players_create_private = 1\n", "players_create_private = 1: not yes or no"),
        ('log_format = "xml"\n', "log_format = 'xml': one of text, json"),
        ("operators = [1]\n", "operators = [1]: not a list of names"),
        ("port = 70000\n", "a port is 0 to 65535, not 70000"),
        ("port = \n", "not TOML"),
        ('forwarded_allow_ips = ["nginx"]\n', "'nginx' is not an address or a network"),
    ],
)
def test_a_bad_file_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, line: str
) -> None:
    config = tmp_path / "stud8.toml"
    config.write_text(text)
    database = tmp_path / "room.db"
    argv = ["serve", "--config", str(config), "--database", f"sqlite:///{database}"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("stud8 serve: ") and line in err and err.count("\n") == 1, err
    assert not database.exists()  # nothing started


def test_a_bad_variable_or_a_missing_file_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("STUD8_ADDRESS_PERIOD", "soon")
    assert main(["serve"]) == 2
    assert capsys.readouterr().err == "stud8 serve: STUD8_ADDRESS_PERIOD='soon': not a number\n"
    monkeypatch.delenv("STUD8_ADDRESS_PERIOD")
    assert main(["serve", "--config", str(tmp_path / "none.toml")]) == 2
    err = capsys.readouterr().err
    assert "none.toml: cannot be read" in err and err.count("\n") == 1
    with pytest.raises(SettingsError, match="STUD8_LOG_FORMAT='xml': one of text, json"):
        load(environ={"STUD8_LOG_FORMAT": "xml"})


def test_a_bad_flag_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--rate-burst", "lots"]) == 2
    assert "argument --rate-burst: not a whole number: 'lots'" in capsys.readouterr().err


def test_every_field_is_a_setting_with_help() -> None:
    assert [s.name for s in SETTINGS] == [f.name for f in dataclasses.fields(Settings)]
    assert all(s.help and s.flag.startswith("--") and s.env.startswith("STUD8_") for s in SETTINGS)
    assert len({s.flag for s in SETTINGS}) == len({s.env for s in SETTINGS}) == len(SETTINGS)


def test_the_settings_document_shows_the_current_table() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert settings_markdown() in text, (
        "docs/settings.md is out of date: "
        "python -m stud8.server.settings.sources --write docs/settings.md"
    )
    assert updated_doc(text) == text
    for info in SETTINGS:
        assert f"| `{info.name}` | `{info.flag}` | `{info.env}` |" in text


def test_a_public_url_is_an_http_address() -> None:
    with pytest.raises(SettingsError, match="starts with http:// or https://"):
        load(environ={"STUD8_PUBLIC_URL": "web1.example:8000"})
    assert load(environ={"STUD8_PUBLIC_URL": "http://10.0.0.2:8001"}).public_url == (
        "http://10.0.0.2:8001"
    )
