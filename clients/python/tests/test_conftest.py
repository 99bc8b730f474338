"""The tests' own helpers (offline)."""
from __future__ import annotations

import json

import pytest

from conftest import require_module

ABSENT = "uid_tests_no_such_driver"


def test_require_module_imports():
    assert require_module("json") is json


def test_require_module_skips_a_missing_driver(monkeypatch):
    """Without UID_TEST_REQUIRE_SERVER=1 a missing driver skips its tests
    (the whole module, when called as it is imported)."""
    monkeypatch.delenv("UID_TEST_REQUIRE_SERVER", raising=False)
    with pytest.raises(pytest.skip.Exception, match=ABSENT) as skipped:
        require_module(ABSENT)
    assert skipped.value.allow_module_level


def test_require_module_fails_when_required(monkeypatch):
    """With UID_TEST_REQUIRE_SERVER=1 (the CI) a missing driver is a failure."""
    monkeypatch.setenv("UID_TEST_REQUIRE_SERVER", "1")
    with pytest.raises(pytest.fail.Exception, match="UID_TEST_REQUIRE_SERVER=1 .*" + ABSENT):
        require_module(ABSENT)
