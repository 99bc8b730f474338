"""Each adapter module imports its driver (as the README says); import pgkuid
needs none (offline)."""
from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import pytest

ADAPTERS = {"pgkuid.psycopg": "psycopg", "pgkuid.psycopg2": "psycopg2", "pgkuid.asyncpg": "asyncpg",
            "pgkuid.sqlalchemy": "sqlalchemy", "pgkuid.django": "django"}


@pytest.mark.parametrize("module", list(ADAPTERS))
def test_adapter_imports_its_driver(monkeypatch, module):
    """Without its driver, an adapter module is not importable."""
    driver = ADAPTERS[module]
    for name in [n for n in sys.modules if n == driver or n.startswith(driver + ".")] + [driver]:
        monkeypatch.setitem(sys.modules, name, None)        # as if not installed
    monkeypatch.delitem(sys.modules, module, raising=False)
    with pytest.raises(ImportError, match=driver):
        importlib.import_module(module)


def test_pgkuid_needs_no_driver():
    """import pgkuid, in a fresh interpreter where no driver is importable."""
    import pgkuid
    blocked = "; ".join("sys.modules[%r] = None" % d for d in ADAPTERS.values())
    code = "import sys; %s; import pgkuid; print(pgkuid.Sno.boundary(pgkuid.DEFAULT_SNOWFLAKE_SI_EPOCH))" \
        % blocked
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=str(Path(pgkuid.__file__).parents[1]))
    assert out.returncode == 0, out.stderr
